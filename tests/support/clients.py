"""Test clients whose every request ends as a real request does: committed.

In a ``db`` test the whole test runs inside one transaction, so ``transaction.on_commit``
callbacks (queueing standings, ratings, analyses, leaderboards) would never run.
``committed()`` is Django's public ``TestCase.captureOnCommitCallbacks(execute=True)``
(what pytest-django's ``django_capture_on_commit_callbacks`` fixture uses): the callbacks
registered inside it run when it exits, as after a real commit. The clients run each
request inside it; a test calling a service directly wraps the call. In
``transaction=True`` tests nothing is captured: the callbacks run at the real commit.
"""

from contextlib import AbstractContextManager
from typing import Any

from django import test as django_test
from rest_framework import test as drf_test


def committed() -> AbstractContextManager[Any]:
    """Run the on-commit callbacks registered inside the block when it exits."""
    return django_test.TestCase.captureOnCommitCallbacks(execute=True)


class Client(django_test.Client):
    """Django's test client; a request's on-commit callbacks run when it returns."""

    def request(self, **request: Any) -> Any:
        with committed():
            return super().request(**request)


class APIClient(drf_test.APIClient):
    """DRF's test client; a request's on-commit callbacks run when it returns."""

    def request(self, **kwargs: Any) -> Any:
        with committed():
            return super().request(**kwargs)

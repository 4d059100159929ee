"""The optional error reporter: Sentry's SDK (or any service that speaks its protocol),
switched on only when ``SENTRY_DSN`` is set (``klammern_site.settings``).

Unhandled errors of requests (Django) and tasks (Celery) and records logged at ERROR are
reported; ``send_default_pii`` stays off and request bodies are never sent, so that no
address, cookie, user or deal record leaves the site. No performance tracing. Without a
DSN nothing of the SDK is initialised. This module imports nothing of the project.
"""

from __future__ import annotations

import sentry_sdk
from sentry_sdk.integrations.celery import CeleryIntegration
from sentry_sdk.integrations.django import DjangoIntegration


def init_error_reporter(*, dsn: str, environment: str) -> bool:
    """Initialise the SDK when ``dsn`` is set; whether it was."""
    if not dsn:
        return False
    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        send_default_pii=False,
        max_request_body_size="never",
        traces_sample_rate=0.0,
    )
    return True

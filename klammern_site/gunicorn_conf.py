"""gunicorn's hooks for the site (``gunicorn -c python:klammern_site.gunicorn_conf ...``).

gunicorn writes the ``Connection`` header itself and drops the one an application sets,
so the 413 of ``RequestBodyLimitMiddleware`` went out as ``Connection: keep-alive`` and
the connection was then closed anyway. ``pre_request`` marks a request whose announced
body is over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` to be closed, so that its answer says
``Connection: close`` and the client does not send the rest of the body or a next
request on it. It changes nothing else of gunicorn's settings (workers, threads, binding
stay on the command line).

With ``PROMETHEUS_MULTIPROC_DIR`` (docs/metrics.md) the master empties that directory
when it starts (``on_starting``: no value of the last run is added to this one's) and
drops a dead worker's live values (``child_exit``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from klammern_site import metrics


def on_starting(server: Any) -> None:
    metrics.empty_multiproc_dir()


def child_exit(server: Any, worker: Any) -> None:
    metrics.forget_process(worker.pid)


def announced_length(req: Any) -> int | None:
    for name, value in req.headers:
        if name == "CONTENT-LENGTH" and value.strip().isdigit():
            return int(value)
    return None


def pre_request(worker: Any, req: Any) -> None:
    worker.log.debug("%s %s", req.method, req.path)
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    length = announced_length(req)
    if limit is not None and length is not None and length > limit:
        req.force_close()

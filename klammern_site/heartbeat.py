"""The worker's heartbeat: does the default queue, the one the standings recomputes wait
in, get processed?

``/readyz`` (``klammern_site.health``) sends a tiny task through the ``celery`` queue
(``tournaments.tasks.worker_heartbeat_task``) when the last one was answered at least
``READY_HEARTBEAT_SECONDS`` ago; the worker answers by storing the time the task was
sent (``record_heartbeat``). A heartbeat still unanswered after
``READY_WORKER_LAG_SECONDS`` means that the worker is stopped, or so far behind that the
public standings lag: the site is not ready, although each web process is fine. An
unanswered heartbeat is sent again now and then (a flushed broker loses it), and the lag
counts from the first one not answered. The times live in the ``default`` cache
(Redis in production), shared by every web process and the workers.

This module reads and writes the cache only; it sends nothing itself.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.cache import cache

#: When the oldest heartbeat not yet answered was sent.
FIRST_UNANSWERED = "worker-heartbeat:first"
#: When a heartbeat was last sent (answered or not).
LAST_SENT = "worker-heartbeat:last"
#: The sending time of the newest heartbeat the worker answered.
ANSWERED = "worker-heartbeat:answered"
KEEP_SECONDS = 86400
#: An unanswered heartbeat is sent again after this many seconds.
RESEND_SECONDS = 30.0


def record_heartbeat(*, sent_at: float) -> None:
    """The worker's answer to a heartbeat sent at ``sent_at``."""
    answered = cache.get(ANSWERED)
    if answered is None or sent_at > float(answered):
        cache.set(ANSWERED, sent_at, timeout=KEEP_SECONDS)


def unanswered_seconds(now: float) -> float:
    """How long the oldest unanswered heartbeat has waited (0: none is waiting)."""
    times = cache.get_many([FIRST_UNANSWERED, ANSWERED])
    first, answered = times.get(FIRST_UNANSWERED), times.get(ANSWERED)
    if first is None or (answered is not None and float(answered) >= float(first)):
        return 0.0
    return max(now - float(first), 0.0)


def probe(*, now: float, every: float, send: Callable[[float], object]) -> float:
    """Send a heartbeat if one is due (``send(now)``); how long the oldest unanswered
    one has waited. A broker error of ``send`` is raised."""
    times = cache.get_many([FIRST_UNANSWERED, LAST_SENT, ANSWERED])
    first, last, answered = (
        times.get(FIRST_UNANSWERED),
        times.get(LAST_SENT),
        times.get(ANSWERED),
    )
    if first is None or (answered is not None and float(answered) >= float(first)):
        if first is None or now - float(first) >= every:
            cache.set_many({FIRST_UNANSWERED: now, LAST_SENT: now}, timeout=KEEP_SECONDS)
            send(now)
            return unanswered_seconds(now)
        return 0.0
    if last is None or now - float(last) >= RESEND_SECONDS:
        cache.set(LAST_SENT, now, timeout=KEEP_SECONDS)
        send(now)
    return max(now - float(first), 0.0)

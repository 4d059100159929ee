"""The retry policy every Celery task of the project shares: transient database and
broker errors are retried at most ``MAX_RETRIES`` times with jittered exponential
backoff; tasks are acknowledged late and rejected when their worker is lost."""

from __future__ import annotations

from typing import Any

from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError

MAX_RETRIES = 5

RETRYING: dict[str, Any] = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": (OperationalError, InterfaceError, BrokerError, ConnectionError),
    "max_retries": MAX_RETRIES,
    "retry_backoff": 2,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "ignore_result": True,
}

"""The real Celery worker of ``tests/tasks`` (a subprocess against Redis and the test
database) for the readiness tests."""

from tests.tasks.conftest import real_celery, start_worker, worker_redis

__all__ = ["real_celery", "start_worker", "worker_redis"]

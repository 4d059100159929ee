"""The site as deployed, on this machine: nginx (the config of ``deploy/nginx/``, rendered
by ``scripts/nginx_site.py``) in front of two gunicorn app servers, with a private Redis
and a Celery worker, against the pytest test database. Started once per session and
stopped at its end, each by its own process group (``tests/faults/harness.py``).

nginx is Debian's (``scripts/nginx.sh`` installs it, as ``make test`` does). Where it is
missing the tests are skipped with a loud message; with ``CI=true`` that is a failure.

The app servers run as in production (``DJANGO_DEBUG=0``, static files collected, the
manifest storage) but on plain HTTP (``NGINX_TLS=off``, ``DJANGO_SECURE_SSL_REDIRECT=0``)
and trusting one proxy (``DJANGO_TRUSTED_PROXY_COUNT=1``). Rate limits are high except
the wrong table codes' lockout, which the client address test runs into.

The readiness tests use the real Celery worker fixtures of ``tests/tasks`` (re-exported).
"""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from scripts.nginx_site import Site, app_body_limit, find_nginx, nginx_command, render
from tests.faults.harness import (
    ROOT,
    CeleryWorker,
    Child,
    Gunicorn,
    RedisServer,
    free_port,
    port_open,
    service_env,
    wait_until,
)
from tests.tasks.conftest import real_celery, start_worker, worker_redis  # noqa: F401

from .proxy import Proxy

#: wrong table codes one address may send per minute through the proxy
CODE_RATE = 4


@dataclass
class Stack:
    """The running stack: the proxy's client, its app servers and where they log."""

    proxy: Proxy
    apps: list[Gunicorn]
    static_root: Path
    site: Site


def nginx_or_skip() -> str:
    nginx = find_nginx()
    if nginx is not None:
        return nginx
    message = "nginx is not installed: the proxy tests need it (scripts/nginx.sh installs it)"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message, pytrace=False)
    warnings.warn(message, stacklevel=1)
    sys.stderr.write(f"\n*** SKIPPED: {message} ***\n")
    pytest.skip(message)


def test_database_url() -> str:
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def app_env(*, database_url: str, redis_url: str, static_root: Path) -> dict[str, str]:
    env = service_env(database_url=database_url, redis_url=redis_url)
    env.update(
        {
            "DJANGO_DEBUG": "0",
            # the tests' own: device codes and tokens are hashed with it
            "DJANGO_SECRET_KEY": settings.SECRET_KEY,
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DJANGO_SECURE_SSL_REDIRECT": "0",
            "DJANGO_TRUSTED_PROXY_COUNT": "1",
            "DJANGO_STATIC_ROOT": str(static_root),
            "RECOMPUTE_DEBOUNCE_SECONDS": "0",
            "ANALYSE_DEALS_ON_ENTRY": "0",
            "LOCKOUT_CODE_RATE": f"{CODE_RATE}/m",
        }
    )
    return env


@pytest.fixture(scope="session")
def stack(
    tmp_path_factory: pytest.TempPathFactory, django_db_setup: Any, django_db_blocker: Any
) -> Iterator[Stack]:
    nginx = nginx_or_skip()
    workdir = tmp_path_factory.mktemp("production")
    static_root = workdir / "static"
    with django_db_blocker.unblock():
        database_url = test_database_url()
    redis = RedisServer(workdir)
    redis.start()
    env = app_env(database_url=database_url, redis_url=redis.url, static_root=static_root)
    children: list[Child] = [redis]
    try:
        # collected while the worker starts (the app servers read the manifest at start)
        collect = subprocess.Popen(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=ROOT,
            env=env,
        )
        worker = CeleryWorker(env=env, workdir=workdir)
        worker.start()
        children.append(worker)
        assert collect.wait(timeout=300) == 0, "collectstatic failed"
        apps = [Gunicorn(env=env, workdir=workdir / f"app{n}", workers=1) for n in (1, 2)]
        for app in apps:
            app.log.parent.mkdir()
            app.start()
            children.append(app)
        site = Site(
            directory=workdir / "nginx",
            listen=f"127.0.0.1:{free_port()}",
            upstreams=[f"127.0.0.1:{app.port}" for app in apps],
            static_root=static_root,
            body_limit=app_body_limit(),
        )
        render(site)
        proxy_process = Child(
            "nginx", nginx_command(site, nginx), env=dict(os.environ), log=workdir / "nginx.log"
        )
        proxy_process.start()
        children.append(proxy_process)
        port = int(site.listen.rsplit(":", 1)[1])
        wait_until(lambda: port_open(port), timeout=15, what="nginx")
        yield Stack(Proxy(port, site.directory / "logs" / "access.log"), apps, static_root, site)
    finally:
        for child in reversed(children):
            child.stop()


@pytest.fixture
def proxy(stack: Stack, transactional_db: Any) -> Proxy:
    """The proxy's client, for a test whose data the app servers see (committed)."""
    return stack.proxy

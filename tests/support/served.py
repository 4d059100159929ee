"""What the site serves from a database, read by a process of its own: ``python -m
tests.support.served URL...`` with ``DATABASE_URL`` naming the database prints one JSON
object, each URL with its status and body (JSON decoded; a page's HTML with the request's
CSP nonce and CSRF token blanked, which differ per request), as an anonymous visitor.

The requests go through the site's whole WSGI stack (middleware, views, serializers,
templates) with Django's test client, in a fresh process with an empty local cache and
Celery in-process, so two databases (one restored from a backup of the other, or one
migrated from an older release) can be compared by what the site shows of them, not
only by their rows. ``served(database_url, urls)`` runs it from a test.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
NONCE = re.compile(r'nonce="[^"]*"')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


def database_url(settings_dict: dict[str, Any], *, name: str | None = None) -> str:
    """The URL of a PostgreSQL database of the same server and user as ``settings_dict``."""
    auth = settings_dict["USER"] + (
        f":{settings_dict['PASSWORD']}" if settings_dict["PASSWORD"] else ""
    )
    host = f"{settings_dict['HOST'] or '127.0.0.1'}:{settings_dict['PORT'] or 5432}"
    return f"postgres://{auth}@{host}/{name or settings_dict['NAME']}"


def served(url: str, paths: list[str], *, extra_env: dict[str, str] | None = None) -> Any:
    """Run this module in a child process against the database at ``url``."""
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DJANGO_DEBUG"}}
    env.update({"DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "klammern_site.settings"})
    env.update(extra_env or {})
    result = subprocess.run(
        [sys.executable, "-m", "tests.support.served", *paths],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout)


def body_of(response: Any) -> Any:
    if response.get("Content-Type", "").startswith("application/json"):
        return json.loads(response.content)
    text = response.content.decode("utf-8", errors="replace")
    return CSRF.sub('name="csrfmiddlewaretoken"', NONCE.sub("nonce", text))


def main(paths: list[str]) -> None:
    import django

    django.setup()
    from django.test import Client

    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    answers = {}
    for path in paths:
        accept = "application/json" if path.startswith("/api/") else "text/html"
        response = client.get(path, HTTP_ACCEPT=accept)
        answers[path] = [response.status_code, body_of(response)]
    sys.stdout.write(json.dumps(answers, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1:])

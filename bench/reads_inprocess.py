"""In-process CPU per public standings read: the WSGI application called directly (no
server, no network), ``time.process_time`` over many anonymous reads of the API
(``/api/tournaments/{id}/standings/``) and of the HTML page (``/tournaments/{id}/standings/``).

What a read costs Django itself, the part of ``bench/load.py reads`` a change in this
repository can move; gunicorn's own handling and the network are not in it. Runs with
``DJANGO_DEBUG=0`` and the anonymous rate limit lifted, on a throw-away test database
(``test_<name>`` of ``DATABASE_URL``, created and dropped), Redis database 6 as cache,
after ``collectstatic`` (the static manifest that ``DJANGO_DEBUG=0`` needs).

    .venv/bin/python bench/reads_inprocess.py --requests 2000
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def configure() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/klammern_inprocess")
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/6")
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "klammern_site.settings",
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": "bench-only-" + "x" * 50,
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "DJANGO_SECURE_SSL_REDIRECT": "0",
            "THROTTLE_ANON": "10000000/min",
        }
    )


def make_tournament() -> int:
    from django.contrib.auth import get_user_model

    from tournaments.clubs.models import Club
    from tournaments.draw import services as draw
    from tournaments.events import services
    from tournaments.results import snapshots

    club = Club.objects.create(name="KC Bench", slug="bench")
    get_user_model().objects.create_user("bench", password="bench-only")
    tournament = services.create_tournament(club=club, name="Herbstturnier", slug="herbst")
    for number in range(16):
        player = services.create_player(club=club, name=f"Spieler {number:02d}")
        registration = services.register_player(tournament=tournament, player=player)
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    services.publish_round(round_=draw.draw_round(tournament=tournament, seed=1))
    snapshots.recompute_standings(tournament_id=tournament.pk)
    return tournament.pk


def environ(path: str, accept: str) -> dict[str, object]:
    return {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "HTTP_HOST": "127.0.0.1:8000",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_ACCEPT": accept,
        "HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": sys.stderr,
        "wsgi.url_scheme": "http",
        "wsgi.version": (1, 0),
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }


def cpu_per_read(application: object, path: str, accept: str, requests: int) -> float:
    """Milliseconds of this process's CPU per read, after as many warm-up reads."""
    statuses = set()

    def start_response(status: str, headers: object) -> None:
        statuses.add(status)

    def read() -> None:
        body = application(environ(path, accept), start_response)  # type: ignore[operator]
        b"".join(body)
        body.close()

    read()
    assert statuses == {"200 OK"}, statuses
    for _ in range(min(requests, 200)):
        read()
    started = time.process_time()
    for _ in range(requests):
        read()
    elapsed = time.process_time() - started
    assert statuses == {"200 OK"}, statuses
    return elapsed / requests * 1000


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000)
    args = parser.parse_args(argv)
    configure()
    import django

    django.setup()
    from django.core.cache import cache
    from django.core.management import call_command
    from django.core.wsgi import get_wsgi_application
    from django.db import connection

    call_command("collectstatic", interactive=False, verbosity=0)  # the manifest DEBUG=0 needs
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        cache.clear()
        pk = make_tournament()
        application = get_wsgi_application()
        api = cpu_per_read(
            application, f"/api/tournaments/{pk}/standings/", "application/json", args.requests
        )
        page = cpu_per_read(
            application,
            f"/tournaments/{pk}/standings/",
            "text/html,application/xhtml+xml,*/*;q=0.8",
            args.requests,
        )
        print(f"API  {api:.3f} ms CPU per read ({args.requests} reads)")
        print(f"page {page:.3f} ms CPU per read ({args.requests} reads)")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main(sys.argv[1:])

"""docker-compose.yml runs the migrations, the app role's setup and the backups as the
tables' owner, and every other service of the site's image as the site's own role
(``tests/platform/test_app_role.py`` proves what that role is refused); the image has
``pg_dump`` of the database server's major version; the backup service runs daily into a
volume of its own."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import dj_database_url
import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES: dict[str, Any] = COMPOSE["services"]
AS_OWNER = {"migrate", "backup"}
#: compose's own substitution of ``${VAR:?message}`` from .env (a stand-in value here)
VARIABLE = re.compile(r"\$\{(\w+)(:[?-][^}]*)?\}")


def user_in(url: str) -> str:
    return str(dj_database_url.parse(VARIABLE.sub("from-env", url))["USER"])


def user_of(service: str) -> str:
    return user_in(SERVICES[service]["environment"]["DATABASE_URL"])


def command_of(service: str) -> list[str]:
    command = SERVICES[service]["command"]
    return shlex.split(command[2]) if command[:2] == ["sh", "-c"] else [str(c) for c in command]


def site_services() -> list[str]:
    return [name for name, spec in SERVICES.items() if "build" in spec and name not in AS_OWNER]


def test_the_owner_migrates_and_creates_the_sites_role() -> None:
    site_url = COMPOSE["x-app-env"]["DATABASE_URL"]  # what the site's services get
    owner, app = user_of("migrate"), user_in(site_url)
    assert owner == SERVICES["db"]["environment"]["POSTGRES_USER"] != app
    script = SERVICES["migrate"]["command"][2]
    assert script == "python manage.py migrate --noinput && python manage.py setup_app_role"
    assert SERVICES["migrate"]["environment"]["APP_DATABASE_URL"] == site_url


def test_the_site_and_its_workers_connect_as_the_sites_role() -> None:
    services = site_services()
    assert {"worker", "analysis", "beat"} <= set(services)
    assert any(service.startswith("web") for service in services)
    for service in services:
        assert user_of(service) == "klammern_app", service
        # .env is their env_file: the owner's password is blanked in their environment
        assert SERVICES[service]["environment"]["POSTGRES_PASSWORD"] == "", service


def test_the_backup_service_runs_daily_into_its_volume() -> None:
    command = command_of("backup")
    assert user_of("backup") == user_of("migrate")
    assert command[:3] == ["python", "manage.py", "backup_database"]
    directory = command[command.index("--dir") + 1]
    assert f"backups:{directory}" in SERVICES["backup"]["volumes"]
    assert "backups" in COMPOSE["volumes"]
    assert float(command[command.index("--every-hours") + 1]) == 24
    assert int(command[command.index("--keep") + 1]) >= 7


def test_the_image_has_the_servers_client_tools() -> None:
    server = re.fullmatch(r"postgres:(\d+)", SERVICES["db"]["image"])
    assert server, SERVICES["db"]["image"]
    dockerfile = (ROOT / "Dockerfile").read_text()
    client = re.search(r"ARG POSTGRES_CLIENT=(\d+)", dockerfile)
    assert client and int(client.group(1)) >= int(server.group(1))
    assert "postgresql-client-${POSTGRES_CLIENT}" in dockerfile

"""docker-compose.yml runs the site as the proxy tests run it: nginx (the official image,
the templates of deploy/nginx/ mounted) in front of two app servers of the site's image,
static files from a volume that a collectstatic step fills, and nginx alone publishing
ports. Checked with ``docker compose config`` where docker compose is usable, else on the
parsed file; the other services stay as they were."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.conf import settings

from scripts.nginx_site import TEMPLATES, VARIABLE, body_limit_text

ROOT = Path(__file__).resolve().parents[2]
COMPOSE: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES: dict[str, Any] = COMPOSE["services"]
WEB = ("web", "web2")


def template_variables() -> set[str]:
    names = set()
    for template in TEMPLATES.rglob("*.template"):
        names |= {a or b for a, b in VARIABLE.findall(template.read_text())}
    return names


def test_the_other_services_are_kept() -> None:
    assert {"db", "redis", "migrate", "worker", "analysis", "beat", "backup"} <= set(SERVICES)


def test_two_app_servers_of_the_sites_image_trust_one_proxy() -> None:
    for name in WEB:
        web = SERVICES[name]
        assert web["build"] == "." and "command" not in web  # the image's gunicorn
        assert web["environment"]["DJANGO_TRUSTED_PROXY_COUNT"] == "1"
        assert web["environment"]["DJANGO_BEHIND_TLS_PROXY"] == "1"
        assert web["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        assert "healthcheck" in web and web["expose"] == ["8000"]


def test_only_nginx_publishes_ports() -> None:
    published = {name for name, spec in SERVICES.items() if spec.get("ports")}
    assert published == {"nginx"}
    assert set(SERVICES["nginx"]["ports"]) == {"80:80", "443:443"}


def test_nginx_runs_the_templates_in_front_of_both_servers() -> None:
    nginx = SERVICES["nginx"]
    assert re.fullmatch(r"nginx:[\d.]+", nginx["image"])
    env = nginx["environment"]
    assert "./deploy/nginx/templates:/etc/nginx/templates:ro" in nginx["volumes"]
    assert env["NGINX_ENVSUBST_FILTER"] == "^NGINX_"
    assert template_variables() <= set(env), template_variables() - set(env)
    assert env["NGINX_UPSTREAM_SERVERS"] == " ".join(f"server {w}:8000;" for w in WEB)
    assert env["NGINX_BODY_LIMIT"] == body_limit_text(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    assert env["NGINX_CONF_DIR"] == "/etc/nginx/conf.d"
    assert env["NGINX_TLS"] == "${NGINX_TLS:-on}"
    for name in WEB:
        assert nginx["depends_on"][name]["condition"] == "service_healthy"


def test_static_files_reach_nginx_through_a_volume() -> None:
    collect = SERVICES["collectstatic"]
    assert collect["command"] == ["python", "manage.py", "collectstatic", "--noinput"]
    assert "static:/app/staticfiles" in collect["volumes"]  # the image's STATIC_ROOT
    nginx = SERVICES["nginx"]
    root = nginx["environment"]["NGINX_STATIC_ROOT"]
    assert f"static:{root}:ro" in nginx["volumes"]
    assert nginx["depends_on"]["collectstatic"]["condition"] == "service_completed_successfully"
    assert {"static", "nginxcache"} <= set(COMPOSE["volumes"])


def test_docker_compose_accepts_the_file(tmp_path: Path) -> None:
    docker = shutil.which("docker")
    usable = (
        docker
        and subprocess.run(
            [docker, "compose", "version"], capture_output=True, check=False
        ).returncode
        == 0
    )
    if not usable:
        pytest.skip("docker compose is not installed here: the file is checked as parsed above")
    env = tmp_path / ".env"
    env.write_text("POSTGRES_PASSWORD=x\nAPP_DB_PASSWORD=y\n")
    result = subprocess.run(
        [docker, "compose", "-f", str(ROOT / "docker-compose.yml"), "--env-file", str(env),
         "config", "--format", "json"],
        capture_output=True, text=True, check=False, cwd=ROOT,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert {"nginx", *WEB} <= set(yaml.safe_load(result.stdout)["services"])

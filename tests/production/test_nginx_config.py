"""The nginx config (``deploy/nginx/templates``, rendered by ``scripts/nginx_site.py``):
it matches the app's settings (languages, body limit), nginx accepts it in both forms, and
with certificates it serves HTTPS and redirects HTTP there."""

from __future__ import annotations

import http.client
import os
import re
import shutil
import ssl
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

from scripts.nginx_site import (
    TEMPLATES,
    Site,
    body_limit_text,
    nginx_command,
    render,
    render_templates,
    substitute,
)
from tests.faults.harness import Child, free_port, port_open, wait_until

from .conftest import Stack, nginx_or_skip


def site_in(directory: Path, **options: object) -> Site:
    return Site(
        directory=directory,
        listen=f"127.0.0.1:{free_port()}",
        upstreams=["127.0.0.1:1", "127.0.0.1:2"],
        static_root=directory / "static",
        body_limit=settings.DATA_UPLOAD_MAX_MEMORY_SIZE,
        **options,  # type: ignore[arg-type]
    )


def self_signed(directory: Path) -> tuple[Path, Path]:
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.fail("openssl is needed to make a test certificate", pytrace=False)
    certificate, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
         "/CN=localhost", "-keyout", str(key), "-out", str(certificate)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return certificate, key


def test_the_cache_key_knows_the_sites_languages() -> None:
    text = (TEMPLATES / "default.conf.template").read_text()
    codes = {code for code, _name in settings.LANGUAGES}
    patterns = re.findall(r"\(\?<\w+>([a-z|]+)\)", text)
    assert len(patterns) == 2 and all(set(p.split("|")) == codes for p in patterns)
    assert "$cookie_" + settings.LANGUAGE_COOKIE_NAME in text
    assert "$cookie_" + settings.SESSION_COOKIE_NAME in text


def test_the_body_limit_is_the_apps(tmp_path: Path) -> None:
    site = site_in(tmp_path)
    assert site.variables()["NGINX_BODY_LIMIT"] == "256k" == body_limit_text(256 * 1024)
    render(site)
    rendered = (site.conf_dir / "klammern" / "site.conf").read_text()
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    assert f"client_max_body_size {body_limit_text(limit)};" in rendered


def test_every_variable_needs_a_value(tmp_path: Path) -> None:
    variables = site_in(tmp_path).variables()
    render_templates(variables, tmp_path / "out")
    leftover = [p for p in (tmp_path / "out").rglob("*.conf") if "${NGINX_" in p.read_text()]
    assert not leftover
    with pytest.raises(KeyError, match="NGINX_TLS"):
        substitute("include x-${NGINX_TLS}.conf;", {}, source="t")


@pytest.mark.parametrize("tls", [False, True], ids=["plain", "tls"])
def test_nginx_accepts_the_config(tmp_path: Path, tls: bool) -> None:
    nginx = nginx_or_skip()
    options: dict[str, object] = {}
    if tls:
        certificate, key = self_signed(tmp_path)
        options = {"tls_certificate": certificate, "tls_key": key, "https_listen": "127.0.0.1:1"}
    site = site_in(tmp_path / "nginx", **options)
    render(site)
    result = subprocess.run(
        nginx_command(site, nginx, "-t"), capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


def test_with_certificates_http_is_redirected_to_https(stack: Stack, tmp_path: Path) -> None:
    nginx = nginx_or_skip()
    certificate, key = self_signed(tmp_path)
    https_port = free_port()
    site = Site(
        directory=tmp_path / "nginx",
        listen=f"127.0.0.1:{free_port()}",
        upstreams=stack.site.upstreams,
        static_root=stack.static_root,
        body_limit=settings.DATA_UPLOAD_MAX_MEMORY_SIZE,
        tls_certificate=certificate,
        tls_key=key,
        https_listen=f"127.0.0.1:{https_port}",
    )
    render(site)
    process = Child(
        "nginx-tls", nginx_command(site, nginx), env=dict(os.environ), log=tmp_path / "log"
    )
    process.start()
    try:
        wait_until(lambda: port_open(https_port), timeout=15, what="nginx with TLS")
        plain = http.client.HTTPConnection("127.0.0.1", int(site.listen.rsplit(":", 1)[1]))
        plain.request("GET", "/tournaments/1/standings/?x=1")
        redirect = plain.getresponse()
        assert redirect.status == 301
        assert redirect.getheader("Location") == (
            f"https://127.0.0.1:{https_port}/tournaments/1/standings/?x=1"
        )
        context = ssl.create_default_context(cafile=str(certificate))
        context.check_hostname = False
        secure = http.client.HTTPSConnection("127.0.0.1", https_port, context=context)
        secure.request("GET", "/healthz", headers={"Host": "localhost"})
        answer = secure.getresponse()
        assert answer.status == 200, answer.read()[:300]
        assert answer.getheader("X-Request-ID")
    finally:
        process.stop()

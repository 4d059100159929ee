#!/usr/bin/env python3
"""Renders the site's nginx config (``deploy/nginx/templates``, the templates the official
nginx image fills in with envsubst in docker-compose.yml) for an nginx run on this machine:
the tests in ``tests/production/`` and ``bench/load.py --proxy`` use it, so that they and
compose run one config.

    python scripts/nginx_site.py --dir /tmp/klammern-nginx --listen 127.0.0.1:18380 \\
        --upstream 127.0.0.1:18301 --upstream 127.0.0.1:18302 --static-root staticfiles
    python scripts/nginx_site.py ... --run      # and run nginx in the foreground

The directory gets ``nginx.conf`` (a main config around the templates: its own pid file,
temp, cache and log paths, so that it needs nothing of the system's nginx but its binary
and ``mime.types``) and ``conf.d/`` with the rendered templates. Start it with the command
``nginx_command`` returns (``-p DIR -c DIR/nginx.conf -e DIR/logs/error.log``; not a daemon).
With ``--tls-certificate`` and ``--tls-key`` the site is served over HTTPS on
``--https-listen`` and HTTP is redirected there (``NGINX_TLS=on``).
"""

from __future__ import annotations

import argparse
import getpass
import os
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "deploy" / "nginx" / "templates"
SUFFIX = ".template"
#: ``$NAME`` or ``${NAME}`` of the variables the templates take (envsubst's forms)
VARIABLE = re.compile(r"\$(?:\{(NGINX_\w+)\}|(NGINX_\w+))")
NGINX_CANDIDATES = ("/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/nginx/sbin/nginx")


@dataclass
class Site:
    """What differs between one local run of the proxy and another."""

    directory: Path
    listen: str
    upstreams: list[str]
    static_root: Path
    body_limit: int
    workers: int = 1
    tls_certificate: Path | None = None
    tls_key: Path | None = None
    https_listen: str = ""
    mime_types: Path = Path("/etc/nginx/mime.types")

    @property
    def conf_dir(self) -> Path:
        return self.directory / "conf.d"

    @property
    def tls(self) -> bool:
        return self.tls_certificate is not None

    def variables(self) -> dict[str, str]:
        """The values of the templates' ``NGINX_*`` variables (docker-compose.yml sets the
        same names for the image)."""
        https_port = self.https_listen.rsplit(":", 1)[-1] if self.https_listen else "443"
        return {
            "NGINX_UPSTREAM_SERVERS": " ".join(f"server {u};" for u in self.upstreams),
            "NGINX_TLS": "on" if self.tls else "off",
            "NGINX_HTTP_LISTEN": self.listen,
            "NGINX_HTTPS_LISTEN": self.https_listen or "443",
            "NGINX_HTTPS_PORT_SUFFIX": "" if https_port == "443" else f":{https_port}",
            "NGINX_TLS_CERTIFICATE": str(self.tls_certificate or ""),
            "NGINX_TLS_CERTIFICATE_KEY": str(self.tls_key or ""),
            "NGINX_STATIC_ROOT": str(self.static_root.resolve()),
            "NGINX_CACHE_DIR": str(self.directory / "cache"),
            "NGINX_BODY_LIMIT": body_limit_text(self.body_limit),
            "NGINX_CONF_DIR": str(self.conf_dir),
            "NGINX_ACCESS_LOG": str(self.directory / "logs" / "access.log"),
        }


def body_limit_text(limit: int) -> str:
    """nginx's size for the app's byte limit: in k when it is whole kilobytes."""
    return f"{limit // 1024}k" if limit % 1024 == 0 else str(limit)


def app_body_limit() -> int:
    """The app's request body limit (``DATA_UPLOAD_MAX_MEMORY_SIZE``) from its settings."""
    sys.path.insert(0, str(ROOT))
    from klammern_site import settings

    return int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)


def substitute(text: str, variables: dict[str, str], *, source: str) -> str:
    """envsubst of the templates' variables; a variable without a value is an error (the
    image would leave it in place and nginx would refuse the config later)."""

    def value(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        if name not in variables:
            raise KeyError(f"{source}: no value for ${{{name}}}")
        return variables[name]

    return VARIABLE.sub(value, text)


def render_templates(variables: dict[str, str], out: Path) -> list[Path]:
    """Every template, as the image renders it: ``a/b.conf.template`` to ``out/a/b.conf``."""
    written = []
    for template in sorted(TEMPLATES.rglob(f"*{SUFFIX}")):
        relative = template.relative_to(TEMPLATES)
        target = out / str(relative)[: -len(SUFFIX)]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(substitute(template.read_text(), variables, source=str(relative)))
        written.append(target)
    return written


def main_config(site: Site) -> str:
    """The main config around the rendered templates, as the image's nginx.conf is."""
    d = site.directory
    temp = d / "temp"
    user = f"user {getpass.getuser()};\n" if os.geteuid() == 0 else ""
    return f"""# written by scripts/nginx_site.py
{user}worker_processes {site.workers};
pid {d / "nginx.pid"};
error_log {d / "logs" / "error.log"} warn;

events {{
    worker_connections 4096;
}}

http {{
    include {site.mime_types};
    default_type application/octet-stream;
    sendfile on;
    tcp_nopush on;
    keepalive_timeout 65;
    keepalive_requests 100000;
    client_body_temp_path {temp / "body"};
    proxy_temp_path {temp / "proxy"};
    fastcgi_temp_path {temp / "fastcgi"};
    uwsgi_temp_path {temp / "uwsgi"};
    scgi_temp_path {temp / "scgi"};
    include {site.conf_dir / "default.conf"};
}}
"""


def render(site: Site) -> Path:
    """Write the config into ``site.directory`` (its rendered files replaced, the cache
    kept); returns the main config's path."""
    for sub in ("logs", "cache", "temp"):
        (site.directory / sub).mkdir(parents=True, exist_ok=True)
    shutil.rmtree(site.conf_dir, ignore_errors=True)
    render_templates(site.variables(), site.conf_dir)
    main = site.directory / "nginx.conf"
    main.write_text(main_config(site))
    return main


def find_nginx() -> str | None:
    """The nginx binary: on the PATH or where Debian and nginx.org put it."""
    found = shutil.which("nginx")
    if found:
        return found
    return next((c for c in NGINX_CANDIDATES if os.access(c, os.X_OK)), None)


def nginx_command(site: Site, nginx: str, *extra: str) -> list[str]:
    """nginx in the foreground with this site's prefix, config and error log."""
    d = site.directory
    return [
        nginx,
        "-p",
        str(d),
        "-c",
        str(d / "nginx.conf"),
        "-e",
        str(d / "logs" / "error.log"),
        "-g",
        "daemon off;",
        *extra,
    ]


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, required=True, help="where the config is written")
    parser.add_argument("--listen", default="127.0.0.1:18380", help="HTTP address:port")
    parser.add_argument(
        "--upstream", action="append", required=True, help="an app server, host:port (repeat)"
    )
    parser.add_argument("--static-root", type=Path, default=ROOT / "staticfiles")
    parser.add_argument("--workers", type=int, default=1, help="nginx worker processes")
    parser.add_argument("--tls-certificate", type=Path, help="PEM certificate chain: HTTPS on")
    parser.add_argument("--tls-key", type=Path, help="its PEM private key")
    parser.add_argument("--https-listen", default="127.0.0.1:18743", help="HTTPS address:port")
    parser.add_argument("--run", action="store_true", help="then run nginx in the foreground")
    return parser.parse_args(argv)


def main(argv: list[str]) -> None:
    args = parse(argv)
    if (args.tls_certificate is None) != (args.tls_key is None):
        raise SystemExit("--tls-certificate and --tls-key go together")
    site = Site(
        directory=args.dir.resolve(),
        listen=args.listen,
        upstreams=args.upstream,
        static_root=args.static_root,
        body_limit=app_body_limit(),
        workers=args.workers,
        tls_certificate=args.tls_certificate,
        tls_key=args.tls_key,
        https_listen=args.https_listen if args.tls_certificate else "",
    )
    render(site)
    nginx = find_nginx()
    if nginx is None:
        raise SystemExit("nginx is not installed (scripts/nginx.sh installs Debian's)")
    command = nginx_command(site, nginx)
    if args.run:
        os.execv(nginx, command)
    print(" ".join(command[:-2] + ["-g", "'daemon off;'"]))


if __name__ == "__main__":
    main(sys.argv[1:])

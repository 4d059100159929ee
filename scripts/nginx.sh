#!/usr/bin/env bash
# Makes sure Debian's nginx is installed for the proxy tests (tests/production/) and
# bench/load.py --proxy. They run it as a child with its own prefix, config and pid
# (scripts/nginx_site.py), never the system's nginx service.
set -eu
command -v nginx >/dev/null 2>&1 && exit 0
[ -x /usr/sbin/nginx ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "nginx: installing Debian nginx"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
else
  echo "nginx: /usr/sbin/nginx is missing; install Debian's nginx package" >&2
  exit 1
fi

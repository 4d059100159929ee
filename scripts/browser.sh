#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed for the Playwright browser tests.
# Playwright never downloads a browser here: the tests launch /usr/bin/chromium.
set -eu
[ -x /usr/bin/chromium ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "browser: installing Debian chromium"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
else
  echo "browser: /usr/bin/chromium is missing; install Debian's chromium package" >&2
  exit 1
fi

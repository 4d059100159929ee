#!/usr/bin/env bash
# Prints the path of a Python 3.12+ interpreter: the version .python-version names
# (pyenv layout), else any python3.12 / python3.13 on PATH or under pyenv.
set -u
want=$(cat "$(dirname "$0")/../.python-version" 2>/dev/null)
for p in "${PYENV_ROOT:-/root/.pyenv}/versions/$want/bin/python" \
         "$(command -v python3.12 2>/dev/null)" \
         ${PYENV_ROOT:-/root/.pyenv}/versions/3.12.*/bin/python \
         "$(command -v python3.13 2>/dev/null)" \
         ${PYENV_ROOT:-/root/.pyenv}/versions/3.13.*/bin/python \
         "$(command -v python3 2>/dev/null)"; do
  [ -n "$p" ] && [ -x "$p" ] || continue
  if "$p" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then
    echo "$p"; exit 0
  fi
done
echo "find-python: no Python 3.12+ found (install it, e.g. with pyenv)" >&2
exit 1

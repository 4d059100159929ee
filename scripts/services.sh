#!/usr/bin/env bash
# Makes sure PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379) answer, starting the
# machine's own servers when they do not. Exits non-zero if either still does not answer:
# tests never skip a missing service, they fail.
set -u

pg_up() { pg_isready -q -h 127.0.0.1 -p 5432 -U postgres 2>/dev/null; }
redis_up() { [ "$(redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null)" = "PONG" ]; }

wait_for() {  # wait_for NAME CHECK: up to 30 s
  for _ in $(seq 1 60); do "$2" && return 0; sleep 0.5; done
  echo "services: $1 does not answer" >&2
  return 1
}

if ! pg_up; then
  echo "services: starting PostgreSQL"
  if command -v pg_ctlcluster >/dev/null 2>&1; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
  fi
fi
if ! redis_up; then
  echo "services: starting Redis"
  if command -v redis-server >/dev/null 2>&1; then
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no || true
  fi
fi
wait_for PostgreSQL pg_up && wait_for Redis redis_up || exit 1
# The development database named by the default DATABASE_URL (tests make their own).
if ! psql -h 127.0.0.1 -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'klammern'" \
    | grep -q 1; then
  createdb -h 127.0.0.1 -U postgres klammern && echo "services: created database klammern"
fi
echo "services: PostgreSQL and Redis answer"

# Production image: the Django site under gunicorn; the same image runs the Celery worker
# and beat (see docker-compose.yml).

# The rules engine compiled with mypyc (scripts/build_engine.py): the full image has gcc.
# Same Python version as the final image, so the build's digest matches there; if it did
# not, the engine would run interpreted (games/engine/native.py), never stale.
FROM python:3.12 AS engine
WORKDIR /app
COPY requirements-build.txt .
RUN pip install --no-cache-dir -r requirements-build.txt
COPY games/ games/
COPY scripts/build_engine.py scripts/
RUN python scripts/build_engine.py

FROM python:3.12-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
# pg_dump and pg_restore for backup_database and restore_database: of the server's major
# version (docker-compose.yml's postgres:16) from PostgreSQL's own Debian repository, as
# pg_dump refuses a server newer than itself (Debian's own client is 15).
ARG POSTGRES_CLIENT=16
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-common ca-certificates \
    && /usr/share/postgresql-common/pgdg/apt.postgresql.org.sh -y \
    && apt-get install -y --no-install-recommends postgresql-client-${POSTGRES_CLIENT} \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
COPY --from=engine /app/build/engine-native build/engine-native
RUN python -c "import games.engine as e; print('engine compiled:', e.running_native())"
RUN DJANGO_SECRET_KEY=build-only DJANGO_DEBUG=0 python manage.py collectstatic --noinput
RUN useradd --create-home klammern && chown -R klammern /app \
    && mkdir /backups && chown klammern /backups
USER klammern
EXPOSE 8000
CMD ["gunicorn", "klammern_site.wsgi:application", "--config", "python:klammern_site.gunicorn_conf", "--bind", "0.0.0.0:8000", "--workers", "2", "--worker-class", "gthread", "--threads", "8"]

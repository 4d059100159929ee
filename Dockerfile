# Production image: the Django site under gunicorn; the same image runs the Celery worker
# and beat (see docker-compose.yml).
FROM python:3.12-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
RUN DJANGO_SECRET_KEY=build-only DJANGO_DEBUG=0 python manage.py collectstatic --noinput
RUN useradd --create-home klammern && chown -R klammern /app
USER klammern
EXPOSE 8000
CMD ["gunicorn", "klammern_site.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "2", "--worker-class", "gthread", "--threads", "8", "--access-logfile", "-"]

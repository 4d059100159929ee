"""The Celery application.

Configuration comes from Django settings named ``CELERY_*``; tasks are discovered in each
installed app's ``tasks.py``. Without ``REDIS_URL`` settings make tasks run in-process.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "klammern_site.settings")

app = Celery("klammern_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

"""Settings for the whole site, driven by environment variables.

Without any variable set the site runs locally: DEBUG on, SQLite in ``db.sqlite3`` at the
repository root, Celery tasks executed in-process and a local-memory cache. Production sets
``DJANGO_DEBUG=0``, ``DJANGO_SECRET_KEY``, ``DJANGO_ALLOWED_HOSTS``, ``DATABASE_URL`` and
``REDIS_URL``; with DEBUG off the HTTPS settings are switched on, so that
``manage.py check --deploy`` passes without warnings.
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from kombu import Queue

from klammern_site.error_reporting import init_error_reporter

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", True)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off.")
    SECRET_KEY = "django-insecure-dev-only-k1amm3rn-h3rzbub3-n0t-f0r-pr0duct10n-us3-!"

ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver" if DEBUG else ""
)
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files, served by the site itself
    "django_htmx",
    "pgtrigger",
    "tournaments",
    "games",
]

MIDDLEWARE = [
    # first: the request's id, its metrics and its log line cover every answer below
    "klammern_site.observability.RequestMiddleware",
    "klammern_site.middleware.RequestBodyLimitMiddleware",  # 413 before anything reads a body
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # the site's own answers (pages, partials, API) gzipped; static files come
    # precompressed from whitenoise above (CompressedManifestStaticFilesStorage)
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "klammern_site.middleware.ApiLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "klammern_site.middleware.DatabaseUnavailableMiddleware",  # 503, not 500, on a lost DB
    # a short public lifetime on the anonymous public reads, for the proxy in front
    "klammern_site.public_cache.PublicReadCacheMiddleware",
]

ROOT_URLCONF = "klammern_site.urls"
WSGI_APPLICATION = "klammern_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            # ``{{ player|public_name }}`` and ``{% footer_club %}`` everywhere
            # (tournaments/web/names.py, tournaments/web/footer.py).
            "builtins": ["tournaments.web.names", "tournaments.web.footer"],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",  # {{ csp_nonce }} for inline scripts
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------
CONN_MAX_AGE = int(os.environ.get("CONN_MAX_AGE", "60"))
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=CONN_MAX_AGE,
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Local runs: tablets write at the same time. IMMEDIATE takes the write lock at BEGIN
    # (a deferred transaction upgrading its lock fails at once with "database is
    # locked"); a waiting writer retries for up to 20 s; WAL lets readers run meanwhile.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
# PostgreSQL connection pool (psycopg-pool), per process: DATABASE_POOL_MAX connections at
# most (at least the gunicorn threads per worker). A request borrows a pooled connection
# instead of keeping its own (CONN_MAX_AGE) and checking it with a SELECT 1 on every
# request (CONN_HEALTH_CHECKS); a connection that broke is discarded when it is returned,
# and a request that got one answers 503 (klammern_site.middleware) and is sent again.
DATABASE_POOL_MAX = int(os.environ.get("DATABASE_POOL_MAX", "0"))
if DATABASE_POOL_MAX and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].update({"CONN_MAX_AGE": 0, "CONN_HEALTH_CHECKS": False})
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": min(2, DATABASE_POOL_MAX),
        "max_size": DATABASE_POOL_MAX,
        "timeout": 10,  # seconds a request waits for a free connection
        "max_idle": 300,
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Values bound on the server, so that psycopg prepares a statement once it has run
    # ``prepare_threshold`` times on a connection (Django's default binds on the client
    # and never prepares). A transaction-pooling proxy in between would have to keep each
    # connection's prepared statements (PgBouncer >= 1.21 does).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"server_side_binding": True, "prepare_threshold": 5}
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# The URL the site's own processes connect with (their DATABASE_URL), read only by
# ``manage.py setup_app_role`` in the process that migrates: that one connects as the
# tables' owner and creates this role, which owns nothing, so the deal history's triggers
# bind the site (docker-compose.yml, docs/operations.md).
APP_DATABASE_URL = os.environ.get("APP_DATABASE_URL", "")

# --- Redis: Celery broker and cache ---------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
    CACHES = {
        "default": {
            # Answers as an empty cache while Redis is down: deals are still accepted.
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                "SOCKET_CONNECT_TIMEOUT": 0.5,
                "SOCKET_TIMEOUT": 0.5,
                "IGNORE_EXCEPTIONS": True,
            },
        }
    }
    DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True
else:
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
CELERY_TASK_EAGER_PROPAGATES = True
# Par analyses (0.1-1 s each) wait in a queue of their own: a burst of entered deals never
# holds a draw or a standings recompute back behind hundreds of analyses. In production
# a worker of its own consumes it at the lowest CPU priority (``nice -n 19 celery worker
# --queues analysis``, docker-compose.yml's ``analysis``) and the main worker only the
# default queue, so that the analyses take only the CPU that tablets, readers and the
# database leave idle; a worker started without ``--queues`` consumes both.
CELERY_TASK_QUEUES = (Queue("celery"), Queue("analysis"))
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_ROUTES = {"games.tasks.*": {"queue": "analysis"}}
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "Europe/Zurich"
# A task's message is acknowledged only after the task ran; a worker killed mid-task
# (or a prefork child lost) leaves it to be redelivered. Tasks are idempotent for this.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Defaults for any task without its own limits (tournaments.tasks sets its own).
CELERY_TASK_SOFT_TIME_LIMIT = 60
CELERY_TASK_TIME_LIMIT = 90
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Redis redelivers an unacknowledged message after this many seconds: longer than any
# task's hard limit and any retry countdown (60 s max), short enough that a message of a
# killed worker comes back within minutes (the beat task covers standings in 30 s).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "600")),
}
# Standings and leaderboard recomputes start this many seconds after the result that
# queued them, so that a busy evening's results coalesce into one recompute per interval
# (at most one is queued per tournament and club anyway). 0: at once.
RECOMPUTE_DEBOUNCE_SECONDS = float(os.environ.get("RECOMPUTE_DEBOUNCE_SECONDS", "0"))
CELERY_BEAT_SCHEDULE = {
    # what is past its retention period (docs/privacy.md), once a day
    "purge-expired-data": {
        "task": "tournaments.tasks.purge_expired_data_task",
        "schedule": 24 * 3600.0,
        "options": {"expires": 3600},
    },
    "requeue-lagging-snapshots": {
        "task": "tournaments.tasks.requeue_lagging_snapshots",
        "schedule": 30.0,
        "options": {"expires": 25},
    },
    # deal versions whose par analysis is missing (a lost task, existing data, a new engine)
    "analyse-missing-deals": {
        "task": "games.tasks.analyse_missing_deals_task",
        "schedule": 300.0,
        "options": {"expires": 290},
    },
    # league reminders by e-mail (tournaments/leagues/reminders.py), each sent once
    "queue-league-reminders": {
        "task": "tournaments.tasks.queue_league_reminders_task",
        "schedule": 900.0,
        "options": {"expires": 850},
    },
}
# Each entered or corrected full deal is analysed (par, costly plays) by a task queued
# after its commit. Off: only the periodic sweep above and ``manage.py analyse_deals``
# analyse deals (the test suite turns it off except for tests marked ``analysis``, since
# an eager analysis costs about 0.25 s per full deal).
ANALYSE_DEALS_ON_ENTRY = os.environ.get("ANALYSE_DEALS_ON_ENTRY", "1") != "0"

# --- E-mail (league reminders) ---------------------------------------------------------
# Django's mailers: in development printed to the console, in production sent by SMTP
# with the EMAIL_HOST... variables below; EMAIL_BACKEND names another backend.
_EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
_SMTP_OPTIONS = {
    "host": os.environ.get("EMAIL_HOST", "localhost"),
    "port": int(os.environ.get("EMAIL_PORT", "25")),
    "username": os.environ.get("EMAIL_HOST_USER", ""),
    "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
    "use_tls": os.environ.get("EMAIL_USE_TLS", "0") == "1",
    "timeout": 10,
}
MAILERS = {
    "default": {
        "BACKEND": _EMAIL_BACKEND,
        "OPTIONS": _SMTP_OPTIONS if _EMAIL_BACKEND.endswith("smtp.EmailBackend") else {},
    }
}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "liga@klammern.invalid")

# --- Auth -----------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "admin:login"
LOGIN_REDIRECT_URL = "console"  # a login without ?next= lands in the organisers' console
# Django's password check, refused while failed attempts lock the address or the account
AUTHENTICATION_BACKENDS = ["tournaments.access.lockout.LockoutBackend"]
# Failed sign-ins (tournaments.access.lockout), three counters that never mix: wrong
# passwords per client address, wrong passwords per username at one address, and unknown
# table codes per client address; past a rate, the rest of its window is 429 for that
# address (passwords), that username at that address, or wrong codes from that address.
LOCKOUT_ADDRESS_RATE = os.environ.get("LOCKOUT_ADDRESS_RATE", "60/m")
LOCKOUT_ACCOUNT_RATE = os.environ.get("LOCKOUT_ACCOUNT_RATE", "20/15m")
LOCKOUT_CODE_RATE = os.environ.get("LOCKOUT_CODE_RATE", "60/m")
# A cache that cannot count (Redis down) locks nobody out, as the throttles let requests by.
RATELIMIT_FAIL_OPEN = True

# --- Internationalisation -------------------------------------------------------------
LANGUAGE_CODE = "de"
LANGUAGES = [("de", "Deutsch"), ("en", "English"), ("fr", "Français"), ("nl", "Nederlands")]
# English dates and numbers in the British form (en-GB), for a German-speaking club.
FORMAT_MODULE_PATH = ["tournaments.web.formats"]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Zurich"
USE_I18N = True
USE_TZ = True

# --- Static files ---------------------------------------------------------------------
STATIC_URL = "static/"
# where collectstatic puts them (and nginx serves them from: deploy/nginx/)
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# A deal record is a few kilobytes at most.
DATA_UPLOAD_MAX_MEMORY_SIZE = int(os.environ.get("DATA_UPLOAD_MAX_MEMORY_SIZE", 256 * 1024))

# --- HTTPS (on whenever DEBUG is off) -------------------------------------------------
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
# The container's own healthcheck probes plain HTTP on 127.0.0.1; it carries no secrets.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# A refused form (CSRF) gets a page of our own in the visitor's language.
CSRF_FAILURE_VIEW = "klammern_site.exception_handler.csrf_failure"
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy: scripts only from the site's own files (or an inline script
# carrying the request's nonce); connections, images, fonts, forms and the tablet's
# service worker to and from the site only; no plugins, no framing. Styles allow inline
# ``style`` attributes and htmx's indicator <style>: a nonce there would switch
# 'unsafe-inline' off, and injected CSS cannot run code.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.UNSAFE_INLINE],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "worker-src": [CSP.SELF],
    "manifest-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
if env_bool("DJANGO_BEHIND_TLS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# --- REST API -------------------------------------------------------------------------
# How many reverse proxies in front of the site append to X-Forwarded-For. 0: the client's
# address is REMOTE_ADDR and X-Forwarded-For is ignored (a client could write anything
# there); N: the N-th address from the right, the one the outermost declared proxy saw.
TRUSTED_PROXY_COUNT = int(os.environ.get("DJANGO_TRUSTED_PROXY_COUNT", "0"))

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "tournaments.access.authentication.DeviceAuthentication",
        "tournaments.access.authentication.ExpiringTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "tournaments.events.permissions.NotADevice",
        "rest_framework.permissions.IsAuthenticatedOrReadOnly",
    ],
    "EXCEPTION_HANDLER": "klammern_site.exception_handler.exception_handler",
    # DRF's parsers, with JSON nested too deeply for the decoder answered as 400
    # The API speaks JSON only (as its schema says); a form or multipart body is a 415.
    "DEFAULT_PARSER_CLASSES": ["klammern_site.parsers.SafeJSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    # ?format= filters tournaments by format; renderers are chosen by the Accept header.
    "URL_FORMAT_OVERRIDE": None,
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "tournaments.common.negotiation.PlainAcceptNegotiation",
    "DEFAULT_PAGINATION_CLASS": "klammern_site.pagination.StandardPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["tournaments.events.filters.FilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "tournaments.access.schema.ContractSchema",
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
    "DEFAULT_THROTTLE_CLASSES": [
        "tournaments.access.throttles.AnonymousThrottle",
        "tournaments.access.throttles.UserThrottle",
        "tournaments.access.throttles.DeviceThrottle",
        "tournaments.access.throttles.DeviceAwareScopedThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("THROTTLE_ANON", "600/min"),
        "user": os.environ.get("THROTTLE_USER", "3000/min"),
        "device": os.environ.get("THROTTLE_DEVICE", "600/min"),
        "deals": os.environ.get("THROTTLE_DEALS", "1200/min"),
        "signup": os.environ.get("THROTTLE_SIGNUP", "10/hour"),
    },
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Klammern tournaments API",
    "DESCRIPTION": (
        "Clubs, tournaments, rounds and deal entry for Klammern. Table devices authenticate "
        "with `Authorization: Device <code>`; organisers with a session or "
        "`Authorization: Token <token>` from `/api/auth/token/` (one token per client, "
        "listed at `/api/auth/tokens/`)."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {"MatchModeEnum": "tournaments.events.models.Match.Mode"},
    # /api/docs/: Swagger UI from drf-spectacular-sidecar's static files, not a CDN
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # who may call each operation, every error status with its body, links for the
    # stateful fuzzing (tournaments/access/schema.py)
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "tournaments.access.schema.contract_hook",
    ],
}

# An organiser's API token (/api/auth/token/, one per client) lives this long from its
# issue; then signing in again issues a new one.
API_TOKEN_TTL_HOURS = int(os.environ.get("API_TOKEN_TTL_HOURS", str(24 * 30)))
# Retention (docs/privacy.md): days after which tournaments.members.retention removes what
# is past its time (table codes after expiry, invitations after use or expiry, API tokens
# after expiry, league reminders' recipients after sending).
RETENTION_DEVICE_CODE_DAYS = int(os.environ.get("RETENTION_DEVICE_CODE_DAYS", "30"))
RETENTION_INVITATION_DAYS = int(os.environ.get("RETENTION_INVITATION_DAYS", "30"))
RETENTION_API_TOKEN_DAYS = int(os.environ.get("RETENTION_API_TOKEN_DAYS", "30"))
RETENTION_REMINDER_DAYS = int(os.environ.get("RETENTION_REMINDER_DAYS", "90"))

# A table's device code lives at most this long (and never beyond its round).
DEVICE_CODE_TTL_HOURS = int(os.environ.get("DEVICE_CODE_TTL_HOURS", "12"))

# --- Logs, metrics, readiness, error reports (docs/metrics.md) ------------------------
# LOG_FORMAT=json: one JSON object per line with the request's id, view, status and
# duration (klammern_site.observability); text (the default) for ``make run``. The
# client's address is logged only with LOG_CLIENT_ADDRESS=1.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text").strip().lower()
if LOG_FORMAT not in {"text", "json"}:
    raise ImproperlyConfigured("LOG_FORMAT must be text or json.")
LOG_CLIENT_ADDRESS = env_bool("LOG_CLIENT_ADDRESS", False)
LOG_LEVEL = os.environ.get("DJANGO_LOG_LEVEL", "INFO")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "klammern_site.observability.RequestIdFilter"}},
    "formatters": {
        "json": {"()": "klammern_site.observability.JsonFormatter"},
        "text": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["request_id"],
        }
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    # one line per request in production; runserver logs its own lines in development
    "loggers": {"klammern.requests": {"level": LOG_LEVEL if LOG_FORMAT == "json" else "WARNING"}},
}
# /metrics (klammern_site.monitoring): with a token, only ``Authorization: Bearer
# <token>``; without one, open while DEBUG is on and 404 in production.
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
# /readyz (klammern_site.health): a heartbeat through the worker's queue at most every
# READY_HEARTBEAT_SECONDS; not ready once one waited READY_WORKER_LAG_SECONDS
# (above RECOMPUTE_DEBOUNCE_SECONDS and the longest standings recompute).
READY_HEARTBEAT_SECONDS = float(os.environ.get("READY_HEARTBEAT_SECONDS", "5"))
READY_WORKER_LAG_SECONDS = float(os.environ.get("READY_WORKER_LAG_SECONDS", "60"))
# Errors reported to Sentry (or a compatible service) only when SENTRY_DSN is set; no
# personal data (addresses, cookies, users, request bodies) is sent.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
ERROR_REPORTER_ON = init_error_reporter(
    dsn=SENTRY_DSN, environment=os.environ.get("SENTRY_ENVIRONMENT", "production")
)

"""Settings, read from the environment (12-factor).

DATABASE_URL  postgres://... (./run and ./test set it to their embedded PostgreSQL when it
              is not set; a manage.py command run by hand without it uses SQLite in
              var/db.sqlite3)
REDIS_URL     default: redis://127.0.0.1:6379/0 (the run script starts an embedded
              Redis and sets it when none is given)
SECRET_KEY, DEBUG, ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS, PUBLIC_URL
"""
import os
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    return os.environ.get(name, str(default)).lower() in ("1", "true", "yes", "on")


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "http://localhost:8000,http://127.0.0.1:8000")
PUBLIC_URL = os.environ.get("PUBLIC_URL", "http://127.0.0.1:8000").rstrip("/")
# The address the phones open is always answered and trusted (forms, websockets): setting
# PUBLIC_URL alone is enough on a LAN (README), whatever the two lists above add.
_PUBLIC = urlsplit(PUBLIC_URL)
if _PUBLIC.hostname:
    ALLOWED_HOSTS.append(f"[{_PUBLIC.hostname}]" if ":" in _PUBLIC.hostname else _PUBLIC.hostname)
    CSRF_TRUSTED_ORIGINS.append(f"{_PUBLIC.scheme}://{_PUBLIC.netloc}")
DEFAULT_SECRET_KEY = "insecure-development-key-set-SECRET_KEY-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY", DEFAULT_SECRET_KEY)
LOCAL_HOSTS = {"localhost", "127.0.0.1", "[::1]", "testserver"}
if SECRET_KEY == DEFAULT_SECRET_KEY and not (DEBUG or set(ALLOWED_HOSTS) <= LOCAL_HOSTS):
    # Anyone knowing the public default could forge sessions and login links on a server
    # others reach; a server answering this machine only may keep it (./run writes a key).
    raise ImproperlyConfigured("Set SECRET_KEY: the default key is only for a server that "
                               "answers this machine alone (ALLOWED_HOSTS localhost) or DEBUG.")

if PUBLIC_URL.startswith("https://"):
    # Behind a TLS proxy: cookies never travel in clear, browsers remember to use https,
    # and the proxy's X-Forwarded-Proto tells Django the request was secure.
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # To the address the phones open (not another port of this host: ./run --https
    # serves plain http beside it), except the page that installs the event's certificate
    # authority, which a phone must open before it trusts https (docs/field-network.md).
    SECURE_SSL_HOST = _PUBLIC.netloc
    SECURE_REDIRECT_EXEMPT = [r"^field/"]
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(365 * 24 * 3600)))
    # Off by default: it would bind every subdomain of the organisers' domain to https.
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
    # Preloading is a promise to browsers' lists that is slow to undo: the domain's owner opts in.
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
    # These two are choices made above on purpose, not oversights for check --deploy to flag.
    SILENCED_SYSTEM_CHECKS = [code for code, chosen in (
        ("security.W005", SECURE_HSTS_INCLUDE_SUBDOMAINS), ("security.W021", SECURE_HSTS_PRELOAD))
        if not chosen]

# The certificate of the authority that phones install from /field/ca/: the event's own
# (manage.py field_certificates), or a proxy's, such as Caddy's `tls internal` root.
FIELD_CA_CERT = Path(os.environ.get("FIELD_CA_CERT") or VAR_DIR / "field-tls" / "ca.pem")

INSTALLED_APPS = [
    "daphne",
    "players.admin_apps.OrganisersAdminConfig",   # django.contrib.admin, for organisers too
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",   # Swagger UI's files, served as static files: /api/docs/ works offline
    "channels",
    "common",
    "players",
    "live",
    "schedule",
    "club",
    "health",
    "combat",
    "effects",
    "frontend",
    "push",
    "race",
    "rehearsals",
    "safety",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "players.admin_language.AdminLanguageMiddleware",   # the admin in the organiser's language
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    # Any API request of a logged-in phone is a contact (real-world safety's "last seen");
    # synchronous like the next one, so the chain still hops to a thread once.
    "safety.contact.LastSeenMiddleware",
    # What each phone's request proves of its outbox, to bound its late taps.
    "live.phone_contact.PhoneContactMiddleware",
    # Last, after LocaleMiddleware (refusals are translated) and below every header
    # middleware (refusals carry them). Innermost also because it is synchronous only:
    # Django then runs the whole chain and the view in one thread hop, instead of hopping
    # to a thread, back to the event loop below it, and to a thread again for the view
    # (a constant answer: 6.5 -> 4 ms of CPU, docs/performance.md).
    "common.middleware.BodyLimitMiddleware",
    "common.middleware.QueryTextMiddleware",
]
# Routes that answer with the middleware they need only (config/http.py), by exact path:
# the load balancers' check reads no session, no cookie, no language, no query and serves
# no page; it keeps the security headers and the https redirect.
MIDDLEWARE_BY_PATH = {
    "/healthz": ["django.middleware.security.SecurityMiddleware"],
}

# Every page runs the app's own scripts only: an injected <script> or a foreign one is
# refused by the browser. Printed pages' <style> blocks carry the request's nonce.
_WS_ORIGIN = PUBLIC_URL.replace("https://", "wss://", 1).replace("http://", "ws://", 1)
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF, CSP.NONCE],
    "img-src": [CSP.SELF, "data:"],
    # 'self' covers same-origin websockets in current browsers; older ones need the URL.
    "connect-src": [CSP.SELF, _WS_ORIGIN],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "frame-ancestors": [CSP.SELF],
    "form-action": [CSP.SELF],
}
# Swagger UI's page has a <style> block and its React views set inline styles; its scripts
# and pictures are the app's own static files (drf-spectacular-sidecar), like every page.
SWAGGER_UI_CSP = {**SECURE_CSP, "style-src": [CSP.SELF, CSP.UNSAFE_INLINE]}

ROOT_URLCONF = "config.urls"
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.request",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
        "django.template.context_processors.csp",
    ]},
}]
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

VAR_DIR.mkdir(parents=True, exist_ok=True)
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "0")),
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # WAL lets the web server, the worker and beat share the file without "database is locked".
    DATABASES["default"]["OPTIONS"] = {"init_command": "PRAGMA journal_mode=WAL;",
                                       "transaction_mode": "IMMEDIATE", "timeout": 20}
    # A file, not memory, so that the browser tests' server process sees the test data.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-db-{os.getpid()}.sqlite3")}
else:
    # A pool of PostgreSQL connections per process: a crowd of phones connecting at once
    # borrows connections instead of opening one per query (see docs/performance.md).
    # `timeout`: how long a request waits for a connection before its 503 (a database that
    # restarts within it costs the phones nothing but the wait).
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2, "max_size": int(os.environ.get("DB_POOL_MAX_SIZE", "16")),
        "timeout": float(os.environ.get("DB_POOL_TIMEOUT_S", "20"))}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
CHANNEL_LAYERS = {
    "default": {
        # channels_redis's layer with a pool that waits for a free connection instead of
        # failing: a crowd connecting or closing at once (live/channel_layer.py).
        "BACKEND": "live.channel_layer.RedisChannelLayerWaitingForConnections",
        # redis-py 8 times socket reads out after 5 s by default, which kills the layer's
        # blocking receive of every idle websocket: reads wait as long as they need.
        # `max_connections` per server process; `timeout`: how long a group command may
        # queue for one before it fails (seconds; a crowd's queue empties in well under 1 s).
        # Every websocket of one server process shares one Redis list, and the layer drops
        # messages silently past `capacity`: an effect for 5,000 players must fit.
        "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": None,
                              "max_connections": int(os.environ.get("REDIS_LAYER_MAX_CONNECTIONS", "50")),
                              "timeout": 20}],
                   "capacity": 100_000, "expiry": 60},
    }
}
# In Redis so that every ASGI process shares the login-failure counts. The database is
# shared with Celery and the channel layer: never call cache.clear() (it flushes it all).
CACHES = {"default": {"BACKEND": "common.cache.SharedRedisCache", "LOCATION": REDIS_URL}}
# A character's snapshot is kept this long after it was built (live/snapshot_cache.py): a
# crowd reconnecting at once is served without rebuilding them. Entries are never stale
# (their key is every row they were built from), this only bounds the memory they take.
SNAPSHOT_CACHE_TTL_S = int(os.environ.get("SNAPSHOT_CACHE_TTL_S", "3600"))

CELERY_BROKER_URL = REDIS_URL
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 4
CELERY_TIMEZONE = "UTC"
# Tasks at a deadline may wait hours (first aid holds 4 h); the sweeper is the safety net,
# and applying a transition twice changes nothing, so redelivery is harmless.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 5 * 3600}
# The sweepers cost 2-4 + 3-4 ms a pass with 10,000 deadlines stored (bench/timers.py):
# every 2 s is under 0.4 % of a core, and a deadline whose only task died with a killed
# worker is applied at the next sweep, within about 2 s instead of 5 (docs/performance.md,
# "Deadlines queued into running workers, at one instant").
SWEEP_INTERVAL_S = float(os.environ.get("SWEEP_INTERVAL_S", "2"))
# Each server process reads a marker in Redis this often: when Redis lost its data (the
# channel layer's groups with it), its phones re-join and are sent what they missed
# (live/watch.py). A heartbeat asks for that at most this often per phone.
LIVE_WATCH_INTERVAL_S = float(os.environ.get("LIVE_WATCH_INTERVAL_S", "2"))
LIVE_CHECK_MIN_INTERVAL_S = float(os.environ.get("LIVE_CHECK_MIN_INTERVAL_S", "1"))
# A player's phone that has proven its session once reconnects on a pass kept in Redis,
# without the database (live/passes.py), for at most this long after that proof.
LIVE_PASS_TTL_S = int(os.environ.get("LIVE_PASS_TTL_S", "3600"))
# The contacts (last seen) of phones connected on a pass are noted together this often.
LIVE_CONTACTS_EVERY_S = float(os.environ.get("LIVE_CONTACTS_EVERY_S", "1"))
# Admission of live connects, per server process (live/admission.py): at most this many
# in progress, at most this many begun per second (a token bucket holding up to
# LIVE_CONNECTS_BURST; 0: no rate limit). The others are told at once to come back after
# LIVE_RETRY_MIN_S..LIVE_RETRY_MAX_S (the next free slot at that rate) plus jitter.
# Measured with bench/storm.py (python -m bench.storm) on the 2-core reference machine.
LIVE_CONNECTS_IN_PROGRESS_MAX = int(os.environ.get("LIVE_CONNECTS_IN_PROGRESS_MAX", "32"))
LIVE_CONNECTS_PER_S = float(os.environ.get("LIVE_CONNECTS_PER_S", "150"))
LIVE_CONNECTS_BURST = float(os.environ.get("LIVE_CONNECTS_BURST", "0"))
LIVE_RETRY_MIN_S = float(os.environ.get("LIVE_RETRY_MIN_S", "1"))
LIVE_RETRY_MAX_S = float(os.environ.get("LIVE_RETRY_MAX_S", "30"))
LIVE_RETRY_JITTER_S = float(os.environ.get("LIVE_RETRY_JITTER_S", "1"))
# A timer task is queued at commit only for a deadline this near; beat queues the others
# as they come within reach (common/deadlines.py).
DEADLINE_TASK_HORIZON_S = float(os.environ.get("DEADLINE_TASK_HORIZON_S", "120"))
DAYS_SWEEP_INTERVAL_S = float(os.environ.get("DAYS_SWEEP_INTERVAL_S", "60"))
RACE_SWEEP_INTERVAL_S = float(os.environ.get("RACE_SWEEP_INTERVAL_S", "30"))
# The daily purge of personal data runs at half past this hour (UTC): at night, when no
# game is played.
PERSONAL_DATA_PURGE_HOUR_UTC = int(os.environ.get("PERSONAL_DATA_PURGE_HOUR_UTC", "3"))
CELERY_BEAT_SCHEDULE = {
    "sweep-due-characters": {"task": "health.tasks.sweep_due_characters",
                             "schedule": SWEEP_INTERVAL_S},
    "sweep-due-fights": {"task": "combat.tasks.sweep_due_fights", "schedule": SWEEP_INTERVAL_S},
    "queue-upcoming-deadlines": {"task": "health.tasks.queue_upcoming_deadlines",
                                 "schedule": DEADLINE_TASK_HORIZON_S / 2},
    # Dawns and day ends (schedule/services/days.py): a task runs each at its instant; this sweep
    # catches a lost one and queues those coming within the horizon.
    "sweep-due-days": {"task": "schedule.tasks.sweep_due_days", "schedule": DAYS_SWEEP_INTERVAL_S},
    # The zombie race (race/services/alerts.py): an entry still out past its deadline and
    # the threshold rings at the organisers; a task runs at the instant, this sweep catches
    # a lost one and queues those coming within the horizon.
    "sweep-overdue-alerts": {"task": "race.tasks.sweep_overdue_alerts",
                             "schedule": RACE_SWEEP_INTERVAL_S},
    # Personal data has an end (players/privacy_services.py, docs/operations.md): once a
    # day, every event past its retention period is purged. A missed day is caught up the
    # next: the task purges whatever is due by then.
    "purge-personal-data": {"task": "players.tasks.purge_personal_data",
                            "schedule": crontab(hour=PERSONAL_DATA_PURGE_HOUR_UTC, minute=30)},
}

AUTH_PASSWORD_VALIDATORS = []
LOGIN_URL = "/admin/login/"
LOGIN_TOKEN_TTL_S = int(os.environ.get("LOGIN_TOKEN_TTL_S", str(30 * 24 * 3600)))
# A persistent cookie (never a browser-session one): iOS ends a home-screen app's browser
# session whenever the app is swiped away, and the player must stay logged in. It lasts as
# long as a login link, so a player logged in with a fresh link is not logged out sooner.
# Django's database sessions, read with one statement written once (common/sessions.py).
SESSION_ENGINE = "common.sessions"
SESSION_COOKIE_AGE = int(os.environ.get("SESSION_COOKIE_AGE_S", str(30 * 24 * 3600)))
SESSION_EXPIRE_AT_BROWSER_CLOSE = False
# Failed logins (one-time links) allowed per client address (REMOTE_ADDR: behind a proxy,
# the server sets it from X-Forwarded-For with --proxy-headers) in each window; then 429.
LOGIN_FAILURES_MAX = int(os.environ.get("LOGIN_FAILURES_MAX", "20"))
LOGIN_FAILURES_WINDOW_S = int(os.environ.get("LOGIN_FAILURES_WINDOW_S", "600"))
# The largest API body is a character sheet or an effect text (a few KiB): 64 KiB refuses
# junk before it is parsed, journalled or stored, and bounds the memory a request can take.
DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024
# The admin's password login counts failures like the login links (common/admin_login.py);
# Django's own backend stays second for the sessions that name it (it is never reached by
# a password: the first raises PermissionDenied on a failure).
AUTHENTICATION_BACKENDS = ["common.admin_login.RateLimitedModelBackend",
                           "django.contrib.auth.backends.ModelBackend"]
# The CSV imports (roster, race entries, finger readout) take a whole file, whatever its
# transport: 4 MiB holds a 20,000-row readout or a 5,000-row roster with room to spare.
IMPORT_MAX_BODY = 4 * 1024 * 1024
# The safety board's site plan (safety/plans.py): one image of the event's ground, a phone
# photo of a paper map or an exported map; its longest side in pixels is bounded too, so
# that a small file cannot unpack into a huge picture on the organisers' phones.
SITE_PLAN_MAX_BODY = 8 * 1024 * 1024
SITE_PLAN_MAX_SIDE = 8000

LANGUAGE_CODE = "en"
LANGUAGES = [("fr", "Français"), ("es", "Español"), ("en", "English")]
TIME_ZONE = "UTC"
USE_I18N = True
# The server's own texts (refusals, notifications, labels); the phone's are frontend/locale.
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
# The phone app's files are served straight from the apps' static folders: no build
# step and no collectstatic needed to run.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.SessionAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "common.errors.exception_handler",
    "DEFAULT_PARSER_CLASSES": ["common.parsers.JSONParser"],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Live game companion API",
    "DESCRIPTION": "Characters, health timers, treatments, effects, game clock and journal. "
                   "Writes accept an `Idempotency-Key` header; realtime snapshots on /ws/live/.",
    "VERSION": "1.0.0",
    # The document describes the game's API, not itself.
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI from the app's own static files, not a CDN: the docs work without Internet.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.channels.server": {"level": "WARNING"}},
}

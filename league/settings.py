"""Settings for the league manager, one file driven by environment variables.

SECRET_KEY (with DEBUG on and none set, a random key kept in SECRET_KEY_FILE,
default ``.secret_key``), DEBUG, ALLOWED_HOSTS (comma-separated) and DATABASE_URL (default: a
SQLite file in the project folder; ``postgres://user@host:5432/name`` for
PostgreSQL), and the HTTPS switches below. Nothing exists only in production.

DEBUG defaults to on, as in healthchecks: the README's two commands
(``quickstart`` and ``pytest``) are development commands and must work on a fresh
machine with no environment at all, and one default for every entry point means
``collectstatic``, ``check --deploy`` and gunicorn read the same settings from the
same environment. Production says ``DEBUG=false`` (README, "Production"); then a
missing SECRET_KEY stops the app at start-up instead of running on a key made
for development, and ``check --deploy`` reports a DEBUG left on.
"""

import os
import secrets
import warnings
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    # A typo such as DEBUG=flase must not silently pick a side.
    raise ImproperlyConfigured(f"{name}={value!r}: use one of true/false, 1/0, yes/no, on/off.")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or not value.strip():
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r}: expected a whole number.") from None
    if number < 0:
        raise ImproperlyConfigured(f"{name}={value!r}: expected a number >= 0.")
    return number


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def secret_key_from_file(path: Path) -> str:
    """The embedded default's key: random, made on the first start and kept in
    ``path`` (beside db.sqlite3 and git-ignored, like it), so no two installations
    share a key and sessions and invitation links survive a restart. Two processes
    starting at once agree: each writes its own file and links it into place, and
    only the first link succeeds."""
    try:
        if not path.exists():
            fresh = path.with_name(f"{path.name}.{os.getpid()}.tmp")
            fresh.touch(mode=0o600)
            fresh.write_text(secrets.token_urlsafe(50) + "\n")
            try:
                os.link(fresh, path)
            except FileExistsError:
                pass
            finally:
                fresh.unlink()
        key = path.read_text().strip()
    except OSError as exc:
        raise ImproperlyConfigured(f"SECRET_KEY is not set and {path} cannot be used ({exc}): set SECRET_KEY.") from None
    if len(key) < 50:
        raise ImproperlyConfigured(f"{path} holds no key of 50 characters or more: delete it or set SECRET_KEY.")
    return key


DEBUG = env_bool("DEBUG", True)
# The key this file used to fall back on, published with the code: anything signed
# with it (sessions, password-reset and invitation links) can be forged, so
# ``check --deploy`` warns when it is set explicitly (league/checks.py).
PUBLISHED_SECRET_KEYS = frozenset({"dev-only-insecure-key-set-SECRET_KEY-in-production"})
SECRET_KEY = os.environ.get("SECRET_KEY", "").strip()
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set and DEBUG is off. Set the SECRET_KEY environment variable to a long random "
            "string (python -c \"import secrets; print(secrets.token_urlsafe(50))\"), or DEBUG=true for development."
        )
    SECRET_KEY = secret_key_from_file(Path(os.environ.get("SECRET_KEY_FILE") or BASE_DIR / ".secret_key"))
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

# HTTPS. Every switch is off by default because development serves plain http;
# the README's production recipe turns them on (check --deploy names any left off).
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", False)
# Database sessions naming their account, read with it in one prepared query
# (league/sessions.py). Log-ins made before it (django_session) are
# asked to log in again once.
SESSION_ENGINE = "league.sessions"
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", False)
# "HTTP_X_FORWARDED_PROTO,https" behind a TLS-terminating proxy that sets that header
# (and strips it from clients); without it, SSL redirect behind a proxy loops.
_proxy_header = env_list("SECURE_PROXY_SSL_HEADER")
if _proxy_header and len(_proxy_header) != 2:
    raise ImproperlyConfigured(
        f"SECURE_PROXY_SSL_HEADER={os.environ['SECURE_PROXY_SSL_HEADER']!r}: expected a header and a value, "
        "e.g. HTTP_X_FORWARDED_PROTO,https."
    )
SECURE_PROXY_SSL_HEADER = tuple(_proxy_header) if _proxy_header else None
# A load balancer probes /health/ over plain http on the private network.
SECURE_REDIRECT_EXEMPT = [r"^health/$"]

INSTALLED_APPS = [
    "league.apps.CockpitAdminConfig",  # django.contrib.admin, its index grouped
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "csp",
    "axes",
    # Log in with Discord (league/accounts/discord.py): python-social-auth's
    # account links (its own app label and migrations).
    "social_django",
    # The read API (league/api): its Swagger UI files are served from /static/ninja/.
    "ninja",
    # The task queue (league/outbox/tasks.py): django-tasks with its database backend.
    # Before "league", whose admin re-registers the task record for superusers only.
    "django_tasks",
    "django_tasks_db",
    "league",
    # What happened, one fact a write, and who follows each kind (league/facts/):
    # before the games, so the engine's followers of a kind come before theirs.
    "league.facts",
    "league.guildball",
    "campaigns",  # The Big League on Guild Ball: registered first, so its demo is listed first
    "league.dungeonbowl",
    "league.dreadball",
    "league.ratings",  # Glicko-2 ratings per game, across every league (RT-1..RT-4)
    "league.events",  # signed events: subscriptions and their deliveries (league/events/)
    "league.api",  # the public API: its tokens (app label apitokens), access, reads and writes
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # A view that fails because the database is unreachable answers a styled 503.
    "league.web.errors.DatabaseUnavailableMiddleware",
    # A NUL byte in a query or form value is a 400, not a PostgreSQL DataError (500).
    "league.web.errors.RejectNulBytesMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Links in mail a request causes use the address it came to, port included (league/outbox/links.py).
    "league.outbox.links.RequestAddressMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # A GET of a form's POST-only address goes to its page, not a 405 (league/web/reload.py).
    "league.web.reload.ReloadSafeMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it turns a lockout signalled during login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# Login throttling (django-axes): after AXES_FAILURE_LIMIT failed log-ins for one
# username from one address, or AXES_ADDRESS_FAILURE_LIMIT from one address for
# any usernames, both the site's and the admin's login refuse that username from
# that address (or that address) for AXES_COOLOFF_MINUTES, even with the right
# password; every attempt during the pause starts it again. Never the username
# alone: anyone could then lock any account, while its owner logs in
# from their own address. Attempts are stored in the database, so every gunicorn
# worker sees them. AxesStandaloneBackend only checks for a lockout; ModelBackend
# still checks the password.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # ModelBackend reading the account's coach with it (one query a page fewer).
    # Sessions made under django.contrib.auth.backends.ModelBackend before this
    # name are asked to log in again once.
    "league.backends.CoachBackend",
    # Log in with Discord, when DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET are set
    # (league/accounts/discord.py). After axes: a locked-out address stays locked out.
    "league.accounts.discord.DiscordBackend",
]
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5) or 5
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15) or 15)
# An office or a household shares an address: six accounts' worth by default.
AXES_ADDRESS_FAILURE_LIMIT = env_int("AXES_ADDRESS_FAILURE_LIMIT", 0) or 6 * AXES_FAILURE_LIMIT
# In this order: league/accounts/lockout.py's handler gives each its own limit.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_HANDLER = "league.accounts.lockout.AccountAtAddressHandler"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "league.accounts.lockout.lockout_response"
AXES_CLIENT_IP_CALLABLE = "league.accounts.lockout.client_ip"
# Reverse proxies in front of gunicorn that append to X-Forwarded-For (1 for one nginx).
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)

# The pages use no JavaScript, no inline script or style and nothing from another
# origin; the admin's own scripts and styles are files under /static/. django-csp
# rather than a hand-written middleware: it is kept up with the CSP spec, leaves
# Django's DEBUG error pages alone, and gives views decorators should one ever need
# a nonce or an exception.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        # The service worker (/sw.js, league/web/offline.py) and the web app
        # manifest, both from the site itself.
        "worker-src": ["'self'"],
        "manifest-src": ["'self'"],
    },
}

ROOT_URLCONF = "league.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "league.accounts.discord.context",
                # Last: a page rendered to be kept gets markers for the viewer's CSRF token.
                "league.caching.kept_pages.context",
            ],
        },
    },
]

WSGI_APPLICATION = "league.wsgi.application"

# Persistent connections (CONN_MAX_AGE > 0) are checked before a request reuses
# them: one the database dropped while it was down (a restart, a failover) is
# replaced instead of failing the request with a 503 after the database is back.
_conn_max_age = env_int("CONN_MAX_AGE", 0)
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=_conn_max_age,
        conn_health_checks=_conn_max_age > 0,
    )
}

# The SQLite default under concurrent writers. SQLite's default DEFERRED
# transactions take the write lock only at the first write, and a reader that
# cannot upgrade fails at once with "database is locked" whatever the timeout;
# IMMEDIATE takes it at BEGIN, so a second writer waits on the busy timeout
# instead. Write-ahead logging lets pages read while someone writes, and
# synchronous=NORMAL is the durable-enough setting SQLite recommends with WAL (a
# power cut may lose the last commits, never corrupt the file).
SQLITE_BUSY_TIMEOUT_MS = env_int("SQLITE_BUSY_TIMEOUT_MS", 20_000)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        "transaction_mode": "IMMEDIATE",
        "init_command": (
            f"PRAGMA journal_mode=WAL; PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}; PRAGMA synchronous=NORMAL"
        ),
    })

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/London")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
# Serve straight from the app folders as well, so `quickstart` needs no collectstatic.
WHITENOISE_USE_FINDERS = True
# staticfiles/ only exists after collectstatic (production); the finders serve until then.
warnings.filterwarnings("ignore", message="No directory at")
# Hashed names (far-future caching, no stale CSS after a release) need the manifest
# that collectstatic writes, so they are for production only. With DEBUG on (the
# default, and so under pytest and quickstart) the plain storage serves the files
# from the app folders without collectstatic.
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

LOGIN_URL = "login"

# Log in with Discord (league/accounts/discord.py, README "Log in with Discord"): off
# unless both are set, from the server's Discord application
# (https://discord.com/developers/applications, OAuth2 redirect
# https://<your site>/accounts/discord/complete/).
DISCORD_CLIENT_ID = os.environ.get("DISCORD_CLIENT_ID", "").strip()
DISCORD_CLIENT_SECRET = os.environ.get("DISCORD_CLIENT_SECRET", "").strip()
# Discord's API; the tests point it at a stand-in server.
DISCORD_API_URL = os.environ.get("DISCORD_API_URL", "https://discord.com/api").strip()
# python-social-auth's steps, with the site's own account making in place of its
# username and user steps, and no token kept.
SOCIAL_AUTH_PIPELINE = (
    "social_core.pipeline.social_auth.social_details",
    "social_core.pipeline.social_auth.social_uid",
    "social_core.pipeline.social_auth.auth_allowed",
    "social_core.pipeline.social_auth.social_user",
    "league.accounts.discord.create_account",
    "social_core.pipeline.social_auth.associate_user",
    "league.accounts.discord.remember_name",
)
SOCIAL_AUTH_DISCONNECT_PIPELINE = (
    "social_core.pipeline.disconnect.allowed_to_disconnect",
    "social_core.pipeline.disconnect.get_entries",
    "social_core.pipeline.disconnect.disconnect",
)
SOCIAL_AUTH_LOGIN_REDIRECT_URL = "/me/"
SOCIAL_AUTH_NEW_ASSOCIATION_REDIRECT_URL = "/accounts/profile/"
SOCIAL_AUTH_LOGIN_ERROR_URL = "/accounts/login/"
SOCIAL_AUTH_URL_NAMESPACE = "social"
SOCIAL_AUTH_REQUIRE_POST = True
SOCIAL_AUTH_JSONFIELD_ENABLED = True
# Anyone may sign up (/accounts/signup/) and, once their address is
# verified, create leagues. A club's own server sets OPEN_SIGNUP=false: sign-up is
# then only for people who hold a join link of a league, and the superuser grants
# the right to create leagues (the league.add_league permission, in the admin).
OPEN_SIGNUP = env_bool("OPEN_SIGNUP", True)
LOGIN_REDIRECT_URL = "league:my_fixtures"
LOGOUT_REDIRECT_URL = "league:league_list"

# What one request may send: Django's defaults, written down because
# every form relies on them; a POST past them is a 400. An admin inline also builds
# no more forms than its page offers (league/admin/scoping.py BoundedInlineMixin).
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440  # 2.5 MB

# Standings and the pages built from them are cached per season version
# (league/caching/versions.py), so a cached page is never stale. The local-memory cache
# serves one process; with several app servers set CACHE_URL to a shared cache,
# e.g. redis://127.0.0.1:6379/1 (needs the redis package) or
# memcached://127.0.0.1:11211 (needs pymemcache).
# The one query every warm public page runs (league/caching/versions.py) is a prepared
# statement on PostgreSQL. Turn it off (PREPARED_STATEMENTS=false) behind PgBouncer
# in transaction mode before version 1.21, which loses prepared statements.
# psycopg's ``prepare_threshold`` connection option (Django passes OPTIONS through
# and leaves it None, off, by default): 0 prepares a statement the first time a
# server-binding cursor runs it. Django's own cursors bind client-side and never
# prepare, so only that query is prepared.
PREPARED_STATEMENTS = env_bool("PREPARED_STATEMENTS", True)
if PREPARED_STATEMENTS and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = 0

# The change mark (league/caching/change_mark.py): a file every process of the site on this
# server reads and writes, so a process reads a league's versions again only after
# a write instead of on every warm public page. Only where every process that
# writes runs on this server: empty (off) with several app servers. On by default
# on SQLite (the database is a file here too), beside the database file.
_sqlite_name = str(DATABASES["default"]["NAME"]) if DATABASES["default"]["ENGINE"].endswith("sqlite3") else ""
CHANGE_MARK_FILE = os.environ.get(
    "CHANGE_MARK_FILE", f"{_sqlite_name}.mark" if _sqlite_name and _sqlite_name != ":memory:" else ""
).strip()

# Every entry is keyed by a season's version (league/caching/versions.py) and expires
# CACHE_TIMEOUT seconds after it was stored: a version replaced by a
# write is never asked for again, so it ages out instead of staying for ever
# (Redis keys get this TTL; the local-memory cache drops expired entries when it
# culls). The local-memory cache also holds at most CACHE_MAX_ENTRIES entries per
# process, culling a third of them when full: with pages bounded in size
# that bounds a worker's memory (docs/memory.md).
_cache_url = os.environ.get("CACHE_URL", "")
CACHE_TIMEOUT = env_int("CACHE_TIMEOUT", 3600)
if _cache_url.startswith("redis://"):
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": _cache_url}}
elif _cache_url.startswith("memcached://"):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.memcached.PyMemcacheCache",
            "LOCATION": _cache_url.removeprefix("memcached://"),
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": env_int("CACHE_MAX_ENTRIES", 300), "CULL_FREQUENCY": 3},
        }
    }
CACHES["default"]["TIMEOUT"] = CACHE_TIMEOUT or None  # 0: never expire (not advised)

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "longshanks@localhost")
# Empty: links in emails and calendars use the address the request came to.
SITE_URL = os.environ.get("SITE_URL", "").strip()
# Mail and webhook posts are tasks (league/outbox/tasks.py), written in the database
# in the transaction of the write that causes them (an outbox) and worked by
# ``python manage.py run_tasks``: as many workers as wanted, on one server or
# several. The tests run them at once (django-tasks' immediate backend,
# tests/conftest.py).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
# Pauses between attempts are scaled by TASK_BACKOFF_SCALE (tests shrink them); a
# task running longer than TASKS_STALE_AFTER seconds when ``run_tasks`` starts was
# left by a killed worker and is run again.
TASK_BACKOFF_SCALE = float(os.environ.get("TASK_BACKOFF_SCALE", "1"))
TASKS_STALE_AFTER = float(os.environ.get("TASKS_STALE_AFTER", "600"))
# league/idempotency.py: days a result form's submission key stays
# valid, and a used key is kept (a key outlives its record nowhere, so a resend
# can never write twice); ``purge_idempotency_keys`` (and ``run_tasks`` as it
# starts) deletes the older ones.
IDEMPOTENCY_KEY_DAYS = env_int("IDEMPOTENCY_KEY_DAYS", 14)
# The API's rate limits, requests a minute (league/api/access.py): per token,
# and per address for requests without one. Over them: 429 with Retry-After.
API_TOKEN_RATE = env_int("API_TOKEN_RATE", 120) or 120
API_ANONYMOUS_RATE = env_int("API_ANONYMOUS_RATE", 60) or 60
# A league's webhooks (league/events/webhooks.py): seconds per attempt.
WEBHOOK_TIMEOUT = float(os.environ.get("WEBHOOK_TIMEOUT", "5"))
# No webhook (events, Discord, signed) is sent to a private, loopback or link-local
# address (league/outbox/addresses.py); only the tests set this, for a receiver on 127.0.0.1.
WEBHOOKS_ALLOW_LOOPBACK = False

DJANGO_TABLES2_TEMPLATE = "django_tables2/table.html"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

"""Production settings: DEBUG off without a SECRET_KEY refuses to start, the HTTPS
switches reach Django's settings, and R5: ``check --deploy`` with the README's
production environment prints no warning. Each runs settings in a fresh
interpreter, because settings are read once per process."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Variables the settings read; stripped so the host's environment cannot leak in.
SETTINGS_VARS = (
    "DEBUG", "SECRET_KEY", "SECRET_KEY_FILE", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "DATABASE_URL", "SITE_URL", "CONN_MAX_AGE",
    "SECURE_SSL_REDIRECT", "SECURE_PROXY_SSL_HEADER", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE",
    "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD",
    # The browser tests set this in-process for Playwright; a deployment never has it.
    "DJANGO_ALLOW_ASYNC_UNSAFE",
)

PRINT_SETTINGS = """
import django, json
django.setup()
from django.conf import settings as s
print(json.dumps({
    "DEBUG": s.DEBUG, "SECRET_KEY": s.SECRET_KEY, "STATIC": s.STORAGES["staticfiles"]["BACKEND"],
    "SECURE_SSL_REDIRECT": s.SECURE_SSL_REDIRECT, "SECURE_PROXY_SSL_HEADER": s.SECURE_PROXY_SSL_HEADER,
    "SESSION_COOKIE_SECURE": s.SESSION_COOKIE_SECURE, "CSRF_COOKIE_SECURE": s.CSRF_COOKIE_SECURE,
    "SECURE_HSTS_SECONDS": s.SECURE_HSTS_SECONDS, "SECURE_HSTS_INCLUDE_SUBDOMAINS": s.SECURE_HSTS_INCLUDE_SUBDOMAINS,
    "SECURE_HSTS_PRELOAD": s.SECURE_HSTS_PRELOAD,
    "CONN_MAX_AGE": s.DATABASES["default"]["CONN_MAX_AGE"],
    "CONN_HEALTH_CHECKS": s.DATABASES["default"]["CONN_HEALTH_CHECKS"],
}))
"""


def run(args: list[str], **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARS}
    clean["DJANGO_SETTINGS_MODULE"] = "league.settings"
    clean.update(env)
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120)


def settings_with(**env: str) -> dict:
    import json

    done = run(["-c", PRINT_SETTINGS], **env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_debug_off_without_secret_key_refuses_to_start():
    done = run(["manage.py", "check"], DEBUG="false")
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr
    assert "SECRET_KEY is not set and DEBUG is off" in done.stderr


def test_an_empty_secret_key_counts_as_none():
    done = run(["manage.py", "check"], DEBUG="false", SECRET_KEY="  ")
    assert done.returncode != 0
    assert "SECRET_KEY is not set" in done.stderr


def test_a_debug_typo_is_an_error_not_a_guess():
    done = run(["manage.py", "check"], DEBUG="flase")
    assert done.returncode != 0
    assert "DEBUG='flase'" in done.stderr


def test_no_environment_is_development():
    """The README's quickstart and pytest run with nothing set: DEBUG on, a key of
    the installation's own, and plain static files (no collectstatic needed)."""
    s = settings_with()
    assert s["DEBUG"] is True
    assert s["SECRET_KEY"] == (ROOT / ".secret_key").read_text().strip()
    assert s["STATIC"] == "django.contrib.staticfiles.storage.StaticFilesStorage"
    assert not s["SECURE_SSL_REDIRECT"] and not s["SESSION_COOKIE_SECURE"] and s["SECURE_HSTS_SECONDS"] == 0


PUBLISHED_KEY = "dev-only-insecure-key-set-SECRET_KEY-in-production"


def test_the_default_key_is_made_on_first_start_and_kept_per_installation(tmp_path):
    """The embedded default used to sign with the key published in
    league/settings.py. Now the first start makes a random key and keeps it in a
    git-ignored file: the same key at every start, another one elsewhere."""
    first, elsewhere = tmp_path / "one" / ".secret_key", tmp_path / "two" / ".secret_key"
    first.parent.mkdir(), elsewhere.parent.mkdir()
    key = settings_with(SECRET_KEY_FILE=str(first))["SECRET_KEY"]
    assert key != PUBLISHED_KEY and len(key) >= 50
    assert first.read_text().strip() == key and first.stat().st_mode & 0o077 == 0  # the owner's alone
    assert settings_with(SECRET_KEY_FILE=str(first))["SECRET_KEY"] == key
    assert settings_with(SECRET_KEY_FILE=str(elsewhere))["SECRET_KEY"] not in (key, PUBLISHED_KEY)
    assert list(first.parent.iterdir()) == [first]  # nothing left over
    ignored = subprocess.run(["git", "check-ignore", ".secret_key"], cwd=ROOT, capture_output=True, text=True)
    assert ignored.stdout.strip() == ".secret_key"
    # DEBUG off still needs SECRET_KEY: the file is a development default only.
    done = run(["manage.py", "check"], DEBUG="false", SECRET_KEY_FILE=str(first))
    assert done.returncode != 0 and "SECRET_KEY is not set and DEBUG is off" in done.stderr


def test_check_deploy_warns_about_the_published_key():
    """Django's own check passes the published key (long and varied)."""
    env = readme_production_env()
    env["SECRET_KEY"] = PUBLISHED_KEY
    done = run(["manage.py", "check", "--deploy"], **env)
    assert "league.W001" in done.stdout + done.stderr and "published" in done.stdout + done.stderr
    assert "league.W001" not in run(["manage.py", "check", "--deploy"], **readme_production_env()).stderr


def test_production_switches_reach_the_settings():
    key = secrets.token_urlsafe(50)
    s = settings_with(
        DEBUG="false", SECRET_KEY=key, SECURE_SSL_REDIRECT="true", SECURE_PROXY_SSL_HEADER="HTTP_X_FORWARDED_PROTO,https",
        SESSION_COOKIE_SECURE="1", CSRF_COOKIE_SECURE="yes", SECURE_HSTS_SECONDS="3600",
        SECURE_HSTS_INCLUDE_SUBDOMAINS="on", SECURE_HSTS_PRELOAD="true",
    )
    assert s == {
        "DEBUG": False, "SECRET_KEY": key, "STATIC": "whitenoise.storage.CompressedManifestStaticFilesStorage",
        "SECURE_SSL_REDIRECT": True, "SECURE_PROXY_SSL_HEADER": ["HTTP_X_FORWARDED_PROTO", "https"],
        "SESSION_COOKIE_SECURE": True, "CSRF_COOKIE_SECURE": True, "SECURE_HSTS_SECONDS": 3600,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": True, "SECURE_HSTS_PRELOAD": True,
        "CONN_MAX_AGE": 0, "CONN_HEALTH_CHECKS": False,
    }


def test_persistent_connections_are_health_checked():
    """With CONN_MAX_AGE set, a connection the database dropped during
    an outage is checked and replaced before a request reuses it."""
    s = settings_with(CONN_MAX_AGE="600")
    assert s["CONN_MAX_AGE"] == 600 and s["CONN_HEALTH_CHECKS"] is True


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("SECURE_HSTS_SECONDS", "a year", "expected a whole number"),
        ("SECURE_HSTS_SECONDS", "-1", "expected a number >= 0"),
        ("SECURE_PROXY_SSL_HEADER", "HTTP_X_FORWARDED_PROTO", "expected a header and a value"),
    ],
)
def test_bad_switch_values_are_named(name, value, message):
    done = run(["manage.py", "check"], **{name: value})
    assert done.returncode != 0
    assert name in done.stderr and message in done.stderr


def readme_production_env() -> dict[str, str]:
    """The NAME=value lines of the README's Production section, SECRET_KEY's
    placeholder replaced by a real random key."""
    text = (ROOT / "README.md").read_text()
    section = text.split("\n## Production\n", 1)[1].split("\n## ", 1)[0]
    env = dict(re.findall(r"^    ([A-Z][A-Z0-9_]+)=(\S.*)$", section, flags=re.MULTILINE))
    assert {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS"} <= env.keys(), env
    env["SECRET_KEY"] = secrets.token_urlsafe(50)
    return env


def test_r5_check_deploy_with_the_readme_production_settings_prints_no_warning():
    """R5."""
    done = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **readme_production_env())
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "System check identified no issues (0 silenced)." in output
    assert "WARNING" not in output


def test_r5_check_deploy_would_catch_a_setting_left_out():
    """The R5 check can fail: drop one switch from the recipe and a warning appears."""
    env = readme_production_env()
    del env["SESSION_COOKIE_SECURE"]
    done = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **env)
    assert done.returncode != 0
    assert "security.W012" in done.stdout + done.stderr

"""System checks of the settings (``manage.py check``) and of the deployment (``--deploy``)."""

from __future__ import annotations

import os

from django.conf import settings
from django.core import checks


@checks.register(checks.Tags.security, deploy=True)
def published_secret_key(app_configs, **kwargs) -> list[checks.CheckMessage]:
    """A SECRET_KEY set to the development key once published in league/settings.py:
    Django's own check (security.W009) passes it, being long and
    varied, yet anyone can sign sessions and invitation links with it."""
    if settings.SECRET_KEY in settings.PUBLISHED_SECRET_KEYS:
        return [
            checks.Warning(
                "SECRET_KEY is the development key published with this project's code: anyone can forge "
                "sessions, password-reset and invitation links signed with it.",
                hint='Set SECRET_KEY to a new random value: python -c "import secrets; print(secrets.token_urlsafe(50))"',
                id="league.W001",
            )
        ]
    return []


@checks.register()
def change_mark_directory(app_configs, **kwargs) -> list[checks.CheckMessage]:
    """CHANGE_MARK_FILE (league/caching/change_mark.py) names a file in a directory that is
    not there: every write would fail on it, so say so before the site starts."""
    path = settings.CHANGE_MARK_FILE
    if path and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        return [
            checks.Error(
                f"CHANGE_MARK_FILE is {path!r}, whose directory does not exist: every write would fail.",
                hint="Create the directory (writable by every process of the site) or leave CHANGE_MARK_FILE empty.",
                id="league.E001",
            )
        ]
    return []

"""System checks of the deployment (``manage.py check --deploy``)."""

from __future__ import annotations

from django.conf import settings
from django.core import checks


@checks.register(checks.Tags.security, deploy=True)
def published_secret_key(app_configs, **kwargs) -> list[checks.CheckMessage]:
    """A SECRET_KEY set to the development key once published in league/settings.py
    (issue 19.4): Django's own check (security.W009) passes it, being long and
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

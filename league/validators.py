"""Field validators the models use: a leaf that imports no other module of the site,
so league/models/ needs nothing that needs the models."""

from __future__ import annotations

import secrets
from urllib.parse import urlsplit

from django.core.exceptions import ValidationError

DISCORD_HOSTS = ("discord.com", "discordapp.com", "canary.discord.com", "ptb.discord.com")


def validate_webhook_url(url: str) -> None:
    """Only Discord's own webhook addresses over HTTPS: the server posts to this
    address, so it must not be pointed at anything else (a machine on our network)."""
    if not url:
        return
    parts = urlsplit(url)
    if parts.scheme != "https" or (parts.hostname or "").lower() not in DISCORD_HOSTS or not parts.path.startswith(
        "/api/webhooks/"
    ):
        raise ValidationError("Paste the webhook address Discord gives you (https://discord.com/api/webhooks/…).")


def validate_signed_webhook_url(url: str) -> None:
    """Any receiver, over HTTPS, named by its host: never a bare address nor this
    machine, so the server cannot be pointed at its own network by number."""
    if not url:
        return
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if parts.scheme != "https" or not host or host == "localhost" or host.replace(".", "").isdigit() or ":" in host:
        raise ValidationError("Give the receiver's https:// address, by its name (not an IP address).")


def new_webhook_secret() -> str:
    """A league's webhook secret (the default of ``League.webhook_secret``)."""
    return secrets.token_hex(32)

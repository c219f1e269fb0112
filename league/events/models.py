"""A league's event subscriptions and each event's delivery to one of them."""

from __future__ import annotations

import base64
import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from league.models import League

MAX_URL = 500
MAX_SUBSCRIPTIONS = 10  # per league: each event costs one delivery per subscription
MAX_ATTEMPTS = 10  # the queue makes tasks.ATTEMPTS; the column's bound leaves room


def new_secret() -> str:
    """A Standard Webhooks signing secret: ``whsec_`` and 32 random bytes in base64."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()


def new_event_id() -> str:
    """The ``webhook-id`` of one event at one subscription: the same on every retry,
    so a receiver can drop a delivery it already has."""
    return "msg_" + secrets.token_urlsafe(18)


class Subscription(models.Model):
    """An HTTPS endpoint the organiser subscribed to some of the league's events;
    each delivery is signed with ``secret`` (Standard Webhooks).

    The league's own two webhooks, set on its settings page (``League.discord_webhook``,
    ``League.webhook_url`` and ``webhook_secret``), are subscriptions too, one of
    each ``signature`` a league, kept in step with those settings before each post
    (league/events/webhooks.py): their posts keep the format their receivers
    check (Discord's message; the body signed in ``X-League-Signature``) and get
    the delivery rows, the retries and the address rules of every event. The
    Events page lists only the organiser's own (``Signature.STANDARD``)."""

    class Signature(models.TextChoices):
        STANDARD = "standard", "Standard Webhooks"
        LEAGUE = "league", "The league's signed webhook (X-League-Signature)"
        DISCORD = "discord", "The league's Discord channel (unsigned)"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="event_subscriptions")
    url = models.URLField(max_length=MAX_URL)
    # A whsec_ secret (60 characters), or a league's webhook secret (64).
    secret = models.CharField(max_length=64, default=new_secret)
    signature = models.CharField(max_length=10, choices=Signature.choices, default=Signature.STANDARD)
    event_types = models.JSONField(default=list, help_text="The kinds of event sent (league/events/types.py).")
    active = models.BooleanField(default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["league", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["league", "signature", "url"],
                                    name="event_subscription_url_once_per_league"),
            models.UniqueConstraint(fields=["league", "signature"], condition=~Q(signature="standard"),
                                    name="event_subscription_one_league_webhook_of_each"),
        ]

    def __str__(self) -> str:
        return self.url

    def wants(self, event_type: str) -> bool:
        return event_type in self.event_types


class Delivery(models.Model):
    """One event for one subscription: its exact body (every attempt sends the same
    bytes, with the same ``webhook-id``), and what the last attempt got back."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting"
        DELIVERED = "delivered", "Delivered"
        RETRYING = "retrying", "Failed, to be tried again"
        FAILED = "failed", "Failed"
        REFUSED = "refused", "Not sent"

    subscription = models.ForeignKey(Subscription, on_delete=models.CASCADE, related_name="deliveries")
    event_id = models.CharField(max_length=40, unique=True, default=new_event_id)
    event_type = models.CharField(max_length=40)
    payload = models.TextField(help_text="The JSON body, exactly as posted.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_status = models.PositiveSmallIntegerField(null=True, blank=True, help_text="The receiver's HTTP status.")
    last_error = models.CharField(max_length=200, blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["subscription", "-created_at"], name="delivery_by_subscription")]
        constraints = [
            models.CheckConstraint(condition=Q(attempts__lte=MAX_ATTEMPTS), name="delivery_attempts_bounded"),
        ]

    def __str__(self) -> str:
        return f"{self.event_type} to {self.subscription_id} ({self.status})"

"""What the engine keeps per account: the notification kinds turned off, and the
keys of the writes it accepted (result forms, the API)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class NotificationPreference(models.Model):
    """The notification kinds (league/outbox/notifications.py) a user has turned off; a
    kind not listed, new ones included, is sent."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preference")
    off = models.JSONField(default=list, blank=True)

    def __str__(self) -> str:
        return f"{self.user}: {len(self.off)} kind(s) off"

class IdempotencyKey(models.Model):
    """A write's key (``league/idempotency.py``: a result form's submission key,
    an API request's ``Idempotency-Key``), kept once the write was accepted, with
    where it led: the same key sent again (a phone resending what it kept while
    offline, a double tap, a client's retry) is answered with that outcome and
    writes nothing. Kept ``IDEMPOTENCY_KEY_DAYS``,
    as long as a key is valid, then purged (``purge_idempotency_keys``)."""

    key = models.CharField(max_length=64, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    path = models.CharField(max_length=300)
    status = models.PositiveSmallIntegerField(default=0)
    location = models.CharField(max_length=500, blank=True)
    created = models.DateTimeField(default=timezone.now, db_index=True)

    def __str__(self) -> str:
        return f"{self.path} by {self.user_id}: {self.status}"

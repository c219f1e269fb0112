"""Posting one event to one subscription, as the Standard Webhooks specification
says (https://www.standardwebhooks.com/): the body as stored, with ``webhook-id``
(the delivery's, the same on every retry), ``webhook-timestamp`` (this attempt's)
and ``webhook-signature`` (``v1,`` and the base64 HMAC-SHA256 of
``id.timestamp.body`` under the subscription's ``whsec_`` secret), signed by the
``standardwebhooks`` package the receivers verify with.

The league's own webhooks are subscriptions of their own signature
(``Subscription.Signature``): the signed webhook's post carries
``X-League-Signature: sha256=<hex>``, the HMAC-SHA256 of the body under the
league's secret, as its receivers have always checked it; Discord's is not
signed. Both are delivered, retried and refused exactly as events are.

A task of the outbox (league/outbox/tasks.py): a network error, a 429 or a 5xx is
tried again after a growing pause, up to ``tasks.ATTEMPTS``; a refused address
or a redirect (neither ever posted to nor followed: league/outbox/addresses.py) or
another 4xx is final. Each attempt's answer is kept on the delivery row,
which the organiser's events page lists. The secret is read from the
subscription when the task runs, never written into the task's row.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import http.client
import logging

from django.conf import settings
from django.utils import timezone
from django_tasks import task
from standardwebhooks.webhooks import Webhook

from league.events.models import MAX_ATTEMPTS, Delivery, Subscription
from league.outbox import addresses, tasks

logger = logging.getLogger(__name__)

LEAGUE_SIGNATURE_HEADER = "X-League-Signature"


def league_signature(secret: str, body: bytes) -> str:
    """The league's signed webhook's header value: ``sha256=`` and the hex
    HMAC-SHA256 of ``body`` under the league's secret."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def signed_headers(*, secret: str, event_id: str, body: str, now: datetime.datetime) -> dict[str, str]:
    """The three Standard Webhooks headers for ``body`` sent at ``now``."""
    return {
        "webhook-id": event_id,
        "webhook-timestamp": str(int(now.timestamp())),
        "webhook-signature": Webhook(secret).sign(msg_id=event_id, timestamp=now, data=body),
    }


def _headers(subscription: Subscription, delivery: Delivery, now: datetime.datetime) -> dict[str, str]:
    if subscription.signature == Subscription.Signature.LEAGUE:
        return {LEAGUE_SIGNATURE_HEADER: league_signature(subscription.secret, delivery.payload.encode())}
    if subscription.signature == Subscription.Signature.DISCORD:
        return {}
    return signed_headers(secret=subscription.secret, event_id=delivery.event_id, body=delivery.payload, now=now)


def _pause(attempt: int) -> float:
    return tasks.BACKOFF_SECONDS[min(attempt - 1, len(tasks.BACKOFF_SECONDS) - 1)] * settings.TASK_BACKOFF_SCALE


@task()
def deliver(*, delivery_id: int, attempt: int = 1) -> str:
    """One attempt at posting the delivery's event."""
    delivery = Delivery.objects.select_related("subscription").filter(pk=delivery_id).first()
    if delivery is None or delivery.status == Delivery.Status.DELIVERED:
        return "nothing to send"
    subscription = delivery.subscription
    if not subscription.active:
        _record(delivery, Delivery.Status.REFUSED, error="The subscription is switched off.")
        return "subscription switched off"
    delivery.attempts = min(attempt, MAX_ATTEMPTS)
    standard = subscription.signature == Subscription.Signature.STANDARD
    what = f"Event {delivery.event_id}" if standard else "Webhook post"
    try:
        status = addresses.post(subscription.url, delivery.payload, _headers(subscription, delivery, timezone.now()),
                                agent="events" if standard else "webhook")
    except addresses.NotAllowed as refusal:
        _record(delivery, Delivery.Status.REFUSED, error=str(refusal))
        logger.error("%s not sent: %s", what, refusal)
        raise tasks.Refused(str(refusal)) from None
    except (OSError, http.client.HTTPException) as error:
        problem = str(error) or type(error).__name__
        status = None
    else:
        if 200 <= status < 300:
            _record(delivery, Delivery.Status.DELIVERED, http_status=status)
            return f"delivered (HTTP {status})"
        problem = f"HTTP {status}"
        if status != 429 and status < 500:
            why = "redirects are not followed" if 300 <= status < 400 else ""
            _record(delivery, Delivery.Status.FAILED, http_status=status, error=why)
            raise tasks.Refused(f"HTTP {status} {why}".strip())
    error = problem if status is None else ""  # the page shows the status itself
    if attempt >= tasks.ATTEMPTS:
        _record(delivery, Delivery.Status.FAILED, http_status=status, error=error)
    else:
        _record(delivery, Delivery.Status.RETRYING, http_status=status, error=error,
                next_attempt=timezone.now() + datetime.timedelta(seconds=_pause(attempt)))
    tasks.retry_or_give_up(deliver, {"delivery_id": delivery_id}, attempt=attempt, problem=problem,
                           logger=logger, what=what)
    raise AssertionError("unreachable")  # retry_or_give_up always raises


def _record(delivery: Delivery, status: str, *, http_status: int | None = None, error: str = "",
            next_attempt: datetime.datetime | None = None) -> None:
    delivery.status = status
    delivery.last_status = http_status
    delivery.last_error = error[:200]
    delivery.next_attempt_at = next_attempt
    if status == Delivery.Status.DELIVERED:
        delivery.delivered_at = timezone.now()
    delivery.save(update_fields=["status", "attempts", "last_status", "last_error", "next_attempt_at", "delivered_at"])

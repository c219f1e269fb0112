"""The organiser's writes on a league's event subscriptions: each atomic, the
subscription's row locked, only by one of the league's organisers."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from league.permissions import require_organiser
from league.events import types
from league.outbox import addresses
from league.events.models import MAX_SUBSCRIPTIONS, Subscription, new_secret
from league.models import League


def _clean(url: str, event_types: list[str]) -> tuple[str, list[str]]:
    url = url.strip()
    try:
        addresses.check_url(url)
    except addresses.NotAllowed as refusal:
        raise ValidationError({"url": str(refusal)}) from None
    chosen = [name for name, _ in types.CHOICES if name in set(event_types)]
    if not chosen or len(chosen) != len(set(event_types)):
        raise ValidationError({"event_types": "Choose at least one of the listed events."})
    return url, chosen


@transaction.atomic
def subscribe(*, league: League, by, url: str, event_types: list[str]) -> Subscription:
    """A new subscription of ``url`` to ``event_types``, with a new secret; at most
    ``MAX_SUBSCRIPTIONS`` per league (the league's row is locked while counting)."""
    require_organiser(league, by)
    url, chosen = _clean(url, event_types)
    League.objects.select_for_update().get(pk=league.pk)
    own = Subscription.objects.filter(league=league, signature=Subscription.Signature.STANDARD)
    if own.count() >= MAX_SUBSCRIPTIONS:
        raise ValidationError(f"A league has at most {MAX_SUBSCRIPTIONS} subscriptions: remove one first.")
    try:
        with transaction.atomic():
            return Subscription.objects.create(league=league, url=url, event_types=chosen, created_by=by)
    except IntegrityError:
        raise ValidationError({"url": "That address is subscribed already: change its events below."}) from None


def _locked(league: League, by, subscription_id: int) -> Subscription:
    require_organiser(league, by)
    subscription = (Subscription.objects.select_for_update()
                    .filter(pk=subscription_id, league=league, signature=Subscription.Signature.STANDARD).first())
    if subscription is None:
        raise ValidationError("That subscription is gone: it was removed meanwhile.")
    return subscription


@transaction.atomic
def change(*, league: League, by, subscription_id: int, event_types: list[str], active: bool) -> Subscription:
    subscription = _locked(league, by, subscription_id)
    _, subscription.event_types = _clean(subscription.url, event_types)
    subscription.active = active
    subscription.save(update_fields=["event_types", "active"])
    return subscription


@transaction.atomic
def renew_secret(*, league: League, by, subscription_id: int) -> Subscription:
    subscription = _locked(league, by, subscription_id)
    subscription.secret = new_secret()
    subscription.save(update_fields=["secret"])
    return subscription


@transaction.atomic
def remove(*, league: League, by, subscription_id: int) -> str:
    """Remove the subscription and its deliveries' log; returns its address."""
    subscription = _locked(league, by, subscription_id)
    url = subscription.url
    subscription.delete()
    return url

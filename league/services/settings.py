"""The organiser's settings of a league, from its settings page: its name and
description, its game's settings, its webhooks and who organises it. Each write
is one transaction on the league's row, locked first, permission-checked, and
refused whole with a ``ValidationError`` the page shows (nothing half-written),
and records what changed as a fact (league/facts/): ``settings.changed`` with the
part changed.

The game's settings are all the organiser's while the league's current season has
no recorded result; afterwards those the game fixes (``GameRules.settings_locked``:
League Points, tiebreakers, what an approved game already gave) keep their value
whatever is posted.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q

from league import selectors
from league.permissions import require_organiser
from league.facts import kinds as fact
from league.facts import recording as facts
from league.models import League, Result
from league.outbox import addresses
from league.rules import rules_class
from league.validators import new_webhook_secret


def _locked_league(league: League) -> League:
    return League.objects.select_for_update().get(pk=league.pk)


def _changed(league: League, by, part: str, **concerns) -> None:
    facts.record(fact.SETTINGS_CHANGED, by=by, league=league, concerns={"part": part, **concerns})


def has_recorded_results(league: League) -> bool:
    """Whether the league's current season has a result recorded (reported,
    confirmed, disputed or approved): from then on the game's locked settings stay."""
    season = selectors.season_for(league)
    return season is not None and Result.objects.filter(fixture__round__season=season).exists()


def locked_settings(league: League) -> dict[str, str]:
    """The game's settings the organiser cannot change now, each with the rule id
    that fixes it; empty while the current season has no recorded result."""
    locked = rules_class(league.game_system).settings_locked
    if not locked or not has_recorded_results(league):
        return {}
    return dict(locked)


@transaction.atomic
def rename_league(*, league: League, by, name: str, description: str) -> League:
    """The league's name and description. Two leagues of one organiser cannot share
    a name: their lists, mails and feeds would not tell them apart. The address
    (slug) stays, so links already shared keep working."""
    require_organiser(league, by)
    name = name.strip()
    if not name:
        raise ValidationError("Give the league a name.")
    locked = _locked_league(league)
    same_organiser = Q(organisers__in=locked.organisers.all()) | Q(organisers=by)
    if League.objects.filter(same_organiser, name__iexact=name).exclude(pk=locked.pk).exists():
        raise ValidationError(f"You already organise a league called {name}: give this one another name.")
    locked.name, locked.description = name, description.strip()
    locked.full_clean(exclude=["organisers"])
    locked.save(update_fields=["name", "description"])
    _changed(locked, by, "name")
    return locked


@transaction.atomic
def change_game_settings(*, league: League, by, values: Mapping[str, Any]) -> Any:
    """The game's settings row (made with the rulebook's defaults if the league has
    none yet): ``values`` by field name; a field the game fixes now keeps its value
    (``locked_settings``), and an unknown field is refused. Bounds come from the
    model's fields and checks (``full_clean``)."""
    require_organiser(league, by)
    model = rules_class(league.game_system).settings_model
    if model is None:
        raise ValidationError(f"{rules_class(league.game_system).name} has no league settings.")
    locked_league = _locked_league(league)
    editable = {field.name for field in model._meta.fields if field.editable and field.name not in ("id", "league")}
    unknown = set(values) - editable
    if unknown:
        raise ValidationError(f"Not a setting of this game: {', '.join(sorted(unknown))}.")
    fixed = locked_settings(locked_league)
    row = model.objects.select_for_update().filter(league=locked_league).first() or model(league=locked_league)
    changed = [name for name, value in values.items() if name not in fixed and getattr(row, name) != value]
    for name in changed:
        setattr(row, name, values[name])
    row.full_clean()
    row.save()
    _changed(locked_league, by, "game", fields=changed)
    return row


@transaction.atomic
def set_webhooks(*, league: League, by, discord_webhook: str, webhook_url: str, new_secret: bool = False) -> League:
    """The Discord webhook and the signed webhook's address; ``new_secret`` replaces
    the signing secret (the receiver must be given the new one). Addresses are
    checked by the model's validators (league/validators.py: Discord's own; a
    receiver by its name), then by the check every webhook's post goes through
    (league/outbox/addresses.py), as an event subscription's address is."""
    require_organiser(league, by)
    locked = _locked_league(league)
    locked.discord_webhook, locked.webhook_url = discord_webhook.strip(), webhook_url.strip()
    if new_secret:
        locked.webhook_secret = new_webhook_secret()
    locked.full_clean(exclude=["organisers"])
    for field in ("discord_webhook", "webhook_url"):
        if url := getattr(locked, field):
            try:
                addresses.check_url(url)
            except addresses.NotAllowed as refusal:
                raise ValidationError({field: str(refusal)}) from None
    locked.save(update_fields=["discord_webhook", "webhook_url", "webhook_secret"])
    _changed(locked, by, "webhooks", new_secret=new_secret)
    return locked


@transaction.atomic
def send_test_message(*, league: League, by) -> list[str]:
    """Queue a test post to each webhook the league has (the fact's follower,
    league/events/webhooks.py); where it goes, or a refusal when it has none."""
    require_organiser(league, by)
    locked = _locked_league(league)
    where = [name for name, there in (("Discord", locked.discord_webhook),
                                      ("the signed webhook", locked.webhook_url and locked.webhook_secret)) if there]
    if not where:
        raise ValidationError("This league has no webhook address yet: save one first.")
    facts.record(fact.WEBHOOKS_TESTED, by=by, league=locked)
    return where


def _active_account(who: str):
    """The active account with this username or email address (case-insensitive)."""
    who = who.strip()
    if not who:
        raise ValidationError("Give the username or email address of the account to add.")
    accounts = list(
        get_user_model().objects.filter(Q(username__iexact=who) | Q(email__iexact=who), is_active=True)[:2]
    )
    if len(accounts) != 1:
        raise ValidationError(
            f"No account (or more than one) has the username or email address {who}: "
            "they sign up first, then you add them."
        )
    return accounts[0]


@transaction.atomic
def add_organiser(*, league: League, by, who: str):
    """Make the account named by ``who`` (username or email) an organiser of the
    league too; returns it."""
    require_organiser(league, by)
    locked = _locked_league(league)
    account = _active_account(who)
    if locked.organisers.filter(pk=account.pk).exists():
        raise ValidationError(f"{account.username} already organises {locked.name}.")
    locked.organisers.add(account)
    _changed(locked, by, "organisers", added=account.pk)
    return account


@transaction.atomic
def remove_organiser(*, league: League, by, user_id: int):
    """Take an organiser off the league (themselves too). The last one cannot go:
    a league without an organiser has nobody to approve its results."""
    require_organiser(league, by)
    locked = _locked_league(league)
    organisers = list(locked.organisers.order_by("pk"))
    leaving = next((user for user in organisers if user.pk == user_id), None)
    if leaving is None:
        raise ValidationError("That account does not organise this league.")
    if len(organisers) == 1:
        raise ValidationError(
            f"{leaving.username} is the league's only organiser: add another before they leave, "
            "so someone can still approve results."
        )
    locked.organisers.remove(leaving)
    _changed(locked, by, "organisers", removed=leaving.pk)
    return leaving

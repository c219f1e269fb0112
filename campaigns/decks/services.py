"""Pools, decks and achieved cards (GB-15 to GB-17)."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from campaigns import rules
from campaigns.guards import lock_coach, require_own, require_running
from campaigns.models import Achievement, CampaignCoach, Deck, OwnedCard, PlotCard
from league.caching import writes as season_writes
from league.models import Fixture


def base_pool() -> QuerySet[PlotCard]:
    """GB-15: the cards every coach's pool holds: the core Guild Plots and the
    Common Campaign Plots. The one query for them, wherever they are needed."""
    return PlotCard.objects.filter(kind__in=[PlotCard.Kind.CORE, PlotCard.Kind.COMMON]).order_by("kind", "order")


def pool_card_ids(coach: CampaignCoach) -> set[int]:
    """GB-15: the base pool plus the cards the coach owns (none yet for a coach
    whose campaign row is not written yet)."""
    base = set(base_pool().values_list("pk", flat=True))
    owned = OwnedCard.objects.filter(coach_id=coach.pk, gone_at__isnull=True) if coach.pk else OwnedCard.objects.none()
    return base | set(owned.values_list("card_id", flat=True))


def _fixture_side(coach: CampaignCoach, fixture: Fixture) -> str:
    if fixture.round.season_id != coach.campaign.season_id or fixture.is_bye:
        raise ValidationError("That is not a League Match of this campaign.")
    if fixture.home_id == coach.entry_id:
        return "home"
    if fixture.away_id == coach.entry_id:
        return "away"
    raise PermissionDenied("That is not your fixture.")


def deck_visible_to_opponent(fixture: Fixture) -> bool:
    """GB-16: decks are shown face up on match day."""
    return timezone.localdate() >= fixture.date or fixture.result_or_none is not None


@transaction.atomic
def register_deck(*, coach: CampaignCoach, fixture: Fixture, cards: Iterable[PlotCard], by) -> Deck:
    """GB-16: exactly 12 distinct cards from the pool for this fixture. It can be
    changed until match day; on match day it can still be registered once."""
    coach = lock_coach(coach)
    require_own(coach, by)
    require_running(coach.campaign)
    fixture = Fixture.objects.select_related("round", "result").get(pk=fixture.pk)
    _fixture_side(coach, fixture)
    if fixture.result_or_none is not None:
        raise ValidationError("This match has been reported: its deck is fixed.")
    if fixture.is_cancelled:
        raise ValidationError("This match is not played: a coach withdrew, so no deck is registered for it.")
    deck = Deck.objects.filter(coach=coach, fixture=fixture).first()
    if deck is not None and timezone.localdate() >= fixture.date:
        raise ValidationError(
            f"Decks are shown face up from match day ({fixture.date:%d %b %Y}): yours can no longer change."
        )
    cards = list({c.pk: c for c in cards}.values())
    refusal = rules.check_deck_size(chosen=len(cards))
    if refusal:
        raise ValidationError(refusal)
    pool = pool_card_ids(coach)
    outside = sorted(c.name for c in cards if c.pk not in pool)
    if outside:
        raise ValidationError(f"Not in your pool: {', '.join(outside)}.")
    if deck is None:
        deck = Deck.objects.create(coach=coach, fixture=fixture)
    else:
        deck.registered_at = timezone.now()
        deck.save(update_fields=["registered_at"])
    deck.cards.set(cards)
    # GB-17: only the deck as it stands at match time counts; a card taken out
    # takes its achievement with it.
    Achievement.objects.filter(coach=coach, fixture=fixture).exclude(card__in=cards).delete()
    return deck


@transaction.atomic
def record_achievements(*, coach: CampaignCoach, fixture: Fixture, cards: Iterable[PlotCard], by) -> list[Achievement]:
    """GB-17: the campaign plot cards the coach achieved in this match, only from
    their registered deck for it and still in their pool. The rewards come from the
    catalogue when the result is approved. The coach or the Longshanks records them
    once the match is played (its result reported) and before approval."""
    coach = lock_coach(coach)
    if not coach.campaign.season.league.is_organised_by(by):
        require_own(coach, by)
    fixture = Fixture.objects.select_related("round", "result").get(pk=fixture.pk)
    _fixture_side(coach, fixture)
    result = fixture.result_or_none
    if result is None:
        raise ValidationError(
            "Report the match first: cards are recorded as achieved once it has been played."
        )
    if result.is_approved:
        raise ValidationError("The result is approved; the organiser must reopen it to change achieved cards.")
    cards = list({c.pk: c for c in cards}.values())
    deck = Deck.objects.filter(coach=coach, fixture=fixture).first()
    if cards and deck is None:
        raise ValidationError("No deck was registered for this match, so no card can be reported.")
    in_deck = set(deck.cards.values_list("pk", flat=True)) if deck else set()
    outside = sorted(c.name for c in cards if c.pk not in in_deck)
    if outside:
        raise ValidationError(f"Only cards from your deck for this match count; not in it: {', '.join(outside)}.")
    gone = sorted(c.name for c in cards if c.pk not in pool_card_ids(coach))
    if gone:
        raise ValidationError(f"No longer in your pool, so it scores for nobody here: {', '.join(gone)}.")
    no_reward = sorted(c.name for c in cards if not (c.cp_reward or c.favour_reward))
    if no_reward:
        raise ValidationError(f"These have an in-game effect only and give no CP or Favours: {', '.join(no_reward)}.")
    Achievement.objects.filter(coach=coach, fixture=fixture).delete()
    achieved = Achievement.objects.bulk_create(
        [Achievement(coach=coach, fixture=fixture, card=c, recorded_by=by) for c in cards]
    )
    season_writes.changed(Q(campaign__coaches__pk=coach.pk))  # a bulk write sends no signal
    return achieved


def report_taken_back(result, *, by) -> None:
    """GB-17: cards are achieved in a match that was played and reported; when the
    reporting coach takes the report back (GB-8 Decision, every game) the match is
    open again, so both coaches' recorded cards go with it and are recorded again
    with the next report. The sides' campaign rows are locked already
    (league/locks.py, step 3)."""
    Achievement.objects.filter(fixture_id=result.fixture_id).delete()


def deck_cards_changed(sender, instance, action, **kwargs) -> None:
    """A deck's cards changed (``deck.cards.set``, from either side): its coach's
    season has a new version (connected from the app's ``ready()``)."""
    if action in ("post_add", "post_remove", "post_clear"):
        coach_ids = [instance.coach_id] if isinstance(instance, Deck) else list(
            Deck.objects.filter(cards=instance).values_list("coach_id", flat=True))
        season_writes.changed(Q(campaign__coaches__pk__in=coach_ids))

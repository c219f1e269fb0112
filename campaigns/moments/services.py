"""Moments and the cards they unlock (GB-12 to GB-14): the catalogue's Moment
table, unlocks reached by a coach's CP total, the starting pick and Moment picks."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Q, Sum, Value
from django.utils import timezone

from campaigns import rules
from campaigns.ledgers.balances import cp_total
from campaigns.guards import lock_coach, require_organiser, require_own, require_running
from campaigns.models import CampaignCoach, CampaignPointLine, Guild, Moment, MomentUnlock, OwnedCard, PlotCard
from league.caching import writes
from league.facts import recording as facts


# GB-13: coaches' CP totals reached Moments; the unlock rows keep it (league/facts/).
MOMENTS_REACHED = "campaigns.moments_reached"
# GB-13: the Longshanks confirmed a Moment; its unlock row keeps it, and the coach
# picks its card.
MOMENT_CONFIRMED = "campaigns.moment_confirmed"


def moment_table() -> list[rules.MomentDef]:
    return [
        rules.MomentDef(m.threshold, m.name, m.unlocks, m.repeat_every) for m in Moment.objects.order_by("threshold")
    ]


def sync_moments(coach: CampaignCoach) -> list[MomentUnlock]:
    """GB-13: create an unlock for every Moment the CP total has reached, several at
    once after a jump. Rows are never deleted: a Moment no longer reached after a
    correction shows as such."""
    return sync_moments_for([coach])


def sync_moments_for(coaches: Iterable[CampaignCoach]) -> list[MomentUnlock]:
    """``sync_moments`` for several coaches in three queries whatever their number
    (the Moment table; the CP totals with the highest unlock each holds; the new
    ones). Unlocks are created in threshold order and never deleted, so every
    Moment up to the highest one held is already there: only those past it are new.
    The cost is the Moments newly reached, not the CP total (one
    adjustment of 100,000,000 CP built five million of them)."""
    ids = [coach.pk for coach in coaches]
    if not ids:
        return []
    table = moment_table()
    # One query: each coach's CP total (0) and the highest unlock they hold (1).
    totals = (
        CampaignPointLine.objects.filter(coach_id__in=ids).order_by().values("coach_id")
        .annotate(value=Sum("amount"), what=Value(0)).values_list("coach_id", "value", "what")
    )
    highest_held = (
        MomentUnlock.objects.filter(coach_id__in=ids).order_by().values("coach_id")
        .annotate(value=Max("threshold"), what=Value(1)).values_list("coach_id", "value", "what")
    )
    cp: dict[int, int] = {}
    highest: dict[int, int] = {}
    for pk, value, what in totals.union(highest_held, all=True):
        if what:
            highest[pk] = value
        else:
            cp[pk] = value or 0
    new = [
        MomentUnlock(coach_id=pk, threshold=m.threshold, name=m.name, unlocks=m.unlocks)
        for pk in ids
        for m in rules.moments_reached(cp.get(pk, 0), table, above=highest.get(pk, -1))
    ]
    created = MomentUnlock.objects.bulk_create(new, ignore_conflicts=True) if new else []
    if created:
        writes.changed(Q(campaign__coaches__pk__in={unlock.coach_id for unlock in created}))  # no signals
        # The new unlocks are the fact; its followers (campaigns/followers.py) tell the organisers and the league.
        facts.happened(MOMENTS_REACHED, rows=created, by=None, league_id=None, unlocks=created)
    return created


def pick_options(coach: CampaignCoach, unlocks: str):
    """GB-13 Decision: a Guild unlock picks a non-rare card of the coach's own Guild;
    a Rare unlock picks a Season Two Rare or the rare card of their own Guild. Cards
    already in the pool are left out (a deck needs distinct cards)."""
    owned = coach.owned_cards.filter(gone_at__isnull=True).values("card_id")
    if unlocks == Moment.Unlocks.GUILD:
        qs = PlotCard.objects.filter(kind=PlotCard.Kind.GUILD, guild_id=coach.guild_id, is_rare=False)
    else:
        qs = PlotCard.objects.filter(
            Q(kind=PlotCard.Kind.RARE) | Q(kind=PlotCard.Kind.GUILD, guild_id=coach.guild_id, is_rare=True)
        )
    return qs.exclude(pk__in=owned).order_by("kind", "name")


@transaction.atomic
def choose_starting_card(*, coach: CampaignCoach, card: PlotCard, guild: Guild | None = None, by) -> OwnedCard:
    """GB-14: the Plotting pick, one non-rare card of the coach's own Guild, chosen
    once and never changed. A coach whose Guild is not known yet names it here."""
    coach = lock_coach(coach)
    require_own(coach, by)
    require_running(coach.campaign)
    unlock = coach.unlocks.filter(threshold=0).first()
    if unlock is None:
        raise ValidationError("This campaign has no Plotting Moment at 0 CP.")
    if OwnedCard.objects.filter(unlock=unlock).exists():
        raise ValidationError("Your starting Guild card is recorded and cannot be changed.")
    if coach.guild_id is None:
        if guild is None:
            raise ValidationError("Choose your Guild first: the starting card comes from it.")
        coach.guild = guild
        coach.save(update_fields=["guild"])
    if card.kind != PlotCard.Kind.GUILD or card.guild_id != coach.guild_id or card.is_rare:
        raise ValidationError(f"The starting card must be a non-rare {coach.guild} campaign plot.")
    return OwnedCard.objects.create(coach=coach, card=card, source=OwnedCard.Source.START, unlock=unlock)


@transaction.atomic
def confirm_unlock(*, unlock: MomentUnlock, by) -> MomentUnlock:
    """GB-13: the Longshanks confirms a Moment the coach has reached."""
    unlock = MomentUnlock.objects.select_for_update(of=("self",)).select_related("coach__campaign__season__league").get(pk=unlock.pk)
    require_organiser(unlock.coach.campaign, by)
    if unlock.confirmed_at is not None:
        raise ValidationError(f"{unlock.name} is already confirmed.")
    total = cp_total(unlock.coach)
    if total < unlock.threshold:
        raise ValidationError(
            f"{unlock.name} needs {unlock.threshold} CP and {unlock.coach} now has {total}: no longer reached."
        )
    unlock.confirmed_at = timezone.now()
    unlock.confirmed_by = by
    unlock.save(update_fields=["confirmed_at", "confirmed_by"])
    facts.happened(MOMENT_CONFIRMED, rows=[unlock], by=by, league_id=unlock.coach.campaign.season.league_id,
                   unlock=unlock)
    return unlock


@transaction.atomic
def pick_card(*, unlock: MomentUnlock, card: PlotCard, by) -> OwnedCard:
    """GB-13: the coach fills a confirmed unlock with a card it allows."""
    coach = lock_coach(unlock.coach)
    unlock = MomentUnlock.objects.get(pk=unlock.pk)
    require_own(coach, by)
    require_running(coach.campaign)
    if OwnedCard.objects.filter(unlock=unlock).exists():
        raise ValidationError(f"You have already picked your card for {unlock.name}.")
    if unlock.threshold == 0:
        raise ValidationError("The Plotting card is your starting pick: use the starting card form.")
    if unlock.confirmed_at is None:
        raise ValidationError(f"The organiser has not confirmed {unlock.name} yet.")
    total = cp_total(coach)
    if total < unlock.threshold:
        raise ValidationError(f"{unlock.name} needs {unlock.threshold} CP and you now have {total}.")
    if not pick_options(coach, unlock.unlocks).filter(pk=card.pk).exists():
        allowed = "a non-rare card of your own Guild" if unlock.unlocks == Moment.Unlocks.GUILD else (
            "a Season Two Rare or your own Guild's rare card"
        )
        raise ValidationError(f"{unlock.name} unlocks {allowed} not already in your pool; {card} is not one.")
    return OwnedCard.objects.create(coach=coach, card=card, source=OwnedCard.Source.MOMENT, unlock=unlock)

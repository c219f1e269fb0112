"""Every write of The Big League. Each service is keyword-only, one transaction, and
locks the row it changes: the coach's ``CampaignCoach`` row for anything that spends
Favours (GB-19, GB-20), so two requests at once cannot both pass the checks.

Refusals raise ``ValidationError`` with a message naming the rule and the numbers,
or ``PermissionDenied`` when the caller has no business doing it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q, Sum
from django.utils import timezone

from campaigns import rules
from campaigns.models import (
    Achievement,
    Campaign,
    CampaignCoach,
    CampaignPointEntry,
    CardOffer,
    Deck,
    EntryKind,
    FavourEntry,
    Guild,
    Loan,
    Moment,
    MomentUnlock,
    OwnedCard,
    PlotCard,
    Sponsorship,
    SponsorshipPurchase,
    Status,
    Title,
)
from league.models import Entry, Fixture, Result, Season
from league.rules.base import ABANDONED
from league.standings import (
    RESULT_FIELDS,
    approved_results,
    lp_before_round,
    played_result,
    season_entries,
    standings_by_round,
)

# Reading helpers ----------------------------------------------------------------


def moment_table() -> list[rules.MomentDef]:
    return [
        rules.MomentDef(m.threshold, m.name, m.unlocks, m.repeat_every) for m in Moment.objects.order_by("threshold")
    ]


def cp_total(coach: CampaignCoach) -> int:
    return CampaignPointEntry.objects.filter(coach=coach).aggregate(total=Sum("amount"))["total"] or 0


def favour_balance(coach: CampaignCoach) -> int:
    return FavourEntry.objects.filter(coach=coach).aggregate(total=Sum("amount"))["total"] or 0


def spent_in_phase(coach: CampaignCoach, phase: int) -> int:
    """GB-19: what the coach has spent in this Wheeling & Dealing phase."""
    return -(FavourEntry.objects.filter(coach=coach, phase=phase).aggregate(total=Sum("amount"))["total"] or 0)


@dataclass
class Phase:
    """Where a coach is between League Matches (GB-19, GB-20, GB-25).

    ``number`` is how many of their League Matches have an approved result: the
    Wheeling & Dealing phase after match N is phase N (phase 0 comes before the
    first match, so carried-over Favours can be used in it).
    """

    number: int
    is_open: bool
    closed_because: str
    next_fixture: Fixture | None
    step: str  # GB-25: what the coach does next


def phase_for(coach: CampaignCoach, *, campaign_over: bool | None = None) -> Phase:
    fixtures = list(
        Fixture.objects.matches()
        .filter(Q(home_id=coach.entry_id) | Q(away_id=coach.entry_id))
        .select_related("round", "result", "home__coach", "away__coach")
        .order_by("round__number", "date", "id")
    )
    if campaign_over is None:
        campaign_over = coach.campaign.is_over
    played = [f for f in fixtures if f.result_or_none is not None and f.result.is_approved]
    upcoming = [f for f in fixtures if f not in played]
    nxt = upcoming[0] if upcoming else None
    if campaign_over:
        return Phase(len(played), False, "the Longshanks has declared the Final Day (GB-26)", nxt, "Final Day")
    if nxt is not None and nxt.result_or_none is not None:
        result = nxt.result
        return Phase(
            len(played),
            False,
            f"your match in {nxt.round} has been reported; Wheeling & Dealing reopens when its result is approved (GB-20)",
            nxt,
            "confirm the result" if result.status == Result.Status.REPORTED else "wait for the Longshanks' approval",
        )
    if nxt is None:
        step = "Wheeling & Dealing (no League Match left)"
    elif not Deck.objects.filter(coach=coach, fixture=nxt).exists():
        step = "Wheeling & Dealing, then build your deck"
    elif timezone.localdate() >= nxt.date:
        step = "play your match and report it"
    else:
        step = "Wheeling & Dealing; your deck is registered"
    return Phase(len(played), True, "", nxt, step)


def pool_card_ids(coach: CampaignCoach) -> set[int]:
    """GB-15: the base pool (core and Common plots) plus cards the coach owns."""
    base = set(PlotCard.objects.filter(kind__in=[PlotCard.Kind.CORE, PlotCard.Kind.COMMON]).values_list("pk", flat=True))
    return base | set(coach.owned_cards.filter(gone_at__isnull=True).values_list("card_id", flat=True))


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


# Campaign set-up -----------------------------------------------------------------


def _guess_guild(team: str, guilds: Iterable[Guild]) -> Guild | None:
    def norm(text: str) -> str:
        text = re.sub(r"\b(the|guild)\b|'s\b|s\b|[^a-z]", "", text.lower().replace("’", "'"))
        return text

    wanted = norm(team)
    for guild in guilds:
        if wanted and norm(guild.name) == wanted:
            return guild
    return None


@transaction.atomic
def ensure_campaign(season: Season) -> Campaign:
    """The season's campaign with a row per entry, created on first use so that a
    season with no campaign rows yet is never a problem. New coaches get their
    Plotting Moment (GB-14, confirmed from the start) and any carry-over (GB-26)."""
    campaign, _ = Campaign.objects.get_or_create(season=season)
    missing = list(Entry.objects.filter(season=season, campaign_coach__isnull=True).select_related("coach"))
    if missing:
        guilds = list(Guild.objects.all())
        CampaignCoach.objects.bulk_create(
            [CampaignCoach(campaign=campaign, entry=e, guild=_guess_guild(e.team, guilds)) for e in missing],
            ignore_conflicts=True,
        )
        new = list(CampaignCoach.objects.filter(entry__in=missing).select_related("entry__coach"))
        table = moment_table()
        start = rules.moments_reached(0, table)
        MomentUnlock.objects.bulk_create(
            [
                MomentUnlock(coach=cc, threshold=m.threshold, name=m.name, unlocks=m.unlocks, confirmed_at=timezone.now())
                for cc in new
                for m in start
            ],
            ignore_conflicts=True,
        )
        _credit_carry_over_into(new, season)
    return campaign


def _credit_carry_over_into(new: list[CampaignCoach], season: Season) -> None:
    """GB-26: a coach joining a campaign gets 5 Favours if their previous campaign in
    this league ended (Final Day declared) without a title for them."""
    coach_ids = [cc.entry.coach_id for cc in new]
    earlier = (
        CampaignCoach.objects.filter(
            entry__coach_id__in=coach_ids,
            campaign__season__league_id=season.league_id,
            campaign__season__start_date__lt=season.start_date,
        )
        .select_related("campaign__season", "entry")
        .order_by("campaign__season__start_date", "campaign__season_id")
    )
    latest: dict[int, CampaignCoach] = {}
    for cc in earlier:
        latest[cc.entry.coach_id] = cc
    titled = set(Title.objects.filter(coach__in=latest.values()).values_list("coach_id", flat=True))
    for cc in new:
        previous = latest.get(cc.entry.coach_id)
        if previous is not None and previous.campaign.is_over and previous.pk not in titled:
            _carry_over(target=cc, source=previous.campaign)


def _carry_over(*, target: CampaignCoach, source: Campaign, by=None) -> None:
    FavourEntry.objects.bulk_create(
        [
            FavourEntry(
                coach=target,
                amount=rules.CARRY_OVER_FAVOURS,
                kind=EntryKind.CARRY_OVER,
                reason=f"carried over from {source.season.name}: competed without winning a title (GB-26)",
                carried_from=source,
                created_by=by,
            )
        ],
        ignore_conflicts=True,
    )


def campaign_coach(season: Season, coach) -> CampaignCoach | None:
    """The coach's row in the season's campaign (None when they are not in it)."""
    if coach is None:
        return None
    ensure_campaign(season)
    return (
        CampaignCoach.objects.select_related("campaign__season__league", "entry__coach", "guild")
        .filter(campaign__season=season, entry__coach=coach)
        .first()
    )


# Locks and permission checks -----------------------------------------------------


def _lock(coach: CampaignCoach) -> CampaignCoach:
    return (
        CampaignCoach.objects.select_for_update(of=("self",))
        .select_related("campaign__season__league", "entry__coach__user", "guild")
        .get(pk=coach.pk)
    )


def _lock_pair(a: CampaignCoach, b: CampaignCoach) -> tuple[CampaignCoach, CampaignCoach]:
    """Lock two coaches' rows always in the same order, so two deals between the
    same coaches cannot deadlock."""
    first, second = sorted([a, b], key=lambda c: c.pk)
    locked = {first.pk: _lock(first), second.pk: _lock(second)}
    return locked[a.pk], locked[b.pk]


def _require_own(coach: CampaignCoach, by) -> None:
    if by is None or not by.is_authenticated or coach.entry.coach.user_id != by.pk:
        raise PermissionDenied("Only the coach themself can do this.")


def _require_organiser(campaign: Campaign, by) -> None:
    if not campaign.season.league.is_organised_by(by):
        raise PermissionDenied("Only the Longshanks of this league can do this (GB-1).")


def _require_running(campaign: Campaign) -> None:
    if campaign.is_over:
        raise ValidationError("The Final Day has been declared: this campaign is over (GB-26).")


def _require_open_phase(coach: CampaignCoach) -> Phase:
    phase = phase_for(coach)
    if not phase.is_open:
        raise ValidationError(f"Wheeling & Dealing is closed: {phase.closed_because}.")
    return phase


def _require_spend(coach: CampaignCoach, phase: Phase, cost: int, what: str) -> None:
    refusal = rules.check_spend(
        balance=favour_balance(coach), spent_in_phase=spent_in_phase(coach, phase.number), cost=cost, what=what
    )
    if refusal:
        raise ValidationError(refusal)


# Moments and picks (GB-12 to GB-14) -------------------------------------------------


def _sync_moments(coach: CampaignCoach) -> list[MomentUnlock]:
    """GB-13: create an unlock for every Moment the CP total has reached, several at
    once after a jump. Rows are never deleted: a Moment no longer reached after a
    correction shows as such."""
    reached = rules.moments_reached(cp_total(coach), moment_table())
    have = set(coach.unlocks.values_list("threshold", flat=True))
    new = [
        MomentUnlock(coach=coach, threshold=m.threshold, name=m.name, unlocks=m.unlocks)
        for m in reached
        if m.threshold not in have
    ]
    return MomentUnlock.objects.bulk_create(new, ignore_conflicts=True)


@transaction.atomic
def choose_starting_card(*, coach: CampaignCoach, card: PlotCard, guild: Guild | None = None, by) -> OwnedCard:
    """GB-14: the Plotting pick, one non-rare card of the coach's own Guild, chosen
    once and never changed. A coach whose Guild is not known yet names it here."""
    coach = _lock(coach)
    _require_own(coach, by)
    _require_running(coach.campaign)
    unlock = coach.unlocks.filter(threshold=0).first()
    if unlock is None:
        raise ValidationError("This campaign has no Plotting Moment at 0 CP (GB-12).")
    if OwnedCard.objects.filter(unlock=unlock).exists():
        raise ValidationError("Your starting Guild card is recorded and cannot be changed (GB-14).")
    if coach.guild_id is None:
        if guild is None:
            raise ValidationError("Choose your Guild first: the starting card comes from it (GB-14).")
        coach.guild = guild
        coach.save(update_fields=["guild"])
    if card.kind != PlotCard.Kind.GUILD or card.guild_id != coach.guild_id or card.is_rare:
        raise ValidationError(f"The starting card must be a non-rare {coach.guild} campaign plot (GB-13, GB-14).")
    return OwnedCard.objects.create(coach=coach, card=card, source=OwnedCard.Source.START, unlock=unlock)


@transaction.atomic
def confirm_unlock(*, unlock: MomentUnlock, by) -> MomentUnlock:
    """GB-13: the Longshanks confirms a Moment the coach has reached."""
    unlock = MomentUnlock.objects.select_for_update(of=("self",)).select_related("coach__campaign__season__league").get(pk=unlock.pk)
    _require_organiser(unlock.coach.campaign, by)
    if unlock.confirmed_at is not None:
        raise ValidationError(f"{unlock.name} is already confirmed.")
    total = cp_total(unlock.coach)
    if total < unlock.threshold:
        raise ValidationError(
            f"{unlock.name} needs {unlock.threshold} CP and {unlock.coach} now has {total}: no longer reached (GB-12)."
        )
    unlock.confirmed_at = timezone.now()
    unlock.confirmed_by = by
    unlock.save(update_fields=["confirmed_at", "confirmed_by"])
    return unlock


@transaction.atomic
def pick_card(*, unlock: MomentUnlock, card: PlotCard, by) -> OwnedCard:
    """GB-13: the coach fills a confirmed unlock with a card it allows."""
    coach = _lock(unlock.coach)
    unlock = MomentUnlock.objects.get(pk=unlock.pk)
    _require_own(coach, by)
    _require_running(coach.campaign)
    if OwnedCard.objects.filter(unlock=unlock).exists():
        raise ValidationError(f"You have already picked your card for {unlock.name}.")
    if unlock.threshold == 0:
        raise ValidationError("The Plotting card is your starting pick (GB-14): use the starting card form.")
    if unlock.confirmed_at is None:
        raise ValidationError(f"The Longshanks has not confirmed {unlock.name} yet (GB-13).")
    total = cp_total(coach)
    if total < unlock.threshold:
        raise ValidationError(f"{unlock.name} needs {unlock.threshold} CP and you now have {total} (GB-12).")
    if not pick_options(coach, unlock.unlocks).filter(pk=card.pk).exists():
        allowed = "a non-rare card of your own Guild" if unlock.unlocks == Moment.Unlocks.GUILD else (
            "a Season Two Rare or your own Guild's rare card"
        )
        raise ValidationError(f"{unlock.name} unlocks {allowed} not already in your pool (GB-13); {card} is not one.")
    return OwnedCard.objects.create(coach=coach, card=card, source=OwnedCard.Source.MOMENT, unlock=unlock)


# Decks and achieved cards (GB-16, GB-17) ----------------------------------------------


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
    coach = _lock(coach)
    _require_own(coach, by)
    _require_running(coach.campaign)
    fixture = Fixture.objects.select_related("round", "result").get(pk=fixture.pk)
    _fixture_side(coach, fixture)
    if fixture.result_or_none is not None:
        raise ValidationError("This match has been reported: its deck is fixed (GB-16).")
    deck = Deck.objects.filter(coach=coach, fixture=fixture).first()
    if deck is not None and timezone.localdate() >= fixture.date:
        raise ValidationError(
            f"Decks are shown face up from match day ({fixture.date:%d %b %Y}): yours can no longer change (GB-16)."
        )
    cards = list({c.pk: c for c in cards}.values())
    if len(cards) != 12:
        raise ValidationError(f"A deck is exactly 12 distinct cards (GB-16); you chose {len(cards)}.")
    pool = pool_card_ids(coach)
    outside = sorted(c.name for c in cards if c.pk not in pool)
    if outside:
        raise ValidationError(f"Not in your pool (GB-15): {', '.join(outside)}.")
    if deck is None:
        deck = Deck.objects.create(coach=coach, fixture=fixture)
    else:
        deck.registered_at = timezone.now()
        deck.save(update_fields=["registered_at"])
    deck.cards.set(cards)
    return deck


@transaction.atomic
def record_achievements(*, coach: CampaignCoach, fixture: Fixture, cards: Iterable[PlotCard], by) -> list[Achievement]:
    """GB-17: the campaign plot cards the coach achieved in this match, only from
    their registered deck for it. The rewards come from the catalogue when the
    result is approved. The coach or the Longshanks records them before approval."""
    coach = _lock(coach)
    if not coach.campaign.season.league.is_organised_by(by):
        _require_own(coach, by)
    fixture = Fixture.objects.select_related("round", "result").get(pk=fixture.pk)
    _fixture_side(coach, fixture)
    result = fixture.result_or_none
    if result is not None and result.is_approved:
        raise ValidationError("The result is approved; the Longshanks must reopen it to change achieved cards.")
    cards = list({c.pk: c for c in cards}.values())
    deck = Deck.objects.filter(coach=coach, fixture=fixture).first()
    if cards and deck is None:
        raise ValidationError("No deck was registered for this match, so no card can be reported (GB-17).")
    in_deck = set(deck.cards.values_list("pk", flat=True)) if deck else set()
    outside = sorted(c.name for c in cards if c.pk not in in_deck)
    if outside:
        raise ValidationError(f"Only cards from your deck for this match count (GB-17); not in it: {', '.join(outside)}.")
    no_reward = sorted(c.name for c in cards if not (c.cp_reward or c.favour_reward))
    if no_reward:
        raise ValidationError(f"These have an in-game effect only and give no CP or Favours: {', '.join(no_reward)}.")
    Achievement.objects.filter(coach=coach, fixture=fixture).delete()
    return Achievement.objects.bulk_create(
        [Achievement(coach=coach, fixture=fixture, card=c, recorded_by=by) for c in cards]
    )


# Result hooks (called by league.rules.guildball) --------------------------------------


def _active(model):
    return model.objects.filter(reverses__isnull=True, reversed_by__isnull=True)


def _reverse(entries: Iterable, why: str) -> None:
    for e in entries:
        kwargs = {}
        if isinstance(e, FavourEntry):
            kwargs = {"sponsorship_id": e.sponsorship_id, "loan_id": e.loan_id, "offer_id": e.offer_id}
        type(e).objects.create(
            coach_id=e.coach_id,
            amount=-e.amount,
            kind=e.kind,
            reason=f"{why}: {e.reason}"[:300],
            result_id=e.result_id,
            card_id=e.card_id,
            reverses=e,
            **kwargs,
        )


def _replace(model, *, existing: list, desired: list[dict], why: str) -> None:
    """Reverse and rewrite a result's lines only when they differ from what they
    should be, so re-running is harmless."""

    def key(d) -> tuple:
        return (d["coach_id"], d["amount"], d["reason"], d.get("card_id"))

    have = sorted(key({"coach_id": e.coach_id, "amount": e.amount, "reason": e.reason, "card_id": e.card_id}) for e in existing)
    if have == sorted(key(d) for d in desired):
        return
    _reverse(existing, why)
    model.objects.bulk_create([model(**d) for d in desired])


def _reconcile_match_favours(season: Season, *, from_round: int, exclude_result_id: int | None = None) -> None:
    """GB-18: the match Favours of every approved result from ``from_round`` on,
    comparing LP from the results of all earlier rounds (by round number, whatever
    order they were approved in). A result approved late in an early round can
    change later rounds' "more LP" lines, so those are brought up to date too."""
    approved = list(
        approved_results(season)
        .exclude(pk=exclude_result_id)
        .values(*RESULT_FIELDS, "pk", "fixture__home__coach__name", "fixture__away__coach__name")
    )
    targets = [r for r in approved if r["fixture__round__number"] >= from_round]
    if not targets:
        return
    snapshots = standings_by_round(season_entries(season), [played_result(r) for r in approved], season.league.rules)
    cc_by_entry = dict(CampaignCoach.objects.filter(campaign__season=season).values_list("entry_id", "pk"))
    existing = defaultdict(list)
    for e in _active(FavourEntry).filter(kind=EntryKind.MATCH, result_id__in=[r["pk"] for r in targets]):
        existing[e.result_id].append(e)
    for r in targets:
        n = r["fixture__round__number"]
        lp = lp_before_round(snapshots, n)
        desired = []
        for side, me, them, their_name in (
            ("home", r["fixture__home_id"], r["fixture__away_id"], r["fixture__away__coach__name"]),
            ("away", r["fixture__away_id"], r["fixture__home_id"], r["fixture__home__coach__name"]),
        ):
            for award in rules.favour_awards(
                won=r["outcome"] == side, my_lp=lp.get(me, 0), opponent_lp=lp.get(them, 0),
                opponent=their_name, abandoned=r["outcome"] == ABANDONED,
            ):
                desired.append(
                    {"coach_id": cc_by_entry[me], "amount": award.amount, "reason": f"Round {n}: {award.reason}",
                     "kind": EntryKind.MATCH, "result_id": r["pk"]}
                )
        _replace(FavourEntry, existing=existing[r["pk"]], desired=desired, why="recomputed after an earlier round changed")


def on_result_approved(result: Result) -> None:
    """A result became approved (called inside the engine's transaction): CP and
    Favours of the cards achieved (GB-17, from the catalogue), the match Favours
    (GB-18), then any Moments now reached (GB-13)."""
    fixture = Fixture.objects.select_related("round__season__league").get(pk=result.fixture_id)
    if fixture.is_bye:
        return
    season = fixture.round.season
    ensure_campaign(season)
    coaches = [
        _lock(cc)
        for cc in CampaignCoach.objects.filter(entry_id__in=[fixture.home_id, fixture.away_id]).order_by("pk")
    ]
    achievements = list(
        Achievement.objects.filter(fixture=fixture, coach__in=coaches).select_related("card").order_by("card__name")
    )
    where = f"Round {fixture.round.number}"
    cp_rows = [
        {"coach_id": a.coach_id, "amount": a.card.cp_reward, "reason": f"{where}: achieved {a.card.name} (GB-17)",
         "card_id": a.card_id, "kind": EntryKind.CARD, "result_id": result.pk}
        for a in achievements if a.card.cp_reward
    ]
    favour_rows = [
        {"coach_id": a.coach_id, "amount": a.card.favour_reward, "reason": f"{where}: achieved {a.card.name} (GB-17)",
         "card_id": a.card_id, "kind": EntryKind.CARD, "result_id": result.pk}
        for a in achievements if a.card.favour_reward
    ]
    why = "result approved again with other cards"
    _replace(CampaignPointEntry, existing=list(_active(CampaignPointEntry).filter(result=result, kind=EntryKind.CARD)), desired=cp_rows, why=why)
    _replace(FavourEntry, existing=list(_active(FavourEntry).filter(result=result, kind=EntryKind.CARD)), desired=favour_rows, why=why)
    _reconcile_match_favours(season, from_round=fixture.round.number)
    for cc in coaches:
        _sync_moments(cc)


def on_result_withdrawn(result: Result) -> None:
    """An approved result is about to be corrected or reopened: reverse exactly the
    lines it created (match Favours and achieved cards) and bring later rounds'
    GB-18 lines up to date without it. Moments stay recorded and show as no longer
    reached when the CP total has dropped below them."""
    fixture = Fixture.objects.select_related("round__season").get(pk=result.fixture_id)
    if fixture.is_bye or not Campaign.objects.filter(season=fixture.round.season).exists():
        return
    for cc in CampaignCoach.objects.filter(entry_id__in=[fixture.home_id, fixture.away_id]).order_by("pk"):
        _lock(cc)
    why = f"{fixture.round} result corrected or reopened"
    for model in (CampaignPointEntry, FavourEntry):
        _reverse(list(_active(model).filter(result=result, kind__in=[EntryKind.MATCH, EntryKind.CARD])), why)
    _reconcile_match_favours(fixture.round.season, from_round=fixture.round.number + 1, exclude_result_id=result.pk)


# Organiser adjustments ----------------------------------------------------------------


@transaction.atomic
def adjust(*, coach: CampaignCoach, ledger: str, amount: int, reason: str, by, result: Result | None = None):
    """GB-1/GB-11: the Longshanks adds CP or Favours (or takes them away) with a
    reason. Favours taken away never leave a negative balance (GB-20)."""
    coach = _lock(coach)
    _require_organiser(coach.campaign, by)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError("Give a reason: the coach sees it in their ledger.")
    if amount == 0:
        raise ValidationError("An adjustment of 0 changes nothing.")
    if ledger == "cp":
        entry = CampaignPointEntry.objects.create(
            coach=coach, amount=amount, kind=EntryKind.ADJUSTMENT, reason=reason, created_by=by, result=result
        )
        _sync_moments(coach)
        return entry
    if ledger != "favours":
        raise ValueError(ledger)
    balance = favour_balance(coach)
    if balance + amount < 0:
        raise ValidationError(
            f"{coach} has {balance} Favours; taking {-amount} would leave {balance + amount} (GB-20: never below zero)."
        )
    return FavourEntry.objects.create(coach=coach, amount=amount, kind=EntryKind.ADJUSTMENT, reason=reason, created_by=by)


# Wheeling & Dealing (GB-19 to GB-24) ----------------------------------------------------


@transaction.atomic
def buy_sponsorship(*, coach: CampaignCoach, sponsorship: Sponsorship, by) -> SponsorshipPurchase:
    """GB-21: 1 Favour, attached to the coach's next match, one copy of each."""
    coach = _lock(coach)
    _require_own(coach, by)
    _require_running(coach.campaign)
    phase = _require_open_phase(coach)
    if phase.next_fixture is None:
        raise ValidationError("You have no League Match left to use a sponsorship in (GB-21).")
    held = coach.sponsorships.exclude(fixture__result__status=Result.Status.APPROVED).values_list(
        "sponsorship__name", flat=True
    )
    refusal = rules.check_sponsorship(name=sponsorship.name, held=held)
    if refusal:
        raise ValidationError(refusal)
    _require_spend(coach, phase, rules.SPONSORSHIP_COST, f"The sponsorship {sponsorship.name}")
    purchase = SponsorshipPurchase.objects.create(coach=coach, sponsorship=sponsorship, fixture=phase.next_fixture)
    FavourEntry.objects.create(
        coach=coach, amount=-rules.SPONSORSHIP_COST, kind=EntryKind.SPONSORSHIP, phase=phase.number,
        sponsorship=purchase, created_by=by,
        reason=f"sponsorship {sponsorship.name} for {phase.next_fixture.round} (GB-21)",
    )
    return purchase


@transaction.atomic
def buy_advancement(*, coach: CampaignCoach, by) -> CampaignPointEntry:
    """GB-24: 1 Favour buys +5 CP, once per Wheeling & Dealing phase."""
    coach = _lock(coach)
    _require_own(coach, by)
    _require_running(coach.campaign)
    phase = _require_open_phase(coach)
    done = FavourEntry.objects.filter(coach=coach, phase=phase.number, kind=EntryKind.ADVANCEMENT).count()
    refusal = rules.check_advancement(advancements_in_phase=done)
    if refusal:
        raise ValidationError(refusal)
    _require_spend(coach, phase, rules.ADVANCEMENT_COST, "Campaign Advancement")
    FavourEntry.objects.create(
        coach=coach, amount=-rules.ADVANCEMENT_COST, kind=EntryKind.ADVANCEMENT, phase=phase.number, created_by=by,
        reason=f"Campaign Advancement: +{rules.ADVANCEMENT_CP} CP (GB-24)",
    )
    entry = CampaignPointEntry.objects.create(
        coach=coach, amount=rules.ADVANCEMENT_CP, kind=EntryKind.ADVANCEMENT, created_by=by,
        reason=f"Campaign Advancement for {rules.ADVANCEMENT_COST} Favour (GB-24)",
    )
    _sync_moments(coach)
    return entry


def _same_campaign(a: CampaignCoach, b: CampaignCoach) -> None:
    if a.campaign_id != b.campaign_id:
        raise ValidationError("Both coaches must be in the same campaign.")
    if a.pk == b.pk:
        raise ValidationError("You cannot deal with yourself.")


@transaction.atomic
def request_loan(*, borrower: CampaignCoach, lender: CampaignCoach, model_name: str, model_type: str, by) -> Loan:
    """GB-22: ask another coach to lend a model for your next League Match. The 3
    Favours move when the lender accepts; they are checked now as well."""
    borrower = _lock(borrower)
    _require_own(borrower, by)
    _same_campaign(borrower, lender)
    _require_running(borrower.campaign)
    refusal = rules.check_loanable(model_type)
    if refusal:
        raise ValidationError(refusal)
    model_name = (model_name or "").strip()
    if not model_name:
        raise ValidationError("Name the model you want to borrow.")
    phase = _require_open_phase(borrower)
    if phase.next_fixture is None:
        raise ValidationError("You have no League Match left to field a loaned model in (GB-22).")
    _require_spend(borrower, phase, rules.LOAN_COST, "A loan")
    return Loan.objects.create(borrower=borrower, lender=lender, model_name=model_name, model_type=model_type)


def _require_pending(deal, what: str) -> None:
    if deal.status != Status.PENDING:
        raise ValidationError(f"This {what} is already {deal.status}.")


def _answer(deal, *, status: str, what: str, extra_fields: tuple[str, ...] = ()) -> None:
    """Close a pending loan request or card offer (GB-22, GB-23) as accepted,
    refused or withdrawn; one that was already answered is refused."""
    _require_pending(deal, what)
    deal.status = status
    deal.answered_at = timezone.now()
    deal.save(update_fields=["status", "answered_at", *extra_fields])


@transaction.atomic
def answer_loan(*, loan: Loan, accept: bool, by) -> Loan:
    """GB-22: the lender accepts (borrower pays 3: 2 to the lender, 1 to the bank;
    the loan lasts the borrower's next match) or refuses."""
    loan = Loan.objects.select_for_update(of=("self",)).select_related("borrower", "lender").get(pk=loan.pk)
    borrower, lender = _lock_pair(loan.borrower, loan.lender)
    _require_own(lender, by)
    if not accept:
        _answer(loan, status=Status.REFUSED, what="loan request")
        return loan
    _require_pending(loan, "loan request")
    _require_running(borrower.campaign)
    refusal = rules.check_loanable(loan.model_type)
    if refusal:
        raise ValidationError(refusal)
    phase = phase_for(borrower)
    if not phase.is_open:
        raise ValidationError(f"{borrower}'s Wheeling & Dealing is closed: {phase.closed_because}.")
    if phase.next_fixture is None:
        raise ValidationError(f"{borrower} has no League Match left to field the model in (GB-22).")
    refusal = rules.check_spend(
        balance=favour_balance(borrower), spent_in_phase=spent_in_phase(borrower, phase.number),
        cost=rules.LOAN_COST, what="The loan", who=str(borrower),
    )
    if refusal:
        raise ValidationError(refusal)
    loan.fixture = phase.next_fixture
    _answer(loan, status=Status.ACCEPTED, what="loan request", extra_fields=("fixture",))
    FavourEntry.objects.create(
        coach=borrower, amount=-rules.LOAN_COST, kind=EntryKind.LOAN_FEE, phase=phase.number, loan=loan, created_by=by,
        reason=f"borrowed {loan.model_name} from {lender}: {rules.LOAN_TO_LENDER} to them, 1 to the bank (GB-22)",
    )
    FavourEntry.objects.create(
        coach=lender, amount=rules.LOAN_TO_LENDER, kind=EntryKind.LOAN_FEE, loan=loan, created_by=by,
        reason=f"lent {loan.model_name} to {borrower} (GB-22)",
    )
    return loan


@transaction.atomic
def withdraw_loan(*, loan: Loan, by) -> Loan:
    loan = Loan.objects.select_for_update(of=("self",)).select_related("borrower__entry__coach").get(pk=loan.pk)
    _require_own(loan.borrower, by)
    _answer(loan, status=Status.WITHDRAWN, what="loan request")
    return loan


def _check_card_movable(card: OwnedCard, owner: CampaignCoach, receiver: CampaignCoach) -> None:
    if card.gone_at is not None or card.coach_id != owner.pk:
        raise ValidationError(f"{card.card} is no longer in {owner}'s pool.")
    if card.is_locked:
        raise ValidationError(f"{card.card} is {owner}'s starting pick and cannot change hands (GB-14).")
    if OwnedCard.objects.filter(coach=receiver, card_id=card.card_id, gone_at__isnull=True).exists():
        raise ValidationError(f"{receiver} already has {card.card} in their pool.")


@transaction.atomic
def offer_purchase(*, buyer: CampaignCoach, wanted: OwnedCard, favours: int, by) -> CardOffer:
    """GB-23: offer 1 to 5 Favours for another coach's unlocked card."""
    buyer = _lock(buyer)
    _require_own(buyer, by)
    seller = wanted.coach
    _same_campaign(buyer, seller)
    _require_running(buyer.campaign)
    refusal = rules.check_card_offer(favours)
    if refusal:
        raise ValidationError(refusal)
    _check_card_movable(wanted, seller, buyer)
    phase = _require_open_phase(buyer)
    _require_spend(buyer, phase, favours, f"Your offer for {wanted.card}")
    return CardOffer.objects.create(
        kind=CardOffer.Kind.PURCHASE, proposer=buyer, recipient=seller, wanted=wanted, favours=favours
    )


@transaction.atomic
def offer_swap(*, proposer: CampaignCoach, wanted: OwnedCard, offered: OwnedCard, by) -> CardOffer:
    """GB-23: propose a free swap of unlocked cards; the other coach accepts or not."""
    proposer = _lock(proposer)
    _require_own(proposer, by)
    other = wanted.coach
    _same_campaign(proposer, other)
    _require_running(proposer.campaign)
    _check_card_movable(wanted, other, proposer)
    _check_card_movable(offered, proposer, other)
    return CardOffer.objects.create(
        kind=CardOffer.Kind.SWAP, proposer=proposer, recipient=other, wanted=wanted, offered=offered
    )


@transaction.atomic
def answer_offer(*, offer: CardOffer, accept: bool, by) -> CardOffer:
    """GB-23: the card's owner accepts or refuses. A sale moves the card to the buyer
    and the Favours to the seller (spent by the buyer, GB-19); a swap moves both."""
    offer = CardOffer.objects.select_for_update(of=("self",)).select_related("proposer", "recipient").get(pk=offer.pk)
    proposer, recipient = _lock_pair(offer.proposer, offer.recipient)
    _require_own(recipient, by)
    if not accept:
        _answer(offer, status=Status.REFUSED, what="offer")
        return offer
    _require_pending(offer, "offer")
    _require_running(proposer.campaign)
    wanted = OwnedCard.objects.select_for_update().select_related("card").get(pk=offer.wanted_id)
    _check_card_movable(wanted, recipient, proposer)
    now = timezone.now()
    if offer.kind == CardOffer.Kind.PURCHASE:
        phase = phase_for(proposer)
        if not phase.is_open:
            raise ValidationError(f"{proposer}'s Wheeling & Dealing is closed: {phase.closed_because}.")
        refusal = rules.check_spend(
            balance=favour_balance(proposer), spent_in_phase=spent_in_phase(proposer, phase.number),
            cost=offer.favours, what="The offer", who=str(proposer),
        )
        if refusal:
            raise ValidationError(refusal)
        FavourEntry.objects.create(
            coach=proposer, amount=-offer.favours, kind=EntryKind.CARD_SALE, phase=phase.number, offer=offer,
            created_by=by, reason=f"bought {wanted.card} from {recipient} (GB-23)",
        )
        FavourEntry.objects.create(
            coach=recipient, amount=offer.favours, kind=EntryKind.CARD_SALE, offer=offer, created_by=by,
            reason=f"sold {wanted.card} to {proposer} (GB-23)",
        )
        _move(wanted, proposer, OwnedCard.Source.BOUGHT, now)
    else:
        offered = OwnedCard.objects.select_for_update().select_related("card").get(pk=offer.offered_id)
        _check_card_movable(offered, proposer, recipient)
        _move(wanted, proposer, OwnedCard.Source.SWAPPED, now)
        _move(offered, recipient, OwnedCard.Source.SWAPPED, now)
    _answer(offer, status=Status.ACCEPTED, what="offer")
    return offer


def _move(card: OwnedCard, to: CampaignCoach, source: str, now) -> None:
    card.gone_at = now
    card.save(update_fields=["gone_at"])
    OwnedCard.objects.create(coach=to, card_id=card.card_id, source=source, acquired_at=now)


@transaction.atomic
def withdraw_offer(*, offer: CardOffer, by) -> CardOffer:
    offer = CardOffer.objects.select_for_update(of=("self",)).select_related("proposer__entry__coach").get(pk=offer.pk)
    _require_own(offer.proposer, by)
    _answer(offer, status=Status.WITHDRAWN, what="offer")
    return offer


# Final Day (GB-3, GB-26) ------------------------------------------------------------------


@transaction.atomic
def declare_final_day(*, campaign: Campaign, by) -> list[Title]:
    """GB-26: once every League Match has its approved result, the Longshanks fixes
    the three titles (GB-3) and every coach without one gets 5 Favours in their
    next campaign in this league (now if it exists, otherwise when they join it)."""
    from campaigns.selectors import campaign_rows, title_race

    campaign = Campaign.objects.select_for_update(of=("self",)).select_related("season__league").get(pk=campaign.pk)
    _require_organiser(campaign, by)
    if campaign.is_over:
        raise ValidationError("The Final Day has already been declared.")
    season = campaign.season
    ensure_campaign(season)
    unplayed = Fixture.objects.filter(round__season=season).unplayed().count()
    if unplayed:
        raise ValidationError(
            f"{unplayed} League Match{'es' if unplayed != 1 else ''} still without an approved result: "
            "record or abandon them before the Final Day (GB-26)."
        )
    rows = campaign_rows(campaign)
    race = title_race(rows)
    by_name = {row.name: row for row in rows}
    titles = Title.objects.bulk_create(
        [
            Title(campaign=campaign, title=title, coach_id=by_name[name].cc_id, figure=figure)
            for title, (names, figure) in race.items()
            for name in names
        ]
    )
    campaign.final_day_declared_at = timezone.now()
    campaign.final_day_declared_by = by
    campaign.save(update_fields=["final_day_declared_at", "final_day_declared_by"])
    titled = {t.coach_id for t in titles}
    for row in rows:
        if row.cc_id in titled:
            continue
        later = (
            CampaignCoach.objects.filter(
                entry__coach_id=row.coach_id,
                campaign__season__league_id=season.league_id,
                campaign__season__start_date__gt=season.start_date,
            )
            .order_by("campaign__season__start_date")
            .first()
        )
        if later is not None:
            _carry_over(target=later, source=campaign, by=by)
    return titles


# Spreadsheet import ------------------------------------------------------------------------


@transaction.atomic
def record_match_cp(*, result: Result, home_cp: int | None, away_cp: int | None, by, source: str) -> int:
    """The CP each coach gained in an imported match (columns ``home_cp,away_cp``),
    as organiser entries linked to the result; returns how many lines were added.

    Importing the same file again adds nothing; a different figure for a match that
    already has imported CP is refused, like a different score. The match Favours
    are not here: the import approves results through ``league.services``, so GB-18
    applies exactly as for a result entered on the site.
    """
    fixture = Fixture.objects.select_related("round__season__league").get(pk=result.fixture_id)
    ensure_campaign(fixture.round.season)
    added = 0
    for entry_id, cp in ((fixture.home_id, home_cp), (fixture.away_id, away_cp)):
        if not cp:
            continue
        if cp < 0:
            raise ValidationError(f"CP gained in a match cannot be negative ({cp}) (GB-11: CP are never spent).")
        coach = CampaignCoach.objects.select_related("campaign__season__league", "entry__coach").get(entry_id=entry_id)
        already = (
            _active(CampaignPointEntry)
            .filter(coach=coach, result=result, kind=EntryKind.ADJUSTMENT)
            .aggregate(total=Sum("amount"))["total"]
        )
        if already == cp:
            continue
        if already:
            raise ValidationError(
                f"{coach} already has {already} CP imported for {fixture}; the file says {cp}. Correct it on the site instead."
            )
        adjust(
            coach=coach, ledger="cp", amount=cp, by=by, result=result,
            reason=f"{fixture.round}: CP gained in the match ({source})",
        )
        added += 1
    return added

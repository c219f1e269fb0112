"""The CP and Favour ledgers' writes: what an approved result gives (GB-17, GB-18),
what a corrected or reopened one takes back, and the Longshanks' adjustments
(GB-1, GB-11). Lines are append-only; a correction adds the line that reverses."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q, Sum

from campaigns import rules
from campaigns.balances import active_lines, cp_total, favour_balance
from campaigns.guards import lock_coach, lock_fixture_sides, require_organiser
from campaigns.decks import base_pool
from campaigns.models import (
    Achievement,
    Campaign,
    CampaignCoach,
    CampaignPointLine,
    Deck,
    FavourLine,
    LineKind,
    OwnedCard,
)
from campaigns.moments import sync_moments
from campaigns.setup import ensure_campaign
from league.models import Fixture, Result, Season
from league.rules.base import ABANDONED
from league.standings import (
    RESULT_FIELDS,
    approved_results,
    lp_before_round,
    played_result,
    season_entries,
    standings_by_round,
)


def reverse_lines(lines: Iterable, why: str) -> None:
    for e in lines:
        kwargs = {}
        if isinstance(e, FavourLine):
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
    reverse_lines(existing, why)
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
    for e in active_lines(FavourLine).filter(kind=LineKind.MATCH, result_id__in=[r["pk"] for r in targets]):
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
                     "kind": LineKind.MATCH, "result_id": r["pk"]}
                )
        _replace(FavourLine, existing=existing[r["pk"]], desired=desired, why="recomputed after an earlier round changed")


def scoring_achievements(fixture: Fixture, result: Result, coaches: list[CampaignCoach]) -> list[Achievement]:
    """GB-17, GB-23: the achieved cards that score: each in that coach's deck for
    the match as it stands, and held by that coach when the match was reported (a
    base-pool card always is; a Guild or Rare card must have been in their pool
    then). So one card never scores for two coaches in one match."""
    achieved = list(
        Achievement.objects.filter(fixture=fixture, coach__in=coaches).select_related("card").order_by("card__name")
    )
    in_deck = set(
        Deck.cards.through.objects.filter(deck__fixture=fixture, deck__coach__in=coaches).values_list(
            "deck__coach_id", "plotcard_id"
        )
    )
    base = set(base_pool().values_list("pk", flat=True))
    held = set(
        OwnedCard.objects.filter(coach__in=coaches, acquired_at__lte=result.reported_at)
        .filter(Q(gone_at__isnull=True) | Q(gone_at__gt=result.reported_at))
        .values_list("coach_id", "card_id")
    )
    return [
        a for a in achieved
        if (a.coach_id, a.card_id) in in_deck and (a.card_id in base or (a.coach_id, a.card_id) in held)
    ]


def on_result_approved(result: Result) -> None:
    """A result became approved (called inside the engine's transaction): CP and
    Favours of the cards achieved (GB-17, from the catalogue), the match Favours
    (GB-18), then any Moments now reached (GB-13)."""
    fixture = Fixture.objects.select_related("round__season__league").get(pk=result.fixture_id)
    if fixture.is_bye:
        return
    season = fixture.round.season
    ensure_campaign(season)
    coaches = lock_fixture_sides(fixture)  # already held when the engine called (league/locks.py)
    achievements = scoring_achievements(fixture, result, coaches)
    where = f"Round {fixture.round.number}"
    cp_rows = [
        {"coach_id": a.coach_id, "amount": a.card.cp_reward, "reason": f"{where}: achieved {a.card.name} (GB-17)",
         "card_id": a.card_id, "kind": LineKind.CARD, "result_id": result.pk}
        for a in achievements if a.card.cp_reward
    ]
    favour_rows = [
        {"coach_id": a.coach_id, "amount": a.card.favour_reward, "reason": f"{where}: achieved {a.card.name} (GB-17)",
         "card_id": a.card_id, "kind": LineKind.CARD, "result_id": result.pk}
        for a in achievements if a.card.favour_reward
    ]
    why = "result approved again with other cards"
    _replace(CampaignPointLine, existing=list(active_lines(CampaignPointLine).filter(result=result, kind=LineKind.CARD)), desired=cp_rows, why=why)
    _replace(FavourLine, existing=list(active_lines(FavourLine).filter(result=result, kind=LineKind.CARD)), desired=favour_rows, why=why)
    _reconcile_match_favours(season, from_round=fixture.round.number)
    for cc in coaches:
        sync_moments(cc)


def on_result_withdrawn(result: Result) -> None:
    """An approved result is about to be corrected or reopened: reverse exactly the
    lines it created (match Favours and achieved cards) and bring later rounds'
    GB-18 lines up to date without it. Moments stay recorded and show as no longer
    reached when the CP total has dropped below them."""
    fixture = Fixture.objects.select_related("round__season").get(pk=result.fixture_id)
    if fixture.is_bye or not Campaign.objects.filter(season=fixture.round.season).exists():
        return
    lock_fixture_sides(fixture)
    why = f"{fixture.round} result corrected or reopened"
    for model in (CampaignPointLine, FavourLine):
        reverse_lines(list(active_lines(model).filter(result=result, kind__in=[LineKind.MATCH, LineKind.CARD])), why)
    _reconcile_match_favours(fixture.round.season, from_round=fixture.round.number + 1, exclude_result_id=result.pk)


def _balances(season: Season) -> dict[int, tuple[str, int]]:
    """Every coach's Favour balance in the season's campaign, by campaign row."""
    rows = (
        CampaignCoach.objects.filter(campaign__season=season)
        .annotate(balance=Sum("favourline_set__amount"))
        .values_list("pk", "entry__coach__name", "balance")
    )
    return {pk: (name, balance or 0) for pk, name, balance in rows}


def correction_warnings(result: Result):
    """GB-20 Decision: a correction reverses exactly what the corrected result gave,
    even Favours already spent, so it can leave a coach owing Favours. Called before
    the correction; what it returns, called after it (same transaction), names each
    coach it leaves in debt or deeper in debt, with the amounts."""
    fixture = Fixture.objects.select_related("round__season").get(pk=result.fixture_id)
    season = fixture.round.season
    before = _balances(season) if not fixture.is_bye and Campaign.objects.filter(season=season).exists() else {}

    def after() -> list[str]:
        if not before:
            return []
        warnings = []
        for pk, (name, now) in sorted(_balances(season).items(), key=lambda item: item[1][0]):
            was = before.get(pk, (name, 0))[1]
            if now < 0 and now < was:
                warnings.append(
                    f"{name} has already spent Favours this correction takes back: their balance goes from {was} "
                    f"to {now}, a debt of {-now} Favour{'s' if now != -1 else ''} (GB-20)."
                )
        return warnings

    return after


@transaction.atomic
def adjust(*, coach: CampaignCoach, ledger: str, amount: int, reason: str, by, result: Result | None = None):
    """GB-1/GB-11: the Longshanks adds CP or Favours (or takes them away) with a
    reason. Favours taken away never leave a negative balance (GB-20). Bounded
    (STYLE habit 15): at most MAX_ADJUSTMENT either way, a CP total at most
    MAX_CP_TOTAL."""
    coach = lock_coach(coach)
    require_organiser(coach.campaign, by)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError("Give a reason: the coach sees it in their ledger.")
    if amount == 0:
        raise ValidationError("An adjustment of 0 changes nothing.")
    refusal = rules.check_adjustment(ledger=ledger, amount=amount, cp_total=cp_total(coach) if ledger == "cp" else 0)
    if refusal:
        raise ValidationError(refusal)
    if ledger == "cp":
        line = CampaignPointLine.objects.create(
            coach=coach, amount=amount, kind=LineKind.ADJUSTMENT, reason=reason, created_by=by, result=result
        )
        sync_moments(coach)
        return line
    if ledger != "favours":
        raise ValueError(ledger)
    balance = favour_balance(coach)
    if balance + amount < 0:
        raise ValidationError(
            f"{coach} has {balance} Favours; taking {-amount} would leave {balance + amount} (GB-20: never below zero)."
        )
    return FavourLine.objects.create(coach=coach, amount=amount, kind=LineKind.ADJUSTMENT, reason=reason, created_by=by)

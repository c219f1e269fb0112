"""The CP and Favour ledgers' writes: what an approved result gives (GB-17, GB-18),
what a corrected or reopened one takes back, and the Longshanks' adjustments
(GB-1, GB-11). Lines are append-only; a correction adds the line that reverses.

Approvals are incremental: a result changes the GB-18 lines of the
results it decides, and no others. A result of round n changes its two coaches'
LP before every later round, so the lines of their later matches (and those
matches' opponents' lines, which compare the same LP) are brought up to date; a
result's own card lines depend on its fixture alone. Whatever the season's state,
an approval reads a fixed number of rows sets and writes what differs in one bulk
insert per ledger. ``derive_season`` is the same computation for every approved
result at once, for an import (approve everything, then derive once)."""

from __future__ import annotations

import bisect
import itertools
from collections import defaultdict
from collections.abc import Iterable, Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q, Sum
from django.utils import timezone

from campaigns import rules
from campaigns.ledgers.balances import active_lines, cp_total, favour_balance
from campaigns.guards import LOCKED_SIDES, lock_coach, require_organiser
from campaigns.models import (
    Achievement,
    Campaign,
    CampaignCoach,
    CampaignPointLine,
    Deck,
    FavourLine,
    LineKind,
    OwnedCard,
    PlotCard,
)
from campaigns.moments.services import sync_moments, sync_moments_for
from campaigns.setup import ensure_campaign
from league import locks
from league.bulkinsert import insert_rows
from league.caching import writes as season_writes
from league.models import Fixture, Result, Season
from league.rules.base import ABANDONED, GameRules
from league.selectors import approved_results
from league.standings.season import RESULT_FIELDS, played_result

#: The base pool's kinds (GB-15): a card of these is always held.
BASE_KINDS = (PlotCard.Kind.CORE, PlotCard.Kind.COMMON)
#: What the GB-18 computation reads of each approved result.
MATCH_FIELDS = (
    *RESULT_FIELDS, "pk", "fixture__home__coach__name", "fixture__away__coach__name",
    "fixture__home__campaign_coach", "fixture__away__campaign_coach",
)


# Pure: what the lines should be -------------------------------------------------


def lp_before_rounds(approved: Iterable[dict], game: GameRules) -> dict[int, dict[int, int]]:
    """Each entry's League Points by round, from ``.values(*MATCH_FIELDS)`` rows."""
    by_round: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for row in approved:
        played = played_result(row)
        for side, entry_id in (("home", played.home_id), ("away", played.away_id)):
            by_round[entry_id][played.round_number] += game.league_points(played, side)
    return by_round


def match_favour_rows(
    approved: Sequence[dict], targets: Iterable[dict], cc_by_entry: dict[int, int], game: GameRules
) -> dict[int, list[dict]]:
    """GB-18: by result, the match Favour lines each of ``targets`` should have,
    comparing both coaches' LP from the results of all earlier rounds (GB-18
    Decision: by round number, whatever order they were approved in). ``approved``
    is every approved regular-season result of the season. Pure."""
    lp = lp_before_rounds(approved, game)
    # Each entry's running total by round, so "LP before round n" is one bisection.
    running: dict[int, tuple[list[int], list[int]]] = {}
    for entry_id, by_round in lp.items():
        numbers = sorted(by_round)
        totals = list(itertools.accumulate(by_round[n] for n in numbers))
        running[entry_id] = (numbers, totals)

    def before(entry_id: int, number: int) -> int:
        numbers, totals = running.get(entry_id, ((), ()))
        index = bisect.bisect_left(numbers, number)
        return totals[index - 1] if index else 0

    out: dict[int, list[dict]] = {}
    for r in targets:
        n = r["fixture__round__number"]
        desired = []
        for side, me, them, their_name in (
            ("home", r["fixture__home_id"], r["fixture__away_id"], r["fixture__away__coach__name"]),
            ("away", r["fixture__away_id"], r["fixture__home_id"], r["fixture__home__coach__name"]),
        ):
            for award in rules.favour_awards(
                won=r["outcome"] == side, my_lp=before(me, n), opponent_lp=before(them, n),
                opponent=their_name, abandoned=r["outcome"] == ABANDONED,
            ):
                desired.append(
                    {"coach_id": cc_by_entry[me], "amount": award.amount, "reason": f"Round {n}: {award.reason}",
                     "kind": LineKind.MATCH, "result_id": r["pk"]}
                )
        out[r["pk"]] = desired
    return out


def decided_by(approved: Sequence[dict], *, round_number: int, entry_ids: set[int], result_id: int | None) -> list[dict]:
    """The approved results whose GB-18 lines a change to one result can alter: the
    result itself (``result_id``, when approved) and every later-round result of
    either of its entries (their LP before those rounds moved)."""
    return [
        r for r in approved
        if r["pk"] == result_id
        or (r["fixture__round__number"] > round_number
            and (r["fixture__home_id"] in entry_ids or r["fixture__away_id"] in entry_ids))
    ]


def _key(line) -> tuple:
    if isinstance(line, dict):
        return (line["coach_id"], line["amount"], line["reason"], line.get("card_id"))
    return (line.coach_id, line.amount, line.reason, line.card_id)


def reversals(lines: Iterable, why: str) -> list[dict]:
    """The lines (as rows for ``insert_lines``) that reverse ``lines``; a spend's
    reversal is in the spend's phase, so it is no longer counted as spent (GB-19)."""
    out = []
    for e in lines:
        row = {"coach_id": e.coach_id, "amount": -e.amount, "kind": e.kind, "reason": f"{why}: {e.reason}"[:300],
               "result_id": e.result_id, "card_id": e.card_id, "reverses_id": e.pk}
        if isinstance(e, FavourLine):
            row.update(sponsorship_id=e.sponsorship_id, loan_id=e.loan_id, offer_id=e.offer_id, phase=e.phase)
        out.append(row)
    return out


def insert_lines(model, rows: list[dict]) -> None:
    """Append ``rows`` (values by field attname; the others empty, ``created_at``
    now) to a ledger at once (league/bulkinsert.py): an import derives thousands of
    lines, and they are plain values here."""
    if not rows:
        return
    fields = [f.attname for f in model._meta.concrete_fields if not f.primary_key]
    now = timezone.now()
    insert_rows(model, fields, [[now if name == "created_at" else row.get(name) for name in fields] for row in rows])


def reverse_lines(lines: Iterable, why: str) -> None:
    """Reverse ``lines`` (one insert per ledger)."""
    by_model = defaultdict(list)
    for line in lines:
        by_model[type(line)].append(line)
    for model, rows in by_model.items():
        insert_lines(model, reversals(rows, why))


def changes(*, existing: dict[int, list], desired: dict[int, list[dict]], why: str) -> list[dict]:
    """The lines to add so each result's active lines become what ``desired``
    says: nothing for a result whose lines already agree (so re-running is
    harmless), otherwise the reversal of its lines and the new ones."""
    out = []
    for result_id, rows in desired.items():
        have = existing.get(result_id, [])
        if sorted(map(_key, have)) == sorted(map(_key, rows)):
            continue
        out += reversals(have, why)
        out += rows
    return out


# Reading what the lines depend on ----------------------------------------------------


def scoring_achievements(fixture_ids: Iterable[int]) -> list[Achievement]:
    """GB-17, GB-23: the achieved cards that score in these fixtures, in one query:
    each achieved by one of the fixture's two coaches, in that coach's deck for the
    match as it stands, and held by that coach when the match was reported (a
    base-pool card always is; a Guild or Rare card must have been in their pool
    then). So one card never scores for two coaches in one match."""
    reported = OuterRef("fixture__result__reported_at")
    in_deck = Deck.cards.through.objects.filter(
        deck__fixture_id=OuterRef("fixture_id"), deck__coach_id=OuterRef("coach_id"), plotcard_id=OuterRef("card_id")
    )
    held = OwnedCard.objects.filter(
        coach_id=OuterRef("coach_id"), card_id=OuterRef("card_id"), acquired_at__lte=reported
    ).filter(Q(gone_at__isnull=True) | Q(gone_at__gt=reported))
    return list(
        Achievement.objects.filter(fixture_id__in=list(fixture_ids))
        .filter(Q(coach__entry_id=F("fixture__home_id")) | Q(coach__entry_id=F("fixture__away_id")))
        .filter(Exists(in_deck))
        .filter(Q(card__kind__in=BASE_KINDS) | Exists(held))
        .select_related("card")
        .order_by("fixture_id", "card__name", "coach_id")
    )


def card_rows(achievements: Iterable[Achievement], results: dict[int, tuple[int, int]]) -> tuple[dict, dict]:
    """GB-17: the CP and the Favour lines of scoring achievements, by result;
    ``results`` maps each fixture to (its result, its round number)."""
    cp: dict[int, list[dict]] = defaultdict(list)
    favours: dict[int, list[dict]] = defaultdict(list)
    for a in achievements:
        result_id, number = results[a.fixture_id]
        for amount, target in ((a.card.cp_reward, cp), (a.card.favour_reward, favours)):
            if amount:
                target[result_id].append(
                    {"coach_id": a.coach_id, "amount": amount, "reason": f"Round {number}: achieved {a.card.name}",
                     "card_id": a.card_id, "kind": LineKind.CARD, "result_id": result_id}
                )
    return cp, favours


def _by_result(lines: Iterable, kind: str) -> dict[int, list]:
    out: dict[int, list] = defaultdict(list)
    for line in lines:
        if line.kind == kind:
            out[line.result_id].append(line)
    return out


def _fixture_of(result: Result) -> Fixture:
    """The result's fixture with its round, season and league: the engine's services
    have them loaded already (no query), anyone else gets one query."""
    if isinstance(result, Result) and Result.fixture.is_cached(result):
        fixture = result.fixture
        if Fixture.round.is_cached(fixture) and type(fixture.round).season.is_cached(fixture.round):
            if type(fixture.round.season).league.is_cached(fixture.round.season):
                return fixture
    return Fixture.objects.select_related("round__season__league").get(pk=result.fixture_id)


def _lock_coaches(fixture: Fixture, *, again: bool = False) -> list[CampaignCoach]:
    """Both coaches' campaign rows, locked in one query in primary-key order, FOR NO
    KEY UPDATE: step 3 of the one lock order (league/locks.py), which the engine
    has already taken through ``guards.lock_fixture_sides``; a direct call (an
    import's derivation) takes it the same way. ``again`` reads them afresh (the
    rows were just created)."""
    held = None if again else fixture.__dict__.get(LOCKED_SIDES)
    if held is not None and len(held) == 2:
        return held
    return list(
        CampaignCoach.objects.select_for_update(of=("self",), no_key=True)
        .filter(entry_id__in=[fixture.home_id, fixture.away_id])
        .order_by("pk")
    )


def _approved(season: Season, *, without: int | None = None, round_number: int | None = None,
              entry_ids: Iterable[int] = ()) -> tuple[list[dict], dict[int, int]]:
    """The season's approved regular-season results (``.values(*MATCH_FIELDS)``) and
    each entry's campaign row, in one query; the rows are written first for a
    season made without them (an import, a late entry).

    With ``entry_ids`` (the two entries of a result of round ``round_number`` that
    changes): only what GB-18 reads for the matches that change can alter
    (``decided_by``): every result of those entries and of the opponents they meet
    in later rounds, whose LP before each of those rounds the lines compare. A few
    hundred rows at 400 coaches, not all 79,800 (0.7 s an approval)."""
    results = approved_results(season)
    if entry_ids:
        ids = list(entry_ids)
        theirs = Q(fixture__home_id__in=ids) | Q(fixture__away_id__in=ids)
        later = results.filter(theirs, fixture__round__number__gt=round_number)
        met = [later.values(f"fixture__{side}_id") for side in ("home", "away")]
        results = results.filter(
            theirs | Q(fixture__home_id__in=met[0]) | Q(fixture__home_id__in=met[1])
            | Q(fixture__away_id__in=met[0]) | Q(fixture__away_id__in=met[1])
        )
    for attempt in range(2):
        approved = [r for r in results.values(*MATCH_FIELDS) if r["pk"] != without]
        cc_by_entry = {}
        for r in approved:
            cc_by_entry[r["fixture__home_id"]] = r["fixture__home__campaign_coach"]
            cc_by_entry[r["fixture__away_id"]] = r["fixture__away__campaign_coach"]
        if None not in cc_by_entry.values() or attempt:
            return approved, cc_by_entry
        ensure_campaign(season)
    raise AssertionError("unreachable")


def _write(season: Season, *, cp: list[dict], favours: list[dict], bump: bool) -> None:
    """One insert per ledger. Raw inserts send no signals: ``bump`` gives the season
    a new version (league/caching/writes.py). The hooks need not: the engine saves the
    result in the same transaction, which bumps it."""
    insert_lines(CampaignPointLine, cp)
    insert_lines(FavourLine, favours)
    if bump and (cp or favours):
        season_writes.changed(season)


CLEARED = "_campaign_lines_reversed"  # set on a withdrawn result for the approval that follows
RECOMPUTED = "recomputed after an earlier round changed"
OTHER_CARDS = "result approved again with other cards"


# The layer's hooks -------------------------------------------------------------------
# Each is told who acted (``by``); the lines a result derives are its consequences,
# the same whoever approved it, and carry no author (an organiser's adjustment does).


def on_result_approved(result: Result, *, by) -> None:
    """A result became approved (called inside the engine's transaction): CP and
    Favours of the cards achieved (GB-17, from the catalogue), the match Favours of
    this result and of the later matches it decides (GB-18), then any Moments now
    reached (GB-13). A fixed number of queries, whatever the season's state."""
    fixture = _fixture_of(result)
    if fixture.is_bye:
        return
    season = fixture.round.season
    # A correction withdrew the result a moment ago in this transaction: its coaches
    # are locked and its own lines reversed already.
    cleared = result.__dict__.pop(CLEARED, None)
    coaches = cleared if cleared is not None else _lock_coaches(fixture)
    if len(coaches) < 2:  # a season made without its campaign rows (an import, a late entry)
        ensure_campaign(season)
        coaches = _lock_coaches(fixture, again=True)
    n = fixture.round.number
    targets: list[dict] = []
    approved: list[dict] = []
    cc_by_entry: dict[int, int] = {}
    if fixture.stage == Fixture.Stage.REGULAR:
        # The later matches' lines are other coaches' too: the season row guards
        # them (league/locks.py, step 4). Saving the approved result has just
        # bumped its version, so this transaction holds it already.
        sides = {fixture.home_id, fixture.away_id}
        approved, cc_by_entry = _approved(season, round_number=n, entry_ids=sides)
        targets = decided_by(approved, round_number=n, entry_ids=sides, result_id=result.pk)
    match = match_favour_rows(approved, targets, cc_by_entry, season.league.rules)
    cp_cards, favour_cards = card_rows(scoring_achievements([fixture.pk]), {fixture.pk: (result.pk, n)})
    favour_lines = list(
        active_lines(FavourLine).filter(
            Q(kind=LineKind.MATCH, result_id__in=list(match)) | Q(kind=LineKind.CARD, result_id=result.pk)
        )
    )
    cp_lines = [] if cleared else list(active_lines(CampaignPointLine).filter(kind=LineKind.CARD, result_id=result.pk))
    favours = changes(existing=_by_result(favour_lines, LineKind.MATCH), desired=match, why=RECOMPUTED)
    favours += changes(existing=_by_result(favour_lines, LineKind.CARD),
                       desired={result.pk: favour_cards.get(result.pk, [])}, why=OTHER_CARDS)
    cp = changes(existing=_by_result(cp_lines, LineKind.CARD),
                 desired={result.pk: cp_cards.get(result.pk, [])}, why=OTHER_CARDS)
    _write(season, cp=cp, favours=favours, bump=False)
    sync_moments_for(coaches)


def on_result_withdrawn(result: Result, *, by) -> None:
    """An approved result is about to be corrected or reopened: reverse exactly the
    lines it created (match Favours and achieved cards) and bring the GB-18 lines of
    the later matches it decided up to date without it. Moments stay recorded and
    show as no longer reached when the CP total has dropped below them."""
    fixture = _fixture_of(result)
    if fixture.is_bye:
        return
    season = fixture.round.season
    coaches = _lock_coaches(fixture)
    if not coaches and not Campaign.objects.filter(season=season).exists():
        return
    targets: list[dict] = []
    approved: list[dict] = []
    cc_by_entry: dict[int, int] = {}
    if fixture.stage == Fixture.Stage.REGULAR:
        # The later matches' lines are other coaches' too: take the season row
        # that guards them before reading them (league/locks.py, step 4).
        locks.season(season.pk)
        sides = {fixture.home_id, fixture.away_id}
        approved, cc_by_entry = _approved(season, without=result.pk, round_number=fixture.round.number,
                                          entry_ids=sides)
        targets = decided_by(approved, round_number=fixture.round.number, entry_ids=sides, result_id=None)
    match = match_favour_rows(approved, targets, cc_by_entry, season.league.rules)
    own = Q(result_id=result.pk, kind__in=[LineKind.MATCH, LineKind.CARD])
    favour_lines = list(active_lines(FavourLine).filter(own | Q(kind=LineKind.MATCH, result_id__in=list(match))))
    why = f"{fixture.round} result corrected or reopened"
    favours = reversals([line for line in favour_lines if line.result_id == result.pk], why)
    favours += changes(existing=_by_result(favour_lines, LineKind.MATCH), desired=match, why=RECOMPUTED)
    cp = reversals(active_lines(CampaignPointLine).filter(own), why)
    _write(season, cp=cp, favours=favours, bump=False)
    if len(coaches) == 2:
        result.__dict__[CLEARED] = coaches


def derive_season(season: Season, *, by) -> None:
    """Every approved result's lines at once (GB-17, GB-18) and the Moments they
    reach (GB-13): the bulk path of an import, which approves every result first and
    then derives once. The lines are the ones approving the results one by one
    gives, in a fixed number of queries whatever the number of results."""
    campaign = ensure_campaign(season)
    approved = list(approved_results(season).values(*MATCH_FIELDS))
    coaches = list(CampaignCoach.objects.filter(campaign=campaign).order_by("pk"))
    cc_by_entry = {cc.entry_id: cc.pk for cc in coaches}
    match = match_favour_rows(approved, approved, cc_by_entry, season.league.rules)
    results = {
        fixture_id: (pk, number)
        for pk, fixture_id, number in Result.objects.filter(
            fixture__round__season=season, status=Result.Status.APPROVED, fixture__away__isnull=False
        ).values_list("pk", "fixture_id", "fixture__round__number")
    }
    cp_cards, favour_cards = card_rows(scoring_achievements(results), results)
    every = [pk for pk, _ in results.values()]
    mine = Q(coach__campaign=campaign, kind__in=[LineKind.MATCH, LineKind.CARD], result__isnull=False)
    favour_lines = list(active_lines(FavourLine).filter(mine))
    cp_lines = list(active_lines(CampaignPointLine).filter(mine))
    favours = changes(existing=_by_result(favour_lines, LineKind.MATCH), desired=match, why=RECOMPUTED)
    favours += changes(existing=_by_result(favour_lines, LineKind.CARD),
                       desired={pk: favour_cards.get(pk, []) for pk in every}, why=OTHER_CARDS)
    cp = changes(existing=_by_result(cp_lines, LineKind.CARD),
                 desired={pk: cp_cards.get(pk, []) for pk in every}, why=OTHER_CARDS)
    _write(season, cp=cp, favours=favours, bump=True)
    sync_moments_for(coaches)


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
    fixture = _fixture_of(result)
    season = fixture.round.season
    before = _balances(season) if not fixture.is_bye else {}  # empty: no campaign

    def after() -> list[str]:
        if not before:
            return []
        warnings = []
        for pk, (name, now) in sorted(_balances(season).items(), key=lambda item: item[1][0]):
            was = before.get(pk, (name, 0))[1]
            if now < 0 and now < was:
                warnings.append(
                    f"{name} has already spent Favours this correction takes back: their balance goes from {was} "
                    f"to {now}, a debt of {-now} Favour{'s' if now != -1 else ''}."
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
            f"{coach} has {balance} Favours; taking {-amount} would leave {balance + amount} (never below zero)."
        )
    return FavourLine.objects.create(coach=coach, amount=amount, kind=LineKind.ADJUSTMENT, reason=reason, created_by=by)

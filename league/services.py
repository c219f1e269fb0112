"""Every write to the league engine. Each service is one transaction and locks the
row it changes, so a double click or two coaches at once cannot record twice.

Refusals raise ``django.core.exceptions.ValidationError`` (a message for the form)
or ``PermissionDenied`` (the caller has no business doing this).
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from league import layers, notifications, versions
from league.models import Coach, Division, Entry, Fixture, League, Result, ResultEvent, Round, Season
from league.rules.base import GameRules, Verdict
from league.scheduling import MIN_PER_DIVISION, division_sizes, draw_divisions, merge_rounds, round_dates, round_robin

class NeedsAcknowledgement(ValidationError):
    """A correction a layer warns about (GB-20: it leaves a coach owing Favours):
    nothing is written until the organiser acknowledges the warnings."""

    def __init__(self, warnings: list[str]):
        super().__init__([*warnings, "Nothing was changed: tick the box to go ahead with this correction anyway."])
        self.warnings = warnings


# Fixtures -------------------------------------------------------------------


@transaction.atomic
def generate_fixtures(*, season: Season, by=None, seed: int | None = None) -> list[Round]:
    """GB-4/GB-5: the whole fixture list of a season, published at the start.

    Round robin by the circle method (double when the season says so), shuffled by
    a seed stored on the season so the schedule can be reproduced. ``by`` is the
    organiser asking; None only for the system's own jobs (demo data, tests).
    """
    season = Season.objects.select_for_update().select_related("league").get(pk=season.pk)
    if by is not None:
        _require_organiser(season.league, by)
    if season.rounds.exists():
        raise ValidationError(f"{season} already has its fixtures.")
    entries = list(season.entries.order_by("pk"))
    if len(entries) < 2:
        raise ValidationError("A season needs at least two coaches before fixtures can be generated (GB-2).")
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    schedule = merge_rounds(
        [round_robin(group, double=season.double_round_robin, seed=seed) for group in _division_groups(entries)]
    )
    dates = round_dates(season.start_date, len(schedule), season.cadence_days)
    rounds = Round.objects.bulk_create(
        Round(season=season, number=number, date=date) for number, date in enumerate(dates, start=1)
    )
    Fixture.objects.bulk_create(
        Fixture(round=rnd, home=home, away=away, date=rnd.date)
        for rnd, pairs in zip(rounds, schedule)
        for home, away in pairs
    )
    season.schedule_seed = seed
    season.save(update_fields=["schedule_seed"])  # also a new version for the bulk-created fixtures
    layers.season_started(season)
    return rounds


def _division_groups(entries: list[Entry]) -> list[list[Entry]]:
    """The entries that play each other: the whole season, or each division (DB-2,
    DB-5a: teams play every other team of their division)."""
    if not any(entry.division_id for entry in entries):
        return [entries]
    groups: dict[int | None, list[Entry]] = {}
    for entry in entries:
        groups.setdefault(entry.division_id, []).append(entry)
    if None in groups:
        names = ", ".join(str(entry.coach) for entry in groups[None])
        raise ValidationError(f"Put every entry in a division before generating fixtures; not yet placed: {names}.")
    small = [group for group in groups.values() if len(group) < 2]
    if small:
        raise ValidationError("Every division needs at least two entries to play a round robin.")
    return [groups[key] for key in sorted(groups)]


@transaction.atomic
def draw_season_divisions(*, season: Season, by, count: int, seed: int | None = None) -> list[Division]:
    """DB-2: split a season's entries into ``count`` divisions (2 to 4, as equal as
    possible, at least 4 each) by a seeded random draw, before fixtures exist."""
    season = _lock_season_without_fixtures(season, by)
    entries = list(season.entries.order_by("pk"))
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    try:
        groups = draw_divisions(entries, count, seed=seed)
    except ValueError as error:
        raise ValidationError(str(error)) from error
    return _place_in_divisions(season, {f"Division {chr(ord('A') + i)}": group for i, group in enumerate(groups)})


@transaction.atomic
def set_season_divisions(*, season: Season, by, divisions: dict[str, list[Entry]]) -> list[Division]:
    """DB-2: the organiser's own split (division name -> its entries), checked
    against the same rules as a draw: 2 to 4 divisions, at least 4 entries each,
    every entry in exactly one."""
    season = _lock_season_without_fixtures(season, by)
    entries = {entry.pk for entry in season.entries.all()}
    placed = [entry.pk for group in divisions.values() for entry in group]
    if sorted(placed) != sorted(entries):
        raise ValidationError("Every entry of the season must be in exactly one division.")
    try:
        division_sizes(len(entries), len(divisions))
    except ValueError as error:
        raise ValidationError(str(error)) from error
    small = [name for name, group in divisions.items() if len(group) < MIN_PER_DIVISION]
    if small:
        raise ValidationError(f"A division needs at least {MIN_PER_DIVISION} entries (DB-2): {', '.join(small)}.")
    return _place_in_divisions(season, divisions)


def _lock_season_without_fixtures(season: Season, by) -> Season:
    season = Season.objects.select_for_update().select_related("league").get(pk=season.pk)
    if by is not None:
        _require_organiser(season.league, by)
    if season.rounds.exists():
        raise ValidationError("Divisions are set before the fixtures are generated.")
    return season


def _place_in_divisions(season: Season, groups: dict[str, list[Entry]]) -> list[Division]:
    Entry.objects.filter(season=season).update(division=None)
    season.divisions.all().delete()
    divisions = Division.objects.bulk_create(Division(season=season, name=name.strip()) for name in groups)
    for division, group in zip(divisions, groups.values()):
        Entry.objects.filter(pk__in=[entry.pk for entry in group]).update(division=division)
    versions.bump(Q(pk=season.pk))  # bulk writes send no signals
    return divisions


@transaction.atomic
def add_friendly(*, season: Season, by, home: Entry, away: Entry, date: datetime.date) -> Fixture:
    """A friendly (cross-division ones too): played and reported like any match, it
    counts for nothing in the standings (DB-5a). It sits in the round whose week it
    falls in."""
    season = Season.objects.select_related("league").get(pk=season.pk)
    _require_organiser(season.league, by)
    if home.season_id != season.pk or away.season_id != season.pk:
        raise ValidationError("Both sides of a friendly must be entries of this season.")
    if home.pk == away.pk:
        raise ValidationError("A friendly needs two different sides.")
    rnd = season.rounds.filter(date__lte=date).order_by("-number").first() or season.rounds.order_by("number").first()
    if rnd is None:
        raise ValidationError("Generate the season's fixtures first; a friendly joins the round of its week.")
    return Fixture.objects.create(round=rnd, home=home, away=away, date=date, stage=Fixture.Stage.FRIENDLY)


@transaction.atomic
def rearrange_fixture(*, fixture: Fixture, by, new_date: datetime.date, reason: str) -> Fixture:
    """GB-5: move an unplayed fixture to a new date; every coach of the season with
    an email address is told. The fixture keeps its round."""
    fixture = _lock_fixture(fixture)
    _require_organiser(fixture.round.season.league, by)
    if fixture.is_bye:
        raise ValidationError("A bye has no match to rearrange.")
    result = fixture.result_or_none
    if result is not None and result.is_approved:
        raise ValidationError("This fixture already has an approved result; correct the result instead.")
    reason = reason.strip()
    if not reason:
        raise ValidationError("Give a reason for the rearrangement; every coach is told it.")
    old_date = fixture.date
    fixture.date = new_date
    fixture.rearranged_reason = reason
    fixture.save(update_fields=["date", "rearranged_reason"])
    ResultEvent.objects.create(
        fixture=fixture, action=ResultEvent.Action.REARRANGED, by=by, note=f"{old_date:%d %b %Y} → {new_date:%d %b %Y}: {reason}"
    )
    notifications.fixture_rearranged(fixture, old_date)
    return fixture


# Results --------------------------------------------------------------------


@transaction.atomic
def report_result(*, fixture: Fixture, by, **facts) -> Result:
    """A coach in the fixture reports it with the facts the game's form asks for
    (GB-8, DB-9, DR-3); the opponent then confirms it."""
    fixture = _lock_fixture(fixture)
    side = _coach_side(fixture, by)
    if side is None:
        raise PermissionDenied("Only the two coaches of a fixture can report it.")
    _check_has_match(fixture)
    if fixture.result_or_none is not None:
        raise ValidationError("This fixture has already been reported.")
    rules = fixture.round.season.league.rules
    verdict = rules.validate(facts)
    result = Result(fixture=fixture, reported_side=side)
    _store(result, verdict, rules)
    _event(result, ResultEvent.Action.REPORTED, by)
    notifications.result_reported(result)
    return result


def _store(result: Result, verdict: Verdict, rules: GameRules) -> None:
    """Save the engine's part of a verdict, then the game's own details."""
    result.home_score = verdict.home_score
    result.away_score = verdict.away_score
    result.outcome = verdict.outcome
    result.conceded = verdict.conceded
    result.summary = rules.summary(verdict)
    result.save()
    rules.save_details(result, verdict)


@transaction.atomic
def confirm_result(*, result: Result, by) -> Result:
    """The opponent of the reporting coach agrees with the report (GB-8)."""
    result = _lock_result(result)
    _require_confirming_coach(result, by)
    if result.status != Result.Status.REPORTED:
        raise ValidationError(f"This result is {result.get_status_display().lower()}; it cannot be confirmed now.")
    result.status = Result.Status.CONFIRMED
    result.save(update_fields=["status"])
    _event(result, ResultEvent.Action.CONFIRMED, by)
    return result


@transaction.atomic
def dispute_result(*, result: Result, by, reason: str, proposed: dict | None = None) -> Result:
    """The opponent disagrees; the organiser then settles it. ``proposed``: the
    result they say is right, in the game's report form's terms, checked by the
    game's rules; the organiser may accept it instead (league/disputes.py)."""
    result = _lock_result(result)
    _require_confirming_coach(result, by)
    if result.status != Result.Status.REPORTED:
        raise ValidationError(f"This result is {result.get_status_display().lower()}; it cannot be disputed now.")
    reason = reason.strip()
    if not reason:
        raise ValidationError("Say what is wrong with the report, so the organiser can settle it.")
    rules = result.fixture.round.season.league.rules
    result.proposed_summary = rules.summary(rules.validate(proposed)) if proposed else ""
    result.proposed_facts = proposed or None
    result.status = Result.Status.DISPUTED
    result.dispute_reason = reason
    result.save(update_fields=["status", "dispute_reason", "proposed_facts", "proposed_summary"])
    _event(result, ResultEvent.Action.DISPUTED, by, note=reason)
    notifications.result_disputed(result)
    return result


@transaction.atomic
def approve_result(*, result: Result, by, reason: str = "") -> Result:
    """The organiser approves a reported result; only approved results count.

    GB-8 Decision (every game): a result both coaches agreed on (confirmed) needs
    nothing more; approving one the opponent has not confirmed, or has disputed,
    is an override that needs a reason, kept in the fixture's history."""
    result = _lock_result(result)
    _require_organiser(result.fixture.round.season.league, by)
    if result.is_approved:
        raise ValidationError("This result is already approved.")
    note = _approval_note(result, reason)
    result.status = Result.Status.APPROVED
    result.approved_at = timezone.now()
    result.save(update_fields=["status", "approved_at"])
    _event(result, ResultEvent.Action.APPROVED, by, note=note[:500])
    _after_approval(result)
    notifications.result_approved(result)
    return result


def _approval_note(result: Result, reason: str) -> str:
    """GB-8 Decision: what the history keeps of an approval; raises when the
    opponent has not confirmed and no reason is given."""
    reason = (reason or "").strip()
    # A result the organiser entered (then reopened) has no opponent to confirm it.
    if result.status != Result.Status.CONFIRMED and result.confirming_side is not None:
        if not reason:
            raise ValidationError(
                f"The opponent has not confirmed this result ({result.get_status_display().lower()}): approving "
                f"it anyway is an override; give the reason (GB-8)."
            )
        return f"approved without the opponent's confirmation ({result.get_status_display().lower()}): {reason}"
    return reason


@dataclass(frozen=True)
class BulkResult:
    """One line of an import for ``record_results_in_bulk``: a new result entered
    by the organiser (``verdict``, as ``record_result`` would store it), or the
    coaches' stored report the file agrees with (``stored``, approved as
    ``approve_result`` would)."""

    fixture: Fixture
    reason: str
    verdict: Verdict | None = None
    abandoned: bool = False
    stored: Result | None = None


@transaction.atomic
def record_results_in_bulk(*, season: Season, items: list[BulkResult], by) -> list[Result]:
    """The import's bulk path (issue 13): approve every result at once, then derive
    once. The rows are those ``record_result`` (new results) and ``approve_result``
    (stored reports) give one by one: the results, their history lines and the
    game's details; then the game derives for each result in order (Dungeon Bowl's
    post-game sequence) and each layer once for the season (a Big League's ledgers),
    and the season gets one new version. Verdicts are checked by the caller
    (``rules.validate``); fixtures must be matches of ``season`` without an approved
    result."""
    season = Season.objects.select_for_update().select_related("league").get(pk=season.pk)
    _require_organiser(season.league, by)
    rules = season.league.rules
    now = timezone.now()
    stored = {
        r.pk: r for r in Result.objects.select_for_update(of=("self",)).filter(
            pk__in=[item.stored.pk for item in items if item.stored is not None]
        )
    }
    results, events, new, approved = [], [], [], []
    for item in items:
        if item.stored is not None:
            result = stored[item.stored.pk]
            result.fixture = item.fixture
            if result.is_approved:
                raise ValidationError("This result is already approved.")
            note = _approval_note(result, item.reason)
            result.status, result.approved_at = Result.Status.APPROVED, now
            approved.append(result.pk)
            action = ResultEvent.Action.APPROVED
        else:
            _check_has_match(item.fixture)
            verdict = item.verdict
            result = Result(
                fixture=item.fixture, status=Result.Status.APPROVED, approved_at=now, home_score=verdict.home_score,
                away_score=verdict.away_score, outcome=verdict.outcome, conceded=verdict.conceded,
                summary=rules.summary(verdict),
            )
            new.append((result, verdict))
            note = item.reason
            action = ResultEvent.Action.ABANDONED if item.abandoned else ResultEvent.Action.ENTERED
        results.append(result)
        events.append((result, action, note))
    Result.objects.bulk_create([result for result, _ in new])
    for result, verdict in new:
        rules.save_details(result, verdict)  # the game's own facts (nothing for Guild Ball)
    if approved:
        Result.objects.filter(pk__in=approved).update(status=Result.Status.APPROVED, approved_at=now)
    who = by if by is not None and by.is_authenticated else None
    ResultEvent.objects.bulk_create(
        ResultEvent(fixture=result.fixture, action=action, by=who, home_score=result.home_score,
                    away_score=result.away_score, summary=result.summary, note=note[:500])
        for result, action, note in events
    )
    for result in results:
        result.fixture.round.season = season  # one Season and League instance for the hooks
    rules.results_approved(results)
    layers.results_imported(season, results)
    versions.bump(Q(pk=season.pk))  # bulk writes send no signals
    return results


@transaction.atomic
def record_result(
    *,
    fixture: Fixture,
    by,
    reason: str,
    abandoned: bool = False,
    override: bool = False,
    acknowledged: bool = False,
    **facts,
) -> Result:
    """The organiser enters, corrects or abandons a result directly; it is approved at
    once. GB-6/DB-5a: an abandoned or unplayed match is a loss for both. GB-8:
    ``override`` accepts a score the rules reject, with the reason recorded.
    GB-20: a correction a layer warns about (a coach left owing Favours) raises
    ``NeedsAcknowledgement`` and writes nothing unless ``acknowledged``."""
    fixture = _lock_fixture(fixture)
    league = fixture.round.season.league
    _require_organiser(league, by)
    _check_has_match(fixture)
    reason = reason.strip()
    if not reason:
        raise ValidationError("Give a reason: it is kept in the fixture's history.")
    rules = league.rules
    override = override and rules.allows_override and not abandoned
    verdict = rules.validate(facts, override=override, abandoned=abandoned)
    result = fixture.result_or_none
    was_approved = result is not None and result.is_approved
    warnings = layers.correction_check(result) if was_approved else list
    if was_approved:
        _before_withdrawal(result)
    if result is None:
        result = Result(fixture=fixture)
        action = ResultEvent.Action.ABANDONED if abandoned else ResultEvent.Action.ENTERED
    else:
        action = ResultEvent.Action.ABANDONED if abandoned else ResultEvent.Action.CORRECTED
    result.status = Result.Status.APPROVED
    result.approved_at = timezone.now()
    result.override_reason = reason if override else ""
    _store(result, verdict, rules)
    _event(result, action, by, note=reason)
    _after_approval(result)
    notifications.result_approved(result, corrected=action == ResultEvent.Action.CORRECTED)
    if not acknowledged and (found := warnings()):
        raise NeedsAcknowledgement(found)  # rolls the whole correction back
    return result


@transaction.atomic
def reopen_result(*, result: Result, by, reason: str) -> Result:
    """The organiser takes an approved result back to the coaches: it stops counting
    until it is approved again."""
    result = _lock_result(result)
    _require_organiser(result.fixture.round.season.league, by)
    if not result.is_approved:
        raise ValidationError("Only an approved result can be reopened.")
    reason = reason.strip()
    if not reason:
        raise ValidationError("Give a reason: it is kept in the fixture's history.")
    _before_withdrawal(result)
    result.status = Result.Status.REPORTED
    result.approved_at = None
    result.save(update_fields=["status", "approved_at"])
    _event(result, ResultEvent.Action.REOPENED, by, note=reason)
    return result


# Hooks for the game layer ----------------------------------------------------


def _after_approval(result: Result) -> None:
    """Let the game (Dungeon Bowl's post-game sequence) and then its layers (a Big
    League campaign) derive what follows from a newly approved result, inside the
    same transaction."""
    result.fixture.round.season.league.rules.result_approved(result)
    layers.result_approved(result)


def _before_withdrawal(result: Result) -> None:
    """Let the layers, then the game, reverse what an approved result gave before it
    changes (the reverse order of ``_after_approval``)."""
    layers.result_withdrawn(result)
    result.fixture.round.season.league.rules.result_withdrawn(result)


# Helpers --------------------------------------------------------------------


def _lock_fixture(fixture: Fixture) -> Fixture:
    return (
        Fixture.objects.select_for_update(of=("self",))
        .select_related("round__season__league", "home__coach", "away__coach")
        .get(pk=fixture.pk)
    )


def _lock_result(result: Result) -> Result:
    return (
        Result.objects.select_for_update(of=("self",))
        .select_related("fixture__round__season__league", "fixture__home__coach", "fixture__away__coach")
        .get(pk=result.pk)
    )


def _coach_of(user) -> Coach | None:
    if user is None or not user.is_authenticated:
        return None
    return Coach.objects.filter(user=user).first()


def _coach_side(fixture: Fixture, user) -> str | None:
    return fixture.side_of(_coach_of(user))


def _require_confirming_coach(result: Result, user) -> None:
    side = _coach_side(result.fixture, user)
    if side is None:
        raise PermissionDenied("Only the two coaches of a fixture can confirm or dispute it.")
    if side == result.reported_side:
        raise ValidationError("You reported this result; your opponent confirms it.")
    if result.confirming_side is None:
        raise ValidationError("The organiser entered this result; there is nothing to confirm.")


def _require_organiser(league: League, user) -> None:
    if not league.is_organised_by(user):
        raise PermissionDenied("Only the league's organiser can do this.")


def _check_has_match(fixture: Fixture) -> None:
    if fixture.is_bye:
        raise ValidationError(f"{fixture.home} has a bye in {fixture.round}: there is no match to report.")


def _event(result: Result, action: str, by, note: str = "") -> ResultEvent:
    return ResultEvent.objects.create(
        fixture=result.fixture,
        action=action,
        by=by if by is not None and by.is_authenticated else None,
        home_score=result.home_score,
        away_score=result.away_score,
        summary=result.summary,
        note=note,
    )

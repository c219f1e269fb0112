"""An import's results written at once (league/spreadsheets/writer.py): the rows that
``record_result`` (a new result) and ``approve_result`` (the coaches' stored
report) write one by one, in one transaction, then each game and layer derives
once for the season and the season gets one new version. The import's fact (one
a season: league/imports/writer.py) is what the ratings and the events follow."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from league import layers
from league.permissions import require_organiser
from league.caching import writes as season_writes
from league.models import Fixture, Result, ResultEvent, Season
from league.rules.base import Verdict
from league.services.fixtures import check_has_match
from league.services.results import approval_note


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
    """The import's bulk path: approve every result at once, then derive
    once. The rows are those ``record_result`` (new results) and ``approve_result``
    (stored reports) give one by one: the results, their history lines and the
    game's details; then the game derives for each result in order (Dungeon Bowl's
    post-game sequence) and each layer once for the season (a Big League's ledgers),
    and the season gets one new version. Verdicts are checked by the caller
    (``rules.validate``); fixtures must be matches of ``season`` without an approved
    result."""
    season = Season.objects.select_for_update().select_related("league").get(pk=season.pk)
    require_organiser(season.league, by)
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
            note = approval_note(result, item.reason)
            result.status, result.approved_at = Result.Status.APPROVED, now
            approved.append(result.pk)
            action = ResultEvent.Action.APPROVED
        else:
            check_has_match(item.fixture)
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
    rules.results_approved(results, by=who)
    layers.results_imported(season, results, by=who)
    season_writes.changed(season)  # bulk writes send no signals
    return results

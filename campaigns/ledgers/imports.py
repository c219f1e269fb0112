"""CP from the spreadsheet import's optional ``home_cp,away_cp`` columns (GB-11),
registered with the engine's importer as the Big League's import columns."""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Sum

from campaigns import rules
from campaigns.ledgers.balances import active_lines
from campaigns.guards import require_organiser
from campaigns.ledgers.services import adjust, insert_lines
from campaigns.models import CampaignCoach, CampaignPointLine, LineKind
from campaigns.moments.services import sync_moments_for
from campaigns.setup import ensure_campaign
from league import locks
from league.caching import writes as season_writes
from league.spreadsheets.files import BadRow
from league.layers import ImportedLine
from league.models import Result, Season
from league.rules.importing import parse_whole_number


@transaction.atomic
def record_match_cp(*, result: Result, home_cp: int | None, away_cp: int | None, by, source: str) -> int:
    """The CP each coach gained in an imported match (columns ``home_cp,away_cp``),
    as organiser lines linked to the result; returns how many lines were added.

    Importing the same file again adds nothing; a different figure for a match that
    already has imported CP is refused, like a different score. The match Favours
    are not here: the import approves results through ``league.services.results``, so GB-18
    applies exactly as for a result entered on the site.
    """
    fixture, _ = locks.fixture(result.fixture_id)  # the one lock order: both coaches in pk order first
    ensure_campaign(fixture.round.season)
    added = 0
    for entry_id, cp in ((fixture.home_id, home_cp), (fixture.away_id, away_cp)):
        if not cp:
            continue
        _check_not_negative(cp)
        coach = CampaignCoach.objects.select_related("campaign__season__league", "entry__coach").get(entry_id=entry_id)
        already = (
            active_lines(CampaignPointLine)
            .filter(coach=coach, result=result, kind=LineKind.ADJUSTMENT)
            .aggregate(total=Sum("amount"))["total"]
        )
        if already == cp:
            continue
        _check_not_imported(already, coach=coach, fixture=fixture, cp=cp)
        adjust(coach=coach, ledger="cp", amount=cp, by=by, result=result, reason=_reason(fixture, source))
        added += 1
    return added


def _check_not_negative(cp: int) -> None:
    if cp < 0:
        raise ValidationError(f"CP gained in a match cannot be negative ({cp}) (CP are never spent).")


def _check_not_imported(already: int | None, *, coach: CampaignCoach, fixture, cp: int) -> None:
    """A match's CP are imported once: a different figure later is refused, like a
    different score."""
    if already:
        raise ValidationError(
            f"{coach} already has {already} CP imported for {fixture}; the file says {cp}. Correct it on the site instead."
        )


def _reason(fixture, source: str) -> str:
    return f"{fixture.round}: CP gained in the match ({source})"


def record_cp_in_bulk(*, season: Season, lines: Sequence[ImportedLine], by) -> int:
    """``record_match_cp`` for every line of a season's import at once:
    the campaign derived once, the coaches' rows locked in one query, the CP
    already imported and the CP totals read in one query each, every new line in
    one insert and the Moments synced once (GB-11, GB-13). The lines, and the
    refusals, are those of ``record_match_cp`` applied in file order
    (tests/spreadsheets/test_bulk_import.py compares them); a refusal names its file line
    (``BadRow``). Returns how many ledger lines were added."""
    campaign = ensure_campaign(season)
    require_organiser(campaign, by)
    coaches = {
        cc.entry_id: cc for cc in
        CampaignCoach.objects.filter(campaign=campaign).select_for_update(of=("self",), no_key=True)
        .select_related("entry__coach").order_by("pk")  # league/locks.py step 3, lowest first
    }
    wanted = [
        (line, entry_id, cp) for line in lines
        for entry_id, cp in zip((line.result.fixture.home_id, line.result.fixture.away_id), line.parsed) if cp
    ]
    imported: dict[tuple[int, int], int] = {
        (coach_id, result_id): total for coach_id, result_id, total in
        active_lines(CampaignPointLine).filter(result__in={line.result.pk for line, _, _ in wanted},
                                               kind=LineKind.ADJUSTMENT)
        .order_by().values("coach_id", "result_id").annotate(total=Sum("amount"))
        .values_list("coach_id", "result_id", "total")
    }
    totals: dict[int, int] = dict(
        CampaignPointLine.objects.filter(coach__campaign=campaign).order_by().values("coach_id")
        .annotate(total=Sum("amount")).values_list("coach_id", "total")
    )
    rows = []
    for line, entry_id, cp in wanted:
        coach, fixture = coaches[entry_id], line.result.fixture
        key = (coach.pk, line.result.pk)
        try:
            _check_not_negative(cp)
            if imported.get(key) == cp:
                continue
            _check_not_imported(imported.get(key), coach=coach, fixture=fixture, cp=cp)
            refusal = rules.check_adjustment(ledger="cp", amount=cp, cp_total=totals.get(coach.pk) or 0)  # as adjust
            if refusal:
                raise ValidationError(refusal)
        except ValidationError as error:
            raise BadRow(line.line, " ".join(error.messages)) from None
        imported[key] = cp
        totals[coach.pk] = (totals.get(coach.pk) or 0) + cp
        rows.append({"coach_id": coach.pk, "amount": cp, "kind": LineKind.ADJUSTMENT, "created_by_id": by.pk,
                     "result_id": line.result.pk, "reason": _reason(fixture, line.source)})
    insert_lines(CampaignPointLine, rows)
    touched = {row["coach_id"] for row in rows}
    sync_moments_for([coach for coach in coaches.values() if coach.pk in touched])
    if rows:
        season_writes.changed(season)  # a raw insert sends no signal
    return len(rows)


# The engine's import columns (league.layers.ImportColumns) ---------------------------

COLUMNS = ("home_cp", "away_cp")


def parse_cp(values) -> tuple[int | None, int | None] | None:
    """A line's CP gained by each side (GB-11), or None when both are empty. Pure:
    raises ValueError with the reason (``league.spreadsheets.files`` adds the line number)."""
    home, away = (parse_whole_number(values, column) for column in COLUMNS)
    if home is None and away is None:
        return None
    if values.get("status", "").lower() == "scheduled":
        raise ValueError("a scheduled fixture has gained no CP yet; leave home_cp and away_cp empty")
    return home, away


def apply_cp(parsed: tuple[int | None, int | None], *, result: Result, by, source: str) -> None:
    home_cp, away_cp = parsed
    record_match_cp(result=result, home_cp=home_cp, away_cp=away_cp, by=by, source=source)


def apply_cp_in_bulk(lines: Sequence[ImportedLine], *, season: Season, by) -> None:
    record_cp_in_bulk(season=season, lines=lines, by=by)

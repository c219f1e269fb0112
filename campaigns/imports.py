"""CP from the spreadsheet import's optional ``home_cp,away_cp`` columns (GB-11),
registered with the engine's importer as the Big League's import columns."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Sum

from campaigns.balances import active_lines
from campaigns.ledgers import adjust
from campaigns.models import CampaignCoach, CampaignPointLine, LineKind
from campaigns.setup import ensure_campaign
from league import locks
from league.models import Result
from league.rules.importing import parse_whole_number


@transaction.atomic
def record_match_cp(*, result: Result, home_cp: int | None, away_cp: int | None, by, source: str) -> int:
    """The CP each coach gained in an imported match (columns ``home_cp,away_cp``),
    as organiser lines linked to the result; returns how many lines were added.

    Importing the same file again adds nothing; a different figure for a match that
    already has imported CP is refused, like a different score. The match Favours
    are not here: the import approves results through ``league.services``, so GB-18
    applies exactly as for a result entered on the site.
    """
    fixture, _ = locks.fixture(result.fixture_id)  # the one lock order: both coaches in pk order first
    ensure_campaign(fixture.round.season)
    added = 0
    for entry_id, cp in ((fixture.home_id, home_cp), (fixture.away_id, away_cp)):
        if not cp:
            continue
        if cp < 0:
            raise ValidationError(f"CP gained in a match cannot be negative ({cp}) (GB-11: CP are never spent).")
        coach = CampaignCoach.objects.select_related("campaign__season__league", "entry__coach").get(entry_id=entry_id)
        already = (
            active_lines(CampaignPointLine)
            .filter(coach=coach, result=result, kind=LineKind.ADJUSTMENT)
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


# The engine's import columns (league.layers.ImportColumns) ---------------------------

COLUMNS = ("home_cp", "away_cp")


def parse_cp(values) -> tuple[int | None, int | None] | None:
    """A line's CP gained by each side (GB-11), or None when both are empty. Pure:
    raises ValueError with the reason (``league.import_files`` adds the line number)."""
    home, away = (parse_whole_number(values, column) for column in COLUMNS)
    if home is None and away is None:
        return None
    if values.get("status", "").lower() == "scheduled":
        raise ValueError("a scheduled fixture has gained no CP yet; leave home_cp and away_cp empty")
    return home, away


def apply_cp(parsed: tuple[int | None, int | None], *, result: Result, by, source: str) -> None:
    home_cp, away_cp = parsed
    record_match_cp(result=result, home_cp=home_cp, away_cp=away_cp, by=by, source=source)

"""The writes and checks on a fixture itself rather than its result: rearranging it
(GB-5), and whether it has a match a result can be written for (a bye has none;
LG-2: nor has a fixture a withdrawal cancelled). A season's set-up (its fixtures,
divisions, friendlies) is in league/services/seasons.py; a match's result in
league/services/results.py."""

from __future__ import annotations

import datetime

from django.core.exceptions import ValidationError
from django.db import transaction

from league import datebounds, locks
from league.permissions import require_organiser
from league.facts import recording as facts
from league.models import Fixture, ResultEvent


@transaction.atomic
def rearrange_fixture(*, fixture: Fixture, by, new_date: datetime.date, reason: str) -> Fixture:
    """GB-5: move an unplayed fixture to a new date; every coach of the season with
    an email address is told. The fixture keeps its round."""
    fixture, _ = locks.fixture(fixture.pk, sides=False)
    require_organiser(fixture.round.season.league, by)
    if fixture.is_bye:
        raise ValidationError("A bye has no match to rearrange.")
    check_not_cancelled(fixture)
    result = fixture.result_or_none
    if result is not None and result.is_approved:
        raise ValidationError("This fixture already has an approved result; correct the result instead.")
    reason = reason.strip()
    if not reason:
        raise ValidationError("Give a reason for the rearrangement; every coach is told it.")
    datebounds.validate_match_date(new_date)  # 9999-12-31 broke every .ics feed listing it
    old_date = fixture.date
    fixture.date = new_date
    fixture.rearranged_reason = reason
    fixture.save(update_fields=["date", "rearranged_reason"])
    # The fixture's history row is the fact; every coach is told by its followers.
    facts.result_step(fixture=fixture, result=None, action=ResultEvent.Action.REARRANGED, by=by,
                      note=f"{old_date:%d %b %Y} → {new_date:%d %b %Y}: {reason}", old_date=old_date)
    return fixture


def check_has_match(fixture: Fixture) -> None:
    """A result is reported, entered or imported only for a match: not a bye, not a
    fixture a withdrawal cancelled (LG-2)."""
    if fixture.is_bye:
        raise ValidationError(f"{fixture.home} has a bye in {fixture.round}: there is no match to report.")
    check_not_cancelled(fixture)


def check_not_cancelled(fixture: Fixture) -> None:
    """LG-2: nothing is reported, entered, imported or arranged for a fixture a
    withdrawal cancelled."""
    if fixture.is_cancelled:
        raise ValidationError(f"{fixture.title}, {fixture.home} v {fixture.away}, is {fixture.cancelled_reason}: "
                              "nothing can be reported or arranged for it.")

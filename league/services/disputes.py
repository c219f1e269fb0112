"""Settling a dispute: the organiser sees the reported result and the one the
disputing coach says is right side by side (the fixture page, the dashboard) and
accepts one. Accepting writes through the engine's own services in one
transaction: the report is approved as an override with the reason (GB-8), or
the coach's version is recorded as the organiser's correction."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from league import locks
from league.services import results as services
from league.models import Result
from league.text.words import possessive

REPORTED = "reported"
PROPOSED = "proposed"


@transaction.atomic
def settle_dispute(*, result: Result, by, accept: str) -> Result:
    """GB-8 Decision: the organiser settles a disputed result by accepting the
    reported version or the disputing coach's; either becomes the approved result."""
    # The one lock order (league/locks.py): fixture, result, the sides' rows; the
    # services called below take the same locks again (held already), and a second
    # click waits here, then finds the dispute settled.
    _, result = locks.fixture(result.fixture_id, sides=True)
    if result is None:
        raise ValidationError("This fixture has no result to settle.")
    if not result.fixture.round.season.league.is_organised_by(by):
        raise PermissionDenied("Only the league's organiser can settle a dispute.")
    if result.status != Result.Status.DISPUTED:
        raise ValidationError(f"This result is {result.get_status_display().lower()}: there is no dispute to settle.")
    fixture = result.fixture
    reporter = fixture.entry_for(result.reported_side)
    disputer = fixture.entry_for(result.confirming_side)
    if accept == REPORTED:
        return services.approve_result(
            result=result, by=by, reason=f"dispute settled: {possessive(reporter)} report accepted over {possessive(disputer)} objection"
        )
    if accept == PROPOSED:
        if not result.proposed_facts:
            raise ValidationError(f"{disputer} did not say what the result should be: correct it from the fixture page.")
        return services.record_result(
            fixture=fixture, by=by, reason=f"dispute settled: {possessive(disputer)} version accepted ({result.dispute_reason})"[:500],
            **result.proposed_facts,
        )
    raise ValidationError("Choose which version to accept.")

"""Settling a dispute: the organiser sees the reported result and the one the
disputing coach says is right side by side (the fixture page, the dashboard) and
accepts one. Accepting writes through the engine's own services in one
transaction: the report is approved as an override with the reason (GB-8), or
the coach's version is recorded as the organiser's correction."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from league import services
from league.models import Fixture, Result

REPORTED = "reported"
PROPOSED = "proposed"


@transaction.atomic
def settle_dispute(*, result: Result, by, accept: str) -> Result:
    """GB-8 Decision: the organiser settles a disputed result by accepting the
    reported version or the disputing coach's; either becomes the approved result."""
    # The engine's lock order, fixture then result: the services called below take
    # the same locks again (held already), and a second click waits here, then
    # finds the dispute settled.
    Fixture.objects.select_for_update(of=("self",)).filter(pk=result.fixture_id).first()
    result = Result.objects.select_for_update(of=("self",)).select_related(
        "fixture__round__season__league", "fixture__home__coach", "fixture__away__coach"
    ).get(pk=result.pk)
    if not result.fixture.round.season.league.is_organised_by(by):
        raise PermissionDenied("Only the league's organiser can settle a dispute.")
    if result.status != Result.Status.DISPUTED:
        raise ValidationError(f"This result is {result.get_status_display().lower()}: there is no dispute to settle.")
    fixture = result.fixture
    reporter = fixture.entry_for(result.reported_side)
    disputer = fixture.entry_for(result.confirming_side)
    if accept == REPORTED:
        return services.approve_result(
            result=result, by=by, reason=f"dispute settled: {reporter}'s report accepted over {disputer}'s objection"
        )
    if accept == PROPOSED:
        if not result.proposed_facts:
            raise ValidationError(f"{disputer} did not say what the result should be: correct it from the fixture page.")
        return services.record_result(
            fixture=fixture, by=by, reason=f"dispute settled: {disputer}'s version accepted ({result.dispute_reason})"[:500],
            **result.proposed_facts,
        )
    raise ValidationError("Choose which version to accept.")

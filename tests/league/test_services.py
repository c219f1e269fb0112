"""The result workflow through its services (GB-6, GB-7, GB-8)."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from league import services
from league.models import Result, ResultEvent
from tests.factories import FixtureFactory


@pytest.fixture
def fixture(season):
    return FixtureFactory(round__season=season)


def test_report_confirm_approve(fixture, organiser):
    home_user, away_user = fixture.home.coach.user, fixture.away.coach.user
    result = services.report_result(fixture=fixture, by=home_user, home_score=12, away_score=8)
    assert result.status == Result.Status.REPORTED and result.outcome == "home"
    services.confirm_result(result=result, by=away_user)
    services.approve_result(result=result, by=organiser)
    result.refresh_from_db()
    assert result.is_approved and result.approved_at is not None
    assert list(fixture.events.values_list("action", flat=True)) == ["reported", "confirmed", "approved"]


def test_reporter_cannot_confirm_own_report(fixture):
    user = fixture.home.coach.user
    result = services.report_result(fixture=fixture, by=user, home_score=4, away_score=12)
    with pytest.raises(ValidationError, match="your opponent confirms"):
        services.confirm_result(result=result, by=user)


def test_draw_is_refused_gb7(fixture):
    with pytest.raises(ValidationError, match="no draws"):
        services.report_result(fixture=fixture, by=fixture.home.coach.user, home_score=10, away_score=10)
    assert not Result.objects.exists()


def test_outsider_cannot_report(fixture, other_organiser):
    with pytest.raises(PermissionDenied):
        services.report_result(fixture=fixture, by=other_organiser, home_score=12, away_score=0)


def test_second_report_refused(fixture):
    services.report_result(fixture=fixture, by=fixture.home.coach.user, home_score=12, away_score=0)
    with pytest.raises(ValidationError, match="already been reported"):
        services.report_result(fixture=fixture, by=fixture.away.coach.user, home_score=0, away_score=12)
    assert ResultEvent.objects.count() == 1


def test_organiser_abandons_gb6(fixture, organiser):
    result = services.record_result(
        fixture=fixture, by=organiser, home_score=5, away_score=3, reason="venue closed", abandoned=True
    )
    assert result.outcome == "abandoned" and result.is_approved

"""The league services: fixtures (GB-4, GB-5) and the result workflow (GB-6, GB-7, GB-8)."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from league.services import results as services
from league.services import seasons as season_services
from league.models import Fixture, Result, ResultEvent, Round
from league.rules.scheduling import round_robin
from tests.support.factories import EntryFactory


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
    """The same coach's report again: the same result is the report there is (nothing
    written), a different one is refused; once the opponent answered, any is refused."""
    first = services.report_result(fixture=fixture, by=fixture.home.coach.user, home_score=12, away_score=0)
    assert services.report_result(fixture=fixture, by=fixture.home.coach.user, home_score=12, away_score=0) == first
    with pytest.raises(ValidationError, match="You reported this match already"):
        services.report_result(fixture=fixture, by=fixture.home.coach.user, home_score=12, away_score=4)
    assert ResultEvent.objects.count() == 1
    services.confirm_result(result=first, by=fixture.away.coach.user)
    with pytest.raises(ValidationError, match="already been reported"):
        services.report_result(fixture=fixture, by=fixture.home.coach.user, home_score=12, away_score=0)
    assert ResultEvent.objects.count() == 2


@pytest.mark.parametrize(("home", "away", "status"), [(12, 0, "confirmed"), (0, 12, "disputed")])
def test_the_opponents_own_report_confirms_or_disputes_gb8(fixture, home, away, status):
    """GB-8 Decision: a report arriving after the opponent's (a phone that had
    no signal) answers it: the same result confirms, a different one disputes."""
    services.report_result(fixture=fixture, by=fixture.home.coach.user, home_score=12, away_score=0)
    result = services.report_result(fixture=fixture, by=fixture.away.coach.user, home_score=home, away_score=away)
    assert result.status == status and (result.home_score, result.away_score) == (12, 0)
    assert list(ResultEvent.objects.values_list("action", flat=True)) == ["reported", status]


def test_organiser_abandons_gb6(fixture, organiser):
    result = services.record_result(
        fixture=fixture, by=organiser, home_score=5, away_score=3, reason="venue closed", abandoned=True
    )
    assert result.outcome == "abandoned" and result.is_approved


def test_generate_fixtures_stores_seed_and_reproduces(season):
    entries = [EntryFactory(season=season) for _ in range(5)]
    season.cadence_days = 14
    season.save()
    rounds = season_services.generate_fixtures(season=season, seed=1234)
    season.refresh_from_db()
    assert season.schedule_seed == 1234
    assert [r.number for r in rounds] == [1, 2, 3, 4, 5]
    assert [r.date for r in Round.objects.filter(season=season)][:2] == [
        season.start_date,
        season.start_date + datetime.timedelta(days=14),
    ]
    fixtures = Fixture.objects.filter(round__season=season)
    assert fixtures.filter(away__isnull=True).count() == 5  # one bye a round (GB-4 Decision)
    assert fixtures.filter(away__isnull=False).count() == 10  # every pair once
    first = sorted(fixtures.values_list("round__number", "home_id", "away_id"), key=str)
    with pytest.raises(ValidationError, match="already has its fixtures"):
        season_services.generate_fixtures(season=season, seed=1234)
    # The stored seed rebuilds the same schedule.
    again = round_robin(sorted(entries, key=lambda e: e.pk), seed=1234)
    rebuilt = sorted(
        ((n, h.pk, a.pk if a else None) for n, pairs in enumerate(again, start=1) for h, a in pairs), key=str
    )
    assert rebuilt == first


def test_generate_fixtures_needs_two_coaches(season):
    EntryFactory(season=season)
    with pytest.raises(ValidationError, match="at least two coaches"):
        season_services.generate_fixtures(season=season)
    assert not season.rounds.exists()


def test_double_round_robin_season(season):
    for _ in range(4):
        EntryFactory(season=season)
    season.double_round_robin = True
    season.save()
    season_services.generate_fixtures(season=season, seed=5)
    assert season.rounds.count() == 6
    assert Fixture.objects.filter(round__season=season).count() == 12


def test_approving_an_unconfirmed_result_needs_a_reason_gb8(fixture, organiser):
    """GB-8 Decision, for every game: reported or disputed is an override."""
    result = services.report_result(fixture=fixture, by=fixture.home.coach.user, home_score=12, away_score=4)
    with pytest.raises(ValidationError, match="not confirmed .* override; give the reason .GB-8."):
        services.approve_result(result=result, by=organiser)
    services.dispute_result(result=result, by=fixture.away.coach.user, reason="It was 12-6")
    with pytest.raises(ValidationError, match="disputed.* give the reason"):
        services.approve_result(result=result, by=organiser, reason="  ")
    result.refresh_from_db()
    assert result.status == Result.Status.DISPUTED
    services.approve_result(result=result, by=organiser, reason="scoresheet says 12-4")
    event = fixture.events.get(action="approved")
    assert event.note == "approved without the opponent's confirmation (disputed): scoresheet says 12-4"


def test_reopen_then_reapprove(fixture, organiser):
    result = services.record_result(fixture=fixture, by=organiser, home_score=12, away_score=2, reason="phone")
    services.reopen_result(result=result, by=organiser, reason="appeal")
    result.refresh_from_db()
    assert result.status == Result.Status.REPORTED and result.approved_at is None
    with pytest.raises(ValidationError, match="Only an approved result"):
        services.reopen_result(result=result, by=organiser, reason="again")
    services.approve_result(result=result, by=organiser)
    assert list(fixture.events.values_list("action", flat=True)) == ["entered", "reopened", "approved"]


def test_only_the_organiser_generates_fixtures(season, other_organiser, organiser):
    for _ in range(2):
        EntryFactory(season=season)
    with pytest.raises(PermissionDenied):
        season_services.generate_fixtures(season=season, by=other_organiser)
    assert not season.rounds.exists()
    season_services.generate_fixtures(season=season, by=organiser)
    assert season.rounds.count() == 1

"""No request can exhaust memory, and no date is a 500 that should be a 4xx:
every number and date a person or a file enters is bounded at the form,
the service and a database check (STYLE habit 15), and the Moments cost what is
reached, not the CP total."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from campaigns import rules
from campaigns.ledgers import services as ledgers
from campaigns.moments import services as moments
from campaigns.models import CampaignPointLine, FavourLine, LineKind, MomentUnlock
from league import datebounds
from league.services import fixtures as fixture_services
from league.services import results as services
from league.services import seasons as season_services
from league.models import Fixture, Result, Round, Season
from tests.campaigns.factories import make_campaign
from tests.support.factories import CoachFactory, EntryFactory, FixtureFactory, RoundFactory, SeasonFactory

pytestmark = pytest.mark.django_db

HUGE = 2_147_483_648  # the adjustment that grew the server to 23.7 GB


@pytest.fixture
def campaign(season, organiser):
    return make_campaign(season, 2, organiser=organiser)


# CP and Favour adjustments ------------------------------------------------------


@pytest.mark.parametrize("ledger", ["cp", "favours"])
@pytest.mark.parametrize("amount", [HUGE, 100_000_000, 1001, -1001, -HUGE])
def test_the_adjust_form_refuses_an_unbounded_amount(client, season, organiser, campaign, ledger, amount):
    a, _ = campaign
    client.force_login(organiser)
    response = client.post(
        reverse("campaigns:adjust", args=[season.league.slug, a.entry.coach_id]),
        {"ledger": ledger, "amount": str(amount), "reason": "typo"},
    )
    assert response.status_code == 400
    assert "1000" in response.content.decode()
    assert not CampaignPointLine.objects.filter(kind=LineKind.ADJUSTMENT).exists()
    assert not FavourLine.objects.filter(kind=LineKind.ADJUSTMENT).exists()


def test_the_adjust_form_accepts_the_bound(client, season, organiser, campaign):
    a, _ = campaign
    client.force_login(organiser)
    response = client.post(
        reverse("campaigns:adjust", args=[season.league.slug, a.entry.coach_id]), {"ledger": "cp", "amount": "1000", "reason": "ok"}
    )
    assert response.status_code == 302
    assert CampaignPointLine.objects.get(kind=LineKind.ADJUSTMENT).amount == 1000
    # 0, 20, 40, ... as the catalogue has them: every Moment up to 1000 CP, once.
    assert MomentUnlock.objects.filter(coach=a).count() == rules.count_reached(1000, moments.moment_table())


@pytest.mark.parametrize("amount", [HUGE, 1001, -1001])
def test_the_adjust_service_refuses_an_unbounded_amount(organiser, campaign, amount):
    a, _ = campaign
    with pytest.raises(ValidationError, match="between -1000 and 1000"):
        ledgers.adjust(coach=a, ledger="cp", amount=amount, reason="typo", by=organiser)
    assert not CampaignPointLine.objects.exists()


def test_a_cp_total_stays_below_its_bound(organiser, campaign):
    a, _ = campaign
    CampaignPointLine.objects.bulk_create(
        CampaignPointLine(coach=a, amount=1000, kind=LineKind.ADJUSTMENT, reason="bulk") for _ in range(99)
    )
    ledgers.adjust(coach=a, ledger="cp", amount=1000, reason="to the top", by=organiser)
    with pytest.raises(ValidationError, match="at most 100000"):
        ledgers.adjust(coach=a, ledger="cp", amount=1, reason="past it", by=organiser)


@pytest.mark.parametrize("model", [CampaignPointLine, FavourLine])
def test_the_database_refuses_an_unbounded_line(campaign, model):
    a, _ = campaign
    with pytest.raises(IntegrityError), transaction.atomic():
        model.objects.create(coach=a, amount=1001, kind=LineKind.ADJUSTMENT, reason="raw")


# Moments cost what is reached --------------------------------------------------------


def test_next_moment_and_progress_do_not_grow_with_the_total():
    table = [
        rules.MomentDef(0, "Plotting", rules.GUILD),
        rules.MomentDef(20, "Early", rules.GUILD),
        rules.MomentDef(200, "Driving the Advantage", rules.RARE, repeat_every=20),
    ]
    # Arithmetic: a total of 10**15 would take forever to unroll.
    assert rules.next_moment(10**15, table).threshold == 10**15 + 20
    assert rules.progress(10**15 + 5, table) == (15, 10**15 + 20, 25)
    assert rules.count_reached(10**15, table) == 2 + (10**15 - 200) // 20 + 1
    assert rules.last_reached(219, table).threshold == 200
    for total in range(0, 500, 7):  # the same as unrolling the table
        unrolled = rules.moments_reached(total, table)
        assert rules.count_reached(total, table) == len(unrolled)
        assert rules.last_reached(total, table).threshold == unrolled[-1].threshold
        assert [m.threshold for m in rules.moments_reached(total, table, above=100)] == [
            m.threshold for m in unrolled if m.threshold > 100
        ]


def test_sync_creates_only_the_moments_newly_reached(organiser, campaign, django_assert_max_num_queries):
    a, _ = campaign
    CampaignPointLine.objects.bulk_create(
        CampaignPointLine(coach=a, amount=1000, kind=LineKind.ADJUSTMENT, reason="bulk") for _ in range(40)
    )
    moments.sync_moments(a)
    held = MomentUnlock.objects.filter(coach=a).count()
    # PostgreSQL's smallint threshold stopped at 32,767 (a 500): 40,000 is stored.
    assert MomentUnlock.objects.filter(coach=a, threshold=40_000).exists()
    CampaignPointLine.objects.create(coach=a, amount=20, kind=LineKind.ADJUSTMENT, reason="one more")
    with django_assert_max_num_queries(9):  # highest held, CP total, table, insert, the notices, the event's subscribers
        new = moments.sync_moments(a)
    assert [u.threshold for u in new] == [40_020]
    assert MomentUnlock.objects.filter(coach=a).count() == held + 1


# Scores -----------------------------------------------------------------------------


def test_an_override_score_is_bounded(organiser, season):
    fixture = FixtureFactory(round=RoundFactory(season=season, number=1))
    with pytest.raises(ValidationError, match="more than 99 VP"):
        services.record_result(
            fixture=fixture, by=organiser, reason="odd", override=True, home_score=40_000, away_score=0
        )
    assert not Result.objects.exists()


def test_the_database_refuses_an_unbounded_score(season):
    fixture = FixtureFactory(round=RoundFactory(season=season, number=1))
    with pytest.raises(IntegrityError), transaction.atomic():
        Result.objects.create(fixture=fixture, home_score=100, away_score=0, outcome="home", summary="x")


# Dates and rounds --------------------------------------------------------------------


@pytest.fixture
def played(season):
    rnd = RoundFactory(season=season, number=1)
    return FixtureFactory(round=rnd, home=EntryFactory(season=season), away=EntryFactory(season=season))


def test_rearranging_to_9999_is_refused_by_the_form(client, organiser, played):
    client.force_login(organiser)
    response = client.post(
        reverse("league:rearrange_fixture", args=[played.pk]), {"date": "9999-12-31", "reason": "far away"}
    )
    assert response.status_code == 400
    assert "Enter a date between" in response.content.decode()
    assert Fixture.objects.get(pk=played.pk).date == played.date


def test_rearranging_to_9999_is_refused_by_the_service(organiser, played):
    with pytest.raises(ValidationError, match="Enter a date between"):
        fixture_services.rearrange_fixture(fixture=played, by=organiser, new_date=datetime.date(9999, 12, 31), reason="x")


@pytest.mark.parametrize("model,field", [(Fixture, "date"), (Round, "date"), (Season, "start_date")])
def test_the_database_refuses_a_date_out_of_bounds(played, model, field):
    with pytest.raises(IntegrityError), transaction.atomic():
        model.objects.all().update(**{field: datetime.date(9999, 12, 31)})


def test_the_database_refuses_a_round_past_the_bound(season):
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.create(season=season, number=datebounds.MAX_ROUNDS + 1, date=season.start_date)


def test_calendars_work_for_a_fixture_on_the_last_allowed_day(client, organiser, played):
    fixture_services.rearrange_fixture(fixture=played, by=organiser, new_date=datebounds.LATEST, reason="the last day")
    league = played.round.season.league
    for url in (
        reverse("league:league_ics", args=[league.slug]),
        reverse("league:coach_ics", args=[league.slug, played.home.coach_id]),
    ):
        response = client.get(url)
        assert response.status_code == 200
        assert f"DTSTART;VALUE=DATE:{datebounds.LATEST:%Y%m%d}" in response.content.decode()


def test_a_season_whose_last_round_passes_the_bound_gets_no_fixtures(organiser, league):
    season = SeasonFactory(league=league, start_date=datebounds.LATEST - datetime.timedelta(days=10))
    for _ in range(4):
        EntryFactory(season=season, coach=CoachFactory())
    with pytest.raises(ValidationError, match="would fall on"):
        season_services.generate_fixtures(season=season, by=organiser)
    assert not season.rounds.exists()


def test_the_admin_refuses_a_season_start_in_9999(client, organiser, league):
    client.force_login(organiser)
    response = client.post(
        reverse("admin:league_season_add"),
        {"league": league.pk, "name": "Far", "start_date": "9999-12-31", "cadence_days": "7"},
    )
    assert response.status_code == 200
    assert "Enter a date between" in response.content.decode()
    assert not Season.objects.filter(name="Far").exists()

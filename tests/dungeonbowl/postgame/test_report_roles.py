"""The Dungeon Bowl report form through the engine's workflow, for every role:
anonymous, a coach in no league, the wrong coach, the right coaches, the
commissioner (report, confirm, dispute, approve, record), with what each page says
and which rows each step writes."""

import pytest
from django.urls import reverse

from league.dungeonbowl.models import DiceRoll, GameReport, PlayerEffect, PlayerGame, TreasuryLine
from league.models import Fixture, Result
from tests.dungeonbowl.builders import db_season
from tests.dungeonbowl.postgame.test_postgame import post, teams
from tests.support.factories import CoachFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(organiser):
    return db_season(organiser, teams=4)


@pytest.fixture
def fixture(season):
    return Fixture.objects.with_related().filter(round__season=season, round__number=1).first()


@pytest.fixture
def wrong_coach(fixture):
    """A coach of the league who does not play this fixture."""
    return Fixture.objects.filter(round=fixture.round).exclude(pk=fixture.pk).first().home.coach.user


def url(name, fixture):
    return reverse(f"league:{name}", args=[fixture.pk])


def written() -> tuple:
    return (Result.objects.count(), GameReport.objects.count(), PlayerGame.objects.count(),
            PlayerEffect.objects.count(), TreasuryLine.objects.filter(kind="winnings").count(), DiceRoll.objects.count())


def test_outsiders_write_nothing(client, fixture, wrong_coach):
    before = written()
    response = client.post(url("report_result", fixture), post(fixture))
    assert response.status_code == 302 and reverse("login") in response["Location"]
    page = client.get(fixture.get_absolute_url()).content.decode()
    assert 'name="home_score"' not in page and fixture.home.team in page
    for user in (CoachFactory(name="Nobody").user, wrong_coach):
        client.force_login(user)
        assert 'name="home_score"' not in client.get(fixture.get_absolute_url()).content.decode()
        for name in ("report_result", "record_result", "approve_result"):
            assert client.post(url(name, fixture), post(fixture)).status_code == 403, name
    assert written() == before


def test_report_confirm_approve(client, fixture, organiser, wrong_coach):
    home_team, away_team = teams(fixture)
    client.force_login(fixture.home.coach.user)
    form = client.get(fixture.get_absolute_url()).content.decode()
    assert f"{home_team.name}: touchdowns" in form and "players who used Gather Funds" in form
    assert "#1 " in form and "(Troll Slayer)" in form  # a line per player who can play
    response = client.post(url("report_result", fixture), post(fixture), follow=True)
    page = response.content.decode()
    assert "Waiting for your opponent to confirm" in page
    result = Result.objects.get(fixture=fixture)
    assert (result.status, result.home_score, result.away_score, result.summary) == ("reported", 1, 0, "1 – 0")
    report = GameReport.objects.get(result=result)
    assert (report.home_cas, report.home_gather, report.away_journeymen, report.dice) == (3, 3, 1, [5, 2])
    assert PlayerGame.objects.filter(report=report).count() == 5
    assert not PlayerEffect.objects.exists() and not TreasuryLine.objects.filter(kind="winnings").exists()

    client.force_login(wrong_coach)
    assert client.post(url("confirm_result", fixture)).status_code == 403
    client.force_login(fixture.away.coach.user)
    page = client.post(url("confirm_result", fixture), follow=True).content.decode()
    result.refresh_from_db()
    assert result.status == "confirmed" and "Confirmed" in page

    client.force_login(fixture.home.coach.user)
    assert client.post(url("approve_result", fixture)).status_code == 403
    client.force_login(organiser)
    page = client.post(url("approve_result", fixture), follow=True).content.decode()
    result.refresh_from_db()
    assert result.status == "approved"
    assert "Ended by a touchdown" in page and "2D6 5 2" in page  # the game panel with the table's roll
    assert PlayerEffect.objects.filter(result=result).count() == 5
    winnings = dict(TreasuryLine.objects.filter(kind="winnings").values_list("team__name", "amount"))
    assert winnings == {home_team.name: 50_000, away_team.name: 20_000}
    assert TreasuryLine.objects.get(kind="treasure_room").amount == 20_000  # 3 players used Gather Funds


def test_the_opponent_disputes(client, fixture, organiser):
    client.force_login(fixture.home.coach.user)
    client.post(url("report_result", fixture), post(fixture))
    client.force_login(fixture.away.coach.user)
    response = client.post(url("dispute_result", fixture), {"reason": "Our Blitzer scored, not theirs"}, follow=True)
    assert "Disputed: Our Blitzer scored, not theirs" in response.content.decode()
    result = Result.objects.get(fixture=fixture)
    assert result.status == "disputed" and not PlayerEffect.objects.exists()
    client.force_login(organiser)
    page = client.get(fixture.get_absolute_url()).content.decode()
    assert "Disputed: Our Blitzer scored, not theirs" in page and 'name="reason"' in page


def test_the_commissioner_records_an_unplayed_fixture_and_a_result(client, fixture, organiser, season):
    client.force_login(organiser)
    page = client.get(fixture.get_absolute_url()).content.decode()
    assert "Unplayed by the deadline" in page
    response = client.post(url("record_result", fixture), {"abandoned": "on", "abandoned_reason": "Deadline passed",
                                                           "home_score": 0, "away_score": 0, "ending": "touchdown",
                                                           "home_gather": 0, "away_gather": 0, "home_journeymen": 0,
                                                           "away_journeymen": 0}, follow=True)
    result = Result.objects.get(fixture=fixture)
    assert result.status == "approved" and result.summary == "Unplayed", response.content.decode()[-3000:]
    assert not TreasuryLine.objects.filter(kind="winnings").exists() and not DiceRoll.objects.exists()
    other = Fixture.objects.filter(round=fixture.round).exclude(pk=fixture.pk).first()
    response = client.post(url("record_result", other), {**post(other), "reason": "From the score sheet"}, follow=True)
    assert "Result recorded and approved." in response.content.decode()
    recorded = Result.objects.get(fixture=other)
    assert recorded.status == "approved" and PlayerEffect.objects.filter(result=recorded).count() == 5
    assert TreasuryLine.objects.filter(kind="winnings").count() == 2

"""The DreadBall demo quickstart loads, the published teams, and the admin pages."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.urls import reverse

from league.dreadball import demo
from league.dreadball.models import DreadBallResult, DreadBallTeam, RosterPlayer, TeamType
from league.models import Coach, Fixture, League, Result
from tests.support.factories import ResultFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_the_boxed_teams_are_data():
    assert list(TeamType.objects.values_list("name", "race")) == [
        ("Draconis All-Stars", "Robots"), ("Ninth Moon Tree Sharks", "Yndij"),
    ]


def test_demo_loads_once_with_both_teams_a_landslide_and_a_sudden_death_draw(client):
    accounts = demo.load_demo()
    again = demo.load_demo()
    assert accounts == again == [demo.COACH]
    league = League.objects.get(slug=demo.DEMO_SLUG)
    assert league.game_system == "dreadball" and league.dreadball_settings.landslide_win == 3
    season = league.seasons.get()
    assert season.entries.count() == 6
    teams = DreadBallTeam.objects.filter(entry__season=season)
    assert {t.team_type.name for t in teams} == {"Draconis All-Stars", "Ninth Moon Tree Sharks"}
    assert RosterPlayer.objects.filter(team__in=teams).count() == 36
    assert set(season.entries.values_list("team", flat=True)) == set(teams.values_list("name", flat=True))
    results = Result.objects.filter(fixture__round__season=season)
    assert results.filter(status="approved").count() == 9
    assert DreadBallResult.objects.filter(result__in=results, landslide=True, rush__lt=14).exists()
    assert results.filter(outcome="draw", dreadball_detail__sudden_death=True).exists()

    # The demo coach logs in and has their opponent's report to confirm.
    assert client.login(request=HttpRequest(), username=demo.COACH.username, password=demo.COACH.password)
    coach = Coach.objects.get(user__username=demo.COACH_USERNAME)
    waiting = results.get(status="reported")
    assert waiting.confirming_side == waiting.fixture.side_of(coach)
    assert client.get(reverse("league:my_fixtures")).context["to_confirm"] == [waiting.fixture]


def test_quickstart_prints_the_dreadball_account():
    out = StringIO()
    call_command("quickstart", "--no-serve", verbosity=0, stdout=out)
    text = out.getvalue()
    assert "username 'dreadball', password 'coach-demo'" in text
    assert "username 'ada', password 'coach-demo'" in text
    assert "/leagues/neon-dome/" in text


def test_result_details_refuse_what_no_game_ends_in():
    result = ResultFactory(outcome="home", home_score=None, away_score=None)
    impossible = [
        dict(difference=7, landslide=False, rush=14, sudden_death=False),  # 7 is a landslide
        dict(difference=3, landslide=False, rush=10, sudden_death=False),  # early end without landslide
        dict(difference=2, landslide=False, rush=12, sudden_death=True),  # Sudden Death before Rush 15
        dict(difference=2, landslide=False, rush=16, sudden_death=False),  # past Rush 14 without it
        dict(difference=0, landslide=False, rush=14, sudden_death=False),  # level without Sudden Death
        dict(difference=6, landslide=False, rush=16, sudden_death=True),  # Sudden Death is won by 1 to 4
        dict(difference=8, landslide=False, rush=14, sudden_death=False),
        dict(difference=2, landslide=False, rush=31, sudden_death=True),
    ]
    for values in impossible:
        with pytest.raises(IntegrityError), transaction.atomic():
            DreadBallResult.objects.create(result=result, **values)
    DreadBallResult.objects.create(result=result, difference=4, landslide=False, rush=16, sudden_death=True)


@pytest.mark.parametrize("who", ["superuser", "organiser"])
def test_admin_pages(client, organiser, dr_fixture, who):
    from league.services import results as services

    services.record_result(fixture=dr_fixture, by=organiser, reason="entered", winner="home", difference=7,
                           rush=9, sudden_death=False)
    user = UserFactory(username="root", is_staff=True, is_superuser=True) if who == "superuser" else organiser
    client.force_login(user)
    team = DreadBallTeam.objects.create(entry=dr_fixture.home, name="Voss Voltage", team_type=TeamType.objects.first())
    league = dr_fixture.round.season.league
    pages = [
        reverse("admin:dreadball_teamtype_changelist"),
        reverse("admin:dreadball_dreadballteam_changelist"),
        reverse("admin:dreadball_dreadballteam_add"),
        reverse("admin:dreadball_dreadballteam_change", args=[team.pk]),
        reverse("admin:dreadball_dreadballresult_changelist"),
        reverse("admin:league_league_change", args=[league.pk]),
    ]
    for url in pages:
        assert client.get(url).status_code == 200, url
    league_page = client.get(reverse("admin:league_league_change", args=[league.pk])).content.decode()
    assert "Points for a landslide win" in league_page
    add_type = client.get(reverse("admin:dreadball_teamtype_add"))
    assert add_type.status_code == (200 if who == "superuser" else 403)


def test_admin_team_save_names_the_entry(client, dr_fixture, organiser):
    client.force_login(organiser)
    response = client.post(
        reverse("admin:dreadball_dreadballteam_add"),
        {
            "entry": dr_fixture.home.pk, "name": "Voss Voltage", "team_type": TeamType.objects.first().pk,
            "players-TOTAL_FORMS": "1", "players-INITIAL_FORMS": "0", "players-MIN_NUM_FORMS": "0",
            "players-MAX_NUM_FORMS": "1000",
            "players-0-name": "Romeo Blue", "players-0-role": "striker", "players-0-move": "6",
            "players-0-strength": "5", "players-0-agility": "4", "players-0-speed": "4", "players-0-skill": "3",
            "players-0-armour": "5", "players-0-cost": "12",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    dr_fixture.home.refresh_from_db()
    assert dr_fixture.home.team == "Voss Voltage"
    assert RosterPlayer.objects.get().name == "Romeo Blue"

"""DR-5: a team's players are its published team's. Changing the published team
before the team's first game replaces the roster with the new published team's
(no Tree Sharks team with the robots' Guards); once it has played, the change is
refused with the reason and nothing is written, on the site and in the admin."""

import pytest
from django.urls import reverse
from django.utils import timezone

from league.dreadball.models import DreadBallTeam, PublishedPlayer, RosterPlayer, TeamType
from league.models import Result

pytestmark = pytest.mark.django_db

LINE = {"move": 5, "strength": 4, "agility": 4, "speed": 4, "skill": 4, "armour": 4}


def robots() -> TeamType:
    return TeamType.objects.get(name="Draconis All-Stars")


def sharks() -> TeamType:
    return TeamType.objects.get(name="Ninth Moon Tree Sharks")


@pytest.fixture
def rosters(db):
    """Both boxed teams' rosters, as an organiser enters them from the Team Cards."""
    PublishedPlayer.objects.create(team_type=robots(), order=1, name="Guard", role="guard", cost=10,
                                   starting=2, maximum=4, **LINE)
    PublishedPlayer.objects.create(team_type=sharks(), order=1, name="Jack", role="jack", cost=9,
                                   starting=1, maximum=3, **LINE)
    PublishedPlayer.objects.create(team_type=sharks(), order=2, name="Striker", role="striker", cost=12,
                                   starting=2, maximum=3, **LINE)


def register(client, league, team_type: TeamType, name: str = "Voss Voltage"):
    return client.post(reverse("dreadball:register_team", args=[league.slug]), {"name": name, "team_type": team_type.pk})


def roster(entry) -> list[tuple[str, str, int]]:
    return list(RosterPlayer.objects.filter(team__entry=entry).order_by("name").values_list("name", "role", "cost"))


def coach_page(client, fixture) -> str:
    league = fixture.round.season.league
    return client.get(reverse("league:coach_detail", args=[league.slug, fixture.home.coach_id])).content.decode()


def test_before_its_first_game_the_new_published_teams_roster_replaces_the_old(client, dr_league, dr_fixture, rosters):
    client.force_login(dr_fixture.home.coach.user)
    assert register(client, dr_league, robots()).status_code == 302
    assert roster(dr_fixture.home) == [("Guard 1", "guard", 10), ("Guard 2", "guard", 10)]

    response = register(client, dr_league, sharks(), name="Voss Sharks")
    assert response.status_code == 302
    team = DreadBallTeam.objects.get(entry=dr_fixture.home)
    assert (team.name, team.team_type) == ("Voss Sharks", sharks())
    assert roster(dr_fixture.home) == [("Jack", "jack", 9), ("Striker 1", "striker", 12), ("Striker 2", "striker", 12)]
    page = coach_page(client, dr_fixture)
    assert "Plays the Ninth Moon Tree Sharks" in page and "3 players · 33 mc" in page
    assert "Guard" not in page


def test_renaming_without_changing_the_published_team_keeps_the_roster(client, dr_league, dr_fixture, rosters):
    client.force_login(dr_fixture.home.coach.user)
    register(client, dr_league, robots())
    RosterPlayer.objects.filter(name="Guard 2").update(name="Brick")  # as the organiser may have named them
    Result.objects.create(fixture=dr_fixture, outcome="home", summary="3–0")
    assert register(client, dr_league, robots(), name="Voss Volts").status_code == 302
    assert DreadBallTeam.objects.get().name == "Voss Volts"
    assert roster(dr_fixture.home) == [("Brick", "guard", 10), ("Guard 1", "guard", 10)]


@pytest.mark.parametrize("status", ["reported", "approved"])
def test_after_a_game_the_change_is_refused_with_the_reason(client, dr_league, dr_fixture, rosters, status):
    client.force_login(dr_fixture.home.coach.user)
    register(client, dr_league, robots())
    Result.objects.create(fixture=dr_fixture, outcome="home", summary="3–0", status=status,
                          approved_at=timezone.now() if status == "approved" else None)

    response = register(client, dr_league, sharks(), name="Voss Sharks")
    assert response.status_code == 400
    assert ("Voss Voltage has played a game as the Draconis All-Stars, so it keeps that published team "
            "and its roster.") in response.content.decode()
    team = DreadBallTeam.objects.get(entry=dr_fixture.home)
    assert (team.name, team.team_type) == ("Voss Voltage", robots())
    dr_fixture.home.refresh_from_db()
    assert dr_fixture.home.team == "Voss Voltage"
    assert roster(dr_fixture.home) == [("Guard 1", "guard", 10), ("Guard 2", "guard", 10)]


def test_the_organiser_changes_it_for_a_coach_under_the_same_rule(client, organiser, dr_league, dr_fixture, rosters):
    client.force_login(organiser)
    url = reverse("dreadball:register_team", args=[dr_league.slug])
    data = {"entry": dr_fixture.away.pk, "name": "Rell Riptide"}
    assert client.post(url, {**data, "team_type": robots().pk}).status_code == 302
    assert client.post(url, {**data, "team_type": sharks().pk}).status_code == 302
    assert [role for _, role, _ in roster(dr_fixture.away)] == ["jack", "striker", "striker"]
    Result.objects.create(fixture=dr_fixture, outcome="abandoned", summary="Abandoned")
    response = client.post(url, {**data, "team_type": robots().pk})
    assert response.status_code == 400 and "has played a game as the Ninth Moon Tree Sharks" in response.content.decode()
    assert DreadBallTeam.objects.get(entry=dr_fixture.away).team_type == sharks()


def admin_post(team: DreadBallTeam, team_type: TeamType) -> dict:
    data = {"name": team.name, "team_type": team_type.pk, "players-TOTAL_FORMS": str(team.players.count()),
            "players-INITIAL_FORMS": str(team.players.count()), "players-MIN_NUM_FORMS": "0",
            "players-MAX_NUM_FORMS": "1000"}
    for i, player in enumerate(team.players.order_by("pk")):
        data.update({f"players-{i}-id": str(player.pk), f"players-{i}-team": str(team.pk), f"players-{i}-name": player.name,
                     f"players-{i}-role": player.role, f"players-{i}-cost": str(player.cost),
                     **{f"players-{i}-{stat}": str(value) for stat, value in LINE.items()}})
    return data


def test_the_admin_applies_the_same_rule(client, organiser, dr_league, dr_fixture, rosters):
    client.force_login(dr_fixture.home.coach.user)
    register(client, dr_league, robots())
    team = DreadBallTeam.objects.get()
    url = reverse("admin:dreadball_dreadballteam_change", args=[team.pk])
    client.force_login(organiser)

    response = client.post(url, admin_post(team, sharks()))
    assert response.status_code == 302, response.content.decode()[:3000]
    assert DreadBallTeam.objects.get().team_type == sharks()
    assert [role for _, role, _ in roster(dr_fixture.home)] == ["jack", "striker", "striker"]

    Result.objects.create(fixture=dr_fixture, outcome="home", summary="3–0")
    response = client.post(url, admin_post(team, robots()))
    assert response.status_code == 200
    assert "has played a game as the Ninth Moon Tree Sharks" in response.content.decode()
    assert DreadBallTeam.objects.get().team_type == sharks()
    assert [role for _, role, _ in roster(dr_fixture.home)] == ["jack", "striker", "striker"]

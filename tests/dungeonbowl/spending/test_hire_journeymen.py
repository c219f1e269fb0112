"""DB-12 on the team page: a Journeyman who played is hired permanently, at the
roster price from the Treasury, while the team has fewer than 16 players, after a
confirmation step; every role, and bad input refused with the reason (400) and
nothing written."""

import pytest
from django.urls import reverse

from league.dungeonbowl.spending import services as spending
from league.dungeonbowl.models import Player, Position, Team, TreasuryLine
from league.models import Fixture
from league.services import results as engine
from tests.dungeonbowl.builders import db_season
from tests.support.factories import CoachFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def team(organiser):
    db_season(organiser, teams=4)
    return Team.objects.get(name="Team 01")  # Fire: 8 players, 345,000 gp in the Treasury


@pytest.fixture
def game(organiser, team):
    """An approved game in which Team 01 (home) fielded one Journeyman."""
    fixture = Fixture.objects.filter(round__season__league=team.league, home__dungeonbowl__team=team).first()
    return engine.record_result(fixture=fixture, by=organiser, reason="sheet", home_score=1, away_score=0,
                                ending="touchdown", home_gather=0, away_gather=0, home_journeymen=1,
                                away_journeymen=0, dice=[1, 1])


def _urls(team):
    args = [team.league.slug, team.slug]
    return reverse("dungeonbowl:hire_journeyman", args=args), reverse("dungeonbowl:team_detail", args=args)


def _written(team) -> tuple[int, int]:
    return team.players.count(), TreasuryLine.objects.filter(team=team).count()


def test_every_role_and_the_confirmation_step(client, organiser, other_organiser, team, game):
    url, page_url = _urls(team)
    gnoblar = Position.objects.get(name="Gnoblar Lineman")
    data = {"game": game.pk, "position": gnoblar.pk, "name": "Snik"}
    before = _written(team)
    treasury = team.treasury()

    assert client.post(url, {**data, "confirmed": "yes"}).status_code == 302  # anonymous: to the login page
    assert "Hire a Journeyman" not in client.get(page_url).content.decode()
    for outsider in (Team.objects.get(name="Team 02").coach.user, CoachFactory(name="Nobody").user, other_organiser):
        client.force_login(outsider)
        assert client.post(url, {**data, "confirmed": "yes"}).status_code == 403
        assert "Hire a Journeyman" not in client.get(page_url).content.decode()
    assert _written(team) == before

    client.force_login(team.coach.user)
    page = client.get(page_url).content.decode()
    assert "Hire a Journeyman who played, permanently" in page and "Gnoblar Lineman (15,000 gp)" in page
    assert "Troll Slayer (95,000 gp)" not in page  # Journeymen are the 0-16 linemen
    asked = client.post(url, data)
    text = asked.content.decode()
    assert asked.status_code == 200 and "Hire Snik permanently?" in text and "15,000 gp" in text
    assert f"which holds {treasury:,} gp" in text and 'name="confirmed" value="yes"' in text
    assert _written(team) == before  # the first click writes nothing
    done = client.post(url, {**data, "confirmed": "yes"}, follow=True).content.decode()
    assert "#9 Snik (Gnoblar Lineman) joins Team 01 permanently for 15,000 gp." in done
    snik = team.players.get(name="Snik")
    assert (snik.number, snik.position, snik.status) == (9, gnoblar, Player.Status.ACTIVE)
    assert team.treasury() == treasury - 15_000

    # The report says one Journeyman played: a second is refused, for the organiser too.
    client.force_login(organiser)
    again = client.post(url, {**data, "name": "Snak", "confirmed": "yes"})
    assert again.status_code == 400 and "fielded 1 Journeymen in that game and has hired 1" in again.content.decode()
    assert not team.players.filter(name="Snak").exists() and team.treasury() == treasury - 15_000


def test_the_organiser_hires_for_the_team(client, organiser, team, game):
    url, _ = _urls(team)
    client.force_login(organiser)
    treasury = team.treasury()
    data = {"game": game.pk, "position": Position.objects.get(name="Dwarf Blocker Lineman").pk, "confirmed": "yes"}
    assert client.post(url, data).status_code == 302
    assert team.players.filter(number=9, position__name="Dwarf Blocker Lineman").exists()
    assert team.treasury() == treasury - 70_000


@pytest.mark.parametrize("field, value, reason", [
    ("game", "", "Choose the game the Journeyman played in."),
    ("game", "garbage", "Choose an approved game of this team in which it fielded Journeymen."),
    ("game", "99999999999999999999999", "Choose an approved game of this team in which it fielded Journeymen."),
    ("position", "", "Choose the Journeyman&#x27;s position."),
    ("position", "garbage", "Journeymen are the college&#x27;s 0-16 linemen: choose one of them."),
    ("name", "x" * 61, "Ensure this value has at most 60 characters"),
])
def test_bad_input_is_refused_with_the_reason(client, team, game, field, value, reason):
    url, _ = _urls(team)
    data = {"game": game.pk, "position": Position.objects.get(name="Gnoblar Lineman").pk, "confirmed": "yes"}
    before, treasury = _written(team), team.treasury()
    client.force_login(team.coach.user)
    response = client.post(url, {**data, field: value})
    assert response.status_code == 400 and reason in response.content.decode()
    assert _written(team) == before and team.treasury() == treasury


def test_a_slayer_another_teams_game_or_a_full_squad_is_refused(client, organiser, team, game):
    url, page_url = _urls(team)
    gnoblar = Position.objects.get(name="Gnoblar Lineman")
    client.force_login(team.coach.user)
    slayer = client.post(url, {"game": game.pk, "position": Position.objects.get(name="Troll Slayer").pk})
    assert slayer.status_code == 400 and "0-16 linemen" in slayer.content.decode()
    other = Fixture.objects.filter(round__season__league=team.league).exclude(home__dungeonbowl__team=team).exclude(
        away__dungeonbowl__team=team).first()
    theirs = engine.record_result(fixture=other, by=organiser, reason="sheet", home_score=1, away_score=0,
                                  ending="touchdown", home_gather=0, away_gather=0, home_journeymen=2,
                                  away_journeymen=2, dice=[1, 1])
    wrong_game = client.post(url, {"game": theirs.pk, "position": gnoblar.pk})
    assert wrong_game.status_code == 400 and "Choose an approved game of this team" in wrong_game.content.decode()
    for number in range(9, 17):  # 16 players: the page says why it offers nothing
        Player.objects.create(team=team, name=f"Extra {number}", number=number, position=gnoblar,
                              ma=5, st=1, ag=3, pa=5, av=6)
    assert "The team has 16 players: fire one first" in client.get(page_url).content.decode()
    before, treasury = _written(team), team.treasury()
    for confirmed in ({}, {"confirmed": "yes"}):  # refused before it is asked, and when confirmed
        full = client.post(url, {"game": game.pk, "position": gnoblar.pk, **confirmed})
        text = full.content.decode()
        assert full.status_code == 400 and "already has 16 players; fire one first" in text
        assert 'name="confirmed"' not in text
    assert _written(team) == before and team.treasury() == treasury


def test_a_treasury_short_of_the_price_is_refused_before_it_is_asked(client, team, game):
    url, _ = _urls(team)
    for _ in range(3):
        spending.buy_reroll(team=team, by=team.coach.user)
    treasury = team.treasury()  # 355,000 - 3 x 100,000
    before = _written(team)
    client.force_login(team.coach.user)
    response = client.post(url, {"game": game.pk, "position": Position.objects.get(name="Dwarf Blocker Lineman").pk})
    assert response.status_code == 400
    assert "A Dwarf Blocker Lineman costs 70,000 gp; the Treasury holds 55,000 gp (15,000 gp short)." in \
        response.content.decode()
    assert _written(team) == before and team.treasury() == treasury == 55_000


def test_a_team_without_journeymen_is_told_so(client, team):
    _, page_url = _urls(team)
    client.force_login(team.coach.user)
    assert "No approved game of this team fielded Journeymen." in client.get(page_url).content.decode()

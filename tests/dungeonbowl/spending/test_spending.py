"""Spending after a game (DB-12) through the services and the team page, every
role; a correction after the gold was spent; the ledger reconciles."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest
from django.urls import reverse

from league.services import results as engine
from league.dungeonbowl.spending import services as spending
from league.dungeonbowl.models import Player, Position, Team, TreasuryLine
from league.models import Fixture, Result
from tests.dungeonbowl.builders import db_season
from tests.support.factories import PASSWORD, CoachFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def team(organiser):
    db_season(organiser, teams=4)
    return Team.objects.get(name="Team 01")  # Fire: 8 players (555,000) and 2 re-rolls: 345,000 gp left


def test_hire_buy_and_fire(team):
    ogre = Position.objects.get(name="Ogre Blocker")
    player = spending.hire_player(team=team, position=ogre, name="Big Lug", by=team.coach.user)
    assert (player.number, team.treasury()) == (9, 345_000 - 140_000)
    spending.buy_reroll(team=team, by=team.coach.user)
    spending.buy_reroll(team=team, by=team.coach.user)
    with pytest.raises(ValidationError, match="costs 100,000 gp; the Treasury holds 5,000 gp"):
        spending.buy_reroll(team=team, by=team.coach.user)
    with pytest.raises(ValidationError, match="90,000 gp short"):
        spending.hire_player(team=team, position=Position.objects.get(name="Troll Slayer"), by=team.coach.user)
    spending.fire_player(player=player, by=team.coach.user)
    assert not team.players.on_draft_list().filter(pk=player.pk).exists() and team.treasury() == 5_000


def test_only_the_coach_or_commissioner_spends(team, organiser):
    with pytest.raises(PermissionDenied):
        spending.buy_reroll(team=team, by=CoachFactory().user)
    assert spending.buy_reroll(team=team, by=organiser).rerolls == 3


def test_a_correction_after_gold_was_spent(organiser, team):
    fixture = Fixture.objects.filter(round__season__league=team.league, home__dungeonbowl__team=team).first() or \
        Fixture.objects.filter(round__season__league=team.league, away__dungeonbowl__team=team).first()
    side = "home" if fixture.home.dungeonbowl.team == team else "away"
    winner = {"home": (1, 0), "away": (0, 1)}[side]
    result = engine.record_result(fixture=fixture, by=organiser, reason="sheet", home_score=winner[0], away_score=winner[1],
                                  ending="touchdown", home_gather=0, away_gather=0, home_journeymen=0, away_journeymen=0,
                                  dice=[6, 6])
    assert team.treasury() == 345_000 + 60_000
    for _ in range(4):
        spending.buy_reroll(team=team, by=team.coach.user)
    assert team.treasury() == 5_000
    engine.reopen_result(result=result, by=organiser, reason="wrong game")
    assert team.treasury() == 5_000 - 60_000  # the gold is taken back even though spent
    team.refresh_from_db()
    assert team.rerolls == 6  # what was bought stays bought
    with pytest.raises(ValidationError, match="short"):
        spending.hire_player(team=team, position=Position.objects.get(name="Gnoblar Lineman"), by=team.coach.user)


def test_journeymen_who_played_join_permanently(organiser, team):
    fixture = Fixture.objects.filter(round__season__league=team.league, home__dungeonbowl__team=team).first()
    result = engine.record_result(fixture=fixture, by=organiser, reason="sheet", home_score=1, away_score=0,
                                  ending="touchdown", home_gather=0, away_gather=0, home_journeymen=1,
                                  away_journeymen=0, dice=[1, 1])
    gnoblar = Position.objects.get(name="Gnoblar Lineman")
    spending.hire_journeyman(team=team, result=result, position=gnoblar, name="Snik", by=team.coach.user)
    with pytest.raises(ValidationError, match="fielded 1 Journeymen in that game and has hired 1"):
        spending.hire_journeyman(team=team, result=result, position=gnoblar, by=team.coach.user)


def test_team_page_forms_for_every_role(client, organiser, team):
    url = reverse("dungeonbowl:buy_reroll", args=[team.league.slug, team.slug])
    page_url = reverse("dungeonbowl:team_detail", args=[team.league.slug, team.slug])
    assert client.post(url).status_code == 302 and team.treasury() == 345_000  # anonymous: to the login page
    assert "Buy a team re-roll" not in client.get(page_url).content.decode()
    stranger = CoachFactory(name="Nobody")
    client.login(request=HttpRequest(), username=stranger.user.username, password=PASSWORD)
    assert client.post(url).status_code == 403
    client.logout()
    wrong = Team.objects.get(name="Team 02").coach
    client.login(request=HttpRequest(), username=wrong.user.username, password=PASSWORD)
    assert client.post(url).status_code == 403 and team.treasury() == 345_000
    client.logout()
    client.login(request=HttpRequest(), username=team.coach.user.username, password=PASSWORD)
    assert "Buy a team re-roll" in client.get(page_url).content.decode()
    response = client.post(url, follow=True)
    assert "bought" in response.content.decode() and team.treasury() == 245_000
    hire = reverse("dungeonbowl:hire_player", args=[team.league.slug, team.slug])
    response = client.post(hire, {"position": Position.objects.get(name="Gnoblar Lineman").pk, "name": "Snotling"}, follow=True)
    assert "Hired" in response.content.decode() and team.players.filter(name="Snotling").exists()
    response = client.post(hire, {"position": "garbage"}, follow=True)
    assert response.status_code == 200 and "Choose a position" in response.content.decode()
    client.logout()
    client.login(request=HttpRequest(), username=organiser.username, password=PASSWORD)
    fire = reverse("dungeonbowl:fire_player", args=[team.league.slug, team.slug])
    snot = team.players.get(name="Snotling")
    # Firing is asked first, naming the player; the first click writes nothing.
    page = client.post(fire, {"player": snot.pk})
    text = page.content.decode()
    assert page.status_code == 200 and "Fire #" in text and "Snotling" in text and "no gold" in text
    assert f'name="player" value="{snot.pk}"' in text and 'name="confirmed" value="yes"' in text
    snot.refresh_from_db()
    assert snot.status == Player.Status.ACTIVE
    assert client.post(fire, {"player": "garbage"}).status_code == 302  # a bad choice: back with the reason
    client.post(fire, {"player": snot.pk, "confirmed": "yes"})
    snot.refresh_from_db()
    assert snot.status == Player.Status.FIRED


def test_the_treasury_reconciles_after_a_season(organiser):
    season = db_season(organiser, teams=4)
    for fixture in Fixture.objects.filter(round__season=season).with_related():
        engine.record_result(fixture=fixture, by=organiser, reason="sheet", home_score=0, away_score=0,
                             ending="draw", home_gather=fixture.pk % 6, away_gather=1, home_journeymen=0, away_journeymen=0)
    for team in Team.objects.all():
        lines = TreasuryLine.objects.filter(team=team)
        by_cause = {}
        for line in lines:
            by_cause.setdefault(line.kind, 0)
            by_cause[line.kind] += line.amount
        assert team.treasury() == sum(by_cause.values())
        results = Result.objects.filter(fixture__round__season=season)
        caused = sum(line.amount for line in lines if line.cause_id and line.cause in results)
        draft = sum(line.amount for line in lines if line.kind == "draft")
        assert team.treasury() == draft + caused and caused > 0

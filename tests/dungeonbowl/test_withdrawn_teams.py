"""LG-2 in a Dungeon Bowl league: a withdrawn team keeps its place in the standings
but is offered for no friendly and seeded into no play-off; its place goes to the
next eligible team in table order (DB-5b)."""

import datetime

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.urls import reverse

from league.dungeonbowl.models import PlayoffGame
from league.models import Entry, Fixture
from league.people import entrants as entrant_services
from league.services import seasons as season_services
from tests.dungeonbowl.builders import db_league, db_season
from league.dungeonbowl import seasons as db_seasons
from league.services import results as engine
from tests.dungeonbowl.playoff_builders import facts, play_regular

pytestmark = pytest.mark.django_db

RANK = ["Team 01", "Team 02", "Team 03", "Team 04", "Team 05"]


@pytest.fixture
def season(organiser):
    """One division of five, every regular game played (01 > 02 > ... > 05), then
    Team 02 withdraws: its approved results stand."""
    season = db_season(organiser, teams=5, playoffs=1)
    play_regular(season, organiser, RANK)
    entrant_services.withdraw(entry=Entry.objects.get(season=season, team="Team 02"), by=organiser)
    return season


def test_the_play_offs_seed_the_next_eligible_team_instead(client, organiser, season):
    client.force_login(organiser)
    page = client.get(reverse("dungeonbowl:playoffs", args=[season.league.slug])).content.decode()
    assert "Team 05" in page
    response = client.post(reverse("dungeonbowl:start_playoffs", args=[season.league.slug]), follow=True)
    assert "The play-offs have started: Team 01 v Team 05; Team 03 v Team 04." in response.content.decode()
    semis = PlayoffGame.objects.filter(season=season).select_related("fixture__home", "fixture__away")
    assert sorted((g.fixture.home.team, g.fixture.away.team) for g in semis) == [
        ("Team 01", "Team 05"), ("Team 03", "Team 04")]


def test_the_friendly_page_offers_no_withdrawn_team(client, organiser, season):
    gone = Entry.objects.get(season=season, team="Team 02")
    other = Entry.objects.get(season=season, team="Team 03")
    url = reverse("league:add_friendly", args=[season.league.slug])
    client.force_login(organiser)
    page = client.get(url).content.decode()
    assert "Team 03" in page and "Team 02" not in page
    friendlies = Fixture.objects.filter(stage=Fixture.Stage.FRIENDLY)
    day = (datetime.date.today() + datetime.timedelta(days=7)).isoformat()
    for home, away in [(gone, other), (other, gone)]:
        refused = client.post(url, {"home": home.pk, "away": away.pk, "date": day})
        assert refused.status_code == 400 and "Select a valid choice" in refused.content.decode()
    assert not friendlies.exists()
    assert client.post(url, {"home": other.pk, "away": Entry.objects.get(season=season, team="Team 04").pk,
                             "date": day}).status_code == 302
    assert friendlies.count() == 1


def test_the_friendly_service_refuses_a_withdrawn_team(organiser, season):
    gone = Entry.objects.get(season=season, team="Team 02")
    with pytest.raises(ValidationError, match="Coach of Team 02 has withdrawn from Season 1"):
        season_services.add_friendly(season=season, by=organiser, home=gone,
                                     away=Entry.objects.get(season=season, team="Team 03"),
                                     date=datetime.date.today() + datetime.timedelta(days=7))
    assert not Fixture.objects.filter(stage=Fixture.Stage.FRIENDLY).exists()


def test_a_withdrawn_teams_unplayed_games_are_named_by_the_team(client, organiser, django_capture_on_commit_callbacks):
    """LG-2 in a league that names sides by team: the page, the table and the
    opponent's mail say which team withdrew."""
    season = db_season(organiser, teams=4)
    gone = Entry.objects.select_related("coach").get(season=season, team="Team 02")
    fixture = Fixture.objects.filter(home=gone).matches().select_related("away__coach").first() or (
        Fixture.objects.filter(away=gone).select_related("home__coach").first())
    opponent = fixture.away if fixture.home_id == gone.pk else fixture.home
    with django_capture_on_commit_callbacks(execute=True):
        entrant_services.withdraw(entry=gone, by=organiser)
    page = client.get(fixture.get_absolute_url()).content.decode()
    assert "Not played: Team 02 withdrew" in page and f"Team 02 ({gone.coach}) withdrew from Season 1" in page
    round_page = client.get(reverse("league:fixtures", args=[season.league.slug]), {"round": fixture.round.number})
    assert "not played: Team 02 withdrew" in round_page.content.decode()
    (message,) = [m for m in mail.outbox if m.to == [opponent.coach.email]]
    assert message.subject == f"[{season.league.name}] Team 02 withdrew: your match is not played"
    assert f"Team 02 ({gone.coach}) has withdrawn from {season.league.name} (Season 1)." in message.body


def test_a_team_withdrawn_mid_season_keeps_neither_the_play_offs_nor_the_off_season_waiting(client, organiser):
    """LG-2: its cancelled games are never played, so once every other game is
    approved the play-offs may start (DB-5b), and in a league without play-offs
    the season is over (DB-3)."""
    season = db_season(organiser, teams=5, playoffs=1)
    entrant_services.withdraw(entry=Entry.objects.get(season=season, team="Team 02"), by=organiser)
    regular = Fixture.objects.filter(round__season=season, stage=Fixture.Stage.REGULAR, away__isnull=False)
    assert regular.filter(cancelled_by__isnull=False).count() == 4
    for fixture in regular.to_play().with_related():
        winner = "home" if RANK.index(fixture.home.team) < RANK.index(fixture.away.team) else "away"
        engine.record_result(fixture=fixture, by=organiser, reason="result sheet", **facts(winner))
    client.force_login(organiser)
    response = client.post(reverse("dungeonbowl:start_playoffs", args=[season.league.slug]), follow=True)
    assert "The play-offs have started: Team 01 v Team 05; Team 03 v Team 04." in response.content.decode()

    plain = db_season(organiser, teams=4, prefix="Side", league=db_league(organiser, slug="plain"))
    entrant_services.withdraw(entry=Entry.objects.get(season=plain, team="Side 02"), by=organiser)
    assert not db_seasons.season_over(plain)
    for fixture in Fixture.objects.filter(round__season=plain, away__isnull=False).to_play().with_related():
        engine.record_result(fixture=fixture, by=organiser, reason="result sheet", **facts("home"))
    assert db_seasons.season_over(plain)

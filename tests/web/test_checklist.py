"""The season checklist on the organiser's dashboard: each item appears
when it waits and goes once it is done, for every game; its one-click actions for
every role; "nothing waits" only when nothing does; the league list's "N to do"
the same number as the dashboard's."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse

from campaigns import setup
from campaigns.finalday import services as titles
from league import selectors
from league.web import dashboard
from league.dungeonbowl.playoffs import services as playoffs
from league.dungeonbowl.redraft import services as redraft
from league.dungeonbowl.teams import services as db_services
from league.dungeonbowl.models import College, Team
from league.models import Entry, Fixture, Result, Round, Season
from tests.support.builders import season_with_results, today_plus
from tests.dungeonbowl.builders import db_league, db_season, db_team
from tests.dungeonbowl.offseason import finished_season
from tests.dungeonbowl.playoff_builders import play_regular
from tests.support.factories import CoachFactory, EntryFactory, LeagueFactory, SeasonFactory

pytestmark = pytest.mark.django_db


def items(league) -> dict[str, dashboard.Item]:
    """The league's checklist as the dashboard and the league list count it."""
    league.current = selectors.season_for(league)
    return {item.key: item for item in dashboard.waiting([league])[league.pk].checklist}


def dashboard_page(client, league) -> str:
    return client.get(reverse("league:organiser_dashboard", args=[league.slug])).content.decode()


def to_do(client, league) -> tuple[int, int]:
    """What the dashboard says waits, and what the league list says, as numbers
    (0 for "nothing waits on you" and "all clear")."""
    page = dashboard_page(client, league)
    here = re.search(r'id="waiting-total">[^<]*?(\d+) things? to look at', page)
    assert here or "nothing waits on you" in page
    listing = client.get(reverse("league:league_list"), {"q": league.name}).content.decode()
    there = re.search(r"(\d+) to do", listing)
    assert there or "all clear" in listing
    return int(here.group(1)) if here else 0, int(there.group(1)) if there else 0


@pytest.fixture
def gb_league(organiser):
    return LeagueFactory(name="Checklist Guild Ball", slug="checklist-gb", organisers=[organiser])


# The engine's items, for every game -----------------------------------------------------


@pytest.mark.parametrize("game, entrants_rule, fixtures_rule", [("guildball", "GB-2", "GB-4"), ("dreadball", "", "")])
def test_entrants_then_fixtures_for_a_game_of_coaches(client, organiser, game, entrants_rule, fixtures_rule):
    """Each item cites the league's game's rule, and none where the game has none
    (DreadBall's rules say nothing of entrants or fixtures)."""
    league = LeagueFactory(name=f"Checklist {game}", slug=f"checklist-{game}", game_system=game, organisers=[organiser])
    season = SeasonFactory(league=league, name="Season 1", start_date=today_plus(7))
    EntryFactory(season=season)
    found = items(league)
    assert list(found) == ["entrants"] and found["entrants"].rule == entrants_rule
    assert found["entrants"].url == reverse("league:season_setup", args=[league.slug])
    client.force_login(organiser)
    page = dashboard_page(client, league)
    assert "Entrants missing" in page and f'href="{found["entrants"].url}"' in page and "nothing waits" not in page
    EntryFactory(season=season)
    found = items(league)
    assert list(found) == ["fixtures"] and found["fixtures"].post and found["fixtures"].rule == fixtures_rule
    assert to_do(client, league) == (1, 1)
    response = client.post(found["fixtures"].url)
    assert response.status_code == 302 and response["Location"] == reverse("league:organiser_dashboard", args=[league.slug])
    assert Round.objects.filter(season=season).count() == 1
    assert "Fixtures generated for Season 1" in dashboard_page(client, league)
    assert items(league) == {}
    assert to_do(client, league) == (0, 0)


def test_a_league_without_a_season_opens_its_first(client, organiser, gb_league):
    found = items(gb_league)
    assert list(found) == ["next_season"]
    client.force_login(organiser)
    assert to_do(client, gb_league) == (1, 1)
    client.post(found["next_season"].url)
    season = Season.objects.get(league=gb_league)
    assert season.name == "Season 1" and not season.entries.exists()
    assert list(items(gb_league)) == ["entrants"]


def test_a_season_over_opens_the_next_with_its_coaches(client, organiser, gb_league):
    """Guild Ball: every League Match approved, the Final Day (GB-26) and the next
    season wait; the next season opens with the same coaches, without fixtures."""
    season = season_with_results(coaches=4, played_rounds=3, season=SeasonFactory(
        league=gb_league, name="Season 1", start_date=datetime.date(2025, 1, 6)))
    found = items(gb_league)
    assert set(found) == {"next_season", "final_day"}
    assert found["final_day"].url == reverse("campaigns:declare_final_day", args=[gb_league.slug])
    client.force_login(organiser)
    page = dashboard_page(client, gb_league)
    assert "Final Day is not declared" in page and "Declare the Final Day" in page and "GB-26" in page
    assert to_do(client, gb_league) == (2, 2)
    titles.declare_final_day(campaign=setup.ensure_campaign(season), by=organiser)
    assert set(items(gb_league)) == {"next_season"}
    client.post(found["next_season"].url)
    new = selectors.season_for(gb_league)
    assert new.name == "Season 2" and new.pk != season.pk and new.start_date >= datetime.date.today()
    assert sorted(new.entries.values_list("coach_id", flat=True)) == sorted(season.entries.values_list("coach_id", flat=True))
    assert list(items(gb_league)) == ["fixtures"]


def test_the_next_season_is_refused_while_the_season_is_played(client, organiser, gb_league):
    season_with_results(coaches=4, played_rounds=1, season=SeasonFactory(league=gb_league, name="Season 1"))
    client.force_login(organiser)
    response = client.post(reverse("league:checklist_next_season", args=[gb_league.slug]), follow=True)
    assert "Season 1 is not over" in response.content.decode()
    assert Season.objects.filter(league=gb_league).count() == 1
    assert "next_season" not in items(gb_league)


def test_generating_fixtures_for_too_few_entrants_is_refused(client, organiser, gb_league):
    season = SeasonFactory(league=gb_league, name="Season 1")
    EntryFactory(season=season)
    client.force_login(organiser)
    response = client.post(reverse("league:checklist_fixtures", args=[gb_league.slug]), follow=True)
    assert "at least two coaches" in response.content.decode()
    assert not Round.objects.filter(season=season).exists()


# Dungeon Bowl ------------------------------------------------------------------------------


def test_divisions_the_play_offs_ask_for_are_drawn_in_one_click(client, organiser):
    """DB-2, DB-5b: a league playing its play-offs over two divisions asks each season
    for two; the draw is one click, then the fixtures."""
    league = db_league(organiser, playoffs=2)
    season = SeasonFactory(league=league, name="Season 1")
    for i in range(8):
        team = db_team(league, f"Team {i + 1:02d}", college="college-of-fire" if i % 2 else "college-of-shadows")
        db_services.lock_draft(team=team, by=organiser)
        db_services.enter_team(team=team, season=season, by=organiser)
    found = items(league)
    assert list(found) == ["divisions"] and found["divisions"].label == "Draw 2 divisions"
    client.force_login(organiser)
    client.post(found["divisions"].url)
    assert season.divisions.count() == 2 and not Entry.objects.filter(season=season, division=None).exists()
    assert list(items(league)) == ["fixtures"]


def test_too_few_entrants_for_the_divisions_says_how_many(organiser):
    league = db_league(organiser, playoffs=2)
    season = SeasonFactory(league=league, name="Season 1")
    for i in range(5):
        team = db_team(league, f"Team {i + 1:02d}")
        db_services.lock_draft(team=team, by=organiser)
        db_services.enter_team(team=team, season=season, by=organiser)
    found = items(league)
    assert set(found) == {"divisions"} and "at least 8 entrants" in found["divisions"].text
    assert not found["divisions"].post


def test_a_team_from_founding_to_its_entry(client, organiser):
    """DB-1, DB-6: a newcomer's team waits for acceptance, its draft to be locked,
    then its entry; each step leaves the checklist once done."""
    league = db_league(organiser)
    season = SeasonFactory(league=league, name="Season 1", start_date=today_plus(7))
    coach = CoachFactory(name="Newcomer")
    team = db_team(league, "Late Arrivals", coach=coach)
    Team.objects.filter(pk=team.pk).update(accepted_at=None, accepted_by=None)  # a newcomer's, as DB-1 has it
    draft = reverse("dungeonbowl:entrants", args=[league.slug])
    found = items(league)
    assert set(found) == {"entrants", "teams_unaccepted"} and found["teams_unaccepted"].url == draft
    db_services.accept_team(team=team, by=organiser)
    assert set(items(league)) == {"entrants", "drafts_unlocked"}
    db_services.lock_draft(team=team, by=organiser)
    assert set(items(league)) == {"entrants", "teams_not_entered"}
    db_services.enter_team(team=team, season=season, by=organiser)
    assert set(items(league)) == {"entrants"}
    client.force_login(organiser)
    page = dashboard_page(client, league)
    assert "at least 4 teams" in page


def test_a_draft_not_submitted_waits(organiser):
    league = db_league(organiser)
    SeasonFactory(league=league, name="Season 1")
    coach = CoachFactory(name="Slow Drafter")
    db_services.create_team(league=league, coach=coach, name="Not Yet",
                             college=College.objects.get(slug="college-of-fire"), by=organiser)
    assert "drafts_unsubmitted" in items(league)


def test_a_new_season_with_drafts_unlocked_is_not_nothing_waits(client, organiser):
    """A new Dungeon Bowl season whose drafts are not locked once said "nothing
    waits"."""
    season = db_season(organiser, teams=4)
    Fixture.objects.filter(round__season=season).update(date=today_plus(30))
    league = season.league
    found = items(league)
    assert list(found) == ["drafts_unlocked"] and found["drafts_unlocked"].count == 4
    client.force_login(organiser)
    assert to_do(client, league) == (4, 4)
    for team in Team.objects.filter(league=league):
        db_services.lock_draft(team=team, by=organiser)
    assert items(league) == {}
    assert to_do(client, league) == (0, 0)


def test_an_entrant_without_a_team_waits(organiser):
    """A dead end: a coach entered in a Dungeon Bowl season without a team."""
    league = db_league(organiser)
    season = SeasonFactory(league=league, name="Season 1")
    EntryFactory(season=season)
    found = items(league)
    assert found["teams_missing"].count == 1 and "no Dungeon Bowl team" in found["teams_missing"].text


def test_the_off_season_counts_the_teams_still_to_redraft(client, organiser):
    """The off-season once said "all clear" with 7 teams to re-draft (DB-15)."""
    season = finished_season(organiser, teams=6)
    league = season.league
    for team in Team.objects.filter(league=league):
        db_services.lock_draft(team=team, by=organiser)
    found = items(league)
    assert set(found) == {"redrafts", "next_season"} and found["redrafts"].count == 6
    assert found["next_season"].url == found["redrafts"].url == reverse("dungeonbowl:next_season", args=[league.slug])
    client.force_login(organiser)
    assert to_do(client, league) == (7, 7)
    for team in Team.objects.filter(league=league):
        redraft.retire_team(team=team, by=organiser)
    assert set(items(league)) == {"next_season"}


def test_play_offs_ready_to_seed(organiser):
    season = db_season(organiser, teams=4, playoffs=1)
    league = season.league
    for team in Team.objects.filter(league=league):
        db_services.lock_draft(team=team, by=organiser)
    assert items(league) == {}
    play_regular(season, organiser, ["Team 01", "Team 02", "Team 03", "Team 04"])
    found = items(league)
    assert list(found) == ["playoffs"] and found["playoffs"].url == reverse("dungeonbowl:playoffs", args=[league.slug])
    playoffs.start_playoffs(season=season, by=organiser)
    assert items(league) == {}


# "Nothing waits", and the same count on the list and the dashboard -----------------------------


def test_nothing_waits_only_when_nothing_does(client, organiser, gb_league):
    season = season_with_results(coaches=4, played_rounds=0, season=SeasonFactory(
        league=gb_league, name="Season 1", start_date=today_plus(7)))
    client.force_login(organiser)
    assert "nothing waits on you" in dashboard_page(client, gb_league)
    assert to_do(client, gb_league) == (0, 0)
    fixture = Fixture.objects.filter(round__season=season).matches().first()
    Result.objects.create(fixture=fixture, home_score=12, away_score=3, outcome="home", summary="12 – 3",
                          status=Result.Status.CONFIRMED)
    assert "nothing waits on you" not in dashboard_page(client, gb_league)
    assert to_do(client, gb_league) == (1, 1)


# Who may press the one-click steps ------------------------------------------------------------


@pytest.mark.parametrize("role", ["anonymous", "wrong coach", "right coach", "other organiser", "organiser"])
@pytest.mark.parametrize("name", ["league:checklist_fixtures", "league:checklist_next_season",
                                  "league:checklist_divisions"])
def test_only_the_leagues_organiser_takes_a_step(client, organiser, other_organiser, role, name):
    league = db_league(organiser, playoffs=2) if name == "league:checklist_divisions" else \
        LeagueFactory(slug="steps", organisers=[organiser])
    if name == "league:checklist_next_season":
        season = season_with_results(coaches=4, played_rounds=3, season=SeasonFactory(
            league=league, name="Season 1", start_date=datetime.date(2025, 1, 6)))
    else:
        season = SeasonFactory(league=league, name="Season 1")
        for i in range(8):
            if league.game_system == "dungeonbowl":
                db_services.enter_team(team=db_team(league, f"Team {i + 1:02d}"), season=season, by=organiser)
            else:
                EntryFactory(season=season)
    other_coach = CoachFactory()  # a coach of another league
    EntryFactory(season=SeasonFactory(), coach=other_coach)
    users = {"anonymous": None, "wrong coach": other_coach.user,
             "right coach": season.entries.select_related("coach__user").first().coach.user,
             "other organiser": other_organiser, "organiser": organiser}
    if users[role] is not None:
        client.force_login(users[role])
    before = (Season.objects.count(), Round.objects.count(), season.divisions.count())
    url = reverse(name, args=[league.slug])
    got, posted = client.get(url), client.post(url)
    after = (Season.objects.count(), Round.objects.count(), season.divisions.count())
    if role == "anonymous":
        assert got.status_code == posted.status_code == 302 and reverse("login") in posted["Location"]
    elif role != "organiser":
        assert got.status_code == posted.status_code == 403
    if role != "organiser":
        assert after == before
        return
    back = reverse("league:organiser_dashboard", args=[league.slug])
    assert got.status_code == posted.status_code == 302 and posted["Location"] == back
    changed = {"league:checklist_fixtures": 1, "league:checklist_next_season": 0,
               "league:checklist_divisions": 2}[name]
    assert after[changed] > before[changed]

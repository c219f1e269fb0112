"""DB-1 (at least 4 teams on every path that starts a
season), DB-2 (divisions as equal as possible on every path) and DB-5a (a fixture
between two divisions is a friendly however it was made; the organiser adds one
from the site)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.urls import reverse

from league.services import seasons as season_services
from league.dungeonbowl.teams import services
from league.models import Division, Entry, Fixture, Result, Round, Season
from league.standings.season import standings_for
from tests.dungeonbowl.builders import db_league, db_season, db_team
from tests.dungeonbowl.playoff_builders import facts
from tests.dungeonbowl.test_import_teams import eight_teams, league_file, team_lines
from tests.support.factories import CoachFactory, SeasonFactory, UserFactory, with_organiser

pytestmark = pytest.mark.django_db


def entered(organiser, count: int, *, league=None, divisions: dict[str, int] | None = None) -> Season:
    """A season of ``count`` drafted and entered teams, no fixtures yet; with
    ``divisions`` (name -> size) each team is entered in its division."""
    league = league or db_league(organiser)
    season = SeasonFactory(league=league, name="Season 1")
    slots = [name for name, size in (divisions or {}).items() for _ in range(size)]
    for i in range(count):
        division = Division.objects.get_or_create(season=season, name=slots[i])[0] if slots else None
        team = db_team(league, f"Team {i + 1:02d}", college="college-of-fire" if i % 2 == 0 else "college-of-shadows")
        services.enter_team(team=team, season=season, by=organiser, division=division)
    return season


# DB-1 ------------------------------------------------------------------------------


def test_db1_fixtures_for_three_teams_are_refused_with_the_reason(organiser):
    season = entered(organiser, 3)
    with pytest.raises(ValidationError, match=r"at least 4 teams; this season has 3 teams"):
        season_services.generate_fixtures(season=season, by=organiser)
    assert not Round.objects.filter(season=season).exists()


def test_db1_the_admins_generate_fixtures_refuses_three_teams(client, organiser):
    season = entered(organiser, 3)
    client.force_login(organiser)
    response = client.post(reverse("admin:league_season_changelist"),
                           {"action": "generate_fixtures", ACTION_CHECKBOX_NAME: [season.pk]}, follow=True)
    texts = " ".join(str(m) for m in response.context["messages"])
    assert "at least 4 teams" in texts
    assert not Fixture.objects.exists()


def test_db1_a_teams_import_of_three_teams_is_refused_and_writes_nothing(tmp_path):
    lines = eight_teams()[: 11 * 3]  # Teams 1 to 3, no divisions
    lines = [line.replace(",North,", ",,") for line in lines]
    with pytest.raises(CommandError, match=r"line 34: A Dungeon Bowl league has at least 4 teams"):
        call_command("import_teams", str(league_file(tmp_path, lines)), *with_organiser(()), stdout=StringIO())
    assert not Season.objects.exists() and not Entry.objects.exists()


def test_db1_a_results_import_into_a_season_of_three_teams_is_refused(tmp_path, organiser):
    season = entered(organiser, 3)
    path = tmp_path / "results.csv"
    path.write_text("league,round,home,away,home_td,away_td,home_cas,away_cas,status,dice,home_gather,away_gather\n"
                    f"{season.league.name},1,Team 01,Team 02,1,0,0,0,played,5 3,0,0\n", encoding="utf-8")
    with pytest.raises(CommandError, match=r"line 2: A Dungeon Bowl league has at least 4 teams"):
        call_command("import_results", str(path), "--by", organiser.username, "--season", "Season 1", stdout=StringIO())
    assert not Fixture.objects.exists() and not Result.objects.exists()


def test_db1_four_teams_start(organiser):
    season = entered(organiser, 4)
    assert len(season_services.generate_fixtures(season=season, by=organiser, seed=1)) == 3


# DB-2 ------------------------------------------------------------------------------


def test_db2_the_organisers_own_split_differs_by_at_most_one(organiser):
    season = entered(organiser, 10)
    entries = list(season.entries.order_by("pk"))
    with pytest.raises(ValidationError, match=r"as equal in size as possible: 10 entries in 2 divisions split 5/5, not 6/4 \(DB-2\)\."):
        season_services.set_season_divisions(season=season, by=organiser,
                                             divisions={"North": entries[:6], "South": entries[6:]})
    assert not season.divisions.exists()
    season_services.set_season_divisions(season=season, by=organiser,
                                         divisions={"North": entries[:5], "South": entries[5:]})
    assert sorted(d.entries.count() for d in season.divisions.all()) == [5, 5]


def test_db2_entries_placed_one_by_one_are_checked_before_the_fixtures(organiser):
    """The admin's entry-by-entry placing (or the entry form's) reaches the fixtures
    only as equal as possible."""
    season = entered(organiser, 10, divisions={"North": 6, "South": 4})
    with pytest.raises(ValidationError, match="split 5/5, not 6/4"):
        season_services.generate_fixtures(season=season, by=organiser)
    assert not Fixture.objects.exists()


def test_db2_a_teams_import_of_6_and_4_is_refused(tmp_path):
    lines = eight_teams() + team_lines("Team 9", "Coach 9", "College of Fire", "North") + team_lines(
        "Team 10", "Coach 10", "College of Shadows", "North")
    with pytest.raises(CommandError, match="split 5/5, not 6/4"):
        call_command("import_teams", str(league_file(tmp_path, lines)), *with_organiser(()), stdout=StringIO())
    assert not Entry.objects.exists()
    fair = eight_teams() + team_lines("Team 9", "Coach 9", "College of Fire", "North")
    call_command("import_teams", str(league_file(tmp_path, fair, "fair.csv")), *with_organiser(()), stdout=StringIO())
    assert sorted(d.entries.count() for d in Division.objects.all()) == [4, 5]


# DB-5a -----------------------------------------------------------------------------


@pytest.fixture
def divided(organiser):
    """Eight teams in two divisions (Team 01, 03, 05, 07 and 02, 04, 06, 08) with
    their fixtures."""
    season = entered(organiser, 8)
    entries = {e.team: e for e in season.entries.all()}
    season_services.set_season_divisions(season=season, by=organiser, divisions={
        "North": [entries[f"Team {n:02d}"] for n in (1, 3, 5, 7)],
        "South": [entries[f"Team {n:02d}"] for n in (2, 4, 6, 8)],
    })
    season_services.generate_fixtures(season=season, by=organiser, seed=5)
    return season, entries


def _table(season):
    return {row.team: (row.played, row.lp) for row in standings_for(season)}


def test_db5a_a_fixture_added_in_the_admin_between_divisions_is_a_friendly(client, organiser, divided):
    season, entries = divided
    before = _table(season)
    rnd = season.rounds.get(number=1)
    client.force_login(organiser)
    response = client.post(reverse("admin:league_fixture_add"), {
        "round": rnd.pk, "home": entries["Team 01"].pk, "away": entries["Team 02"].pk, "date": rnd.date.isoformat(),
        "events-TOTAL_FORMS": 0, "events-INITIAL_FORMS": 0})
    assert response.status_code == 302, response.content.decode()[:3000]
    fixture = Fixture.objects.get(home=entries["Team 01"], away=entries["Team 02"])
    assert fixture.stage == Fixture.Stage.FRIENDLY
    from league.services import results as engine

    engine.record_result(fixture=fixture, by=organiser, reason="friendly night", **facts("home"))
    assert Result.objects.get(fixture=fixture).is_approved
    assert _table(season) == before  # no League points, no game played in the table


def test_db5a_an_imported_line_between_divisions_is_a_friendly(tmp_path, organiser, divided):
    season, _ = divided
    path = tmp_path / "results.csv"
    path.write_text("league,round,home,away,home_td,away_td,home_cas,away_cas,status,dice,home_gather,away_gather\n"
                    f"{season.league.name},4,Team 01,Team 02,1,0,0,0,played,5 3,0,0\n", encoding="utf-8")
    before = _table(season)
    call_command("import_results", str(path), "--by", organiser.username, "--season", "Season 1", stdout=StringIO())
    fixture = Fixture.objects.get(home__team="Team 01", away__team="Team 02")
    assert fixture.stage == Fixture.Stage.FRIENDLY and fixture.result.is_approved
    assert _table(season) == before


def test_db5a_a_regular_fixture_within_a_division_stays_regular(organiser, divided):
    season, entries = divided
    assert not Fixture.objects.filter(round__season=season).exclude(stage=Fixture.Stage.REGULAR).exists()
    rnd = season.rounds.order_by("-number").first()
    late = Fixture.objects.create(round=rnd, home=entries["Team 01"], away=entries["Team 03"], date=rnd.date,
                                  stage=Fixture.Stage.FRIENDLY)
    assert late.stage == Fixture.Stage.FRIENDLY
    playoff = Fixture.objects.create(round=rnd, home=entries["Team 01"], away=entries["Team 02"], date=rnd.date,
                                     stage=Fixture.Stage.PLAYOFF)
    assert playoff.stage == Fixture.Stage.PLAYOFF  # a play-off keeps its stage (DB-5b)


def test_db5a_the_friendly_page_answers_only_the_organiser(client, organiser, other_organiser, divided):
    season, entries = divided
    url = reverse("league:add_friendly", args=[season.league.slug])
    rnd = season.rounds.get(number=2)
    data = {"home": entries["Team 01"].pk, "away": entries["Team 02"].pk, "date": rnd.date.isoformat()}
    assert client.get(url).status_code == 302  # anonymous: log in
    assert client.post(url, data).status_code == 302 and not Fixture.objects.filter(stage="friendly").exists()
    coach = entries["Team 01"].coach
    outsider = CoachFactory(name="Nobody").user
    for user in (coach.user, outsider, other_organiser):
        client.force_login(user)
        assert client.get(url).status_code == 403
        assert client.post(url, data).status_code == 403
    assert not Fixture.objects.filter(stage="friendly").exists()

    client.force_login(organiser)
    page = client.get(url).content.decode()
    assert "Add a friendly" in page and "Team 01 (" in page and "North" in page
    response = client.post(url, data)
    friendly = Fixture.objects.get(stage=Fixture.Stage.FRIENDLY)
    assert response.status_code == 302 and response["Location"] == friendly.get_absolute_url()
    assert (friendly.home, friendly.away, friendly.date, friendly.round) == (entries["Team 01"], entries["Team 02"], rnd.date, rnd)
    assert "Friendly" in client.get(friendly.get_absolute_url()).content.decode()


def test_db5a_a_bad_friendly_is_a_form_error_and_writes_nothing(client, organiser, divided):
    season, entries = divided
    url = reverse("league:add_friendly", args=[season.league.slug])
    rival = UserFactory(username="nuln-commissioner")
    stranger = db_season(rival, league=db_league(rival, slug="nuln"), prefix="Nuln").entries.first()
    client.force_login(organiser)
    before = Fixture.objects.count()
    same = client.post(url, {"home": entries["Team 01"].pk, "away": entries["Team 01"].pk, "date": "2026-05-01"})
    assert same.status_code == 400 and "two different sides" in same.content.decode()
    foreign = client.post(url, {"home": entries["Team 01"].pk, "away": stranger.pk, "date": "2026-05-01"})
    assert foreign.status_code == 400 and "Select a valid choice" in foreign.content.decode()
    far = client.post(url, {"home": entries["Team 01"].pk, "away": entries["Team 02"].pk, "date": "1066-10-14"})
    assert far.status_code == 400
    assert Fixture.objects.count() == before


def test_db5a_another_games_league_has_no_friendly_page(client, organiser, league):
    client.force_login(organiser)
    assert client.get(reverse("league:add_friendly", args=[league.slug])).status_code == 404

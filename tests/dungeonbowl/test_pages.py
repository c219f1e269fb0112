"""Dungeon Bowl pages and feeds through the client, for every role."""

import re

import pytest
from django.db import connection
from django.http import HttpRequest
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.services import results as engine
from league.dungeonbowl.models import Position, Team
from league.models import Fixture
from league.templatetags.site_tags import badge_index
from tests.dungeonbowl.builders import db_league, db_season
from tests.support.factories import PASSWORD, CoachFactory, FixtureFactory

pytestmark = pytest.mark.django_db


def login(client, user):
    assert client.login(request=HttpRequest(), username=user.username, password=PASSWORD)


def play(season, organiser, rounds=1):
    for fixture in Fixture.objects.with_related().filter(round__season=season, round__number__lte=rounds):
        engine.record_result(fixture=fixture, by=organiser, reason="sheet", home_score=1, away_score=0,
                             ending="touchdown", home_gather=1, away_gather=0, home_journeymen=0, away_journeymen=0,
                             dice=[4, 2])


def test_standings_json_and_league_page(client, organiser):
    season = db_season(organiser, teams=8, divisions=2)
    play(season, organiser)
    data = client.get(reverse("league:standings_json", args=["altdorf"])).json()
    assert set(data) == {"league", "season", "standings"}
    row = data["standings"][0]
    assert list(row) == ["division", "position", "tied", "team", "coach", "played", "won", "drawn", "lost", "lp",
                         "td_for", "td_against", "cas_for", "withdrawn_on"]
    assert [r["division"] for r in data["standings"]] == ["Division A"] * 4 + ["Division B"] * 4
    assert [r["position"] for r in data["standings"][:4]] == sorted(r["position"] for r in data["standings"][:4])
    winner = next(r for r in data["standings"] if r["won"])
    assert (winner["lp"], winner["td_for"], winner["played"]) == (3, 1, 1)
    page = client.get(reverse("league:league_detail", args=["altdorf"])).content.decode()
    team = Team.objects.get(name=winner["team"])
    assert reverse("dungeonbowl:team_detail", args=["altdorf", team.slug]) in page
    assert "touchdowns scored, then SPP casualties" in page


def test_team_page_and_json(client, organiser):
    season = db_season(organiser, teams=4)
    play(season, organiser)
    team = Team.objects.get(name="Team 01")
    page = client.get(reverse("dungeonbowl:team_detail", args=["altdorf", team.slug])).content.decode()
    assert "Troll Slayer" in page and "Dauntless" in page and "Treasury:" in page and "Winnings" in page
    data = client.get(reverse("dungeonbowl:team_json", args=["altdorf", team.slug])).json()
    assert list(data) == ["league", "team", "coach", "college", "division", "treasury", "team_value",
                          "current_team_value", "rerolls", "trophy", "honours", "players"]
    assert list(data["players"][0]) == ["name", "number", "position", "value", "ma", "st", "ag", "pa", "av", "skills",
                                        "spp", "mvp_awards", "niggling_injuries", "miss_next_game"]
    assert data["treasury"] == team.treasury() and isinstance(data["treasury"], int)
    assert data["team_value"] == sum(p["value"] for p in data["players"]) + 2 * 50_000
    assert data["trophy"] is False and data["honours"] == []  # DB-14: no champion crowned yet
    assert client.get(reverse("dungeonbowl:team_json", args=["altdorf", "nobody"])).status_code == 404


def test_game_page_and_dice_log(client, organiser):
    season = db_season(organiser, teams=4)
    play(season, organiser)
    fixture = Fixture.objects.filter(round__season=season, round__number=1).first()
    page = client.get(fixture.get_absolute_url()).content.decode()
    assert "Ended by a touchdown" in page and "2D6 4 2" in page
    log = client.get(reverse("dungeonbowl:dice_log", args=["altdorf"])).content.decode()
    assert "Winnings" in log and "rolled at the table (longshanks)" in log


def test_draft_form_for_every_role(client, organiser):
    league = db_league(organiser)
    url = reverse("dungeonbowl:draft", args=[league.slug])
    assert client.get(url).status_code == 302  # anonymous: log in first
    coach = CoachFactory(name="Ulrika")
    login(client, coach.user)
    page = client.get(url + "?college=college-of-shadows").content.decode()
    assert "Dark Elf Blitzer" in page and "1,000,000 gp left" in page
    shadows = {p.name: p.pk for p in Position.objects.filter(college__slug="college-of-shadows")}
    data = {"name": "Night Cats", "rerolls": 2, f"pos_{shadows['Dark Elf Blitzer']}": 3, f"pos_{shadows['Dark Elf Lineman']}": 6, "check": ""}
    page = client.post(url + "?college=college-of-shadows", data).content.decode()
    assert "0-2 Blitzers" in page and "1 too many" in page and not Team.objects.exists()
    data[f"pos_{shadows['Dark Elf Blitzer']}"] = 2
    data.pop("check")
    data["submit"] = ""
    response = client.post(url + "?college=college-of-shadows", data)
    team = Team.objects.get(name="Night Cats")
    assert response.status_code == 302 and team.players.count() == 8 and team.treasury() == 1_000_000 - 200_000 - 420_000 - 100_000
    client.logout()
    login(client, organiser)
    page = client.get(url).content.decode()
    # Ulrika plays in no season of the league yet: locking her draft accepts her team (DB-1).
    assert "Night Cats" in page and "Accept the team and lock its draft" in page
    other = CoachFactory(name="Wrong")
    client.logout()
    login(client, other.user)
    assert client.post(reverse("dungeonbowl:lock_draft", args=[league.slug, team.slug])).status_code == 403
    team.refresh_from_db()
    assert not team.draft_locked
    client.logout()
    login(client, organiser)
    client.post(reverse("dungeonbowl:lock_draft", args=[league.slug, team.slug]))
    team.refresh_from_db()
    assert team.draft_locked


def test_refused_draft_and_new_team_forms_answer_400(client, organiser):
    """A refused form answers 400 with its reasons, as the rest of the
    site does; "Check" of a draft is no refusal (200)."""
    league = db_league(organiser)
    url = reverse("dungeonbowl:draft", args=[league.slug]) + "?college=college-of-shadows"
    login(client, CoachFactory(name="Ulrika").user)
    shadows = {p.name: p.pk for p in Position.objects.filter(college__slug="college-of-shadows")}
    data = {"name": "Night Cats", "rerolls": 2, f"pos_{shadows['Dark Elf Blitzer']}": 3, "check": ""}
    assert client.post(url, data).status_code == 200
    data.pop("check")
    response = client.post(url, {**data, "submit": ""})
    assert response.status_code == 400 and "1 too many" in response.content.decode() and not Team.objects.exists()
    response = client.post(url, {**data, "rerolls": "lots", "submit": ""})
    assert response.status_code == 400 and not Team.objects.exists()
    new = reverse("dungeonbowl:create_team", args=[league.slug])
    response = client.post(new, {"name": "", "college": "nonsense"})
    page = response.content.decode()
    assert response.status_code == 400 and "Name your team." in page and not Team.objects.exists()


def _page_counts(client, season) -> dict[str, int]:
    """Queries per page of ``season``'s league, cold cache, as the commissioner (who
    sees the most: spending forms, the submitted drafts and the entry form)."""
    slug = season.league.slug
    team = Team.objects.filter(league=season.league).order_by("pk").first()
    fixture = Fixture.objects.filter(round__season=season, round__number=1).order_by("pk").first()
    urls = {
        "league page": reverse("league:league_detail", args=[slug]),
        "standings.json": reverse("league:standings_json", args=[slug]),
        "fixtures": reverse("league:fixtures", args=[slug]) + "?round=1",
        "team page": reverse("dungeonbowl:team_detail", args=[slug, team.slug]),
        "team json": reverse("dungeonbowl:team_json", args=[slug, team.slug]),
        "game page": fixture.get_absolute_url(),
        "dice log": reverse("dungeonbowl:dice_log", args=[slug]),
        "draft page": reverse("dungeonbowl:draft", args=[slug]),
    }
    counts = {}
    for name, url in urls.items():
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200, name
        counts[name] = len(queries)
    return counts


def test_query_counts_are_equal_at_4_and_40_teams(client, organiser):
    small = db_season(organiser, teams=4)
    play(small, organiser, rounds=2)
    large = db_season(organiser, teams=40, league=db_league(organiser, slug="nuln"), prefix="Nuln")
    play(large, organiser, rounds=2)
    client.force_login(organiser)
    at_4, at_40 = _page_counts(client, small), _page_counts(client, large)
    assert at_4 == at_40
    assert max(at_4.values()) <= 20, at_4


def test_fixture_lists_and_results_name_the_teams_with_the_coach_under(client, organiser):
    """Dungeon Bowl's fixture lists, results, game page, table and
    calendar lead with the team, its coach under it (as its standings do); a
    Guild Ball league still lists coaches."""
    season = db_season(organiser, teams=4)
    play(season, organiser)
    fixture = Fixture.objects.with_related().filter(round__season=season, round__number=1).first()
    home, away = fixture.home, fixture.away
    side = '<span class="side"><span>{}{}</span> <small>{}</small></span>'
    home_side = side.format(f'<span class="badge b{badge_index(home.team)}" title="{home.team}" aria-hidden="true">'
                            f'{home.team[0]}</span>', home.team, home.coach.name)
    pages = {
        "league page": reverse("league:league_detail", args=["altdorf"]),
        "fixtures": reverse("league:fixtures", args=["altdorf"]) + "?round=1",
        "coach page": reverse("league:coach_detail", args=["altdorf", home.coach_id]),
        "game page": fixture.get_absolute_url(),
    }
    for name, url in pages.items():
        page = client.get(url).content.decode()
        assert home_side in page, name
    page = client.get(fixture.get_absolute_url()).content.decode()
    assert f"<strong>{home.team} {fixture.result.summary} {away.team}</strong>" in page
    table = client.get(pages["league page"]).content.decode().split("<tbody", 1)[1].split("</tbody>", 1)[0]
    assert f"<small>{home.coach.name}</small>" in table and f"<td >{home.coach.name}</td>" not in table
    client.force_login(home.coach.user)
    assert home_side in client.get(reverse("league:my_fixtures")).content.decode()
    ics = client.get(reverse("league:league_ics", args=["altdorf"])).content.decode().replace("\r\n ", "")
    assert f"Round 1: {home.team} ({home.coach.name}) v {away.team} ({away.coach.name})" in ics


def test_a_guild_ball_fixture_line_still_names_the_coaches(client):
    fixture = FixtureFactory()
    page = client.get(reverse("league:fixtures", args=[fixture.round.season.league.slug]) + f"?round={fixture.round.number}").content.decode()
    assert str(fixture.home) in page and 'class="side"' not in page


def test_ledger_dice_and_history_say_each_thing_once_with_gold_in_thousands(client, organiser):
    """No "Winnings: Winnings:", "Treasure Room bonus: Treasure Room:",
    "Forge Wardens's" or "by the organiser by longshanks"; "1 player"; money with
    thousands separators; the Treasury ledger shows the running balance."""
    season = db_season(organiser, teams=4)
    fixture = Fixture.objects.with_related().filter(round__season=season, round__number=1).first()
    home = fixture.home.dungeonbowl.team
    Team.objects.filter(pk=home.pk).update(name="Forge Wardens")
    play(season, organiser)  # the home sides win, dice 4 2; one of their players gathered funds
    home.refresh_from_db()
    page = client.get(reverse("dungeonbowl:team_detail", args=["altdorf", home.slug])).content.decode()
    treasury = home.treasury()
    assert f"Treasury: {treasury:,} gp" in page and treasury >= 1000
    assert "Winnings: Winnings" not in page and "Treasure Room bonus: Treasure Room" not in page
    assert "Winnings: win, dice 4 2, v " in page and "Treasure Room bonus: 1 player used Gather Funds, Round 1" in page
    ledger = page.split("<h2>Treasury ledger</h2>", 1)[1]
    assert "<th class=\"num\">Balance</th>" in ledger
    # newest first: the top line leaves the whole Treasury, the one below it 10,000 gp less
    balances = [int(b.replace(",", "")) for b in re.findall(r'<td class="num">([\d,]+) gp</td></tr>', ledger)]
    assert balances[0] == treasury and balances[1] == treasury - 10_000 and balances[-1] == 345_000
    log = client.get(reverse("dungeonbowl:dice_log", args=["altdorf"])).content.decode()
    assert "Forge Wardens&#x27; 2D6 as the winner" in log and "Wardens&#x27;s" not in log
    assert "Winnings: Winnings" not in log
    history = client.get(fixture.get_absolute_url()).content.decode()
    assert "Entered by longshanks" in history and "by the organiser by" not in history
    assert "Gather Funds: 1 player and 0 players" in history
    client.force_login(organiser)
    admin_page = client.get(reverse("admin:dungeonbowl_treasuryline_changelist")).content.decode()
    assert "+345,000 gp" in admin_page and ">345000<" not in admin_page



def test_correction_forms_show_only_the_games_own_rules(client, organiser):
    """A Dungeon Bowl league's correction and abandon forms (the game
    page's and the admin's) show no Guild Ball option ("coach owing Favours");
    a Guild Ball league's still do (GB-20)."""
    from django.contrib.admin import helpers

    from tests.support.factories import ResultFactory

    season = db_season(organiser, teams=4)
    play(season, organiser)
    fixture = Fixture.objects.filter(round__season=season, round__number=1).first()
    client.force_login(organiser)
    page = client.get(fixture.get_absolute_url()).content.decode()
    assert "Correct the result" in page and "owing Favours" not in page
    for model, action, obj in (("result", "correct", fixture.result), ("fixture", "enter_result", fixture),
                               ("fixture", "abandon", fixture)):
        response = client.post(reverse(f"admin:league_{model}_changelist") + ("?show=all" if model == "result" else ""),
                               {"action": action, helpers.ACTION_CHECKBOX_NAME: [obj.pk]})
        assert response.status_code == 200 and "owing Favours" not in response.content.decode(), action
    guild_ball = ResultFactory()
    guild_ball.fixture.round.season.league.organisers.add(organiser)
    page = client.get(guild_ball.fixture.get_absolute_url()).content.decode()
    assert "owing Favours" in page

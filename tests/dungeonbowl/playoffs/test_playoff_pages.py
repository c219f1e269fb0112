"""The play-off pages through the client (DB-5b, DB-14, DB-16): the commissioner's
page, settling ties, starting the play-offs, the bracket on the league page, the
honours and the Trophy on the team page and feed, and playoffs.json, for every role."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.dungeonbowl.playoffs import services as playoffs
from league.dungeonbowl.models import DiceRoll, Honour, PlayoffGame, PlayoffSlot as S, PlayoffTie, Team
from league.models import Fixture, Result, Round
from tests.dungeonbowl.builders import db_league, db_season
from tests.dungeonbowl.playoff_builders import facts, game, play_regular, win
from tests.support.factories import LeagueFactory, SeasonFactory

pytestmark = pytest.mark.django_db

RANK = ["Team 01", "Team 02", "Team 03", "Team 04"]


def users(season, other_organiser):
    """Every role that matters: anonymous, a coach of another team, the coach of a
    play-off team, the commissioner, another league's commissioner."""
    team = Team.objects.get(league=season.league, name="Team 01")
    wrong = Team.objects.get(league=season.league, name="Team 04").coach.user
    return {"anonymous": None, "wrong coach": wrong, "right coach": team.coach.user,
            "organiser": season.league.organisers.first(), "other organiser": other_organiser}


def as_user(client, user):
    client.logout()
    if user is not None:
        client.force_login(user)


@pytest.fixture
def tied(organiser):
    season = db_season(organiser, teams=5, playoffs=1)
    play_regular(season, organiser, [*RANK, "Team 05"], unplayed={frozenset({"Team 04", "Team 05"})})
    return season


def test_the_play_offs_page_is_the_commissioners_alone(client, tied, other_organiser):
    url = reverse("dungeonbowl:playoffs", args=[tied.league.slug])
    expected = {"anonymous": 302, "wrong coach": 403, "right coach": 403, "organiser": 200, "other organiser": 403}
    for role, user in users(tied, other_organiser).items():
        as_user(client, user)
        response = client.get(url)
        assert response.status_code == expected[role], role
        if role == "organiser":
            page = response.content.decode()
            assert "Ties at qualifying places" in page and "places 4 and 5: Team 04, Team 05" in page
            assert "Start the play-offs" not in page


def test_settling_a_tie_and_starting_by_post_for_every_role(client, tied, other_organiser):
    slug = tied.league.slug
    settle, start = reverse("dungeonbowl:settle_tie", args=[slug]), reverse("dungeonbowl:start_playoffs", args=[slug])
    decide = {"teams": "Team 04\nTeam 05", "place_1": "Team 05", "place_2": "Team 04", "reason": "fewer forfeits",
              "decide": "1"}
    for role, user in users(tied, other_organiser).items():
        if role == "organiser":
            continue
        as_user(client, user)
        assert client.post(settle, decide).status_code == (302 if user is None else 403), role
        assert client.post(start).status_code == (302 if user is None else 403), role
    assert not PlayoffTie.objects.exists() and not PlayoffGame.objects.exists()

    as_user(client, tied.league.organisers.first())
    response = client.post(start, follow=True)
    assert "Settle the ties at qualifying places first" in response.content.decode()
    # A reason is needed with an order; the page says so and nothing is written.
    response = client.post(settle, {**decide, "reason": ""})
    assert response.status_code == 400 and "Give the reason" in response.content.decode()
    # Table dice: one per team.
    response = client.post(settle, {"teams": "Team 04\nTeam 05", "dice": "7 1", "roll": "1"})
    assert response.status_code == 400 and "Enter 2 numbers from 1 to 6" in response.content.decode()
    assert not PlayoffTie.objects.exists()
    response = client.post(settle, {"teams": "Team 04\nTeam 05", "dice": "1 6", "roll": "1"}, follow=True)
    assert "Tie settled by a roll: Team 05, Team 04" in response.content.decode()
    assert list(DiceRoll.objects.filter(purpose="tie").order_by("id").values_list("values", flat=True)) == [[1], [6]]
    page = client.get(reverse("dungeonbowl:playoffs", args=[slug])).content.decode()
    assert "Semi-final 1: Team 01 v Team 05" in page and "Team 05 ahead of Team 04, by a roll" in page
    response = client.post(start, follow=True)
    assert "The play-offs have started: Team 01 v Team 05; Team 02 v Team 03" in response.content.decode()
    assert PlayoffGame.objects.filter(season=tied).count() == 2


def test_settling_by_the_commissioners_order_and_reason_through_the_page(client, tied):
    client.force_login(tied.league.organisers.first())
    response = client.post(reverse("dungeonbowl:settle_tie", args=[tied.league.slug]), {
        "teams": "Team 04\nTeam 05", "place_1": "Team 04", "place_2": "Team 05", "reason": "head to head"})
    assert response.status_code == 302
    tie = PlayoffTie.objects.get()
    assert (tie.teams, tie.reason, tie.how, tie.created_by) == (["Team 04", "Team 05"], "head to head", "reason",
                                                                 tied.league.organisers.first())


def test_the_page_says_why_the_play_offs_cannot_start_yet(client, organiser):
    season = db_season(organiser, teams=4, playoffs=1)
    client.force_login(organiser)
    page = client.get(reverse("dungeonbowl:playoffs", args=[season.league.slug])).content.decode()
    assert "The regular season is not complete: 6 fixtures still wait" in page
    guild = LeagueFactory(slug="guild", organisers=[organiser])
    assert client.get(reverse("dungeonbowl:playoffs", args=[guild.slug])).status_code == 404


def _finished(organiser):
    season = db_season(organiser, teams=4, playoffs=1)
    play_regular(season, organiser, RANK)
    playoffs.start_playoffs(season=season, by=organiser)
    win(season, S.SEMI_1, organiser, "Team 01")
    win(season, S.SEMI_2, organiser, "Team 02")
    win(season, S.FINAL, organiser, "Team 02")
    win(season, S.THIRD, organiser, "Team 04")
    return season


def test_the_bracket_on_the_league_page_with_its_text_alternative_for_every_role(client, organiser, other_organiser):
    season = db_season(organiser, teams=4, playoffs=1)
    play_regular(season, organiser, RANK)
    url = reverse("league:league_detail", args=[season.league.slug])
    page = client.get(url).content.decode()
    assert "The organiser starts them once every regular fixture is approved" in page
    playoffs.start_playoffs(season=season, by=organiser)
    win(season, S.SEMI_1, organiser, "Team 01")
    for role, user in users(season, other_organiser).items():
        as_user(client, user)
        page = client.get(url).content.decode()
        svg = re.search(r'<svg[^>]*aria-labelledby="bracket-title bracket-desc".*?</svg>', page, re.S)
        assert svg is not None, role
        assert 'viewBox="0 0 360 236"' in svg.group(0) and "<script" not in svg.group(0)
        assert "style=" not in svg.group(0)
        assert "Semi-final 1: Team 01 1–0 Team 04, Team 01 won." in page
        assert "Semi-final 2: Team 02 v Team 03, to be played." in page
        assert "Semi-final 1 winner" in svg.group(0)  # the final is drawn as still to come
    win(season, S.SEMI_2, organiser, "Team 02")
    win(season, S.FINAL, organiser, "Team 02")
    win(season, S.THIRD, organiser, "Team 04")
    page = client.get(url).content.decode()  # the cached body follows the new version
    assert "Final: Team 01 0–1 Team 02, Team 02 won." in page
    assert "Third place: Team 04 1–0 Team 03, Team 04 won." in page
    honours = page[page.index('id="honours"'):]
    assert "Season 1</strong>: Champion" in honours and "Team 02" in honours and "Third place" in honours


def test_honours_and_the_trophy_show_in_every_later_season(client, organiser):
    import datetime

    season = _finished(organiser)
    later = SeasonFactory(league=season.league, name="Season 2", start_date=season.start_date + datetime.timedelta(days=200))
    page = client.get(reverse("league:league_detail", args=[season.league.slug])).content.decode()
    assert "Season 2" in page and 'id="honours"' in page and "Season 1</strong>: Champion" in page
    assert later.pk  # the page shows the later season's body, with the earlier honours

    champion = Team.objects.get(name="Team 02")
    team_page = client.get(reverse("dungeonbowl:team_detail", args=[season.league.slug, champion.slug])).content.decode()
    assert "Holds the Dungeon Bowl Trophy" in team_page and "Season 1: Champion (100,000 gp prize)" in team_page
    value = champion.value(trophy=True)
    assert f"Team Value {value.team_value:,} gp" in team_page

    data = client.get(reverse("dungeonbowl:team_json", args=[season.league.slug, champion.slug])).json()
    assert data["trophy"] is True and data["honours"] == [{"season": "Season 1", "placing": "champion"}]
    assert data["team_value"] == champion.value().team_value + champion.college.reroll_cost
    third = client.get(reverse("dungeonbowl:team_json", args=[season.league.slug, "team-04"])).json()
    assert third["trophy"] is False and third["honours"] == [{"season": "Season 1", "placing": "third"}]
    runner_up = client.get(reverse("dungeonbowl:team_json", args=[season.league.slug, "team-01"])).json()
    assert runner_up["honours"] == [{"season": "Season 1", "placing": "runner-up"}]
    nothing = client.get(reverse("dungeonbowl:team_json", args=[season.league.slug, "team-03"])).json()
    assert nothing["trophy"] is False and nothing["honours"] == []


def test_playoffs_json_for_every_role(client, organiser, other_organiser):
    season = db_season(organiser, teams=4, playoffs=1)
    play_regular(season, organiser, RANK)
    url = reverse("dungeonbowl:playoffs_json", args=[season.league.slug])
    assert client.get(url).json() == {"league": season.league.slug, "season": "Season 1", "fixtures": []}
    playoffs.start_playoffs(season=season, by=organiser)
    win(season, S.SEMI_1, organiser, "Team 01")
    semi_2 = game(season, S.SEMI_2).fixture
    from league.services import results as engine

    engine.report_result(fixture=semi_2, by=Team.objects.get(name="Team 03").coach.user, **facts("away"))
    for role, user in users(season, other_organiser).items():
        as_user(client, user)
        data = client.get(url + "?season=Season 1").json()
        assert data["league"] == season.league.slug and data["season"] == "Season 1", role
        assert data["fixtures"] == [
            {"id": game(season, S.SEMI_1).fixture.pk, "stage": "semi-final", "home": "Team 01", "away": "Team 04",
             "result": {"home_score": 1, "away_score": 0, "summary": "1 – 0", "status": "approved"},
             "winner": "Team 01"},
            {"id": semi_2.pk, "stage": "semi-final", "home": "Team 02", "away": "Team 03",
             "result": {"home_score": 0, "away_score": 1, "summary": "0 – 1", "status": "reported"},
             "winner": None},
        ], role
    guild = LeagueFactory(slug="guild", organisers=[organiser])
    response = client.get(reverse("dungeonbowl:playoffs_json", args=[guild.slug]))
    assert response.status_code == 404 and "not a Dungeon Bowl league" in response.json()["error"]


def test_playoffs_json_after_the_final(client, organiser):
    season = _finished(organiser)
    data = client.get(reverse("dungeonbowl:playoffs_json", args=[season.league.slug])).json()
    assert [(f["stage"], f["home"], f["away"], f["winner"]) for f in data["fixtures"]] == [
        ("semi-final", "Team 01", "Team 04", "Team 01"), ("semi-final", "Team 02", "Team 03", "Team 02"),
        ("final", "Team 01", "Team 02", "Team 02"), ("third place", "Team 04", "Team 03", "Team 04")]


def test_a_coach_reporting_a_draw_in_a_play_off_is_told_it_needs_a_winner(client, organiser):
    season = db_season(organiser, teams=4, playoffs=1)
    play_regular(season, organiser, RANK)
    playoffs.start_playoffs(season=season, by=organiser)
    fixture = game(season, S.SEMI_1).fixture
    client.force_login(Team.objects.get(name="Team 01").coach.user)
    page = client.get(fixture.get_absolute_url()).content.decode()
    assert 'value="draw"' not in page  # not offered in a play-off
    data = {"home_score": 0, "away_score": 0, "ending": "draw", "home_gather": 0, "away_gather": 0,
            "home_journeymen": 0, "away_journeymen": 0, "dice": "", "played_early": "on"}
    response = client.post(reverse("league:report_result", args=[fixture.pk]), data)
    assert response.status_code == 400 and "A play-off needs a winner" in response.content.decode()
    assert not Result.objects.filter(fixture=fixture).exists()
    response = client.post(reverse("league:report_result", args=[fixture.pk]), {**data, "ending": "home_closer"})
    assert response.status_code == 302 and Result.objects.get(fixture=fixture).outcome == "home"


def test_the_organiser_dashboard_links_to_the_play_offs(client, organiser):
    season = db_season(organiser, teams=4, playoffs=1)
    client.force_login(organiser)
    page = client.get(reverse("league:organiser_dashboard", args=[season.league.slug])).content.decode()
    assert reverse("dungeonbowl:playoffs", args=[season.league.slug]) in page
    assert reverse("dungeonbowl:next_season", args=[season.league.slug]) in page  # DB-15's last step


def test_without_play_offs_the_dashboard_still_leads_to_the_next_season(client, organiser):
    season = db_season(organiser, teams=4)
    client.force_login(organiser)
    page = client.get(reverse("league:organiser_dashboard", args=[season.league.slug])).content.decode()
    assert reverse("dungeonbowl:playoffs", args=[season.league.slug]) not in page
    assert reverse("dungeonbowl:next_season", args=[season.league.slug]) in page


# A fixed number of queries at 4 and 40 teams ---------------------------------------------


def _bracket_and_honours(season, organiser):
    """Semi-finals, final and third place as the services would leave them, and the
    season's honours: pages are measured, not the play-offs."""
    entries = list(season.entries.order_by("pk")[:4])
    rnd = Round.objects.create(season=season, number=99, date=season.start_date)
    for slot, (home, away) in zip((1, 2, 3, 4), ((0, 3), (1, 2), (0, 1), (3, 2))):
        fixture = Fixture.objects.create(round=rnd, stage="playoff", home=entries[home], away=entries[away],
                                         date=rnd.date)
        PlayoffGame.objects.create(season=season, fixture=fixture, slot=slot)
    teams = list(Team.objects.filter(seasons__entry__in=entries[:3]).order_by("pk"))
    for placing, team in enumerate(teams, start=1):
        Honour.objects.create(season=season, team=team, placing=placing, prize=1)


def _counts(client, season) -> dict[str, int]:
    slug = season.league.slug
    team = Team.objects.filter(honours__season=season, honours__placing=1).get()
    urls = {
        "league page": reverse("league:league_detail", args=[slug]),
        "team page": reverse("dungeonbowl:team_detail", args=[slug, team.slug]),
        "team json": reverse("dungeonbowl:team_json", args=[slug, team.slug]),
        "playoffs.json": reverse("dungeonbowl:playoffs_json", args=[slug]),
        "play-offs page": reverse("dungeonbowl:playoffs", args=[slug]),
    }
    counts = {}
    for name, url in urls.items():
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200, name
        counts[name] = len(queries)
    return counts


def test_query_counts_are_equal_at_4_and_40_teams(client, organiser, django_assert_max_num_queries):
    small = db_season(organiser, teams=4, playoffs=1)
    _bracket_and_honours(small, organiser)
    large = db_season(organiser, teams=40, divisions=4, league=db_league(organiser, slug="nuln", playoffs=4),
                      prefix="Nuln")
    _bracket_and_honours(large, organiser)
    client.force_login(organiser)
    at_4, at_40 = _counts(client, small), _counts(client, large)
    assert at_4 == at_40
    with django_assert_max_num_queries(max(at_4.values())):
        client.get(reverse("league:league_detail", args=[large.league.slug]))
    assert max(at_4.values()) <= 25, at_4


def test_the_admin_shows_the_play_offs_read_only_and_scoped(client, organiser, other_organiser):
    season = _finished(organiser)
    PlayoffTie.objects.create(season=season, where="Season 1", places="4, 5", teams=["Team 04", "Team 03"],
                              how="reason", reason="Team 02 said so", created_by=organiser)
    for model, shown in (("playoffgame", "Team 02"), ("playofftie", "Team 02 said so"), ("honour", "Team 02")):
        url = reverse(f"admin:dungeonbowl_{model}_changelist")
        client.force_login(organiser)
        page = client.get(url).content.decode()
        assert shown in page, model
        assert client.get(reverse(f"admin:dungeonbowl_{model}_add")).status_code == 403
        client.force_login(other_organiser)  # another league's commissioner sees none of them
        assert "Team 02" not in client.get(url).content.decode()
    honour = Honour.objects.get(season=season, placing=1)
    client.force_login(organiser)
    change = client.get(reverse("admin:dungeonbowl_honour_change", args=[honour.pk])).content.decode()
    assert "Team 02" in change and 'name="_save"' not in change


def test_play_off_games_are_named_for_their_stage_everywhere(client, organiser):
    """DB-5b: a play-off game is "Semi-final 1", "Semi-final 2",
    "Final" or "Third place" on the fixture lists, the game's page, the coach's
    home, the treasury ledger and the calendar feeds; its round is named for the
    stage too, never "Round 4/5"."""
    season = db_season(organiser, teams=4, playoffs=1)
    play_regular(season, organiser, RANK)
    playoffs.start_playoffs(season=season, by=organiser)
    slug = season.league.slug
    semis = Round.objects.get(season=season, number=4)
    page = client.get(reverse("league:fixtures", args=[slug]) + "?round=4").content.decode()
    assert ">Semi-finals</strong>" in page and "<h2>Semi-finals" in page and "Round 4" not in page
    assert "Semi-final 1</span>" in page and "Semi-final 2</span>" in page
    semi = game(season, S.SEMI_1).fixture
    page = client.get(semi.get_absolute_url()).content.decode()
    assert "Semi-final 1" in page and "Round 4" not in page
    ics = client.get(reverse("league:league_ics", args=[slug])).content.decode()
    assert "Semi-final 1: " in ics and "Semi-final 2: " in ics and "Round 4" not in ics
    client.force_login(semi.home.coach.user)
    assert "Semi-final 1</span>" in client.get(reverse("league:my_fixtures")).content.decode()
    win(season, S.SEMI_1, organiser, "Team 01")
    win(season, S.SEMI_2, organiser, "Team 02")
    final, third = game(season, S.FINAL).fixture, game(season, S.THIRD).fixture
    assert (final.label, third.label, str(final.round), semis.label) == (
        "Final", "Third place", "Final and third place", "Semi-finals")
    ics = client.get(reverse("league:coach_ics", args=[slug, final.home.coach_id])).content.decode()
    assert "Final: " in ics and "Round 5" not in ics
    page = client.get(reverse("league:fixtures", args=[slug]) + "?round=5").content.decode()
    assert "Final</span>" in page and "Third place</span>" in page and "Round 5" not in page
    team = Team.objects.get(league=season.league, name="Team 01")
    page = client.get(reverse("dungeonbowl:team_detail", args=[slug, team.slug])).content.decode()
    assert "Semi-final 1" in page and "Round 4" not in page  # the Treasury ledger's winnings line


@pytest.mark.parametrize("setting", [1, 2])
def test_a_season_without_divisions_describes_only_its_own_play_offs(client, organiser, setting):
    """DB-5b: a season without divisions plays its top 4; neither the
    league page nor the play-offs page describes two-division play-offs, whatever
    the league's setting says."""
    season = db_season(organiser, teams=4, playoffs=setting)
    page = client.get(reverse("league:league_detail", args=[season.league.slug])).content.decode()
    assert "The top 4 play semi-finals (1st v 4th, 2nd v 3rd), then a final" in page
    client.force_login(organiser)
    playoffs_page = client.get(reverse("dungeonbowl:playoffs", args=[season.league.slug])).content.decode()
    assert "the top 4 play semi-finals (1st v 4th, 2nd v 3rd), then a final" in playoffs_page
    for text in (page, playoffs_page):
        assert "wo divisions" not in text and "top 2 of each" not in text and "division winners" not in text


def test_a_season_of_two_divisions_describes_its_format(client, organiser):
    season = db_season(organiser, teams=8, divisions=2, playoffs=2)
    page = client.get(reverse("league:league_detail", args=[season.league.slug])).content.decode()
    assert "The top 2 of each division play semi-finals (1st of one v 2nd of the other)" in page

"""Report forms made for thumbs, without the script: the Dungeon Bowl report form names only
the players who did something (plain fields: ``home_line<n>_player`` and what they
did), the rules still check every player's sums (DB-9, DB-11, DB-13), and the draft
and re-draft pages carry the figures forms.js adds up, from team_rules.check_draft."""

import re

import pytest
from django.urls import reverse

from league.dungeonbowl.models import College, GameReport, Team
from league.models import Fixture, Result
from tests.dungeonbowl.builders import db_league, db_season
from tests.dungeonbowl.offseason import finished_season
from tests.dungeonbowl.postgame.test_postgame import fixture, login, player_data, season  # noqa: F401 (fixtures)
from tests.support.factories import CoachFactory

pytestmark = pytest.mark.django_db

FACTS = {"home_score": 1, "away_score": 0, "ending": "touchdown", "home_gather": 0, "away_gather": 0,
         "home_journeymen": 0, "away_journeymen": 0, "dice": ""}


def report(client, fixture, **data):
    login(client, fixture.home.coach.user)
    return client.post(reverse("league:report_result", args=[fixture.pk]), {**FACTS, **data})


def test_the_form_shows_lines_to_add_not_a_grid_of_zeros(client, fixture):
    login(client, fixture.home.coach.user)
    page = client.get(fixture.get_absolute_url()).content.decode()
    form = page[page.index('action="' + reverse("league:report_result", args=[fixture.pk])):]
    form = form[:form.index("</form>")]
    # Per team: two empty lines open, the other six under "More player lines" (no script needed).
    assert form.count("class=\"player-line\"") == 16 and form.count("More player lines") == 2
    assert form.count('name="home_line1_player"') == 1 and 'name="home_line8_player"' in form
    assert 'name="home_line9_player"' not in form  # a slot per player who can play, no more
    assert not re.search(r'name="(home|away)_line\d+_touchdowns"[^>]*value="0"', form)
    # Both teams are College of Fire with one Troll Slayer: its position once per line's list of players.
    assert form.count("(Troll Slayer)") == form.count('_player" id=') == 16
    assert "Add a player line" in form and "data-add-line hidden" in form  # the script shows the button
    assert form.index('name="ending"') < form.index('name="dice"') < form.index('name="home_line1_player"')


def test_plain_fields_report_only_what_happened_db9(client, fixture):
    home, away = fixture.home.dungeonbowl.team, fixture.away.dungeonbowl.team
    scorer = home.players.get(number=4)
    data = {"home_line1_player": scorer.pk, "home_line1_touchdowns": 1, "home_line1_mvp": "on",
            "away_line5_player": away.players.get(number=2).pk, "away_line5_injury": "badly_hurt",
            "home_line2_player": "", "home_line2_touchdowns": ""}  # an empty line sends nothing
    assert report(client, fixture, **data).status_code == 302
    result = Result.objects.get(fixture=fixture)
    lines = GameReport.objects.get(result=result).players.order_by("side")
    assert [(line.side, line.player.number, line.touchdowns, line.mvp, line.injury) for line in lines] == [
        ("away", 2, 0, False, "badly_hurt"), ("home", 4, 1, True, "")]


def test_players_not_named_still_count_in_the_sums_db9(client, fixture):
    """A touchdown with no line for its scorer is refused, as when every player had a row."""
    away = fixture.away.dungeonbowl.team
    response = report(client, fixture, away_line1_player=away.players.get(number=1).pk, away_line1_deflections=1)
    assert response.status_code == 400
    assert "touchdowns add up to 0" in response.content.decode()
    assert not Result.objects.exists()


def test_a_line_without_a_player_or_a_player_twice_is_refused(client, fixture):
    home = fixture.home.dungeonbowl.team
    scorer = home.players.get(number=1).pk
    response = report(client, fixture, home_line1_player=scorer, home_line1_touchdowns=1, home_line2_completions=2)
    assert response.status_code == 400 and "Choose the player this line is about." in response.content.decode()
    response = report(client, fixture, home_line1_player=scorer, home_line1_touchdowns=1,
                      home_line3_player=scorer, home_line3_completions=1)
    page = response.content.decode()
    assert response.status_code == 400 and "is on two lines: put what they did on one." in page
    # What was typed comes back on its lines, open.
    assert re.search(r'name="home_line3_completions"[^>]*value="1"', page)
    response = report(client, fixture, home_line1_player=fixture.away.dungeonbowl.team.players.first().pk,
                      home_line1_touchdowns=1)
    assert response.status_code == 400 and "Choose one of this team&#x27;s players." in response.content.decode()
    assert not Result.objects.exists()


def test_the_correction_form_opens_the_recorded_lines(client, organiser, fixture):
    home = fixture.home.dungeonbowl.team
    assert report(client, fixture, **player_data(fixture, "home", 3, touchdowns=1, casualties=1)).status_code == 302
    login(client, organiser)
    page = client.get(fixture.get_absolute_url()).content.decode()
    record = page[page.index('action="' + reverse("league:record_result", args=[fixture.pk])):]
    assert f'value="{home.players.get(number=3).pk}" selected' in record
    assert re.search(r'name="home_line1_casualties"[^>]*value="1"', record)


def test_the_draft_page_carries_the_figures_of_check_draft_db6_db7(client, organiser):
    league = db_league(organiser)
    coach = CoachFactory(name="Ulrika")
    client.force_login(coach.user)
    page = client.get(reverse("dungeonbowl:draft", args=[league.slug]), {"college": "college-of-fire"}).content.decode()
    college = College.objects.get(slug="college-of-fire")
    slayer = college.positions.get(name="Troll Slayer")
    assert f'data-budget="{league.rules.settings.draft_budget}"' in page
    assert re.search(rf'name="pos_{slayer.pk}"[^>]*data-cost="{slayer.cost}"|data-cost="{slayer.cost}"[^>]*name="pos_{slayer.pk}"', page)
    assert f'data-counts="players|group:{slayer.group.name}"' in page
    assert f'data-limit="group:{slayer.group.name}" data-max="{slayer.group.max_count}"' in page
    assert 'data-limit="players" data-max="16"' in page and 'data-limit="rerolls" data-max="8"' in page
    assert f'data-cost="{college.reroll_cost}"' in page


def test_the_redraft_page_shows_its_cost_and_limits_db15(client, organiser):
    done = finished_season(organiser, teams=4)
    team = Team.objects.filter(league=done.league).order_by("pk").first()
    url = reverse("dungeonbowl:redraft", args=[team.league.slug, team.slug])

    def step(action, **data):
        return client.post(url, {"action": action, **data})

    login(client, team.coach.user)
    for action in ("scout", "recover", "funds"):
        assert step(action).status_code == 302
    page = client.get(url).content.decode()
    assert 'data-summary="draft-summary"' in page and 'id="draft-summary"' in page
    assert "Up to 16 players: <span data-used>" in page
    # A refused re-draft shows the figures of what was sent (no player re-hired, 9 re-rolls).
    response = step("draft", rerolls=9)
    page = response.content.decode()
    assert response.status_code == 400
    assert "Up to 16 players: <span data-used>0</span>" in page


@pytest.mark.parametrize("size", [4, 8])
def test_the_report_page_costs_a_fixed_number_of_queries(client, organiser, django_assert_max_num_queries, size):
    season = db_season(organiser, teams=size, league=db_league(organiser, slug=f"q{size}"))
    fixture = Fixture.objects.filter(round__season=season).first()
    login(client, fixture.home.coach.user)
    with django_assert_max_num_queries(45):
        assert client.get(fixture.get_absolute_url()).status_code == 200


def test_a_limit_two_positions_share_says_so_where_the_roster_is_shown_db6(client, organiser):
    league = db_league(organiser)
    shared = "0-2 Special: Troll Slayer and Chaos Dwarf Flamesmith between them"
    client.force_login(organiser)
    colleges = client.get(reverse("dungeonbowl:league_colleges", args=[league.slug])).content.decode()
    fire = colleges[colleges.index("<h3>College of Fire</h3>"):]
    fire = fire[:fire.index("</table>")]
    assert fire.count(f"<td>{shared}</td>") == 2  # on the row of each position that shares it
    coach = CoachFactory(name="Ulrika")
    client.force_login(coach.user)
    draft = client.get(reverse("dungeonbowl:draft", args=[league.slug]), {"college": "college-of-fire"}).content.decode()
    assert "Troll Slayer (" in draft and f"; {shared})" in draft

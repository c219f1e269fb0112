"""The off-season re-draft page (DB-15), step by step, for every role, with the
dice in the log (DB-16), corrections that leave budget and roster consistent, and
the team as it ended the season kept."""

import pytest
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.urls import reverse

from league.dungeonbowl.redraft import selectors as redraft_selectors, services as redraft
from league.dungeonbowl.models import DiceRoll, Honour, Placing, Player, Redraft, RedraftRoll, Team, TreasuryLine
from league.models import Fixture
from tests.dungeonbowl.builders import db_league, db_season
from tests.dungeonbowl.offseason import finished_season, play
from tests.support.factories import PASSWORD

pytestmark = pytest.mark.django_db

FIRE_LEFTOVER = 1_000_000 - (95_000 + 80_000 + 85_000 + 4 * 70_000 + 15_000) - 2 * 50_000  # 345,000 (DB-6)


def login(client, user):
    assert client.login(request=HttpRequest(), username=user.username, password=PASSWORD)


@pytest.fixture
def season(organiser):
    return finished_season(organiser, teams=4)


@pytest.fixture
def team(season):
    """The College of Fire team with the most home games (each a win, MVP to #1)."""
    fire = Team.objects.filter(league=season.league, college__slug="college-of-fire")
    return max(fire, key=lambda t: (wins(t, season), -t.pk))


def wins(team, season):
    return Fixture.objects.filter(round__season=season, home__dungeonbowl__team=team).count()


def url(team):
    return reverse("dungeonbowl:redraft", args=[team.league.slug, team.slug])


def step(client, team, action, **data):
    return client.post(url(team), {"action": action, **data})


def test_the_page_reads_for_everyone_and_writes_nothing(client, season, team):
    response = client.get(url(team))
    assert response.status_code == 200
    body = response.content.decode()
    assert f"The off-season after <strong>{season.name}</strong>" in body
    assert "Roll the scouting dice" not in body  # no forms for the anonymous
    assert not Redraft.objects.exists() and not DiceRoll.objects.filter(purpose="scouting").exists()


@pytest.mark.parametrize("who", ["anonymous", "wrong coach", "other organiser"])
def test_no_step_for_anyone_else(client, season, team, other_organiser, who):
    if who == "wrong coach":
        login(client, Team.objects.exclude(pk=team.pk).filter(league=team.league).first().coach.user)
    elif who == "other organiser":
        db_league(other_organiser, slug="elsewhere")
        login(client, other_organiser)
    for action in ("scout", "recover", "funds", "draft", "retire", "back"):
        response = step(client, team, action, to=1)
        if who == "anonymous":
            assert response.status_code == 302 and "login" in response["Location"]
        else:
            assert response.status_code == 403
    assert not Redraft.objects.exists() and not DiceRoll.objects.filter(purpose="scouting").exists()


def test_the_coach_runs_every_step_and_the_budget_is_the_hand_calculation(client, season, team):
    w = wins(team, season)
    assert w >= 1
    treasury = FIRE_LEFTOVER + 40_000 * w + 10_000 * (3 - w)  # DB-10: dice 4 and 1
    assert team.treasury() == treasury
    slayer = team.players.get(number=1)
    assert slayer.mvp_awards == w
    login(client, team.coach.user)

    # 1. Scouting: one app roll for the only MVP, in the log with who asked.
    assert step(client, team, "scout", **{f"roll_{slayer.pk}": 6}).status_code == 302  # a coach's table roll is ignored
    rolls = DiceRoll.objects.filter(purpose="scouting", team=team)
    assert rolls.count() == 1 and rolls[0].source == "app" and rolls[0].entered_by == team.coach.user
    scouted = rolls[0].values[0] == 6
    log = client.get(reverse("dungeonbowl:dice_log", args=[team.league.slug])).content.decode()
    assert f"Scouting: {team.name} #1" in log and "Scouting: Scouting" not in log
    assert Player.objects.get(pk=slayer.pk).status == ("left" if scouted else "active")
    # A step taken twice is refused, not repeated.
    response = step(client, team, "scout")
    assert DiceRoll.objects.filter(purpose="scouting").count() == 1
    assert "not &#x27;Scouting&#x27;" in client.get(response["Location"]).content.decode()

    # 2. R&R
    team.players.filter(number=5).update(miss_next_game=True)
    Redraft.objects.filter(team=team).update(snapshot=redraft._snapshot(team, season))
    assert step(client, team, "recover").status_code == 302
    assert not team.players.filter(miss_next_game=True).exists()

    # 3. Raise funds: 1,000,000 + Treasury + 20,000 x 3 games + 20,000 x wins + compensation.
    expected = 1_000_000 + treasury + 3 * 20_000 + w * 20_000 + (20_000 if scouted else 0)
    assert step(client, team, "funds").status_code == 302
    done = Redraft.objects.get(team=team)
    assert (done.budget, done.step, done.games_played, done.league_wins) == (expected, 4, 3, w)
    assert team.treasury() == 0
    emptied = TreasuryLine.objects.get(team=team, kind="redraft")
    assert emptied.amount == -treasury and "emptied" in emptied.reason
    page = client.get(url(team)).content.decode()
    assert f"{3} games played x 20,000 gp" in page and f"{expected:,} gp" in page
    feed = client.get(reverse("dungeonbowl:team_json", args=[team.league.slug, team.slug])).json()["redraft"]
    assert feed["budget"] == expected and not feed["cap_applied"] and feed["raised"]
    assert sum(line["gp"] for line in feed["lines"]) == expected
    assert feed["lines"][1] == {"reason": "Treasury carried over (then emptied)", "gp": treasury}

    # 4. Re-draft: keep #2 and #3 at value + 20,000 (one season played), drop the rest, 5 rookies, 3 re-rolls.
    blitzer, runner = team.players.get(number=2), team.players.get(number=3)
    data = {f"rehire_{blitzer.pk}": "on", f"rehire_{runner.pk}": "on", "rerolls": 3}
    position = team.college.positions.get(name="Dwarf Blocker Lineman")
    data[f"pos_{position.pk}"] = 5
    assert step(client, team, "draft", **data).status_code == 302
    cost = (80_000 + 20_000) + (85_000 + 20_000) + 5 * 70_000 + 3 * 50_000
    assert team.treasury() == expected - cost
    team.refresh_from_db()
    assert team.rerolls == 3
    on_list = team.players.on_draft_list()
    assert sorted(on_list.values_list("number", flat=True)) == [1, 2, 3, 4, 5, 6, 7]
    assert set(on_list.values_list("seasons_played", flat=True)) == {0, 1}
    left = team.players.filter(status="left")
    assert left.count() == 6 and all("Not re-hired" in p.status_reason or "Scouted" in p.status_reason for p in left)
    assert Redraft.objects.get(team=team).step == 5
    # The team as it ended the season stays visible.
    page = client.get(url(team)).content.decode()
    assert f"{team.name} as it ended {season.name}" in page and "Troll Slayer" in page
    assert client.get(reverse("dungeonbowl:team_json", args=[team.league.slug, team.slug])).json()["redraft"]["raised"]


def test_the_commissioner_enters_table_rolls_and_corrects_a_step(client, organiser, season, team):
    slayer = team.players.get(number=1)
    team.players.filter(number=2).update(niggling_injuries=2, mvp_awards=0)
    before = team.treasury()
    login(client, organiser)
    assert step(client, team, "scout", **{f"roll_{slayer.pk}": 6}).status_code == 302
    roll = DiceRoll.objects.get(purpose="scouting")
    assert (roll.values, roll.source, roll.entered_by) == ([6], "table", organiser)
    assert Player.objects.get(pk=slayer.pk).status == "left"
    step(client, team, "recover")
    step(client, team, "funds")
    budget = Redraft.objects.get(team=team).budget
    assert Redraft.objects.get(team=team).players_scouted == 1
    blitzer = team.players.get(number=2)
    response = step(client, team, "draft", **{f"rehire_{blitzer.pk}": "on", f"niggling_{blitzer.pk}": "4 2", "rerolls": 0})
    assert response.status_code == 302
    blitzer.refresh_from_db()
    assert (blitzer.niggling_injuries, blitzer.seasons_played) == (1, 1)  # DB-15: 4 removes one, 2 leaves one
    assert list(DiceRoll.objects.filter(purpose="niggling").order_by("id").values_list("values", flat=True)) == [[4], [2]]
    assert team.treasury() == budget - (80_000 + 20_000)

    # A corrected scouting roll: back to step 1 undoes every step; nothing of the history is deleted.
    assert step(client, team, "back", to=1).status_code == 302
    assert team.treasury() == before
    assert team.players.on_draft_list().count() == 8
    blitzer.refresh_from_db()
    assert (blitzer.niggling_injuries, blitzer.seasons_played) == (2, 0)
    assert DiceRoll.objects.count() == DiceRoll.objects.filter(purpose="winnings").count() + 3
    assert not RedraftRoll.objects.filter(current=True).exists() and RedraftRoll.objects.count() == 3
    assert TreasuryLine.objects.filter(team=team, reverses__isnull=False).count() == 2
    # Redone with the right roll, the compensation goes.
    step(client, team, "scout", **{f"roll_{slayer.pk}": 3})
    step(client, team, "recover")
    step(client, team, "funds")
    assert Redraft.objects.get(team=team).budget == budget - 20_000
    assert team.treasury() == 0
    # A coach cannot go back over a step (it would re-roll the dice).
    client.logout()
    login(client, team.coach.user)
    assert step(client, team, "back", to=1).status_code == 403


def test_bad_input_says_why_and_writes_nothing(client, organiser, season, team):
    """A refused step answers 400 with its form and the reasons."""
    login(client, organiser)
    response = step(client, team, "scout", **{f"roll_{team.players.get(number=1).pk}": 9})
    assert response.status_code == 400 and "A D6 shows 1 to 6." in response.content.decode()
    assert not Redraft.objects.exists()
    step(client, team, "scout", **{f"roll_{team.players.get(number=1).pk}": 1})  # nobody scouted: 8 stay
    step(client, team, "recover")
    step(client, team, "funds")
    treasury_lines = TreasuryLine.objects.count()
    ogre = {f"rehire_{p.pk}": "on" for p in team.players.on_draft_list()}
    position = team.college.positions.get(name="Ogre Blocker")
    response = step(client, team, "draft", rerolls=8, **ogre, **{f"pos_{position.pk}": 9})
    page = response.content.decode()
    assert response.status_code == 400 and "Up to 16 players" in page and "Over budget" in page
    assert f'name="pos_{position.pk}" value="9"' in page  # what was typed stays
    assert TreasuryLine.objects.count() == treasury_lines and Redraft.objects.get().step == 4
    assert team.players.on_draft_list().count() == 8
    blitzer = team.players.get(number=2)
    Player.objects.filter(pk=blitzer.pk).update(niggling_injuries=1)
    response = step(client, team, "draft", rerolls=1, **{f"rehire_{blitzer.pk}": "on", f"niggling_{blitzer.pk}": "7"})
    assert response.status_code == 400 and "a D6 shows 1 to 6" in response.content.decode()
    step(client, team, "draft", rerolls=1, **{f"rehire_{blitzer.pk}": "on", f"niggling_{blitzer.pk}": "4 4"})
    assert not DiceRoll.objects.filter(purpose="niggling").exists()
    assert Redraft.objects.get().step == 4
    step(client, team, "nonsense")
    assert step(client, team, "back", to=9).status_code == 302 and Redraft.objects.get().step == 4


def test_no_redraft_before_the_season_is_over(client, organiser):
    season = db_season(organiser, teams=4)
    team = Team.objects.filter(league=season.league).first()
    login(client, team.coach.user)
    step(client, team, "scout")
    assert not Redraft.objects.exists()
    assert "not in an off-season" in client.get(url(team)).content.decode()
    assert client.get(reverse("dungeonbowl:team_json", args=[team.league.slug, team.slug])).json().get("redraft") is None


def test_the_team_page_links_the_redraft_once_the_season_is_over(client, organiser):
    """DB-15: the off-season's link appears with the off-season, not while the
    season is still being played."""
    season = db_season(organiser, teams=4)
    team = Team.objects.filter(league=season.league).first()
    page = reverse("dungeonbowl:team_detail", args=[team.league.slug, team.slug])
    assert url(team) not in client.get(page).content.decode()
    for fixture in Fixture.objects.with_related().filter(round__season=season).order_by("round__number", "pk"):
        play(fixture, organiser)
    assert f'<a href="{url(team)}">Off-season re-draft</a>' in client.get(page).content.decode()


def test_the_cap_applies_and_shows(client, organiser):
    season = finished_season(organiser, teams=4, redraft_cap=True)
    team = Team.objects.filter(league=season.league).first()
    feed = client.get(reverse("dungeonbowl:team_json", args=[team.league.slug, team.slug])).json()["redraft"]
    assert feed["budget"] == 1_300_000 and feed["cap_applied"]
    assert feed["lines"][-1]["reason"] == "League cap of 1,300,000 gp"
    assert sum(line["gp"] for line in feed["lines"]) == 1_300_000


def test_a_coach_who_does_not_redraft_drafts_a_new_team(client, organiser, season, team):
    login(client, team.coach.user)
    # Retiring is asked first; the first click writes nothing.
    page = step(client, team, "retire")
    assert page.status_code == 200 and f"Retire {team.name}?" in page.content.decode() and not Redraft.objects.exists()
    assert step(client, team, "retire", confirmed="yes").status_code == 302
    assert Redraft.objects.get(team=team).step == 0
    response = client.post(reverse("dungeonbowl:create_team", args=[season.league.slug]),
                           {"name": "Second Wind", "college": team.college.pk})
    assert response.status_code == 302
    assert Team.objects.filter(league=season.league, coach=team.coach).count() == 2
    # The retired team keeps its players and history.
    assert team.players.on_draft_list().count() == 8
    assert redraft_selectors.next_season(season.league).ready == []


@pytest.mark.parametrize("size", [4, 40])
def test_pages_cost_a_fixed_number_of_queries(client, organiser, django_assert_max_num_queries, size):
    season = db_season(organiser, teams=size)
    Honour.objects.create(season=season, team=Team.objects.filter(league=season.league).first(),
                          placing=Placing.CHAMPION, prize=100_000)  # the season is over (DB-3)
    team = Team.objects.filter(league=season.league).last()
    team.players.update(mvp_awards=1, niggling_injuries=1)
    login(client, organiser)
    for action in ("scout", "recover", "funds"):
        with django_assert_max_num_queries(16):
            assert client.get(url(team)).status_code == 200
        step(client, team, action)
    with django_assert_max_num_queries(16):
        assert "Submit the re-draft" in client.get(url(team)).content.decode()
    with django_assert_max_num_queries(11):  # the team feed with its Trophy and honours (DB-14)
        assert client.get(reverse("dungeonbowl:team_json", args=[team.league.slug, team.slug])).json()["redraft"]
    with django_assert_max_num_queries(9):
        client.get(reverse("dungeonbowl:next_season", args=[season.league.slug]))


def test_the_admin_shows_redrafts_to_their_league_only(client, organiser, other_organiser, season, team):
    redraft.scout(team=team, by=organiser)
    changelist = reverse("admin:dungeonbowl_redraft_changelist")
    login(client, organiser)
    page = client.get(changelist)
    assert page.status_code == 200 and team.name in page.content.decode()
    assert client.get(reverse("admin:dungeonbowl_redraft_change", args=[Redraft.objects.get().pk])).status_code == 200
    assert client.get(reverse("admin:dungeonbowl_redraft_add")).status_code == 403
    client.logout()
    login(client, other_organiser)
    assert team.name not in client.get(changelist).content.decode()


def test_a_team_that_played_is_not_drafted_again_from_scratch(client, season, team):
    """Its players and their history stay: the list changes by the re-draft (DB-15)."""
    login(client, team.coach.user)
    position = team.college.positions.get(name="Dwarf Blocker Lineman")
    response = client.post(reverse("dungeonbowl:draft", args=[team.league.slug]),
                           {"rerolls": 0, f"pos_{position.pk}": 11, "submit": "1"})
    assert response.status_code == 400 and "never by a new draft" in response.content.decode()
    assert team.players.on_draft_list().count() == 8 and team.players.count() == 8


def test_going_back_after_spending_the_unspent_budget_is_refused(organiser, season, team):
    from league.dungeonbowl.spending import services as spending

    slayer = team.players.get(number=1)
    redraft.scout(team=team, by=organiser, table={slayer.pk: 1})
    for act in (redraft.recover, redraft.raise_funds):
        act(team=team, by=organiser)
    redraft.redraft_team(team=team, by=organiser, rehire=[slayer.pk], rookies=[], rerolls=0)
    spending.hire_player(team=team, position=team.college.positions.get(name="Ogre Blocker"), name="Big Un",
                         by=team.coach.user)  # takes #2, a dropped player's number
    lines = TreasuryLine.objects.count()
    with pytest.raises(ValidationError, match="fire them first"):
        redraft.go_back(team=team, to=1, by=organiser)
    assert TreasuryLine.objects.count() == lines and Redraft.objects.get().step == 5
    spending.fire_player(player=team.players.get(name="Big Un"), by=team.coach.user)
    with pytest.raises(ValidationError, match="below 0"):  # the unspent budget, taken back, is partly spent
        redraft.go_back(team=team, to=4, by=organiser)
    assert TreasuryLine.objects.count() == lines and Redraft.objects.get().step == 5


def test_the_demo_coach_can_try_the_redraft(client):
    """The demo's finished season leaves its teams in the off-season (DB-15)."""
    from django.contrib.auth import get_user_model

    from league.dungeonbowl import demo

    demo.load()
    user = get_user_model().objects.get(username="dungeon")
    team = Team.objects.get(league__slug=demo.DEMO_SLUG, coach__user=user)
    client.force_login(user)
    page = client.get(url(team)).content.decode()
    assert "Roll the scouting dice" in page or "Roll (blank boxes)" in page
    assert step(client, team, "scout").status_code == 302
    assert step(client, team, "recover").status_code == 302
    assert step(client, team, "funds").status_code == 302
    feed = client.get(reverse("dungeonbowl:team_json", args=[demo.DEMO_SLUG, team.slug])).json()["redraft"]
    assert feed["raised"] and feed["budget"] == Redraft.objects.get(team=team).budget >= 1_000_000


def test_once_a_team_redrafts_the_seasons_results_cannot_change(client, organiser, season, team):
    """DB-15 counts the season's games, wins and prizes: once a team has begun
    re-drafting from them, reopening one of its results is refused."""
    from league.services import results as engine

    result = Fixture.objects.filter(round__season=season).first().result
    login(client, team.coach.user)
    assert step(client, team, "scout").status_code == 302
    with pytest.raises(ValidationError, match="Re-drafting after"):
        engine.reopen_result(result=result, by=organiser, reason="late correction")
    result.refresh_from_db()
    assert result.status == result.Status.APPROVED

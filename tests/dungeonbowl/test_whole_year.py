"""End to end: a Dungeon Bowl league of 8 teams in 2 divisions played
through a whole year (DB-3): the regular season with a friendly, a concession and
an unplayed fixture (DB-5a), the play-offs (DB-5b), prizes and the Trophy (DB-14),
re-drafting (DB-15, rolls logged DB-16) and into season 2, every team's gold
checked against the hand calculation written here."""

import datetime

import pytest
from django.http import HttpRequest
from django.urls import reverse

from league.services import results as engine
from league.services import seasons as season_services
from league.dungeonbowl.playoffs import services as playoffs
from league.dungeonbowl.redraft import services as redraft
from league.dungeonbowl.teams import services
from league.dungeonbowl.models import College, DiceRoll, PlayoffSlot as S, Team
from league.dungeonbowl.seasons import season_over, trophy_holder_id
from league.models import Entry, Fixture, Season
from tests.dungeonbowl.builders import db_league, db_team
from tests.dungeonbowl.offseason import play
from tests.dungeonbowl.playoff_builders import game
from tests.support.factories import PASSWORD, CoachFactory, SeasonFactory

pytestmark = pytest.mark.django_db

NAMES = [f"Team {i:02d}" for i in range(1, 9)]  # odd: College of Fire, even: College of Shadows
# DB-6: the builders' drafts spend 655,000 (Fire) and 715,000 gp (Shadows) of 1,000,000.
FIRE, SHADOWS = 345_000, 285_000
WIN, LOSS = 40_000, 10_000  # DB-10: every game's winnings dice are 4 and 1


def gold() -> dict[str, int]:
    return {team.name: team.treasury() for team in Team.objects.order_by("name")}


def fixture_between(season, a: str, b: str, stage=Fixture.Stage.REGULAR) -> Fixture:
    return next(f for f in Fixture.objects.with_related().filter(round__season=season, stage=stage, away__isnull=False)
                if {f.home.team, f.away.team} == {a, b})


def won_by(fixture: Fixture, organiser, team: str):
    return play(fixture, organiser, home=int(fixture.home.team == team), away=int(fixture.away.team == team))


def login(client, user):
    assert client.login(request=HttpRequest(), username=user.username, password=PASSWORD)


def test_a_whole_year_to_the_gold_piece(client, organiser):
    league = db_league(organiser, playoffs=2)
    one = SeasonFactory(league=league, name="Season 1", start_date=datetime.date(2026, 9, 7))
    teams = {name: db_team(league, name, college="college-of-fire" if i % 2 == 0 else "college-of-shadows")
             for i, name in enumerate(NAMES)}
    entries = {name: services.enter_team(team=team, season=one, by=organiser) for name, team in teams.items()}
    season_services.set_season_divisions(season=one, by=organiser, divisions={
        "Division A": [entries[n] for n in NAMES[:4]], "Division B": [entries[n] for n in NAMES[4:]]})
    season_services.generate_fixtures(season=one, by=organiser, seed=11)
    assert gold() == {n: FIRE if i % 2 == 0 else SHADOWS for i, n in enumerate(NAMES)}

    # Regular season: within a division the lower number wins 1-0 (its #1 scores, MVP), except
    # 03 v 04, not played by the deadline (a loss for both, nothing paid), and 07 v 08, which 08 concedes
    # (07 gets the higher die only, 08 nothing).
    for fixture in Fixture.objects.with_related().filter(round__season=one, away__isnull=False):
        pair = {fixture.home.team, fixture.away.team}
        if pair == {"Team 03", "Team 04"}:
            engine.record_result(fixture=fixture, by=organiser, reason="not played by the deadline", abandoned=True)
        elif pair == {"Team 07", "Team 08"}:
            side = "home" if fixture.home.team == "Team 08" else "away"
            engine.record_result(fixture=fixture, by=organiser, reason="conceded", home_score=0, away_score=0,
                                 ending=f"{side}_conceded", home_gather=0, away_gather=0, home_journeymen=0,
                                 away_journeymen=0, dice=[4, 1])
        else:
            won_by(fixture, organiser, min(pair))
    # A cross-division friendly: 08 beats 04 (a game played for both, no league fixture won).
    friendly = season_services.add_friendly(season=one, by=organiser, home=entries["Team 04"], away=entries["Team 08"],
                                   date=datetime.date(2026, 9, 20))
    won_by(friendly, organiser, "Team 08")
    assert gold() == {
        "Team 01": FIRE + 3 * WIN,                       # 465,000
        "Team 02": SHADOWS + 2 * WIN + LOSS,             # 375,000
        "Team 03": FIRE + 2 * LOSS,                      # 365,000 (the unplayed game pays nothing)
        "Team 04": SHADOWS + 2 * LOSS + LOSS,            # 315,000 (with the friendly)
        "Team 05": FIRE + 3 * WIN,                       # 465,000
        "Team 06": SHADOWS + 2 * WIN + LOSS,             # 375,000
        "Team 07": FIRE + 2 * LOSS + WIN,                # 405,000 (the concession: the higher die)
        "Team 08": SHADOWS + 2 * LOSS + WIN,             # 345,000 (conceded: nothing; the friendly won)
    }
    assert not season_over(one)

    # Play-offs (DB-5b, two divisions): 01 (A1) v 06 (B2), 05 (B1) v 02 (A2); 02 wins it all, 05 is third.
    semis = playoffs.start_playoffs(season=one, by=organiser)
    assert [(g.fixture.home.team, g.fixture.away.team) for g in semis] == [("Team 01", "Team 06"), ("Team 05", "Team 02")]
    won_by(game(one, S.SEMI_1).fixture, organiser, "Team 01")
    won_by(game(one, S.SEMI_2).fixture, organiser, "Team 02")
    won_by(game(one, S.FINAL).fixture, organiser, "Team 02")
    assert not season_over(one)
    won_by(game(one, S.THIRD).fixture, organiser, "Team 05")
    assert season_over(one) and trophy_holder_id(league) == teams["Team 02"].pk
    ended = {
        "Team 01": 465_000 + WIN + LOSS + 60_000,       # semi won, final lost, runner-up: 575,000
        "Team 02": 375_000 + WIN + WIN + 100_000,       # semi and final won, champion: 555,000
        "Team 03": 365_000,
        "Team 04": 315_000,
        "Team 05": 465_000 + LOSS + WIN + 30_000,       # semi lost, third place won: 545,000
        "Team 06": 375_000 + LOSS + LOSS,               # 395,000
        "Team 07": 405_000,
        "Team 08": 345_000,
    }
    assert gold() == ended

    # Off-season (DB-15). 04 does not re-draft: it retires, its coach drafts Team 09; a new coach joins with
    # Team 10. The others run every step; the commissioner enters the scouting dice from the table:
    # a 6 for Team 01's #1 (3 regular and 1 play-off MVP), a 1 for every other MVP.
    redraft.retire_team(team=teams["Team 04"], by=teams["Team 04"].coach.user)
    # The commissioner accepts both new teams with their drafts by locking them (DB-1).
    services.lock_draft(team=db_team(league, "Team 09", coach=teams["Team 04"].coach), by=organiser)
    services.lock_draft(team=db_team(league, "Team 10", college="college-of-shadows", coach=CoachFactory(name="Newcomer")),
                        by=organiser)
    slayer = teams["Team 01"].players.get(number=1)
    for name in NAMES:
        if name == "Team 04":
            continue
        team = teams[name]
        mvps = team.players.on_draft_list().filter(mvp_awards__gt=0)
        redraft.scout(team=team, by=organiser, table={p.pk: 6 if p.pk == slayer.pk else 1 for p in mvps})
        redraft.recover(team=team, by=team.coach.user)
        redraft.raise_funds(team=team, by=team.coach.user)
    # Budgets: 1,000,000 + the Treasury + 20,000 a game played (regular, play-off, friendly, conceded
    # included, the unplayed one not) + 20,000 a league fixture won (regular and play-off) + 20,000 a
    # player scouted.
    games = {"Team 01": 5, "Team 02": 5, "Team 03": 2, "Team 05": 5, "Team 06": 5, "Team 07": 3, "Team 08": 4}
    wins = {"Team 01": 4, "Team 02": 4, "Team 03": 0, "Team 05": 4, "Team 06": 2, "Team 07": 1, "Team 08": 0}
    budgets = {n: 1_000_000 + ended[n] + 20_000 * games[n] + 20_000 * wins[n] + (20_000 if n == "Team 01" else 0)
               for n in games}
    assert budgets == {"Team 01": 1_775_000, "Team 02": 1_735_000, "Team 03": 1_405_000, "Team 05": 1_725_000,
                       "Team 06": 1_535_000, "Team 07": 1_485_000, "Team 08": 1_425_000}
    for name, budget in budgets.items():
        feed = client.get(reverse("dungeonbowl:team_json", args=[league.slug, teams[name].slug])).json()["redraft"]
        assert (feed["budget"], feed["cap_applied"]) == (budget, False)
        assert sum(line["gp"] for line in feed["lines"]) == budget
    assert all(gold()[n] == 0 for n in budgets)  # raising funds empties the Treasury
    assert DiceRoll.objects.filter(purpose="scouting", values=[6]).count() == 1

    # Re-draft: everyone still there re-hired at value + 20,000 (one season played), both re-rolls kept;
    # Team 01 replaces its scouted Troll Slayer with a rookie one.
    for name in budgets:
        team = teams[name]
        keep = list(team.players.on_draft_list().values_list("pk", flat=True))
        redraft.redraft_team(team=team, by=team.coach.user, rehire=keep, rerolls=2,
                             rookies=["Troll Slayer"] if name == "Team 01" else [])
    fire = 555_000 + 8 * 20_000 + 2 * 50_000      # 815,000
    shadows = 615_000 + 8 * 20_000 + 2 * 50_000   # 875,000
    cost = {"Team 01": fire - (95_000 + 20_000) + 95_000, "Team 02": shadows, "Team 03": fire,
            "Team 05": fire, "Team 06": shadows, "Team 07": fire, "Team 08": shadows}
    after = {n: budgets[n] - cost[n] for n in budgets}
    assert after == {"Team 01": 980_000, "Team 02": 860_000, "Team 03": 590_000, "Team 05": 910_000,
                     "Team 06": 660_000, "Team 07": 670_000, "Team 08": 550_000}

    # Season 2: the commissioner opens it, divisions kept, the new teams join the smaller division.
    login(client, organiser)
    response = client.post(reverse("dungeonbowl:next_season", args=[league.slug]),
                           {"name": "Season 2", "start_date": "2027-09-06", "divisions": "keep"})
    assert response.status_code == 302
    two = Season.objects.get(league=league, name="Season 2")
    placed = {e.team: e.division.name for e in Entry.objects.filter(season=two).select_related("division")}
    assert placed == {"Team 01": "Division A", "Team 02": "Division A", "Team 03": "Division A",
                      "Team 09": "Division A", "Team 10": "Division A", "Team 05": "Division B",
                      "Team 06": "Division B", "Team 07": "Division B", "Team 08": "Division B"}
    assert gold() == {**after, "Team 04": ended["Team 04"], "Team 09": FIRE, "Team 10": SHADOWS}
    assert trophy_holder_id(league) == teams["Team 02"].pk  # until season 2's champion is crowned

    # The first game of season 2 pays as any other.
    first = Fixture.objects.with_related().filter(round__season=two, away__isnull=False).order_by("round__number", "pk")[0]
    won_by(first, organiser, first.home.team)
    expected = {**after, "Team 04": ended["Team 04"], "Team 09": FIRE, "Team 10": SHADOWS}
    expected[first.home.team] += WIN
    expected[first.away.team] += LOSS
    assert gold() == expected
    # Season 1 is as it was: its 12 regular results, the friendly and 4 play-off games.
    assert Fixture.objects.filter(round__season=one, result__status="approved").count() == 12 + 1 + 4
    assert College.objects.get(slug="college-of-fire").teams.filter(league=league).count() == 5

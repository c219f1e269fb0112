"""Head-to-head first, a Dungeon Bowl or DreadBall league's house rule: among
entrants level on League Points, the League Points they earned in their games
against each other decide first, then the rulebook's order (DB-5a, DR-4); Guild
Ball keeps GB-9. Two- and three-way ties where it decides and where the tied
entrants never met, as pure rankings, and the standings page that says so."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from league.dreadball.models import DreadBallResult, DreadBallSettings
from league.dreadball.rules import DreadBallRules
from league.dungeonbowl.models import DungeonBowlSettings
from league.dungeonbowl.rules import DungeonBowlRules
from league.guildball.rules import GuildBallRules
from league.models import Round
from league.rules.base import PlayedResult
from league.standings.ranking import EntryInfo, compute_table
from tests.support.factories import EntryFactory, FixtureFactory, LeagueFactory, ResultFactory, RoundFactory, SeasonFactory

ENTRIES = [EntryInfo(i, 100 + i, name) for i, name in enumerate(["Ann", "Bea", "Cal", "Dov"], 1)]


def rush(home, away, winner, difference, round_number=1):
    """A DreadBall result won by ``winner`` ("home"/"away") by ``difference``."""
    return PlayedResult(round_number, home, away, None, None, winner,
                        details={"difference": difference, "landslide": difference == 7})


def dreadball(results, *, head_to_head):
    return compute_table(ENTRIES, results, DreadBallRules(DreadBallSettings(head_to_head_first=head_to_head)))


def order(rows):
    return [(row.position_label, row.coach, row.lp) for row in rows]


def test_two_way_tie_decided_by_the_game_between_them():
    # Ann and Bea both on 4 LP; Bea beat Ann by 1, Ann has the better Strike Difference.
    results = [rush(2, 1, "home", 1, 1), rush(1, 3, "home", 6, 2), rush(1, 4, "home", 6, 3), rush(2, 3, "home", 1, 3)]
    assert order(dreadball(results, head_to_head=False))[:2] == [("1", "Ann", 4), ("2", "Bea", 4)]
    rows = dreadball(results, head_to_head=True)
    assert order(rows)[:2] == [("1", "Bea", 4), ("2", "Ann", 4)]
    assert rows[0].note == ("level with Ann on 4 LP; ahead on League Points in games between the entrants "
                            "level on 4 LP, 2 to 0")
    assert rows[1].note.startswith("level with Bea on 4 LP; behind on League Points in games between")


def test_two_way_tie_of_entrants_who_never_met_goes_to_the_rulebook():
    # Ann beat Cal by 6, Bea beat Dov by 2: level on 2 LP, never met.
    rows = dreadball([rush(1, 3, "home", 6), rush(2, 4, "home", 2)], head_to_head=True)
    assert order(rows)[:2] == [("1", "Ann", 2), ("2", "Bea", 2)]
    assert rows[0].note == ("level with Bea on 2 LP and never met, so League Points against each other did not "
                            "separate them; ahead on Strike Difference, +6 to +2")


def test_three_way_tie_decided_by_the_games_among_them():
    # Ann, Bea and Cal on 4 LP. Among them Ann won both (4), Bea beat Cal (2), Cal
    # none; Cal's two big wins over Dov give Cal the best Strike Difference.
    results = [
        rush(1, 2, "home", 1, 1), rush(1, 3, "home", 1, 2), rush(2, 3, "home", 1, 3),
        rush(4, 1, "home", 6, 4), rush(3, 4, "home", 6, 1), rush(3, 4, "home", 6, 4), rush(2, 4, "home", 1, 2),
    ]
    assert [row.coach for row in dreadball(results, head_to_head=False)] == ["Cal", "Bea", "Ann", "Dov"]
    rows = dreadball(results, head_to_head=True)
    assert order(rows) == [("1", "Ann", 4), ("2", "Bea", 4), ("3", "Cal", 4), ("4", "Dov", 2)]
    assert [row.mutual_lp for row in rows[:3]] == [4, 2, 0]
    assert rows[2].note.endswith("behind on League Points in games between the entrants level on 4 LP, 0 to 2")


def test_three_way_tie_of_entrants_who_never_met_goes_to_the_rulebook():
    # Ann, Bea and Cal each beat Dov once, by 1, 3 and 5: level on 2 LP, never met.
    results = [rush(1, 4, "home", 1, 1), rush(2, 4, "home", 3, 2), rush(3, 4, "home", 5, 3)]
    rows = dreadball(results, head_to_head=True)
    assert order(rows)[:3] == [("1", "Cal", 2), ("2", "Bea", 2), ("3", "Ann", 2)]
    assert all("never met" in row.note for row in rows[:3])


def test_three_way_tie_level_among_themselves_falls_to_the_rulebook():
    # A cycle: Ann beat Bea, Bea beat Cal, Cal beat Ann, each by a different margin.
    results = [rush(1, 2, "home", 1, 1), rush(2, 3, "home", 3, 2), rush(3, 1, "home", 6, 3)]
    rows = dreadball(results, head_to_head=True)
    assert order(rows)[:3] == [("1", "Cal", 2), ("2", "Bea", 2), ("3", "Ann", 2)]
    assert rows[0].note == ("level with Bea on 2 LP and 2 LP in games between the entrants level on 2 LP; ahead on "
                            "Strike Difference, +3 to +2")


def test_dungeon_bowl_two_way_tie_decided_by_the_game_between_them():
    def match(home, away, hs, xs, round_number):
        outcome = "home" if hs > xs else "away"
        return PlayedResult(round_number, home, away, hs, xs, outcome, details={"home_cas": 0, "away_cas": 0})

    # Bea beat Ann 1-0; Ann beat Cal 5-0: both one win, Ann with more touchdowns.
    results = [match(2, 1, 1, 0, 1), match(1, 3, 5, 0, 2)]
    plain = compute_table(ENTRIES, results, DungeonBowlRules(DungeonBowlSettings()))
    assert [row.coach for row in plain[:2]] == ["Ann", "Bea"]
    rows = compute_table(ENTRIES, results, DungeonBowlRules(DungeonBowlSettings(head_to_head_first=True)))
    assert [row.coach for row in rows[:2]] == ["Bea", "Ann"]


def test_guild_ball_keeps_its_own_order():
    assert GuildBallRules(None).head_to_head is False


@pytest.mark.django_db
def test_standings_page_names_the_house_rule(client):
    league = LeagueFactory(game_system="dreadball", slug="rushes")
    DreadBallSettings.objects.create(league=league, head_to_head_first=True)
    season = SeasonFactory(league=league, start_date=datetime.date(2026, 9, 7))
    ann, bea, cal, dov = (EntryFactory(season=season, coach__name=name, team=f"{name} Sharks")
                          for name in ("Ann", "Bea", "Cal", "Dov"))

    def played(number, home, away, difference):
        rnd = Round.objects.filter(season=season, number=number).first() or RoundFactory(season=season, number=number)
        fixture = FixtureFactory(round=rnd, home=home, away=away)
        result = ResultFactory(fixture=fixture, home_score=None, away_score=None, outcome="home",
                               summary=f"won by {difference}")
        DreadBallResult.objects.create(result=result, difference=difference, landslide=difference == 7,
                                       rush=14, sudden_death=False)

    played(1, bea, ann, 1)
    played(2, ann, cal, 6)
    played(3, ann, dov, 6)
    played(3, bea, cal, 1)
    page = client.get(reverse("league:league_detail", args=[league.slug]))
    text = page.content.decode()
    assert text.index("Bea") < text.index("Ann")
    assert "ahead on League Points in games between the entrants level on 4 LP, 2 to 0" in text

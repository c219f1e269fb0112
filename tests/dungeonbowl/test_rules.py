"""The Dungeon Bowl pure rules (RULES.md DB-4 to DB-15), without the database."""

import pytest

from league.dungeonbowl import rules as r
from league.dungeonbowl.rules import Outcome

FIRE = r.Roster(
    "College of Fire",
    (
        r.RosterPosition("Dwarf Blocker Lineman", 70_000, "Linemen", 16),
        r.RosterPosition("Gnoblar Lineman", 15_000, "Linemen", 16),
        r.RosterPosition("Bloodborn Marauder Lineman", 50_000, "Linemen", 16),
        r.RosterPosition("Dwarf Runner", 85_000, "Runners", 2),
        r.RosterPosition("Dwarf Blitzer", 80_000, "Blitzers", 2),
        r.RosterPosition("Chaos Dwarf Blocker", 70_000, "Blockers", 4),
        r.RosterPosition("Troll Slayer", 95_000, "Special", 2),
        r.RosterPosition("Chaos Dwarf Flamesmith", 80_000, "Special", 2),
        r.RosterPosition("Ogre Blocker", 140_000, "Big Guys", 3),
    ),
)
SHADOWS = r.Roster(
    "College of Shadows",
    (
        r.RosterPosition("Dark Elf Lineman", 70_000, "Linemen", 16),
        r.RosterPosition("Goblin Lineman", 40_000, "Linemen", 16),
        r.RosterPosition("Gutter Runner", 85_000, "Runners", 4),
        r.RosterPosition("Woodland Fox", 50_000, "Runners", 4),
        r.RosterPosition("Dark Elf Blitzer", 100_000, "Blitzers", 2),
        r.RosterPosition("Skaven Blitzer", 90_000, "Blitzers", 2),
    ),
)


# Drafts (DB-6, DB-7) -----------------------------------------------------------------


def test_a_legal_draft_costs_players_and_rerolls_and_leaves_the_treasury():
    picks = ["Dwarf Blocker Lineman"] * 6 + ["Troll Slayer", "Dwarf Runner"]
    check = r.check_draft(FIRE, picks, rerolls=2, budget=1_000_000)
    assert check.ok
    assert check.players_cost == 6 * 70_000 + 95_000 + 85_000 == 600_000
    assert check.rerolls_cost == 100_000
    assert check.cost == 700_000 and check.remaining == check.treasury == 300_000


def test_spending_the_whole_budget_is_allowed_and_leaves_nothing():
    check = r.require_draft(FIRE, ["Gnoblar Lineman"] * 4, rerolls=0, budget=60_000)
    assert check.remaining == check.treasury == 0


def test_over_budget_says_by_how_much():
    check = r.check_draft(FIRE, ["Ogre Blocker"] * 3 + ["Dwarf Blitzer"] * 2, rerolls=8, budget=975_000)
    # 420,000 + 160,000 + 400,000 = 980,000
    assert check.refusals == ("Over budget by 5,000 gp.",)
    with pytest.raises(r.DraftRefused, match="Over budget by 5,000 gp"):
        r.require_draft(FIRE, ["Ogre Blocker"] * 3 + ["Dwarf Blitzer"] * 2, rerolls=8, budget=975_000)
    with pytest.raises(ValueError, match="refused draft"):
        check.treasury


def test_a_shared_group_limit_names_both_positions_and_the_excess():
    picks = ["Troll Slayer", "Troll Slayer", "Chaos Dwarf Flamesmith"]
    check = r.check_draft(FIRE, picks, rerolls=0, budget=1_000_000)
    assert check.refusals == (
        "0-2 Special: Troll Slayer and Chaos Dwarf Flamesmith together, you have 3 (1 too many).",
    )


def test_limits_at_their_maximum_are_reached_but_allowed():
    picks = ["Troll Slayer", "Chaos Dwarf Flamesmith"] + ["Gnoblar Lineman"] * 14
    check = r.check_draft(FIRE, picks, rerolls=8, budget=2_000_000)
    assert check.ok
    reached = {limit.label for limit in check.reached}
    assert reached == {
        "Up to 16 players",
        "0-2 Special: Troll Slayer and Chaos Dwarf Flamesmith together",
        "0-8 team re-rolls",
    }


def test_seventeen_players_nine_rerolls_and_a_single_position_group():
    picks = ["Gnoblar Lineman"] * 14 + ["Dwarf Runner"] * 3
    check = r.check_draft(FIRE, picks, rerolls=9, budget=5_000_000)
    assert set(check.refusals) == {
        "Up to 16 players, you have 17 (1 too many).",
        "0-2 Runners: Dwarf Runner, you have 3 (1 too many).",
        "0-8 team re-rolls, you have 9 (1 too many).",
    }


def test_unknown_positions_negative_rerolls_and_budget_are_refused():
    check = r.check_draft(SHADOWS, ["Troll Slayer"], rerolls=-1, budget=-5)
    assert "Troll Slayer is not a position of the College of Shadows." in check.refusals
    assert "Team re-rolls cannot be fewer than 0." in check.refusals
    assert any("budget cannot be negative" in m for m in check.refusals)


def test_rerolls_use_the_colleges_price_and_returning_players_their_fee():
    dear = r.Roster("College of Gold", FIRE.positions, reroll_cost=60_000)
    assert r.check_draft(dear, [], rerolls=3, budget=1_000_000).rerolls_cost == 180_000
    pick = r.Pick("Troll Slayer", cost=135_000 + 2 * 20_000, label="Grimm")
    check = r.check_draft(FIRE, [pick, "Troll Slayer"], rerolls=0, budget=1_000_000)
    assert check.players_cost == 175_000 + 95_000 and check.ok
    # A returning player still counts toward the group limit.
    assert r.check_draft(FIRE, [pick] * 3, rerolls=0, budget=9_000_000).refusals[0].startswith("0-2 Special")


# Outcomes, League points, winnings (DB-4, DB-10) -------------------------------------------


@pytest.mark.parametrize(
    "outcome,home,away",
    [
        (Outcome.HOME_WIN, "win", "loss"),
        (Outcome.AWAY_WIN, "loss", "win"),
        (Outcome.DRAW, "draw", "draw"),
        (Outcome.HOME_CONCEDED, "loss", "win"),
        (Outcome.AWAY_CONCEDED, "win", "loss"),
        (Outcome.UNPLAYED, "loss", "loss"),
    ],
)
def test_result_for_each_side(outcome, home, away):
    assert (r.result_for(outcome, "home"), r.result_for(outcome, "away")) == (home, away)


def test_league_points_and_the_casualty_bonus():
    assert [r.league_points(x) for x in ("win", "draw", "loss")] == [3, 1, 0]
    assert r.league_points("win", spp_casualties=3) == 3  # bonus off by default
    assert r.league_points("win", spp_casualties=3, casualty_bonus=True) == 4
    assert r.league_points("loss", spp_casualties=2, casualty_bonus=True) == 0
    assert r.league_points("loss", spp_casualties=5, casualty_bonus=True) == 1
    with pytest.raises(ValueError):
        r.league_points("won")


@pytest.mark.parametrize(
    "outcome,dice,home,away",
    [
        (Outcome.HOME_WIN, (2, 5), 50_000, 20_000),
        (Outcome.AWAY_WIN, (6, 1), 10_000, 60_000),
        (Outcome.HOME_WIN, (4, 4), 40_000, 40_000),
        (Outcome.DRAW, (2, 5), 20_000, 50_000),  # home's die, then away's
        (Outcome.HOME_CONCEDED, (3, 6), 0, 60_000),
        (Outcome.AWAY_CONCEDED, (3, 6), 60_000, 0),
        (Outcome.UNPLAYED, (), 0, 0),
    ],
)
def test_winnings_for_every_outcome(outcome, dice, home, away):
    assert r.winnings(outcome, dice) == r.Winnings(home, away)


def test_winnings_refuse_wrong_dice():
    with pytest.raises(ValueError, match="take 2 dice"):
        r.winnings(Outcome.HOME_WIN, (6,))
    with pytest.raises(ValueError, match="take 0 dice"):
        r.winnings(Outcome.UNPLAYED, (1, 1))
    with pytest.raises(ValueError, match="D6"):
        r.winnings(Outcome.DRAW, (0, 7))


@pytest.mark.parametrize("players,bonus", [(0, 0), (1, 10_000), (2, 10_000), (3, 20_000), (4, 20_000), (5, 30_000), (16, 30_000)])
def test_treasure_room_thresholds(players, bonus):
    assert r.treasure_room_bonus(players) == bonus


def test_treasure_room_bounds():
    for bad in (-1, 17):
        with pytest.raises(ValueError):
            r.treasure_room_bonus(bad)


# SPP (DB-11) --------------------------------------------------------------------------


def test_spp_defaults_and_league_values():
    events = r.GameEvents(completions=2, deflections=1, interceptions=1, casualties=1, touchdowns=1, mvp=True)
    assert r.spp_earned(events) == 2 + 1 + 2 + 2 + 3 + 4
    assert r.spp_earned(r.GameEvents()) == 0
    assert r.spp_earned(r.GameEvents(touchdowns=2), r.SppValues(touchdown=2)) == 4
    with pytest.raises(ValueError):
        r.spp_earned(r.GameEvents(casualties=-1))


# Injuries (DB-13) -----------------------------------------------------------------------

DWARF = r.PlayerState(r.Profile(ma=4, st=3, ag=4, pa=5, av=10))


def test_casualty_table_with_niggling_injuries():
    assert [r.casualty_result(d) for d in (6, 7, 9, 10, 12, 13, 14, 15)] == [
        "badly_hurt", "seriously_hurt", "seriously_hurt", "serious_injury", "serious_injury",
        "lasting_injury", "lasting_injury", "dead",
    ]
    assert r.casualty_result(6, niggling_injuries=1) == "seriously_hurt"
    assert r.casualty_result(16, niggling_injuries=3) == "dead"
    assert [r.lasting_injury_characteristic(d) for d in range(1, 7)] == ["av", "av", "ma", "pa", "ag", "st"]


def test_each_injury_on_plain_values():
    assert r.apply_injury(DWARF, r.Injury.BADLY_HURT).state == DWARF
    assert r.apply_injury(DWARF, r.Injury.SERIOUSLY_HURT).state.miss_next_game
    si = r.apply_injury(DWARF, r.Injury.SERIOUS_INJURY).state
    assert si.niggling_injuries == 1 and si.miss_next_game
    assert r.apply_injury(DWARF, r.Injury.DEAD).state.dead
    li = r.apply_injury(DWARF, r.Injury.LASTING_INJURY, "av")
    assert li.state.profile.av == 9 and li.reduced == "av" and li.state.miss_next_game
    assert r.apply_injury(DWARF, r.Injury.LASTING_INJURY, "ag").state.profile.ag == 5  # 4+ -> 5+
    assert r.apply_injury(DWARF, r.Injury.LASTING_INJURY, "st").state.profile.st == 2


@pytest.mark.parametrize(
    "characteristic,profile",
    [
        ("ma", r.Profile(ma=1, st=3, ag=3, pa=4, av=8)),
        ("st", r.Profile(ma=5, st=1, ag=3, pa=4, av=8)),
        ("ag", r.Profile(ma=5, st=3, ag=6, pa=4, av=8)),
        ("pa", r.Profile(ma=5, st=3, ag=3, pa=6, av=8)),
        ("av", r.Profile(ma=5, st=3, ag=3, pa=4, av=3)),
        ("pa", r.Profile(ma=5, st=3, ag=2, pa=None, av=9)),  # Troll Slayer's "-"
    ],
)
def test_a_lasting_injury_never_goes_past_the_minimum(characteristic, profile):
    outcome = r.apply_injury(r.PlayerState(profile), r.Injury.LASTING_INJURY, characteristic)
    assert outcome.state.profile == profile and outcome.reduced is None
    assert outcome.state.miss_next_game and "minimum" in outcome.note


def test_injury_arguments_are_checked():
    with pytest.raises(ValueError, match="names the characteristic"):
        r.apply_injury(DWARF, r.Injury.LASTING_INJURY)
    with pytest.raises(ValueError, match="Only a Lasting Injury"):
        r.apply_injury(DWARF, r.Injury.SERIOUSLY_HURT, "ma")
    with pytest.raises(ValueError):
        r.apply_injury(DWARF, r.Injury.LASTING_INJURY, "xx")


# Advancement (DB-11) -------------------------------------------------------------------


def test_advancement_costs_by_number_and_kind():
    A = r.Advancement
    assert [r.advancement_cost(A.RANDOM_PRIMARY, n) for n in range(1, 7)] == [3, 4, 6, 8, 10, 15]
    assert r.advancement_cost(A.CHOSEN_PRIMARY, 1) == r.advancement_cost(A.RANDOM_SECONDARY, 1) == 6
    assert r.advancement_cost(A.CHOSEN_SECONDARY, 6) == 40
    assert r.advancement_cost(A.CHARACTERISTIC, 3) == 24
    for bad in (0, 7):
        with pytest.raises(ValueError):
            r.advancement_cost(A.RANDOM_PRIMARY, bad)


def test_value_increases():
    A = r.Advancement
    assert r.value_increase(A.RANDOM_PRIMARY) == r.value_increase(A.CHOSEN_PRIMARY) == 20_000
    assert r.value_increase(A.CHOSEN_SECONDARY) == 40_000
    assert [r.value_increase(A.CHARACTERISTIC, c) for c in ("av", "ma", "pa", "ag", "st")] == [
        10_000, 20_000, 20_000, 40_000, 80_000,
    ]
    with pytest.raises(ValueError):
        r.value_increase(A.CHARACTERISTIC)


def test_characteristic_improvement_stops_at_the_best_value():
    p = r.Profile(ma=9, st=3, ag=1, pa=None, av=10)
    assert p.improved("ma") == (p, False) and p.improved("ag") == (p, False)
    assert p.improved("pa")[0].pa == 6  # "-" becomes 6+
    assert p.improved("av")[0].av == 11 and p.improved("st")[0].st == 4


def test_random_skill_is_a_roll_and_owned_skills_are_rolled_again():
    table = [f"S{i}" for i in range(1, 13)]
    assert r.random_skill(table, 2, 1) == "S1" and r.random_skill(table, 4, 6) == "S12"
    assert r.random_skill(table, 6, 3, owned=["S9"]) is None


# Team Value (DB-8, DB-14) ----------------------------------------------------------------


def test_team_value_and_current_team_value():
    players = [r.PlayerValue(70_000), r.PlayerValue(95_000, miss_next_game=True), r.PlayerValue(140_000)]
    tv = r.team_value(players, rerolls=2, reroll_cost=50_000)
    assert tv == r.TeamValue(405_000, 310_000)
    trophy = r.team_value(players, rerolls=2, reroll_cost=50_000, staff=100_000, trophy=True)
    assert trophy == r.TeamValue(555_000, 460_000)



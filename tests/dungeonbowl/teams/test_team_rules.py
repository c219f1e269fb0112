"""Dungeon Bowl teams as pure rules (RULES.md DB-6 to DB-8, and a returning player's
fee, DB-15), without the database."""

import pytest

from league.dungeonbowl.teams import rules as r

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


# Team Value (DB-8, DB-14) ----------------------------------------------------------------


def test_team_value_and_current_team_value():
    players = [r.PlayerValue(70_000), r.PlayerValue(95_000, miss_next_game=True), r.PlayerValue(140_000)]
    tv = r.team_value(players, rerolls=2, reroll_cost=50_000)
    assert tv == r.TeamValue(405_000, 310_000)
    trophy = r.team_value(players, rerolls=2, reroll_cost=50_000, staff=100_000, trophy=True)
    assert trophy == r.TeamValue(555_000, 460_000)


def test_a_limit_positions_share_says_so_db6():
    assert r.limit_label(2, "Special", ["Troll Slayer", "Chaos Dwarf Flamesmith"]) == (
        "0-2 Special: Troll Slayer and Chaos Dwarf Flamesmith between them")
    assert r.limit_label(16, "Linemen", ["Dwarf Lineman"]) == "0-16 Linemen"

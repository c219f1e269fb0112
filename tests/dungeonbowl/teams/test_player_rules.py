"""A Dungeon Bowl player's injuries and advancements as pure rules (RULES.md DB-11,
DB-13), without the database."""

import pytest

from league.dungeonbowl.teams import player_rules as r

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

"""Play-off seeding and prizes (RULES.md DB-5b, DB-14, DB-16) without the database."""

import pytest

from league.dungeonbowl.playoffs import rules as r



def div(*rows):
    return [r.Standing(team, key) for team, key in rows]


def test_one_division_top_four():
    table = div(("A", (12, 5, 3)), ("B", (9, 4, 1)), ("C", (9, 3, 0)), ("D", (6, 1, 0)), ("E", (3, 0, 0)))
    assert r.playoff_seeding({"League": table}).semi_finals == (("A", "D"), ("B", "C"))


def test_one_division_harmless_and_decisive_ties():
    harmless = div(("A", (12,)), ("B", (9,)), ("C", (9,)), ("D", (6,)), ("E", (3,)))
    assert r.playoff_seeding({"L": harmless}).semi_finals == (("A", "D"), ("B", "C"))
    at_cut = div(("A", (12,)), ("B", (9,)), ("C", (7,)), ("D", (6,)), ("E", (6,)))
    seeding = r.playoff_seeding({"L": at_cut})
    assert seeding.semi_finals is None
    assert seeding.ties == (r.SeedingTie("L", (4, 5), ("D", "E")),)
    settled = r.playoff_seeding({"L": at_cut}, settled=[["E", "D"]])
    assert settled.semi_finals == (("A", "E"), ("B", "C")) and not settled.ties
    top = div(("A", (9,)), ("B", (9,)), ("C", (7,)), ("D", (6,)))
    assert r.playoff_seeding({"L": top}).ties == (r.SeedingTie("L", (1, 2), ("A", "B")),)


def test_two_divisions_cross_over():
    north = div(("N1", (9,)), ("N2", (6,)), ("N3", (6,)))
    south = div(("S1", (9,)), ("S2", (7,)), ("S3", (3,)))
    assert r.playoff_seeding({"North": north, "South": south}).ties == (
        r.SeedingTie("North", (2, 3), ("N2", "N3")),
    )
    north = div(("N1", (9,)), ("N2", (6,)), ("N3", (5,)))
    assert r.playoff_seeding({"North": north, "South": south}).semi_finals == (("N1", "S2"), ("S1", "N2"))


def test_three_divisions_winners_and_the_best_second():
    a = div(("A1", (12,)), ("A2", (7,)), ("A3", (1,)))
    b = div(("B1", (10,)), ("B2", (9,)), ("B3", (1,)))
    c = div(("C1", (11,)), ("C2", (4,)), ("C3", (1,)))
    assert r.playoff_seeding({"A": a, "B": b, "C": c}).semi_finals == (("A1", "B2"), ("C1", "B1"))
    # The two best seconds tie: who goes through is the commissioner's call.
    a2 = div(("A1", (12,)), ("A2", (9,)), ("A3", (1,)))
    ties = r.playoff_seeding({"A": a2, "B": b, "C": c}).ties
    assert ties == (r.SeedingTie("second-placed teams", (1, 2), ("A2", "B2")),)
    # Seconds tied for a place that qualifies nobody: no tie to settle.
    c2 = div(("C1", (11,)), ("C2", (7,)), ("C3", (1,)))
    assert r.playoff_seeding({"A": a, "B": b, "C": c2}).semi_finals == (("A1", "B2"), ("C1", "B1"))
    # The best two winners tie: which one meets the best second is not decided.
    c3 = div(("C1", (12,)), ("C2", (4,)), ("C3", (1,)))
    ties = r.playoff_seeding({"A": a, "B": b, "C": c3}).ties
    assert ties == (r.SeedingTie("division winners", (1, 2), ("A1", "C1")),)


def test_four_divisions_winners_best_against_worst():
    tables = {
        name: div((f"{name}1", (score,)), (f"{name}2", (1,)))
        for name, score in (("A", 12), ("B", 6), ("C", 9), ("D", 7))
    }
    assert r.playoff_seeding(tables).semi_finals == (("A1", "B1"), ("C1", "D1"))
    tables["D"] = div(("D1", (9,)), ("D2", (1,)))  # C1 and D1 share 2nd: harmless
    assert r.playoff_seeding(tables).semi_finals == (("A1", "B1"), ("C1", "D1"))
    tables["D"] = div(("D1", (6,)), ("D2", (6,)))  # a tie for D's title
    assert r.playoff_seeding(tables).ties[0] == r.SeedingTie("D", (1, 2), ("D1", "D2"))


def test_seeding_refuses_impossible_divisions():
    with pytest.raises(ValueError):
        r.playoff_seeding({})
    with pytest.raises(ValueError, match="top 4"):
        r.playoff_seeding({"L": div(("A", (1,)), ("B", (0,)))})


# Odd ties at qualifying places (DB-5b) -------------------------------------------------


def test_three_way_tie_straddling_the_cut_in_one_division():
    table = div(("A", (12,)), ("B", (9,)), ("C", (6,)), ("D", (6,)), ("E", (6,)), ("F", (1,)))
    seeding = r.playoff_seeding({"L": table})
    assert seeding.ties == (r.SeedingTie("L", (3, 4, 5), ("C", "D", "E")),)
    # A settlement naming only two of the three teams decides nothing.
    assert r.playoff_seeding({"L": table}, settled=[["E", "D"]]).ties == seeding.ties
    settled = r.playoff_seeding({"L": table}, settled=[["E", "C", "D"]])
    assert settled.semi_finals == (("A", "C"), ("B", "E")) and not settled.ties


def test_a_tie_below_the_cut_is_harmless_and_equal_keys_on_every_figure_count_as_a_tie():
    table = div(("A", (9, 3, 1)), ("B", (9, 3, 0)), ("C", (6, 2, 2)), ("D", (6, 2, 1)), ("E", (3,)), ("F", (3,)))
    assert r.playoff_seeding({"L": table}).semi_finals == (("A", "D"), ("B", "C"))
    level = div(("A", (9, 3, 1)), ("B", (9, 3, 1)), ("C", (6,)), ("D", (5,)))
    assert r.playoff_seeding({"L": level}).ties == (r.SeedingTie("L", (1, 2), ("A", "B")),)


def test_four_teams_level_in_one_division_of_four():
    table = div(("A", (6,)), ("B", (6,)), ("C", (6,)), ("D", (6,)))
    assert r.playoff_seeding({"L": table}).ties == (r.SeedingTie("L", (1, 2, 3, 4), ("A", "B", "C", "D")),)
    assert r.playoff_seeding({"L": table}, settled=[["C", "A", "D", "B"]]).semi_finals == (("C", "B"), ("A", "D"))


def test_two_divisions_tie_for_a_title_and_both_seconds_tied_at_once():
    north = div(("N1", (9,)), ("N2", (9,)), ("N3", (3,)))
    south = div(("S1", (9,)), ("S2", (6,)), ("S3", (6,)), ("S4", (0,)))
    ties = r.playoff_seeding({"North": north, "South": south}).ties
    assert ties == (r.SeedingTie("North", (1, 2), ("N1", "N2")), r.SeedingTie("South", (2, 3), ("S2", "S3")))
    seeding = r.playoff_seeding({"North": north, "South": south}, settled=[["N2", "N1"], ["S3", "S2"]])
    assert seeding.semi_finals == (("N2", "S3"), ("S1", "N1"))


def test_settling_a_division_decides_nothing_among_the_second_placed_teams():
    # A2 and A3 are level, and level with B2: who is A's second is one tie, which
    # second goes through is another, settled separately.
    a = div(("A1", (12,)), ("A2", (7,)), ("A3", (7,)))
    b = div(("B1", (10,)), ("B2", (7,)), ("B3", (1,)))
    c = div(("C1", (11,)), ("C2", (4,)), ("C3", (1,)))
    first = r.playoff_seeding({"A": a, "B": b, "C": c})
    assert first.ties[0] == r.SeedingTie("A", (2, 3), ("A2", "A3"))
    second = r.playoff_seeding({"A": a, "B": b, "C": c}, settled=[["A3", "A2"]])
    assert second.ties == (r.SeedingTie("second-placed teams", (1, 2), ("A3", "B2")),)
    done = r.playoff_seeding({"A": a, "B": b, "C": c}, settled=[["A3", "A2"], ["B2", "A3"]])
    assert done.semi_finals == (("A1", "B2"), ("C1", "B1"))


def test_four_division_winners_level_for_the_top_seed():
    tables = {name: div((f"{name}1", (9,)), (f"{name}2", (1,))) for name in "ABCD"}
    ties = r.playoff_seeding(tables).ties
    assert ties == (r.SeedingTie("division winners", (1, 2, 3, 4), ("A1", "B1", "C1", "D1")),)
    assert r.playoff_seeding(tables, settled=[["D1", "C1", "B1", "A1"]]).semi_finals == (("D1", "A1"), ("C1", "B1"))


# Settling by a roll (DB-16), prizes (DB-14) ----------------------------------------------


def test_a_roll_settles_a_tie_highest_first_and_equal_dice_settle_nothing():
    assert r.order_by_rolls(["D", "E"], [2, 5]) == ["E", "D"]
    assert r.order_by_rolls(["C", "D", "E"], [4, 6, 1]) == ["D", "C", "E"]
    assert r.order_by_rolls(["D", "E"], [3, 3]) is None
    with pytest.raises(ValueError):
        r.order_by_rolls(["D", "E"], [7, 1])
    with pytest.raises(ValueError):
        r.order_by_rolls(["D", "E"], [1])


def test_placings_and_prizes():
    placed = r.placings(("A", "B"), "B", ("C", "D"), "C")
    assert placed == r.Placings("B", "A", "C")
    assert placed.prizes() == [(1, "B", 100_000), (2, "A", 60_000), (3, "C", 30_000)]
    assert sum(gp for _, _, gp in placed.prizes()) == 190_000
    with pytest.raises(ValueError):
        r.placings(("A", "B"), "C", ("C", "D"), "C")
    with pytest.raises(ValueError):
        r.placings(("A", "B"), "A", ("A", "D"), "D")

"""GB-9, GB-10: standings order, shared positions, tie explanations, history."""

from league.guildball.models import GuildBallSettings
from league.guildball.rules import GuildBallRules
from league.standings.ranking import EntryInfo, PlayedResult, compute_table, lp_before_round, standings_by_round, with_history

RULES = GuildBallRules(GuildBallSettings(vp_target=12))


def entries(*names):
    return [EntryInfo(entry_id=i, coach_id=100 + i, coach=name) for i, name in enumerate(names, start=1)]


def result(rnd, home, away, hs, as_, outcome=None):
    return PlayedResult(rnd, home, away, hs, as_, outcome or ("home" if hs > as_ else "away"))


def table_of(es, rs):
    return [(r.coach, r.position_label, r.lp, r.stats['vp_for'], r.stats['vp_diff']) for r in compute_table(es, rs, RULES)]


def test_lp_then_vp_scored_then_vp_difference():
    es = entries("Velocity", "Rage", "Anvil", "Brisket")
    rs = [
        result(1, 1, 2, 12, 10),  # Velocity beat Rage
        result(1, 3, 4, 12, 2),  # Anvil beat Brisket
        result(2, 2, 4, 14, 4),  # Rage beat Brisket
        result(2, 3, 1, 12, 11),  # Anvil beat Velocity
    ]
    rows = compute_table(es, rs, RULES)
    assert [r.coach for r in rows] == ["Anvil", "Rage", "Velocity", "Brisket"]
    anvil, rage, velocity, brisket = rows
    assert (anvil.lp, anvil.won, anvil.played) == (6, 2, 2)
    # Rage and Velocity are both on 3 LP; Rage scored 24 VP, Velocity 23.
    assert (rage.lp, rage.stats['vp_for'], velocity.stats['vp_for']) == (3, 24, 23)
    assert rage.note == "level with Velocity on 3 LP; ahead on VP scored, 24 to 23"
    assert velocity.note == "level with Rage on 3 LP; behind on VP scored, 23 to 24"
    assert anvil.note == "" and brisket.note == ""


def test_vp_difference_breaks_equal_vp_scored():
    es = entries("Alpha", "Beta", "Gamma", "Delta")
    rs = [result(1, 1, 3, 12, 2), result(1, 2, 4, 12, 6)]
    rows = compute_table(es, rs, RULES)
    assert [r.coach for r in rows[:2]] == ["Alpha", "Beta"]
    assert rows[0].note == "level with Beta on 3 LP and 12 VP scored; ahead on VP difference, +10 to +6"


def test_fully_level_coaches_share_position_and_are_listed_by_name():
    es = entries("Zed", "Bob", "Moe", "Kit", "Lou", "amy")
    rs = [result(1, 1, 4, 12, 6), result(1, 3, 5, 12, 6)]  # Zed and Moe identical; Bob and amy have not played
    rows = compute_table(es, rs, RULES)
    assert [(r.coach, r.position_label) for r in rows] == [
        ("Moe", "=1"),
        ("Zed", "=1"),
        ("Kit", "=3"),
        ("Lou", "=3"),
        ("amy", "=5"),
        ("Bob", "=5"),
    ]
    assert all(r.tied for r in rows)
    assert rows[1].note == "level with Moe on 3 LP, 12 VP scored, +6 VP difference: position shared"


def test_standard_competition_ranking_1_2_3_3_5():
    es = entries("A", "B", "C", "D", "E")
    rs = [
        result(1, 1, 5, 14, 0),  # A beat E
        result(2, 1, 2, 14, 0),  # A beat B
        result(3, 2, 5, 13, 0),  # B beat E: 3 LP, 13 VP scored
        result(1, 3, 4, 12, 0),  # C beat D
        result(2, 4, 3, 12, 0),  # D beat C: both 3 LP, 12 scored, 12 conceded
    ]
    rows = compute_table(es, rs, RULES)
    assert [(r.coach, r.position_label) for r in rows] == [("A", "1"), ("B", "2"), ("C", "=3"), ("D", "=3"), ("E", "5")]
    assert not rows[0].tied and not rows[4].tied


def test_abandoned_is_played_and_lost_by_both_vp_not_counted_gb6():
    es = entries("Home", "Away")
    rows = compute_table(es, [result(1, 1, 2, 8, 5, outcome="abandoned")], RULES)
    for row in rows:
        assert (row.played, row.won, row.lost, row.lp, row.stats['vp_for'], row.stats['vp_against']) == (1, 0, 1, 0, 0, 0)


def test_results_for_unknown_entries_are_ignored():
    rows = compute_table(entries("Solo"), [result(1, 7, 8, 12, 0)], RULES)
    assert rows[0].played == 0


def test_position_history_and_movement():
    es = entries("A", "B", "C", "D")
    rs = [result(1, 1, 2, 12, 0), result(1, 3, 4, 12, 10), result(2, 2, 3, 12, 0), result(2, 4, 1, 12, 11)]
    rows = {r.coach: r for r in with_history(es, rs, RULES)}
    assert rows["A"].history == [1, rows["A"].position]
    assert rows["A"].movement == 1 - rows["A"].position
    assert rows["B"].history[0] == 4
    assert rows["B"].movement == 4 - rows["B"].position > 0


def test_lp_before_a_round_counts_only_earlier_rounds_gb18():
    es = entries("A", "B", "C", "D")
    # Round 2 reported before round 1 was approved: order of approval does not matter.
    rs = [result(2, 1, 3, 12, 0), result(1, 1, 2, 12, 0), result(1, 3, 4, 12, 0), result(3, 2, 4, 12, 0)]
    snapshots = standings_by_round(es, rs, RULES)
    assert sorted(snapshots) == [1, 2, 3]
    assert lp_before_round(snapshots, 1) == {}
    assert lp_before_round(snapshots, 2) == {1: 3, 2: 0, 3: 3, 4: 0}
    assert lp_before_round(snapshots, 3) == {1: 6, 2: 0, 3: 3, 4: 0}
    assert lp_before_round(snapshots, 9) == {1: 6, 2: 3, 3: 3, 4: 0}
    assert snapshots[1][1].position == 1 and snapshots[3][4].position == 4


def _random_results(rng, size: int, rounds: int) -> list[PlayedResult]:
    """Every outcome (abandoned and drawn too), missing scores, DreadBall's details
    (a landslide flag, a difference that may be missing), unknown entries."""
    out = []
    for number in range(1, rounds + 1):
        for _ in range(size // 2):
            home, away = rng.sample(range(1, size + 2), 2)  # size + 1 is nobody's
            details = {"landslide": rng.random() < 0.3, "difference": rng.choice([None, 0, 1, 3, 7]),
                       "rush": rng.randint(1, 16), "sudden_death": rng.random() < 0.2,
                       "home_cas": rng.randint(0, 4), "away_cas": rng.choice([None, rng.randint(0, 4)])}
            out.append(PlayedResult(number, home, away, rng.choice([None, rng.randint(0, 14)]),
                                    rng.choice([None, rng.randint(0, 14)]),
                                    rng.choice(["home", "away", "draw", "abandoned"]), details=details))
    return out


def test_a_history_adds_results_as_the_games_rules_do():
    """The history's round-by-round pass (``ranking.adder``: the terms' coefficients
    worked out once per kind of side) gives every figure of every row
    exactly as each game's ``league_points`` and ``side_stats`` do one result at a
    time (``compute_table``): GB-6, GB-9, DR-4, DB-5a."""
    import random

    from league.dreadball.rules import DreadBallRules
    from league.dungeonbowl.rules import DungeonBowlRules

    def shown(rows):
        return [(r.entry_id, r.position, r.tied, r.played, r.won, r.drawn, r.lost, r.lp, r.stats) for r in rows]

    for rules in (RULES, GuildBallRules(GuildBallSettings(vp_target=10)), DreadBallRules(), DungeonBowlRules()):
        scored = set()
        for seed in range(6):
            rng = random.Random(seed)
            size = rng.randint(3, 12)
            es = entries(*(f"Coach {i}" for i in range(size)))
            rs = _random_results(rng, size, rng.randint(1, 6))
            one_at_a_time = compute_table(es, rs, rules)
            assert shown(with_history(es, rs, rules)) == shown(one_at_a_time), (rules.system, seed)
            scored |= {r.lp for r in one_at_a_time}
        assert len(scored) > 3, rules.system  # tables with a spread of League Points, not all level

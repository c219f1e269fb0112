"""DB-15 re-drafting as plain functions over plain values: scouting, the Re-Draft
Budget and its lines, the re-hire fee and niggling injury recovery. Dice are
inputs (DB-16): the caller rolls, logs the roll, then passes the values in."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from league.dungeonbowl.units import check_die, gp
from league.text.words import plural

# Off-season: scouting, budget, re-hire, R&R (DB-15) ------------------------------------

REDRAFT_BASE = 1_000_000
REDRAFT_CAP = 1_300_000
PER_GAME = PER_WIN = COMPENSATION = 20_000
REHIRE_FEE_PER_SEASON = 20_000


def scouted(d6: int) -> bool:
    """DB-15 step 1: a 6 sends a player with an MVP award to a Blood Bowl team."""
    check_die(d6)
    return d6 == 6


@dataclass(frozen=True)
class RedraftBudget:
    budget: int
    cap_applied: bool
    lines: tuple[tuple[str, int], ...]  # they always add up to ``budget``


def redraft_budget(
    *, treasury: int, games_played: int, league_wins: int, players_scouted: int, cap: bool = False
) -> RedraftBudget:
    """DB-15 step 3 with its Decision (what counts as played and won is the caller's:
    regular-season, play-off and friendly games actually played, conceded ones
    included; wins in league fixtures and play-offs). With the league's cap, a line
    takes the total back to 1,300,000 so the lines still add up."""
    for name, value in (("Treasury", treasury), ("games played", games_played),
                        ("league wins", league_wins), ("players scouted", players_scouted)):
        if value < 0:
            raise ValueError(f"{name} cannot be negative.")
    if league_wins > games_played:
        raise ValueError("A team cannot win more league fixtures than it played games.")
    lines = [
        ("Re-draft budget", REDRAFT_BASE),
        ("Treasury carried over (then emptied)", treasury),
        (f"{plural(games_played, 'game')} played x {gp(PER_GAME)}", games_played * PER_GAME),
        (f"{plural(league_wins, 'league fixture')} won x {gp(PER_WIN)}", league_wins * PER_WIN),
        (f"{plural(players_scouted, 'player')} scouted x {gp(COMPENSATION)}", players_scouted * COMPENSATION),
    ]
    total = sum(amount for _, amount in lines)
    if cap and total > REDRAFT_CAP:
        lines.append((f"League cap of {gp(REDRAFT_CAP)}", REDRAFT_CAP - total))
        return RedraftBudget(REDRAFT_CAP, True, tuple(lines))
    return RedraftBudget(total, False, tuple(lines))


def rehire_fee(current_value: int, seasons_played: int) -> int:
    """DB-15 step 4: current value + 20,000 per previous season played."""
    if current_value < 0 or seasons_played < 0:
        raise ValueError("A value and a number of seasons cannot be negative.")
    return current_value + REHIRE_FEE_PER_SEASON * seasons_played


def niggling_recovery(niggling_injuries: int, rolls: Sequence[int]) -> int:
    """DB-15 step 4: one D6 per Niggling Injury, 4+ removes it. Returns those left."""
    if len(rolls) != niggling_injuries:
        raise ValueError(f"Roll one D6 per Niggling Injury: {niggling_injuries}, not {len(rolls)}.")
    for roll in rolls:
        check_die(roll)
    return sum(1 for roll in rolls if roll < 4)

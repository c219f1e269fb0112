"""Gold and dice as the Dungeon Bowl rule modules take them (RULES.md section 2).

Gold is an ``int`` in gold pieces. Dice rolls are inputs (DB-16): the caller rolls,
logs the roll, then passes the values in, and the rules check each value here.
"""

from __future__ import annotations


def gp(amount: int) -> str:
    """15000 -> "15,000 gp"."""
    return f"{amount:,} gp"


def check_die(value: int, sides: int = 6) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
        raise ValueError(f"A D{sides} roll is a whole number from 1 to {sides}, not {value!r}.")

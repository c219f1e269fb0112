"""The league's dice log (DB-16): every roll the site makes or is told of, one row
each, with who rolled it, why and what it was for. The post-game sequence, spending,
the play-offs and the re-draft log their rolls here, inside their own transaction.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db.models import Model

from league.dungeonbowl.models import DiceRoll, Team
from league.models import League

_DICE = re.compile(r"^([1-9])?D([1-9][0-9]?)$")  # a random skill rolls one side per skill on its list
_rng = random.SystemRandom()


def record_roll(
    *,
    league: League,
    purpose: str,
    dice: str,
    values: Sequence[int] | None = None,
    by=None,
    team: Team | None = None,
    cause: Model | None = None,
    description: str = "",
    source: str = DiceRoll.Source.TABLE,
) -> DiceRoll:
    """Log a roll (DB-16): the app rolls when ``values`` is None (``by`` had it
    rolled); otherwise they are a roll made at the table, entered by ``by``, or
    (``source`` COACH) typed by ``by``, a coach, on their report. Runs inside the
    caller's transaction so a refused step leaves no orphan roll."""
    match = _DICE.match(dice)
    if match is None:
        raise ValidationError(f'Dice are written like "2D6" or "D16", not "{dice}".')
    count, sides = int(match.group(1) or 1), int(match.group(2))
    if purpose not in DiceRoll.Purpose.values:
        raise ValidationError(f"Unknown purpose for a roll: {purpose}.")
    if values is None:
        values, source = [_rng.randint(1, sides) for _ in range(count)], DiceRoll.Source.APP
    else:
        values = list(values)
        if source not in (DiceRoll.Source.TABLE, DiceRoll.Source.COACH):
            raise ValidationError(f"Unknown source for a roll: {source}.")
        if by is None:
            raise ValidationError("A roll made at the table says who entered it.")
        if len(values) != count or any(
            isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= sides for v in values
        ):
            raise ValidationError(f"A {dice} roll is {count} numbers from 1 to {sides}.")
    return DiceRoll.objects.create(
        league=league, purpose=purpose, dice=dice, values=values, source=source, entered_by=by, team=team,
        cause=cause, description=description[:200],
    )

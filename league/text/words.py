"""Words people read, written one way everywhere: a count with its
noun in the right number, a name's possessive, gold with thousands separators."""

from __future__ import annotations

import re


def plural(count: int, word: str, many: str | None = None) -> str:
    """``plural(1, "player")`` -> "1 player", ``plural(3, "player")`` -> "3 players";
    ``many`` for a word that does not take an s ("injury", "injuries")."""
    return f"{count} {word if count in (1, -1) else (many or word + 's')}"


def possessive(name) -> str:
    """"Karak Scorcher's" but "Forge Wardens'": a name ending in s takes only the
    apostrophe."""
    name = str(name)
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"


def thousands(amount: int, *, signed: bool = False) -> str:
    """590000 -> "590,000"; signed: "+590,000", "-20,000"."""
    return f"{amount:+,}" if signed else f"{amount:,}"


_LEADING_RULE_ID = re.compile(r"^\s*(?:GB|DB|DR|LG)-\d+[a-z]?(?::\s*|\s*$)")


def without_rule_id(text: str) -> str:
    """A model's help text, which opens with the rule id for developers ("GB-8: the
    Victory Points that win a game."), as a form shows it: the words alone, the
    first raised unless it is a unit ("gp to draft a team with.")."""
    rest = _LEADING_RULE_ID.sub("", str(text), count=1)
    if rest == str(text) or not rest:
        return rest
    first = rest.split(" ", 1)[0]
    return rest if first in ("gp", "mc") else rest[0].upper() + rest[1:]


def side(coach, team: str, *, by_team: bool, with_coach: bool = True) -> str:
    """A side of a fixture as a message names it: the coach, or where the game names
    sides by team (Dungeon Bowl) the team, with its coach in brackets when that
    helps ("Ember Owls (Ann Vale)")."""
    if not (by_team and team):
        return str(coach)
    return f"{team} ({coach})" if with_coach else str(team)

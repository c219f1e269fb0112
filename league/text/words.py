"""Words people read, written one way everywhere: a count with its
noun in the right number, a name's possessive, gold with thousands separators."""

from __future__ import annotations


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

"""The rule ids the site cites (../shared/RULES.md), each with a one-line summary in
our own words, for the /rules/ page that the ``rule`` filter links to. The
rulebooks' own sentences are not ours to copy: these lines say what the site
does, not what the books say.

The engine holds its own Decisions (LG-); each game and each layer declares its
section as its ``rule_entries`` (league/games.py), so the engine names no game's
rule."""

from __future__ import annotations

from typing import NamedTuple

from league import games


class Rule(NamedTuple):
    id: str
    summary: str


class Section(NamedTuple):
    """One game's (or the engine's) rules on /rules/: ``key`` is its anchor there."""

    key: str
    name: str
    rules: tuple[Rule, ...]


# The engine's own Decisions for every game (league/people/entrants.py).
ENGINE = Section("seasons", "Every game: who plays in a season", (
    Rule("LG-1", "Decision: once a season's fixtures exist nobody joins it without fixtures: a newcomer goes to the "
                 "next season, or, while no result is reported, the fixtures are generated again with them in."),
    Rule("LG-2", "Decision: an entrant who withdraws mid-season keeps their approved results; their fixtures without "
                 "an approved result are not played and count for nothing for either side (no double loss): they stay "
                 "listed, marked as not played because of the withdrawal, and nothing is reported or arranged for them."),
    Rule("LG-3", "Decision: the next season opens with the same coaches and teams, without divisions; the organiser "
                 "adds or withdraws entrants before generating its fixtures (Dungeon Bowl re-drafts first: DB-15)."),
    Rule("LG-4", "Decision: an entrant who withdrew is not in the next season unless the organiser enters them "
                 "again, and gains no end-of-season carry-over (The Big League's 5 Favours are for finishing)."),
    Rule("LG-5", "Decision: a sponsorship or a loan bought for a fixture that a withdrawal or new fixtures take away is "
                 "cancelled and its Favours go back, as ledger lines saying why; the organiser is told first."),
))

# The engine's own parts with rules of their own (the ratings), from their ready():
# listed after the games.
_ENGINE_PARTS: list[Section] = []


def register(section: Section) -> None:
    """Add a section of the engine's own once (``ready()`` can run twice in tests);
    keys are unique. A game's or a layer's section is its declaration's
    ``rule_entries`` (league/games.py)."""
    for index, existing in enumerate(_ENGINE_PARTS):
        if existing.key == section.key:
            _ENGINE_PARTS[index] = section
            return
    _ENGINE_PARTS.append(section)


def sections() -> tuple[Section, ...]:
    """The engine's section, every game's and layer's in the order they registered,
    then the engine's own parts'."""
    return (ENGINE, *(declaration.rule_entries for declaration in games.declared()), *_ENGINE_PARTS)


def by_id() -> dict[str, Rule]:
    """Every registered rule by its id."""
    return {rule.id: rule for section in sections() for rule in section.rules}

"""What a league's file holds, model by model: the engine's own parts
(``register``, from its ``ready()``), then each game's and layer's, its
declaration's ``export_rows`` (league/games.py).

A ``Part`` names a model and how to select a league's rows of it. The engine
reads every column of the model itself (docs/export-format.md says how each kind
is written); a part says only what is particular to it:

- ``rows(league)``: the league's rows, a queryset (one query whatever the rows);
- ``key``: the columns naming a row of a catalogue other leagues share (the Big
  League's Guilds and plot cards, the published Dungeon Bowl Colleges): a row
  whose key, its keys mapped, names a row already here is that row; the others
  are created. Put a text column first (it selects the candidates) and the
  league among the columns when the league may own rows of its own (its own
  Colleges: the new league owns none yet, so they are always created);
- ``leave_out``: columns that stay behind (an address, a secret, a nonce);
- ``game_systems``: the games whose leagues hold the part (None: every league);
- ``remap``: a function fixing ids a JSON column holds, given the row's values
  by column and ``id_of(model_label, old_id) -> new_id``.

A column pointing at an account (``auth.User``) is never written: who did what
stays with the installation the league leaves (no accounts, no addresses).

An ``ExportRows``' ``coaches(league)`` says which coaches a game holds beyond the
seasons' entrants (a Dungeon Bowl team's coach who never entered a season).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from league import games

FORMAT = "league-export"
VERSION = 1


@dataclass(frozen=True)
class Part:
    model: Any
    rows: Callable[[Any], Any]
    key: tuple[str, ...] = ()
    leave_out: tuple[str, ...] = ()
    remap: Callable[[dict, Callable[[str, Any], Any]], None] | None = None
    game_systems: frozenset[str] | None = None

    @property
    def label(self) -> str:
        return self.model._meta.label_lower


_parts: dict[str, Part] = {}


def register(*parts: Part) -> None:
    """Add the engine's own parts (from its ``ready()``); registering a model twice replaces it."""
    for part in parts:
        _parts[part.label] = part


def _every_part() -> dict[str, Part]:
    """The engine's parts, then every declaration's, by model label."""
    declared = {part.label: part for declaration in games.declared() for part in declaration.export_rows.parts}
    return _parts | declared


def coach_querysets(league) -> list:
    """Querysets of coach ids the games hold in ``league`` beyond its entrants."""
    return [declaration.export_rows.coaches(league) for declaration in games.declared()
            if declaration.export_rows.coaches is not None]


def part_for(label: str) -> Part | None:
    return _every_part().get(label)


def parts_for(league) -> list[Part]:
    """The parts a league of its game holds, in ``ordered_parts`` order."""
    return [p for p in ordered_parts() if p.game_systems is None or league.game_system in p.game_systems]


def ordered_parts() -> list[Part]:
    """Every part, each after the parts its foreign keys point at (registration
    order otherwise), so an import finds most ids already mapped; a key pointing
    forward or at its own model is set once every row exists."""
    pending = _every_part()
    done: list[Part] = []
    while pending:
        for label, part in pending.items():
            needs = {
                f.related_model._meta.label_lower
                for f in part.model._meta.concrete_fields
                if f.is_relation and f.related_model is not part.model
            }
            if not needs & (set(pending) - {label}):
                break
        else:  # a cycle: take the first, its keys into the rest are set afterwards
            label, part = next(iter(pending.items()))
        done.append(part)
        del pending[label]
    return done

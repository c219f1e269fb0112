"""Who follows each kind of fact: one explicit registry, filled from ``ready()``
(the engine's followers by league/facts/subscriptions.py), and from each game's
and layer's declaration (its ``facts``, league/games.py), so the engine imports no
game.

A follower is called with the ``Recorded`` fact inside the write's transaction,
once the write has changed what it changes: it queues what follows (a mail, a
delivery row, a ratings mark) with the write (league/outbox/tasks.py
``enqueue_with_write``), never does slow work itself. Adding a follower is one
``follow``; adding a kind of write is one ``declare``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.db import models

from league import games
from league.facts import kinds as engine_kinds
from league.models import Fixture, League, Result, Season


@dataclass(frozen=True)
class Recorded:
    """What a follower is told: the kind, the row that keeps the fact, who did it,
    and the objects the write holds already (so a follower queries only what it
    needs beyond them). ``about``: what else the kind's followers need, by name."""

    kind: str
    row: models.Model | list[models.Model]
    by: Any
    league_id: int | None
    league: League | None = None  # when the write named the league itself
    season: Season | None = None
    fixture: Fixture | None = None
    result: Result | None = None
    about: Mapping[str, Any] = field(default_factory=dict)


class Follower(Protocol):
    def __call__(self, fact: Recorded) -> None: ...


_labels: dict[str, str] = dict(engine_kinds.ENGINE)
_followers: dict[str, list[tuple[str, Follower]]] = {}


def declare(kind: str, label: str) -> None:
    """A kind of fact a game or a layer records, with what it means."""
    if kind in _labels and _labels[kind] != label:
        raise ValueError(f"fact kind {kind!r} is declared already")
    _labels[kind] = label


def follow(kind: str, name: str, follower: Follower) -> None:
    """``follower`` (``name``: what it is, "mail", "events" ...) follows ``kind``;
    followers of a kind are called in the order they were registered."""
    if kind not in _labels:
        raise ValueError(f"unknown fact kind {kind!r}: declare it first")
    found = _followers.setdefault(kind, [])
    if any(known == name for known, _ in found):
        raise ValueError(f"{name!r} follows {kind!r} already")
    found.append((name, follower))


def followers(kind: str) -> list[tuple[str, Follower]]:
    if kind not in _labels:
        raise ValueError(f"unknown fact kind {kind!r}: declare it first")
    return _followers.get(kind, [])


def kinds() -> dict[str, str]:
    """Every declared kind with what it means."""
    return dict(_labels)


def table() -> dict[str, list[str]]:
    """Every kind with the names of its followers, in order: what the tests and
    docs/architecture.md list."""
    return {kind: [name for name, _ in _followers.get(kind, [])] for kind in _labels}


def _declared(declaration: games.Declaration) -> None:
    """A game's or a layer's kinds of fact and their followers, once however often
    it is declared (``ready()`` can run twice in tests)."""
    for kind, label in declaration.facts.kinds.items():
        declare(kind, label)
    for kind, name, follower in declaration.facts.followers:
        if all(known != name for known, _ in _followers.get(kind, [])):
            follow(kind, name, follower)


games.follow(_declared)

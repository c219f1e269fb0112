"""Reads of the ratings (RULES.md section 4): the ranking of a game, its feed and
one coach's ratings with their history, each a fixed number of queries."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import datetime

from django.db.models import F, Min, QuerySet, Window
from django.db.models.functions import RowNumber

from league.rules import GAMES, rules_class
from league.ratings import glicko2
from league.ratings.models import RatedGame, Rating, RatingWeek


def game_name(game_system: str) -> str:
    """The game a rating is for, without a layer's subtitle ("Guild Ball" for the
    game The Big League is played on): every league of the game is rated together."""
    return rules_class(game_system).name.partition(":")[0]


def rated_games() -> list[tuple[str, str]]:
    """(game system, name) of every game, in registration order."""
    return [(system, game_name(system)) for system in GAMES]


def version(game_system: str) -> str | None:
    """What the game's ranking pages are kept by (one query); None for an unknown
    game or one never rated (the page is then built: a 404, or an empty table)."""
    if game_system not in GAMES:
        return None
    found = RatedGame.objects.filter(pk=game_system).values_list("version", flat=True).first()
    return None if found is None else str(found)


def first_weeks(coach) -> dict[str, datetime.date]:
    """Per game, the first week ``coach`` was rated (one query): what a merge that
    absorbs the coach recomputes from (league/ratings/services.py ``coaches_merged``)."""
    return dict(
        RatingWeek.objects.filter(coach_id=coach.pk).order_by().values("game_system")
        .annotate(first=Min("week")).values_list("game_system", "first")
    )


def waiting() -> set[str]:
    """The games whose ratings wait for a recomputation after a change to their
    results (one query): their pages say so until it has run."""
    return set(RatedGame.objects.filter(pending_since__isnull=False).values_list("game_system", flat=True))


def ranking(game_system: str) -> QuerySet[Rating]:
    """Every rated coach of the game with their place (``place``: by rating, then
    name), the coach's name loaded."""
    return (
        Rating.objects.filter(game_system=game_system)
        .select_related("coach")
        .only("rating", "rd", "volatility", "games", "last_week", "coach__name", "coach_id", "game_system")
        .annotate(place=Window(RowNumber(), order_by=[F("rating").desc(), F("coach__name").asc(), F("coach_id").asc()]))
        .order_by("place")
    )


def feed_rows(game_system: str, *, offset: int, limit: int) -> list[dict]:
    """The ranking as the JSON feed gives it: floats unrounded (one query)."""
    rows = (
        Rating.objects.filter(game_system=game_system)
        .order_by("-rating", "coach__name", "coach_id")
        .values_list("coach_id", "coach__name", "rating", "rd", "volatility", "games")[offset : offset + limit]
    )
    return [
        {"coach_id": coach_id, "coach": name, "rating": rating, "rd": rd, "volatility": volatility, "games": games,
         "provisional": glicko2.provisional(rd)}
        for coach_id, name, rating, rd, volatility, games in rows
    ]


@dataclass
class CoachRating:
    """A coach's rating in one game and the weeks it moved (oldest first)."""

    game_system: str
    game: str
    waiting: bool  # a change to the game's results is not in the rating yet
    rating: float
    rd: float
    volatility: float
    games: int
    provisional: bool
    weeks: list[tuple]  # (week, rating, rd)


def ratings_for(coach) -> list[CoachRating]:
    """Per game the coach is rated in, the current rating and its weekly history,
    and whether a recomputation is waiting, in three queries whatever the games or
    weeks."""
    weeks: dict[str, list[tuple]] = defaultdict(list)
    for game_system, week, rating, rd in RatingWeek.objects.filter(coach_id=coach.pk).order_by(
        "game_system", "week"
    ).values_list("game_system", "week", "rating", "rd"):
        weeks[game_system].append((week, rating, rd))
    found = []
    pending = waiting()
    for rating in Rating.objects.filter(coach_id=coach.pk):
        if rating.game_system not in GAMES:
            continue
        found.append(CoachRating(
            rating.game_system, game_name(rating.game_system), rating.game_system in pending,
            rating.rating, rating.rd, rating.volatility,
            rating.games, rating.provisional, weeks[rating.game_system],
        ))
    order = list(GAMES)
    return sorted(found, key=lambda found: order.index(found.game_system))

"""Ratings kept in step with approved results (RULES.md section 4).

``results_changed`` is called by the result services (league/services/results.py)
inside their transaction, after an approval, an entry, a correction, a reopening
or an import changed which results count: the game's ratings are recomputed from
the week of the changed match on, in the same transaction, so no page ever shows
ratings from before a committed result, and a refusal that rolls the write back
rolls the ratings back with it. The game's ``RatedGame`` row is locked first, last
in the lock order (league/locks.py), so two approvals of one game recompute one
after the other.

A recomputation from week W is a fixed number of queries whatever the number of
coaches or weeks: the counted results from W on (one query), each rated coach's
last week before W (one query), then the weeks from W on and the current ratings
written back in bulk (a delete and an ``insert_rows`` each).
"""

from __future__ import annotations

import datetime
import uuid
from collections import defaultdict
from collections.abc import Iterable

from django.db import transaction
from django.db.models import Exists, Min, OuterRef

from league.bulkinsert import insert_rows
from league.models import Result
from league.ratings import glicko2
from league.ratings.models import RatedGame, Rating, RatingWeek

EPOCH = datetime.date(1, 1, 1)  # a Monday


def monday(day: datetime.date) -> datetime.date:
    """RT-2: the rating period of a match on ``day``, as its ISO week's Monday."""
    return day - datetime.timedelta(days=day.weekday())


def _weeks_between(earlier: datetime.date, later: datetime.date) -> int:
    return (later - earlier).days // 7


def _counted_from(game_system: str, since: datetime.date | None):
    """RT-2 in one query: (date, home coach, away coach, outcome) of every counted
    result of ``game_system`` from ``since`` (a Monday; None: all), in date order:
    approved, not abandoned or unplayed, between two entries (no bye) of two
    different coaches, in any league of that game, any stage. A Dungeon Bowl
    concession is stored as a win for the side that did not concede
    (``Result.conceded``), so it counts as a loss for the conceding side."""
    found = Result.objects.filter(
        status=Result.Status.APPROVED, fixture__round__season__league__game_system=game_system,
        fixture__away__isnull=False,
    ).exclude(outcome=Result.Outcome.ABANDONED)
    if since is not None:
        found = found.filter(fixture__date__gte=since)
    rows = found.order_by("fixture__date", "pk").values_list(
        "fixture__date", "fixture__home__coach_id", "fixture__away__coach_id", "outcome"
    )
    return [row for row in rows if row[1] != row[2]]


SCORE = {Result.Outcome.HOME_WIN: (1.0, 0.0), Result.Outcome.AWAY_WIN: (0.0, 1.0), Result.Outcome.DRAW: (0.5, 0.5)}


def touch(game_systems: Iterable[str] | None = None) -> None:
    """Give the ranking pages of ``game_systems`` (None: every game) a new version."""
    rows = RatedGame.objects.all() if game_systems is None else RatedGame.objects.filter(pk__in=list(game_systems))
    rows.update(version=uuid.uuid4())


def coach_changed(sender, instance, **kwargs) -> None:
    """A coach's row was saved or deleted: the ranking pages show their name."""
    if kwargs.get("raw"):
        return
    touch(None)


def first_weeks(coach) -> dict[str, datetime.date]:
    """Per game, the first week ``coach`` was rated (one query): what a merge that
    absorbs the coach recomputes from (``coaches_merged``)."""
    return dict(
        RatingWeek.objects.filter(coach_id=coach.pk).order_by().values("game_system")
        .annotate(first=Min("week")).values_list("game_system", "first")
    )


def coaches_merged(first: dict[str, datetime.date]) -> None:
    """A merge (league/services/people.py) gave the absorbed coach's results to the
    kept one: each game the absorbed coach was rated in is recomputed from their
    first week (``first``, from ``first_weeks`` before the merge moved anything)."""
    for game_system, week in sorted(first.items()):
        recompute(game_system, since=week)


@transaction.atomic(savepoint=False)  # part of the caller's write: no savepoint of its own
def results_changed(*, game_system: str, day: datetime.date) -> None:
    """A result of ``game_system`` played on ``day`` started or stopped counting, or
    changed: recompute that game's ratings from ``day``'s week on (RT-1..RT-3)."""
    recompute(game_system, since=monday(day))


@transaction.atomic(savepoint=False)
def recompute(game_system: str, *, since: datetime.date | None = None) -> None:
    """RT-1..RT-3: rebuild ``game_system``'s ratings from the week of ``since`` (a
    day; None: from scratch) on, in a fixed number of queries."""
    # The same two queries whether the game was rated before or not; the UPDATE
    # holds the row's lock until the transaction ends.
    RatedGame.objects.bulk_create([RatedGame(game_system=game_system)], ignore_conflicts=True)
    RatedGame.objects.filter(pk=game_system).update(version=uuid.uuid4())
    since = monday(since) if since is not None else None
    results = _counted_from(game_system, since)
    # Each rated coach's state after their last week before ``since``.
    before = RatingWeek.objects.none()
    if since is not None:
        later = RatingWeek.objects.filter(
            game_system=game_system, coach_id=OuterRef("coach_id"), week__gt=OuterRef("week"), week__lt=since
        )
        before = RatingWeek.objects.filter(game_system=game_system, week__lt=since).filter(~Exists(later))
    state: dict[int, tuple[datetime.date, glicko2.Rating, int]] = {
        coach: (week, glicko2.Rating(rating, rd, volatility), games)
        for coach, week, rating, rd, volatility, games in before.values_list(
            "coach_id", "week", "rating", "rd", "volatility", "games"
        )
    }
    weeks, state = rate_weeks(results, state)
    RatingWeek.objects.filter(game_system=game_system, **({"week__gte": since} if since is not None else {})).delete()
    # Plain values (league/bulkinsert.py): from scratch, a game's weeks are
    # hundreds of thousands of rows, and a model instance a row was most of the time.
    insert_rows(RatingWeek, WEEK_FIELDS, [
        (coach, game_system, week, rating.rating, rating.rd, rating.volatility, games)
        for coach, week, rating, games in weeks
    ])
    Rating.objects.filter(game_system=game_system).delete()
    insert_rows(Rating, RATING_FIELDS, [
        (coach, game_system, rating.rating, rating.rd, rating.volatility, games, last)
        for coach, (last, rating, games) in current(state).items()
    ])


WEEK_FIELDS = ("coach_id", "game_system", "week", "rating", "rd", "volatility", "games")
RATING_FIELDS = ("coach_id", "game_system", "rating", "rd", "volatility", "games", "last_week")


def at_week(last: datetime.date, rating: glicko2.Rating, week: datetime.date) -> glicko2.Rating:
    """RT-3: a coach rated after week ``last``, at the start of week ``week``: one
    idle step (only the RD rises) for each week between without a game."""
    for _ in range(_weeks_between(last, week) - 1):
        rating = glicko2.idle(rating)
    return rating


def rate_weeks(results, state):
    """Pure: given counted results (date, home coach, away coach, outcome) in date
    order from a Monday on, and each coach's (last week, rating, games) before it,
    the rows of every week a coach played from then on (coach, week, rating, games)
    and the state after the last. Opponents are rated as they stood at the start
    of the week (Glicko-2's rating period)."""
    by_week: dict[datetime.date, list] = defaultdict(list)
    for day, home, away, outcome in results:
        by_week[monday(day)].append((home, away, outcome))
    state = dict(state)
    rows = []
    for week in sorted(by_week):
        games: dict[int, list[tuple[int, float]]] = defaultdict(list)
        for home, away, outcome in by_week[week]:
            home_score, away_score = SCORE[outcome]
            games[home].append((away, home_score))
            games[away].append((home, away_score))
        start = {
            coach: at_week(state[coach][0], state[coach][1], week) if coach in state else glicko2.Rating()
            for coach in games
        }
        for coach, played in sorted(games.items()):
            rating = glicko2.rate(start[coach], [
                glicko2.Game(start[opponent].rating, start[opponent].rd, score) for opponent, score in played
            ])
            total = (state[coach][2] if coach in state else 0) + len(played)
            state[coach] = (week, rating, total)
            rows.append((coach, week, rating, total))
    return rows, state


def current(state) -> dict[int, tuple[datetime.date, glicko2.Rating, int]]:
    """RT-3: every coach's rating after the latest week any coach played (the
    rating shown), from each coach's (last week, rating, games)."""
    if not state:
        return {}
    latest = max(week for week, _, _ in state.values())
    return {coach: (week, at_week(week, rating, latest + datetime.timedelta(days=7)), games)
            for coach, (week, rating, games) in state.items()}

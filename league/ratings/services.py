"""Ratings kept in step with approved results (RULES.md section 4).

``results_changed`` follows the facts that change which results count (an
approval, an entry, a correction, a reopening, an import; league/facts/subscriptions.py)
inside the write's transaction, as ``coaches_merged`` follows a merge of two coaches. It
costs that write two queries whatever the site's size: it marks the game's
ratings as waiting from the changed match's week (``RatedGame.pending_since``, the
earliest such week kept) and queues ``recompute_ratings`` with the write (the
outbox, league/outbox/tasks.py). A refused write rolls both back.

The task (``catch_up``) runs once the write has committed: it locks the game's
row, recomputes from the pending week on and clears the mark, in one transaction.
A burst of approvals is recomputed once: the tasks queued after the first find
nothing pending. Recomputing is the costly part (every rated coach's current
rating is rewritten, RT-3), so it is kept out of the approving request, and two
approvals of one game anywhere on the site no longer wait on each other's
recomputation. Until it has run, the ranking pages say the ratings are being
brought up to date (the mark gives them a new version).

A recomputation from week W is a fixed number of queries whatever the number of
coaches or weeks: the game's row locked, the counted results from W on (one
query), each rated coach's last week before W (one query), then the weeks from W
on and the current ratings written back in bulk (a delete and an
``insert_rows`` each), and the row's new version.
"""

from __future__ import annotations

import datetime
import logging
import uuid
from collections import defaultdict
from collections.abc import Iterable

from django.db import DatabaseError, transaction
from django.db.models import Exists, F, Min, OuterRef, Value
from django.db.models.functions import Coalesce, Least
from django_tasks import task

from league.bulkinsert import insert_rows
from league.models import Result
from league.outbox import tasks
from league.ratings import glicko2
from league.ratings.models import RatedGame, Rating, RatingWeek
from league.rules import GAMES

EPOCH = datetime.date(1, 1, 1)  # a Monday

logger = logging.getLogger(__name__)


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


def rated_games_exist(using: str = "default", **kwargs) -> None:
    """After ``migrate`` (or a test's flush): a ``RatedGame`` row for every game."""
    _rows_exist(GAMES, using=using)


def _rows_exist(game_systems: Iterable[str], *, using: str = "default") -> None:
    RatedGame.objects.using(using).bulk_create([RatedGame(game_system=system) for system in game_systems],
                                               ignore_conflicts=True)


def _locked_pending(game_system: str) -> datetime.date | None:
    """The game's pending week (None: nothing waits, or no row), its row locked
    until the transaction ends."""
    return (RatedGame.objects.select_for_update().filter(pk=game_system)
            .values_list("pending_since", flat=True).first())


def coaches_merged(first: dict[str, datetime.date]) -> None:
    """A merge (league/people/merges.py) gave the absorbed coach's results to the
    kept one: each game the absorbed coach was rated in is recomputed from their
    first week (``first``, from league/ratings/selectors.py ``first_weeks`` before
    the merge moved anything)."""
    for game_system, week in sorted(first.items()):
        results_changed(game_system=game_system, day=week)


def league_imported(league) -> None:
    """RT-2: an imported league's approved results count in its game's ratings
    from the week of its earliest match on, recomputed once the import commits."""
    earliest = Result.objects.filter(
        fixture__round__season__league=league, status=Result.Status.APPROVED
    ).aggregate(day=Min("fixture__date"))["day"]
    if earliest is not None:
        results_changed(game_system=league.game_system, day=earliest)


def results_changed(*, game_system: str, day: datetime.date) -> None:
    """A result of ``game_system`` played on ``day`` started or stopped counting, or
    changed: its ratings wait for a recomputation from ``day``'s week on (RT-2),
    queued with the caller's write (two queries)."""
    mark(game_system, monday(day))
    tasks.enqueue_with_write(recompute_ratings, game_system=game_system)


def mark(game_system: str, week: datetime.date) -> None:
    """Keep ``week`` as the game's pending week unless an earlier one waits, and
    give its pages a new version: one UPDATE, which holds the row until the
    caller's transaction ends (three statements the first time a game is rated)."""
    def update() -> int:
        return RatedGame.objects.filter(pk=game_system).update(
            pending_since=Least(Coalesce(F("pending_since"), Value(week)), Value(week)), version=uuid.uuid4()
        )

    if not update():  # a game registered since the last migrate
        _rows_exist([game_system])
        update()


@task()
def recompute_ratings(*, game_system: str, attempt: int = 1) -> str:
    """The outbox's task for ``results_changed``: ``catch_up``. A database that
    fails it (a restart, a lost connection) leaves the week waiting, and the
    task is tried again after a pause (league/outbox/tasks.py); ``run_tasks``
    also queues a game still waiting when it starts (``queue_waiting``)."""
    try:
        since = catch_up(game_system)
    except DatabaseError as error:
        tasks.retry_or_give_up(recompute_ratings, {"game_system": game_system}, attempt=attempt,
                               problem=f"{type(error).__name__}: {error}", logger=logger,
                               what=f"The {game_system} ratings' recomputation")
        raise  # retry_or_give_up always raises
    return f"recomputed from {since}" if since else "nothing pending"


def queue_waiting() -> list[str]:
    """Queue the recomputation of every game whose ratings still wait (one whose
    task failed its last attempt, or was lost with its worker): what ``run_tasks``
    does as it starts. Returns those games."""
    waiting = list(RatedGame.objects.filter(pending_since__isnull=False).order_by("pk").values_list("pk", flat=True))
    for game_system in waiting:
        recompute_ratings.enqueue(game_system=game_system)
    return waiting


@transaction.atomic
def catch_up(game_system: str) -> datetime.date | None:
    """Recompute ``game_system``'s ratings from its pending week, if one waits;
    returns that week. Ratings already recomputed past it (by an earlier task or
    ``recompute``) leave nothing to do."""
    since = _locked_pending(game_system)
    if since is not None:
        _rebuild(game_system, since=since)
    return since


@transaction.atomic(savepoint=False)
def recompute(game_system: str, *, since: datetime.date | None = None) -> None:
    """RT-1..RT-3: rebuild ``game_system``'s ratings now from the week of ``since``
    (a day; None: from scratch) on, or from an earlier week still pending, in a
    fixed number of queries: what the data sets built in bulk (the benchmark, a
    test) and ``manage.py recompute_ratings`` run."""
    _rows_exist([game_system])
    pending = _locked_pending(game_system)
    if since is not None:
        since = min(monday(since), pending) if pending is not None else monday(since)
    _rebuild(game_system, since=since)


def _rebuild(game_system: str, *, since: datetime.date | None) -> None:
    """The recomputation from the Monday ``since`` (None: from scratch), the game's
    row locked by the caller; the pending week is then cleared."""
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
    RatedGame.objects.filter(pk=game_system).update(version=uuid.uuid4(), pending_since=None)


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

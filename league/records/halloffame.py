"""Records and the hall of fame of a league or of a game across the site: each
finished season's champions and titles, the biggest wins, the longest winning runs,
the most seasons and the most games played. Reads only; every list is bounded by
what a page shows and costs the same number of queries whatever the number of
coaches (the champions one table per finished season shown, each kept per version
of its season by ``standings_for``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Exists, F, OuterRef
from django.db.models.functions import Abs, Coalesce

from league.models import Entry, Fixture, Result, Season
from league.records import titles
from league.records.boards import Scope, SideTotals, coaches_in, counted_results
from league.records.runs import longest_runs
from league.standings.season import standings_for

SEASONS_SHOWN = 30  # finished seasons in the hall of fame, latest first (what a person reads)
TOP = 10  # lines of each record


@dataclass
class SeasonHonours:
    season: Season
    honours: list[titles.Honour] = field(default_factory=list)


@dataclass(frozen=True)
class CoachLine:
    """A coach's line in a record: the figure, and where their league page is."""

    coach_id: int
    coach: str
    figure: int
    place: tuple[str, str] | None = None  # (league slug, season name) of their latest season in scope


@dataclass(frozen=True)
class Win:
    result: Result
    margin: int


def finished_seasons(scope: Scope) -> list[Season]:
    """The finished seasons of ``scope``, latest first (at most ``SEASONS_SHOWN``):
    with regular-season matches, every one of them played or cancelled by a
    withdrawal (LG-2). One query."""
    regular = Fixture.objects.filter(round__season=OuterRef("pk"), stage=Fixture.Stage.REGULAR, away__isnull=False)
    return list(
        Season.objects.filter(scope.seasons())
        .filter(Exists(regular), ~Exists(regular.unplayed()))
        .select_related("league")
        .order_by("-start_date", "-pk")[:SEASONS_SHOWN]
    )


def hall_of_fame(scope: Scope) -> list[SeasonHonours]:
    """Each finished season's League Champion (the first of its final table, all
    of them when the first place is shared) and the titles ``scope.game``
    registered (league/records/titles.py)."""
    seasons = finished_seasons(scope)
    shown = {season.pk: SeasonHonours(season) for season in seasons}
    champion = titles.champion_title(scope.game)
    for season in seasons:
        table = standings_for(season)
        first = table[0].position if table else None
        shown[season.pk].honours.extend(
            titles.Honour(season.pk, champion, row.coach_id, row.coach, f"{row.lp} LP")
            for row in table if row.position == first
        )
    for honour in titles.game_titles(scope.game, list(shown)):
        shown[honour.season_id].honours.append(honour)
    return list(shown.values())


def biggest_wins(scope: Scope) -> list[Win]:
    """The wins by the largest margin of the game's unit (VP, touchdowns, the
    DreadBall difference), earliest first among equal margins. One query."""
    results = (
        Result.objects.filter(counted_results(scope), home_score__isnull=False, away_score__isnull=False)
        .exclude(outcome=Result.Outcome.DRAW)
        .annotate(margin=Abs(F("home_score") - F("away_score")), played_on=Coalesce("fixture__date", "fixture__round__date"))
        .filter(margin__gt=0)
        .select_related("fixture__home__coach", "fixture__away__coach", "fixture__round__season__league")
        .order_by("-margin", "played_on", "pk")[:TOP]
    )
    return [Win(result, result.margin) for result in results]


def winning_runs(scope: Scope) -> list[CoachLine]:
    """The longest runs of consecutive wins (a draw or a loss ends one), across
    seasons, in the order the matches were played: one query for the runs
    (league/records/runs.py, in SQL) and one for the names."""
    runs = longest_runs(Result.objects.filter(counted_results(scope)), limit=TOP)
    names = dict(Entry.objects.filter(coach_id__in=[run.coach_id for run in runs]).values_list("coach_id", "coach__name"))
    return [CoachLine(run.coach_id, names.get(run.coach_id, ""), run.length) for run in runs]


def most_seasons(scope: Scope) -> list[CoachLine]:
    """The coaches entered in the most seasons. One query."""
    rows = (
        Entry.objects.filter(scope.seasons("season")).values("coach_id", "coach__name")
        .annotate(seasons=Count("season_id", distinct=True)).order_by("-seasons", "coach__name", "coach_id")[:TOP]
    )
    return [CoachLine(row["coach_id"], row["coach__name"], row["seasons"]) for row in rows]


def most_games(scope: Scope) -> list[CoachLine]:
    """The coaches who played the most counted matches (league/records/boards.py).
    One query."""
    rows = SideTotals(Result.objects.filter(counted_results(scope)), lambda side: f"fixture__{side}__coach",
                      {"games": lambda side: Count("pk")}, coaches_in(scope)).order_by("-games", "coach", "coach_id")[:TOP]
    return [CoachLine(row["coach_id"], row["coach"], row["games"]) for row in rows]


def coach_places(scope: Scope, coach_ids) -> dict[int, tuple[str, str]]:
    """Where each coach's league page is: the league and season of their latest
    entry in ``scope`` (one query)."""
    places: dict[int, tuple[str, str]] = {}
    rows = (
        Entry.objects.filter(scope.seasons("season"), coach_id__in=set(coach_ids))
        .order_by("coach_id", "-season__start_date", "-season_id")
        .values_list("coach_id", "season__league__slug", "season__name")
    )
    for coach_id, slug, season in rows:
        places.setdefault(coach_id, (slug, season))
    return places


def with_places(lines: list[CoachLine], places: dict[int, tuple[str, str]]) -> list[CoachLine]:
    return [CoachLine(line.coach_id, line.coach, line.figure, places.get(line.coach_id)) for line in lines]


@dataclass
class Records:
    seasons: list[SeasonHonours]
    wins: list[Win]
    runs: list[CoachLine]
    most_seasons: list[CoachLine]
    most_games: list[CoachLine]


def records(scope: Scope) -> Records:
    """Everything the records page shows, with each coach's league page found in one
    query for all the lists."""
    runs, seasons, games = winning_runs(scope), most_seasons(scope), most_games(scope)
    places = coach_places(scope, [line.coach_id for line in (*runs, *seasons, *games)])
    return Records(
        seasons=hall_of_fame(scope), wins=biggest_wins(scope), runs=with_places(runs, places),
        most_seasons=with_places(seasons, places), most_games=with_places(games, places),
    )

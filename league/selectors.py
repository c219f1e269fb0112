"""Reads that pages share, each a fixed number of queries whatever the league's size."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Case, Count, F, IntegerField, Q, Value, When, Window
from django.db.models.functions import RowNumber
from django.http import Http404
from django.utils import timezone

from league.models import Coach, Entry, Fixture, League, Result, Round, Season
from league.rules.base import EntryInfo, GameRules, PlayedResult
from league.text import plaintext


STANDINGS_SORTS = {"position", "coach", "team", "division", "played", "won", "drawn", "lost", "lp"}


def season_for(league: League, name: str | None = None) -> Season | None:
    """The named season of a league, or its current one (latest start date).

    Raises Http404 for a name the league does not have; None when it has none yet."""
    seasons = Season.objects.filter(league=league).order_by("-start_date", "-id")
    season = seasons.filter(name=name).first() if name else seasons.first()
    if name and season is None:
        raise Http404(f"{league} has no season called {name!r}.")
    if season is not None:
        season.league = league  # one League instance, so its rules and settings load once
    return season


def season_fixtures(season: Season, *, round_number: int | None = None) -> list[Fixture]:
    """Every fixture of a season (or of one round) with both sides and the result,
    in round order."""
    fixtures = Fixture.objects.filter(round__season=season)
    if round_number is not None:
        fixtures = fixtures.filter(round__number=round_number)
    return list(
        fixtures.with_related().select_related("round__season__league").order_by("round__number", "date", "id")
    )


def round_numbers(season: Season) -> list[tuple[int, datetime.date, str]]:
    """The season's rounds as (number, date, label), for the fixtures page's
    navigation (a play-off round shows its label, "Semi-finals", not its number)."""
    return list(Round.objects.filter(season=season).order_by("number").values_list("number", "date", "label"))


def round_to_show(season: Season, rounds: list[tuple[int, datetime.date, str]], asked: str | None) -> int | None:
    """The round the fixtures page shows: the one asked for, else this week's (the
    last round dated today or earlier), else the first. Raises Http404 for a round
    the season does not have."""
    if not rounds:
        return None
    if asked:
        if not asked.isdigit() or int(asked) not in {number for number, *_ in rounds}:
            raise Http404("This season has no such round.")
        return int(asked)
    today = timezone.localdate()
    started = [number for number, date, _ in rounds if date <= today]
    return started[-1] if started else rounds[0][0]


@dataclass
class RoundFixtures:
    round: Round
    fixtures: list[Fixture]
    # How many fixtures the round has, when ``fixtures`` holds only the first of
    # them (the league page's week: ``publication``); None when it holds them all.
    total: int | None = None

    @property
    def size(self) -> int:
        return len(self.fixtures) if self.total is None else self.total

    @property
    def matches(self) -> list[Fixture]:
        return [f for f in self.fixtures if not f.is_bye]

    @property
    def byes(self) -> list[Fixture]:
        return [f for f in self.fixtures if f.is_bye]


def by_round(fixtures: list[Fixture]) -> list[RoundFixtures]:
    groups: dict[int, RoundFixtures] = {}
    for fixture in fixtures:
        group = groups.setdefault(fixture.round_id, RoundFixtures(round=fixture.round, fixtures=[]))
        group.fixtures.append(fixture)
    return sorted(groups.values(), key=lambda g: g.round.number)


def is_played(fixture: Fixture) -> bool:
    result = fixture.result_or_none
    return result is not None and result.is_approved


@dataclass
class Publication:
    """GB-10, the league page's week: ``this_week`` is the round whose week today
    falls in (the last round dated today or earlier), ``upcoming`` the round after
    it; each holds its first ``shown`` fixtures and its ``size`` (the page lists
    those, the fixtures page every one). ``this_week_done`` when every match of
    this week's round is played, ``all_played`` when no match of the season is
    left to play, ``over`` once the last round's week has passed (then
    ``this_week`` is that last round, shown as the season's end, not as this
    week's)."""

    this_week: RoundFixtures | None
    upcoming: RoundFixtures | None
    round_count: int
    all_played: bool
    this_week_done: bool = False
    over: bool = False


def publication(season: Season, today: datetime.date | None = None, *, shown: int = 20) -> Publication:
    """GB-10 for the league page without loading the whole season or its whole
    week: the first ``shown`` fixtures of this week's round and the next one, and
    each round's numbers. Two queries whatever the season's size (three when every
    match of those two rounds is played: then whether one is left elsewhere)."""
    today = today or timezone.localdate()
    rounds = list(Round.objects.filter(season=season).order_by("number").values_list("number", "date"))
    started = [number for number, date in rounds if date <= today]
    current = started[-1] if started else None
    later = [number for number, _ in rounds if current is None or number > current]
    upcoming = later[0] if later else None
    fixtures = Fixture.objects.filter(round__season=season)
    numbers = [n for n in (current, upcoming) if n]
    # Each round's first ``shown`` fixtures, every row with its round's numbers
    # (window functions over the round): one query.
    # Nothing left to play of a match with an approved result or one a withdrawal cancelled (LG-2).
    settled = Q(away__isnull=False) & (Q(result__status=Result.Status.APPROVED) | Q(cancelled_by__isnull=False))
    per_round = {"partition_by": [F("round_id")]}
    first = list(
        fixtures.filter(round__number__in=numbers).annotate(
            nth=Window(RowNumber(), order_by=[F("pk").asc()], **per_round),
            total=Window(Count("pk"), **per_round),
            left=Window(Count("pk", filter=Q(away__isnull=False)), **per_round)
            - Window(Count("pk", filter=settled), **per_round),
        ).filter(nth__lte=shown).with_related().order_by("round__number", "pk")
    )
    groups = {g.round.number: g for g in by_round(first)}
    for group in groups.values():
        group.total = group.fixtures[0].total
    left = {number: group.fixtures[0].left for number, group in groups.items()}
    # A match of the two rounds shown still to play answers it without the query,
    # which reads every fixture of the season (136 ms at 400 coaches).
    if any(left.values()):
        all_played = False
    else:
        all_played = bool(rounds) and not fixtures.unplayed().exists()
    this_week_done = current is not None and current in left and left[current] == 0
    # A round's week lasts the season's cadence; after the last one's, the season is over.
    over = bool(rounds) and today >= rounds[-1][1] + datetime.timedelta(days=season.cadence_days)
    return Publication(groups.get(current), groups.get(upcoming), len(rounds), all_played, this_week_done, over)


def league_search(query: str = ""):
    """Leagues by name, for the paginated league list."""
    leagues = League.objects.order_by("name", "pk")
    if query:
        leagues = leagues.filter(Q(name__icontains=query) | Q(slug__icontains=query))
    return leagues


def attach_current_seasons(leagues) -> None:
    """One query for a page of leagues: each league's newest season with its number
    of entries, as ``league.current``."""
    leagues = list(leagues)
    current: dict[int, Season] = {}
    seasons = (
        Season.objects.filter(league__in=leagues)
        .annotate(coach_count=Count("entries"))
        .order_by("league_id", "-start_date", "-id")
    )
    for season in seasons:
        current.setdefault(season.league_id, season)
    for league in leagues:
        league.current = current.get(league.pk)


COACH_FIXTURES_PER_SEASON = 20  # of each kind (waiting or to come, approved) per season, so a page is bounded


def coach_fixtures(coach: Coach, per_season: int = COACH_FIXTURES_PER_SEASON) -> list[Fixture]:
    """A coach's fixtures in every league, with what a page needs about each, in
    date order, bounded: in each season the first ``per_season``
    without an approved result (what waits and what comes next, so each season's
    next match is among them) and the latest ``per_season`` approved ones. One
    query, numbered by a window function in the database."""
    approved = Q(result__status=Result.Status.APPROVED)
    flag = Case(When(approved, then=Value(1)), default=Value(0), output_field=IntegerField())
    # Approved ones latest first, the others earliest first: one ordering serves both.
    number = Window(
        RowNumber(),
        partition_by=[F("round__season_id"), flag],
        order_by=[Case(When(approved, then=-F("round__number")), default=Value(0)).asc(),
                  F("date").asc(), F("round__number").asc(), F("pk").asc()],
    )
    return list(
        Fixture.objects.involving(coach)
        .with_related()
        .select_related("round__season__league")
        .annotate(nth=number)
        .filter(nth__lte=per_season)
        .order_by("date", "round__number", "id")
    )


def results_needing_organiser(user):
    """Results of the user's leagues that wait on the organiser: reported,
    confirmed (awaiting approval) or disputed (a queryset, oldest first)."""
    leagues = League.objects.organised_by(user)
    return (
        Result.objects.filter(fixture__round__season__league__in=leagues)
        .exclude(status=Result.Status.APPROVED)
        .select_related("fixture__round__season__league", "fixture__home__coach", "fixture__away__coach")
        .order_by("fixture__date", "pk")
    )


def approved_results(season: Season):
    """The season's approved regular-season results (play-offs and friendlies count
    for nothing in the table: DB-5a), for ``.values(*standings.RESULT_FIELDS)``."""
    return Result.objects.filter(
        fixture__round__season=season, fixture__stage=Fixture.Stage.REGULAR, status=Result.Status.APPROVED
    )


def season_entries(season: Season) -> list[EntryInfo]:
    """One query: the season's entries with their coaches and divisions, and the
    day each who withdrew left (LG-2: their row stays in the table, marked)."""
    return [
        EntryInfo(entry_id=pk, coach_id=coach_id, coach=coach, team=team, division=division,
                  withdrawn_on=timezone.localdate(withdrawn_at) if withdrawn_at is not None else None)
        for pk, coach_id, coach, team, division, withdrawn_at in Entry.objects.filter(season=season)
        .values_list("pk", "coach_id", "coach__name", "team", "division__name", "withdrawn_at")
    ]


# What the standings read of a season (league/standings/season.py, league/standings/history.py) ---------


RESULT_FIELDS = (
    "fixture__round__number",
    "fixture__home_id",
    "fixture__away_id",
    "home_score",
    "away_score",
    "outcome",
    "conceded",
)


def played_result(values: dict, rules: GameRules | None = None) -> PlayedResult:
    """An approved result from a ``.values(*result_fields(rules))`` row."""
    details = {key: values[lookup] for key, lookup in rules.detail_values.items()} if rules is not None else {}
    return PlayedResult(
        round_number=values["fixture__round__number"],
        home_id=values["fixture__home_id"],
        away_id=values["fixture__away_id"],
        home_score=values["home_score"],
        away_score=values["away_score"],
        outcome=values["outcome"],
        conceded=values.get("conceded", False),
        details=details,
    )


def result_fields(rules: GameRules) -> tuple[str, ...]:
    """What to read of each result: the engine's fields and the game's details."""
    return RESULT_FIELDS + tuple(rules.detail_values.values())


def season_inputs(season) -> tuple[list[EntryInfo], list[PlayedResult]]:
    """Two queries: the entries with their coaches, the approved results."""
    rules = season.league.rules
    results = approved_results(season).values(*result_fields(rules))
    return season_entries(season), [played_result(r, rules) for r in results]


def meetings_before(fixture_id, home_coach, away_coach, date, game):
    """Approved, played results (abandoned ones are no meeting) between the two
    coaches of a fixture, on or before its date and not the fixture itself, in any
    league of ``game``, latest first. The arguments may be ``OuterRef``s, so the
    fixture page and its cache key (league/caching/versions.py) read the same rows."""
    between = (Q(home__coach_id=home_coach) & Q(away__coach_id=away_coach)) | (
        Q(home__coach_id=away_coach) & Q(away__coach_id=home_coach))
    return (
        Fixture.objects.matches().played().filter(between, date__lte=date, round__season__league__game_system=game)
        .exclude(pk=fixture_id).exclude(result__outcome="abandoned").order_by("-date", "-pk")
    )


def name_clash(*, coach: Coach, name: str) -> str | None:
    """Why ``coach`` cannot be called ``name``: another entrant of one of its
    seasons already is (however written), or None. Renaming checks this, as
    entering a season does (``_enter``)."""
    others = (Entry.objects.filter(season__entries__coach=coach).exclude(coach=coach)
              .select_related("coach", "season").order_by("season__start_date", "pk"))
    key = plaintext.name_key(name)
    for other in others.iterator():
        if plaintext.name_key(other.coach.name) == key:
            return (f"There is already a coach called {other.coach.name} in {other.season.name}; "
                    "choose a name people can tell apart.")
    return None

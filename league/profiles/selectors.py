"""What the profile and the head-to-head pages read: a coach's entries, results,
totals per game and most frequent opponents, and every meeting of two coaches.
Each is one query (or two), whatever the number of coaches and leagues on the
site; the pages' cost follows what they show."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Case, Count, F, IntegerField, Max, Q, Sum, Value, When

from league.models import Coach, Entry, Fixture, Result
from league.rules import rules_class
from league.selectors import meetings_before

FREQUENT_SHOWN = 5  # the opponents a profile lists (the head-to-head page has the rest of a pair)

HOME, AWAY, DRAW, ABANDONED = (Result.Outcome.HOME_WIN, Result.Outcome.AWAY_WIN, Result.Outcome.DRAW,
                               Result.Outcome.ABANDONED)


@dataclass
class Totals:
    """A coach's record in one game (or against one opponent): approved results
    that were played (abandoned and unplayed games count for neither side here)."""

    game: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    scored: int = 0  # in the game's unit (VP, touchdowns, points)
    conceded: int = 0
    opponent_id: int | None = None
    opponent: str = ""
    last_date: object = None

    @property
    def game_name(self) -> str:
        return rules_class(self.game).name

    @property
    def unit(self) -> str:
        return rules_class(self.game).score_label or ""


def played(coach_ids: list[int]):
    """The approved results of matches involving any of ``coach_ids``."""
    return Fixture.objects.matches().played().filter(Q(home__coach_id__in=coach_ids) | Q(away__coach_id__in=coach_ids))


def _record_annotations(coach_id: int) -> dict:
    """Won, drawn, lost, scored and conceded from ``coach_id``'s side of each row."""
    at_home, away = Q(home__coach_id=coach_id), Q(away__coach_id=coach_id)
    counted = ~Q(result__outcome=ABANDONED)
    return {
        "n_played": Count("pk", filter=counted),
        "n_won": Count("pk", filter=(at_home & Q(result__outcome=HOME)) | (away & Q(result__outcome=AWAY))),
        "n_drawn": Count("pk", filter=Q(result__outcome=DRAW)),
        "n_lost": Count("pk", filter=(at_home & Q(result__outcome=AWAY)) | (away & Q(result__outcome=HOME))),
        "n_scored": Sum(Case(When(at_home & counted, then=F("result__home_score")),
                             When(away & counted, then=F("result__away_score")),
                             default=Value(0), output_field=IntegerField())),
        "n_conceded": Sum(Case(When(at_home & counted, then=F("result__away_score")),
                               When(away & counted, then=F("result__home_score")),
                               default=Value(0), output_field=IntegerField())),
    }


def _totals(row: dict, game: str, **more) -> Totals:
    return Totals(game=game, played=row["n_played"], won=row["n_won"], drawn=row["n_drawn"], lost=row["n_lost"],
                  scored=row["n_scored"] or 0, conceded=row["n_conceded"] or 0, **more)


def totals_per_game(coach: Coach) -> list[Totals]:
    """The coach's record in each game they played, one query."""
    rows = (
        played([coach.pk]).values("round__season__league__game_system").order_by("round__season__league__game_system")
        .annotate(**_record_annotations(coach.pk))
    )
    return [_totals(row, row["round__season__league__game_system"]) for row in rows]


def frequent_opponents(coach: Coach, *, shown: int = FREQUENT_SHOWN) -> list[Totals]:
    """The coaches ``coach`` met most often (per game: two coaches of different
    games never meet), with the record against each: one query, the grouping and
    the ordering in the database. A match abandoned or not played is no meeting
    here: an opponent met only so is not listed (their line would read "met 0")."""
    opponent = Case(When(home__coach_id=coach.pk, then=F("away__coach_id")), default=F("home__coach_id"))
    opponent_name = Case(When(home__coach_id=coach.pk, then=F("away__coach__name")), default=F("home__coach__name"))
    rows = (
        played([coach.pk]).annotate(opponent=opponent, opponent_name=opponent_name,
                                    game=F("round__season__league__game_system"))
        .values("opponent", "opponent_name", "game")
        .annotate(last=Max("date", filter=~Q(result__outcome=ABANDONED)), **_record_annotations(coach.pk))
        .filter(n_played__gt=0)
        .order_by("-n_played", "-last", "opponent")[:shown]
    )
    return [_totals(row, row["game"], opponent_id=row["opponent"], opponent=row["opponent_name"],
                    last_date=row["last"]) for row in rows]


RESULTS_PER_PAGE = 20  # a profile's results per page, latest first (bounded by what a person reads)


def results(coach_ids: list[int]):
    """Approved results of ``coach_ids``' matches, latest first, with what a line
    shows (league, season, both sides)."""
    return (
        played(coach_ids).with_related().select_related("round__season__league")
        .order_by("-date", "-round__season__start_date", "-pk")
    )


def meetings(coach: Coach, other: Coach):
    """Every approved result between the two coaches, latest first (across every
    league and season of the game they both play)."""
    between = (Q(home__coach_id=coach.pk) & Q(away__coach_id=other.pk)) | (
        Q(home__coach_id=other.pk) & Q(away__coach_id=coach.pk))
    return results([coach.pk, other.pk]).filter(between)


def pair_totals(coach: Coach, other: Coach) -> list[Totals]:
    """``coach``'s record against ``other`` in each game they met in, one query."""
    between = (Q(home__coach_id=coach.pk) & Q(away__coach_id=other.pk)) | (
        Q(home__coach_id=other.pk) & Q(away__coach_id=coach.pk))
    rows = (
        played([coach.pk]).filter(between).values("round__season__league__game_system")
        .order_by("round__season__league__game_system").annotate(**_record_annotations(coach.pk))
    )
    return [_totals(row, row["round__season__league__game_system"], opponent_id=other.pk, opponent=other.name)
            for row in rows]


def entries(coach: Coach) -> list[Entry]:
    """Every season the coach entered, newest first, with its league (one query)."""
    return list(
        Entry.objects.filter(coach=coach).select_related("season__league", "division")
        .order_by("-season__start_date", "-season_id")
    )


def last_meeting(fixture: Fixture) -> Fixture | None:
    """The latest played result between ``fixture``'s two coaches before it, in any
    league of its game; None for a first meeting. One query."""
    if fixture.away_id is None:
        return None
    return meetings_before(fixture.pk, fixture.home.coach_id, fixture.away.coach_id, fixture.date,
                           fixture.round.season.league.game_system).select_related(
        "result", "home", "round__season__league").first()

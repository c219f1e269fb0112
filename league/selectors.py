"""Reads that pages share, each a fixed number of queries whatever the league's size."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Prefetch
from django.http import Http404

from league.models import Coach, Fixture, League, Result, Round, Season


def season_for(league: League, name: str | None = None) -> Season | None:
    """The named season of a league, or its current one (latest start date).

    Raises Http404 for a name the league does not have; None when it has none yet."""
    seasons = Season.objects.filter(league=league).select_related("league").order_by("-start_date", "-id")
    if name:
        season = seasons.filter(name=name).first()
        if season is None:
            raise Http404(f"{league} has no season called {name!r}.")
        return season
    return seasons.first()


def season_fixtures(season: Season) -> list[Fixture]:
    """Every fixture of a season with both coaches and the result, in round order."""
    return list(
        Fixture.objects.filter(round__season=season)
        .with_related()
        .select_related("round__season__league")
        .order_by("round__number", "date", "id")
    )


@dataclass
class RoundFixtures:
    round: Round
    fixtures: list[Fixture]

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


def latest_and_next(rounds: list[RoundFixtures]) -> tuple[RoundFixtures | None, RoundFixtures | None]:
    """GB-10: the latest round with an approved result, and the first round after it
    that still has matches to play: the weekly publication shows them together."""
    played = [g for g in rounds if any(is_played(f) for f in g.matches)]
    latest = played[-1] if played else None
    after = latest.round.number if latest else 0
    upcoming = next(
        (g for g in rounds if g.round.number > after and any(not is_played(f) for f in g.matches)), None
    )
    return latest, upcoming


def leagues_with_current_season() -> list[League]:
    """The league list: two queries, each league's seasons with their coach count."""
    leagues = list(
        League.objects.prefetch_related(
            Prefetch(
                "seasons",
                queryset=Season.objects.annotate(coach_count=Count("entries")).order_by("-start_date", "-id"),
                to_attr="seasons_newest_first",
            )
        )
    )
    for league in leagues:
        league.current = league.seasons_newest_first[0] if league.seasons_newest_first else None
    return leagues


def coach_fixtures(coach: Coach) -> list[Fixture]:
    """A coach's fixtures in every league, with what a page needs about each."""
    return list(
        Fixture.objects.involving(coach)
        .with_related()
        .select_related("round__season__league")
        .order_by("date", "round__number", "id")
    )


def results_needing_organiser(user) -> list[Result]:
    """Results of the user's leagues that wait on the organiser: reported,
    confirmed (awaiting approval) or disputed."""
    leagues = League.objects.organised_by(user)
    return list(
        Result.objects.filter(fixture__round__season__league__in=leagues)
        .exclude(status=Result.Status.APPROVED)
        .select_related("fixture__round__season__league", "fixture__home__coach", "fixture__away__coach")
        .order_by("fixture__date", "pk")
    )

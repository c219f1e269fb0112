"""The engine's own rows in a league's file: the league, its coaches (names only),
seasons, divisions, entrants, rounds, fixtures, results and their history.

Left behind: join links (their keys are secrets), join and merge requests (they
belong to accounts), the league's webhook addresses and secret.
"""

from __future__ import annotations

from django.db.models import Q

from league.leaguefiles.registry import Part, coach_querysets, register
from league.models import Coach, Division, Entry, Fixture, League, Result, ResultEvent, Round, Season


def register_engine() -> None:
    def coaches(league):
        held = Q(pk__in=Entry.objects.filter(season__league=league).values("coach_id"))
        for ids in coach_querysets(league):
            held |= Q(pk__in=ids)
        return Coach.objects.filter(held)

    register(
        Part(League, lambda league: League.objects.filter(pk=league.pk),
             leave_out=("discord_webhook", "webhook_url", "webhook_secret")),
        Part(Coach, coaches),
        Part(Season, lambda league: Season.objects.filter(league=league)),
        Part(Division, lambda league: Division.objects.filter(season__league=league)),
        Part(Entry, lambda league: Entry.objects.filter(season__league=league)),
        Part(Round, lambda league: Round.objects.filter(season__league=league)),
        Part(Fixture, lambda league: Fixture.objects.filter(round__season__league=league)),
        Part(Result, lambda league: Result.objects.filter(fixture__round__season__league=league)),
        Part(ResultEvent, lambda league: ResultEvent.objects.filter(fixture__round__season__league=league)),
    )

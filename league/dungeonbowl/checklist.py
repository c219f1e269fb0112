"""Dungeon Bowl's items of the organiser's season checklist (league/web/checklist.py):
teams to accept (DB-1), drafts to submit and lock (DB-6), drafted
teams to enter, entrants without a team, the divisions the play-off format asks
for (DB-2, DB-5b), the play-offs to seed (DB-5b), teams still to re-draft and the
next season to open (DB-3, DB-15). Read for any number of seasons in two queries.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Count, Exists, IntegerField, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.urls import reverse

from league.web.checklist import Item, SeasonState
from league.dungeonbowl.models import (
    DungeonBowlSettings, Honour, Placing, PlayoffGame, Redraft, RedraftStep, Team, TeamSeason,
)
from league.models import Entry, Season

FACTS = "dungeonbowl"  # the key of the game's own facts in SeasonState.extra


def _facts(states: Sequence[SeasonState]) -> None:
    """One query for every season in ``states`` not read yet: its league's play-off
    setting, whether its champion is crowned and its play-offs started, its entrants
    without a team, and its teams whose re-draft is neither done nor declined."""
    todo = [state for state in states if FACTS not in state.extra]
    if not todo:
        return
    unfinished = TeamSeason.objects.filter(entry__season=OuterRef("pk")).exclude(
        Exists(Redraft.objects.filter(team=OuterRef("team"), season=OuterRef("entry__season"),
                                      step__in=(RedraftStep.RETIRED, RedraftStep.DONE)))
    ).order_by().values("entry__season").annotate(n=Count("pk")).values("n")
    teamless = (
        Entry.objects.filter(season=OuterRef("pk"), dungeonbowl__isnull=True).order_by().values("season")
        .annotate(n=Count("pk")).values("n")
    )
    rows = Season.objects.filter(pk__in=[state.season.pk for state in todo]).order_by().annotate(
        playoffs=Coalesce(Subquery(DungeonBowlSettings.objects.filter(league=OuterRef("league")).values("playoffs")[:1]),
                          Value(0)),
        crowned=Exists(Honour.objects.filter(season=OuterRef("pk"), placing=Placing.CHAMPION)),
        playoffs_started=Exists(PlayoffGame.objects.filter(season=OuterRef("pk"))),
        teamless=Coalesce(Subquery(teamless, output_field=IntegerField()), Value(0)),
        redrafting=Coalesce(Subquery(unfinished, output_field=IntegerField()), Value(0)),
    ).values("pk", "playoffs", "crowned", "playoffs_started", "teamless", "redrafting")
    by_pk = {row["pk"]: row for row in rows}
    for state in todo:
        state.extra[FACTS] = by_pk[state.season.pk]


def divisions_wanted(states: Sequence[SeasonState]) -> dict[int, int]:
    """DB-2, DB-5b: a league playing its play-offs over 2 to 4 divisions asks each
    season for that many."""
    _facts(states)
    return {state.season.pk: state.extra[FACTS]["playoffs"] for state in states if state.extra[FACTS]["playoffs"] >= 2}


def _teams_by_stage(states: Sequence[SeasonState]) -> dict[int, dict[str, int]]:
    """By league id, the league's teams that did not retire and either never played
    a season or are entered in its current one, by where they stand: not accepted
    yet (DB-1), draft not submitted, draft not locked (DB-6), locked and never
    entered. One query."""
    current = [state.season.pk for state in states]
    rows = (
        Team.objects.filter(league__in={state.league.pk for state in states})
        .annotate(entered=Exists(TeamSeason.objects.filter(team=OuterRef("pk"))),
                  playing=Exists(TeamSeason.objects.filter(team=OuterRef("pk"), entry__season__in=current)))
        .filter(Q(entered=False) | Q(playing=True))
        .exclude(Exists(Redraft.objects.filter(team=OuterRef("pk"), step=RedraftStep.RETIRED)))
        .order_by().values("league")
        .annotate(
            unaccepted=Count("pk", filter=Q(entered=False, accepted_at__isnull=True)),
            unsubmitted=Count("pk", filter=Q(entered=False, accepted_at__isnull=False, draft_submitted_at__isnull=True)),
            unlocked=Count("pk", filter=Q(accepted_at__isnull=False, draft_submitted_at__isnull=False,
                                          draft_locked_at__isnull=True)),
            ready=Count("pk", filter=Q(entered=False, draft_locked_at__isnull=False)),
        )
    )
    return {row.pop("league"): row for row in rows}


# The organiser's one-click steps for all the teams at once.
ONE_CLICK = {"drafts_unlocked": ("dungeonbowl:lock_drafts", "Lock the drafts"),
             "teams_not_entered": ("dungeonbowl:enter_ready", "Enter the ready teams")}


def _teams(n: int) -> str:
    return f"{n} team{'s' if n != 1 else ''}"


def checklist(states: Sequence[SeasonState]) -> dict[int, list[Item]]:
    """The game's items per season (two queries). Founding, drafting and entering
    new teams wait only while the season has no fixtures; a draft entered but not
    locked waits until it is (DB-6: locked before the season)."""
    _facts(states)
    stages = _teams_by_stage(states)
    found: dict[int, list[Item]] = {}
    for state in states:
        facts, slug = state.extra[FACTS], state.league.slug
        draft = reverse("dungeonbowl:entrants", args=[slug])
        items: list[Item] = []
        if facts["teamless"]:
            n = facts["teamless"]
            items.append(Item(
                "teams_missing", f"{n} entrant{'s have' if n != 1 else ' has'} no Dungeon Bowl team in the season: "
                                 "each founds and drafts one, which you lock and enter.", draft, "Drafts and entries",
                count=n, rule="DB-1"))
        teams = stages.get(state.league.pk, {})
        for key, bucket, text, rule, starting in (
            ("teams_unaccepted", "unaccepted", "waiting for you to accept them into the league", "DB-1", True),
            ("drafts_unsubmitted", "unsubmitted", "whose draft is not submitted yet", "DB-6", True),
            ("drafts_unlocked", "unlocked", "whose submitted draft is not locked", "DB-6", False),
            ("teams_not_entered", "ready", "drafted and locked but not entered in the season", "DB-1", True),
        ):
            n = teams.get(bucket, 0)
            if n and not (starting and state.has_fixtures):
                items.append(Item(key, f"{_teams(n)} {text}.", draft, "Drafts and entries", count=n, rule=rule))
                one_click = ONE_CLICK.get(key)
                if one_click:
                    name, label = one_click
                    items[-1] = Item(key, items[-1].text, reverse(name, args=[slug]), label, post=True,
                                     count=n, rule=rule)
        over = facts["crowned"] or (not facts["playoffs"] and state.regular_over)
        if facts["playoffs"] and state.regular_over and not facts["playoffs_started"]:
            items.append(Item("playoffs", "The regular season is complete: the play-offs are ready to seed.",
                              reverse("dungeonbowl:playoffs", args=[slug]), "Seed the play-offs", rule="DB-5b"))
        if over:
            next_season = reverse("dungeonbowl:next_season", args=[slug])
            if facts["redrafting"]:
                n = facts["redrafting"]
                items.append(Item("redrafts", f"{_teams(n)} still to re-draft (or retire) after {state.season.name}.",
                                  next_season, "Who re-drafts", count=n, rule="DB-15"))
            items.append(Item("next_season", f"{state.season.name} is over: the next season is not opened.",
                              next_season, "Open the next season", rule="DB-3"))
        if items:
            found[state.season.pk] = items
    return found

"""The season checklist: what an organiser must still do to start,
run and close a season, each item a link or a one-click action.

The engine's own items are the entrants, the divisions a season asks for, the
fixtures and the next season, each citing its league's game's rule
(``GameRules.cite``: GB-2 or DB-1, DB-2, GB-4 or DB-5a). Each game adds its items
through ``GameRules.checklist`` (Dungeon Bowl's drafts, teams, play-offs and
re-drafts) and each layer through ``Layer.checklist`` (The Big League's Final
Day); the engine imports neither.

``season_states`` reads any number of seasons in one query, with the counts of
what waits on the organiser in their results (league/web/dashboard.py), so the
organiser's dashboard and the "N to do" of the league list count the same things
in a fixed number of queries.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db.models import Count, Exists, IntegerField, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils import timezone

from league import layers
from league.models import Division, Entry, Fixture, JoinRequest, League, Result, Round, Season
from league.rules import rules_class
from league.rules.scheduling import MIN_PER_DIVISION

STALE_AFTER = datetime.timedelta(days=3)  # a report unconfirmed this long needs chasing


@dataclass(frozen=True)
class Item:
    """One thing an organiser must do: ``text`` says what, ``label`` is the words
    of its link to ``url``, or of its button when ``post`` (a one-click POST to
    ``url``)."""

    key: str  # stable: "entrants", "divisions", "fixtures", "next_season", "drafts_unlocked", ...
    text: str
    url: str
    label: str = "Open"
    post: bool = False
    count: int = 1  # how many things it stands for in "N to do" (7 teams to re-draft: 7)
    rule: str = ""  # the rule id it follows, linked to /rules/


@dataclass
class SeasonState:
    """What one query tells about a season: its entrants, divisions and fixtures,
    and its results that wait on the organiser. ``season`` has its league."""

    season: Season
    entries: int = 0
    unplaced: int = 0  # entries in no division
    divisions: int = 0
    has_fixtures: bool = False
    unplayed: int = 0  # regular matches without an approved result
    disputed: int = 0
    to_approve: int = 0  # confirmed by both coaches
    stale: int = 0  # reported, unconfirmed for STALE_AFTER
    overdue: int = 0  # date passed, nothing reported
    asking: int = 0  # join requests and claims of the league's seasons waiting for an answer
    next_stale: datetime.datetime | None = None  # the earliest report not yet unconfirmed for STALE_AFTER
    extra: dict = field(default_factory=dict)  # what a game's or a layer's hook keeps for itself

    @property
    def league(self) -> League:
        return self.season.league

    @property
    def regular_over(self) -> bool:
        """Every regular match has its approved result (GB-26, DB-3)."""
        return self.has_fixtures and self.unplayed == 0


def _count(queryset, outer: str) -> Coalesce:
    """A correlated COUNT of ``queryset`` rows whose ``outer`` is the season."""
    counted = queryset.filter(**{outer: OuterRef("pk")}).order_by().values(outer).annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), Value(0))


def season_states(seasons: Sequence[Season], *, now: datetime.datetime | None = None) -> dict[int, SeasonState]:
    """By season id: the state of each season (with its ``league`` loaded). One
    query whatever the number of seasons or their size."""
    if not seasons:
        return {}
    now = now or timezone.now()
    today = timezone.localdate(now)
    results = Result.objects.all()
    status = Result.Status
    rows = Season.objects.filter(pk__in=[s.pk for s in seasons]).order_by().annotate(
        n_entries=_count(Entry.objects.all(), "season"),
        n_unplaced=_count(Entry.objects.filter(division__isnull=True), "season"),
        n_divisions=_count(Division.objects.all(), "season"),
        n_fixtures=Exists(Round.objects.filter(season=OuterRef("pk"))),
        n_unplayed=_count(Fixture.objects.regular().unplayed(), "round__season"),
        n_disputed=_count(results.filter(status=status.DISPUTED), "fixture__round__season"),
        n_to_approve=_count(results.filter(status=status.CONFIRMED), "fixture__round__season"),
        n_stale=_count(results.filter(status=status.REPORTED, reported_at__lte=now - STALE_AFTER),
                       "fixture__round__season"),
        n_overdue=_count(Fixture.objects.matches().to_play().filter(date__lt=today, result__isnull=True), "round__season"),
        n_asking=Coalesce(Subquery(
            JoinRequest.objects.filter(season__league=OuterRef("league"), outcome=JoinRequest.Outcome.PENDING)
            .order_by().values("season__league").annotate(n=Count("pk")).values("n"), output_field=IntegerField(),
        ), Value(0)),
        next_stale=Subquery(
            results.filter(fixture__round__season=OuterRef("pk"), status=status.REPORTED,
                           reported_at__gt=now - STALE_AFTER).order_by("reported_at").values("reported_at")[:1]
        ),
    ).values_list("pk", "n_entries", "n_unplaced", "n_divisions", "n_fixtures", "n_unplayed", "n_disputed",
                  "n_to_approve", "n_stale", "n_overdue", "n_asking", "next_stale")
    by_pk = {s.pk: s for s in seasons}
    return {
        pk: SeasonState(by_pk[pk], *(int(n) for n in numbers[:3]), bool(numbers[3]), *(int(n) for n in numbers[4:9]),
                        asking=int(numbers[9]), next_stale=numbers[10])
        for pk, *numbers in rows
    }


def season_setup_url(league: League) -> str:
    """The organiser's season set-up page: entrants, invitations, join links."""
    return reverse("league:season_setup", args=[league.slug])


def engine_items(state: SeasonState) -> list[Item]:
    """The engine's items for a season: entrants, divisions, fixtures and, once every
    regular match is approved, the next season; each cites the game's rule, if any."""
    league, rules = state.league, rules_class(state.league.game_system)
    slug = league.slug
    items: list[Item] = []
    if state.asking:
        people = "person asks" if state.asking == 1 else "people ask"
        items.append(Item("asking", f"{state.asking} {people} to join or to be one of the league's coaches.",
                          reverse("league:organiser_dashboard", args=[slug]) + "#join-requests", "Answer",
                          count=state.asking, rule="LG-1"))
    if not state.has_fixtures:
        short = rules().too_few_entries(state.entries)
        if short:
            items.append(Item("entrants", f"Entrants missing: {short}", season_setup_url(league), "Add entrants",
                              rule=rules.cite("entrants")))
        wanted = state.extra.get("divisions_wanted", 0)
        placed = state.divisions == wanted and state.unplaced == 0
        if wanted and not placed:
            if state.entries >= wanted * MIN_PER_DIVISION:
                items.append(Item("divisions", f"Divisions not drawn: the season asks for {wanted}.",
                                  reverse("league:checklist_divisions", args=[slug]), f"Draw {wanted} divisions",
                                  post=True, rule=rules.cite("divisions")))
            else:
                items.append(Item(
                    "divisions", f"Divisions not drawn: {wanted} divisions need at least "
                                 f"{wanted * MIN_PER_DIVISION} entrants ({MIN_PER_DIVISION} each); the season has "
                                 f"{state.entries}.", season_setup_url(league), "Add entrants",
                    rule=rules.cite("divisions")))
        elif not short:
            items.append(Item("fixtures", "Fixtures not generated: the season cannot start without them.",
                              reverse("league:checklist_fixtures", args=[slug]), "Generate fixtures", post=True,
                              rule=rules.cite("fixtures")))
    elif state.regular_over and not rules.own_next_season:
        items.append(Item("next_season", f"{state.season.name} is over: the next season is not opened.",
                          reverse("league:checklist_next_season", args=[slug]), "Open the next season", post=True))
    return items


def no_season_items(league: League) -> list[Item]:
    """A league without a season: its first one to open."""
    return [Item("next_season", "No season yet: open the first one.",
                 reverse("league:checklist_next_season", args=[league.slug]), "Open a season", post=True)]


def checklists(states: dict[int, SeasonState]) -> dict[int, list[Item]]:
    """By season id: every item of each season, the game's and the layers' after
    the engine's. The games and layers are asked once for all the seasons of their
    game (a fixed number of queries each)."""
    by_game: dict[str, list[SeasonState]] = {}
    for state in states.values():
        by_game.setdefault(state.league.game_system, []).append(state)
    game_items: dict[int, list[Item]] = {}
    for game, group in by_game.items():
        rules = rules_class(game)
        for pk, wanted in rules.divisions_wanted(group).items():
            states[pk].extra["divisions_wanted"] = wanted
        game_items.update(rules.checklist(group))
    layer_items = layers.checklists({pk: state for pk, state in states.items()})
    found: dict[int, list[Item]] = {}
    for pk, state in states.items():
        found[pk] = engine_items(state) + game_items.get(pk, []) + layer_items.get(pk, [])
    return found

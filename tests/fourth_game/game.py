"""Ringball as the engine reads it (league/games.py), every facet declared as a
game of the project declares it: rules, rule ids, a leaderboard, its champion's
name, its rows in a league's file, an API endpoint, a tracked row and a panel."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from django.db.models import Q
from django.utils.html import format_html, format_html_join

from league.games import ExportRows, Facts, Game
from league.layers import Layer
from league.records.titles import Titles, table_champions
from league.leaguefiles.registry import Part
from tests.fourth_game import api
from tests.fourth_game.boards import RINGS
from tests.fourth_game.models import Crew, RingballSettings
from tests.fourth_game.rulebook import SECTION
from tests.fourth_game.rules import RingballRules

GAME_SYSTEMS = frozenset({"ringball"})


def crews_panel(context: Mapping[str, Any]) -> str:
    """The league page's crews (one query), kept in the page's body: ``Crew`` is tracked."""
    crews = Crew.objects.filter(league=context["league"]).select_related("coach").order_by("name", "pk")
    if not crews:
        return ""
    return format_html('<section class="ringball-crews"><h2>Crews</h2><ul>{}</ul></section>',
                       format_html_join("", "<li>{} ({})</li>", ((crew.name, crew.coach.name) for crew in crews)))


def declaration() -> Game:
    return Game(
        name="Ringball",
        rules=RingballRules,
        rule_entries=SECTION,
        boards=(RINGS,),
        titles=Titles(champion="Ring Master", won=functools.partial(table_champions, game="ringball", rule="RB-1")),
        export_rows=ExportRows((
            Part(RingballSettings, lambda league: RingballSettings.objects.filter(league=league),
                 game_systems=GAME_SYSTEMS),
            Part(Crew, lambda league: Crew.objects.filter(league=league), game_systems=GAME_SYSTEMS),
        ), coaches=lambda league: Crew.objects.filter(league=league).values("coach_id")),
        api=api.router,
        tracked={Crew: lambda crew: Q(league_id=crew.league_id)},
        # Its writes record only the engine's kinds of fact.
        facts=Facts(),
        layers=(Layer(name="Ringball", game_systems=GAME_SYSTEMS, panels={"league_detail": crews_panel}),),
    )

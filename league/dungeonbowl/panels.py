"""What Dungeon Bowl adds to the engine's pages (league.layers)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.template.loader import render_to_string
from django.urls import reverse

from league.dungeonbowl import playoffs
from league.dungeonbowl.bracket import Game, bracket_svg, describe
from league.dungeonbowl.models import Team
from league.dungeonbowl.playoff_rules import format_for
from league.dungeonbowl.selectors import game_panel, next_steps
from league.models import Entry


def fixture_panel(context: Mapping[str, Any]) -> str:
    """The game page: what each player did and the rolls (three queries)."""
    result = context.get("result")
    if result is None:
        return ""
    panel = game_panel(result)
    if not panel:
        return ""
    fixture = context["fixture"]
    names = {"home": fixture.home.team or str(fixture.home), "away": fixture.away.team or str(fixture.away)}
    panel["sides"] = [(names["home"], panel["home_lines"]), (names["away"], panel["away_lines"])]
    report = panel["report"]
    panel["wizards"] = [names[side] for side in ("home", "away") if getattr(report, f"{side}_wizard")]  # DB-6
    return render_to_string("dungeonbowl/_game_panel.html", panel)


def my_fixtures_panel(context: Mapping[str, Any]) -> str:
    """The coach's home: what their Dungeon Bowl teams wait on (two queries)."""
    steps = next_steps(context.get("coach"))
    if not steps:
        return ""
    return render_to_string("dungeonbowl/_next_steps.html", {"steps": steps})


def league_panel(context: Mapping[str, Any]) -> str:
    """The league page (cached with its body): the season's play-off bracket as a
    picture and as a list (DB-5b), and the league's honours up to this season
    (DB-14). Two queries."""
    season, league = context.get("season"), context.get("league")
    if season is None or league is None:
        return ""
    games = [
        Game(g.slot, g.home, g.away,
             g.result.home_score if g.result else None, g.result.away_score if g.result else None,
             g.result.winner_side() if g.result is not None and g.result.is_approved else None,
             g.result.get_status_display().lower() if g.result else "")
        for g in playoffs.bracket(season)
    ]
    honours = playoffs.honours_until(season)
    settings = league.rules.settings
    if not games and not honours and not (settings is not None and settings.playoffs):
        return ""
    by_season: dict[int, dict[str, Any]] = {}
    for honour in honours:
        by_season.setdefault(honour.season_id, {"season": honour.season, "teams": []})["teams"].append(honour)
    return render_to_string("dungeonbowl/_league_panel.html", {
        "league": league, "season": season, "svg": bracket_svg(games, title=f"Play-offs of {season.name}"),
        "lines": [describe(game) for game in games], "started": bool(games),
        "final_pending": bool(games) and not any(game.slot == 3 for game in games),
        "honours": list(by_season.values()),
        "format": format_for(len({row.division for row in context.get("standings") or ()})),
        "playoffs": bool(settings is not None and settings.playoffs),
    })


def organiser_panel(context: Mapping[str, Any]) -> str:
    """The organiser's dashboard: the way to the play-offs page (DB-5b) and, for the
    off-season, to opening the next season (DB-3, DB-15). No query."""
    league = context.get("league")
    settings = league.rules.settings if league is not None else None
    if settings is None or league.rules.system != "dungeonbowl":
        return ""
    return render_to_string("dungeonbowl/_organiser_panel.html", {
        "playoffs_url": reverse("dungeonbowl:playoffs", args=[league.slug]) if settings.playoffs else "",
        "next_season_url": reverse("dungeonbowl:next_season", args=[league.slug]),
        "entrants_url": reverse("dungeonbowl:entrants", args=[league.slug]),
    })


def viewer_panel(context: Mapping[str, Any]) -> str:
    """The league page, for a logged-in coach entered in the season without a team
    in the league yet: found it, then draft it (DB-1, DB-6). Two
    queries; nothing for anyone else."""
    league, season, user = context.get("league"), context.get("season"), context.get("user")
    if league is None or season is None or user is None or not user.is_authenticated:
        return ""
    entry = (Entry.objects.filter(season=season, coach__user=user, dungeonbowl__isnull=True, withdrawn_at__isnull=True)
             .select_related("coach").first())
    if entry is None:
        return ""
    team = Team.objects.filter(league=league, coach_id=entry.coach_id).exclude(redrafts__step=0).first()
    if team is not None and team.draft_submitted_at is not None:
        return ""  # drafted: the commissioner locks it and enters it
    return render_to_string("dungeonbowl/_found_your_team.html", {
        "league": league, "season": season, "team": team,
        "new_team_url": reverse("dungeonbowl:create_team", args=[league.slug]),
        "draft_url": reverse("dungeonbowl:draft", args=[league.slug]),
    })

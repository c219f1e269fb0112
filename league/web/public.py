"""The public pages (league list and page, fixtures, coach pages, standings and
calendar feeds, the rules page) and the coach's own page. The fixture page and
the result workflow live in league/web/fixtures.py."""

from __future__ import annotations

import functools
import json
import re

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.core.paginator import Paginator
from django.core.serializers.json import DjangoJSONEncoder
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe
from django_tables2 import RequestConfig

from league import layers, selectors
from league.web import charts
from league.web import dashboard
from league.web import feeds
from league.caching import pages
from league.people import entrants as season_entrants
from league.outbox.links import site_root
from league.models import Entry, Fixture, League, Result
from league.permissions import coach_for
from league.rules import GAMES, rulebook, rules_class
from league.ratings.selectors import rated_games
from league.standings.season import history_for, standings_for
from league.web.tables import StandingsTable

# Public pages ------------------------------------------------------------------


LEAGUES_PER_PAGE = 25


def _leagues_shown(request: HttpRequest):
    """The league list's page of leagues (``?q=`` searches, ``?page=``): what the
    view gets, the leagues it shows (None for a search: any text is a search, so
    storing each would store a page per request) and what else keys it."""
    query = request.GET.get("q", "").strip()[:100]
    page = Paginator(selectors.league_search(query), LEAGUES_PER_PAGE).get_page(request.GET.get("page"))
    return (page, query), None if query else page.object_list, f"{query}|{page.number}|{page.paginator.count}"


@pages.public_listing(_leagues_shown)
def league_list(request: HttpRequest, shown) -> HttpResponse:
    """Every league, searchable by name, a page at a time (three queries whatever
    the number of leagues). An anonymous visitor's page is rendered once per
    version of what it shows (league/caching/pages.py)."""
    page, query = shown
    page.object_list = list(page.object_list)
    selectors.attach_current_seasons(page.object_list)
    # For an organiser: what waits on them in each of their leagues (league/web/dashboard.py).
    waiting = dashboard.counts_for(list(page.object_list), request.user)
    for league in page.object_list:
        league.waiting = waiting.get(league.pk)
    return render(
        request, "league/league_list.html",
        {"page": page, "leagues": page.object_list, "query": query, "organises": bool(waiting),
         "rating_pages": [(name, reverse("ratings:ranking", args=[game])) for game, name in rated_games()]},
    )


def _league_season(request: HttpRequest, slug: str):
    league = get_object_or_404(League, slug=slug)
    season = selectors.season_for(league, request.GET.get("season"))
    return league, season


def _digits(value: str, limit: int = 9) -> str:
    """``value`` if it is a whole number of at most ``limit`` digits, else ""."""
    return value if value.isascii() and value.isdigit() and len(value) <= limit else ""


@functools.cache
def _sortable(game_system: str | None = None) -> frozenset[str]:
    """The standings columns the league page sorts by (each also descending): the
    game's, or any game's."""
    games = [rules_class(game_system)] if game_system else GAMES.values()
    keys = selectors.STANDINGS_SORTS | {stat.key for game in games for stat in game.stats}
    return frozenset(keys | {f"-{key}" for key in keys})


def _known_sort(sort: str, game_system: str | None = None) -> str:
    """``sort`` if the standings can be sorted by it, else "" (the game's order)."""
    return sort if sort in _sortable(game_system) else ""


TABLE_PER_PAGE = 50  # rows of the standings a page shows (bounded by what a person reads)
WEEK_LINES = 20  # matches of this week's and next week's round the league page lists; the fixtures page has all


def _following(request: HttpRequest, slug: str) -> bool:
    """A visitor following a line (``?follow=<entry>``) gets the body kept per
    version without a whole page kept: any number is a ``follow``, so keeping each
    page would keep a page per request."""
    return bool(request.GET.get("follow"))


def _league_viewer(request: HttpRequest, seen, slug: str) -> str | None:
    """What the league page shows a logged-in viewer beyond the anonymous page: the
    organiser's link and their own line in the chart. A game whose layers greet the
    viewer on this page ("league_viewer" panels) has it built per request."""
    asked = request.GET.get("season", "")
    seasons = seen.rows
    shown = next((row for row in seasons if row[1] == asked), None) if asked else next(iter(seasons), None)
    if shown is None or not layers.panels_kept(shown[3], "league_viewer"):
        return None  # no such season (a 404), no season yet, or a greeting per viewer
    _, _, _, _, organises, own_entry = shown
    return f"viewer:{int(request.user.is_superuser or organises)}:{own_entry or ''}"


# This week's round depends on the day as well as on the season's writes.
@pages.public_page(query={"season": str, "sort": _known_sort, "page": lambda page: _digits(page, 4), "follow": _digits},
                   unshared=("follow",), variant=pages.today)
@pages.kept_page(pages.league_seasons, _league_viewer, query=("season", "sort", "page"), skip=_following)
def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """The weekly publication (GB-10): standings, this week's results and the next
    fixtures. The body is rendered once per version of the season (and per page of
    the table and line followed), and the whole page once per version for every
    anonymous visitor and every kind of logged-in one (league/caching/pages.py)."""
    league, season = _league_season(request, slug)
    context = {
        "league": league,
        "season": season,
        "seasons": league.seasons.order_by("-start_date", "-id"),
        "is_organiser": league.is_organised_by(request.user),
    }
    if season is not None:
        sort = _known_sort(request.GET.get("sort", ""), league.game_system)
        page = request.GET.get("page", "")
        # Another game's column is this league's default order, built from the same query.
        pages.only_query(request, season=request.GET.get("season", ""), sort=sort, page=page,
                         follow=request.GET.get("follow", ""))
        followed = _followed(request, season)
        # This week's round depends on the day as well as on the season's writes.
        context["body"] = pages.fragment(
            season, f"league-page:{sort}:{page}:{followed or ''}:{timezone.localdate():%Y-%m-%d}",
            lambda: _league_body(request, league, season, followed),
        )
    return render(request, "league/league_detail.html", context)


def _followed(request: HttpRequest, season) -> int | None:
    """The entry whose line the chart adds to the top of the table: the one asked
    for (``?follow=``, an entry of the season), else the viewer's own (one query
    when logged in), else none."""
    asked = request.GET.get("follow", "")
    entries = {row.entry_id: row.coach_id for row in standings_for(season)}
    if asked and int(asked) in entries:
        return int(asked)
    coach = coach_for(request.user)
    if coach is not None:
        return next((entry for entry, coach_id in entries.items() if coach_id == coach.pk), None)
    return None


def with_histories(season, follow: set[int]) -> list:
    """The season's table, the rows the charts draw (each division's first
    ``charts.CHART_TOP`` and those in ``follow``, as ``charts.standings_series``
    picks them) with their position after every round: a dozen lines read, not a
    thousand (league/standings/history.py)."""
    standings = standings_for(season)
    histories = history_for(season)
    drawn: dict[str | None, int] = {}
    for row in standings:  # the cache hands out copies: changing them changes nothing stored
        if drawn.get(row.division, 0) < charts.CHART_TOP or row.entry_id in follow:
            row.history = histories.get(row.entry_id, [])
            drawn[row.division] = drawn.get(row.division, 0) + 1
    return standings


INDENTATION = re.compile(r"[ \t]*\n\s*")


def positions_pictures(standings, *, follow: set[int], highlight: str | None = None, chart_id: str = "bump",
                       title: str = "Position by round", division: object = ...) -> list[tuple]:
    """The bump charts of ``standings`` (with history): per division, its top
    ``charts.CHART_TOP`` rows and the followed entries, on the division's scale
    (a chart of a thousand lines is neither readable nor small). ``division``: only that one."""
    sizes = charts.division_sizes(standings)
    pictures = []
    for index, (name, series) in enumerate(charts.standings_series(standings, follow=follow, top=charts.CHART_TOP)):
        if division is not ... and name != division:
            continue
        svg = charts.bump_chart(series, chart_id=f"{chart_id}-{index}" if division is ... else chart_id,
                                title=f"{title}{f': {name}' if name and division is ... else ''}",
                                highlight=highlight, places=sizes[name])
        if svg:
            pictures.append((name, svg, series))
    return pictures


def positions_table(pictures) -> tuple[list[tuple[str, str]], str]:
    """The charts' lines as text (the table beside them): each shown line's
    position after the rounds the chart draws, and which rounds those are."""
    rows, rounds = [], 0
    for _, _, series in pictures:
        for line in series:
            rounds = max(rounds, len(line.positions))
            kept = [i for i in charts.sampled_rounds(len(line.positions))]
            rows.append((line.name, " → ".join(str(line.positions[i]) for i in kept)))
    kept = charts.sampled_rounds(rounds)
    which = "" if len(kept) == rounds else f"rounds {', '.join(str(i + 1) for i in kept[:3])}, … {kept[-1] + 1}"
    return rows, which


def _league_body(request: HttpRequest, league: League, season, followed: int | None) -> str:
    standings = with_histories(season, {followed} if followed else set())
    # The table sorts its own copy, so ``standings`` stays in the game's order.
    table = StandingsTable(list(standings), league=league, season=season)
    RequestConfig(request, paginate={"per_page": TABLE_PER_PAGE}).configure(table)
    week = selectors.publication(season, shown=WEEK_LINES)
    pictures = positions_pictures(standings, follow={followed} if followed else set())
    lines, which = positions_table(pictures)
    html = render_to_string(
        "league/_league_body.html",
        {
            "league": league,
            "season": season,
            "table": table,
            "standings": standings,
            "pictures": [(division, svg) for division, svg, _ in pictures],
            "positions": lines,
            "sampled": which,
            "partial": sum(len(series) for *_, series in pictures) < len(standings),
            "followed": followed,
            "top": charts.CHART_TOP,
            "unplayed": bool(standings) and not any(row.played for row in standings),
            "week": week,
            "week_lines": WEEK_LINES,
            "week_shown": f":{WEEK_LINES}",
            "request": request,
            "withdrawn": season_entrants.withdrawn(season),  # LG-2
        },
    )
    # The table's template indents every cell: each run of blank space holding a
    # line break becomes one line break, which a browser shows the same (the page
    # has no <pre>), and the page is half the size.
    return mark_safe(INDENTATION.sub("\n", html))


def _round_asked(value: str) -> str:
    """A round number as the fixtures page keys it: ``007`` is ``7``; anything else
    asked for is round 0, which no season has (404)."""
    if not value:
        return ""
    if value.isascii() and value.isdigit() and len(value.lstrip("0")) <= 9:
        return str(int(value))
    return "0"


@pages.public_page(query={"season": str, "round": _round_asked}, variant=pages.today)
def fixtures(request: HttpRequest, slug: str) -> HttpResponse:
    """Fixtures and results one round at a time (this week's by default), with every
    round in the navigation: the cost follows what is shown, not the season. Shared
    by anonymous visitors like the league page."""
    league, season = _league_season(request, slug)
    context = {"league": league, "season": season, "rounds": [], "is_organiser": league.is_organised_by(request.user)}
    if season is not None:
        numbers = selectors.round_numbers(season)
        shown = selectors.round_to_show(season, numbers, request.GET.get("round"))
        context.update(round_numbers=numbers, shown=shown)
        if shown is not None:
            context["body"] = pages.fragment(
                season, f"fixtures:{shown}:{timezone.localdate()}", lambda: render_to_string(
                    "league/_fixtures_round.html",
                    {"rounds": selectors.by_round(selectors.season_fixtures(season, round_number=shown)), "league": league,
                     "withdrawn": season_entrants.withdrawn(season)},  # LG-2
                ),
            )
    return render(request, "league/fixtures.html", context)


RESULTS_PER_PAGE = 20  # a coach's results per page, latest first (bounded by what a person reads)
TO_PLAY_SHOWN = 10  # the next fixtures a coach's page lists; the fixtures page has the rest


def coach_detail(request: HttpRequest, slug: str, coach_id: int) -> HttpResponse:
    """A coach's season: standing, position after each round, results and fixtures.
    What everyone sees is one fragment per version of the season, coach and page of
    results (league/caching/versions.py); only the layers' panels, which may greet the
    coach, are built per request."""
    league, season = _league_season(request, slug)
    entry = get_object_or_404(Entry.objects.select_related("coach"), season=season, coach_id=coach_id)
    page = _digits(request.GET.get("page", ""), 4) or "1"
    body = pages.fragment(season, f"coach-page:{entry.pk}:{page}", lambda: _coach_body(league, season, entry, page))
    return render(request, "league/coach_detail.html", {"league": league, "season": season, "entry": entry, **body})


def _coach_body(league: League, season, entry: Entry, page: str) -> dict[str, str]:
    standings = with_histories(season, {entry.pk})
    row = next(r for r in standings if r.entry_id == entry.pk)
    # One query for the coach's fixtures of the season (at most two a round), split
    # here, rather than a query and a count for each list.
    mine = list(
        Fixture.objects.involving(entry.coach).filter(round__season=season).with_related()
        .order_by("round__number", "pk")
    )
    approved = [f for f in mine if (r := f.result_or_none) is not None and r.status == Result.Status.APPROVED]
    done = {f.pk for f in approved}
    to_play = [f for f in mine if f.away_id is not None and f.pk not in done]
    played = Paginator(approved[::-1], RESULTS_PER_PAGE).get_page(page)
    # GB-10's form: the last five regular results, oldest first.
    last = [f for f in approved if f.stage == Fixture.Stage.REGULAR][-5:]
    pictures = positions_pictures(standings, follow={entry.pk}, highlight=row.name, chart_id="mine",
                                  title=f"{row.name}: position by round", division=row.division)
    context = {
        "league": league,
        "season": season,
        "entry": entry,
        "row": row,
        "figures": league.rules.row_figures(row),
        "played": played,
        "to_play": to_play[:TO_PLAY_SHOWN],
        "to_play_count": len(to_play),
        "line": pictures[0][1] if pictures else "",
        "path": ", ".join(str(row.history[i]) for i in charts.sampled_rounds(len(row.history))),
        "form": charts.form_guide([charts.letter(f.result.outcome, f.side_of(entry.coach)) for f in last]),
    }
    return {
        "summary": mark_safe(INDENTATION.sub("\n", render_to_string("league/_coach_summary.html", context))),
        "lists": mark_safe(INDENTATION.sub("\n", render_to_string("league/_coach_lists.html", context))),
    }


@pages.public_page(everyone=True)
def standings_json(request: HttpRequest, slug: str) -> HttpResponse:
    """The same for everyone: one query and one cache read when warm."""
    league, season = _league_season(request, slug)
    if season is None:
        return JsonResponse({"error": f"{league} has no season yet."}, status=404)
    body = pages.fragment(
        season,
        "standings.json",
        lambda: json.dumps(
            {
                "league": league.slug,
                "season": season.name,
                "standings": feeds.standings_rows(standings_for(season), league.rules),
            },
            cls=DjangoJSONEncoder,
        ),
    )
    return HttpResponse(body, content_type="application/json")


@pages.public_page(everyone=True)
def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    league, season = _league_season(request, slug)
    if season is None:
        return HttpResponse(f"{league} has no season yet.", status=404, content_type="text/plain")
    response = HttpResponse(
        pages.fragment(season, "standings.csv", lambda: feeds.standings_csv(standings_for(season), league.rules)),
        content_type="text/csv; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="{league.slug}-standings.csv"'
    return response


@pages.public_page(variant=site_root, everyone=True)
def league_ics(request: HttpRequest, slug: str) -> HttpResponse:
    """The whole season's calendar, built once per version of the season (and per
    address its links start with)."""
    league, season = _league_season(request, slug)
    root = site_root(request)
    if season is None:
        body = feeds.fixtures_ical([], calendar_name=league.name, root=root)
    else:
        body = pages.fragment(
            season, f"fixtures.ics:{root}",
            lambda: feeds.fixtures_ical(selectors.season_fixtures(season), calendar_name=league.name, root=root),
        )
    return _ics_response(body, f"{league.slug}.ics")


def coach_ics(request: HttpRequest, slug: str, coach_id: int) -> HttpResponse:
    league, season = _league_season(request, slug)
    entry = get_object_or_404(Entry.objects.select_related("coach"), season=season, coach_id=coach_id)
    fixtures_ = list(
        Fixture.objects.involving(entry.coach)
        .filter(round__season=season)
        .with_related()
        .select_related("round__season__league")
        .order_by("round__number")
    )
    return _ics_response(
        feeds.fixtures_ical(fixtures_, calendar_name=f"{league.name}: {entry.coach}", root=site_root(request)),
        f"{league.slug}-{entry.coach_id}.ics",
    )


def _ics_response(body: str, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def rules_page(request: HttpRequest) -> HttpResponse:
    """Every rule id the site cites, with a line in our own words: the engine's and
    each game's (league/rules/rulebook.py)."""
    return render(request, "league/rules.html", {"games": rulebook.sections()})

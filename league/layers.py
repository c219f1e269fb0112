"""What a layer on top of a game adds to the engine's workflow and pages.

The engine knows no game layer (The Big League campaign is one, for Guild Ball).
A layer, or a game adding panels or demo data of its own, lists its ``Layer`` in
its declaration (league/games.py: ``campaigns/game.py``); the engine reads them
through the functions below and never imports the layer. Every workflow hook is a
``Protocol`` with a keyword ``by``, so a type checker sees who acted is passed:

- ``lock_sides``: the layer's rows for a fixture's sides, locked in the one
  lock order (league/locks.py) before a workflow step writes;
- ``report_taken_back``: a coach took back a report nobody confirmed, so what the
  layer attached to the reported match goes with it;
- approval hooks, called inside the engine's transaction when a result becomes
  approved or is about to stop counting (corrected or reopened), each told who
  acted (``by``: the user approving, entering, correcting or reopening it; None
  for the system's own jobs), and the warnings
  the organiser must acknowledge before a correction goes ahead; ``results_imported``
  derives once for a whole season after an import approved its results in bulk
  (without it, ``result_approved`` is called for each result in turn);
- ``season_started``, called inside ``generate_fixtures``'s transaction, so the
  rows a layer needs for a season exist before any page reads them (a GET never
  writes: STYLE habit 14);
- LG-5: ``held_by_fixtures`` says what the layer attached to fixtures a withdrawal
  is about to cancel or a re-generation of fixtures to remove (a Big League
  sponsorship or loan), for the confirmation page; ``release_fixtures`` cancels it
  inside that change's transaction, before the fixtures are marked or go;
- extra import columns (``home_cp,away_cp``): parsed per line without the
  database, applied after the line's result is written;
- ``checklist``: the layer's items of the organiser's season checklist
  (league/web/checklist.py: The Big League's Final Day);
- panels: HTML a layer adds to an engine page ("league_detail", "fixture_detail",
  "coach_detail", "my_fixtures", "organiser_dashboard"), rendered from that page's
  context with a fixed number of queries. "league_detail" panels are part of the
  league page's cached body (league/caching/versions.py): a layer tracks every model its
  panel reads; "league_viewer" panels are not cached and shown only to a
  logged-in visitor, for what waits on them in this league (a coach
  entered without a team is told to found it);
- ``team_name``: the name the layer gives a team typed for its game (a Big League
  Guild spelt another way is its catalogue entry), or a refusal listing what it
  accepts; applied wherever an entry is placed in a season;
- demo data for ``quickstart``;
- notification kinds (league/outbox/notifications.py), sent by the layer's own services.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from django.utils.safestring import SafeString, mark_safe

from league import games
from league.text import markers

if TYPE_CHECKING:  # for a type checker only: the account model is loaded with the apps
    from django.contrib.auth.models import User

PAGES = ("league_detail", "league_viewer", "fixture_detail", "coach_detail", "my_fixtures", "organiser_dashboard")


class ResultHook(Protocol):
    """Told of a result (``league.models.Result``) and who acted (None: the system's own job)."""

    def __call__(self, result: Any, /, *, by: User | None) -> None: ...


class SeasonHook(Protocol):
    """Told of a season (``league.models.Season``) and who acted."""

    def __call__(self, season: Any, /, *, by: User | None) -> None: ...


class ReleaseHook(Protocol):
    """LG-5: given fixtures (a queryset) about to be cancelled or removed, cancel what
    the layer holds on them and give back what it moved, saying ``why``."""

    def __call__(self, fixtures: Any, /, *, why: str, by: User | None) -> None: ...


class ApplyColumns(Protocol):
    """One import line's parsed columns applied to the result it wrote (``source``:
    "results.csv, line 7")."""

    def __call__(self, parsed: Any, /, *, result: Any, by: User | None, source: str) -> None: ...


class ApplyAllColumns(Protocol):
    """Every line of a season's import at once (``ImportedLine``s in file order)."""

    def __call__(self, lines: Sequence[ImportedLine], /, *, season: Any, by: User | None) -> None: ...


@dataclass(frozen=True)
class ImportColumns:
    """Optional columns a layer reads from an import file.

    ``parse`` gets the line's values by column (every column of the line, stripped;
    the layer's own may be absent) and returns what ``apply`` needs, None when the
    line gives the layer nothing, or raises ``ValueError`` with the reason
    (``league.spreadsheets.files`` adds the line number). ``apply`` runs in the import's
    transaction after the line's result is written; it raises ``ValidationError``
    to refuse the line.

    ``apply_all``, when given, does what ``apply`` does for every line of a
    season's import at once (the bulk path, a fixed number of queries
    whatever the lines), given ``ImportedLine``s in file order; it raises
    ``league.spreadsheets.files.BadRow`` naming the line it refuses.
    """

    columns: tuple[str, ...]
    parse: Callable[[Mapping[str, str]], Any]
    apply: ApplyColumns
    apply_all: ApplyAllColumns | None = None


@dataclass(frozen=True)
class ImportedLine:
    """One import line's parsed layer columns with the result it was applied to."""

    line: int
    parsed: Any
    result: Any  # league.models.Result, its fixture and round loaded
    source: str  # "results.csv, line 7"


@dataclass(frozen=True)
class DemoReport:
    """What a layer's demo tells ``quickstart``: ``message`` (what was loaded, or
    that it was already there), the demo league's slug for the address printed,
    and a ``note`` printed after the accounts."""

    message: str
    loaded: bool
    league_slug: str
    note: str = ""


@dataclass(frozen=True)
class Layer:
    name: str
    game_systems: frozenset[str]
    # The layer's Django app, when it has models of its own: the organisers get
    # their permissions (league.permissions.organiser_apps).
    app_label: str | None = None
    result_approved: ResultHook | None = None
    result_withdrawn: ResultHook | None = None
    # A coach takes back their report (never approved) and the result is about to be
    # deleted: remove what the layer attached to the match because it was reported
    # (a Big League's achieved plot cards), in the same transaction.
    report_taken_back: ResultHook | None = None
    # The import's bulk path: every result is approved, then this derives
    # once for the season what approving them one by one would have.
    results_imported: SeasonHook | None = None
    season_started: SeasonHook | None = None
    # LG-5: given fixtures (a queryset) about to be cancelled or removed, what the layer holds on
    # them, a sentence each; then, in the same transaction, cancel it and give back
    # what it moved, saying ``why``.
    held_by_fixtures: Callable[[Any], list[str]] | None = None
    release_fixtures: ReleaseHook | None = None
    # Called before an approved result is corrected; returns what to call once the
    # correction is applied (same transaction) to list what the organiser must be
    # warned of before going ahead (a Big League debt, GB-20).
    correction_warnings: Callable[[Any], Callable[[], list[str]]] | None = None
    # Locks the layer's rows for a fixture's two sides (its balances) in primary-key
    # order, at step 3 of league/locks.py, before any workflow step writes.
    lock_sides: Callable[[Any], object] | None = None  # what it returns is not read
    import_columns: ImportColumns | None = None
    panels: Mapping[str, Callable[[Mapping[str, Any]], str]] = field(default_factory=dict)
    demo: Callable[[], DemoReport] | None = None  # loads once; running it again adds nothing
    demo_accounts: Callable[[], list[tuple[str, str, str]]] | None = None  # (role, username, password)
    # The layer's own notification kinds (league.outbox.notifications.Kind), which a user
    # can turn off on their profile like the engine's.
    notification_kinds: tuple[Any, ...] = ()
    # What waits on the organiser in the layer, counted for the home page: given
    # season ids, {season id: {label: count}} in one query.
    organiser_counts: Callable[[list[int]], dict[int, dict[str, int]]] | None = None
    # The layer's items of the season checklist (league/web/checklist.py): given the
    # states of seasons of its games, {season id: [Item]} in a fixed number of queries.
    checklist: Callable[[list[Any]], dict[int, list[Any]]] | None = None
    # Pages ("my_fixtures") whose panel reads only rows the layer tracks in versions
    # (versions.track) of the seasons the viewer's kept page is keyed by: kept with
    # the page (league/caching/kept_pages.py). Any other panel is rendered per request, from
    # the viewer alone ({"coach", "user", "request"}).
    kept_panels: frozenset[str] = frozenset()
    # Given a coach id, the leagues (a Q on League) where the layer's panels may show
    # the coach something beyond the seasons they are entered in (a Dungeon Bowl team
    # founded before it is entered, or in a league with no season yet). A panel
    # rendered per request shows nothing to a coach with neither a season nor such a
    # league of its games: their kept home page then skips it (league/web/public.py).
    coach_leagues: Callable[[int], Any] | None = None
    # A team's name as typed (not empty) -> its name in the layer's catalogue, or
    # ValidationError saying what the layer accepts (The Big League's Guilds).
    team_name: Callable[[str], str] | None = None

    def __post_init__(self) -> None:
        unknown = set(self.panels) - set(PAGES)
        if unknown:
            raise ValueError(f"Layer {self.name} adds panels to unknown pages: {sorted(unknown)}")


def layers() -> tuple[Layer, ...]:
    """Every declared layer, in the order the games and layers registered."""
    return tuple(layer for declaration in games.declared() for layer in declaration.layers)


def app_labels() -> tuple[str, ...]:
    return tuple(dict.fromkeys(layer.app_label for layer in layers() if layer.app_label))


def layers_for(game_system: str) -> list[Layer]:
    return [layer for layer in layers() if game_system in layer.game_systems]


def panels_kept(game_system: str, page: str) -> bool:
    """Whether every panel the layers of ``game_system`` add to ``page`` is kept with
    it (``Layer.kept_panels``): a view keeping that page per version needs that."""
    return all(page in layer.kept_panels for layer in layers_for(game_system) if page in layer.panels)


def result_approved(result, *, by) -> None:
    for layer in layers_for(result.fixture.round.season.league.game_system):
        if layer.result_approved is not None:
            layer.result_approved(result, by=by)


def result_withdrawn(result, *, by) -> None:
    for layer in layers_for(result.fixture.round.season.league.game_system):
        if layer.result_withdrawn is not None:
            layer.result_withdrawn(result, by=by)


def report_taken_back(result, *, by) -> None:
    for layer in layers_for(result.fixture.round.season.league.game_system):
        if layer.report_taken_back is not None:
            layer.report_taken_back(result, by=by)


def results_imported(season, results, *, by) -> None:
    """After a bulk approval of ``results`` by ``by`` (in the order one-by-one
    approval would have taken them): each layer derives once, or per result when it
    has no bulk hook."""
    for layer in layers_for(season.league.game_system):
        if layer.results_imported is not None:
            layer.results_imported(season, by=by)
        elif layer.result_approved is not None:
            for result in results:
                layer.result_approved(result, by=by)


def team_name(game_system: str, team: str) -> str:
    """``team`` as the layers of ``game_system`` name it (empty stays empty)."""
    team = team.strip()
    for layer in layers_for(game_system):
        if team and layer.team_name is not None:
            team = layer.team_name(team)
    return team


def lock_sides(fixture) -> None:
    for layer in layers_for(fixture.round.season.league.game_system):
        if layer.lock_sides is not None:
            layer.lock_sides(fixture)


def warns_on_correction(game_system: str) -> bool:
    """Whether a layer of this game may warn about a correction (GB-20), so the
    game's correction forms offer the box to go ahead anyway; other games' forms
    do not show it."""
    return any(layer.correction_warnings is not None for layer in layers_for(game_system))


def correction_check(result) -> Callable[[], list[str]]:
    """Before correcting ``result``: a function that, called after the correction,
    returns every layer's warnings about it."""
    checks = [
        layer.correction_warnings(result)
        for layer in layers_for(result.fixture.round.season.league.game_system)
        if layer.correction_warnings is not None
    ]
    return lambda: [warning for check in checks for warning in check()]


def season_started(season, *, by) -> None:
    for layer in layers_for(season.league.game_system):
        if layer.season_started is not None:
            layer.season_started(season, by=by)


def held_by_fixtures(season, fixtures) -> list[str]:
    """LG-5: what the layers of ``season``'s game hold on ``fixtures`` (a queryset
    of its fixtures about to be cancelled or removed), a sentence each, for the confirmation page."""
    return [
        held for layer in layers_for(season.league.game_system) if layer.held_by_fixtures is not None
        for held in layer.held_by_fixtures(fixtures)
    ]


def release_fixtures(season, fixtures, *, why: str, by) -> None:
    """LG-5: inside the transaction that cancels or removes ``fixtures``, before: each
    layer cancels what it holds on them and gives back what that moved."""
    for layer in layers_for(season.league.game_system):
        if layer.release_fixtures is not None:
            layer.release_fixtures(fixtures, why=why, by=by)


def import_columns(game_system: str) -> list[ImportColumns]:
    return [layer.import_columns for layer in layers_for(game_system) if layer.import_columns is not None]


def render_panels(page: str, context: Mapping[str, Any]) -> SafeString:
    """Every panel the league's layers add to ``page``, in registration order; on a
    page that belongs to no league (a coach's home), every layer's panel. On a page
    rendered to be kept by a view that renders the rest per request, a panel not in
    its layer's ``kept_panels`` is a marker (league/caching/kept_pages.py)."""
    league = context.get("league")
    candidates = layers_for(league.game_system) if league is not None else layers()
    request = context.get("request")
    kept = request is not None and live_panels(request)
    parts = [
        panel_marker(layer.name, page) if kept and page not in layer.kept_panels else layer.panels[page](context)
        for layer in candidates if page in layer.panels
    ]
    return mark_safe("".join(parts))


PANEL_MARKER = markers.PANEL_PATTERN


def live_panels(request) -> bool:
    """Whether ``request``'s page is being rendered to be kept by a view that renders
    the panels not kept per request (league/caching/kept_pages.py ``serve(panels=...)``):
    only those get markers, never a body kept per version for everyone (the league
    page's)."""
    return getattr(request, "_kept_live_panels", False)


def panel_marker(layer: str, page: str) -> str:
    """Where a layer's panel that is not kept goes (``PANEL_MARKER``)."""
    return markers.marker(f"panel:{layer}:{page}")


def named(name: str) -> Layer:
    return next(layer for layer in layers() if layer.name == name)


def checklists(states: Mapping[int, Any]) -> dict[int, list[Any]]:
    """{season id: [league.web.checklist.Item]} from every layer with checklist items;
    ``states`` maps season ids to their ``league.web.checklist.SeasonState``."""
    found: dict[int, list[Any]] = {}
    for layer in layers():
        if layer.checklist is None:
            continue
        mine = [state for state in states.values() if state.league.game_system in layer.game_systems]
        if not mine:
            continue
        for season_id, items in layer.checklist(mine).items():
            found.setdefault(season_id, []).extend(items)
    return found


def organiser_counts(seasons: Mapping[int, str]) -> dict[int, dict[str, int]]:
    """{season id: {label: count}} from every layer that counts what waits on an
    organiser; ``seasons`` maps season ids to their league's game system. One query
    per such layer."""
    found: dict[int, dict[str, int]] = {}
    for layer in layers():
        if layer.organiser_counts is None:
            continue
        ids = [pk for pk, game in seasons.items() if game in layer.game_systems]
        if not ids:
            continue
        for season_id, counts in layer.organiser_counts(ids).items():
            found.setdefault(season_id, {}).update(counts)
    return found

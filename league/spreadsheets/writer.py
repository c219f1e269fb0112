"""Writing a results import (``manage.py import_results --game G``) into the
database, from the rows ``league.spreadsheets.files`` read and checked.

``import_rows`` writes them in one transaction: the league (slug from its name,
with the game's settings row), a season, the entries the game's
``import_entries`` finds or makes (``coach_entries`` where lines name coaches), rounds, fixtures and approved results. Results
go through ``bulk_results.record_results_in_bulk``: all stored and
approved at once, then whatever hangs off an approval (a campaign's Favours,
Dungeon Bowl's post-game sequence) derived once, exactly as approving them one
by one on the site in file order would (tests/spreadsheets/test_bulk_import.py).

Importing the same file again changes nothing: an approved result the file agrees
with (the game's ``verdict_of``) is left alone, a different one refuses the line.
The first bad row stops the import with its line number and the reason, and
nothing from the file is written.

A game's layer's own columns (``league.layers.ImportColumns``, the Big League's
``home_cp,away_cp``) are applied after the line's result is written.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.text import slugify

from league import datebounds, layers
from league.facts import kinds as fact
from league.facts import recording as facts
from league.outbox.quiet import quiet
from league.text import plaintext
from league.services import bulk_results
from league.services import results as services
from league.caching import writes as season_writes
from league.spreadsheets.files import DATE_COLUMN, BadRow, ImportRow, check_rows, required_columns, verdict_for
from league.models import Coach, Entry, Fixture, League, Result, Round, Season
from league.rules import GAMES, GameRules


DEFAULT_SEASON = "Imported"
SYSTEM_USERNAME = "importer"


def game_for_header(columns: Iterable[str], league_name: str = "") -> str | None:
    """The game a file is for, without ``--game``: the game of the league its first
    line names when that league exists, else the one game whose header is exactly
    the file's columns; None when neither tells."""
    if league_name:
        league = find_league(slugify(league_name), league_name, 2)
        if league is not None and league.game_system in GAMES:
            return league.game_system
    given = {(column or "").strip().lower() for column in columns} - {DATE_COLUMN}
    matches = [system for system, cls in GAMES.items() if set(required_columns(cls())) == given]
    return matches[0] if len(matches) == 1 else None


class ImportRefused(Exception):
    """The import as a whole cannot go ahead (for instance, no right to the league)."""


@dataclass
class Summary:
    """What an import wrote, a count by kind: the leagues, seasons, coaches and
    entries every import creates, then its subclass's own; and what it found
    already there (``unchanged``)."""

    unchanged: int = 0
    league_names: list[str] = field(default_factory=list)
    leagues: int = 0
    seasons: int = 0
    coaches: int = 0
    entries: int = 0

    @property
    def changed(self) -> bool:
        return any(value for name, value in vars(self).items() if name != "unchanged" and isinstance(value, int))


@dataclass
class ImportSummary(Summary):
    rounds: int = 0
    fixtures: int = 0
    results_recorded: int = 0
    results_approved: int = 0


def coach_for_name(*, name: str, league: League, by) -> tuple[Coach, bool]:
    """The coach an import line's ``name`` means in ``league``: one person, one
    coach, so the league's own coach of that name (however written: case, width,
    invisible characters) when it has played there before, else a new coach ``by``
    creates. A coach of another league never matters. Returns (coach, created)."""
    return coaches_for_names(names=[name], league=league, by=by)[name]


def coaches_for_names(*, names: Iterable[str], league: League, by, season: Season | None = None
                      ) -> dict[str, tuple[Coach, bool]]:
    """``coach_for_name`` for many names in two queries (the league's coaches, then
    the new ones in bulk): {name: (coach, created)}. Refused (a ValidationError
    carrying the name as ``import_name``) when the file writes one name two ways, or
    when two of the league's coaches share the name and neither is entered in
    ``season`` already: which person is meant is the organiser's to say."""
    names = list(dict.fromkeys(names))  # file order: the second way of writing a name is refused
    spelt: dict[str, str] = {}
    for name in names:
        first = spelt.setdefault(plaintext.name_key(name), name)
        if first != name:
            raise _refused(name, f"{first} and {name} are one name written two ways: write it one way in the file")
    theirs: dict[str, list[Coach]] = {}
    coaches = Coach.objects.filter(entries__season__league=league).distinct().order_by("pk")
    if season is not None:
        coaches = coaches.annotate(here=Exists(Entry.objects.filter(season=season, coach=OuterRef("pk"))))
    for coach in coaches:
        theirs.setdefault(plaintext.name_key(coach.name), []).append(coach)
    found: dict[str, Coach] = {}
    for key, name in spelt.items():
        candidates = theirs.get(key, [])
        entered = [coach for coach in candidates if getattr(coach, "here", False)]
        if len(entered) == 1:
            found[name] = entered[0]
        elif len(candidates) == 1:
            found[name] = candidates[0]
        elif candidates:
            raise _refused(name, f"{len(candidates)} coaches of {league.name} are called {name}: "
                                 "add them from the Coaches page")
    new = Coach.objects.bulk_create([Coach(name=name, created_by=by) for name in names if name not in found])
    result = {name: (coach, False) for name, coach in found.items()}
    result.update({coach.name: (coach, True) for coach in new})
    return result


def _refused(name: str, message: str) -> ValidationError:
    error = ValidationError(message)
    error.import_name = name  # the caller reports the first line naming it
    return error


def coach_entries(*, season: Season, names: Sequence[str], by) -> dict[str, tuple[Entry, bool, bool]]:
    """The season's entry of each coach an import file names, created when missing:
    {name: (entry, coach created, entry created)}. A name is the league's coach of
    that name or a new one (``coaches_for_names``), all placed in a fixed number
    of queries (an import costs about a bulk insert)."""
    coaches = coaches_for_names(names=names, league=season.league, by=by, season=season)
    held = {entry.coach_id: entry for entry in
            Entry.objects.filter(season=season, coach__in=[coach for coach, _ in coaches.values()])}
    missing = [Entry(season=season, coach=coach) for coach, _ in coaches.values() if coach.pk not in held]
    for entry in Entry.objects.bulk_create(missing):
        held[entry.coach_id] = entry
    if missing:
        season_writes.changed(season)  # bulk_create sends no post_save
    new = {entry.coach_id for entry in missing}
    return {name: (held[coach.pk], created, coach.pk in new) for name, (coach, created) in coaches.items()}


NAME_AN_ORGANISER = (
    "Name the organiser the import is recorded by with --by USERNAME: they become the organiser of a league the "
    "file creates, and must organise a league it names that exists (an import without one made a league no "
    "organiser could reach). No account yet? Sign up on the site, or run manage.py createsuperuser"
)


def organiser_named(username: str | None):
    """The account a command imports as (always a named organiser,
    as on the web, where the uploader is the importer); ``ImportRefused`` saying how
    to name one otherwise."""
    if not username:
        raise ImportRefused(NAME_AN_ORGANISER)
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise ImportRefused(f"There is no user {username!r}. {NAME_AN_ORGANISER}")
    if not user.is_active:
        raise ImportRefused(f"The account {username!r} is deactivated and cannot organise a league")
    return user


def system_user():
    """An account that cannot log in, for tools that import without a person
    (the benchmark, bench/): imports from the site and the commands name an
    organiser (``organiser_named``)."""
    user, created = get_user_model().objects.get_or_create(username=SYSTEM_USERNAME, defaults={"is_active": False})
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


@transaction.atomic
def import_rows(
    rows: list[ImportRow],
    *,
    rules: GameRules,
    by,
    season_name: str = DEFAULT_SEASON,
    start_date: datetime.date | None = None,
    source: str = "import",
) -> ImportSummary:
    """Write checked rows of ``rules``' game: everything or, on the first problem,
    nothing.

    ``by`` is the organiser the results are recorded by, made organiser of the
    leagues the rows create (never a league nobody organises). A league
    that already exists must be of the same game and organised by ``by``. The
    season is found by name or created starting on ``start_date`` (default today);
    round n is dated start + cadence * (n - 1).
    """
    check_season_options(season_name, start_date)
    summary = ImportSummary()
    by_slug: dict[str, list[ImportRow]] = {}
    for row in rows:
        by_slug.setdefault(row.slug, []).append(row)
    # One email per imported result would flood every coach; one new version per
    # season, not one per saved row.
    with quiet(), season_writes.one_version_per_season():
        written = [
            _import_league(slug, league_rows, game=rules, by=by, season_name=season_name, start_date=start_date,
                           source=source, summary=summary)
            for slug, league_rows in by_slug.items()
        ]
    # One fact a season, outside the quiet block: a league's subscribers hear of the
    # import once a season, not once a result, and the ratings wait from its earliest match.
    for season, earliest in filter(None, written):
        facts.record(fact.RESULTS_IMPORTED, by=by, season=season, concerns={"earliest": earliest.isoformat()},
                     earliest=earliest)
    return summary


def check_season_options(season_name: str, start_date: datetime.date | None) -> None:
    """The season an import names or creates: a name that fits its column (SQLite
    would store a longer one) and a start date within league/datebounds.py's range."""
    limit = Season._meta.get_field("name").max_length
    if not season_name.strip() or len(season_name) > limit:
        raise ImportRefused(f"--season: a season name is 1 to {limit} characters of text")
    if found := plaintext.problem(season_name):  # a backup cannot hold control characters
        raise ImportRefused(f"--season: a season name is plain text; it holds {found}")
    if start_date is not None:
        try:
            datebounds.validate_match_date(start_date)
        except ValidationError as error:
            raise ImportRefused(f"--start: {' '.join(error.messages)}") from None


def find_league(slug: str, name: str, line: int) -> League | None:
    """The league an import file names: by the slug its name gives, else by its
    name (a league created on the site may have a shorter slug); two leagues of
    that name are refused at ``line`` rather than one picked. Every import finds its
    league here (the results import, Dungeon Bowl's teams import)."""
    league = League.objects.filter(slug=slug).first()
    if league is not None:
        return league
    named = list(League.objects.filter(name__iexact=name)[:2])
    if len(named) > 1:
        raise BadRow(line, f"more than one league is called {name}; rename one of them first")
    return named[0] if named else None


def _import_league(slug, rows, *, game: GameRules, by, season_name, start_date, source,
                   summary: ImportSummary) -> tuple[Season, datetime.date] | None:
    """Write one league's rows; the season and its earliest match, when results
    were recorded in it."""
    league = find_league(slug, rows[0].league, rows[0].line)
    if league is None:
        league = League.objects.create(name=rows[0].league, slug=slug, game_system=game.system)
        if game.settings_model is not None:
            game.settings_model.objects.create(league=league)  # the rulebook's defaults
        league.organisers.add(by)
        summary.leagues += 1
    elif league.game_system != game.system:
        theirs = GAMES[league.game_system].name if league.game_system in GAMES else league.game_system
        raise BadRow(
            rows[0].line,
            f"the league {league.name} ({league.slug}) already exists as a {theirs} league, not {game.name}; "
            f"import it with --game {league.game_system} or rename the league in the file",
        )
    elif not league.is_organised_by(by):
        raise ImportRefused(
            f"{by.username} does not organise the existing league {league.name} ({league.slug}); "
            f"import with --by USERNAME naming one of its organisers"
        )
    summary.league_names.append(league.name)
    rules = league.rules  # bound to the league's own settings (GB-8's VP target ...)
    check_rows(rows, rules=rules)

    season, created = Season.objects.get_or_create(
        league=league, name=season_name, defaults={"start_date": start_date or timezone.localdate()}
    )
    summary.seasons += created

    names = list(dict.fromkeys(name for row in rows for name in (row.home, row.away)))  # file order
    try:
        if rules.import_sides == "coaches":
            placed = coach_entries(season=season, names=names, by=by)
        else:
            names.sort()
            placed = rules.import_entries(season=season, names=names, by=by)
    except ValidationError as error:  # the game cannot place a name (a team never imported)
        name = getattr(error, "import_name", None)
        line = next((row.line for row in rows if name in (row.home, row.away)), rows[0].line)
        raise BadRow(line, " ".join(error.messages)) from None
    entries = {}
    for name, (entries[name], coach_created, entry_created) in placed.items():
        summary.coaches += coach_created
        summary.entries += entry_created
    refusal = rules.too_few_entries(Entry.objects.filter(season=season).count())  # GB-2, DB-1
    if refusal:
        raise BadRow(rows[0].line, refusal)

    last = max(rows, key=lambda row: row.round)
    try:  # every round's date within league/datebounds.py's range
        datebounds.validate_season_dates(season.start_date, rounds=last.round, days_between=season.cadence_days)
    except ValidationError as error:
        raise BadRow(last.line, " ".join(error.messages)) from None
    numbers = sorted({row.round for row in rows})
    rounds = {rnd.number: rnd for rnd in Round.objects.filter(season=season, number__in=numbers)}
    missing = [
        Round(season=season, number=n, date=season.start_date + datetime.timedelta(days=season.cadence_days * (n - 1)))
        for n in numbers if n not in rounds
    ]
    for rnd in Round.objects.bulk_create(missing):
        rounds[rnd.number] = rnd
    summary.rounds += len(missing)
    for rnd in rounds.values():
        rnd.season = season

    # One query for every fixture already in these rounds, to find each row's
    # fixture and any clash with a fixture that is not in the file.
    by_pk = {rnd.pk: rnd for rnd in rounds.values()}
    existing: dict[int, list[Fixture]] = {pk: [] for pk in by_pk}
    for fixture in Fixture.objects.filter(round__in=rounds.values()).select_related("home__coach", "away__coach", "result"):
        fixture.round = by_pk[fixture.round_id]
        existing[fixture.round_id].append(fixture)
    fixtures = [_fixture(row, rounds[row.round], entries, existing[rounds[row.round].pk], summary) for row in rows]
    fresh = {id(f) for f in fixtures if f.pk is None}  # no result yet: nothing to read
    Fixture.objects.bulk_create([f for f in fixtures if f.pk is None])

    # Every result at once, then what hangs off the approvals derived once
    # (bulk_results.record_results_in_bulk): the same rows as one by one.
    items = [
        item for row, fixture in zip(rows, fixtures) if row.has_result
        for item in [_result(row, fixture, fresh=id(fixture) in fresh, rules=rules, source=source, summary=summary)]
        if item is not None
    ]
    results = []
    if items:
        results = _call(rows[0], bulk_results.record_results_in_bulk, season=season, items=items, by=by)
    elif missing or summary.fixtures:
        season_writes.changed(season)  # bulk writes send no signals
    _apply_extras(rows, fixtures, season=season, by=by, source=source)
    return (season, min(result.fixture.date for result in results)) if results else None


def _apply_extras(rows: list[ImportRow], fixtures: list[Fixture], *, season: Season, by, source: str) -> None:
    """The layers' figures for each line (the Big League's CP), after every result
    (and whatever hangs off its approval) is written: each layer's columns for the
    whole file at once where it has a bulk path, else line by line."""
    wanted = [(row, fixture) for row, fixture in zip(rows, fixtures) if row.extras]
    if not wanted:
        return
    results = {r.fixture_id: r for r in Result.objects.filter(fixture__in=[fixture for _, fixture in wanted])}
    by_extra: dict[layers.ImportColumns, list[layers.ImportedLine]] = {}
    for row, fixture in wanted:
        result = results[fixture.pk]
        result.fixture = fixture  # its round and season already loaded
        for extra, parsed in row.extras:
            by_extra.setdefault(extra, []).append(
                layers.ImportedLine(line=row.line, parsed=parsed, result=result, source=f"{source}, line {row.line}")
            )
    for extra, lines in by_extra.items():
        if extra.apply_all is not None:
            call_service(lines[0].line, extra.apply_all, lines, season=season, by=by)
            continue
        for line in lines:
            call_service(line.line, extra.apply, line.parsed, result=line.result, by=by, source=line.source)


def _fixture(row: ImportRow, rnd: Round, entries, existing: list[Fixture], summary: ImportSummary) -> Fixture:
    """The row's fixture among those of its round (``existing``, which a new one
    joins unsaved: the caller inserts them at once), or a line refused for a clash
    or for naming an entrant who withdrew (LG-2)."""
    home, away = entries[row.home], entries[row.away]
    if home.withdrawn_at is not None or away.withdrawn_at is not None:
        return _withdrawn_fixture(row, rnd, home, away, existing)
    for fixture in existing:
        if fixture.home_id == home.pk and fixture.away_id == away.pk:
            return fixture
        sides = {fixture.home_id, fixture.away_id}
        for entry in (home, away):
            if entry.pk in sides:
                opponent = fixture.away if fixture.home_id == entry.pk else fixture.home
                meeting = f"plays {opponent.coach.name}" if opponent else "has a bye"
                raise BadRow(
                    row.line,
                    f"{entry.coach.name} already {meeting} in round {rnd.number} of {rnd.season.name} "
                    f"({fixture}), so cannot play {row.away if entry is home else row.home}",
                )
    fixture = Fixture(round=rnd, home=home, away=away, date=row.date or rnd.date,
                      stage=Fixture.stage_between(home, away, Fixture.Stage.REGULAR))  # DB-5a
    existing.append(fixture)
    summary.fixtures += 1
    return fixture


def _withdrawn_fixture(row: ImportRow, rnd: Round, home: Entry, away: Entry, existing: list[Fixture]) -> Fixture:
    """LG-2: an entrant who withdrew keeps the results approved before, and nothing
    is imported for them afterwards: a line naming one is refused unless it is
    about such a match (whose result ``_result`` then compares), so no removed
    fixture comes back and no result of theirs counts again."""
    for fixture in existing:
        if fixture.home_id == home.pk and fixture.away_id == away.pk:
            result = fixture.result_or_none
            if result is not None and result.is_approved:
                return fixture
    name = row.home if home.withdrawn_at is not None else row.away
    raise BadRow(
        row.line,
        f"{name} withdrew from {rnd.season.name}: their matches without an approved result are not played, and "
        "nothing can be reported or imported for them (LG-2)",
    )


def _result(row: ImportRow, fixture: Fixture, *, fresh: bool, rules: GameRules, source: str,
            summary: ImportSummary) -> bulk_results.BulkResult | None:
    """What the row asks of its fixture's result: None when the approved result
    already agrees, else a ``BulkResult`` (a new result, or the coaches' report
    approved); a different stored result refuses the line."""
    stored = None if fresh else fixture.result_or_none
    verdict = verdict_for(row, rules=rules)
    if stored is not None:
        if rules.verdict_of(stored) != verdict:
            kind = "abandoned at" if stored.is_abandoned else "result"
            said = _score_text(verdict.home_score, verdict.away_score, rules.summary(verdict))
            raise BadRow(
                row.line,
                f"{row.home} v {row.away} in round {row.round} already has a different {kind} "
                f"{_score_text(stored.home_score, stored.away_score, stored.summary)} "
                f"({stored.get_status_display().lower()}); "
                f"the file says {row.status} {said}. Correct it on the site instead",
            )
        if stored.is_approved:
            summary.unchanged += 1
            return None
        # The coaches' own report agrees with the organiser's file: approve it (the
        # file is the reason when the opponent has not confirmed it, GB-8).
        summary.results_approved += 1
        return bulk_results.BulkResult(
            fixture=fixture, stored=stored, reason=f"the organiser's file {source}, line {row.line}, gives the same result",
        )
    summary.results_recorded += 1
    return bulk_results.BulkResult(
        fixture=fixture, verdict=verdict, abandoned=row.abandoned, reason=f"Imported from {source}, line {row.line}",
    )


def _score_text(home: int | None, away: int | None, summary: str) -> str:
    """"12-8" where the game keeps a score per side, else the game's own summary."""
    return f"{home}-{away}" if home is not None else summary


def call_service(line: int, service, *args, **kwargs):
    """A service's refusal as the line's (``BadRow``), or the whole import's when
    ``by`` may not do it (``ImportRefused``)."""
    try:
        return service(*args, **kwargs)
    except ValidationError as error:
        raise BadRow(line, " ".join(error.messages)) from None
    except PermissionDenied as error:
        raise ImportRefused(str(error)) from None


def _call(row: ImportRow, service, *args, **kwargs):
    return call_service(row.line, service, *args, **kwargs)

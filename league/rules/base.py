"""The interface every game system implements (STYLE: one engine, three games).

A game is one ``GameRules`` subclass, bound to a league's settings. It tells the
engine:

- its settings model (per-league options with the rulebook's defaults);
- how a result is reported (its form), validated (``validate`` returns a
  ``Verdict``: the outcome, each side's score in the game's unit where it has
  one, and the game's own facts) and stored (``save_details`` writes the game's
  detail model);
- what a standings row sums (``side_stats``), League Points (``league_points``),
  the ordered tiebreak keys and the columns of its table, CSV and JSON.

Everything here works on plain values; the engine feeds it from the ORM.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from django import forms
from django.urls import reverse

from league.text import words

HOME_WIN = "home"
AWAY_WIN = "away"
DRAW = "draw"
ABANDONED = "abandoned"  # abandoned or unplayed: a loss for both (GB-6, DB-5a)
OUTCOMES = (HOME_WIN, AWAY_WIN, DRAW, ABANDONED)

SIDES = ("home", "away")

# What the engine's shared pages speak of that a game's rules may decide, each cited
# by the game's own rule id (``GameRules.cites``): how many sides a season needs, the
# round robin, the days between rounds, divisions, friendlies, and the organiser
# accepting a result the rules or the opponent have not.
TOPICS = ("entrants", "fixtures", "cadence", "divisions", "friendlies", "override")


def other_side(side: str) -> str:
    return "away" if side == "home" else "home"


@dataclass(frozen=True)
class Stat:
    """A figure a standings row sums, beyond played/won/drawn/lost/LP."""

    key: str  # attribute of the row's ``stats`` and the JSON/CSV key: "vp_for"
    label: str  # how a person names it in a tie explanation: "VP scored"
    short: str  # column heading: "VP+"
    signed: bool = False  # shown as +10 / -4


@dataclass(frozen=True)
class Verdict:
    """A validated result: what the engine stores and what the game keeps."""

    outcome: str
    home_score: int | None = None
    away_score: int | None = None
    conceded: bool = False  # the loser conceded (DB-5a)
    details: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PlayedResult:
    """An approved regular-season result as plain values."""

    round_number: int
    home_id: int
    away_id: int
    home_score: int | None
    away_score: int | None
    outcome: str
    conceded: bool = False
    details: Mapping[str, Any] = field(default_factory=dict)
    count: ClassVar[int] = 1  # one result (a ``terms.Summed`` stands for many)

    def score(self, side: str) -> int:
        value = self.home_score if side == "home" else self.away_score
        return value or 0


@dataclass(frozen=True)
class EntryInfo:
    """An entry of a season as plain values, as the standings rank it."""

    entry_id: int
    coach_id: int
    coach: str
    team: str = ""
    division: str | None = None
    withdrawn_on: datetime.date | None = None  # LG-2


def side_won(outcome: str, side: str) -> bool:
    return outcome == side


def side_lost(outcome: str, side: str) -> bool:
    """A loss for ``side``: the other side won, or the match was abandoned or
    never played (a loss for both: GB-6, DB-5a)."""
    if outcome == ABANDONED:
        return True
    return outcome in (HOME_WIN, AWAY_WIN) and outcome != side


class GameRules:
    """One game system's rules, bound to one league's settings."""

    system: ClassVar[str]
    name: ClassVar[str]
    app_label: ClassVar[str]  # the game's Django app: its models' permissions go to organisers
    entry_label: ClassVar[str] = "Team"  # what a coach fields: "Guild", "Team"
    rows_named_by_team: ClassVar[bool] = False  # standings list teams (DB) rather than coaches
    score_label: ClassVar[str | None] = None  # the unit of a side's score: "VP", "TD"
    allows_draws: ClassVar[bool] = False
    allows_override: ClassVar[bool] = False  # the organiser may accept a score the rules reject
    abandoned_label: ClassVar[str] = "Abandoned"
    stats: ClassVar[tuple[Stat, ...]] = ()
    tiebreakers: ClassVar[tuple[str, ...]] = ()  # stat keys after League Points, best first
    feed_columns: ClassVar[tuple[str, ...]] = ()  # standings.json / standings.csv keys after "division"
    settings_model: ClassVar[Any] = None  # the game's per-league settings model
    detail_values: ClassVar[Mapping[str, str]] = {}  # details key -> Result ``.values()`` lookup
    detail_models: ClassVar[tuple[Any, ...]] = ()  # the game's models with a ``result`` FK/OneToOne
    # ``manage.py import_results --game <system>``: the game's result columns (between
    # "away" and "status" in the header) and the statuses a line may have.
    import_columns: ClassVar[tuple[str, ...]] = ()
    import_statuses: ClassVar[tuple[str, ...]] = ("played", "abandoned")
    import_abandoned: ClassVar[tuple[str, ...]] = ("abandoned",)  # statuses recorded as abandoned/unplayed
    # The header as the game's files write it, when its own columns do not all sit
    # between "away" and "status" (Dungeon Bowl's dice and Gather Funds follow it).
    # Columns are matched by name, so this sets the order shown, not a requirement.
    import_header: ClassVar[tuple[str, ...] | None] = None
    import_sides: ClassVar[str] = "coaches"
    # ``import_results`` reads a file as this game when neither ``--game``, the league
    # it names nor its header tells (at most one game says so).
    import_fallback: ClassVar[bool] = False  # what a line's home and away name ("teams")
    friendlies: ClassVar[bool] = False  # the organiser adds friendlies from the site (DB-5a)
    min_entries: ClassVar[int] = 2  # GB-2: a round robin needs two sides; Dungeon Bowl asks 4 (DB-1)
    # The game opens a league's next season on a page of its own (Dungeon Bowl's, with
    # the re-drafted teams: DB-15), so the season checklist links there instead.
    own_next_season: ClassVar[bool] = False
    # The settings a new league is asked for on the site, fields of
    # ``settings_model`` shown with their rulebook defaults; the rest keep theirs.
    settings_fields: ClassVar[tuple[str, ...]] = ()
    # The fields of ``settings_model`` fixed once a result is recorded in the
    # league's current season, each with the rule id that says why (League Points,
    # tiebreakers, what an approved game already gave): the organiser's settings
    # page shows them read-only. Every other field stays the organiser's to change.
    settings_locked: ClassVar[Mapping[str, str]] = {}
    # The game's own rule id for each thing the engine's shared pages, forms and
    # messages speak of (``TOPICS``), so a page cites its league's game and no other;
    # a topic the game's rules say nothing of is cited by none.
    cites: ClassVar[Mapping[str, str]] = {}

    def __init__(self, settings: Any = None):
        self.settings = settings

    @property
    def head_to_head(self) -> bool:
        """The league's house rule, for a game whose settings offer it (Dungeon
        Bowl's DB-5a, DreadBall's DR-4; Guild Ball keeps GB-9): among entrants level
        on League Points, League Points in their games against each other decide
        first, then the rulebook's order (league/standings/ranking.py)."""
        return bool(getattr(self.settings, "head_to_head_first", False))

    @classmethod
    def for_league(cls, league) -> GameRules:
        """Bound to the league's settings row, or the game's defaults when the league
        has none yet (a GET never writes)."""
        settings = None
        if cls.settings_model is not None:
            relation = league._meta.get_field(cls.settings_relation())
            if relation.is_cached(league):  # joined in by the query that loaded the league (league/locks.py)
                settings = relation.get_cached_value(league)
            elif league.pk:
                settings = cls.settings_model.objects.filter(league_id=league.pk).first()
            if settings is None:
                settings = cls.settings_model(league=league)
        return cls(settings)

    @classmethod
    def settings_relation(cls) -> str:
        """The name of the league's one-to-one relation to ``settings_model``: a
        query that loads leagues can join their settings in (``select_related``)."""
        return cls.settings_model._meta.get_field("league").remote_field.get_accessor_name()

    @classmethod
    def settings_form_class(cls) -> type[forms.ModelForm] | None:
        """The form for ``settings_fields`` on the new-league page, or None when the
        game asks for none. Bounds come from the model's fields and checks; the help
        texts say the rule in words, without the id they open with in the model."""
        if cls.settings_model is None or not cls.settings_fields:
            return None
        help_texts = {name: words.without_rule_id(cls.settings_model._meta.get_field(name).help_text)
                      for name in cls.settings_fields}
        return forms.modelform_factory(cls.settings_model, fields=cls.settings_fields, help_texts=help_texts)

    @classmethod
    def cite(cls, topic: str) -> str:
        """The game's rule id for ``topic`` (one of ``TOPICS``), or "" when it has
        none: the ``rule`` filter shows nothing for ""."""
        if topic not in TOPICS:
            raise ValueError(f"Not a topic a game cites: {topic}")
        return cls.cites.get(topic, "")

    @classmethod
    def cited(cls, topic: str, text: str) -> str:
        """``text``, a sentence, with the game's rule id for ``topic`` before its full
        stop when the game has one."""
        rule = cls.cite(topic)
        return f"{text.rstrip('.')} ({rule})." if rule else text

    def too_few_entries(self, count: int) -> str | None:
        """Why a season of ``count`` entries cannot start (get its fixtures, from the
        site, the admin, an import or the next season), or None when it can."""
        if count >= self.min_entries:
            return None
        return self.cited("entrants", "A season needs at least two coaches before fixtures can be generated.")

    # The season checklist (league/web/checklist.py) ------------------------------------

    @classmethod
    def divisions_wanted(cls, states: Sequence[Any]) -> dict[int, int]:
        """By season id: how many divisions each season asks for (DB-2), for the
        seasons of this game's leagues (``league.web.checklist.SeasonState``); a season
        left out asks for none. A fixed number of queries whatever their number."""
        return {}

    @classmethod
    def checklist(cls, states: Sequence[Any]) -> dict[int, list[Any]]:
        """By season id: what the organiser must still do in this game beyond the
        engine's items (``league.web.checklist.Item``: drafts to lock, teams to enter,
        play-offs to seed, teams to re-draft), for the seasons of this game's
        leagues. A fixed number of queries whatever their number. Nothing by default."""
        return {}

    @classmethod
    def data_pages(cls, league) -> list[tuple[str, str, str]]:
        """The game's pages where the organiser edits data of the league's own
        (DreadBall's published teams): (link words, address, what it holds), listed
        on the league's settings page. No query. None by default."""
        return []

    # Reporting -------------------------------------------------------------------

    def report_form_class(self) -> type[forms.Form]:
        """The form a coach reports with (and the organiser enters or corrects with,
        plus the engine's own fields)."""
        raise NotImplementedError

    def form_labels(self, form: forms.Form, fixture) -> None:
        """Put the coaches' or teams' names on the form's fields."""

    def initial_from(self, result) -> dict[str, Any]:
        """The form's initial values from a stored result, for a correction."""
        return {}

    def validate(self, facts: Mapping[str, Any], *, override: bool = False, abandoned: bool = False) -> Verdict:
        """Check a reported result; raise ValidationError with a message a coach of
        this game understands."""
        raise NotImplementedError

    def verdict_of(self, result) -> Verdict:
        """The verdict a stored result holds, to compare with a re-imported line (an
        unchanged result is left alone). Games with details add them."""
        return Verdict(result.outcome, result.home_score, result.away_score, result.conceded)

    def same_result(self, verdict: Verdict, result) -> bool:
        """Whether a coach's ``verdict`` says what the stored ``result`` says: the
        opponent's report that agrees with the first one confirms it (GB-8).
        A game whose form gives more than it stores compares what it would store."""
        return verdict == self.verdict_of(result)

    def report_help(self) -> str:
        """One line under the report form."""
        return ""

    def abandon_help(self) -> str:
        """The label of the organiser's "abandoned" box."""
        return f"{self.abandoned_label}: both sides record a loss"

    def abandon_fields(self) -> dict[str, forms.Field]:
        """What the organiser gives for a match that was not completed, beyond the
        reason (Guild Ball: the VP so far). Nothing by default."""
        return {}

    def save_details(self, result, verdict: Verdict) -> None:
        """Store the game's own facts of ``result`` (its detail model). Nothing by default."""

    def discard_report(self, result, *, by) -> None:
        """A coach's report that nobody has confirmed or approved is about to be
        changed (``save_details`` then writes the new one) or taken back (the result
        is then deleted, with every row keyed to it): remove what reporting wrote
        that neither removes, rows that name the result by cause rather than by key
        (Dungeon Bowl's typed dice). ``by`` is the reporting coach. Nothing by default."""

    def summary(self, verdict: Verdict) -> str:
        """The score as it stands between the two names on every page ("12 – 8"),
        written once when the result is stored so pages need no game details."""
        if verdict.home_score is None:
            return "–"
        return f"{verdict.home_score} – {verdict.away_score}"

    # Import ------------------------------------------------------------------------

    def parse_import_row(self, values: Mapping[str, str], *, status: str) -> dict[str, Any] | None:
        """One import line's ``import_columns`` (stripped strings) as the facts the
        report form would give (``validate``'s input), or None for a fixture with no
        result yet ("scheduled"). Pure; raise ValueError with the reason."""
        raise NotImplementedError

    def import_entries(self, *, season, names: Sequence[str], by) -> dict[str, tuple[Any, bool, bool]]:
        """For a game whose lines name teams (``import_sides = "teams"``): the season's
        entry each home or away name of an import file means, created when missing:
        {name: (entry, coach created, entry created)}; a ValidationError carries the
        name it refused as ``import_name``. Lines naming coaches (the default) are
        placed by the importer (``league.spreadsheets.writer.coach_entries``)."""
        raise NotImplementedError

    # Standings -------------------------------------------------------------------

    def terms(self) -> Mapping[str, Any] | None:
        """League Points ("lp") and every key of ``stats`` as ``league.rules.terms.Term``:
        one declaration that ``side_stats`` and ``league_points`` evaluate in Python
        and the standings sum in the database. None for a game that writes its own
        ``side_stats`` and ``league_points`` (its standings are then computed in
        Python)."""
        return None

    def side_terms(self) -> Mapping[str, Any] | None:
        """``terms()``, built once per rules object (they depend on its settings only)."""
        if "_side_terms" not in self.__dict__:
            self.__dict__["_side_terms"] = self.terms()
        return self.__dict__["_side_terms"]

    def side_stats(self, result: PlayedResult, side: str) -> dict[str, int]:
        """What ``result`` adds to ``side``'s row, for every key in ``stats``."""
        terms = self.side_terms()
        if terms is None:
            return {}
        return {stat.key: terms[stat.key].value(result, side) for stat in self.stats}

    def league_points(self, result: PlayedResult, side: str) -> int:
        terms = self.side_terms()
        if terms is None:
            raise NotImplementedError
        return terms["lp"].value(result, side)

    def row_url(self, league, row) -> str:
        """Where a standings row links: the coach's page in the league."""
        return reverse("league:coach_detail", args=[league.slug, row.coach_id])

    def row_figures(self, row) -> str:
        """A standings row's game figures in words, for the coach's page."""
        parts = []
        for stat in self.stats:
            value = row.stats[stat.key]
            parts.append(f"{value:+d} {stat.label}" if stat.signed else f"{value} {stat.label}")
        return ", ".join(parts)

    def standings_help(self) -> str:
        """One line under the table saying how it is ordered."""
        return ""

    # The game's own post-game sequence (Dungeon Bowl's winnings and injuries), called
    # inside the engine's transaction and told who acted (``by``: the user approving,
    # entering, correcting or reopening the result; None for the system's own jobs).
    # Layers on top of a game (The Big League) hook in through league.layers instead.

    def lock_sides(self, fixture) -> None:
        """Lock the game's own rows for the fixture's two sides (what
        ``result_approved`` and ``result_withdrawn`` change), in primary-key order
        through ``league.locks.rows_in_order``: step 3 of the one lock order
        (league/locks.py). Nothing by default."""

    def result_approved(self, result, *, by) -> None:
        """A result has just become approved by ``by``. Nothing to derive by default."""

    def results_approved(self, results, *, by) -> None:
        """An import by ``by`` approved ``results`` at once (the bulk path): derive
        what each would have, in order. By default ``result_approved`` for each."""
        for result in results:
            self.result_approved(result, by=by)

    def result_withdrawn(self, result, *, by) -> None:
        """An approved result is about to be corrected or reopened: undo what
        ``result_approved`` derived from it. Nothing by default."""

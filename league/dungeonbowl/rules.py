"""Dungeon Bowl result rules (RULES.md DB-4, DB-5, DB-5a, DB-9, DB-10, DB-13).

A game ends with its first touchdown (1-0), or at a time limit won by the team with
the ball closer to the opposition End Zone (0-0), or drawn on equal distances; a
conceded game is a 1-0 win for the other team whose casualties still count; an
unplayed fixture (the organiser's "Unplayed") is a loss for both with nothing
earned. Standings rows are teams: League points, touchdowns, SPP casualties (DB-5a).
The post-game sequence on approval lives in ``league.dungeonbowl.postgame.services``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.urls import reverse
from django.utils.text import slugify

from league.dungeonbowl import checklist
from league.dungeonbowl.playoffs import services as playoffs
from league.dungeonbowl.postgame import rules as postgame_rules
from league.dungeonbowl.teams import rules as team_rules, services
from league.dungeonbowl.postgame.forms import DungeonBowlResultForm, line_initial
from league.dungeonbowl.models import (
    MAX_PER_PLAYER, MAX_TD, DungeonBowlSettings, Ending, GameReport, PlayerEffect, TeamSeason,
)
from league.dungeonbowl.models import Team
from league.dungeonbowl.models.teams import MAX_GP
from league.dungeonbowl.playoffs.services import NO_DRAW, NO_UNPLAYED, lock_playoff_sides
from league.dungeonbowl.postgame.services import (
    apply_postgame, discard_reported_dice, lock_teams, log_reported_dice, reverse_postgame,
)
from league.dungeonbowl.postgame.reports import college_wizards, fixture_players, kept_line, save_report
from league.dungeonbowl.units import gp
from league.rules.base import ABANDONED, AWAY_WIN, DRAW, HOME_WIN, SIDES, GameRules, PlayedResult, Stat, Verdict
from league.rules.importing import parse_whole_number
from league.text.words import possessive

COUNTS = ("touchdowns", "completions", "deflections", "interceptions", "casualties")
INJURIES = {"", "badly_hurt", "seriously_hurt", "serious_injury", "lasting_injury", "dead"}
CHARACTERISTICS = {"ma", "st", "ag", "pa", "av"}


def _whole(value: Any, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValidationError(f"{what} is a whole number from {low} to {high}.")
    return value


MIN_DRAFT_BUDGET = 100_000  # the settings' database check (dbsettings_draft_budget_in_range)


class DungeonBowlRules(GameRules):
    system = "dungeonbowl"
    name = "Dungeon Bowl"
    app_label = "dungeonbowl"
    entry_label = "Team"
    rows_named_by_team = True
    score_label = "TD"
    allows_draws = True
    allows_override = False
    abandoned_label = "Unplayed"
    stats = (
        Stat("td_for", "touchdowns scored", "TD+"),
        Stat("td_against", "touchdowns conceded", "TD−"),
        Stat("cas_for", "SPP casualties caused", "Cas"),
    )
    tiebreakers = ("td_for", "cas_for")  # DB-5a
    feed_columns = ("position", "tied", "team", "coach", "played", "won", "drawn", "lost", "lp", "td_for", "td_against", "cas_for")
    settings_model = DungeonBowlSettings
    settings_fields = ("draft_budget", "casualty_bonus", "playoffs", "redraft_cap")  # DB-6, DB-4, DB-5b, DB-15
    # Once a game is recorded: every team drafted on one budget (DB-6), League
    # points the same for every match (DB-4), SPP the same for every game (DB-11).
    # The play-off format (DB-5b) is read when the play-offs start and the cap
    # (DB-15) at the re-draft, so both stay open.
    settings_locked = {"draft_budget": "DB-6", "casualty_bonus": "DB-4", "head_to_head_first": "DB-5a",
                       **{f"spp_{name}": "DB-11" for name in DungeonBowlSettings.SPP_FIELDS}}

    @classmethod
    def data_pages(cls, league) -> list[tuple[str, str, str]]:
        return [("Colleges of Magic", reverse("dungeonbowl:league_colleges", args=[league.slug]),
                 "The colleges teams draft from, with their rosters: every league's, and those you add for "
                 "this league."),
                ("Skills", reverse("dungeonbowl:league_skills", args=[league.slug]),
                 "The skills players learn: every league's, and those you add for this league.")]
    # GameReport's casualty totals feed the standings; PlayerEffect rows change with approvals.
    detail_models = (GameReport, PlayerEffect)
    detail_values = {"home_cas": "dungeonbowl_report__home_cas", "away_cas": "dungeonbowl_report__away_cas"}

    # manage.py import_results: team totals, no per-player lines (see parse_import_row).
    import_columns = ("home_td", "away_td", "home_cas", "away_cas", "dice", "home_gather", "away_gather")
    import_header = ("league", "round", "home", "away", "home_td", "away_td", "home_cas", "away_cas", "status",
                     "dice", "home_gather", "away_gather")
    import_statuses = ("played", "unplayed", "conceded")
    import_abandoned = ("unplayed",)
    import_sides = "teams"
    min_entries = team_rules.MIN_TEAMS  # DB-1
    friendlies = True  # DB-5a: cross-division friendlies, added by the organiser
    own_next_season = True  # DB-15: the next season opens with the re-drafted teams, on its own page
    # DB-5a: teams play every other team of their division, once or twice.
    cites = {"entrants": "DB-1", "fixtures": "DB-5a", "divisions": "DB-2", "friendlies": "DB-5a"}

    @classmethod
    def divisions_wanted(cls, states):
        return checklist.divisions_wanted(states)

    @classmethod
    def checklist(cls, states):
        return checklist.checklist(states)

    @classmethod
    def settings_form_class(cls):
        """DB-6: the budget between 100,000 and MAX_GP gp, said on the form (the
        database checks the same)."""
        form = super().settings_form_class()
        budget = form.base_fields["draft_budget"]
        budget.validators += [MinValueValidator(MIN_DRAFT_BUDGET), MaxValueValidator(MAX_GP)]
        budget.widget.attrs.update(min=MIN_DRAFT_BUDGET, max=MAX_GP, step=10_000)
        return form

    def too_few_entries(self, count: int) -> str | None:
        """DB-1: a Dungeon Bowl season starts with at least 4 teams, on every path
        (fixtures from the site or the admin, an import, the next season)."""
        if count >= self.min_entries:
            return None
        teams = f"{count} team" + ("s" if count != 1 else "")
        return f"A Dungeon Bowl league has at least {self.min_entries} teams; this season has {teams}."

    # Reporting -------------------------------------------------------------------

    def report_form_class(self):
        return DungeonBowlResultForm

    def form_labels(self, form, fixture) -> None:
        """Name the teams on the fields and add a line per player who can play:
        on the draft list and not missing this game, plus anyone already in this
        fixture's report (a correction)."""
        names = {"home": fixture.home.team or str(fixture.home), "away": fixture.away.team if fixture.away_id else ""}
        for side in SIDES:
            form.fields[f"{side}_score"].label = f"{names[side]}: touchdowns"
            form.fields[f"{side}_gather"].label = f"{names[side]}: players who used Gather Funds"
            form.fields[f"{side}_journeymen"].label = f"{names[side]}: Journeymen who played"
        for side, (wizard, cost) in college_wizards(fixture).items():
            form.fields[f"{side}_wizard"].label = (
                f"{names[side]}: hired its College Wizard, the {wizard} ({gp(cost)} from the Treasury, one a game)"
            )
        labels = dict(Ending.choices)
        form.fields["ending"].choices = [
            (value, labels[value].replace("the home team", names["home"]).replace("the away team", names["away"]))
            for value, _ in form.fields["ending"].choices
        ]
        if "abandoned" in form.fields:
            form.fields["abandoned"].label = self.abandon_help()
        if fixture.stage == "playoff":
            # DB-5b: a play-off needs a winner (league.dungeonbowl.playoffs.services, Decision).
            form.playoff = True
            form.fields["ending"].choices = [c for c in form.fields["ending"].choices if c[0] != Ending.DRAW]
            form.fields["ending"].error_messages["invalid_choice"] = NO_DRAW
        form.add_players(fixture_players(fixture), names)

    def initial_from(self, result) -> dict[str, Any]:
        report = getattr(result, "dungeonbowl_report", None)
        initial: dict[str, Any] = {"home_score": result.home_score, "away_score": result.away_score}
        if report is None:
            return initial
        initial.update(
            ending=report.ending, home_gather=report.home_gather, away_gather=report.away_gather,
            home_journeymen=report.home_journeymen, away_journeymen=report.away_journeymen,
            home_wizard=report.home_wizard, away_wizard=report.away_wizard,
            dice=" ".join(map(str, report.dice or [])),
        )
        if report.ending in (Ending.HOME_CONCEDED, Ending.AWAY_CONCEDED):
            initial.update(home_score=0, away_score=0)
        initial.update(line_initial(report.players.order_by("side", "player__number", "pk")))
        return initial

    def report_help(self) -> str:
        return (
            "A touchdown ends the game (1–0); at the time limit the team with the ball closer to the "
            "opposition End Zone wins 0–0, equal distances are a draw. Add a line for each player "
            "who scored, passed, deflected, intercepted, caused an SPP casualty, was MVP or was injured; "
            "the others did nothing to record."
        )

    def abandon_help(self) -> str:
        return "Unplayed by the deadline (a loss for both, 0 touchdowns, no winnings, no SPP)"

    def validate(self, facts: Mapping[str, Any], *, override: bool = False, abandoned: bool = False) -> Verdict:
        if facts.get("playoff"):  # DB-5b: a play-off needs a winner
            if abandoned:
                raise ValidationError(NO_UNPLAYED)
            if facts.get("ending") == Ending.DRAW:
                raise ValidationError(NO_DRAW)
        if abandoned:
            return Verdict(ABANDONED, 0, 0, details={"ending": Ending.UNPLAYED})
        names = {"home": "the home team", "away": "the away team", **(facts.get("names") or {})}
        home = _whole(facts.get("home_score"), 0, MAX_TD, "Touchdowns")
        away = _whole(facts.get("away_score"), 0, MAX_TD, "Touchdowns")
        ending = facts.get("ending")
        if ending not in Ending.values or ending == Ending.UNPLAYED:
            raise ValidationError("Say how the game ended: a touchdown, the time limit, a draw or a concession.")
        outcome, conceded, (home, away) = self._outcome(ending, home, away, names)
        players = facts.get("players") or {}
        lines = {side: [self._line(line, names[side]) for line in players.get(side, [])] for side in SIDES}
        for side in SIDES:
            if not lines[side]:
                continue
            scored = sum(line["touchdowns"] for line in lines[side])
            expected = 0 if conceded else (home if side == "home" else away)
            if scored != expected:
                raise ValidationError(
                    f"{names[side]} scored {expected} touchdown{'s' * (expected != 1)} but its players' "
                    f"touchdowns add up to {scored}."
                )
            mvps = sum(1 for line in lines[side] if line["mvp"])
            if mvps > 1:
                raise ValidationError(f"{names[side]} has {mvps} MVPs; a team names one MVP per game.")
        gather = {side: _whole(facts.get(f"{side}_gather", 0), 0, postgame_rules.MAX_GATHERERS, "Gather Funds players")
                  for side in SIDES}
        journeymen = {side: _whole(facts.get(f"{side}_journeymen", 0), 0, team_rules.MAX_PLAYERS, "Journeymen")
                      for side in SIDES}
        # DB-6: a team hires its College Wizard for this game or not (one at most).
        wizard = {side: bool(facts.get(f"{side}_wizard")) for side in SIDES}
        dice = facts.get("dice") or None
        if dice is not None:
            if len(dice) != 2 or any(isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6 for d in dice):
                raise ValidationError('Winnings dice are two numbers from 1 to 6, such as "5 3".')
            dice = list(dice)
        cas = {}
        for side in SIDES:
            from_lines = sum(line["casualties"] for line in lines[side])
            given = facts.get(f"{side}_cas")
            if given is None or lines[side]:
                if given is not None and given != from_lines:
                    raise ValidationError(
                        f"{possessive(names[side])} casualties ({given}) differ from its players' casualties ({from_lines})."
                    )
                cas[side] = from_lines
            else:
                # A team total without per-player lines (an imported result): it counts for the
                # standings and the casualty bonus; no player earns SPP for it.
                cas[side] = _whole(given, 0, team_rules.MAX_PLAYERS * MAX_PER_PLAYER, "Casualties")
        details = {
            "ending": ending,
            "players": lines,
            "cas": cas,
            "gather": gather,
            "journeymen": journeymen,
            "wizard": wizard,
            "dice": dice,
        }
        return Verdict(outcome, home, away, conceded, details)

    @staticmethod
    def _outcome(ending: str, home: int, away: int, names: Mapping[str, str]) -> tuple[str, bool, tuple[int, int]]:
        """DB-5/DB-5a: the outcome, whether the loser conceded, and the touchdowns to record."""
        if ending == Ending.TOUCHDOWN:
            if sorted((home, away)) != [0, 1]:
                raise ValidationError(
                    f"A game won by a touchdown ends with that touchdown: 1–0, not {home}–{away}."
                )
            return (HOME_WIN if home else AWAY_WIN), False, (home, away)
        if ending in (Ending.HOME_CONCEDED, Ending.AWAY_CONCEDED):
            winner = "away" if ending == Ending.HOME_CONCEDED else "home"
            recorded = (1, 0) if winner == "home" else (0, 1)
            if (home, away) not in ((0, 0), recorded):
                raise ValidationError(
                    "A touchdown ends the game, so a concession comes before any: enter 0–0 "
                    f"(it is recorded as a 1–0 win for {names[winner]})."
                )
            return (HOME_WIN if winner == "home" else AWAY_WIN), True, recorded
        if (home, away) != (0, 0):
            raise ValidationError(
                "A game that reached the time limit had no touchdown (a touchdown ends it): enter 0–0, "
                "or choose 'a touchdown'."
            )
        if ending == Ending.DRAW:
            return DRAW, False, (0, 0)
        return (HOME_WIN if ending == Ending.HOME_CLOSER else AWAY_WIN), False, (0, 0)

    @staticmethod
    def _line(line: Mapping[str, Any], team: str) -> dict[str, Any]:
        who = f"{team}, player {line.get('player')}"
        out: dict[str, Any] = {"player": line.get("player")}
        if isinstance(out["player"], bool) or not isinstance(out["player"], int):
            raise ValidationError(f"{team}: a player line names no player.")
        for name in COUNTS:
            out[name] = _whole(line.get(name, 0) or 0, 0, MAX_PER_PLAYER, f"{who}: {name}")
        out["mvp"] = bool(line.get("mvp"))
        injury, lasting = line.get("injury") or "", line.get("lasting") or ""
        if injury not in INJURIES:
            raise ValidationError(f"{who}: unknown injury {injury!r}.")
        if injury == "lasting_injury" and lasting not in CHARACTERISTICS:
            raise ValidationError(f"{who}: a Lasting Injury says which characteristic was lost (MA, ST, AG, PA or AV).")
        if lasting and injury != "lasting_injury":
            raise ValidationError(f"{who}: only a Lasting Injury loses a characteristic.")
        out["injury"], out["lasting"] = injury, lasting
        return out

    # Import ------------------------------------------------------------------------

    def parse_import_row(self, values: Mapping[str, str], *, status: str) -> dict[str, Any]:
        """An import line as the report form's facts. ``played``: 1-0 or 0-1 is a game won
        by its touchdown, 0-0 a draw (a time-limit win on distance cannot be told from
        a draw in the file: enter it on the site). ``conceded``: the team with 0
        touchdowns conceded. ``unplayed``: nothing else is kept (DB-5a). ``dice``: the
        winner's 2D6, or on a draw the home then the away D6; empty, the app rolls."""
        if status == "unplayed":
            for column in ("home_td", "away_td", "home_cas", "away_cas", "dice", "home_gather", "away_gather"):
                if values.get(column, "") not in ("", "0"):
                    raise ValueError(f"an unplayed fixture records nothing: leave {column} empty")
            return {}
        home, away = parse_whole_number(values, "home_td"), parse_whole_number(values, "away_td")
        if home is None or away is None:
            raise ValueError(f"a {status} game needs home_td and away_td")
        if status == "conceded":
            if sorted((home, away)) != [0, 1]:
                raise ValueError(f"a conceded game is recorded 1-0 to the other team (the one with 0 conceded), "
                                 f"not {home}-{away}")
            ending = Ending.HOME_CONCEDED if home == 0 else Ending.AWAY_CONCEDED
        else:
            ending = Ending.DRAW if (home, away) == (0, 0) else Ending.TOUCHDOWN
        text = values.get("dice", "")
        dice = None
        if text:
            try:
                dice = [int(part) for part in text.replace(",", " ").split()]
            except ValueError:
                raise ValueError(f'dice are two numbers from 1 to 6 such as "5 3", not {text!r}') from None
        return {
            "home_score": home, "away_score": away, "ending": ending,
            "home_cas": parse_whole_number(values, "home_cas") or 0,
            "away_cas": parse_whole_number(values, "away_cas") or 0,
            "home_gather": parse_whole_number(values, "home_gather") or 0,
            "away_gather": parse_whole_number(values, "away_gather") or 0,
            "home_journeymen": 0, "away_journeymen": 0, "dice": dice,
        }

    def _import_entry(self, *, season, name: str, by) -> tuple[Any, bool, bool]:
        """A line names teams: the team's entry in the season, entering a team of the
        league that has none yet (its coach's one entry). Teams come from
        ``manage.py import_teams`` or the draft form."""
        team = Team.objects.filter(league=season.league, slug=slugify(name)).first()
        if team is None:
            raise ValidationError(f"{season.league} has no team called {name}; import the teams first "
                                  f"(manage.py import_teams)")
        found = TeamSeason.objects.filter(team=team, entry__season=season).select_related("entry").first()
        if found is not None:
            return found.entry, False, False
        return services.enter_team(team=team, season=season, by=by), False, True

    def import_entries(self, *, season, names, by) -> dict[str, tuple[Any, bool, bool]]:
        """Lines name teams: each team's entry, one name at a time."""
        placed = {}
        for name in names:
            try:
                placed[name] = self._import_entry(season=season, name=name, by=by)
            except ValidationError as error:
                error.import_name = name  # the importer reports the line naming it
                raise
        return placed

    def verdict_of(self, result) -> Verdict:
        """What an imported line would say about ``result``: touchdowns, how it ended,
        casualty totals, Gather Funds and the table's dice (player lines too, when the
        result was reported on the site with them)."""
        report = getattr(result, "dungeonbowl_report", None)
        if result.outcome == ABANDONED:
            return Verdict(ABANDONED, 0, 0, details={"ending": Ending.UNPLAYED})
        if report is None:
            return Verdict(result.outcome, result.home_score, result.away_score, result.conceded)
        lines = {side: [] for side in SIDES}
        for line in report.players.all():
            lines[line.side].append({"player": line.player_id, **{n: getattr(line, n) for n in COUNTS},
                                     "mvp": line.mvp, "injury": line.injury, "lasting": line.lasting})
        return Verdict(result.outcome, result.home_score, result.away_score, result.conceded, {
            "ending": report.ending,
            "players": lines,
            "cas": {"home": report.home_cas, "away": report.away_cas},
            "gather": {"home": report.home_gather, "away": report.away_gather},
            "journeymen": {"home": report.home_journeymen, "away": report.away_journeymen},
            "wizard": {"home": report.home_wizard, "away": report.away_wizard},
            "dice": report.dice,
        })

    def save_details(self, result, verdict: Verdict) -> None:
        log_reported_dice(result, save_report(result, verdict))  # DB-16: a coach's typed dice are theirs

    def discard_report(self, result, *, by) -> None:
        """The game report and its player lines are rewritten by ``save_details`` or
        deleted with the result; the typed dice name it by cause only."""
        discard_reported_dice(result)

    def same_result(self, verdict: Verdict, result) -> bool:
        """The form lists every player; only the lines with something in them are
        stored (``kept_line``), so the untouched ones are left out of the comparison."""
        players = verdict.details.get("players")
        if players:
            kept = {side: [line for line in lines if kept_line(line)] for side, lines in players.items()}
            verdict = dataclasses.replace(verdict, details={**verdict.details, "players": kept})
        return verdict == self.verdict_of(result)

    def summary(self, verdict: Verdict) -> str:
        if verdict.outcome == ABANDONED:
            return "Unplayed"
        score = f"{verdict.home_score} – {verdict.away_score}"
        ending = verdict.details.get("ending")
        if verdict.conceded:
            return f"{score}, conceded"
        if ending in (Ending.HOME_CLOSER, Ending.AWAY_CLOSER):
            return f"{score}, on distance"
        if ending == Ending.DRAW:
            return f"{score}, draw"
        return score

    # Standings -------------------------------------------------------------------

    def side_stats(self, result: PlayedResult, side: str) -> dict[str, int]:
        """DB-5a: touchdowns and SPP casualties; an unplayed fixture adds nothing."""
        if result.outcome == ABANDONED:
            return {}
        other = "away" if side == "home" else "home"
        return {
            "td_for": result.score(side),
            "td_against": result.score(other),
            "cas_for": result.details.get(f"{side}_cas") or 0,
        }

    def league_points(self, result: PlayedResult, side: str) -> int:
        """DB-4: win 3, draw 1, loss 0 (a concession and an unplayed fixture are
        losses), +1 with the league's casualty bonus for 3+ SPP casualties."""
        if result.outcome == ABANDONED:
            return 0
        outcome = "draw" if result.outcome == DRAW else ("win" if result.outcome == side else "loss")
        bonus = bool(self.settings is not None and self.settings.casualty_bonus)
        return postgame_rules.league_points(outcome, spp_casualties=result.details.get(f"{side}_cas") or 0,
                                            casualty_bonus=bonus)

    def row_url(self, league, row) -> str:
        return reverse("dungeonbowl:team_detail", args=[league.slug, slugify(row.team)])

    def row_figures(self, row) -> str:
        s = row.stats
        return f"{s['td_for']} touchdowns scored, {s['td_against']} conceded, {s['cas_for']} SPP casualties caused"

    def standings_help(self) -> str:
        return (
            "Order: League points, then touchdowns scored, then SPP casualties caused. "
            "Teams level on all three share the position."
        )

    # The post-game sequence (DB-9 to DB-13) --------------------------------------

    def lock_sides(self, fixture) -> None:
        """The two teams, whose Treasury and players the post-game sequence changes
        (league/locks.py, step 3)."""
        if fixture.stage == "playoff":
            lock_playoff_sides(fixture)  # prizes and the next games reach beyond the two teams
        else:
            lock_teams(fixture)

    def result_approved(self, result, *, by) -> None:
        """DB-9 to DB-13, then what a play-off result sets going (DB-5b, DB-14)."""
        playoffs.check_winner(result)
        apply_postgame(result, by=by)
        playoffs.after_approval(result, by=by)

    def result_withdrawn(self, result, *, by) -> None:
        playoffs.before_withdrawal(result, by=by)
        reverse_postgame(result, by=by)

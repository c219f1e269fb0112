"""The Dungeon Bowl result form (DB-5, DB-6, DB-9, DB-10, DB-13): touchdowns, how the
game ended, the winnings dice if rolled at the table, Gather Funds, Journeymen, the
College Wizards hired for the game, and per team a line for each player who did
something (added one at a time, not a grid of zeros). The line slots are added per fixture by
``DungeonBowlRules.form_labels`` (the engine builds the form before it knows the
fixture); ``clean`` gathers them into ``players`` for the rules' ``validate``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django import forms

from league.dungeonbowl.postgame import rules as postgame_rules
from league.dungeonbowl.teams import rules as team_rules
from league.dungeonbowl.models import MAX_PER_PLAYER, MAX_TD, Characteristic, Ending, Injury
from league.text.plaintext import PlainTextField

PLAYER_COUNTS = (
    ("touchdowns", "TD"),
    ("completions", "Completions"),
    ("deflections", "Deflections"),
    ("interceptions", "Interceptions"),
    ("casualties", "Casualties (SPP)"),
)
PLAYER_FIELDS = (*(name for name, _ in PLAYER_COUNTS), "mvp", "injury", "lasting")
OPEN_LINES = 2  # empty player lines shown open without the script; the rest wait under "More player lines"


def _count(label: str, maximum: int, what: str) -> forms.IntegerField:
    return forms.IntegerField(
        label=label, min_value=0, max_value=maximum, initial=0,
        error_messages={
            "invalid": f"Enter a whole number of {what}.",
            "min_value": f"{what.capitalize()} cannot be negative.",
            "max_value": f"More than {maximum} {what}? Check the number.",
            "required": f"Enter the number of {what} (0 if none).",
        },
        # data-stepper: static/js/forms.js puts a − and a + button around the box.
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": maximum, "class": "narrow", "data-stepper": ""}),
    )


_PLAYER_FIELD = re.compile(r"^(home|away)_line\d+_")
_DICE = re.compile(r"^\s*([1-6])\s*[ ,/-]?\s*([1-6])\s*$")


def parse_dice(text: str) -> list[int] | None:
    """"5 3", "5,3" or "53" -> [5, 3]; empty -> None (the app rolls). DB-10."""
    if not text.strip():
        return None
    match = _DICE.match(text)
    if match is None:
        raise forms.ValidationError('Winnings dice are two numbers from 1 to 6, such as "5 3".')
    return [int(match.group(1)), int(match.group(2))]


@dataclass(frozen=True)
class PlayerLine:
    """One "add a player line" of the form: the player, then only what they did."""

    player: forms.BoundField
    counts: list[forms.BoundField]
    mvp: forms.BoundField
    injury: forms.BoundField
    lasting: forms.BoundField

    @property
    def filled(self) -> bool:
        """Something is on this line (a player chosen, a number, an error): it shows."""
        fields = [self.player, *self.counts, self.mvp, self.injury, self.lasting]
        return any(f.errors for f in fields) or any(f.value() not in (None, "", 0, "0", False) for f in fields)


@dataclass(frozen=True)
class SideLines:
    title: str
    lines: list[PlayerLine]

    @property
    def shown(self) -> list[PlayerLine]:
        """The lines in use, then OPEN_LINES empty ones (what a coach sees without the script)."""
        filled = [line for line in self.lines if line.filled]
        return filled + [line for line in self.lines if not line.filled][:OPEN_LINES]

    @property
    def more(self) -> list[PlayerLine]:
        shown = {id(line) for line in self.shown}
        return [line for line in self.lines if id(line) not in shown]


def line_initial(lines) -> dict[str, Any]:
    """A report's player lines (``PlayerGame`` rows) as the form's initial values, one
    line per player in the order given (a correction shows what was recorded)."""
    initial: dict[str, Any] = {}
    numbers = {"home": 0, "away": 0}
    for line in lines:
        numbers[line.side] += 1
        prefix = f"{line.side}_line{numbers[line.side]}_"
        initial[f"{prefix}player"] = line.player_id
        for name in PLAYER_FIELDS:
            initial[prefix + name] = getattr(line, name)
    return initial


class DungeonBowlResultForm(forms.Form):
    """The game's facts first (DB-5: touchdowns and how it ended, DB-10: the dice), then
    per side the lines of the players who did something. There is a line
    slot per player who can play, so nothing a coach can report is out of reach; the
    form still hands ``validate`` a line for every such player (zeros for those not
    named), so the rules check the same sums as ever (DB-9, DB-11, DB-13)."""

    template_name_div = "dungeonbowl/_report_form.html"

    home_score = _count("Home touchdowns", MAX_TD, "touchdowns")
    away_score = _count("Away touchdowns", MAX_TD, "touchdowns")
    ending = forms.ChoiceField(
        label="How the game ended",
        choices=[(value, label) for value, label in Ending.choices if value != Ending.UNPLAYED],
        error_messages={"required": "Say how the game ended.", "invalid_choice": "Choose how the game ended."},
    )
    dice = PlainTextField(
        label="Winnings dice rolled at the table (optional)", required=False, max_length=10,
        help_text="The winner's 2D6, e.g. 5 3; on a draw the home team's D6 then the away team's. Empty: the app rolls.",
    )
    home_gather = _count("Home players who used Gather Funds", postgame_rules.MAX_GATHERERS, "players")
    away_gather = _count("Away players who used Gather Funds", postgame_rules.MAX_GATHERERS, "players")
    home_journeymen = _count("Home Journeymen who played", team_rules.MAX_PLAYERS, "Journeymen")
    away_journeymen = _count("Away Journeymen who played", team_rules.MAX_PLAYERS, "Journeymen")
    home_wizard = forms.BooleanField(label="Home team hired its College Wizard", required=False)
    away_wizard = forms.BooleanField(label="Away team hired its College Wizard", required=False)

    player_sides: dict[str, list[tuple[int, str]]]  # side -> [(player id, label)], set by add_players
    team_names: dict[str, str]

    def add_players(self, players: dict[str, list[tuple[int, str]]], names: dict[str, str]) -> None:
        """Per side, as many line slots as players who can play (at most a draft list,
        DB-6): ``home_line1_player``, ``home_line1_touchdowns`` ... ``home_line1_lasting``."""
        self.player_sides = players
        self.team_names = names
        for side in ("home", "away"):
            choices = [("", "Choose a player"), *((str(pid), label) for pid, label in players.get(side, []))]
            for n in range(1, len(players.get(side, [])) + 1):
                prefix = f"{side}_line{n}_"
                self.fields[f"{prefix}player"] = forms.TypedChoiceField(
                    label="Player", choices=choices, coerce=int, empty_value=None, required=False,
                    error_messages={"invalid_choice": "Choose one of this team's players."},
                )
                for name, short in PLAYER_COUNTS:
                    self.fields[prefix + name] = _count(short, MAX_PER_PLAYER, name)
                    self.fields[prefix + name].required = False
                    self.fields[prefix + name].initial = None  # an empty line, not a row of zeros
                self.fields[f"{prefix}mvp"] = forms.BooleanField(label="MVP", required=False)
                self.fields[f"{prefix}injury"] = forms.ChoiceField(
                    label="Injury suffered", choices=Injury.choices, required=False
                )
                self.fields[f"{prefix}lasting"] = forms.ChoiceField(
                    label="Characteristic lost (Lasting Injury)", choices=Characteristic.choices, required=False
                )

    def side_lines(self) -> list[SideLines]:
        """For the template: per side, its title and its line slots."""
        names = getattr(self, "team_names", {})
        sides = getattr(self, "player_sides", {})
        out = []
        for side in ("home", "away"):
            lines = []
            for n in range(1, len(sides.get(side, [])) + 1):
                prefix = f"{side}_line{n}_"
                lines.append(PlayerLine(
                    player=self[f"{prefix}player"], counts=[self[prefix + name] for name, _ in PLAYER_COUNTS],
                    mvp=self[f"{prefix}mvp"], injury=self[f"{prefix}injury"], lasting=self[f"{prefix}lasting"],
                ))
            out.append(SideLines(names.get(side) or side.title(), lines))
        return out

    def other_fields(self) -> list[forms.BoundField]:
        """Every field that is not a player's line (the engine's organiser note too,
        not the special cases it folds after the form)."""
        folded = self.folded_fields() if hasattr(self, "folded_fields") else set()
        return [self[name] for name in self.fields if not _PLAYER_FIELD.match(name) and name not in folded]

    def clean_dice(self) -> list[int] | None:
        return parse_dice(self.cleaned_data.get("dice") or "")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        players: dict[str, list[dict[str, Any]]] = {"home": [], "away": []}
        for side, eligible in getattr(self, "player_sides", {}).items():
            labels = dict(eligible)
            named: dict[int, dict[str, Any]] = {}
            for n in range(1, len(eligible) + 1):
                prefix = f"{side}_line{n}_"
                pid = data.pop(f"{prefix}player", None)
                values = {name: data.pop(prefix + name, None) for name in PLAYER_FIELDS}
                if pid is None:
                    if any(values.values()):
                        self.add_error(f"{prefix}player", "Choose the player this line is about.")
                    continue
                if pid in named:
                    self.add_error(f"{prefix}player", f"{labels[pid]} is on two lines: put what they did on one.")
                    continue
                named[pid] = values
            for pid, _ in eligible:
                values = named.get(pid, {})
                line: dict[str, Any] = {"player": pid}
                for name in PLAYER_FIELDS:
                    value = values.get(name)
                    line[name] = value if value is not None else (0 if name not in ("mvp", "injury", "lasting") else "")
                line["mvp"] = bool(line["mvp"])
                players[side].append(line)
        data["players"] = players
        data["names"] = dict(getattr(self, "team_names", {}))
        if getattr(self, "playoff", False):
            data["playoff"] = True  # DB-5b: the rules refuse a draw in a play-off
        return data

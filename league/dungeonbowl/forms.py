"""The Dungeon Bowl result form (DB-5, DB-6, DB-9, DB-10, DB-13): touchdowns, how the
game ended, Gather Funds, Journeymen, the College Wizards hired for the game, the
winnings dice if rolled at the table, and a
line per player of each team. The player lines are added per fixture by
``DungeonBowlRules.form_labels`` (the engine builds the form before it knows the
fixture); ``clean`` gathers them into ``players`` for the rules' ``validate``.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms

from league.dungeonbowl import postgame_rules, team_rules
from league.dungeonbowl.models import MAX_PER_PLAYER, MAX_TD, Characteristic, Ending, Injury
from league.plaintext import PlainTextField

PLAYER_COUNTS = (
    ("touchdowns", "TD"),
    ("completions", "Comp"),
    ("deflections", "Defl"),
    ("interceptions", "Int"),
    ("casualties", "Cas"),
)
PLAYER_FIELDS = (*(name for name, _ in PLAYER_COUNTS), "mvp", "injury", "lasting")


def _count(label: str, maximum: int, what: str) -> forms.IntegerField:
    return forms.IntegerField(
        label=label, min_value=0, max_value=maximum, initial=0,
        error_messages={
            "invalid": f"Enter a whole number of {what}.",
            "min_value": f"{what.capitalize()} cannot be negative.",
            "max_value": f"More than {maximum} {what}? Check the number.",
            "required": f"Enter the number of {what} (0 if none).",
        },
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": maximum, "class": "narrow"}),
    )


_PLAYER_FIELD = re.compile(r"^p\d+_")
_DICE = re.compile(r"^\s*([1-6])\s*[ ,/-]?\s*([1-6])\s*$")


def parse_dice(text: str) -> list[int] | None:
    """"5 3", "5,3" or "53" -> [5, 3]; empty -> None (the app rolls). DB-10."""
    if not text.strip():
        return None
    match = _DICE.match(text)
    if match is None:
        raise forms.ValidationError('Winnings dice are two numbers from 1 to 6, such as "5 3".')
    return [int(match.group(1)), int(match.group(2))]


class DungeonBowlResultForm(forms.Form):
    template_name_div = "dungeonbowl/_report_form.html"

    home_score = _count("Home touchdowns", MAX_TD, "touchdowns")
    away_score = _count("Away touchdowns", MAX_TD, "touchdowns")
    ending = forms.ChoiceField(
        label="How the game ended",
        choices=[(value, label) for value, label in Ending.choices if value != Ending.UNPLAYED],
        error_messages={"required": "Say how the game ended.", "invalid_choice": "Choose how the game ended."},
    )
    home_gather = _count("Home players who used Gather Funds", postgame_rules.MAX_GATHERERS, "players")
    away_gather = _count("Away players who used Gather Funds", postgame_rules.MAX_GATHERERS, "players")
    home_journeymen = _count("Home Journeymen who played", team_rules.MAX_PLAYERS, "Journeymen")
    away_journeymen = _count("Away Journeymen who played", team_rules.MAX_PLAYERS, "Journeymen")
    home_wizard = forms.BooleanField(label="Home team hired its College Wizard", required=False)
    away_wizard = forms.BooleanField(label="Away team hired its College Wizard", required=False)
    dice = PlainTextField(
        label="Winnings dice rolled at the table (optional)", required=False, max_length=10,
        help_text="The winner's 2D6, e.g. 5 3; on a draw the home team's D6 then the away team's. Empty: the app rolls.",
    )

    player_sides: dict[str, list[tuple[int, str]]]  # side -> [(player id, label)], set by add_players
    team_names: dict[str, str]

    def add_players(self, players: dict[str, list[tuple[int, str]]], names: dict[str, str]) -> None:
        """A line of fields per player: ``p<id>_touchdowns`` ... ``p<id>_lasting``."""
        self.player_sides = players
        self.team_names = names
        for side in ("home", "away"):
            for pid, label in players.get(side, []):
                for name, short in PLAYER_COUNTS:
                    self.fields[f"p{pid}_{name}"] = _count(f"{label}: {short}", MAX_PER_PLAYER, name)
                    self.fields[f"p{pid}_{name}"].required = False
                self.fields[f"p{pid}_mvp"] = forms.BooleanField(label=f"{label}: MVP", required=False)
                self.fields[f"p{pid}_injury"] = forms.ChoiceField(
                    label=f"{label}: injury", choices=Injury.choices, required=False
                )
                self.fields[f"p{pid}_lasting"] = forms.ChoiceField(
                    label=f"{label}: characteristic lost", choices=Characteristic.choices, required=False
                )

    def player_rows(self, side: str) -> list[tuple[str, list[forms.BoundField]]]:
        """For the template: (player, its bound fields in column order)."""
        return [
            (label, [self[f"p{pid}_{name}"] for name in PLAYER_FIELDS])
            for pid, label in getattr(self, "player_sides", {}).get(side, [])
        ]

    def side_tables(self) -> list[tuple[str, list]]:
        names = getattr(self, "team_names", {})
        return [(names.get(side) or side.title(), self.player_rows(side)) for side in ("home", "away")]

    def other_fields(self) -> list[forms.BoundField]:
        """Every field that is not a player's line (the engine's organiser fields too)."""
        return [self[name] for name in self.fields if not _PLAYER_FIELD.match(name)]

    def clean_dice(self) -> list[int] | None:
        return parse_dice(self.cleaned_data.get("dice") or "")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        players: dict[str, list[dict[str, Any]]] = {"home": [], "away": []}
        for side, lines in getattr(self, "player_sides", {}).items():
            for pid, _ in lines:
                line: dict[str, Any] = {"player": pid}
                for name in PLAYER_FIELDS:
                    value = data.pop(f"p{pid}_{name}", None)
                    line[name] = value if value not in (None,) else (0 if name not in ("mvp", "injury", "lasting") else "")
                line["mvp"] = bool(line["mvp"])
                players[side].append(line)
        data["players"] = players
        data["names"] = dict(getattr(self, "team_names", {}))
        if getattr(self, "playoff", False):
            data["playoff"] = True  # DB-5b: the rules refuse a draw in a play-off
        return data

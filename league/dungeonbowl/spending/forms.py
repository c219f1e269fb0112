"""The forms of a Dungeon Bowl team's spending after a game (DB-11, DB-12): hiring,
firing, a Journeyman who played, an advancement. They clean input; the spending
services (league/dungeonbowl/spending/services.py) decide."""

from __future__ import annotations

from django import forms

from league.dungeonbowl.teams import player_rules, rules as team_rules, selectors
from league.dungeonbowl.models import Player, Position, Skill, Team
from league.dungeonbowl.units import gp
from league.models import Result
from league.text.plaintext import PlainTextField
from league.web.idfields import IdChoiceField


class HireForm(forms.Form):
    position = IdChoiceField(
        queryset=Position.objects.none(), error_messages={"required": "Choose a position to hire.",
                                                          "invalid_choice": "Choose a position of the team's college."},
    )
    name = PlainTextField(max_length=60, required=False)

    def __init__(self, *args, team: Team, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["position"].queryset = Position.objects.filter(college_id=team.college_id).order_by("group__order", "order")
        self.fields["position"].error_messages["invalid_pk_value"] = "Choose a position of the team's college."


class JourneymanForm(forms.Form):
    """DB-12: a Journeyman who played in one of the team's approved games joins it
    permanently, as one of the college's 0-16 linemen."""

    game = IdChoiceField(queryset=Result.objects.none(), label="The game they played in", error_messages={
        "required": "Choose the game the Journeyman played in.",
        "invalid_choice": "Choose an approved game of this team in which it fielded Journeymen."})
    position = IdChoiceField(queryset=Position.objects.none(), error_messages={
        "required": "Choose the Journeyman's position.",
        "invalid_choice": "Journeymen are the college's 0-16 linemen: choose one of them."})
    name = PlainTextField(max_length=60, required=False)

    def __init__(self, *args, team: Team, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].queryset = selectors.journeyman_games(team)
        self.fields["game"].error_messages["invalid_pk_value"] = self.fields["game"].error_messages["invalid_choice"]
        self.fields["position"].queryset = Position.objects.filter(
            college_id=team.college_id, group__max_count__gte=team_rules.MAX_PLAYERS).order_by("group__order", "order")
        self.fields["position"].error_messages["invalid_pk_value"] = self.fields["position"].error_messages[
            "invalid_choice"]
        self.fields["position"].label_from_instance = lambda p: f"{p.name} ({gp(p.cost)})"
        self.fields["game"].label_from_instance = _journeyman_game_label

    @property
    def offers_games(self) -> bool:
        return self.fields["game"].queryset.exists()


def _journeyman_game_label(result: Result) -> str:
    fixture, report = result.fixture, result.dungeonbowl_report
    return (f"{fixture.title}: {fixture.home.team or fixture.home} v {fixture.away.team or fixture.away} "
            f"(Journeymen {report.home_journeymen} and {report.away_journeymen})")


class FireForm(forms.Form):
    player = IdChoiceField(queryset=Player.objects.none(), error_messages={"invalid_choice": "Choose a player on the draft list."})

    def __init__(self, *args, team: Team, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = team.players.on_draft_list()


class AdvanceForm(forms.Form):
    """DB-11: spend SPP on a chosen skill, a random one or a characteristic. A random
    skill is rolled by the site when no skill is given, or was rolled at the table:
    then the skill it gave and its 2D6 are entered (DB-16)."""

    KINDS = [
        (player_rules.Advancement.RANDOM_PRIMARY.value, "Random primary skill (3/4/6/8/10/15 SPP, +20,000 gp)"),
        (player_rules.Advancement.CHOSEN_PRIMARY.value, "Chosen primary skill (6/8/12/16/20/30 SPP, +20,000 gp)"),
        (player_rules.Advancement.RANDOM_SECONDARY.value, "Random secondary skill (6/8/12/16/20/30 SPP, +40,000 gp)"),
        (player_rules.Advancement.CHOSEN_SECONDARY.value, "Chosen secondary skill (12/14/18/22/26/40 SPP, +40,000 gp)"),
        (player_rules.Advancement.CHARACTERISTIC.value, "A characteristic (18/20/24/28/32/50 SPP, +10,000 to +80,000 gp)"),
    ]
    player = IdChoiceField(queryset=Player.objects.none(), error_messages={
        "required": "Choose the player.", "invalid_choice": "Choose a player on the draft list."})
    kind = forms.ChoiceField(label="Advancement", choices=KINDS, error_messages={
        "invalid_choice": "Choose a skill (chosen or random) or a characteristic."})
    category = forms.ChoiceField(label="Skill category", required=False,
                                 choices=[("", "—"), *player_rules.SKILL_CATEGORIES.items()])
    skill = IdChoiceField(queryset=Skill.objects.all(), required=False,
                          help_text="A chosen skill, or the skill a random roll at the table gave; leave it empty "
                                    "for the site to roll a random one.",
                          error_messages={"invalid_choice": "Choose a skill from the list."})
    table_dice = PlainTextField(label="The 2D6 rolled at the table", max_length=20, required=False,
                                help_text='For a random skill rolled at the table, like "3 5".')
    characteristic = forms.ChoiceField(required=False, choices=[("", "—"), ("ma", "MA"), ("st", "ST"), ("ag", "AG"),
                                                                 ("pa", "PA"), ("av", "AV")])

    def __init__(self, *args, team: Team, **kwargs):
        super().__init__(*args, **kwargs)
        players = team.players.on_draft_list().select_related("position").order_by("number")
        self.fields["player"].queryset = players
        self.fields["skill"].queryset = Skill.for_league(team.league_id)
        self.fields["skill"].label_from_instance = lambda skill: skill.label
        self.fields["player"].label_from_instance = lambda p: (
            f"#{p.number} {p.name} ({p.position.name}, {p.spp} SPP, primary {p.position.primary or '-'}, "
            f"secondary {p.position.secondary or '-'})"
        )

    def clean_table_dice(self) -> list[int] | None:
        text = self.cleaned_data["table_dice"].replace(",", " ").split()
        if not text:
            return None
        if len(text) != 2 or not all(value in "123456" and len(value) == 1 for value in text):
            raise forms.ValidationError('Enter the two D6 rolled at the table, like "3 5".')
        return [int(value) for value in text]

"""The draft form (DB-6, DB-7): a number per roster position and the team re-rolls.
Bounds here are the input boxes'; the limits of the college are the rules' and are
shown, not enforced, by the form (a refused draft says which limit and by how much)."""

from __future__ import annotations

from collections import Counter

from django import forms

from league.dungeonbowl.teams import rules as team_rules
from league.dungeonbowl.models import College, Team, positions_with_limits
from league.dungeonbowl.units import gp
from league.models import Division, Season
from league.web.idfields import IdChoiceField
from league.text.plaintext import PlainTextField


class DraftForm(forms.Form):
    name = PlainTextField(label="Team name", max_length=100, required=False)
    rerolls = forms.IntegerField(
        label="Team re-rolls", min_value=0, max_value=team_rules.MAX_REROLLS, initial=0,
        error_messages={"max_value": f"A team drafts 0 to {team_rules.MAX_REROLLS} re-rolls.",
                        "min_value": "Team re-rolls cannot be fewer than 0.", "required": "Enter the team re-rolls (0 if none)."},
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "narrow", "data-stepper": "", "data-counts": "rerolls"}),
    )

    def __init__(self, *args, college: College, existing: Team | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.college = college
        self.existing = existing
        self.positions = list(college.positions.select_related("group").order_by("group__order", "order", "id"))
        current = Counter(existing.players.on_draft_list().values_list("position_id", flat=True)) if existing else Counter()
        if existing is not None:
            self.fields["name"].initial = existing.name
            self.fields["name"].disabled = True
            self.fields["rerolls"].initial = existing.rerolls
        # static/js/forms.js adds up data-cost and counts per data-counts key ("|"-separated,
        # the keys of team_rules.check_draft's limits) for the running total.
        self.fields["rerolls"].widget.attrs["data-cost"] = college.reroll_cost
        for position, limit in positions_with_limits(self.positions):
            self.fields[f"pos_{position.pk}"] = forms.IntegerField(
                label=f"{position.name} ({gp(position.cost)}; {limit})", min_value=0,
                max_value=team_rules.MAX_PLAYERS, initial=current[position.pk], required=False,
                error_messages={"max_value": f"A team has at most {team_rules.MAX_PLAYERS} players."},
                widget=forms.NumberInput(attrs={
                    "inputmode": "numeric", "class": "narrow", "min": 0, "max": team_rules.MAX_PLAYERS, "data-stepper": "",
                    "data-cost": position.cost, "data-counts": f"players|group:{position.group.name}",
                }),
            )

    def clean_name(self) -> str:
        name = (self.cleaned_data.get("name") or "").strip()
        if self.existing is None and not name:
            raise forms.ValidationError("Name your team.")
        return name

    def picks(self) -> list[str]:
        return [p.name for p in self.positions for _ in range(self.cleaned_data.get(f"pos_{p.pk}") or 0)]

    def initial_picks(self) -> list[str]:
        return [p.name for p in self.positions for _ in range(self.fields[f"pos_{p.pk}"].initial or 0)]

    def initial_rerolls(self) -> int:
        return self.fields["rerolls"].initial or 0

    def position_fields(self):
        return [self[f"pos_{p.pk}"] for p in self.positions]


class NewTeamForm(forms.Form):
    """DB-1: a coach names their team and picks its college; the draft comes next."""

    name = PlainTextField(label="Team name", max_length=100, error_messages={"required": "Name your team."})
    college = IdChoiceField(
        queryset=College.objects.order_by("name"), label="College of Magic",
        error_messages={"required": "Choose a College of Magic.", "invalid_choice": "Choose one of the colleges listed."},
    )

    def __init__(self, *args, league, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["college"].queryset = College.for_league(league.pk).order_by("name")


class EntryForm(forms.Form):
    """The commissioner enters a drafted team in one of the league's seasons, in a
    division when the season has them (DB-2). Every choice is the league's own."""

    team = IdChoiceField(
        queryset=Team.objects.none(), error_messages={"invalid_choice": "Choose a team of this league with a draft."}
    )
    season = IdChoiceField(
        queryset=None, error_messages={"invalid_choice": "Choose a season of this league."}
    )
    division = IdChoiceField(
        queryset=None, required=False, error_messages={"invalid_choice": "Choose a division of this league."},
        help_text="Needed when the season has divisions.",
    )

    def __init__(self, *args, league, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = Team.objects.filter(league=league, draft_submitted_at__isnull=False).order_by("name")
        self.fields["season"].queryset = Season.objects.filter(league=league).order_by("-start_date", "-id")
        self.fields["division"].queryset = Division.objects.filter(season__league=league).select_related("season")
        self.fields["division"].label_from_instance = lambda d: f"{d.name} ({d.season.name})"

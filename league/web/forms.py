"""Forms clean input; the services in league/services/results.py decide.

The result forms are the game's own (``league.rules.report_form_class()``); the
engine adds the organiser's fields to them, after the game's: an optional note and
the special cases (abandoned, a score the rules reject, a Favour debt), folded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils import timezone

from league import layers
from league.datebounds import MatchDateField
from league.models import MAX_SCORE  # a sanity bound for the input box; the game's rules set the real limits
from league.text.plaintext import PlainTextField


def score_field(label: str, *, max_value: int = MAX_SCORE, required_message: str = "Enter both scores.") -> forms.IntegerField:
    """A whole-number score box (0 to ``max_value``) with messages a coach understands."""
    return forms.IntegerField(
        label=label,
        min_value=0,
        max_value=max_value,
        error_messages={
            "invalid": "Enter a whole number of points.",
            "min_value": "Points cannot be negative.",
            "max_value": f"That is more than {max_value} points; check the score.",
            "required": required_message,
        },
        # data-stepper: static/js/forms.js puts a − and a + button around the box.
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": max_value, "data-stepper": ""}),
    )


@dataclass(frozen=True)
class SpecialCase:
    """One of the organiser's special cases on the result form: a box, and the
    reason box it needs when ticked (and only then)."""

    box: str
    title: str  # the case in words, for the message that asks for its reason


SPECIAL_CASES = (
    SpecialCase("abandoned", "Abandoned"),  # GB-6; titled per game by record_form (DB-5a: "Unplayed")
    SpecialCase("override", "A score the rules reject"),  # GB-8
    SpecialCase("acknowledge", "A Favour debt"),  # GB-20, The Big League's
)


def reason_name(case: SpecialCase) -> str:
    return f"{case.box}_reason"


def _reason_field() -> PlainTextField:
    # Never required in the browser: the box above decides, and clean() says so.
    return PlainTextField(
        max_length=500, required=False, label="Reason (needed only when this box is ticked)",
        widget=forms.TextInput(attrs={"size": 40}),
    )


class OrganiserFields(forms.Form):
    """What the organiser adds to the game's result form when entering, correcting
    or abandoning a result: an optional note, then the special cases (GB-6, GB-8,
    DB-5a, GB-20), each with a reason required only when its box is ticked.
    ``record_form`` puts the game's own fields (the scores) first."""

    reason = PlainTextField(
        max_length=500, required=False, label="Note for the fixture's history (optional)",
        widget=forms.TextInput(attrs={"size": 40}),
    )
    abandoned = forms.BooleanField(required=False, label="Abandoned: both sides record a loss")
    abandoned_reason = _reason_field()
    override = forms.BooleanField(required=False, label="Accept a score the rules reject (the reason is recorded)")
    override_reason = _reason_field()
    acknowledge = forms.BooleanField(
        required=False,
        label="Go ahead even where the correction leaves a coach owing Favours (you are warned first)",
    )
    acknowledge_reason = _reason_field()

    template_name_div = "league/_record_form.html"
    case_titles: dict[str, str] = {}  # box -> the case in words, set per game by record_form

    def special_cases(self) -> list[SpecialCase]:
        """The cases this game's form offers (a game without an override has no such box)."""
        return [case for case in SPECIAL_CASES if case.box in self.fields]

    def folded_fields(self) -> set[str]:
        """The names under "Special cases": a game's own template leaves them out."""
        return {name for case in self.special_cases() for name in (case.box, reason_name(case))}

    def case_title(self, case: SpecialCase) -> str:
        return self.case_titles.get(case.box, case.title)

    def folded_open(self) -> bool:
        """Open without script when a box is ticked or a case has an error."""
        return any(
            self[name].errors or (name in SPECIAL_BOXES and self[name].value())
            for name in self.folded_fields()
        )

    def folded(self) -> list[tuple[SpecialCase, forms.BoundField, forms.BoundField]]:
        return [(case, self[case.box], self[reason_name(case)]) for case in self.special_cases()]

    def get_context(self) -> dict[str, Any]:
        """The game's own template shows the game's fields (scores first); this
        form's template adds the special cases, folded, after them."""
        context = super().get_context()
        folded = self.folded_fields()
        context["fields"] = [(field, errors) for field, errors in context["fields"] if field.name not in folded]
        context["game_template"] = self.game_template_name
        return context

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        for case in self.special_cases():
            name = reason_name(case)
            if cleaned.get(case.box) and not (cleaned.get(name) or "").strip() and name not in self.errors:
                self.add_error(name, f"Give a reason: you ticked \u201c{self.case_title(case)}\u201d.")
        return cleaned


SPECIAL_BOXES = frozenset(case.box for case in SPECIAL_CASES)


def record_arguments(data: dict[str, Any]) -> dict[str, Any]:
    """The organiser's cleaned form as ``services.record_result``'s arguments: the
    game's facts, the ticked cases, and one history note made of each ticked case's
    reason and the optional note (a reason typed under a box left unticked is not
    a reason for anything, so it is dropped)."""
    facts = {key: value for key, value in data.items()
             if key not in SPECIAL_BOXES and key != "reason" and not key.endswith("_reason")}
    reasons = [data.get(reason_name(case), "").strip() for case in SPECIAL_CASES if data.get(case.box)]
    note = " \u00b7 ".join(text for text in [*reasons, (data.get("reason") or "").strip()] if text)
    return {
        **facts, "reason": note, "abandoned": bool(data.get("abandoned")), "override": bool(data.get("override")),
        "acknowledged": bool(data.get("acknowledge")),
    }


EARLY_FIELD = "played_early"


def report_form(rules, fixture, data=None, *, ask_early: bool = True, **kwargs) -> forms.Form:
    """The game's result form for ``fixture``, labelled with its sides. A fixture
    dated in the future is reported only after a warning that says so: a box to
    tick (every game), unless ``ask_early`` is False (a report being changed: the
    coach ticked it when reporting). The view takes ``played_early`` out before the
    service."""
    form = rules.report_form_class()(data, **kwargs)
    rules.form_labels(form, fixture)
    if ask_early and fixture.date > timezone.localdate():
        warning = f"This fixture is dated {fixture.date:%A %d %B %Y}, in the future"
        form.fields[EARLY_FIELD] = forms.BooleanField(
            label=f"{warning}: I confirm it has already been played",
            error_messages={"required": f"{warning}: tick the box to confirm it has already been played."},
        )
    return form


def record_form_class(rules) -> type[forms.Form]:
    """The game's result form plus the organiser's fields, drawn with the game's
    own template for the game's part."""
    game_form = rules.report_form_class()
    return type(f"Record{game_form.__name__}", (OrganiserFields, game_form), {
        "game_template_name": game_form.template_name_div or "django/forms/div.html",
        "case_titles": {"abandoned": rules.abandoned_label},
    })


def record_form(rules, fixture, data=None, **kwargs) -> forms.Form:
    """The organiser's form for entering, correcting or abandoning ``fixture``:
    the game's fields first, then the note, then the special cases."""
    form = record_form_class(rules)(data, **kwargs)
    rules.form_labels(form, fixture)
    form.fields["abandoned"].label = rules.abandon_help()
    if not rules.allows_override:
        del form.fields["override"], form.fields["override_reason"]
    if not layers.warns_on_correction(rules.system):  # each game's forms show its own rules only
        del form.fields["acknowledge"], form.fields["acknowledge_reason"]
    organisers = set(OrganiserFields.base_fields)
    form.order_fields([name for name in form.fields if name not in organisers])
    return form


class AbandonForm(forms.Form):
    """Abandon or mark unplayed (GB-6, DB-5a): a reason, plus what the game keeps of
    a match that was not completed (Guild Ball: the VP so far)."""

    reason = PlainTextField(max_length=500, widget=forms.Textarea(attrs={"rows": 3}))
    acknowledge = forms.BooleanField(
        required=False, label="Go ahead even where this leaves a coach owing Favours (you are warned first)"
    )


def abandon_form_class(rules) -> type[forms.Form]:
    extra = dict(rules.abandon_fields())
    if not layers.warns_on_correction(rules.system):
        extra["acknowledge"] = None  # no layer of this game warns: no box to go ahead anyway
    return type("AbandonForm", (AbandonForm,), extra) if extra else AbandonForm


class DisputeForm(forms.Form):
    reason = PlainTextField(
        max_length=500,
        label="What is wrong with the report?",
        error_messages={"required": "Say what is wrong with the report, so the organiser can settle it."},
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    propose = forms.BooleanField(
        required=False, label="I know the right result: the organiser can accept my version (enter it below)"
    )


PROPOSAL_PREFIX = "proposed"


def proposal_form(rules, fixture, data=None, **kwargs) -> forms.Form:
    """The game's own report form, for the result a disputing coach says is right
    (filled in with the report to start from); no early-play box, the match was
    reported already."""
    form = report_form(rules, fixture, data, prefix=PROPOSAL_PREFIX, **kwargs)
    form.fields.pop(EARLY_FIELD, None)
    return form


class RearrangeForm(forms.Form):
    date = MatchDateField(label="New date")
    reason = PlainTextField(max_length=300, widget=forms.TextInput(attrs={"size": 40}))


class FriendlyForm(forms.Form):
    """DB-5a: a friendly between two entries of a season (across divisions too); a
    withdrawn entrant is offered for none (LG-2)."""

    home = forms.ModelChoiceField(queryset=None, label="Home")
    away = forms.ModelChoiceField(queryset=None, label="Away")
    date = MatchDateField(label="Date")

    def __init__(self, *args, season, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        entries = season.entries.filter(withdrawn_at__isnull=True).select_related("coach", "division").order_by(
            "team", "coach__name")
        for side in ("home", "away"):
            self.fields[side].queryset = entries
            self.fields[side].label_from_instance = _entry_label

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("home") is not None and cleaned.get("home") == cleaned.get("away"):
            self.add_error("away", "A friendly needs two different sides.")
        return cleaned


def _entry_label(entry) -> str:
    name = f"{entry.team} ({entry.coach})" if entry.team else str(entry.coach)
    return f"{name}, {entry.division}" if entry.division_id else name


class ApproveForm(forms.Form):
    """GB-8 Decision: approving a result the opponent has not confirmed (reported or
    disputed) is an override that needs a reason; a confirmed one needs none."""

    reason = PlainTextField(
        max_length=500, required=False, label="Reason (needed when the opponent has not confirmed)",
        widget=forms.TextInput(attrs={"size": 40}),
    )


class ReasonForm(forms.Form):
    reason = PlainTextField(max_length=500, widget=forms.TextInput(attrs={"size": 40}))


class ImportForm(forms.Form):
    """A results file for the league's game, and the season it goes
    into (found by name, or created starting on ``start``)."""

    file = forms.FileField(label="Results file (CSV)", help_text="Comma or semicolon separated, UTF-8.")
    season = PlainTextField(label="Season", max_length=100)
    start = MatchDateField(label="Start date of a new season", required=False,
                           help_text="Only for a season the file creates; round n is dated from it. Default: today.")

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["file"].widget.attrs["accept"] = ".csv,text/csv"


class ConfirmImportForm(forms.Form):
    """The previewed upload, signed by the site (league.spreadsheets.views): the client
    carries it back unchanged or it is refused."""

    payload = forms.CharField(widget=forms.HiddenInput)

"""The forms of people coming into a league: a coach added or invited by the
organiser, a claim link, two coach rows merged, a pasted list of names, a join
link and the person joining through it, an invitation taken up."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model

from league.accounts.forms import NewPasswordForm
from league.datebounds import validate_match_date
from league.models import DEFAULT_JOIN_SIGNUPS_PER_HOUR, MAX_JOIN_SIGNUPS_PER_HOUR, MAX_JOIN_USES, Coach, Entry
from league.people import entrants as season_entrants
from league.people.joining import MAX_PASTED
from league.text.plaintext import PlainTextField, plain


class AddCoachForm(forms.Form):
    name = PlainTextField(
        max_length=Coach._meta.get_field("name").max_length, label="Name", help_text="As the tables will show it."
    )
    email = plain(forms.EmailField(label="Email address", help_text="The invitation goes here; nobody else sees it."))
    team = PlainTextField(
        max_length=Entry._meta.get_field("team").max_length, required=False, label="Team or Guild"
    )
    enter = forms.BooleanField(required=False, initial=True, label="Enter them in the current season")
    when_fixtures_exist = forms.ChoiceField(
        label="The season's fixtures exist: what to do", required=False, widget=forms.RadioSelect,
        choices=season_entrants.CHOICES, help_text="Nobody joins a running round robin without fixtures.",
    )

    def __init__(self, *args, fixtures_exist: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if not fixtures_exist:  # the question is only asked once there are fixtures
            del self.fields["when_fixtures_exist"]


class AcceptInvitationForm(NewPasswordForm):
    """For someone without an account: a username and a password (twice)."""

    field_order = ["username", "password1", "password2"]

    username = PlainTextField(max_length=get_user_model()._meta.get_field("username").max_length, label="Username")


class InviteByEmailForm(forms.Form):
    """The Coaches page's invitation for a coach without an account: the address
    to send it to (kept as the coach's), or none to resend to the one they have."""

    coach = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**31 - 1)
    email = plain(forms.EmailField(label="Email address", required=False))


class ClaimLinkForm(forms.Form):
    coach = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**31 - 1)


class MergeCoachesForm(forms.Form):
    """Two coach rows of the organiser's leagues that are one person: ``keep``'s
    name stays, ``absorb`` joins it (league/people/merges.py). ``choices``:
    (coach id, what the list shows: the name and the leagues)."""

    keep = forms.TypedChoiceField(coerce=int, label="Keep this coach (their name stays)")
    absorb = forms.TypedChoiceField(coerce=int, label="Same person as")

    def __init__(self, *args, choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("keep", "absorb"):
            self.fields[name].choices = [("", "Choose a coach")] + list(choices)

    def clean(self):
        data = super().clean()
        if data.get("keep") is not None and data.get("keep") == data.get("absorb"):
            self.add_error("absorb", "Choose two different coaches.")
        return data


class PasteNamesForm(forms.Form):
    names = PlainTextField(
        multiline=True, label="Names, one a line", max_length=MAX_PASTED * 110,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text="Paste a column from a spreadsheet, a name a line. Blank lines are skipped; a name that played in this league before enters that same coach; a repeated name is refused with its line.",
    )


class JoinLinkForm(forms.Form):
    max_uses = forms.IntegerField(
        label="At most this many people", required=False, min_value=1, max_value=MAX_JOIN_USES,
        help_text="Empty for no limit.",
    )
    closes_on = forms.DateField(
        label="Last day it works", required=False, validators=[validate_match_date],
        widget=forms.DateInput(attrs={"type": "date"}), help_text="Empty to keep it open until you withdraw it.",
    )
    signups_per_hour = forms.IntegerField(
        label="New accounts an hour", min_value=1, max_value=MAX_JOIN_SIGNUPS_PER_HOUR, required=False,
        initial=DEFAULT_JOIN_SIGNUPS_PER_HOUR,
        help_text="How many people may sign up through this link within an hour, all from one shop's Wi-Fi if "
                  "need be; sign-ups without a link stay limited per network.",
    )

    def clean_signups_per_hour(self) -> int:
        """Left empty: the default."""
        return self.cleaned_data["signups_per_hour"] or DEFAULT_JOIN_SIGNUPS_PER_HOUR


class JoinForm(forms.Form):
    """Someone joining who is not a coach yet: what the tables will call them."""

    name = PlainTextField(max_length=100, label="Your name in the tables")
    team = PlainTextField(max_length=100, required=False, label="Team")

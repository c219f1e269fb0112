"""Forms for accounts: password reset, sign-up and a new password, a coach's own
profile and notifications. Adding, inviting and merging coaches are people's forms
(league/people/forms.py)."""

from __future__ import annotations


from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.password_validation import password_validators_help_text_html
from django.template.loader import render_to_string

from league.throttle import within_limit
from league.outbox import notifications
from league.models import Coach
from league.text.plaintext import PlainTextField, plain


# Password-reset emails: at most this many an hour to one address and
# to one account, however often the form is posted; address confirmations likewise.
# Counted in the database (league/throttle.py), the same in every process.
RESETS_PER_ADDRESS = 3
RESETS_PER_ACCOUNT = 3
CONFIRMATIONS_PER_ADDRESS = 3


class ThrottledPasswordResetForm(PasswordResetForm):
    """Django's reset form, which says the same whatever happens, sending no more
    than RESETS_PER_ADDRESS emails an hour to an address (whatever its case) and
    RESETS_PER_ACCOUNT to an account."""

    def send_mail(self, subject_template_name, email_template_name, context, from_email, to_email,
                  html_email_template_name=None):
        """Queued like every mail (league/outbox/notifications.py), not sent in the request."""
        html = render_to_string(html_email_template_name, context) if html_email_template_name else ""
        notifications.queue_account_mail(
            kind="password_reset", to=to_email, subject=render_to_string(subject_template_name, context),
            text=render_to_string(email_template_name, context), html=html,
        )

    def get_users(self, email):
        if not within_limit("reset-address", email.strip().casefold(), RESETS_PER_ADDRESS):
            return
        for user in super().get_users(email):
            if within_limit("reset-account", str(user.pk), RESETS_PER_ACCOUNT):
                yield user


class NewPasswordForm(forms.Form):
    """A new account's password, typed twice (the invitation and the sign-up)."""

    password1 = forms.CharField(
        label="Password", strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validators_help_text_html(),
    )
    password2 = forms.CharField(
        label="Password again", strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"})
    )

    def clean(self):
        data = super().clean()
        if data.get("password1") and data.get("password1") != data.get("password2"):
            self.add_error("password2", "The two passwords differ.")
        return data


class ProfileForm(forms.Form):
    """A coach's display name (what tables show) and their email address, which
    changes only with the account's password and a link sent to the new address.
    A field the POST left out is an error, never a blank."""

    name = PlainTextField(max_length=Coach._meta.get_field("name").max_length, label="Display name")
    email = plain(forms.EmailField(
        label="Email address", required=False,
        help_text="Only you and the site use it. A new address is used once you open the link we send to it.",
    ))
    password = forms.CharField(
        label="Your password", required=False, strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text="Needed to change the email address.",
    )

    def __init__(self, *args, has_coach: bool, **kwargs):
        super().__init__(*args, **kwargs)
        if not has_coach:
            del self.fields["name"]

    def clean(self):
        data = super().clean()
        for name in ("name", "email"):
            if name in self.fields and name not in self.data:
                self.add_error(name, "This field was not sent, so nothing was changed: save the form again.")
        return data


class NotificationsForm(forms.Form):
    """One tick box per notification kind (league/outbox/notifications.py); unticked is off."""

    on = forms.MultipleChoiceField(
        required=False, widget=forms.CheckboxSelectMultiple, label="Email me when",
        help_text="Untick what you do not want by email. The pages still show everything that waits on you.",
    )

    def __init__(self, *args, kinds, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["on"].choices = [(kind.key, kind.label) for kind in kinds]


# Sign-ups and new leagues, per hour. Counted like the resets above.
SIGNUPS_PER_ADDRESS = 3  # to one email address
SIGNUPS_PER_CLIENT = 10  # from one network address
LEAGUES_PER_ACCOUNT = 5


class SignupForm(NewPasswordForm):
    """A username, the address the verification link goes to, a password (twice)."""

    field_order = ["username", "email", "password1", "password2"]

    username = PlainTextField(
        max_length=get_user_model()._meta.get_field("username").max_length, label="Username",
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
    )
    email = plain(forms.EmailField(
        label="Email address", help_text="We send a link here; your account works once you open it.",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    ))

"""Coaches in the organiser's admin: their own league's, addresses masked (nobody
sees another person's email), invitations sent from the list."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Q

from league.admin.scoping import CheckedModelForm, OrganiserScopedAdmin, organised_leagues
from league.people import invitations
from league.models import Coach, Entry, League
from league.selectors import name_clash
from league import admin_site as cockpit


class CoachAdminForm(CheckedModelForm):
    """A new coach is its creator's (``creator`` is set on the instance). A name
    differs from the other entrants' of the coach's seasons, the one rule for
    names (league/people/entrants.py): a form error, as on the coach's profile."""

    creator = None  # the requesting user, for a new coach (CoachAdmin.get_form)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk is None and self.instance.created_by_id is None and self.creator is not None:
            self.instance.created_by = self.creator

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        if self.instance.pk is not None:
            clash = name_clash(coach=self.instance, name=name)
            if clash:
                raise ValidationError(clash)
        return name


class NewCoachAdminForm(CoachAdminForm):
    """A new coach is added to one of the creator's leagues, as on the site's
    Coaches page (``invitations.add_coach`` decides)."""

    league = forms.ModelChoiceField(queryset=League.objects.none(), help_text="The league you add the coach to.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.creator is not None:
            self.fields["league"].queryset = League.objects.organised_by(self.creator)


@admin.register(Coach)
class CoachAdmin(OrganiserScopedAdmin):
    """Coaches are shared between leagues: an organiser sees those with an entry in
    one of their leagues and those they created (a new coach has no entry yet)."""
    cockpit_group = cockpit.EVERYDAY
    cockpit_rank = cockpit.COACHES

    list_display = ["name", "email", "user"]
    list_select_related = ["user"]
    search_fields = ["name", "email", "user__email"]
    actions = ["invite"]
    form = CoachAdminForm

    # Nobody sees another person's email address: an organiser's list shows it
    # masked, their search does not match it, and the address of a coach with an
    # account (who edits it on their profile) is not on the organiser's form.
    def get_list_display(self, request):
        if request.user.is_superuser:
            return self.list_display
        return ["name", "masked_email", "has_account"]

    def get_search_fields(self, request):
        return self.search_fields if request.user.is_superuser else ["name"]

    def get_exclude(self, request, obj=None):
        if request.user.is_superuser or obj is None or (obj.user_id is None and self.is_own(request, obj)):
            return []
        return ["email"]

    # An organiser sees the coaches of their leagues but changes, deletes
    # and invites only the coaches they created (added, invited or imported); another
    # organiser's coach entered in their league is read-only.

    def is_own(self, request, obj) -> bool:
        return obj is None or request.user.is_superuser or obj.created_by_id == request.user.pk

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and self.is_own(request, obj)

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and self.is_own(request, obj)

    @admin.display(description="Email")
    def masked_email(self, obj: Coach) -> str:
        return invitations.mask_email(obj.email) or "–"

    @admin.display(description="Has an account", boolean=True)
    def has_account(self, obj: Coach) -> bool:
        return obj.user_id is not None

    @admin.action(description="Email an invitation to set up an account")
    def invite(self, request, queryset):
        """league/people/invitations.py: a signed link, valid a week, used once. Sent for
        coaches with an address and no account; the others are named."""
        leagues = {
            coach_id: league
            for coach_id, league in (
                (entry.coach_id, entry.season.league)
                for entry in Entry.objects.filter(coach__in=queryset).select_related("season__league").order_by("season__start_date")  # newest last: it wins
            )
        }
        sent, skipped = [], []
        for coach in queryset:
            league = leagues.get(coach.pk)
            try:
                if not self.is_own(request, coach):
                    raise ValidationError(f"{coach} was added by another organiser; they send the invitation.")
                if league is None:
                    raise ValidationError(f"{coach} is in no league yet.")
                invitations.send_invitation(coach=coach, league=league, request=request)
            except ValidationError as error:
                skipped.append(" ".join(error.messages))
            else:
                sent.append(coach.name)
        if sent:
            self.message_user(request, f"Invitation sent to {', '.join(sent)}.", messages.SUCCESS)
        for line in skipped:
            self.message_user(request, line, messages.WARNING)

    def scope_queryset(self, request, queryset):
        if request.user.is_superuser:
            return queryset
        entered = Entry.objects.filter(season__league__in=organised_leagues(request).values("pk")).values("coach")
        return queryset.filter(Q(pk__in=entered) | Q(created_by=request.user))

    def get_readonly_fields(self, request, obj=None):
        # Linking an account offers every user of the site: a superuser's job.
        if request.user.is_superuser:
            return ["created_by"]
        return ["user", "created_by"]

    def get_fields(self, request, obj=None):
        # A new coach: the site's step asks the name, the address and the league;
        # a superuser links an account on the coach's page once it exists.
        return super().get_fields(request, obj) if obj is not None else ["name", "email", "league"]

    def get_form(self, request, obj=None, change=False, **kwargs):
        if obj is None:
            kwargs["form"] = NewCoachAdminForm
        form_class = super().get_form(request, obj, change=change, **kwargs)
        return form_class if obj is not None else type("NewCoachForm", (form_class,), {"creator": request.user})

    def save_model(self, request, obj, form, change):
        if change:
            return super().save_model(request, obj, form, change)
        coach = self.call_service(request, invitations.add_coach, league=form.cleaned_data["league"], season=None,
                                  by=request.user, name=obj.name, email=obj.email)
        vars(obj).update(vars(coach))

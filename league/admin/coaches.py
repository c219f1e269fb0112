"""Coaches in the organiser's admin: their own league's, addresses masked (nobody
sees another person's email), invitations sent from the list."""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Q

from league.admin_scoping import OrganiserScopedAdmin, organised_leagues
from league.models import Coach, Entry


@admin.register(Coach)
class CoachAdmin(OrganiserScopedAdmin):
    """Coaches are shared between leagues: an organiser sees those with an entry in
    one of their leagues and those they created (a new coach has no entry yet)."""

    list_display = ["name", "email", "user"]
    list_select_related = ["user"]
    search_fields = ["name", "email", "user__email"]
    actions = ["invite"]

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
        if request.user.is_superuser or obj is None or obj.user_id is None:
            return []
        return ["email"]

    @admin.display(description="Email")
    def masked_email(self, obj: Coach) -> str:
        from league.invitations import mask_email

        return mask_email(obj.email) or "–"

    @admin.display(description="Has an account", boolean=True)
    def has_account(self, obj: Coach) -> bool:
        return obj.user_id is not None

    @admin.action(description="Email an invitation to set up an account")
    def invite(self, request, queryset):
        """league/invitations.py: a signed link, valid a week, used once. Sent for
        coaches with an address and no account; the others are named."""
        from league import invitations

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

    def save_model(self, request, obj, form, change):
        if not change and obj.created_by_id is None:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)

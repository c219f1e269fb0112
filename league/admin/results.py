"""Results in the organiser's admin: read-only pages, a filter for what needs
attention, and the actions that approve, correct or reopen through the services
(GB-8)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.html import format_html, format_html_join

from league.services import results as services
from league.admin.forms import OverrideReasonForm, ReasonForm, _game_rules, _record, _result_form_class
from league.admin.scoping import OrganiserScopedAdmin, ScopedRelatedFilter, error_text
from league.models import Result, Season
from league import admin_site as cockpit


class AttentionFilter(admin.SimpleListFilter):
    """The results waiting on the Longshanks are the default view."""

    title = "show"
    parameter_name = "show"
    NEEDS_ATTENTION = [Result.Status.REPORTED, Result.Status.CONFIRMED, Result.Status.DISPUTED]

    def lookups(self, request, model_admin):
        return [
            (None, "Needs attention"),
            ("disputed", "Disputed"),
            ("approved", "Approved"),
            ("all", "All results"),
        ]

    def choices(self, changelist):
        for value, label in self.lookup_choices:
            yield {
                "selected": self.value() == value,
                "query_string": changelist.get_query_string({self.parameter_name: value} if value else {}, [self.parameter_name]),
                "display": label,
            }

    def queryset(self, request, queryset):
        value = self.value()
        if value is None:
            return queryset.filter(status__in=self.NEEDS_ATTENTION)
        if value == "disputed":
            return queryset.filter(status=Result.Status.DISPUTED)
        if value == "approved":
            return queryset.filter(status=Result.Status.APPROVED)
        return queryset


@admin.register(Result)
class ResultAdmin(OrganiserScopedAdmin):
    """Results are entered by coaches (report, confirm, dispute) or by the organiser
    through the actions; the change page is read-only so no score changes without a
    reason in the history (GB-8). Entering a result for a fixture is the Fixture
    action "Enter or correct the result"."""
    cockpit_group = cockpit.EVERYDAY
    cockpit_rank = cockpit.RESULTS

    league_lookup = "fixture__round__season__league"
    list_display = ["fixture", "summary", "outcome", "status", "dispute_reason", "season"]
    list_display_links = ["fixture"]
    list_filter = [AttentionFilter, "status", ("fixture__round__season", ScopedRelatedFilter)]
    list_select_related = ["fixture__round__season__league", "fixture__home__coach", "fixture__away__coach"]
    search_fields = ["fixture__home__coach__name", "fixture__away__coach__name"]
    fields = [
        "fixture", "summary", "outcome", "conceded", "status", "reported_side",
        "dispute_reason", "override_reason", "reported_at", "approved_at",
    ]
    readonly_fields = fields
    actions = ["approve", "correct", "reopen"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related(*self.list_select_related)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        # A result's page is read-only; the actions (which need change permission
        # on the model) are the way to change it.
        if obj is not None:
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        # Deleting a result would skip the services (a game's post-game records go
        # with it, a campaign's ledgers refuse): "Reopen" takes one out of the
        # standings, for the superuser too. Deleting its fixture, round, season or
        # league is refused for the same reason while it exists.
        return False

    @admin.display(description="season", ordering="fixture__round__season")
    def season(self, obj: Result) -> Season:
        return obj.fixture.round.season

    @admin.action(description="Approve selected results", permissions=["change"])
    def approve(self, request, queryset):
        """GB-8 Decision: results both coaches agreed on (confirmed) are approved at
        once; when any selected result is reported or disputed, approving it is an
        override, so the action first asks for the reason (kept in its history)."""
        if "apply" not in request.POST and not queryset.exclude(status=Result.Status.CONFIRMED).exists():
            return self._approve(request, queryset, reason="")
        unconfirmed = queryset.exclude(status=Result.Status.CONFIRMED).count()
        return self.run_form_action(
            request,
            queryset,
            form_class=OverrideReasonForm,
            title="Approve results",
            intro=(
                f"{unconfirmed} of the selected results have not been confirmed by the opponent (reported or "
                "disputed). Approving them anyway is an override: the reason is kept in each one's history."
            ),
            apply=lambda result, data: services.approve_result(result=result, by=request.user, reason=data["reason"]),
            done_message="{count} result(s) approved.",
        )

    def _approve(self, request, queryset, *, reason: str):
        approved, failed = 0, []
        for result in queryset:
            try:
                services.approve_result(result=result, by=request.user, reason=reason)
            except (ValidationError, PermissionDenied) as exc:
                failed.append((result, error_text(exc)))
            else:
                approved += 1
        if approved:
            self.message_user(request, f"{approved} result(s) approved.", messages.SUCCESS)
        if failed:
            reasons = format_html_join("", "<li>{}: {}</li>", ((result.fixture, reason) for result, reason in failed))
            self.message_user(
                request, format_html("{} result(s) not approved:<ul>{}</ul>", len(failed), reasons), messages.ERROR
            )

    @admin.action(description="Correct result", permissions=["change"])
    def correct(self, request, queryset):
        """GB-8: the organiser corrects a result with a reason; it is approved at once
        and everything derived from it follows."""
        rules = _game_rules(queryset, self.league_lookup)
        return self.run_form_action(
            request,
            queryset,
            form_class=_result_form_class(rules) if rules is not None else ReasonForm,
            title="Correct result",
            intro="The corrected result is approved at once and the reason is kept in the fixture's history.",
            apply=lambda result, data: _record(result.fixture, request.user, data),
            done_message="Result corrected.",
            single=True,
        )

    @admin.action(description="Reopen (stops counting until approved again)", permissions=["change"])
    def reopen(self, request, queryset):
        return self.run_form_action(
            request,
            queryset,
            form_class=ReasonForm,
            title="Reopen results",
            intro="A reopened result goes back to the coaches and stops counting until it is approved again.",
            apply=lambda result, data: services.reopen_result(result=result, by=request.user, reason=data["reason"]),
            done_message="{count} result(s) reopened.",
        )

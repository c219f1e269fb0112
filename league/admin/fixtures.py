"""Rounds and fixtures in the organiser's admin, with the workflow actions on
fixtures: rearrange (GB-5), abandon (GB-6, DB-5a), enter or correct a result."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import Count, Q

from league.services import fixtures as fixture_services
from league.services import seasons as season_services
from league.admin.forms import RearrangeForm, ReasonForm, _game_rules, _record, _result_form_class
from league.admin.scoping import BoundedInlineMixin, CheckedModelForm, OrganiserScopedAdmin, ScopedRelatedFilter, is_id
from league.web.forms import abandon_form_class
from league.models import Fixture, ResultEvent, Round, Season
from league import admin_site as cockpit


class FixtureInline(BoundedInlineMixin, admin.TabularInline):
    """The round's fixtures at a glance; changes go through the Fixture actions."""

    model = Fixture
    fields = ["home", "away", "date", "result_status"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("home__coach", "away__coach", "result")

    @admin.display(description="result")
    def result_status(self, obj: Fixture) -> str:
        return _result_status(obj)


def _result_status(fixture: Fixture) -> str:
    if fixture.is_bye:
        return "bye"
    if fixture.is_cancelled:  # LG-2
        return fixture.cancelled_reason
    result = fixture.result_or_none
    if result is None:
        return "not played"
    return f"{result.summary}, {result.get_status_display().lower()}"


@admin.register(Round)
class RoundAdmin(OrganiserScopedAdmin):
    cockpit_group = cockpit.EVERYDAY
    cockpit_rank = cockpit.ROUNDS
    league_lookup = "season__league"
    list_display = ["__str__", "season", "date", "fixture_count"]
    list_filter = [("season", ScopedRelatedFilter)]
    list_select_related = ["season__league"]
    inlines = [FixtureInline]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related(*self.list_select_related).annotate(fixture_count=Count("fixtures"))

    def get_readonly_fields(self, request, obj=None):
        # Fixtures copy their round's date when generated and move one by one with
        # "Rearrange" (GB-5, coaches emailed); changing the round would tell nobody.
        if obj is not None and obj.fixtures.exists():
            return ["season", "number", "date"]
        return []

    @admin.display(description="fixtures", ordering="fixture_count")
    def fixture_count(self, obj: Round) -> int:
        return obj.fixture_count


class ResultEventInline(BoundedInlineMixin, admin.TabularInline):
    """The fixture's history (every report, approval, correction...), read-only."""

    model = ResultEvent
    verbose_name = "history entry"
    verbose_name_plural = "history"
    fields = ["at", "action", "by", "summary", "note"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("by")


class RoundNumberFilter(admin.SimpleListFilter):
    """Round numbers of the user's own fixtures (a plain field filter on
    ``round__number`` would read every league's rounds)."""

    title = "round"
    parameter_name = "round"

    def lookups(self, request, model_admin):
        numbers = model_admin.get_queryset(request).order_by().values_list("round__number", flat=True).distinct()
        return [(str(number), f"Round {number}") for number in sorted(numbers)]

    def queryset(self, request, queryset):
        if self.value() and is_id(self.value()):  # not int("²"), nor a number past 64 bits
            return queryset.filter(round__number=int(self.value()))
        return queryset


class FixtureAddForm(CheckedModelForm):
    class Meta:
        model = Fixture
        fields = ["round", "home", "away", "date"]

    def clean(self):
        cleaned = super().clean()
        rnd = cleaned.get("round")
        home, away = cleaned.get("home"), cleaned.get("away")
        # DB-5a: a fixture between two divisions is a friendly, which may share a round.
        self.stage = Fixture.stage_between(home, away, self.instance.stage) if home and away else self.instance.stage
        for side in ("home", "away"):
            entry = cleaned.get(side)
            if rnd is not None and entry is not None and entry.season_id != rnd.season_id:
                self.add_error(side, f"{entry} is not entered in {rnd.season}.")
            elif rnd is not None and entry is not None and self._plays_in(rnd, entry):
                # fixture_home_once_per_round / fixture_away_once_per_round, said in words.
                self.add_error(side, f"{entry} already plays in {rnd}.")
        return cleaned

    def _plays_in(self, rnd: Round, entry) -> bool:
        if self.stage != Fixture.Stage.REGULAR:
            return False
        played = Fixture.objects.filter(round=rnd, stage=Fixture.Stage.REGULAR).exclude(pk=self.instance.pk)
        return played.filter(Q(home=entry) | Q(away=entry)).exists()


@admin.register(Fixture)
class FixtureAdmin(OrganiserScopedAdmin):
    """Fixtures come from "Generate fixtures" (or are added one by one); once made,
    a fixture changes only through the actions, so the history and the coaches'
    emails (GB-5) are never skipped: its change page is read-only."""
    cockpit_group = cockpit.EVERYDAY
    cockpit_rank = cockpit.FIXTURES

    league_lookup = "round__season__league"
    form = FixtureAddForm
    list_display = ["round", "home", "away", "date", "result_status", "season"]
    list_filter = [("round__season", ScopedRelatedFilter), RoundNumberFilter]
    list_select_related = ["round__season__league", "home__coach", "away__coach", "result"]
    search_fields = ["home__coach__name", "away__coach__name"]
    date_hierarchy = "date"
    inlines = [ResultEventInline]
    actions = ["rearrange", "abandon", "enter_result"]

    def get_queryset(self, request):
        # The changelist skips list_select_related when the queryset already has a
        # select_related, so both must name the same relations.
        return super().get_queryset(request).select_related(*self.list_select_related)

    def has_change_permission(self, request, obj=None):
        # The change page only shows the fixture and its history.
        if obj is not None:
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        # Deleting a played fixture would delete its result behind the services' back.
        if obj is not None and obj.result_or_none is not None:
            return False
        return super().has_delete_permission(request, obj)

    def get_readonly_fields(self, request, obj=None):
        return ["rearranged_reason", "result_status"] if obj is not None else []

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["round", "home", "away", "date"]
        return ["round", "home", "away", "date", "rearranged_reason", "result_status"]

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        # "Round 3" and a coach's name repeat across seasons: say which season.
        if db_field.name == "round":
            field.queryset = field.queryset.select_related("season__league")
            field.label_from_instance = lambda rnd: f"{rnd.season} · {rnd}"
        elif db_field.name in ("home", "away"):
            field.queryset = field.queryset.select_related("coach", "season__league")
            field.label_from_instance = lambda entry: f"{entry.coach} ({entry.season})"
        return field

    def save_model(self, request, obj, form, change):
        """A fixture is added by ``season_services.add_fixture`` (the form said what it
        could in words); the change page is read-only."""
        fixture = self.call_service(request, season_services.add_fixture, round=obj.round, home=obj.home,
                                    away=obj.away, date=obj.date, by=request.user)
        vars(obj).update(vars(fixture))

    @admin.display(description="season", ordering="round__season")
    def season(self, obj: Fixture) -> Season:
        return obj.round.season

    @admin.display(description="result")
    def result_status(self, obj: Fixture) -> str:
        return _result_status(obj)

    @admin.action(description="Rearrange (new date, coaches emailed)", permissions=["change"])
    def rearrange(self, request, queryset):
        """GB-5: move unplayed fixtures to a new date, with a reason."""
        return self.run_form_action(
            request,
            queryset,
            form_class=RearrangeForm,
            title="Rearrange fixtures",
            intro="The fixtures keep their round. Every coach of the season with an email address is told.",
            apply=lambda fixture, data: fixture_services.rearrange_fixture(
                fixture=fixture, by=request.user, new_date=data["new_date"], reason=data["reason"]
            ),
            done_message="{count} fixture(s) rearranged; the coaches have been emailed.",
        )

    @admin.action(description="Abandon or mark unplayed (a loss for both)", permissions=["change"])
    def abandon(self, request, queryset):
        """GB-6, DB-5a: both sides record a loss; Guild Ball keeps the VP played so far
        for information."""
        rules = _game_rules(queryset, self.league_lookup)
        if rules is None:
            self.message_user(request, "Select fixtures of one game at a time.", messages.ERROR)
            return None
        return self.run_form_action(
            request,
            queryset,
            form_class=abandon_form_class(rules),
            title="Abandon fixtures",
            intro="An abandoned or unplayed match is a loss for both sides; its scores do not count in the tiebreakers.",
            apply=lambda fixture, data: _record(fixture, request.user, data, abandoned=True),
            done_message="{count} fixture(s) abandoned.",
        )

    @admin.action(description="Enter or correct the result", permissions=["change"])
    def enter_result(self, request, queryset):
        """GB-8: the organiser records a result directly; it is approved at once."""
        rules = _game_rules(queryset, self.league_lookup)
        return self.run_form_action(
            request,
            queryset,
            form_class=_result_form_class(rules) if rules is not None else ReasonForm,
            title="Enter or correct the result",
            intro="The result is approved at once and the reason is kept in the fixture's history.",
            apply=lambda fixture, data: _record(fixture, request.user, data),
            done_message="Result recorded.",
            single=True,
        )

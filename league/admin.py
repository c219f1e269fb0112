"""The Django admin as the Longshanks' cockpit (STYLE habit 8, GB-1).

An organiser who is not a superuser sees and changes only the leagues they
organise and what hangs off them (``league.admin_scoping``, shared with
campaigns/admin.py).

Every write of the result workflow goes through ``league.services``: results are
read-only here and change only through the admin actions (approve, correct, reopen;
on fixtures: enter a result, abandon, rearrange), which call the services and turn
their ``ValidationError``/``PermissionDenied`` into admin messages.
"""

from __future__ import annotations


from django import forms
from django.contrib import admin, messages
from django.contrib.admin.widgets import AdminDateWidget
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import BooleanField, Case, Count, Q, Value, When
from django.utils.html import format_html, format_html_join

from league import services
from league.admin_scoping import (
    OrganiserScopedAdmin,
    OrganiserScopedInline,
    ScopedRelatedFilter,
    error_text,
    organised_leagues,
)
from league.datebounds import MatchDateField
from league.forms import abandon_form_class
from league.models import Coach, Division, Entry, Fixture, League, Result, ResultEvent, Round, Season

# Intermediate forms ----------------------------------------------------------


class RearrangeForm(forms.Form):
    new_date = MatchDateField(widget=AdminDateWidget, help_text="GB-5: the fixture keeps its round.")
    reason = forms.CharField(max_length=250, widget=forms.Textarea(attrs={"rows": 3}), help_text="Every coach of the season with an email address is told.")


def _game_rules(queryset, league_lookup: str):
    """The rules of the one game the selected objects belong to, or None when they
    span leagues of different games (a game's result form fits its own game only)."""
    systems = set(queryset.values_list(f"{league_lookup}__game_system", flat=True))
    if len(systems) != 1:
        return None
    obj = queryset.select_related(league_lookup).first()
    league = obj
    for part in league_lookup.split("__"):
        league = getattr(league, part)
    return league.rules


def _result_form_class(rules) -> type[forms.Form]:
    """The game's result form with a reason and, where the game allows it, the
    organiser's override (GB-8)."""
    game_form = rules.report_form_class()
    attrs = {
        "reason": forms.CharField(
            max_length=500, widget=forms.Textarea(attrs={"rows": 3}), help_text="Kept in the fixture's history."
        )
    }
    attrs["acknowledge"] = forms.BooleanField(
        required=False, label="Go ahead even where the correction leaves a coach owing Favours",
        help_text="You are warned first, with the coaches and amounts (GB-20).",
    )
    if rules.allows_override:
        attrs["override"] = forms.BooleanField(
            required=False, label="Override the rules' checks", help_text="Accept a score the rules reject; the reason is recorded."
        )
    return type("ResultForm", (game_form,), attrs)


def _record(fixture: Fixture, user, data: dict, **extra) -> Result:
    """Enter, correct or abandon through the service; the form's "acknowledge" box
    is the go-ahead after a warning (GB-20), not a fact of the result."""
    facts = {key: value for key, value in data.items() if key != "acknowledge"}
    return services.record_result(
        fixture=fixture, by=user, acknowledged=bool(data.get("acknowledge")), **extra, **facts
    )


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=500, widget=forms.Textarea(attrs={"rows": 3}), help_text="Kept in the fixture's history.")


class OverrideReasonForm(forms.Form):
    reason = forms.CharField(
        max_length=500, widget=forms.Textarea(attrs={"rows": 3}), label="Why approve without the opponent's confirmation",
        help_text="GB-8: kept in the history of each result approved.",
    )


# Coaches ---------------------------------------------------------------------


@admin.register(Coach)
class CoachAdmin(OrganiserScopedAdmin):
    """Coaches are shared between leagues: an organiser sees those with an entry in
    one of their leagues and those they created (a new coach has no entry yet)."""

    list_display = ["name", "contact_email", "user"]
    list_select_related = ["user"]
    search_fields = ["name", "email", "user__email"]
    actions = ["invite"]

    # Issue 12: an organiser sees the coaches of their leagues but changes, and
    # reads the address of, only the coaches they created (added, invited or
    # imported); another organiser's coach entered in their league is read-only,
    # its address masked. A superuser sees and changes everything.

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset.annotate(is_own=Value(True))
        return queryset.annotate(
            is_own=Case(When(created_by=request.user.pk, then=Value(True)), default=Value(False), output_field=BooleanField())
        )

    def is_own(self, request, obj) -> bool:
        return obj is None or request.user.is_superuser or obj.created_by_id == request.user.pk

    @admin.display(description="email", ordering="email")
    def contact_email(self, obj) -> str:
        from league.invitations import mask_email

        return obj.email if getattr(obj, "is_own", False) else mask_email(obj.email)

    def get_search_fields(self, request):
        # Searching by address would tell whether another organiser's coach has it.
        return self.search_fields if request.user.is_superuser else ["name"]

    def get_exclude(self, request, obj=None):
        excluded = list(super().get_exclude(request, obj) or [])
        return excluded if self.is_own(request, obj) else [*excluded, "email"]

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and self.is_own(request, obj)

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and self.is_own(request, obj)

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

    def save_model(self, request, obj, form, change):
        if not change and obj.created_by_id is None:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


# Leagues and seasons ----------------------------------------------------------


@admin.register(League)
class LeagueAdmin(OrganiserScopedAdmin):
    """Only a superuser chooses organisers: the widget would list every account of
    the site, and an organiser could hand their league to anyone. An organiser who
    adds a league becomes its organiser (``save_related``)."""

    league_lookup = ""
    list_display = ["name", "slug", "game_system"]
    list_filter = ["game_system"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]

    def get_exclude(self, request, obj=None):
        return [] if request.user.is_superuser else ["organisers"]

    def get_readonly_fields(self, request, obj=None):
        # The game is chosen once: results and settings are the game's own.
        fixed = ["game_system"] if obj is not None else []
        return fixed + (["created_at"] if request.user.is_superuser else ["organiser_names", "created_at"])

    def get_inlines(self, request, obj):
        """The game's own settings (GB-8's VP target, DR-4's points ...), with the
        rulebook's defaults, once the league exists and its game is known."""
        if obj is None or obj.rules.settings_model is None:
            return []
        return [_settings_inline(obj.rules.settings_model)]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        model = obj.rules.settings_model
        if not change and model is not None:
            model.objects.get_or_create(league=obj)

    @admin.display(description="Organisers")
    def organiser_names(self, obj: League) -> str:
        if obj.pk is None:
            return "You, once it is saved."
        return ", ".join(user.get_username() for user in obj.organisers.all()) or "–"


def _settings_inline(model) -> type[admin.StackedInline]:
    return type(
        f"{model.__name__}Inline",
        (admin.StackedInline,),
        {"model": model, "can_delete": False, "min_num": 1, "max_num": 1, "extra": 0},
    )


class DivisionInline(admin.TabularInline):
    model = Division
    extra = 0
    fields = ["name"]


class DivisionDrawForm(forms.Form):
    count = forms.IntegerField(label="Divisions", min_value=2, max_value=4, initial=2)
    seed = forms.IntegerField(
        required=False, min_value=0, max_value=2**31 - 1, help_text="Leave empty for a fresh draw; the same seed gives the same draw."
    )


class EntryInline(OrganiserScopedInline, admin.TabularInline):
    model = Entry
    extra = 1
    fields = ["coach", "team", "division"]

    def get_formset(self, request, obj=None, **kwargs):
        self.season = obj  # an inline instance serves one request
        return super().get_formset(request, obj, **kwargs)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "division":
            # DB-2: only this season's divisions (never another league's).
            season = getattr(self, "season", None)
            kwargs["queryset"] = Division.objects.filter(season=season) if season else Division.objects.none()
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


@admin.register(Season)
class SeasonAdmin(OrganiserScopedAdmin):
    league_lookup = "league"
    list_display = ["name", "league", "start_date", "cadence_days", "double_round_robin", "entry_count", "round_count"]
    list_filter = [("league", ScopedRelatedFilter)]
    list_select_related = ["league"]
    search_fields = ["name", "league__name"]
    inlines = [DivisionInline, EntryInline]
    actions = ["draw_divisions", "generate_fixtures"]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .select_related(*self.list_select_related)
            .annotate(entry_count=Count("entries", distinct=True), round_count=Count("rounds", distinct=True))
        )

    @admin.action(description="Draw divisions (random, before the fixtures)", permissions=["change"])
    def draw_divisions(self, request, queryset):
        """DB-2: a seeded random draw into 2 to 4 divisions of at least 4 entries."""
        return self.run_form_action(
            request,
            queryset,
            form_class=DivisionDrawForm,
            title="Draw divisions",
            intro="DB-2: 2 to 4 divisions, as equal in size as possible, never fewer than 4 entries each. "
            "To split them yourself, add divisions below the season and choose each entry's division.",
            apply=lambda season, data: services.draw_season_divisions(
                season=season, by=request.user, count=data["count"], seed=data["seed"]
            ),
            done_message="Divisions drawn for {count} season(s).",
        )

    def get_readonly_fields(self, request, obj=None):
        # Once the fixtures exist, the schedule settings no longer change anything.
        if obj is not None and obj.rounds.exists():
            return ["schedule_seed", "start_date", "cadence_days", "double_round_robin"]
        return ["schedule_seed"]

    @admin.display(description="coaches", ordering="entry_count")
    def entry_count(self, obj: Season) -> int:
        return obj.entry_count

    @admin.display(description="rounds", ordering="round_count")
    def round_count(self, obj: Season) -> int:
        return obj.round_count

    @admin.action(description="Generate fixtures", permissions=["change"])
    def generate_fixtures(self, request, queryset):
        """GB-4/GB-5: the whole fixture list of each selected season."""
        for season in queryset:
            try:
                rounds = services.generate_fixtures(season=season, by=request.user)
            except (ValidationError, PermissionDenied) as exc:
                self.message_user(request, f"{season}: {error_text(exc)}", messages.ERROR)
            else:
                self.message_user(request, f"{season}: {len(rounds)} rounds of fixtures generated.", messages.SUCCESS)


@admin.register(Entry)
class EntryAdmin(OrganiserScopedAdmin):
    league_lookup = "season__league"
    list_display = ["coach", "team", "season"]
    list_filter = [("season", ScopedRelatedFilter)]
    list_select_related = ["coach", "season__league"]
    search_fields = ["coach__name", "team"]

    def get_readonly_fields(self, request, obj=None):
        # An entry's fixtures belong to its season: it never moves to another one.
        return ["season"] if obj is not None else []

    def get_queryset(self, request):
        return super().get_queryset(request).select_related(*self.list_select_related)


# Rounds and fixtures ----------------------------------------------------------


class FixtureInline(admin.TabularInline):
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
    result = fixture.result_or_none
    if result is None:
        return "not played"
    return f"{result.summary}, {result.get_status_display().lower()}"


@admin.register(Round)
class RoundAdmin(OrganiserScopedAdmin):
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


class ResultEventInline(admin.TabularInline):
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
        if self.value() and self.value().isdigit():
            return queryset.filter(round__number=int(self.value()))
        return queryset


class FixtureAddForm(forms.ModelForm):
    class Meta:
        model = Fixture
        fields = ["round", "home", "away", "date"]

    def clean(self):
        cleaned = super().clean()
        rnd = cleaned.get("round")
        for side in ("home", "away"):
            entry = cleaned.get(side)
            if rnd is not None and entry is not None and entry.season_id != rnd.season_id:
                self.add_error(side, f"{entry} is not entered in {rnd.season}.")
        return cleaned


@admin.register(Fixture)
class FixtureAdmin(OrganiserScopedAdmin):
    """Fixtures come from "Generate fixtures" (or are added one by one); once made,
    a fixture changes only through the actions, so the history and the coaches'
    emails (GB-5) are never skipped: its change page is read-only."""

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
            apply=lambda fixture, data: services.rearrange_fixture(
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


# Results ---------------------------------------------------------------------


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
        # Deleting a result would skip the services (and a campaign's ledgers).
        return request.user.is_superuser and super().has_delete_permission(request, obj)

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
                "disputed). Approving them anyway is an override (GB-8): the reason is kept in each one's history."
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



admin.site.site_header = "League Manager: the organiser's site"
admin.site.site_title = "League Manager"
admin.site.index_title = "Your leagues, results and campaigns"

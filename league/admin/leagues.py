"""Leagues, seasons (with divisions and entries) and entries in the organiser's
admin; the game's own settings inline on its league."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models
from django.db.models import Count

from league.people import entrants as season_entrants
from league.services import founding
from league.services import seasons as season_services
from league.rules.scheduling import MAX_DIVISIONS
from league.admin.scoping import BoundedInlineMixin, CheckedModelForm, OrganiserScopedAdmin, OrganiserScopedInline, ScopedRelatedFilter, error_text
from league.models import Division, Entry, League, Season
from league import admin_site as cockpit
from league.web.setup_forms import NewLeagueForm


class NewLeagueAdminForm(CheckedModelForm):
    """The site's new-league step (``founding.create_league``, GB-4, GB-5): the
    league with its first season; the game's settings start at the rulebook's
    defaults and are edited on the league's page once it exists."""

    season_name = NewLeagueForm.base_fields["season_name"]
    start_date = NewLeagueForm.base_fields["start_date"]
    cadence_days = NewLeagueForm.base_fields["cadence_days"]
    double_round_robin = NewLeagueForm.base_fields["double_round_robin"]

    class Meta:
        model = League
        fields = ["name", "game_system", "description", "organisers"]


@admin.register(League)
class LeagueAdmin(OrganiserScopedAdmin):
    """Only a superuser chooses organisers: the widget would list every account of
    the site, and an organiser could hand their league to anyone. An organiser who
    adds a league becomes its organiser (``save_related``)."""
    cockpit_group = cockpit.EVERYDAY
    cockpit_rank = cockpit.LEAGUES

    league_lookup = ""
    list_display = ["name", "slug", "game_system"]
    list_filter = ["game_system"]
    search_fields = ["name", "slug"]
    filter_horizontal = ["organisers"]
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}  # the Discord webhook

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

    def get_form(self, request, obj=None, change=False, **kwargs):
        if obj is None:
            kwargs["form"] = NewLeagueAdminForm
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fields(self, request, obj=None):
        if obj is not None:
            return super().get_fields(request, obj)
        chosen = ["organisers"] if request.user.is_superuser else []
        return ["name", "game_system", "description", *chosen, "season_name", "start_date", "cadence_days",
                "double_round_robin"]

    def save_model(self, request, obj, form, change):
        if change:
            return super().save_model(request, obj, form, change)
        # The site's new-league step: the league, its game's settings at the rulebook's
        # defaults, its first season, its creator as an organiser (save_related keeps
        # a superuser's own choice of organisers).
        data = form.cleaned_data
        league = self.call_service(
            request, founding.create_league, by=request.user, name=obj.name, game_system=obj.game_system,
            description=obj.description, settings={}, season_name=data["season_name"], start_date=data["start_date"],
            cadence_days=data["cadence_days"], double_round_robin=data["double_round_robin"],
        )
        vars(obj).update(vars(league))  # the page's object is the saved league, for its organisers and the log

    @admin.display(description="Organisers")
    def organiser_names(self, obj: League) -> str:
        if obj.pk is None:
            return "You, once it is saved."
        return ", ".join(user.get_username() for user in obj.organisers.all()) or "–"


def _settings_inline(model) -> type[admin.StackedInline]:
    return type(
        f"{model.__name__}Inline",
        (BoundedInlineMixin, admin.StackedInline),
        {"model": model, "can_delete": False, "min_num": 1, "max_num": 1, "extra": 0},
    )


class DivisionInline(BoundedInlineMixin, admin.TabularInline):
    model = Division
    max_num = MAX_DIVISIONS  # DB-2
    extra = 0
    fields = ["name"]


class DivisionDrawForm(forms.Form):
    count = forms.IntegerField(label="Divisions", min_value=2, max_value=4, initial=2)
    seed = forms.IntegerField(
        required=False, min_value=0, max_value=2**31 - 1, help_text="Leave empty for a fresh draw; the same seed gives the same draw."
    )


class EntryAdminForm(CheckedModelForm):
    """LG-1 in the admin too: a new entry in a season whose fixtures exist would
    have no fixtures, so it is refused with the question the season set-up page asks."""

    class Meta:
        model = Entry
        fields = "__all__"

    def clean(self):
        data = super().clean()
        season = data.get("season") or (self.instance.season if self.instance.season_id else None)
        if self.instance._state.adding and season is not None and season_entrants.has_fixtures(season):
            raise ValidationError(season_entrants.question(season) + " Add them on the league's season set-up page.")
        return data


class EntryInline(OrganiserScopedInline, admin.TabularInline):
    """A season's entrants: a new one joins through ``season_entrants.place`` (LG-1,
    ``SeasonAdmin.save_formset``); one leaves with the entries' "Withdraw" action
    (LG-2), never by deleting its row."""

    model = Entry
    form = EntryAdminForm
    extra = 1
    fields = ["coach", "team", "division"]
    can_delete = False

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
    cockpit_group = cockpit.EVERYDAY
    cockpit_rank = cockpit.SEASONS
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

    def save_model(self, request, obj, form, change):
        if change:  # its name, or its schedule before the fixtures exist: the row's own edit
            return super().save_model(request, obj, form, change)
        # The site's "Open the next season": once the last one is over, with its
        # entrants (LG-3); a Dungeon Bowl league opens it on its re-draft page (DB-15).
        season = self.call_service(
            request, season_services.open_next_season, league=obj.league, by=request.user, name=obj.name,
            start_date=obj.start_date, cadence_days=obj.cadence_days, double_round_robin=obj.double_round_robin,
        )
        vars(obj).update(vars(season))

    def save_formset(self, request, form, formset, change):
        """LG-1: a new entrant joins through the site's service, as on the season
        set-up page; an existing entry's team or division is its row's own edit."""
        if formset.model is not Entry:
            return super().save_formset(request, form, formset, change)
        added = [entry_form for entry_form in formset.extra_forms
                 if entry_form.has_changed() and not formset._should_delete_form(entry_form)]
        formset.save_existing_objects()
        formset.new_objects = [
            self.call_service(request, season_entrants.place, by=request.user, **_entrant(entry_form, form.instance))
            for entry_form in added
        ]

    @admin.action(description="Draw divisions (random, before the fixtures)", permissions=["change"])
    def draw_divisions(self, request, queryset):
        """DB-2: a seeded random draw into 2 to 4 divisions of at least 4 entries."""
        return self.run_form_action(
            request,
            queryset,
            form_class=DivisionDrawForm,
            title="Draw divisions",
            intro="2 to 4 divisions, as equal in size as possible, never fewer than 4 entries each. "
            "To split them yourself, add divisions below the season and choose each entry's division.",
            apply=lambda season, data: season_services.draw_season_divisions(
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
                rounds = season_services.generate_fixtures(season=season, by=request.user)
            except (ValidationError, PermissionDenied) as exc:
                self.message_user(request, f"{season}: {error_text(exc)}", messages.ERROR)
            else:
                self.message_user(request, f"{season}: {len(rounds)} rounds of fixtures generated.", messages.SUCCESS)


def _entrant(form, season: Season) -> dict:
    """What ``season_entrants.place`` needs from an entry form's row."""
    data = form.cleaned_data
    return {"season": season, "coach": data["coach"], "team": data.get("team") or "", "division": data.get("division")}


class WithdrawForm(forms.Form):
    """Nothing to fill in: the page says what withdrawing does and asks to go ahead."""


@admin.register(Entry)
class EntryAdmin(OrganiserScopedAdmin):
    """Entrants join through ``season_entrants.place`` (LG-1) and leave through
    ``season_entrants.withdraw`` (LG-2), the site's services. An entry is never
    deleted here: that removed its unplayed fixtures without the withdrawal the
    tables and the fixtures page show (LG-2)."""

    form = EntryAdminForm
    cockpit_group = cockpit.EVERYDAY
    cockpit_rank = cockpit.ENTRIES
    league_lookup = "season__league"
    list_display = ["coach", "team", "season"]
    list_filter = [("season", ScopedRelatedFilter)]
    list_select_related = ["coach", "season__league"]
    search_fields = ["coach__name", "team"]
    actions = ["withdraw"]

    def get_readonly_fields(self, request, obj=None):
        # An entry's fixtures belong to its season: it never moves to another one.
        return ["season"] if obj is not None else []

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        if change:  # the team's name or the division: the row's own edit
            return super().save_model(request, obj, form, change)
        obj.pk = self.call_service(request, season_entrants.place, by=request.user, **_entrant(form, obj.season)).pk

    @admin.action(description="Withdraw from the season (LG-2)", permissions=["change"])
    def withdraw(self, request, queryset):
        """LG-2: approved results stand; fixtures without one are not played (kept,
        marked), any result not yet approved dropped. Before the fixtures exist the
        entry just leaves."""
        return self.run_form_action(
            request,
            queryset.select_related("coach", "season"),
            form_class=WithdrawForm,
            title="Withdraw from the season",
            intro="Each selected entrant leaves their season. Their approved results stand; their fixtures without an "
            "approved result are not played and count for nothing for either side: they stay listed as not "
            "played, any result not yet approved is dropped, and each opponent is told (LG-2). Before a season's fixtures exist, the entrant just leaves it.",
            apply=lambda entry, data: season_entrants.withdraw(entry=entry, by=request.user),
            done_message="{count} entrant(s) withdrawn.",
        )

    def get_queryset(self, request):
        return super().get_queryset(request).select_related(*self.list_select_related)

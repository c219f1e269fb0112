"""DreadBall in the admin: the published teams (shared by every league, so a
superuser adds and names them; a DreadBall organiser enters a published team's
roster from its Team Card, DR-5) and the coaches' teams with their rosters (scoped
to the organiser's leagues, like every league object; a new team starts with its
published team's roster)."""

from __future__ import annotations

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db.models import Count

from league.admin import OrganiserScopedAdmin, OrganiserScopedInline
from league.admin.scoping import BoundedInlineMixin, CheckedModelForm, SuperuserEditsAdminMixin
from league.dreadball.models import DreadBallResult, DreadBallTeam, PublishedPlayer, RosterPlayer, TeamType
from league.dreadball.services import add_player, refuse_published_team_change, register_team, replace_roster
from league.models import League
from league import admin_site as cockpit
from league.models import Entry


def enters_rosters(user, obj=None) -> bool:
    """DR-5: who enters a published team's roster from its Team Card: a superuser,
    or the organiser of a DreadBall league (they make the teams that copy it).
    Without ``obj`` (the admin's sidebar and lists, asked on every page) the
    permission to make DreadBall teams answers, already loaded; a published team's
    own page also asks that they organise a DreadBall league (one query, once a
    request)."""
    if not (user.is_active and user.is_staff and user.has_perm("dreadball.add_dreadballteam")):
        return False
    if obj is None or user.is_superuser:
        return True
    if not hasattr(user, "_organises_dreadball"):
        user._organises_dreadball = League.objects.organised_by(user).filter(game_system="dreadball").exists()
    return user._organises_dreadball


class PublishedPlayerInline(BoundedInlineMixin, admin.TabularInline):
    """A published team's roster lines (positions, stats, limits): every team made
    from the published team afterwards starts with them; teams made before keep
    their own copies."""

    model = PublishedPlayer
    fields = ["order", "name", "role", "move", "strength", "agility", "speed", "skill", "armour", "cost",
              "starting", "maximum"]
    extra = 0

    def has_add_permission(self, request, obj=None) -> bool:
        return enters_rosters(request.user, obj)

    def has_change_permission(self, request, obj=None) -> bool:
        return enters_rosters(request.user, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return enters_rosters(request.user, obj)

    def has_view_permission(self, request, obj=None) -> bool:
        return request.user.is_active and request.user.is_staff


@admin.register(TeamType)
class TeamTypeAdmin(SuperuserEditsAdminMixin, admin.ModelAdmin):
    """Published teams are the superuser's to add; a DreadBall organiser enters a
    published team's roster here (its name and race stay the superuser's)."""

    list_display = ["name", "race", "league", "roster_lines"]
    search_fields = ["name", "race"]
    inlines = [PublishedPlayerInline]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_roster_lines=Count("roster"))

    @admin.display(description="roster lines", ordering="_roster_lines")
    def roster_lines(self, obj: TeamType) -> int:
        return obj._roster_lines

    def has_change_permission(self, request, obj=None) -> bool:
        return enters_rosters(request.user, obj)

    def get_readonly_fields(self, request, obj=None):
        return [] if request.user.is_superuser else ["name", "race", "notes"]


class RosterPlayerInline(OrganiserScopedInline, admin.TabularInline):
    model = RosterPlayer
    fields = ["name", "role", "move", "strength", "agility", "speed", "skill", "armour", "cost"]
    extra = 0


class DreadBallTeamForm(CheckedModelForm):
    """DR-5: the published team changes only while the team has played no game
    (the service's own check, on the row as it is before the change)."""

    def clean_team_type(self):
        team_type = self.cleaned_data["team_type"]
        if self.instance.pk is not None and team_type.pk != self.instance.team_type_id:
            try:
                refuse_published_team_change(self.instance)
            except ValidationError as error:
                raise ValidationError(error.message_dict["team_type"]) from None
        return team_type


@admin.register(DreadBallTeam)
class DreadBallTeamAdmin(OrganiserScopedAdmin):
    cockpit_group = cockpit.EVERYDAY
    cockpit_rank = cockpit.TEAMS
    league_lookup = "entry__season__league"
    list_display = ["name", "team_type", "entry", "season"]
    list_filter = ["team_type"]
    list_select_related = ["team_type", "entry__coach", "entry__season__league"]
    search_fields = ["name", "entry__coach__name"]
    inlines = [RosterPlayerInline]
    form = DreadBallTeamForm

    def get_queryset(self, request):
        return super().get_queryset(request).select_related(*self.list_select_related)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "entry":
            # Only entries of DreadBall leagues field a DreadBall team.
            queryset = Entry.objects.filter(season__league__game_system="dreadball").select_related("coach", "season")
            scoped = self.scoped_choices(request, Entry)
            kwargs["queryset"] = queryset.filter(pk__in=scoped.values("pk")) if scoped is not None and not request.user.is_superuser else queryset
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        return ["entry"] if obj is not None else []

    @admin.display(description="season")
    def season(self, obj: DreadBallTeam) -> str:
        return str(obj.entry.season)

    # DR-5 through the site's own service (``services.register_team``): the team's
    # name and published team, the entry's name on the engine's pages, and a new
    # team's roster: the players typed here, else its published team's.

    def save_model(self, request, obj, form, change):
        if change:
            self.call_service(request, register_team, entry=obj.entry, name=obj.name, team_type=obj.team_type,
                              by=request.user)
        # A new team is registered with its typed players, once they are known (save_related).

    def save_related(self, request, form, formsets, change):
        if change:
            super().save_related(request, form, formsets, change)
            if "team_type" in form.changed_data:  # DR-5: before its first game (the form checked), the new one's
                replace_roster(form.instance)
            return
        team = form.instance
        typed = [_player(player_form) for formset in formsets for player_form in _added(formset)]
        registered = self.call_service(request, register_team, entry=team.entry, name=team.name,
                                       team_type=team.team_type, by=request.user, players=typed)
        team.pk = registered.pk
        for formset in formsets:  # saved by the service: the admin's log names no row
            formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []

    def save_formset(self, request, form, formset, change):
        """A player added to a team's roster is checked by ``services.add_player``
        (DR-5's bounds); correcting or removing one edits its row."""
        formset.save_existing_objects()
        formset.new_objects = [
            self.call_service(request, add_player, team=form.instance, by=request.user, **_player(player_form))
            for player_form in _added(formset)
        ]


def _added(formset) -> list:
    """The inline's new rows that were filled in and not ticked for deletion."""
    return [form for form in formset.extra_forms if form.has_changed() and not formset._should_delete_form(form)]


def _player(form) -> dict:
    return {field: form.cleaned_data[field] for field in RosterPlayerInline.fields}


@admin.register(DreadBallResult)
class DreadBallResultAdmin(OrganiserScopedAdmin):
    """Read-only: a result's details change only through the engine's result forms."""

    league_lookup = "result__fixture__round__season__league"
    list_display = ["result", "difference", "landslide", "rush", "sudden_death"]
    list_select_related = ["result__fixture__round", "result__fixture__home__coach", "result__fixture__away__coach"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

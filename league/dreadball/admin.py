"""DreadBall in the admin: the published teams (shared by every league, so a
superuser edits them and organisers read them) and the coaches' teams with their
rosters (scoped to the organiser's leagues, like every league object)."""

from __future__ import annotations

from django.contrib import admin

from league.admin import OrganiserScopedAdmin, OrganiserScopedInline
from league.dreadball.models import DreadBallResult, DreadBallTeam, RosterPlayer, TeamType
from league.dreadball.services import name_entry
from league.dungeonbowl.admin import SuperuserEditsAdminMixin


@admin.register(TeamType)
class TeamTypeAdmin(SuperuserEditsAdminMixin, admin.ModelAdmin):
    list_display = ["name", "race"]
    search_fields = ["name", "race"]


class RosterPlayerInline(OrganiserScopedInline, admin.TabularInline):
    model = RosterPlayer
    fields = ["name", "role", "move", "strength", "agility", "speed", "skill", "armour", "cost"]
    extra = 0


@admin.register(DreadBallTeam)
class DreadBallTeamAdmin(OrganiserScopedAdmin):
    league_lookup = "entry__season__league"
    list_display = ["name", "team_type", "entry", "season"]
    list_filter = ["team_type"]
    list_select_related = ["team_type", "entry__coach", "entry__season__league"]
    search_fields = ["name", "entry__coach__name"]
    inlines = [RosterPlayerInline]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related(*self.list_select_related)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "entry":
            # Only entries of DreadBall leagues field a DreadBall team.
            from league.models import Entry

            queryset = Entry.objects.filter(season__league__game_system="dreadball").select_related("coach", "season")
            scoped = self.scoped_choices(request, Entry)
            kwargs["queryset"] = queryset.filter(pk__in=scoped.values("pk")) if scoped is not None and not request.user.is_superuser else queryset
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        return ["entry"] if obj is not None else []

    @admin.display(description="season")
    def season(self, obj: DreadBallTeam) -> str:
        return str(obj.entry.season)

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        name_entry(obj)  # the engine's pages show Entry.team


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

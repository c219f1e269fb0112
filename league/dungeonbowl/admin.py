"""The colleges (DB-7) and skills (DB-11) in the admin: shared by every league, so a
superuser adds and edits them (the six supplement colleges, their skills) and
organisers may only read them.

Team, player, Treasury and dice pages come with the league engine's Dungeon Bowl
wiring; the Treasury and the dice log are append-only and will stay read-only.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count
from django.utils.text import slugify

from league.admin.scoping import (
    BoundedInlineMixin, BoundedSelectionMixin, CheckedModelForm, OrganiserScopedAdmin, SuperuserEditsAdminMixin,
    error_text,
)
from league.dungeonbowl.teams import services
from league.dungeonbowl.models import (
    GAME_SYSTEM, College, DiceRoll, Honour, Player, PlayoffGame, PlayoffTie, Position, PositionGroup, Redraft,
    Skill, Team, TeamSeason, TreasuryLine, target,
)
from league.models import Division, League, Season
from league.text.words import thousands
from league import admin_site as cockpit


def gold(field: str, description: str, *, signed: bool = False):
    """A list column showing ``field`` in gp with thousands separators, as the
    site does ("590,000 gp")."""

    @admin.display(description=description, ordering=field)
    def column(obj) -> str:
        value = getattr(obj, field)
        return "" if value is None else f"{thousands(value, signed=signed)} gp"

    column.__name__ = f"{field}_gp"
    return column


class PositionGroupInline(BoundedInlineMixin, SuperuserEditsAdminMixin, admin.TabularInline):
    model = PositionGroup
    fields = ["order", "name", "max_count"]
    extra = 0


class PositionInline(BoundedInlineMixin, SuperuserEditsAdminMixin, admin.TabularInline):
    model = Position
    fields = ["order", "group", "name", "cost", "ma", "st", "ag", "pa", "av", "skills", "primary", "secondary"]
    extra = 0

    def get_formset(self, request, obj=None, **kwargs):
        # A position's group must be one of its own college's groups.
        request._dungeonbowl_college = obj
        return super().get_formset(request, obj, **kwargs)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "group":
            college = getattr(request, "_dungeonbowl_college", None)
            kwargs["queryset"] = PositionGroup.objects.filter(college=college) if college else PositionGroup.objects.none()
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


@admin.register(College)
class CollegeAdmin(SuperuserEditsAdminMixin, admin.ModelAdmin):
    list_display = ["name", "wizard", gold("reroll_cost", "re-roll cost"), "position_count"]
    search_fields = ["name", "wizard"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [PositionGroupInline, PositionInline]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_positions=Count("positions"))

    @admin.display(description="positions", ordering="_positions")
    def position_count(self, obj: College) -> int:
        return obj._positions

    def get_inlines(self, request, obj):
        # Positions need the college's groups: add the college and its groups first.
        return [PositionGroupInline] if obj is None else self.inlines


@admin.register(Position)
class PositionAdmin(SuperuserEditsAdminMixin, admin.ModelAdmin):
    list_display = ["name", "college", "group", gold("cost", "cost"), "ma", "st", "ag_label", "pa_label", "av_label", "skills_label"]
    list_filter = ["college"]
    list_select_related = ["college", "group"]
    search_fields = ["name", "college__name"]

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "group":
            kwargs["queryset"] = PositionGroup.objects.select_related("college")
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if db_field.name == "group":
            field.label_from_instance = lambda group: f"{group.college}: {group}"
        return field

    @admin.display(description="AG", ordering="ag")
    def ag_label(self, obj: Position) -> str:
        return target(obj.ag)

    @admin.display(description="PA", ordering="pa")
    def pa_label(self, obj: Position) -> str:
        return target(obj.pa)

    @admin.display(description="AV", ordering="av")
    def av_label(self, obj: Position) -> str:
        return target(obj.av)

    @admin.display(description="skills")
    def skills_label(self, obj: Position) -> str:
        return obj.skills_label


@admin.register(Skill)
class SkillAdmin(SuperuserEditsAdminMixin, admin.ModelAdmin):
    """DB-11: the skills a chosen advancement picks from, shared by every league."""

    list_display = ["name", "category"]
    list_filter = ["category"]
    search_fields = ["name"]


# A league's teams, players, Treasury and dice, scoped to the organiser's leagues -------


class ReadOnlyAdminMixin:
    """Append-only records (DB-6 ledger, DB-16 dice log): seen, never edited here."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class TeamSeasonInline(BoundedInlineMixin, ReadOnlyAdminMixin, admin.TabularInline):
    model = TeamSeason
    fields = ["entry", "season", "division"]
    readonly_fields = fields
    extra = 0
    verbose_name_plural = "seasons entered (enter a team with the action on the team list)"

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("entry__season", "entry__division", "entry__coach")

    @admin.display(description="season")
    def season(self, obj: TeamSeason) -> str:
        return obj.entry.season.name

    @admin.display(description="division")
    def division(self, obj: TeamSeason) -> str:
        return obj.entry.division.name if obj.entry.division_id else "-"


class NewTeamAdminForm(CheckedModelForm):
    """A team founded from the admin goes through ``services.create_team``."""

    class Meta:
        model = Team
        fields = ["league", "coach", "college", "name"]

    def clean(self):
        data = super().clean()
        league = data.get("league")
        if league is not None and league.game_system != GAME_SYSTEM:
            raise forms.ValidationError(f"{league} is not a Dungeon Bowl league.")
        coach, name = data.get("coach"), (data.get("name") or "").strip()
        if league is not None and coach is not None and Team.objects.filter(league=league, coach=coach).exists():
            raise forms.ValidationError(f"{coach} already coaches a team in {league}; a coach fields one team a league.")
        if league is not None and name and Team.objects.filter(league=league, slug=slugify(name)).exists():
            raise forms.ValidationError(f"A team called {name} already plays in {league}.")
        return data


@admin.register(Team)
class TeamAdmin(OrganiserScopedAdmin):
    """The organiser's view of the teams: founded here or by the coach, drafted on
    the site, entered in a season with the action (DB-1, DB-2)."""
    cockpit_group = cockpit.EVERYDAY
    cockpit_rank = cockpit.TEAMS

    league_lookup = "league"
    list_display = ["name", "league", "college", "coach", "rerolls", "draft_state"]
    list_filter = ["college"]
    list_select_related = ["league", "college", "coach"]
    search_fields = ["name", "coach__name", "league__name"]
    inlines = [TeamSeasonInline]
    actions = ["enter_in_season", "lock_drafts"]

    def get_inlines(self, request, obj):
        return [] if obj is None else self.inlines

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            kwargs["form"] = NewTeamAdminForm
        return super().get_form(request, obj, **kwargs)

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["league", "coach", "college", "name"]
        return ["league", "coach", "college", "name", "slug", "rerolls", "draft_budget", "draft_submitted_at",
                "draft_locked_at", "draft_locked_by", "accepted_at", "accepted_by"]

    def get_readonly_fields(self, request, obj=None):
        # Rosters, re-rolls and gold change through the services (draft, spend) only.
        return [] if obj is None else self.get_fields(request, obj)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "league":
            kwargs["queryset"] = League.objects.organised_by(request.user).filter(game_system=GAME_SYSTEM)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request, obj, form, change):
        if change:
            return
        # The form checked what it could; the service's refusal is shown, nothing written.
        team = self.call_service(request, services.create_team, league=obj.league, coach=obj.coach, name=obj.name,
                                 college=obj.college, by=request.user)
        obj.pk, obj.slug = team.pk, team.slug

    @admin.display(description="draft")
    def draft_state(self, obj: Team) -> str:
        if obj.draft_locked:
            return "locked"
        state = "submitted" if obj.draft_submitted_at else "not drafted"
        return state if obj.accepted else f"{state}, waits for acceptance (DB-1)"

    @admin.action(description="Enter the selected teams in a season (and division)")
    def enter_in_season(self, request, queryset):
        leagues = queryset.values("league")
        season_choices = Season.objects.filter(league__in=leagues).select_related("league")
        division_choices = Division.objects.filter(season__league__in=leagues).select_related("season")

        class EnterForm(forms.Form):
            season = forms.ModelChoiceField(queryset=season_choices)
            division = forms.ModelChoiceField(queryset=division_choices, required=False,
                                              help_text="Needed when the season has divisions (DB-2).")

        return self.run_form_action(
            request, queryset, form_class=EnterForm, title="Enter teams in a season",
            apply=lambda team, data: services.enter_team(team=team, season=data["season"],
                                                         division=data["division"], by=request.user),
            done_message="{count} team(s) entered.",
        )

    @admin.action(description="Lock the selected teams' submitted drafts")
    def lock_drafts(self, request, queryset):
        done = 0
        for team in queryset:
            try:
                services.lock_draft(team=team, by=request.user)
            except (ValidationError, PermissionDenied) as error:
                self.message_user(request, f"{team}: {error_text(error)}", messages.ERROR)
            else:
                done += 1
        if done:
            self.message_user(request, f"{done} draft(s) locked.", messages.SUCCESS)


class PlayerAdminForm(CheckedModelForm):
    def clean_number(self) -> int:
        """dbplayer_number_unique_on_draft_list, said in words, not an IntegrityError."""
        number = self.cleaned_data["number"]
        player = self.instance
        if player.status == Player.Status.ACTIVE:
            taken = Player.objects.on_draft_list().filter(team_id=player.team_id, number=number).exclude(pk=player.pk).first()
            if taken is not None:
                raise forms.ValidationError(f"{taken.name} already wears number {number} on this team's draft list.")
        return number


@admin.register(Player)
class PlayerAdmin(OrganiserScopedAdmin):
    """Players are hired, fired and advanced through the services; the organiser
    may correct a name or a number here."""

    league_lookup = "team__league"
    list_display = ["name", "number", "team", "position", "spp", "mvp_awards", "niggling_injuries",
                    "miss_next_game", "status"]
    list_filter = ["status", "miss_next_game"]
    list_select_related = ["team", "position"]
    search_fields = ["name", "team__name"]
    fields = ["team", "name", "number", "position", "status", "ma", "st", "ag", "pa", "av", "skills_gained",
              "advancements", "value_increase", "spp", "mvp_awards", "niggling_injuries", "miss_next_game"]
    readonly_fields = [f for f in fields if f not in ("name", "number")]
    form = PlayerAdminForm

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(TreasuryLine)
class TreasuryLineAdmin(ReadOnlyAdminMixin, OrganiserScopedAdmin):
    cockpit_group = cockpit.LEDGERS
    league_lookup = "team__league"
    list_display = ["created_at", "team", "kind", gold("amount", "amount", signed=True), "reason"]
    list_filter = ["kind"]
    list_select_related = ["team"]
    search_fields = ["team__name", "reason"]

    def has_view_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_staff and self.is_in_scope(request, obj)


@admin.register(DiceRoll)
class DiceRollAdmin(ReadOnlyAdminMixin, OrganiserScopedAdmin):
    cockpit_group = cockpit.LEDGERS
    league_lookup = "league"
    list_display = ["created_at", "league", "team", "purpose", "dice", "values", "source", "entered_by"]
    list_filter = ["purpose", "source"]
    list_select_related = ["league", "team", "entered_by"]
    search_fields = ["team__name", "description"]

    def has_view_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_staff and self.is_in_scope(request, obj)


# The play-off season (DB-5b, DB-14): written by the play-offs page and the result
# workflow, so that a bracket, its settled ties and the honours stay consistent.


class _ScopedReadOnly(ReadOnlyAdminMixin, OrganiserScopedAdmin):
    league_lookup = "season__league"

    def has_view_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_staff and self.is_in_scope(request, obj)


@admin.register(PlayoffGame)
class PlayoffGameAdmin(_ScopedReadOnly):
    list_display = ["season", "slot", "fixture"]
    list_filter = ["slot"]
    list_select_related = ["season", "fixture__round", "fixture__home__coach", "fixture__away__coach"]


@admin.register(PlayoffTie)
class PlayoffTieAdmin(_ScopedReadOnly):
    list_display = ["created_at", "season", "where", "places", "teams", "how", "reason", "created_by"]
    list_filter = ["how"]
    list_select_related = ["season", "created_by"]


@admin.register(Honour)
class HonourAdmin(_ScopedReadOnly):
    list_display = ["season", "placing", "team", gold("prize", "prize")]
    list_filter = ["placing"]
    list_select_related = ["season", "team"]


@admin.register(Redraft)
class RedraftAdmin(ReadOnlyAdminMixin, OrganiserScopedAdmin):
    """DB-15: the off-season of each team, read-only here: its steps (and their
    corrections) run on the team's re-draft page so the ledger and the dice log
    stay consistent."""

    league_lookup = "team__league"
    list_display = ["team", "season", "step", gold("budget", "budget"), "updated_at"]
    list_filter = ["step"]
    list_select_related = ["team", "season"]
    search_fields = ["team__name"]

    def has_view_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_staff and self.is_in_scope(request, obj)

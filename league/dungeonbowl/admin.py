"""The colleges in the admin (DB-7): shared by every league, so a superuser adds and
edits them (the six supplement colleges) and organisers may only read them.

Team, player, Treasury and dice pages come with the league engine's Dungeon Bowl
wiring; the Treasury and the dice log are append-only and will stay read-only.
"""

from __future__ import annotations

from django.contrib import admin

from league.dungeonbowl.models import College, Position, PositionGroup, target


class SuperuserEditsAdminMixin:
    """Edited by a superuser, read by any staff user (organisers)."""

    def has_add_permission(self, request, obj=None) -> bool:
        return request.user.is_superuser

    def has_change_permission(self, request, obj=None) -> bool:
        return request.user.is_superuser

    def has_delete_permission(self, request, obj=None) -> bool:
        return request.user.is_superuser

    def has_view_permission(self, request, obj=None) -> bool:
        return request.user.is_active and request.user.is_staff


class PositionGroupInline(SuperuserEditsAdminMixin, admin.TabularInline):
    model = PositionGroup
    fields = ["order", "name", "max_count"]
    extra = 0


class PositionInline(SuperuserEditsAdminMixin, admin.TabularInline):
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
    list_display = ["name", "wizard", "reroll_cost", "position_count"]
    search_fields = ["name", "wizard"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [PositionGroupInline, PositionInline]

    def get_queryset(self, request):
        from django.db.models import Count

        return super().get_queryset(request).annotate(_positions=Count("positions"))

    @admin.display(description="positions", ordering="_positions")
    def position_count(self, obj: College) -> int:
        return obj._positions

    def get_inlines(self, request, obj):
        # Positions need the college's groups: add the college and its groups first.
        return [PositionGroupInline] if obj is None else self.inlines


@admin.register(Position)
class PositionAdmin(SuperuserEditsAdminMixin, admin.ModelAdmin):
    list_display = ["name", "college", "group", "cost", "ma", "st", "ag_label", "pa_label", "av_label", "skills_label"]
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

"""Tables on one shared base (STYLE habit 9)."""

from __future__ import annotations

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html


class BaseTable(tables.Table):
    """Shared look: a scrollable, phone-friendly table with numeric columns right-aligned."""

    class Meta:
        attrs = {"class": "table"}
        template_name = "django_tables2/table.html"
        orderable = True


def num(verbose_name: str, **kwargs) -> tables.Column:
    return tables.Column(verbose_name=verbose_name, attrs={"td": {"class": "num"}, "th": {"class": "num"}}, **kwargs)


class StandingsTable(BaseTable):
    """GB-9 order by default: the ``position`` column sorts by the tiebreak keys
    (LP, then VP scored, then VP difference, then name for shared positions)."""

    position = tables.Column(verbose_name="Pos", accessor="position_label", order_by=("position", "coach"))
    movement = tables.Column(verbose_name="±", empty_values=(), orderable=False, attrs={"td": {"class": "hide-sm"}, "th": {"class": "hide-sm"}})
    coach = tables.Column(verbose_name="Coach")
    team = tables.Column(verbose_name="Guild", attrs={"td": {"class": "hide-sm"}, "th": {"class": "hide-sm"}})
    played = num("P")
    won = num("W")
    lost = num("L")
    lp = num("LP", order_by=("-lp", "-score_for", "-score_diff", "coach"))
    score_for = num("VP+", order_by=("-score_for", "coach"))
    score_against = num("VP−", order_by=("score_against", "coach"))
    score_diff = num("VP±", order_by=("-score_diff", "coach"))
    note = tables.Column(verbose_name="Tiebreak", orderable=False, default="", attrs={"td": {"class": "muted hide-sm"}, "th": {"class": "hide-sm"}})

    class Meta(BaseTable.Meta):
        order_by = "position"

    def __init__(self, data, *, league, season=None, **kwargs):
        super().__init__(data, **kwargs)
        self.league = league
        self.season = season
        label = league.rules.score_label
        self.columns["score_for"].column.verbose_name = f"{label}+"
        self.columns["score_against"].column.verbose_name = f"{label}−"
        self.columns["score_diff"].column.verbose_name = f"{label}±"

    def render_coach(self, record, value):
        url = reverse("league:coach_detail", args=[self.league.slug, record.coach_id])
        if self.season is not None:
            url += f"?season={self.season.name}"
        return format_html('<a href="{}">{}</a>', url, value)

    def render_movement(self, record):
        if not record.movement:
            return ""
        if record.movement > 0:
            return format_html('<span class="up" title="up {} since the previous round">▲{}</span>', record.movement, record.movement)
        return format_html('<span class="down" title="down {} since the previous round">▼{}</span>', -record.movement, -record.movement)

    def render_score_diff(self, value):
        return f"{value:+d}"

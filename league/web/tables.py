"""Tables on one shared base (STYLE habit 9)."""

from __future__ import annotations

from urllib.parse import urlencode

import django_tables2 as tables
from django_tables2.utils import OrderByTuple
from django.utils.formats import date_format
from django.utils.html import format_html

from league.tables import HIDE_SM, IDENT, BaseTable, num
from league.templatetags.site_tags import badge


class StandingsTable(BaseTable):
    """Any game's standings (GB-9, DB-5a, DR-4). The default order is the game's:
    the ``position`` column sorts by division, then position (League Points and the
    game's tiebreak keys), then name for shared positions. The game's own figures
    (VP, touchdowns, Strike Difference) are added as columns from its rules."""

    position = tables.Column(verbose_name="Pos", accessor="position_label", order_by=("division", "position", "name"))
    movement = tables.Column(verbose_name="±", empty_values=(), orderable=False, attrs=HIDE_SM)
    division = tables.Column(verbose_name="Division", default="")
    coach = tables.Column(verbose_name="Coach", attrs=IDENT)
    team = tables.Column(verbose_name="Team", attrs=HIDE_SM)
    played = num("P")
    won = num("W")
    drawn = num("D")
    lost = num("L")
    lp = num("LP")
    note = tables.Column(verbose_name="Tiebreak", orderable=False, default="", attrs={"td": {"class": "muted hide-sm"}, "th": {"class": "hide-sm"}})

    class Meta(BaseTable.Meta):
        order_by = "position"

    def __init__(self, data, *, league, season=None, **kwargs):
        rules = league.rules
        data = list(data)
        extra = [
            (stat.key, num(stat.short, accessor=f"stats__{stat.key}", order_by=(f"-stats__{stat.key}", "name")))
            for stat in rules.stats
        ]
        exclude = list(kwargs.pop("exclude", ()))
        if not rules.allows_draws:
            exclude.append("drawn")
        if not any(row.division for row in data):
            exclude.append("division")
        if not any(row.note for row in data):
            exclude.append("note")
        if rules.rows_named_by_team:
            # The team identifies the row, its coach under it: one
            # column, kept on a phone.
            exclude.append("coach")
        names = ("team", "coach") if rules.rows_named_by_team else ("coach", "team")
        sequence = ("position", "movement", "division", *names, "played", "won", "drawn", "lost", "lp", *(k for k, _ in extra), "note")
        super().__init__(data, extra_columns=extra, exclude=exclude, sequence=sequence, **kwargs)
        self.league = league
        self.season = season
        self.rules = rules
        self.columns["team"].column.verbose_name = rules.entry_label
        if rules.rows_named_by_team:
            self.columns["team"].column.attrs = IDENT
        self.columns["lp"].column.order_by = OrderByTuple(
            ("division", "-lp", *(f"-stats__{key}" for key in rules.tiebreakers), "name")
        )
        self.signed = {stat.key for stat in rules.stats if stat.signed}
        for key in self.signed:
            self.columns[key].column.render = self._render_signed

    @staticmethod
    def _render_signed(value):
        return f"{value:+d}"

    def _link(self, record, value):
        url = self.rules.row_url(self.league, record)
        if self.season is not None:
            url += "?" + urlencode({"season": self.season.name})
        return format_html('<a href="{}">{}</a>', url, value)

    @staticmethod
    def _withdrew(record) -> str:
        """LG-2: the row of an entrant who withdrew stays, marked with the day."""
        if record.withdrawn_on is None:
            return ""
        return format_html(' <small class="withdrew">withdrew {}</small>', date_format(record.withdrawn_on, "j M"))

    def render_coach(self, record, value):
        if self.rules.rows_named_by_team:
            return value
        return format_html("{}{}", self._link(record, value), self._withdrew(record))

    def render_team(self, record, value):
        # The team's colour badge wherever its name appears (league/templatetags/site_tags.py).
        if self.rules.rows_named_by_team:
            return format_html('<span class="side">{}<small>{}</small></span>{}', self._link(record, badge(value)),
                               record.coach, self._withdrew(record))
        return badge(value)

    def render_movement(self, record):
        if not record.movement:
            return ""
        if record.movement > 0:
            return format_html('<span class="up" title="up {} since the previous round">▲{}</span>', record.movement, record.movement)
        return format_html('<span class="down" title="down {} since the previous round">▼{}</span>', -record.movement, -record.movement)

"""The campaign table, on the league's shared table base (STYLE habit 9)."""

from __future__ import annotations

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html

from league.tables import IDENT, BaseTable, num
from league.templatetags.site_tags import badge, mark


class CampaignTable(BaseTable):
    """One row per coach in standings order (GB-9); the other columns sort by the
    campaign's own figures, most first, standings order breaking ties."""

    position = tables.Column(verbose_name="Pos", order_by=("rank", "name"))
    name = tables.Column(verbose_name="Coach", order_by=("name",), attrs=IDENT)
    guild = tables.Column(verbose_name="Guild", default="–", attrs={"td": {"class": "hide-sm"}, "th": {"class": "hide-sm"}})
    lp = num("LP", order_by=("-lp", "rank"))
    cp = num("CP", order_by=("-cp", "rank"))
    moments = num("Moments", order_by=("-moments", "rank"))
    next_moment = tables.Column(verbose_name="Next Moment", order_by=("cp_needed", "rank"), default="")
    favours_balance = num("Favours", order_by=("-favours_balance", "rank"))
    favours_spent = num("Spent", order_by=("-favours_spent", "rank"))

    class Meta(BaseTable.Meta):
        order_by = "position"
        empty_text = "No coaches in this campaign yet."

    def __init__(self, data, *, league, can_open=lambda coach_id: False, **kwargs):
        super().__init__(data, **kwargs)
        self.league = league
        self.can_open = can_open

    def render_name(self, record, value):
        """The coach's campaign page for that coach and the Longshanks; their public
        league page for everyone else."""
        if self.can_open(record.coach_id):
            url = reverse("campaigns:coach_page", args=[self.league.slug, record.coach_id])
        else:
            url = reverse("league:coach_detail", args=[self.league.slug, record.coach_id])
        # The Guild's colour mark: the Guild column is hidden on a phone.
        return format_html('{}<a href="{}">{}</a>', mark(record.guild), url, value)

    def render_guild(self, value):
        return badge(value)

    def render_next_moment(self, record, value):
        return format_html('{} <span class="muted">({} CP to go)</span>', value, record.cp_needed)

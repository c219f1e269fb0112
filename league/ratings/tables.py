"""The ranking of a game (RT-1, RT-4) on the shared base table."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.html import format_html

from league.tables import IDENT, BaseTable, num
from league.ratings import glicko2


def profile_path(coach_id: int) -> str:
    """A coach's profile across leagues and seasons (``/coaches/<id>/``), where the
    rating's history is drawn; a plain path, as the profile pages name it."""
    return f"/coaches/{coach_id}/"


class RatingTable(BaseTable):
    place = num("#", order_by=("place",))
    coach = tables.Column(verbose_name="Coach", accessor="coach__name", order_by=("coach__name", "coach_id"),
                          attrs=IDENT)
    rating = num("Rating", order_by=("-rating", "place"))
    rd = num("RD", order_by=("rd", "place"))
    games = num("Games", order_by=("-games", "place"))
    volatility = tables.Column(verbose_name="Volatility", order_by=("-volatility", "place"),
                               attrs={"td": {"class": "num hide-sm"}, "th": {"class": "num hide-sm"}})

    class Meta(BaseTable.Meta):
        order_by = "place"

    def render_coach(self, record, value):
        return format_html('<a href="{}">{}</a>', profile_path(record.coach_id), value)

    @staticmethod
    def render_rating(record, value):
        if glicko2.provisional(record.rd):
            return format_html('{} <abbr class="provisional" title="Provisional: the rating deviation is above 110">'
                               'P</abbr>', f"{value:.0f}")
        return f"{value:.0f}"

    @staticmethod
    def render_rd(value):
        return f"{value:.0f}"

    @staticmethod
    def render_volatility(value):
        return f"{value:.4f}"

"""The leaderboard table of the records pages, on the site's shared base table
(league/web/tables.py)."""

from __future__ import annotations

from urllib.parse import urlencode

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html

from league.tables import HIDE_SM, IDENT, BaseTable, num


class LeaderboardTable(BaseTable):
    """One leaderboard (league/records/boards.py): the row's place, its name (a
    player's or a team's with the coach beside it, or the coach's) and the board's
    columns. The rows are one page, already sorted and sliced in the database
    (``Board.sorted_rows``); a header links to the board sorted by its column,
    largest first, and again for smallest first."""

    rank = tables.Column(verbose_name="#", orderable=False, attrs={"td": {"class": "num muted"}, "th": {"class": "num"}})

    class Meta(BaseTable.Meta):
        order_by_field = "sort"
        page_field = "page"

    def __init__(self, lines, *, board, places, sort: str, **kwargs):
        self.places = places
        named = [("name", tables.Column(verbose_name=board.named, attrs=IDENT))] if not board.by_coach else []
        coach = [("coach", tables.Column(verbose_name="Coach", attrs=HIDE_SM if named else IDENT))]
        figures = [
            (column.key, tables.Column(verbose_name=column.label, attrs=HIDE_SM) if column.text
             else num(column.label, order_by=(f"-{column.key}",)))
            for column in board.columns
        ]
        super().__init__(lines, extra_columns=named + coach + figures, **kwargs)
        # The rows came sorted from the database; this marks the header and, for a
        # list, sorts the page the same way (the figures' order puts largest first).
        self.order_by = sort

    def render_coach(self, value, record):
        place = self.places.get(record["coach_id"])
        if place is None:
            return value
        slug, season = place
        return format_html('<a href="{}?{}">{}</a>', reverse("league:coach_detail", args=[slug, record["coach_id"]]),
                           urlencode({"season": season}), value)

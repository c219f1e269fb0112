"""The one base every table of the site builds on (STYLE habit 9): the engine's
pages', the ratings', the records', a game's and a layer's."""

from __future__ import annotations

import django_tables2 as tables


class BaseTable(tables.Table):
    """Shared look: a scrollable, phone-friendly table with numeric columns right-aligned."""

    class Meta:
        attrs = {"class": "table"}
        template_name = "league/_table.html"
        orderable = True

    def body(self):
        """The shown rows for ``league/_table.html``: each as its ``<tr>`` attributes
        and its cells, each cell with its ``<td>`` attributes. django-tables2 works
        out a column's attributes again for every cell (th, td and footer alike),
        two fifths of rendering a 50-row standings table; no column
        here computes them from the row, so once per column gives the same page."""
        columns = list(self.columns)
        cells = [column.attrs["td"].as_html() for column in columns]
        for row in self.paginated_rows:
            yield row.attrs.as_html(), [(td, row.get_cell(column.name)) for column, td in zip(columns, cells)]


HIDE_SM = {"td": {"class": "hide-sm"}, "th": {"class": "hide-sm"}}
# The column that names a row (the coach, or the team in Dungeon Bowl): kept on a
# phone and held in view while the figures scroll under it.
IDENT = {"td": {"class": "ident"}, "th": {"class": "ident"}}


def num(verbose_name: str, **kwargs) -> tables.Column:
    return tables.Column(verbose_name=verbose_name, attrs={"td": {"class": "num"}, "th": {"class": "num"}}, **kwargs)

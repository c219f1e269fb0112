"""The shared table template (``league/_table.html``): django-tables2's own markup,
with each column's cell attributes worked out once (``BaseTable.body``)."""

import re

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory
from django_tables2 import RequestConfig

from campaigns.selectors import campaign_of, campaign_rows
from campaigns.web.tables import CampaignTable
from league.standings.season import standings_for
from league.web.tables import BaseTable, StandingsTable
from tests.support.builders import season_with_results
from tests.campaigns.factories import make_campaign

pytestmark = pytest.mark.django_db

RENDER = "{% load render_table from django_tables2 %}{% render_table table %}"


def _page(table, template: str, query: dict) -> str:
    """The table as a page of 3 rows sorted by ``query``, rendered with ``template``,
    blank space folded as the league page folds it."""
    from django.template import engines

    request = RequestFactory().get("/", query)
    table.template_name = template
    RequestConfig(request, paginate={"per_page": 3}).configure(table)
    html = engines["django"].from_string(RENDER).render({"table": table, "request": request})
    return re.sub(r"\s+", " ", html).replace("> <", "><")


@pytest.mark.parametrize("query", [{}, {"sort": "-lp"}, {"sort": "coach", "page": 2}])
def test_a_standings_table_is_the_markup_django_tables2_gives(query):
    season = season_with_results(coaches=6, played_rounds=3)
    standings = standings_for(season)
    made = lambda: StandingsTable(list(standings), league=season.league, season=season)  # noqa: E731
    ours = _page(made(), "league/_table.html", query)
    assert ours == _page(made(), "django_tables2/table.html", query)
    assert ours.count("<tr") == 4 and 'class="pagination"' in ours


def test_a_campaign_table_is_the_markup_django_tables2_gives(season, organiser):
    make_campaign(season, 5, organiser=organiser)
    rows = campaign_rows(campaign_of(season))
    made = lambda: CampaignTable(rows, league=season.league)  # noqa: E731
    for query in ({}, {"sort": "-cp", "page": 2}):
        assert _page(made(), "league/_table.html", query) == _page(made(), "django_tables2/table.html", query)


def test_no_column_works_out_its_cell_attributes_from_the_row():
    """``BaseTable.body`` works a column's ``td`` attributes out once: a table whose
    cell attributes depend on the row (a callable) needs django-tables2's template."""
    from league.ratings.tables import RatingTable
    from league.records.tables import LeaderboardTable

    tables = [StandingsTable, CampaignTable, RatingTable, LeaderboardTable]
    assert {t for t in BaseTable.__subclasses__()} <= set(tables)
    for table in tables:
        for column in table.base_columns.values():
            for part in ("td", "cell"):
                assert not any(callable(v) for v in column.attrs.get(part, {}).values()), (table, column)

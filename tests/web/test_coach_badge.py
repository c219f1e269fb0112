"""A coach's badge (initial and colour) is decided once, from the coach's id
(league/templatetags/site_tags.py ``coach_badge``): the same on every page that
shows it and in the chart's line, whatever the name, and two coaches who share a
name keep their own."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse

from league.models import Coach
from league.templatetags import site_tags
from league.web import charts
from tests.support.builders import season_with_results
from tests.support.factories import LeagueFactory, SeasonFactory

pytestmark = pytest.mark.django_db


def marks(page: str, name: str) -> set[tuple[str, str]]:
    """The (colour class, letter) of every badge written right before ``name``."""
    return set(re.findall(rf'<span class="badge (b\d+)" aria-hidden="true">(\w)</span>{re.escape(name)}<', page))


def test_the_same_coach_has_the_same_badge_on_every_page_and_in_the_chart(client, organiser):
    league = LeagueFactory(slug="badges", organisers=[organiser])
    season = season_with_results(coaches=4, played_rounds=2, season=SeasonFactory(league=league, start_date=datetime.date(2020, 1, 6)))
    coach = Coach.objects.filter(entries__season=season).order_by("pk").last()
    coach.name = "Ivy Thorne"
    coach.save()
    expected = {(f"b{coach.pk % site_tags.BADGE_COLOURS}", "I")}
    client.force_login(organiser)
    for name in ("organiser_coaches", "season_setup"):
        page = client.get(reverse(f"league:{name}", args=[league.slug])).content.decode()
        assert marks(page, "Ivy Thorne") == expected, name
    page = client.get(reverse("league:league_detail", args=[league.slug])).content.decode()
    line = re.search(r'<g class="series" data-name="Ivy Thorne"><polyline points="[^"]+" fill="none" stroke="(#\w+)"', page)
    assert line.group(1) == charts.PALETTE[coach.pk % site_tags.BADGE_COLOURS]


def test_two_coaches_who_share_a_name_keep_their_own_badge():
    # Two organisers' leagues may each have a Sam Smith: two rows, two ids.
    one, other = Coach(pk=41, name="Sam Smith"), Coach(pk=42, name="Sam Smith")
    assert site_tags.coach_badge(one) != site_tags.coach_badge(other)
    renamed = site_tags.coach_badge(one)
    one.name = "Sam Smyth"
    assert site_tags.coach_badge(one).split('">')[0] == renamed.split('">')[0]  # renamed, same colour
    assert site_tags.coach_badge(None) == ""

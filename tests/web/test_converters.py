"""Ids in URLs are bounded to 64 bits: a longer one is a 404, not an OverflowError."""

from __future__ import annotations

import pytest
from django.urls import NoReverseMatch, URLPattern, URLResolver, get_resolver, reverse

from league.web.converters import MAX_ID, BoundedIdConverter
from tests.support.factories import CoachFactory, LeagueFactory

pytestmark = pytest.mark.django_db

HUGE = "9" * 30


@pytest.mark.parametrize(
    "url",
    [
        f"/fixtures/{HUGE}/",
        f"/fixtures/{MAX_ID + 1}/",
        f"/leagues/midlands/coaches/{HUGE}/",
        f"/leagues/midlands/coaches/{HUGE}/fixtures.ics",
        f"/leagues/midlands/campaign/coaches/{HUGE}/",
        f"/leagues/midlands/campaign/fixtures/{HUGE}/",
        f"/leagues/midlands/campaign/loans/{HUGE}/",
    ],
)
def test_ids_beyond_64_bits_are_404(client, url):
    LeagueFactory(slug="midlands")
    assert client.get(url).status_code == 404


def test_the_largest_id_is_an_ordinary_unknown_id(client):
    LeagueFactory(slug="midlands")
    assert client.get(f"/fixtures/{MAX_ID}/").status_code == 404
    assert client.get(f"/leagues/midlands/coaches/{MAX_ID}/").status_code == 404


def test_a_real_id_still_resolves(client):
    league = LeagueFactory(slug="midlands")
    coach = CoachFactory()
    url = reverse("league:coach_detail", args=[league.slug, coach.pk])
    assert url == f"/leagues/midlands/coaches/{coach.pk}/"


def test_converter_bounds():
    c = BoundedIdConverter()
    assert c.to_python("1") == 1 and c.to_python(str(MAX_ID)) == MAX_ID
    with pytest.raises(ValueError):
        c.to_python(str(MAX_ID + 1))
    with pytest.raises(NoReverseMatch):
        reverse("league:fixture_detail", args=[MAX_ID + 1])
    with pytest.raises(NoReverseMatch):
        reverse("league:fixture_detail", args=[0])


def _patterns(resolver=None):
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            if entry.app_name != "admin":
                yield from _patterns(entry)
        else:
            yield entry


def test_no_site_route_takes_an_unbounded_int():
    unbounded = [str(p.pattern) for p in _patterns() if "<int:" in str(p.pattern)]
    assert unbounded == []

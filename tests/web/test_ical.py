"""Every iCalendar feed parsed back with the ``icalendar`` library:
events, UIDs stable across requests, all-day dates, escaped and round-tripped text."""

import datetime

import icalendar
import pytest
from django.urls import reverse

from league.web import feeds
from league.models import Fixture
from tests.dungeonbowl.builders import db_season
from tests.web.test_published_pages import small_league  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db

AWKWARD = "Zoë, O'Brien; a\\b\nnext"


def parsed(client, url: str) -> icalendar.Calendar:
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return icalendar.Calendar.from_ical(response.content)


def events(calendar: icalendar.Calendar) -> dict[str, icalendar.Event]:
    return {str(event["UID"]): event for event in calendar.walk("VEVENT")}


def feed_urls(season) -> list[str]:
    slug = season.league.slug
    return [reverse("league:league_ics", args=[slug])] + [
        reverse("league:coach_ics", args=[slug, entry.coach_id]) for entry in season.entries.all()
    ]


def test_every_guild_ball_feed_parses_back(client, small_league):  # noqa: F811
    for url in feed_urls(small_league):
        calendar = parsed(client, url)
        first, again = events(calendar), events(parsed(client, url))
        assert first and first.keys() == again.keys()  # the same UIDs on every request
        for uid, event in first.items():
            fixture = Fixture.objects.get(pk=int(uid.removeprefix("fixture-").removesuffix(f"@{feeds.uid_domain()}")))
            assert uid == f"fixture-{fixture.pk}@{feeds.uid_domain()}"
            start, end = event.decoded("DTSTART"), event.decoded("DTEND")
            assert type(start) is datetime.date and start == fixture.date  # all-day: a date, not a datetime
            assert end == start + datetime.timedelta(days=1)
            assert event["DTSTART"].params["VALUE"] == "DATE"
            assert str(event["URL"]).endswith(fixture.get_absolute_url())
    league = events(parsed(client, feed_urls(small_league)[0]))
    assert len(league) == 6
    summaries = sorted(str(event["SUMMARY"]) for event in league.values())
    assert "Midlands Big League Round 3: Anvil v Rage" in summaries


def test_a_fixture_keeps_its_uid_whatever_address_the_feed_is_read_through(client, settings, small_league):  # noqa: F811
    """Without SITE_URL, the same feed read through localhost and 127.0.0.1 names each
    fixture with the same UID, so a calendar holding both shows it once; with
    SITE_URL, the UID is at its host."""
    settings.SITE_URL = ""
    url = feed_urls(small_league)[0]
    through_name = events(icalendar.Calendar.from_ical(client.get(url, HTTP_HOST="localhost").content))
    through_address = events(icalendar.Calendar.from_ical(client.get(url, HTTP_HOST="127.0.0.1").content))
    assert len(through_name) == 6
    assert through_name.keys() == through_address.keys()
    assert not any("localhost" in uid or "127.0.0.1" in uid for uid in through_name)
    settings.SITE_URL = "https://league.example.org/"
    at_site = events(icalendar.Calendar.from_ical(client.get(url, HTTP_HOST="127.0.0.1").content))
    assert all(uid.endswith("@league.example.org") for uid in at_site) and len(at_site) == 6


def test_text_with_commas_semicolons_and_newlines_round_trips(client, small_league):  # noqa: F811
    league = small_league.league
    league.name = AWKWARD
    league.save(update_fields=["name"])
    fixture = small_league.rounds.get(number=3).fixtures.get(home__coach__name="Anvil")
    fixture.rearranged_reason = "Venue shut; moved, again\nby a day"
    fixture.save(update_fields=["rearranged_reason"])
    body = client.get(reverse("league:league_ics", args=[league.slug])).content.decode()
    assert "Zoë\\, O'Brien\\; a\\\\b\\nnext" in body.replace("\r\n ", "")  # RFC 5545 3.3.11
    assert all(len(line.encode()) <= 75 for line in body.split("\r\n"))  # 3.1 folding
    calendar = icalendar.Calendar.from_ical(body)
    # The library types no X- property when it parses, so the name stays in its escaped form.
    assert str(calendar["X-WR-CALNAME"]) == "Zoë\\, O'Brien\\; a\\\\b\\nnext"
    event = events(calendar)[f"fixture-{fixture.pk}@{feeds.uid_domain()}"]
    assert str(event["SUMMARY"]) == f"{AWKWARD} Round 3: Anvil v Rage"
    assert str(event["DESCRIPTION"]) == "Rearranged: Venue shut; moved, again\nby a day"


def test_long_text_folds_on_character_boundaries():
    """Moved from test_pages.test_ical_escapes_and_folds: the hand-written folder went."""
    calendar_name = "é" * 80
    body = feeds.fixtures_ical([], calendar_name=calendar_name, root="https://league.example")
    lines = body.split("\r\n")
    assert all(len(line.encode()) <= 75 for line in lines) and any(line.startswith(" é") for line in lines)
    assert f"X-WR-CALNAME:{calendar_name}" in body.replace("\r\n ", "")
    assert str(icalendar.Calendar.from_ical(body)["X-WR-CALNAME"]) == calendar_name  # unfolded


def test_dungeon_bowl_feeds_name_teams_and_parse_back(client, organiser):
    season = db_season(organiser, teams=4)
    for url in feed_urls(season):
        calendar = parsed(client, url)
        found = events(calendar)
        assert found and found.keys() == events(parsed(client, url)).keys()
        for event in found.values():
            assert type(event.decoded("DTSTART")) is datetime.date
            assert "Team 0" in str(event["SUMMARY"]) and "(Coach of Team 0" in str(event["SUMMARY"])

"""A GET never writes (STYLE habit 14): every public page and feed, and
every campaign page a coach or the Longshanks reads, of a league whose campaign
has never been written to leaves every table as it was. Pages show such a
campaign as it will be once its rows are written (the same figures)."""

from __future__ import annotations

import dataclasses
import re

import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaigns import setup
from campaigns.finalday import services as titles
from campaigns.models import Campaign, CampaignCoach, FavourLine, LineKind, MomentUnlock
from league.services import seasons as season_services
from league.models import Entry, Fixture, Result
from tests.campaigns.factories import GUILD_NAMES, make_campaign, play, user_of
from tests.support.factories import EntryFactory, FixtureFactory, RoundFactory, SeasonFactory

pytestmark = pytest.mark.django_db


def every_row() -> dict[str, int]:
    return {model._meta.label: model.objects.count() for model in apps.get_models()}


def public_urls(season, fixture) -> list[str]:
    slug = season.league.slug
    coach_id = fixture.home.coach_id
    return [
        reverse("league:league_list"),
        reverse("league:league_detail", args=[slug]),
        reverse("league:fixtures", args=[slug]),
        reverse("league:coach_detail", args=[slug, coach_id]),
        reverse("league:standings_json", args=[slug]),
        reverse("league:standings_csv", args=[slug]),
        reverse("league:league_ics", args=[slug]),
        reverse("league:coach_ics", args=[slug, coach_id]),
        reverse("league:fixture_detail", args=[fixture.pk]),
        reverse("campaigns:campaign_table", args=[slug]),
        reverse("campaigns:campaign_json", args=[slug]),
    ]


def private_urls(season, fixture) -> list[str]:
    slug = season.league.slug
    return [
        reverse("league:my_fixtures"),
        reverse("campaigns:coach_page", args=[slug, fixture.home.coach_id]),
        reverse("campaigns:fixture_page", args=[slug, fixture.pk]),
    ]


def logged_in(fixture, organiser) -> list[Client]:
    """The home coach and the Longshanks, logged in before counting (a login
    writes its session; the reads must not write anything)."""
    clients = []
    for user in (fixture.home.coach.user, organiser):
        client = Client()
        client.force_login(user)
        clients.append(client)
    return clients


def read_everything(anonymous: Client, members: list[Client], season, fixture) -> None:
    """Every read, as anonymous, as the home coach and as the Longshanks."""
    for url in public_urls(season, fixture):
        assert anonymous.get(url).status_code == 200, url
    for client in members:
        for url in public_urls(season, fixture) + private_urls(season, fixture):
            assert client.get(url).status_code == 200, url


def without_csrf(response) -> str:
    """The page's HTML without its CSRF token (masked afresh on every request)."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", response.content.decode())


def season_made_directly(season, n: int = 4):
    """Entries, a round, fixtures and an approved result written as rows, not
    through generate_fixtures: the Big League's season_started never ran."""
    entries = [EntryFactory(season=season, team=GUILD_NAMES[i]) for i in range(n)]
    rnd = RoundFactory(season=season, number=1)
    fixtures = [
        FixtureFactory(round=rnd, home=entries[i], away=entries[i + 1], date=rnd.date) for i in range(0, n, 2)
    ]
    Result.objects.create(
        fixture=fixtures[0], home_score=12, away_score=4, outcome="home", status=Result.Status.APPROVED,
        approved_at=timezone.now(),
    )
    return fixtures


def test_reads_of_a_campaign_never_written_write_nothing(client, season, organiser):
    fixtures = season_made_directly(season)
    assert not Campaign.objects.exists()
    members = logged_in(fixtures[1], organiser)
    before = every_row()

    read_everything(client, members, season, fixtures[1])

    assert every_row() == before


def test_a_campaign_never_written_shows_as_it_will_be(client, season, organiser):
    """The derived figures are the ones the rows give once written: the feed, the
    table and a coach's page (Plotting Moment reached, Guild from the team, no
    CP, no Favours) are the same before and after ``ensure_campaign``."""
    fixture = season_made_directly(season)[0]
    slug = season.league.slug
    feed = client.get(reverse("campaigns:campaign_json", args=[slug])).json()
    assert [row["moments"] for row in feed["coaches"]] == [1, 1, 1, 1]
    assert {row["guild"] for row in feed["coaches"]} == set(GUILD_NAMES[:4])
    client.force_login(fixture.home.coach.user)
    page = client.get(reverse("campaigns:coach_page", args=[slug, fixture.home.coach_id]))
    shown = page.content.decode()
    assert "Your starting Guild card" in shown and "Record my starting card" in shown
    fixture_page = without_csrf(client.get(reverse("campaigns:fixture_page", args=[slug, fixture.pk])))

    setup.ensure_campaign(season)

    assert client.get(reverse("campaigns:campaign_json", args=[slug])).json() == feed
    after = client.get(reverse("campaigns:coach_page", args=[slug, fixture.home.coach_id]))
    assert after.context["row"] == dataclasses.replace(page.context["row"], cc_id=after.context["row"].cc_id)
    assert [(u.threshold, u.name) for u in after.context["unlocks"]] == [
        (u.threshold, u.name) for u in page.context["unlocks"]
    ]
    assert without_csrf(client.get(reverse("campaigns:fixture_page", args=[slug, fixture.pk]))) == fixture_page


def test_generate_fixtures_starts_the_campaign_and_reads_add_nothing(client, season, organiser):
    for i in range(4):
        EntryFactory(season=season, team=GUILD_NAMES[i])
    season_services.generate_fixtures(season=season, by=organiser, seed=3)
    # season_started: the Campaign, a row per coach and their Plotting Moment.
    assert CampaignCoach.objects.filter(campaign__season=season).count() == 4
    assert MomentUnlock.objects.filter(coach__campaign__season=season, threshold=0).count() == 4
    fixture = Fixture.objects.filter(round__season=season, away__isnull=False).first()
    members = logged_in(fixture, organiser)
    before = every_row()

    read_everything(client, members, season, fixture)

    assert every_row() == before


def test_an_entry_added_later_is_shown_with_its_carry_over_without_writing(client, season, organiser):
    """GB-26: a coach without a title in the finished campaign joins the next one;
    until a write creates their row, pages show the 5 Favours they will get."""
    a, b = make_campaign(season, 2, organiser=organiser)
    play(Fixture.objects.get(round__season=season), winner=a, organiser=organiser)
    titles.declare_final_day(campaign=a.campaign, by=organiser)
    next_season = SeasonFactory(league=season.league, name="Season 2", start_date=season.start_date.replace(year=2027))
    for cc in (a, b):
        Entry.objects.create(season=next_season, coach=cc.entry.coach, team=cc.entry.team)
    slug = season.league.slug
    feed = client.get(reverse("campaigns:campaign_json", args=[slug])).json()
    client.force_login(user_of(b))
    before = every_row()

    page = client.get(reverse("campaigns:coach_page", args=[slug, b.entry.coach_id])).content.decode()

    assert every_row() == before
    assert Campaign.objects.filter(season=next_season).count() == 0
    assert feed["season"] == "Season 2"
    assert {row["coach"]: row["favours_balance"] for row in feed["coaches"]} == {a.name: 0, b.name: 5}
    assert "carried over from" in page and "competed without winning a title" in page
    setup.ensure_campaign(next_season)
    assert client.get(reverse("campaigns:campaign_json", args=[slug])).json() == feed
    assert FavourLine.objects.filter(kind=LineKind.CARRY_OVER, coach__entry__coach=b.entry.coach).count() == 1

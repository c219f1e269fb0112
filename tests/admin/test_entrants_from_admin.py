"""Who plays in a season, from the admin: an entrant joins through
``season_entrants.place`` (LG-1) and leaves through ``season_entrants.withdraw``
(LG-2), the services of the site's Coaches and set-up pages, so the admin never
enters a coach the site would refuse nor deletes an entry instead of withdrawing it."""

import datetime

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.db.models import Q
from django.urls import reverse

from league.models import Division, Entry, Fixture, Result
from tests.support.builders import season_with_results
from tests.support.factories import CoachFactory, EntryFactory, LeagueFactory, SeasonFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(organiser):
    return LeagueFactory(name="Midas Cup", slug="midas", organisers=[organiser])


def running(league, *, played_rounds=0):
    season = SeasonFactory(league=league, name="Season 1", start_date=datetime.date(2026, 9, 7))
    return season_with_results(coaches=4, played_rounds=played_rounds, season=season)


def withdraw(client, entries, **data):
    payload = {"action": "withdraw", ACTION_CHECKBOX_NAME: [entry.pk for entry in entries], **data}
    return client.post(reverse("admin:league_entry_changelist"), payload, follow=True)


def test_lg2_withdrawing_in_the_admin_keeps_played_results_and_cancels_the_rest(client, organiser, league):
    season = running(league, played_rounds=1)
    entry = season.entries.order_by("pk").first()
    played = Fixture.objects.filter(Q(home=entry) | Q(away=entry), result__status=Result.Status.APPROVED)
    played_ids = set(played.values_list("pk", flat=True))
    assert played_ids
    client.force_login(organiser)
    ask = withdraw(client, [entry]).content.decode()
    assert "approved results stand" in ask
    assert Entry.objects.get(pk=entry.pk).withdrawn_at is None  # the first POST only asks
    done = withdraw(client, [entry], apply="1")
    assert "1 entrant(s) withdrawn." in [str(m) for m in done.context["messages"]]
    theirs = Fixture.objects.filter(Q(home=entry) | Q(away=entry))
    assert set(theirs.filter(cancelled_by__isnull=True).values_list("pk", flat=True)) == played_ids
    assert set(theirs.filter(cancelled_by=entry).values_list("pk", flat=True)) == set(
        theirs.values_list("pk", flat=True)) - played_ids  # LG-2: kept, not played
    assert not Result.objects.filter(fixture__cancelled_by=entry).exists()
    assert Entry.objects.get(pk=entry.pk).withdrawn_at is not None
    again = withdraw(client, [entry], apply="1").content.decode()
    assert "already withdrawn" in again


def test_lg2_withdrawing_before_the_fixtures_takes_the_entry_out(client, organiser, league):
    entry = EntryFactory(season=SeasonFactory(league=league))
    client.force_login(organiser)
    withdraw(client, [entry], apply="1")
    assert not Entry.objects.filter(pk=entry.pk).exists()


def test_an_entry_is_never_deleted_from_the_admin(client, organiser, league):
    season = running(league)  # fixtures, none played: Django's delete would take them along
    entry = season.entries.order_by("pk").first()
    fixtures = Fixture.objects.count()
    client.force_login(organiser)
    assert client.post(reverse("admin:league_entry_delete", args=[entry.pk]), {"post": "yes"}).status_code == 403
    page = client.get(reverse("admin:league_season_change", args=[season.pk])).content.decode()
    assert "entries-0-DELETE" not in page
    assert Entry.objects.filter(pk=entry.pk).exists() and Fixture.objects.count() == fixtures


def test_lg1_an_entry_added_in_the_admin_is_placed_by_the_service(client, organiser, league):
    season = SeasonFactory(league=league, name="Season 2")
    elsewhere = Division.objects.create(season=SeasonFactory(league=league, name="Season 3"), name="Elsewhere")
    coach = CoachFactory(name="Newcomer", created_by=organiser)
    client.force_login(organiser)
    add = reverse("admin:league_entry_add")
    refused = client.post(add, {"season": season.pk, "coach": coach.pk, "team": "", "division": elsewhere.pk},
                          follow=True)
    assert "That division belongs to another season." in refused.content.decode()
    assert not Entry.objects.filter(coach=coach).exists()
    assert client.post(add, {"season": season.pk, "coach": coach.pk, "team": "Fishers"}).status_code == 302
    assert Entry.objects.get(coach=coach).season == season


def test_lg1_an_entrant_added_on_the_season_page_joins_through_the_service(client, organiser, league):
    season = SeasonFactory(league=league, name="Season 2")
    existing = EntryFactory(season=season, coach=CoachFactory(name="Veteran"), team="Old Guard")
    coach = CoachFactory(name="Newcomer", created_by=organiser)
    client.force_login(organiser)
    data = {
        "league": league.pk, "name": "Season 2", "start_date": "2026-10-01", "cadence_days": 7,
        "created_at_0": "2026-09-01", "created_at_1": "10:00", "divisions-TOTAL_FORMS": 0, "divisions-INITIAL_FORMS": 0,
        "entries-TOTAL_FORMS": 2, "entries-INITIAL_FORMS": 1,
        "entries-0-id": existing.pk, "entries-0-season": season.pk, "entries-0-coach": existing.coach.pk,
        "entries-0-team": "New Guard",
        "entries-1-season": season.pk, "entries-1-coach": coach.pk, "entries-1-team": "Fishers",
    }
    response = client.post(reverse("admin:league_season_change", args=[season.pk]), data)
    assert response.status_code == 302
    assert sorted(season.entries.values_list("coach__name", "team")) == [("Newcomer", "Fisherman's"), ("Veteran", "New Guard")]  # a placement names the Guild as the catalogue does

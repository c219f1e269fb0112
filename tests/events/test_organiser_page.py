"""The organiser's events page (/leagues/<slug>/organiser/events/): subscribing,
changing, switching off, a new secret and removing, through the forms as an
organiser does; a refused address answered on the form with a 400 and nothing
written; only the league's organisers reach it; the latest deliveries with the
receiver's answer; the same cost at 4 and 40 coaches."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.events import types
from league.events.models import Delivery, Subscription
from league.services import results
from tests.support.builders import season_with_results
from tests.support.factories import LeagueFactory, SeasonFactory
from tests.support.receiver import Receiver

pytestmark = pytest.mark.django_db


def page(league) -> str:
    return reverse("league:organiser_events", args=[league.slug])


def test_the_organiser_subscribes_an_address_and_sees_its_secret(client, league, organiser):
    client.force_login(organiser)
    response = client.post(page(league), {"section": "subscribe", "url": "https://bot.example.org/events",
                                          "event_types": [types.RESULT_APPROVED, types.SEASON_OVER]})
    assert response.status_code == 302 and response.url == page(league)
    subscription = Subscription.objects.get()
    assert (subscription.url, subscription.event_types, subscription.active, subscription.created_by) == (
        "https://bot.example.org/events", [types.RESULT_APPROVED, types.SEASON_OVER], True, organiser)
    assert subscription.secret.startswith("whsec_")
    shown = client.get(page(league)).content.decode()
    assert "https://bot.example.org/events" in shown and subscription.secret in shown
    assert "is subscribed" in shown and "Nothing sent yet" in shown


@pytest.mark.parametrize("url, says", [
    ("http://bot.example.org/events", "must start with https://"),
    ("https://192.168.1.10/events", "private or reserved address"),
    ("https://169.254.169.254/latest", "link-local"),
    ("https://127.0.0.1:8000/events", "loopback"),
])
def test_an_address_never_posted_to_is_refused_on_the_form(client, league, organiser, url, says):
    client.force_login(organiser)
    response = client.post(page(league), {"section": "subscribe", "url": url, "event_types": [types.RESULT_APPROVED]})
    assert response.status_code == 400 and says in response.content.decode()
    assert not Subscription.objects.exists()


def test_no_event_chosen_or_no_section_is_a_400(client, league, organiser):
    client.force_login(organiser)
    none_chosen = client.post(page(league), {"section": "subscribe", "url": "https://bot.example.org/e"})
    assert none_chosen.status_code == 400 and "This field is required" in none_chosen.content.decode()
    nothing = client.post(page(league), {"section": "nonsense"})
    assert nothing.status_code == 400 and "Choose what to change" in nothing.content.decode()
    assert not Subscription.objects.exists()


def test_the_organiser_changes_switches_off_renews_and_removes(client, league, organiser):
    client.force_login(organiser)
    subscription = Subscription.objects.create(league=league, url="https://bot.example.org/e",
                                               event_types=[types.RESULT_APPROVED])
    prefix = f"s{subscription.pk}"
    response = client.post(page(league), {"section": "change", "subscription": subscription.pk,
                                          f"{prefix}-event_types": [types.RESULT_REPORTED, types.ENTRANT_JOINED]})
    subscription.refresh_from_db()
    assert response.status_code == 302
    assert (subscription.event_types, subscription.active) == ([types.RESULT_REPORTED, types.ENTRANT_JOINED], False)
    assert "Switched off" in client.get(page(league)).content.decode()
    secret = subscription.secret
    assert client.post(page(league), {"section": "secret", "subscription": subscription.pk}).status_code == 302
    subscription.refresh_from_db()
    assert subscription.secret != secret and subscription.secret.startswith("whsec_")
    assert client.post(page(league), {"section": "remove", "subscription": subscription.pk}).status_code == 302
    assert not Subscription.objects.exists()


def test_another_league_s_subscription_cannot_be_touched_from_this_page(client, league, organiser, other_organiser):
    theirs = LeagueFactory(name="Rival League", slug="rival", organisers=[other_organiser])
    subscription = Subscription.objects.create(league=theirs, url="https://bot.example.org/e",
                                               event_types=[types.RESULT_APPROVED])
    client.force_login(organiser)
    for section in ("remove", "secret"):
        response = client.post(page(league), {"section": section, "subscription": subscription.pk})
        assert response.status_code == 400 and "That subscription is gone" in response.content.decode()
    assert Subscription.objects.get() == subscription and subscription.secret == Subscription.objects.get().secret


@pytest.mark.parametrize("who", ["coach", "rival"])
def test_only_the_league_s_organisers_reach_the_page(client, league, fixture, home_user, other_organiser, who):
    client.force_login(home_user if who == "coach" else other_organiser)
    assert client.get(page(league)).status_code == 403
    response = client.post(page(league), {"section": "subscribe", "url": "https://bot.example.org/e",
                                          "event_types": [types.RESULT_APPROVED]})
    assert response.status_code == 403 and not Subscription.objects.exists()
    client.logout()
    assert client.get(page(league)).status_code == 302


def test_each_delivery_is_listed_with_the_receiver_s_answer(
    client, league, organiser, fixture, home_user, settings, django_capture_on_commit_callbacks
):
    settings.WEBHOOKS_ALLOW_LOOPBACK = True
    with Receiver(script=(202,)) as receiver:
        Subscription.objects.create(league=league, url=receiver.url, event_types=[types.RESULT_REPORTED])
        with django_capture_on_commit_callbacks(execute=True):
            results.report_result(fixture=fixture, by=home_user, home_score=12, away_score=6)
    client.force_login(organiser)
    shown = client.get(page(league)).content.decode()
    assert "result.reported" in shown and "Delivered (HTTP 202)" in shown


def events_page_queries(client, organiser, coaches: int) -> int:
    """The page of a league of ``coaches`` coaches with a played round, three
    subscriptions and a delivery per coach (more than the page lists at 40)."""
    league = LeagueFactory(name=f"Big {coaches}", slug=f"big-{coaches}", organisers=[organiser])
    season_with_results(coaches=coaches, played_rounds=1, season=SeasonFactory(league=league))
    subscriptions = [Subscription.objects.create(league=league, url=f"https://bot{n}.example.org/e",
                                                 event_types=sorted(types.ALL)) for n in range(3)]
    Delivery.objects.bulk_create(Delivery(subscription=subscriptions[n % 3], event_type=types.RESULT_APPROVED,
                                          payload="{}", status="delivered", last_status=200, attempts=1)
                                 for n in range(coaches * 2))
    client.get(page(league))
    with CaptureQueriesContext(connection) as queries:
        shown = client.get(page(league)).content.decode()
    assert shown.count("Remove this subscription") == 3
    assert shown.count("Delivered (HTTP 200)") == min(coaches * 2, 50)
    return len(queries)


def test_the_page_costs_the_same_at_4_and_40_coaches(client, organiser):
    client.force_login(organiser)
    assert events_page_queries(client, organiser, 4) == events_page_queries(client, organiser, 40)

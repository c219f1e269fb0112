"""Signed events (league/events/): an organiser's subscription receives the
league's events as Standard Webhooks posts, verified here with the
``standardwebhooks`` package the receivers use; a replayed or stale timestamp is
refused by that verifier; a failing receiver is tried again after growing pauses
and each answer is kept; a private, loopback or link-local address is never
posted to, nor a redirect followed."""

from __future__ import annotations

import datetime
import json
import socket
import time

import pytest
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult
from django.core.exceptions import ValidationError
from django.utils import timezone
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from league.events import services as event_services, types
from league.events.delivery import signed_headers
from league.events.models import Delivery, Subscription
from league.outbox import addresses, tasks
from league.people import entrants
from league.services import results
from tests.support.receiver import Receiver
from tests.support.factories import CoachFactory, SeasonFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def local(settings):
    """The test-only setting that lets a receiver on 127.0.0.1 in."""
    settings.WEBHOOKS_ALLOW_LOOPBACK = True
    settings.WEBHOOK_TIMEOUT = 2


def subscribe(league, organiser, url, kinds=tuple(types.ALL)) -> Subscription:
    return event_services.subscribe(league=league, by=organiser, url=url, event_types=list(kinds))


def verified(subscription, post) -> dict:
    headers, raw = post
    return Webhook(subscription.secret).verify(raw, headers)


def test_every_step_of_a_result_is_a_signed_event_the_receiver_verifies(
    local, league, organiser, fixture, home_user, away_user, django_capture_on_commit_callbacks
):
    with Receiver() as receiver:
        subscription = subscribe(league, organiser, receiver.url)
        with django_capture_on_commit_callbacks(execute=True):
            result = results.report_result(fixture=fixture, by=home_user, home_score=12, away_score=6)
        with django_capture_on_commit_callbacks(execute=True):
            results.confirm_result(result=result, by=away_user)
        with django_capture_on_commit_callbacks(execute=True):
            results.approve_result(result=result, by=organiser)
    events = [verified(subscription, post) for post in receiver.posts]
    assert [event["type"] for event in events] == [
        "result.reported", "result.confirmed", "result.approved", "standings.changed", "season.over",
    ]
    approved = events[2]["data"]
    assert approved["league"] == "midlands" and approved["fixture"]["home"] == "Velocity"
    assert approved["result"]["home_score"] == 12 and approved["result"]["status"] == "approved"
    ids = [headers["webhook-id"] for headers, _ in receiver.posts]
    assert len(set(ids)) == len(ids) and all(i.startswith("msg_") for i in ids)
    assert set(Delivery.objects.values_list("status", "last_status")) == {("delivered", 204)}


def test_a_wrong_secret_a_replayed_or_a_stale_timestamp_is_refused_by_the_verifier(
    local, league, organiser, fixture, home_user, django_capture_on_commit_callbacks
):
    with Receiver() as receiver:
        subscription = subscribe(league, organiser, receiver.url, [types.RESULT_REPORTED])
        with django_capture_on_commit_callbacks(execute=True):
            results.report_result(fixture=fixture, by=home_user, home_score=12, away_score=6)
    (headers, raw), = receiver.posts
    assert verified(subscription, (headers, raw))["type"] == "result.reported"
    with pytest.raises(WebhookVerificationError):  # another league's secret
        Webhook(Subscription(url="x").secret).verify(raw, headers)
    with pytest.raises(WebhookVerificationError):  # the body changed on the way
        Webhook(subscription.secret).verify(raw.replace(b"Velocity", b"Velocitx"), headers)
    # Replayed ten minutes later: the same headers are too old for the verifier ...
    stale = timezone.now() - datetime.timedelta(minutes=10)
    replayed = signed_headers(secret=subscription.secret, event_id=headers["webhook-id"], body=raw.decode(), now=stale)
    with pytest.raises(WebhookVerificationError, match="too old"):
        Webhook(subscription.secret).verify(raw, replayed)
    # ... and a timestamp moved forward without the secret breaks the signature.
    moved = {**replayed, "webhook-timestamp": headers["webhook-timestamp"]}
    with pytest.raises(WebhookVerificationError, match="No matching signature"):
        Webhook(subscription.secret).verify(raw, moved)


def test_only_the_chosen_events_of_an_active_subscription_are_sent(
    local, league, organiser, fixture, home_user, away_user, django_capture_on_commit_callbacks
):
    with Receiver() as receiver:
        chosen = subscribe(league, organiser, receiver.url, [types.RESULT_CONFIRMED])
        off = subscribe(league, organiser, receiver.url + "/off", list(types.ALL))
        event_services.change(league=league, by=organiser, subscription_id=off.pk, event_types=list(types.ALL), active=False)
        with django_capture_on_commit_callbacks(execute=True):
            result = results.report_result(fixture=fixture, by=home_user, home_score=12, away_score=6)
            results.confirm_result(result=result, by=away_user)
    assert [verified(chosen, post)["type"] for post in receiver.posts] == ["result.confirmed"]
    assert not Delivery.objects.filter(subscription=off).exists()


def test_a_receiver_that_fails_is_tried_again_after_growing_pauses(
    local, league, organiser, fixture, home_user, settings
):
    """The production queue (django-tasks' database backend): the first attempt
    gets a 503 and queues the second after 60 s times the scale (0.3 s here),
    the second a 503 and the third after 600 s (3 s); the third is delivered, with the same id and
    body, a newer timestamp, each signed."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    settings.TASK_BACKOFF_SCALE = 0.005
    with Receiver(script=(503, 503, 200)) as receiver:
        subscription = subscribe(league, organiser, receiver.url, [types.RESULT_REPORTED])
        results.report_result(fixture=fixture, by=home_user, home_score=12, away_score=6)
        delivery = Delivery.objects.get()
        assert receiver.posts == [] and delivery.status == "pending"  # queued with the write, not sent by it
        pauses = []
        for _ in range(3):
            before = timezone.now()
            run_ready_tasks(wait=True)
            delivery.refresh_from_db()
            if delivery.next_attempt_at:
                pauses.append((delivery.next_attempt_at - before).total_seconds())
                assert (delivery.status, delivery.last_status) == ("retrying", 503)
    assert (delivery.status, delivery.last_status, delivery.attempts) == ("delivered", 200, 3)
    assert 0.3 <= pauses[0] < 1.3 and 3.0 <= pauses[1] < 4.0  # the attempt itself takes a moment
    assert len(receiver.posts) == 3
    assert len({headers["webhook-id"] for headers, _ in receiver.posts}) == 1
    assert len({raw for _, raw in receiver.posts}) == 1
    for post in receiver.posts:
        verified(subscription, post)


def test_a_receiver_that_keeps_failing_is_given_up_after_the_last_attempt(local, league, organiser, fixture, home_user,
                                                                          django_capture_on_commit_callbacks):
    with Receiver(script=(500,)) as receiver:
        subscribe(league, organiser, receiver.url, [types.RESULT_REPORTED])
        with django_capture_on_commit_callbacks(execute=True):
            results.report_result(fixture=fixture, by=home_user, home_score=12, away_score=6)
    delivery = Delivery.objects.get()
    assert len(receiver.posts) == tasks.ATTEMPTS
    assert (delivery.status, delivery.last_status, delivery.attempts, delivery.next_attempt_at) == (
        "failed", 500, tasks.ATTEMPTS, None)


def test_a_redirect_is_not_followed(local, league, organiser, fixture, home_user, django_capture_on_commit_callbacks):
    with Receiver() as elsewhere, Receiver(script=(307,), location=elsewhere.url) as receiver:
        subscribe(league, organiser, receiver.url, [types.RESULT_REPORTED])
        with django_capture_on_commit_callbacks(execute=True):
            results.report_result(fixture=fixture, by=home_user, home_score=12, away_score=6)
    assert len(receiver.posts) == 1 and elsewhere.posts == []
    delivery = Delivery.objects.get()
    assert (delivery.status, delivery.last_status) == ("failed", 307)
    assert "redirects are not followed" in delivery.last_error


def test_a_receiver_on_the_loopback_address_is_refused_without_the_test_setting(
    league, organiser, fixture, home_user, settings, django_capture_on_commit_callbacks
):
    """A subscription that reached the database anyway (the form refuses it)
    posts nothing to 127.0.0.1; with the test-only setting the same receiver
    gets the event."""
    with Receiver() as receiver:
        Subscription.objects.create(league=league, url=receiver.url, event_types=[types.RESULT_REPORTED])
        settings.WEBHOOKS_ALLOW_LOOPBACK = False
        with django_capture_on_commit_callbacks(execute=True):
            result = results.report_result(fixture=fixture, by=home_user, home_score=12, away_score=6)
        assert receiver.posts == []
        refused = Delivery.objects.get()
        assert refused.status == "refused" and "loopback" in refused.last_error and refused.last_status is None
        settings.WEBHOOKS_ALLOW_LOOPBACK = True
        with django_capture_on_commit_callbacks(execute=True):
            results.withdraw_report(result=result, by=home_user)
            results.report_result(fixture=fixture, by=home_user, home_score=12, away_score=6)
    assert len(receiver.posts) == 1


@pytest.mark.parametrize("address", [
    "127.0.0.1", "10.0.0.8", "172.16.4.4", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
    "::1", "fe80::1", "fc00::1", "::ffff:127.0.0.1", "::ffff:169.254.169.254", "224.0.0.1",
])
def test_every_resolved_address_is_checked(address, monkeypatch):
    """A name that resolves to a public address and to a private one is refused:
    the connection could land on either."""
    answers = [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.215.14", 443)),
               (socket.AF_INET6 if ":" in address else socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, 443))]
    monkeypatch.setattr(addresses.socket, "getaddrinfo", lambda *args, **kwargs: answers)
    with pytest.raises(addresses.NotAllowed):
        addresses.resolve("https://receiver.example.org/hook")


def test_a_public_address_is_used_as_checked(monkeypatch):
    monkeypatch.setattr(addresses.socket, "getaddrinfo",
                        lambda *args, **kwargs: [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.215.14", 443))])
    target = addresses.resolve("https://receiver.example.org:8443/hook?league=midlands")
    assert (target.host, target.port, target.address, target.path) == (
        "receiver.example.org", 8443, "93.184.215.14", "/hook?league=midlands")


@pytest.mark.parametrize("url", [
    "http://receiver.example.org/hook", "https://10.1.2.3/hook", "https://[::1]/hook", "ftp://example.org/",
    "https://user:pass@example.org/hook", "https://169.254.169.254/latest/meta-data", "not an address",
])
def test_the_subscription_refuses_an_address_never_posted_to(league, organiser, url):
    with pytest.raises(ValidationError) as refused:
        subscribe(league, organiser, url)
    assert "url" in refused.value.message_dict
    assert not Subscription.objects.exists()


def test_entrants_joining_and_withdrawing_are_events(
    local, league, season, organiser, fixture, django_capture_on_commit_callbacks
):
    later = SeasonFactory(league=league, name="Season 2")
    with Receiver() as receiver:
        subscription = subscribe(league, organiser, receiver.url, [types.ENTRANT_JOINED, types.ENTRANT_WITHDREW,
                                                                 types.STANDINGS_CHANGED])
        with django_capture_on_commit_callbacks(execute=True):
            newcomer = entrants.place(season=later, coach=CoachFactory(name="Newcomer"), team="Masons", by=organiser)
        with django_capture_on_commit_callbacks(execute=True):
            entrants.withdraw(entry=fixture.home, by=organiser)
    events = [verified(subscription, post) for post in receiver.posts]
    assert [event["type"] for event in events] == ["entrant.joined", "entrant.withdrew", "standings.changed"]
    assert events[0]["data"]["entrant"] == {"id": newcomer.pk, "coach": "Newcomer", "team": newcomer.team}
    assert events[0]["data"]["season"] == {"id": later.pk, "name": "Season 2"}
    assert events[1]["data"]["entrant"]["coach"] == "Velocity"
    assert events[1]["data"]["entrant"]["fixtures_not_played"] == 1


def test_a_refused_write_sends_nothing(local, league, organiser, fixture, home_user, django_capture_on_commit_callbacks):
    with Receiver() as receiver:
        subscribe(league, organiser, receiver.url)
        with django_capture_on_commit_callbacks(execute=True), pytest.raises(ValidationError):
            results.report_result(fixture=fixture, by=home_user, home_score=12, away_score=999)
    assert receiver.posts == [] and not Delivery.objects.exists()


def run_ready_tasks(*, wait: bool) -> None:
    """What ``run_tasks`` does, in the test's transaction: run each ready row;
    with ``wait``, first sleep until a deferred one is due."""
    worker = Worker(queue_names=["*"], interval=0, batch=True, backend_name="default", startup_delay=False,
                    max_tasks=None, worker_id="test")
    if wait and not DBTaskResult.objects.ready().exists():
        waiting = DBTaskResult.objects.filter(status="READY", run_after__gt=timezone.now()).order_by("run_after").first()
        if waiting is not None:
            time.sleep(max(0.0, (waiting.run_after - timezone.now()).total_seconds()) + 0.01)
    while (row := DBTaskResult.objects.ready().first()) is not None:
        row.claim(worker.worker_id)
        worker.run_task(row)

"""A league's Discord webhook, against a local HTTP receiver (http.server on
127.0.0.1 in a thread): an approved result and the new top of the table, read
by the task that announces it, are posted, retried on a 5xx, given up on (logged)
when the receiver keeps failing; the organiser's request is never failed nor
held up by it. Like the league's events, no post goes to a private, loopback or
link-local address, nor after a redirect: the local receiver is reached only
with the tests' ``WEBHOOKS_ALLOW_LOOPBACK``."""

import hashlib
import hmac
import json
import logging
import socket
import time

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from django_tasks import TaskResultStatus
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

from league.services import results as services
from league.outbox import tasks
from league.events import webhooks
from league.events.models import Delivery, Subscription
from league.models import Result
from tests.support.factories import EntryFactory, FixtureFactory, LeagueFactory
from tests.support.receiver import Receiver

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quick_retries(settings):
    settings.WEBHOOK_TIMEOUT = 2
    settings.WEBHOOKS_ALLOW_LOOPBACK = True  # the local receivers these tests start


def work_the_queue() -> None:
    """What ``run_tasks --batch`` does, inside the test's transaction (the real
    worker takes an exclusive transaction of its own): run ready rows until none is
    left, the posts an announcement queues among them."""
    worker = Worker(queue_names=["*"], interval=0, batch=True, backend_name="default", startup_delay=False,
                    max_tasks=None, worker_id="test")
    while (row := DBTaskResult.objects.ready().first()) is not None:
        row.claim(worker.worker_id)
        worker.run_task(row)


def confirmed(fixture, home_user, away_user, home=12, away=6):
    result = services.report_result(fixture=fixture, by=home_user, home_score=home, away_score=away)
    return services.confirm_result(result=result, by=away_user)


def approve(client, organiser, fixture, capture):
    client.force_login(organiser)
    with capture(execute=True):
        return client.post(reverse("league:approve_result", args=[fixture.pk]))


def use_webhook(league, url):
    # Set through the ORM: the model only accepts Discord's own addresses.
    league.discord_webhook = url
    league.save(update_fields=["discord_webhook"])


def test_an_approved_result_and_the_top_of_the_table_are_posted(
    client, league, fixture, home_user, away_user, organiser, django_capture_on_commit_callbacks
):
    EntryFactory(season=fixture.round.season, coach__name="Idle")
    confirmed(fixture, home_user, away_user)
    with Receiver() as receiver:
        use_webhook(league, receiver.url)
        response = approve(client, organiser, fixture, django_capture_on_commit_callbacks)
    assert response.status_code == 302 and Result.objects.get().is_approved
    assert len(receiver.bodies) == 1
    content = receiver.bodies[0]["content"]
    assert "Midlands Big League" in content and "Velocity v Rage" in content and "12 – 6" in content
    assert "Top of the table:\n1. Velocity — 3 LP" in content
    assert fixture.get_absolute_url() in content
    assert receiver.bodies[0]["allowed_mentions"] == {"parse": []}  # nobody is pinged


def test_a_receiver_that_fails_once_is_retried(
    client, league, fixture, home_user, away_user, organiser, django_capture_on_commit_callbacks, caplog
):
    confirmed(fixture, home_user, away_user)
    with Receiver(script=(503, 204)) as receiver, caplog.at_level(logging.ERROR, logger="league.events.webhooks"):
        use_webhook(league, receiver.url)
        response = approve(client, organiser, fixture, django_capture_on_commit_callbacks)
    assert response.status_code == 302
    assert len(receiver.bodies) == 2 and receiver.bodies[0] == receiver.bodies[1]
    # The first attempt's failure is recorded on its task row (django_tasks logs it);
    # league.events.webhooks reports nothing, as the post was delivered.
    assert not [record for record in caplog.records if record.name == "league.events.webhooks"]


def test_a_receiver_that_always_fails_is_logged_and_the_request_still_succeeds(
    client, league, fixture, home_user, away_user, organiser, django_capture_on_commit_callbacks, caplog
):
    confirmed(fixture, home_user, away_user)
    with Receiver(script=(500,)) as receiver, caplog.at_level(logging.ERROR, logger="league.events.webhooks"):
        use_webhook(league, receiver.url)
        response = approve(client, organiser, fixture, django_capture_on_commit_callbacks)
    assert response.status_code == 302 and Result.objects.get().is_approved
    assert len(receiver.bodies) == tasks.ATTEMPTS
    assert f"failed after {tasks.ATTEMPTS} attempts: HTTP 500" in caplog.text
    # The fixture page still shows the approved result.
    assert "Approved" in client.get(fixture.get_absolute_url()).content.decode()


def test_a_slow_receiver_does_not_hold_up_the_request(
    client, league, fixture, home_user, away_user, organiser, django_capture_on_commit_callbacks, settings
):
    # The production queue: the request writes the task's row, the worker posts.
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    confirmed(fixture, home_user, away_user)
    with Receiver(delay=1.5) as receiver:
        use_webhook(league, receiver.url)
        started = time.monotonic()
        response = approve(client, organiser, fixture, django_capture_on_commit_callbacks)
        elapsed = time.monotonic() - started
        assert receiver.bodies == []
        work_the_queue()
    assert response.status_code == 302 and elapsed < 1.0
    assert len(receiver.bodies) == 1


def test_approving_all_computes_no_table_in_the_request_and_each_post_carries_it(
    client, league, season, fixture, home_user, away_user, organiser, settings, monkeypatch,
    django_capture_on_commit_callbacks,
):
    """The table is read by the announcing task in the worker: "approve all" costs
    the request no standings, however many results it approves."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    confirmed(fixture, home_user, away_user)
    for home, away in (("Brick", "Shade"), ("Flint", "Moss")):
        other = FixtureFactory(round__season=season, date=season.start_date, home__coach__name=home, away__coach__name=away)
        confirmed(other, other.home.coach.user, other.away.coach.user)
    computed = []
    real = webhooks.compute_standings
    monkeypatch.setattr(webhooks, "compute_standings", lambda season: computed.append(season.pk) or real(season))
    with Receiver() as receiver:
        use_webhook(league, receiver.url)
        client.force_login(organiser)
        with django_capture_on_commit_callbacks(execute=True):  # the request's commit-time work too
            response = client.post(reverse("league:dashboard_approve", args=[league.slug]), {"all": "1"})
        assert response.status_code == 302 and Result.objects.filter(status=Result.Status.APPROVED).count() == 3
        assert computed == [] and receiver.bodies == []
        assert DBTaskResult.objects.ready().filter(task_path="league.events.webhooks.announce").count() == 3
        work_the_queue()
    assert computed == [season.pk] * 3
    assert len(receiver.bodies) == 3
    for body in receiver.bodies:  # each read after every approval committed
        top = body["content"].split("Top of the table:\n", 1)[1].splitlines()
        assert sorted(line.split(". ", 1)[1] for line in top) == ["Brick — 3 LP", "Flint — 3 LP", "Velocity — 3 LP"]


def test_a_refused_address_is_not_retried_and_nothing_is_posted_without_a_webhook(
    client, league, fixture, home_user, away_user, organiser, django_capture_on_commit_callbacks, caplog
):
    with Receiver(script=(404,)) as receiver, caplog.at_level(logging.ERROR, logger="league.events.webhooks"):
        assert webhooks.post.enqueue(url=receiver.url, body="{}", headers={}).status == TaskResultStatus.FAILED
    assert len(receiver.bodies) == 1 and "HTTP 404" in caplog.text
    confirmed(fixture, home_user, away_user)
    with Receiver() as receiver:
        assert approve(client, organiser, fixture, django_capture_on_commit_callbacks).status_code == 302
    assert receiver.bodies == []  # no webhook: no post


def test_an_unreachable_receiver_is_retried_then_logged(caplog):
    with caplog.at_level(logging.ERROR, logger="league.events.webhooks"):
        # Port 9 on localhost: nothing listens, the connection is refused at once.
        result = webhooks.post.enqueue(url="http://127.0.0.1:9/api/webhooks/1/x", body="{}", headers={})
    assert result.status == TaskResultStatus.FAILED and "retried" in result.errors[0].traceback
    assert "failed after" in caplog.text


def test_a_correction_is_posted_too(client, league, fixture, organiser, django_capture_on_commit_callbacks):
    FixtureFactory(round=fixture.round, home__coach__name="Brick", away__coach__name="Shade")
    with Receiver() as receiver:
        use_webhook(league, receiver.url)
        client.force_login(organiser)
        with django_capture_on_commit_callbacks(execute=True):
            client.post(
                reverse("league:record_result", args=[fixture.pk]), {"home_score": 6, "away_score": 12, "reason": "entered"}
            )
    assert len(receiver.bodies) == 1 and "6 – 12" in receiver.bodies[0]["content"]
    assert "1. Rage — 3 LP" in receiver.bodies[0]["content"]


@pytest.mark.parametrize(
    "url, ok",
    [
        ("https://discord.com/api/webhooks/123/abc", True),
        ("https://discordapp.com/api/webhooks/123/abc", True),
        ("", True),
        ("http://discord.com/api/webhooks/123/abc", False),
        ("https://discord.com.evil.example/api/webhooks/1/a", False),
        ("https://127.0.0.1/api/webhooks/1/a", False),
        ("https://discord.com/channels/1", False),
    ],
)
def test_only_discord_webhook_addresses_are_accepted(league, url, ok):
    league.discord_webhook = url
    if ok:
        league.full_clean()
    else:
        with pytest.raises(ValidationError, match="webhook address Discord gives you"):
            league.full_clean()


def test_the_organiser_sets_the_webhook_on_the_league_in_the_admin(client, league, organiser):
    client.force_login(organiser)
    page = client.get(reverse("admin:league_league_change", args=[league.pk])).content.decode()
    assert 'name="discord_webhook"' in page and "approved results and the new top of the table" in page


def test_a_signed_webhook_carries_the_hmac_of_its_body(
    client, league, fixture, home_user, away_user, organiser, django_capture_on_commit_callbacks
):
    confirmed(fixture, home_user, away_user)
    with Receiver() as receiver:
        # Set through the ORM: the model only accepts https addresses by name.
        league.webhook_url = receiver.url
        league.save(update_fields=["webhook_url"])
        approve(client, organiser, fixture, django_capture_on_commit_callbacks)
    assert len(receiver.posts) == 1  # no Discord address: only the signed post
    headers, raw = receiver.posts[0]
    expected = "sha256=" + hmac.new(league.webhook_secret.encode(), raw, hashlib.sha256).hexdigest()
    assert headers["X-League-Signature"] == expected and len(league.webhook_secret) == 64
    body = json.loads(raw)
    assert body["event"] == "result_approved" and body["league"] == "midlands" and body["result"] == "12 – 6"
    assert "Top of the table:\n1. Velocity — 3 LP" in body["text"]
    other = LeagueFactory(name="Other")
    assert other.webhook_secret != league.webhook_secret  # each league its own secret
    other.webhook_secret = ""
    other.save(update_fields=["webhook_secret"])
    other.refresh_from_db()
    assert len(other.webhook_secret) == 64  # never left empty


def test_a_redirect_is_refused_not_followed(caplog):
    with Receiver() as target, Receiver(script=(302,), location=target.url) as receiver:
        with caplog.at_level(logging.ERROR, logger="league.events.webhooks"):
            result = webhooks.post.enqueue(url=receiver.url, body="{}", headers={})
    assert len(receiver.bodies) == 1 and target.bodies == []  # neither followed nor retried
    assert result.status == TaskResultStatus.FAILED and "HTTP 302" in caplog.text


@pytest.mark.parametrize(
    "url, ok",
    [
        ("https://hooks.example.org/league", True),
        ("", True),
        ("http://hooks.example.org/league", False),
        ("https://10.0.0.1/hook", False),
        ("https://localhost/hook", False),
        ("https://[::1]/hook", False),
    ],
)
def test_a_signed_webhook_needs_an_https_address_by_name(league, url, ok):
    league.webhook_url = url
    if ok:
        league.full_clean()
    else:
        with pytest.raises(ValidationError, match="by its name"):
            league.full_clean()


def test_a_webhook_to_the_loopback_address_is_refused_unless_the_tests_allow_it(settings, caplog):
    """The address check of every webhook: the local receiver gets nothing without
    the test-only setting, and the refusal is final (one attempt, logged, the
    task's row failed with the reason), as another attempt cannot change it."""
    settings.WEBHOOKS_ALLOW_LOOPBACK = False
    with Receiver() as receiver:
        with caplog.at_level(logging.ERROR, logger="league.events.webhooks"):
            result = webhooks.post.enqueue(url=receiver.url, body="{}", headers={})
        assert receiver.bodies == []
        assert result.status == TaskResultStatus.FAILED and len(result.errors) == 1
        assert "Refused" in result.errors[0].traceback and "retried" not in result.errors[0].traceback
        assert "not sent" in caplog.text and "loopback" in caplog.text
        settings.WEBHOOKS_ALLOW_LOOPBACK = True
        assert webhooks.post.enqueue(url=receiver.url, body="{}", headers={}).status == TaskResultStatus.SUCCESSFUL
    assert len(receiver.bodies) == 1


def test_an_approval_posts_to_neither_webhook_on_the_loopback_address(
    client, league, fixture, home_user, away_user, organiser, django_capture_on_commit_callbacks, settings, caplog
):
    settings.WEBHOOKS_ALLOW_LOOPBACK = False
    confirmed(fixture, home_user, away_user)
    with Receiver() as receiver, caplog.at_level(logging.ERROR, logger="league.events.webhooks"):
        use_webhook(league, receiver.url)
        league.webhook_url = receiver.url
        league.save(update_fields=["webhook_url"])
        response = approve(client, organiser, fixture, django_capture_on_commit_callbacks)
    assert response.status_code == 302 and Result.objects.get().is_approved
    assert receiver.bodies == []
    assert caplog.text.count("Webhook post not sent") == 2  # Discord and the signed webhook


@pytest.mark.parametrize("address", ["10.0.0.8", "169.254.169.254", "127.0.0.1", "::1", "fe80::1", "192.168.1.1"])
def test_a_webhook_whose_name_resolves_to_a_private_address_is_refused(address, monkeypatch, settings, caplog):
    """Discord's or the receiver's name is resolved and each address checked
    before the post: one private, loopback or link-local answer refuses it."""
    settings.WEBHOOKS_ALLOW_LOOPBACK = False
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    answers = [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.215.14", 443)),
               (family, socket.SOCK_STREAM, 6, "", (address, 443))]
    monkeypatch.setattr(socket, "getaddrinfo", lambda *args, **kwargs: answers)
    connected = []
    monkeypatch.setattr(socket, "create_connection", lambda *args, **kwargs: connected.append(args))
    with caplog.at_level(logging.ERROR, logger="league.events.webhooks"):
        result = webhooks.post.enqueue(url="https://discord.com/api/webhooks/1/token", body="{}", headers={})
    assert result.status == TaskResultStatus.FAILED and connected == []
    assert f"discord.com resolves to {address}" in caplog.text


def test_each_post_is_a_delivery_of_the_leagues_own_subscriptions(
    client, league, fixture, home_user, away_user, organiser, django_capture_on_commit_callbacks
):
    """The league's two webhooks are subscriptions of its events with their own
    signature, brought in step with its settings before a post: each post is a
    delivery row with its attempts, as an event's; the Events page lists neither."""
    confirmed(fixture, home_user, away_user)
    with Receiver(script=(503, 204, 204)) as receiver:
        use_webhook(league, receiver.url)
        league.webhook_url = receiver.url
        league.save(update_fields=["webhook_url"])
        approve(client, organiser, fixture, django_capture_on_commit_callbacks)
    hooks = {s.signature: s for s in Subscription.objects.filter(league=league)}
    assert set(hooks) == {Subscription.Signature.DISCORD, Subscription.Signature.LEAGUE}
    assert hooks[Subscription.Signature.LEAGUE].secret == league.webhook_secret
    deliveries = {d.subscription.signature: d for d in Delivery.objects.select_related("subscription")}
    assert {d.status for d in deliveries.values()} == {Delivery.Status.DELIVERED}
    assert sorted(d.attempts for d in deliveries.values()) == [1, 2]  # the first post got a 503, then was retried
    assert {d.event_type for d in deliveries.values()} == {"result_approved"}
    page = client.get(reverse("league:organiser_events", args=[league.slug])).content.decode()
    assert receiver.url not in page
    # A new secret on the settings page signs the next post: the subscription follows it.
    league.webhook_secret = "f" * 64
    league.save(update_fields=["webhook_secret"])
    assert webhooks.in_step(league)[Subscription.Signature.LEAGUE].secret == "f" * 64
    assert Subscription.objects.filter(league=league).count() == 2

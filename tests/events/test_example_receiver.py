"""docs/examples/check_event.py, the receiver the docs show, run as its reader
would: it prints an approved result the league sent it, and answers a replayed
post (an old timestamp), a changed body and a stranger's signature with a 400."""

from __future__ import annotations

import datetime
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.utils import timezone

from league.events import services as event_services, types
from league.events.delivery import signed_headers
from league.events.models import Delivery, new_secret
from league.services import results

pytestmark = pytest.mark.django_db

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "check_event.py"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def example(league, organiser, settings):
    settings.WEBHOOKS_ALLOW_LOOPBACK = True
    port = free_port()
    url = f"http://127.0.0.1:{port}/events"
    subscription = event_services.subscribe(league=league, by=organiser, url=url,
                                            event_types=[types.RESULT_APPROVED])
    process = subprocess.Popen([sys.executable, "-u", str(EXAMPLE), str(port)], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True,
                               env={**os.environ, "LEAGUE_EVENTS_SECRET": subscription.secret})
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            break
        except OSError:
            time.sleep(0.1)
    yield subscription, url, process
    process.terminate()
    process.wait(timeout=10)


def post(url: str, body: bytes, headers: dict[str, str]) -> int:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=body, headers=headers, method="POST")) as answer:
            return answer.status
    except urllib.error.HTTPError as refusal:
        return refusal.code


def test_the_docs_receiver_checks_each_event(example, fixture, home_user, away_user, organiser,
                                             django_capture_on_commit_callbacks):
    subscription, url, process = example
    with django_capture_on_commit_callbacks(execute=True):
        result = results.report_result(fixture=fixture, by=home_user, home_score=12, away_score=6)
        results.confirm_result(result=result, by=away_user)
        results.approve_result(result=result, by=organiser)
    delivery = Delivery.objects.get()
    assert (delivery.status, delivery.last_status) == ("delivered", 204)
    body = delivery.payload
    stale = signed_headers(secret=subscription.secret, event_id=delivery.event_id + "x", body=body,
                           now=timezone.now() - datetime.timedelta(minutes=10))
    assert post(url, body.encode(), stale) == 400
    fresh = signed_headers(secret=subscription.secret, event_id="msg_other", body=body, now=timezone.now())
    assert post(url, body.replace("Velocity", "Somebody").encode(), fresh) == 400
    stranger = signed_headers(secret=new_secret(), event_id="msg_other", body=body, now=timezone.now())
    assert post(url, body.encode(), stranger) == 400
    process.terminate()
    printed = process.communicate(timeout=10)[0]
    assert "Velocity v Rage: " in printed
    assert printed.count("Velocity v Rage") == 1

"""Dungeon Bowl: a report sent after the opponent's (the phone had no
signal) answers it (GB-8 Decision, every game): the same facts, player lines
included, confirm it; different ones dispute it with this report as the version
the coach says is right, which the commissioner may accept. A resend writes once."""

import re

import pytest
from django.urls import reverse

from league.services import disputes
from league.dungeonbowl.models import PlayerGame
from league.models import Fixture, Result, ResultEvent
from tests.dungeonbowl.builders import db_season
from tests.dungeonbowl.postgame.test_postgame import post

pytestmark = pytest.mark.django_db

KEY = re.compile(r'name="idempotency_key" value="([^"]+)"')


@pytest.fixture
def fixture(organiser):
    season = db_season(organiser, teams=4)
    return Fixture.objects.with_related().filter(round__season=season, round__number=1).first()


def away_reports(client, fixture, **extra):
    """The away coach opened the form before the home coach reported, and sends it now."""
    client.force_login(fixture.away.coach.user)
    [key] = KEY.findall(client.get(fixture.get_absolute_url()).content.decode())
    client.force_login(fixture.home.coach.user)
    assert client.post(reverse("league:report_result", args=[fixture.pk]), post(fixture)).status_code == 302
    client.force_login(fixture.away.coach.user)
    data = {**post(fixture, **extra), "idempotency_key": key}
    first = client.post(reverse("league:report_result", args=[fixture.pk]), data)
    again = client.post(reverse("league:report_result", args=[fixture.pk]), data)
    assert first.status_code == again.status_code == 302
    return Result.objects.get(fixture=fixture)


def test_the_same_report_confirms(client, fixture):
    result = away_reports(client, fixture)
    assert result.status == "confirmed"
    assert PlayerGame.objects.count() == 5  # the home coach's lines, once
    assert ResultEvent.objects.filter(fixture=fixture, action="confirmed").count() == 1


def test_a_different_report_disputes_and_may_be_accepted(client, fixture, organiser):
    """The same score, but the away coach counts 2 players who used Gather Funds, not 3."""
    result = away_reports(client, fixture, home_gather=2)
    assert result.status == "disputed" and result.summary == result.proposed_summary == "1 – 0"
    assert result.proposed_facts["home_gather"] == 2
    assert ResultEvent.objects.filter(fixture=fixture, action="disputed").count() == 1
    settled = disputes.settle_dispute(result=result, by=organiser, accept=disputes.PROPOSED)
    assert settled.is_approved and settled.dungeonbowl_report.home_gather == 2

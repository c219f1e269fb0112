"""A fixture added by hand in the admin goes through ``season_services.add_fixture``:
both sides entrants of the season who have not withdrawn (LG-2), each playing once
a round, a fixture between two divisions a friendly (DB-5a); a refusal is a
message and nothing is written."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from league.models import Division, Fixture
from league.services import seasons as season_services
from tests.support.factories import CoachFactory, EntryFactory, FixtureFactory, RoundFactory, UserFactory

pytestmark = pytest.mark.django_db

NO_EVENTS = {"events-TOTAL_FORMS": "0", "events-INITIAL_FORMS": "0"}  # the fixture's read-only history inline


@pytest.fixture
def round_one(season):
    entries = [EntryFactory(season=season, coach=CoachFactory(name=name)) for name in ("Velocity", "Rage", "Shade", "Brick")]
    rnd = RoundFactory(season=season, number=1, date=datetime.date(2026, 9, 7))
    FixtureFactory(round=rnd, home=entries[0], away=entries[1])
    return rnd, entries


def add(client, rnd, home, away):
    data = {"round": rnd.pk, "home": home.pk, "away": away.pk, "date": "2026-09-08", **NO_EVENTS}
    return client.post(reverse("admin:league_fixture_add"), data, follow=True)


def test_lg2_the_admin_adds_no_fixture_for_an_entrant_who_withdrew(client, organiser, round_one):
    rnd, entries = round_one
    entries[3].withdrawn_at = timezone.now()
    entries[3].save(update_fields=["withdrawn_at"])
    client.force_login(organiser)
    response = add(client, rnd, entries[2], entries[3])
    assert f"{entries[3]} has withdrawn from {rnd.season.name}." in response.content.decode()
    assert Fixture.objects.filter(round=rnd).count() == 1


def test_a_fixture_added_in_the_admin_is_the_services(client, organiser, round_one):
    rnd, entries = round_one
    client.force_login(organiser)
    add(client, rnd, entries[2], entries[3])
    fixture = Fixture.objects.get(round=rnd, home=entries[2])
    assert (fixture.away, fixture.date, fixture.stage) == (entries[3], datetime.date(2026, 9, 8), Fixture.Stage.REGULAR)


def test_db5a_the_service_makes_a_fixture_between_divisions_a_friendly_and_checks_who_asks(organiser, round_one):
    rnd, entries = round_one
    north, south = (Division.objects.create(season=rnd.season, name=name) for name in ("North", "South"))
    for entry, division in zip(entries, (north, north, south, south)):
        entry.division = division
        entry.save(update_fields=["division"])
    with pytest.raises(PermissionDenied):
        season_services.add_fixture(round=rnd, home=entries[0], away=entries[2], date=rnd.date,
                                    by=UserFactory(username="stranger"))
    friendly = season_services.add_fixture(round=rnd, home=entries[0], away=entries[2], date=rnd.date, by=organiser)
    assert friendly.stage == Fixture.Stage.FRIENDLY  # a friendly may share a round with a regular fixture
    with pytest.raises(ValidationError, match="already plays in"):
        season_services.add_fixture(round=rnd, home=entries[1], away=entries[0], date=rnd.date, by=organiser)
    assert Fixture.objects.filter(round=rnd).count() == 2

"""The organiser's result form on a Dungeon Bowl fixture: the touchdowns first,
"Unplayed" (DB-5a) folded under "Special cases", with a reason asked only when it
is ticked."""

import pytest

from league.dungeonbowl.models import GameReport
from league.models import Fixture, Result, ResultEvent
from tests.dungeonbowl.builders import db_season
from tests.dungeonbowl.postgame.test_postgame import post
from tests.support.organiser_form import (
    assert_scores_first_and_cases_folded, reason_asked, record_form_html, record_url,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def fixture(organiser):
    season = db_season(organiser, teams=4)
    return Fixture.objects.with_related().filter(round__season=season, round__number=1).first()


def test_the_form_starts_with_the_touchdowns_and_folds_unplayed(client, fixture, organiser):
    client.force_login(organiser)
    form = record_form_html(client.get(fixture.get_absolute_url()).content.decode(), fixture)
    assert_scores_first_and_cases_folded(form, ["home_score", "away_score"], ["abandoned"])
    assert "Unplayed by the deadline" in form[form.index("<details"):]


def test_a_result_is_recorded_with_no_reason(client, fixture, organiser):
    client.force_login(organiser)
    response = client.post(record_url(fixture), post(fixture))
    assert response.status_code == 302, response.content.decode()[-2000:]
    assert Result.objects.get().is_approved and GameReport.objects.count() == 1


def test_unplayed_without_a_reason_is_refused_and_with_one_recorded(client, fixture, organiser):
    client.force_login(organiser)
    unplayed = {**post(fixture), "abandoned": "on"}
    response = client.post(record_url(fixture), unplayed)
    assert response.status_code == 400 and reason_asked(response.content.decode(), "Unplayed")
    assert not Result.objects.exists() and not ResultEvent.objects.exists() and not GameReport.objects.exists()
    response = client.post(record_url(fixture), {**unplayed, "abandoned_reason": "Deadline passed"})
    assert response.status_code == 302
    assert Result.objects.get().summary == "Unplayed" and fixture.events.get().note == "Deadline passed"


@pytest.mark.parametrize("who, status", [("anonymous", 302), ("home", 403), ("other_organiser", 403)])
def test_only_the_organiser_records(client, fixture, request, who, status):
    if who == "home":
        client.force_login(fixture.home.coach.user)
    elif who != "anonymous":
        client.force_login(request.getfixturevalue(who))
    assert client.post(record_url(fixture), post(fixture)).status_code == status
    assert not Result.objects.exists()

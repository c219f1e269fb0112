"""The organiser's result form on a DreadBall fixture: who won and by how much
first, "Abandoned" folded under "Special cases", with a reason asked only when
it is ticked."""

import pytest

from league.dreadball.models import DreadBallResult
from league.models import Result, ResultEvent
from tests.support.organiser_form import (
    assert_scores_first_and_cases_folded, reason_asked, record_form_html, record_url,
)

pytestmark = pytest.mark.django_db

WIN = {"winner": "home", "difference": "3", "rush": "14"}


def test_the_form_starts_with_the_result_and_folds_abandoned(client, dr_fixture, organiser):
    client.force_login(organiser)
    form = record_form_html(client.get(dr_fixture.get_absolute_url()).content.decode(), dr_fixture)
    assert_scores_first_and_cases_folded(form, ["winner", "winner", "winner", "difference", "rush"], ["abandoned"])
    assert 'name="override"' not in form and 'name="acknowledge"' not in form


def test_a_result_is_recorded_with_no_reason(client, dr_fixture, organiser):
    client.force_login(organiser)
    assert client.post(record_url(dr_fixture), WIN).status_code == 302
    assert Result.objects.get().is_approved and DreadBallResult.objects.get().rush == 14


def test_abandoned_without_a_reason_is_refused_and_with_one_recorded(client, dr_fixture, organiser):
    client.force_login(organiser)
    response = client.post(record_url(dr_fixture), {"abandoned": "on"})
    assert response.status_code == 400 and reason_asked(response.content.decode(), "Abandoned")
    assert not Result.objects.exists() and not ResultEvent.objects.exists()
    response = client.post(record_url(dr_fixture), {"abandoned": "on", "abandoned_reason": "Hall flooded"})
    assert response.status_code == 302
    assert Result.objects.get().outcome == "abandoned" and dr_fixture.events.get().note == "Hall flooded"


@pytest.mark.parametrize("who, status", [("anonymous", 302), ("outsider", 403), ("bystander", 403), ("home", 403)])
def test_only_the_organiser_records(client, dr_fixture, request, who, status):
    users = {"home": dr_fixture.home.coach.user}
    if who != "anonymous":
        client.force_login(users.get(who) or request.getfixturevalue(who))
    assert client.post(record_url(dr_fixture), WIN).status_code == status
    assert not Result.objects.exists()

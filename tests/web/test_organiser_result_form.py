"""The organiser's result form on a Guild Ball fixture (GB-6, GB-8): the scores
first, the special cases folded under them, each asking for a reason only when
its box is ticked."""

import pytest
from django.core.exceptions import ValidationError

from league.models import Result, ResultEvent
from league.services import results as services
from tests.support.organiser_form import (
    assert_scores_first_and_cases_folded, reason_asked, record_form_html, record_url,
)

pytestmark = pytest.mark.django_db


def test_the_form_starts_with_the_scores_and_folds_the_special_cases(client, fixture, organiser, league):
    client.force_login(organiser)
    form = record_form_html(client.get(fixture.get_absolute_url()).content.decode(), fixture)
    # A plain Guild Ball league: no layer warns about Favours, so two cases.
    cases = ["abandoned", "override"] + (["acknowledge"] if 'name="acknowledge"' in form else [])
    assert_scores_first_and_cases_folded(form, ["home_score", "away_score"], cases)
    assert "GB-" not in form and "Reason (needed only when this box is ticked)" in form


def test_scores_alone_are_recorded_with_no_reason(client, fixture, organiser):
    client.force_login(organiser)
    response = client.post(record_url(fixture), {"home_score": 12, "away_score": 7})
    assert response.status_code == 302
    result = Result.objects.get(fixture=fixture)
    assert (result.home_score, result.away_score, result.is_approved, result.override_reason) == (12, 7, True, "")
    assert fixture.events.get().note == ""


@pytest.mark.parametrize("box, case", [("abandoned", "Abandoned"), ("override", "A score the rules reject")])
def test_a_ticked_case_without_its_reason_is_refused_and_writes_nothing(client, fixture, organiser, box, case):
    client.force_login(organiser)
    # A reason typed elsewhere (the note, another case's box) is not this case's reason.
    data = {"home_score": 9, "away_score": 4, box: "on", "reason": "a note", f"{box}_reason": "  "}
    response = client.post(record_url(fixture), data)
    assert response.status_code == 400 and reason_asked(response.content.decode(), case)
    assert not Result.objects.exists() and not ResultEvent.objects.exists()


def test_an_abandoned_match_with_its_reason_is_recorded_with_it(client, fixture, organiser):
    client.force_login(organiser)
    response = client.post(record_url(fixture), {
        "home_score": 6, "away_score": 4, "abandoned": "on", "abandoned_reason": "Venue closed early",
        "override_reason": "typed under a box left unticked",
    })
    assert response.status_code == 302
    result = Result.objects.get(fixture=fixture)
    assert result.outcome == "abandoned"
    assert fixture.events.get().note == "Venue closed early"


def test_an_accepted_score_keeps_its_reason_and_the_note(client, fixture, organiser):
    client.force_login(organiser)
    response = client.post(record_url(fixture), {
        "home_score": 9, "away_score": 4, "override": "on", "override_reason": "Time called", "reason": "by phone",
    })
    assert response.status_code == 302
    result = Result.objects.get(fixture=fixture)
    assert result.outcome == "home" and result.override_reason == "Time called \u00b7 by phone"


def test_the_service_still_wants_a_reason_for_a_special_case(fixture, organiser):
    with pytest.raises(ValidationError, match="Give a reason for abandoned"):
        services.record_result(fixture=fixture, by=organiser, abandoned=True, home_score=1, away_score=0)
    assert not Result.objects.exists()


@pytest.mark.parametrize("who, status", [
    ("anonymous", 302), ("wrong_coach_user", 403), ("home_user", 403), ("other_organiser", 403),
])
def test_only_the_organiser_records(client, fixture, request, who, status):
    if who != "anonymous":
        client.force_login(request.getfixturevalue(who))
    response = client.post(record_url(fixture), {"home_score": 12, "away_score": 7, "abandoned": "on",
                                                 "abandoned_reason": "x"})
    assert response.status_code == status
    assert not Result.objects.exists()
    if who != "anonymous":
        assert 'action="%s"' % record_url(fixture) not in client.get(fixture.get_absolute_url()).content.decode()

"""The engine's result workflow on a DreadBall fixture, for every role: anonymous,
a coach in no league, the wrong coach, the right coach and the organiser."""

import pytest
from django.urls import reverse

from league.services import results as services
from league.dreadball.models import DreadBallResult
from league.models import Result

pytestmark = pytest.mark.django_db

LANDSLIDE = {"winner": "home", "difference": "7", "rush": "9"}
SUDDEN_DEATH_WIN = {"winner": "away", "difference": "3", "rush": "16", "sudden_death": "on"}


def _login(client, who, fixture, organiser, bystander, outsider):
    users = {
        "anonymous": None,
        "outsider": outsider,
        "wrong_coach": bystander,
        "home": fixture.home.coach.user,
        "away": fixture.away.coach.user,
        "organiser": organiser,
    }
    if users[who] is not None:
        client.force_login(users[who])


def _reported(fixture):
    return services.report_result(
        fixture=fixture, by=fixture.home.coach.user, winner="home", difference=2, rush=14, sudden_death=False
    )


# (action, who does it, needs a report first, POST data, expected status)
CASES = [
    *[("report", who, False, LANDSLIDE, status) for who, status in
      [("anonymous", 302), ("outsider", 403), ("wrong_coach", 403), ("organiser", 403), ("home", 302)]],
    *[("confirm", who, True, {}, status) for who, status in
      [("anonymous", 302), ("outsider", 403), ("wrong_coach", 403), ("organiser", 403), ("away", 302)]],
    *[("dispute", who, True, {"reason": "It was 3, not 2"}, status) for who, status in
      [("anonymous", 302), ("outsider", 403), ("wrong_coach", 403), ("organiser", 403), ("away", 302)]],
    *[("approve", who, True, {"reason": "The away coach agreed by phone"}, status) for who, status in
      [("anonymous", 302), ("outsider", 403), ("wrong_coach", 403), ("home", 403), ("organiser", 302)]],
    *[("record", who, False, {**SUDDEN_DEATH_WIN, "reason": "From the scoresheet"}, status) for who, status in
      [("anonymous", 302), ("outsider", 403), ("wrong_coach", 403), ("home", 403), ("organiser", 302)]],
]

URLS = {
    "report": "league:report_result", "confirm": "league:confirm_result", "dispute": "league:dispute_result",
    "approve": "league:approve_result", "record": "league:record_result",
}


def _state(fixture):
    result = Result.objects.filter(fixture=fixture).first()
    if result is None:
        return None
    detail = DreadBallResult.objects.filter(result=result).values_list("difference", "landslide", "rush", "sudden_death").first()
    return result.status, result.outcome, result.summary, detail


@pytest.mark.parametrize("action, who, reported, data, status", CASES, ids=lambda v: v if isinstance(v, str) else "")
def test_workflow_by_role(client, dr_fixture, organiser, bystander, outsider, action, who, reported, data, status):
    if reported:
        _reported(dr_fixture)
    before = _state(dr_fixture)
    _login(client, who, dr_fixture, organiser, bystander, outsider)

    response = client.post(reverse(URLS[action], args=[dr_fixture.pk]), data)

    assert response.status_code == status
    after = _state(dr_fixture)
    if status != 302 or who == "anonymous":
        if who == "anonymous":
            assert response.url.startswith(reverse("login"))
        assert after == before  # refused: nothing written
        return
    assert response.url == dr_fixture.get_absolute_url()
    page = client.get(response.url).content.decode()
    expected = {
        "report": ("reported", "home", "7–0, landslide", (7, True, 9, False)),
        "confirm": ("confirmed", "home", "2–0", (2, False, 14, False)),
        "dispute": ("disputed", "home", "2–0", (2, False, 14, False)),
        "approve": ("approved", "home", "2–0", (2, False, 14, False)),
        "record": ("approved", "away", "0–3, Sudden Death", (3, False, 16, True)),
    }[action]
    assert after == expected
    assert f"Dana {expected[2]} Tavi" in page
    assert {"report": "Awaiting confirmation", "confirm": "Confirmed, awaiting approval", "dispute": "It was 3, not 2",
            "approve": "Approved", "record": "Approved"}[action] in page


@pytest.mark.parametrize(
    "data, message",
    [
        ({"winner": "home", "difference": "5", "rush": "9"},
         "A game that ended in Rush 9 must have been a landslide: a difference of 7"),
        ({"winner": "draw", "difference": "0", "rush": "14"}, "A draw needs Sudden Death"),
        ({"winner": "home", "difference": "0", "rush": "14"}, "a difference of 0 is a draw, or a Sudden Death win"),
        ({"winner": "home", "difference": "0", "rush": "14", "sudden_death": "on"}, "Sudden Death starts after Rush 14"),
        ({"winner": "home", "difference": "2", "rush": "14", "sudden_death": "on"},
         "Sudden Death starts after Rush 14"),
        ({"winner": "home", "difference": "8", "rush": "14"}, "The difference is at most 7"),
        ({"winner": "home", "difference": "2"}, "Enter the Rush the game ended in."),
        ({"winner": "home", "difference": "two", "rush": "14"}, "Enter the difference as a whole number"),
    ],
)
def test_a_refused_report_is_shown_on_the_form_and_writes_nothing(client, dr_fixture, data, message):
    client.force_login(dr_fixture.home.coach.user)
    response = client.post(reverse("league:report_result", args=[dr_fixture.pk]), data)
    assert response.status_code == 400
    assert message in response.content.decode().replace("&#x27;", "'")
    assert not Result.objects.filter(fixture=dr_fixture).exists()


def test_dr3_a_sudden_death_win_with_the_score_level_is_reported_and_stored(client, dr_fixture, organiser):
    """DR-3 Decision: only one team can still throw at the end of a Visiting Rush
    in Sudden Death, so it wins with the score level. The form, the service and
    the database's checks take it; the page says it was a win, not a draw."""
    client.force_login(dr_fixture.home.coach.user)
    data = {"winner": "away", "difference": "0", "rush": "15", "sudden_death": "on"}
    response = client.post(reverse("league:report_result", args=[dr_fixture.pk]), data)
    assert response.status_code == 302
    assert _state(dr_fixture) == ("reported", "away", "0–0, Sudden Death win", (0, False, 15, True))
    services.confirm_result(result=Result.objects.get(fixture=dr_fixture), by=dr_fixture.away.coach.user)
    services.approve_result(result=Result.objects.get(fixture=dr_fixture), by=organiser, reason="seen")
    page = client.get(dr_fixture.get_absolute_url()).content.decode()
    assert "Dana 0–0, Sudden Death win Tavi" in page
    table = client.get(dr_fixture.round.season.league.get_absolute_url()).content.decode()
    assert "Strike Difference" in table


def test_the_report_form_names_the_coaches(client, dr_fixture):
    client.force_login(dr_fixture.away.coach.user)
    page = client.get(dr_fixture.get_absolute_url()).content.decode()
    assert "Dana won" in page and "Tavi won" in page and "Draw (only after Sudden Death)" in page
    assert "Rush the game ended in" in page and "Sudden Death was played" in page


def test_organiser_abandons_a_loss_for_both_and_correction_drops_the_details(client, dr_fixture, organiser):
    services.record_result(fixture=dr_fixture, by=organiser, reason="entered", winner="home", difference=7,
                           rush=10, sudden_death=False)
    client.force_login(organiser)
    response = client.post(
        reverse("league:record_result", args=[dr_fixture.pk]), {"abandoned": "on", "abandoned_reason": "Hall flooded"}
    )
    assert response.status_code == 302
    result = Result.objects.get(fixture=dr_fixture)
    assert (result.outcome, result.summary, result.is_approved) == ("abandoned", "abandoned", True)
    assert not DreadBallResult.objects.exists()
    assert "a loss for both" in client.get(dr_fixture.get_absolute_url()).content.decode()


def test_organiser_correction_form_starts_from_the_stored_result(client, dr_fixture, organiser):
    services.record_result(fixture=dr_fixture, by=organiser, reason="entered", winner="draw", difference=0,
                           rush=18, sudden_death=True)
    client.force_login(organiser)
    form = client.get(dr_fixture.get_absolute_url()).context["record_form"]
    assert form.initial == {"winner": "draw", "difference": 0, "rush": 18, "sudden_death": True}


def test_the_team_registration_starts_with_the_name_the_organiser_entered(client, dr_fixture):
    client.force_login(dr_fixture.home.coach.user)
    response = client.get(reverse("dreadball:register_team", args=[dr_fixture.round.season.league.slug]))
    assert response.context["form"]["name"].value() == "Voss Voltage"
    assert 'value="Voss Voltage"' in response.content.decode()

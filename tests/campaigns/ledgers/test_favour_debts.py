"""GB-20 Decision: a correction that takes back Favours already spent
leaves a debt. The Longshanks is warned before it (the coaches and amounts) on the
fixture page's correction form and in the admin's correct action, and the coach's
campaign page shows the debt and its cause."""

import pytest
from django.urls import reverse

from campaigns.ledgers import balances
from campaigns.dealing import services as dealing
from campaigns.dealing import phases
from campaigns.models import Sponsorship
from league.services import results as league_services
from league.models import Fixture, Result
from tests.campaigns.factories import fixture_between, make_campaign, play, user_of
from tests.support.organiser_form import assert_scores_first_and_cases_folded, reason_asked, record_form_html
from tests.admin.test_organiser_admin import messages_of, run_action

pytestmark = pytest.mark.django_db


@pytest.fixture
def spent(season, organiser):
    """a beat b in round 1; b (3 Favours for the loss) spent all 3."""
    coaches = make_campaign(season, 4, organiser=organiser)
    a, b = coaches[0], coaches[1]
    fixture = fixture_between(a, b)
    for f in Fixture.objects.filter(round=fixture.round):
        play(f, winner=a if f == fixture else f.home.campaign_coach, organiser=organiser)
    for name in ["+1 DEF", "Re-roll Shots", "+2/+0 INF"]:
        dealing.buy_sponsorship(coach=b, sponsorship=Sponsorship.objects.get(name=name), by=user_of(b))
    assert balances.favour_balance(b) == 0 and balances.favour_balance(a) == 1
    return a, b, fixture


def b_wins(fixture, b):
    home = fixture.home_id == b.entry_id
    return {"home_score": 12 if home else 6, "away_score": 6 if home else 12}


WARNING = "Coach 01 has already spent Favours this correction takes back: their balance goes from 0 to -2, a debt of 2"


def test_the_service_warns_and_writes_nothing_until_acknowledged_gb20(spent, organiser):
    a, b, fixture = spent
    with pytest.raises(league_services.NeedsAcknowledgement) as caught:
        league_services.record_result(fixture=fixture, by=organiser, reason="scores swapped", **b_wins(fixture, b))
    assert caught.value.warnings == [WARNING + " Favours."]
    result = Result.objects.get(fixture=fixture)
    assert result.winner_side() == ("home" if fixture.home_id == a.entry_id else "away")
    assert balances.favour_balance(b) == 0 and balances.favour_balance(a) == 1
    league_services.record_result(
        fixture=fixture, by=organiser, reason="scores swapped", acknowledged=True, **b_wins(fixture, b)
    )
    # Exactly what the result gave is reversed: b's 3 for the loss, a's 1 for the win.
    assert balances.favour_balance(b) == 3 - 3 - 3 + 1 and balances.favour_balance(a) == 1 - 1 + 3
    # A correction that leaves nobody deeper in debt needs no acknowledgement.
    b_home = fixture.home_id == b.entry_id
    league_services.record_result(
        fixture=fixture, by=organiser, reason="loser's VP typo",
        home_score=12 if b_home else 4, away_score=4 if b_home else 12,
    )
    assert balances.favour_balance(b) == -2


def test_fixture_page_correction_form_warns_then_goes_ahead_and_the_coach_sees_the_debt(spent, organiser, client):
    a, b, fixture = spent
    client.force_login(organiser)
    url = reverse("league:record_result", args=[fixture.pk])
    data = {**b_wins(fixture, b), "reason": "scores swapped"}
    response = client.post(url, data)
    page = response.content.decode()
    assert response.status_code == 400 and WARNING in page and "tick the box to go ahead" in page
    assert balances.favour_balance(b) == 0
    response = client.post(url, {**data, "acknowledge": "on", "acknowledge_reason": "the sheet was read backwards"})
    assert response.status_code == 302, response.content.decode()[-3000:]
    assert balances.favour_balance(b) == -2
    client.force_login(user_of(b))
    page = client.get(reverse("campaigns:coach_page", args=["midlands", b.entry.coach_id])).content.decode()
    assert "Favours owed: 2" in page
    assert f"-3: {fixture.round} result corrected or reopened: Round 1: lost to Coach 00" in page
    # In debt, b cannot spend until the balance covers the cost (GB-20).
    assert phases.phase_for(b).is_open
    response = client.post(reverse("campaigns:buy_advancement", args=["midlands"]))
    assert response.status_code == 400 and "you have -2" in response.content.decode()


def test_admin_correct_action_warns_then_goes_ahead_gb20(spent, organiser, client):
    a, b, fixture = spent
    client.force_login(organiser)
    result = Result.objects.get(fixture=fixture)
    data = {**b_wins(fixture, b), "reason": "scores swapped", "apply": "1"}
    response = run_action(client, "result", "correct", [result], query="?show=all", **data)
    assert WARNING in response.content.decode()
    assert balances.favour_balance(b) == 0
    response = run_action(client, "result", "correct", [result], query="?show=all", **data, acknowledge="on")
    assert "Result corrected." in messages_of(response)
    assert balances.favour_balance(b) == -2


def test_going_ahead_with_a_favour_debt_asks_for_its_reason_on_the_form(spent, organiser, client):
    a, b, fixture = spent
    client.force_login(organiser)
    url = reverse("league:record_result", args=[fixture.pk])
    page = client.get(fixture.get_absolute_url()).content.decode()
    form = record_form_html(page, fixture)
    assert_scores_first_and_cases_folded(form, ["home_score", "away_score"], ["abandoned", "override", "acknowledge"])
    response = client.post(url, {**b_wins(fixture, b), "acknowledge": "on"})
    assert response.status_code == 400 and reason_asked(response.content.decode(), "A Favour debt")
    assert balances.favour_balance(b) == 0 and Result.objects.get(fixture=fixture).winner_side() != (
        "home" if fixture.home_id == b.entry_id else "away")
    response = client.post(url, {**b_wins(fixture, b), "acknowledge": "on", "acknowledge_reason": "sheet misread"})
    assert response.status_code == 302 and balances.favour_balance(b) == -2
    assert fixture.events.order_by("-id").first().note == "sheet misread"

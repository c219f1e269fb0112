"""Disputing with the result the coach says is right, and the organiser accepting
one version (league/services/disputes.py, GB-8): for every role, what the pages show and
what the database holds."""

import pytest
from django.core import mail
from django.urls import reverse

from league.services import results as services
from league.models import Result, ResultEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def reported(fixture, home_user):
    return services.report_result(fixture=fixture, by=home_user, home_score=12, away_score=6)


def dispute(client, user, fixture, **extra):
    client.force_login(user)
    data = {"reason": "We drew the last goal differently", **extra}
    return client.post(reverse("league:dispute_result", args=[fixture.pk]), data)


def settle(client, user, fixture, accept, **extra):
    client.force_login(user)
    return client.post(reverse("league:settle_dispute", args=[fixture.pk]), {"accept": accept, **extra})


def test_the_dispute_form_offers_the_games_own_form_filled_with_the_report(client, fixture, reported, away_user):
    client.force_login(away_user)
    page = client.get(fixture.get_absolute_url()).content.decode()
    assert "The result as you say it was" in page
    assert 'name="proposed-home_score"' in page and 'value="12"' in page
    assert 'name="propose"' in page


def test_a_dispute_with_a_version_is_stored_and_shown_side_by_side(client, fixture, reported, away_user, organiser):
    response = dispute(client, away_user, fixture, propose="on", **{"proposed-home_score": 10, "proposed-away_score": 12})
    assert response.status_code == 302
    result = Result.objects.get()
    assert result.status == "disputed" and result.proposed_facts == {"home_score": 10, "away_score": 12}
    assert result.proposed_summary == "10 – 12" and (result.home_score, result.away_score) == (12, 6)
    client.force_login(organiser)
    for url in (fixture.get_absolute_url(), reverse("league:organiser_dashboard", args=[fixture.round.season.league.slug])):
        page = client.get(url).content.decode()
        assert "Reported by Velocity" in page and "Rage says" in page
        assert "12 – 6" in page and "10 – 12" in page
        assert "Accept the report" in page and "Accept this version" in page


def test_a_dispute_without_the_box_ticked_stores_no_version(client, fixture, reported, away_user, organiser):
    # The proposal's fields always arrive (they are filled in); without the box they are ignored.
    response = dispute(client, away_user, fixture, **{"proposed-home_score": 99})
    assert response.status_code == 302
    result = Result.objects.get()
    assert result.status == "disputed" and result.proposed_facts is None and result.proposed_summary == ""
    client.force_login(organiser)
    page = client.get(fixture.get_absolute_url()).content.decode()
    assert "No other result given" in page and "Accept this version" not in page


def test_an_impossible_version_is_refused_and_nothing_changes(client, fixture, reported, away_user):
    response = dispute(client, away_user, fixture, propose="on", **{"proposed-home_score": 12, "proposed-away_score": 12})
    assert response.status_code == 400
    assert "The result as you say it was" in response.content.decode()
    result = Result.objects.get()
    assert result.status == "reported" and result.proposed_facts is None
    response = dispute(client, away_user, fixture, propose="on", **{"proposed-home_score": "x"})
    assert response.status_code == 400 and Result.objects.get().status == "reported"


def test_accepting_the_coachs_version_records_it_approved(client, fixture, reported, away_user, organiser, django_capture_on_commit_callbacks):
    dispute(client, away_user, fixture, propose="on", **{"proposed-home_score": 10, "proposed-away_score": 12})
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = settle(client, organiser, fixture, "proposed", back="dashboard")
    assert response.status_code == 302 and response.url == reverse("league:organiser_dashboard", args=["midlands"])
    result = Result.objects.get()
    assert (result.status, result.home_score, result.away_score, result.outcome) == ("approved", 10, 12, "away")
    event = ResultEvent.objects.filter(fixture=fixture).latest("pk")
    assert event.action == "corrected" and "Rage's version accepted" in event.note
    assert sorted(m.to[0] for m in mail.outbox) == sorted([fixture.home.coach.email, fixture.away.coach.email])
    page = client.get(reverse("league:league_detail", args=["midlands"])).content.decode()
    assert "Rage" in page


def test_accepting_the_report_approves_it_with_the_reason_kept(client, fixture, reported, away_user, organiser):
    dispute(client, away_user, fixture, propose="on", **{"proposed-home_score": 10, "proposed-away_score": 12})
    response = settle(client, organiser, fixture, "reported")
    assert response.status_code == 302 and response.url == fixture.get_absolute_url()
    result = Result.objects.get()
    assert (result.status, result.home_score, result.away_score) == ("approved", 12, 6)
    event = ResultEvent.objects.filter(fixture=fixture).latest("pk")
    assert event.action == "approved" and "Velocity's report accepted" in event.note


def test_only_the_leagues_organiser_settles(client, fixture, reported, home_user, away_user, other_organiser):
    dispute(client, away_user, fixture, propose="on", **{"proposed-home_score": 10, "proposed-away_score": 12})
    client.logout()
    response = client.post(reverse("league:settle_dispute", args=[fixture.pk]), {"accept": "proposed"})
    assert response.status_code == 302 and reverse("login") in response.url
    for user in (home_user, away_user, other_organiser):
        assert settle(client, user, fixture, "proposed").status_code == 403
    assert Result.objects.get().status == "disputed"


def test_settling_what_is_not_disputed_or_a_bad_choice_changes_nothing(client, fixture, reported, away_user, organiser):
    response = settle(client, organiser, fixture, "reported")
    assert response.status_code == 302
    assert "no dispute to settle" in client.get(response.url).content.decode()
    assert Result.objects.get().status == "reported"
    dispute(client, away_user, fixture)
    response = settle(client, organiser, fixture, "proposed")
    assert "did not say what the result should be" in client.get(response.url).content.decode()
    response = settle(client, organiser, fixture, "bogus")
    assert "Choose which version" in client.get(response.url).content.decode()
    assert Result.objects.get().status == "disputed"
    # A GET of the action address goes to the fixture page (league/web/reload.py).
    assert client.get(reverse("league:settle_dispute", args=[fixture.pk])).url == fixture.get_absolute_url()


def test_the_disputes_mail_and_history_show_both_versions(
    client, fixture, reported, away_user, organiser, django_capture_on_commit_callbacks
):
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = dispute(client, away_user, fixture, propose="on",
                           **{"proposed-home_score": 10, "proposed-away_score": 12})
    assert response.status_code == 302
    [message] = mail.outbox
    assert message.to == [organiser.email]
    for body in (message.body, message.alternatives[0][0]):
        assert "Velocity reported: " in body and "12 – 6" in body
        assert "Rage disputes it: We drew the last goal differently" in body
        assert "Rage says it was: " in body and "10 – 12" in body
    event = ResultEvent.objects.get(action="disputed")
    assert (event.summary, event.note) == ("12 – 6", "says 10 – 12: We drew the last goal differently")
    page = client.get(fixture.get_absolute_url()).content.decode()
    assert "12 – 6 <span class=\"muted\">(says 10 – 12: We drew the last goal differently)</span>" in page


def test_a_dispute_without_a_version_says_so_in_its_mail(
    client, fixture, reported, away_user, organiser, django_capture_on_commit_callbacks
):
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert dispute(client, away_user, fixture).status_code == 302
    [message] = mail.outbox
    assert "No other result was given" in message.body
    assert ResultEvent.objects.get(action="disputed").note == "We drew the last goal differently"

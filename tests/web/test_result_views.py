"""The result workflow through the site, for every role (GB-6, GB-7, GB-8)."""

import datetime

import pytest
from django.core import mail
from django.urls import reverse

from league.services import results as services
from league.models import Fixture, Result, ResultEvent
from tests.support.factories import CoachFactory, EntryFactory, FixtureFactory

pytestmark = pytest.mark.django_db


def report(client, fixture, home, away):
    return client.post(reverse("league:report_result", args=[fixture.pk]), {"home_score": home, "away_score": away})


# Reporting -------------------------------------------------------------------


def test_anonymous_is_sent_to_login_and_nothing_is_written(client, fixture):
    response = report(client, fixture, 12, 4)
    assert response.status_code == 302 and reverse("login") in response.url
    assert not Result.objects.exists()


def test_wrong_coach_cannot_report(client, fixture, wrong_coach_user):
    client.force_login(wrong_coach_user)
    assert report(client, fixture, 12, 4).status_code == 403
    assert not Result.objects.exists()


def test_other_leagues_organiser_cannot_report(client, fixture, other_organiser):
    client.force_login(other_organiser)
    assert report(client, fixture, 12, 4).status_code == 403
    assert not Result.objects.exists()


def test_organiser_does_not_report_as_a_coach(client, fixture, organiser):
    client.force_login(organiser)
    assert report(client, fixture, 12, 4).status_code == 403
    assert not Result.objects.exists()


def test_right_coach_reports_and_page_shows_it(client, fixture, home_user):
    client.force_login(home_user)
    page = client.get(fixture.get_absolute_url())
    assert b"Report the result" in page.content
    response = report(client, fixture, 9, 13)
    assert response.status_code == 302
    result = Result.objects.get(fixture=fixture)
    assert (result.home_score, result.away_score, result.outcome, result.status) == (9, 13, "away", "reported")
    assert result.reported_side == "home"
    page = client.get(fixture.get_absolute_url())
    text = page.content.decode()
    assert "Velocity 9 – 13 Rage" in text
    assert "Awaiting confirmation" in text
    assert "Waiting for your opponent to confirm" in text
    assert "Report the result" not in text
    assert "Reported by Velocity" in text  # the display name, not the username


@pytest.mark.parametrize(
    ("home", "away", "message"),
    [
        (10, 10, "Guild Ball has no draws"),
        (11, 9, "The winner must reach 12 VP"),
        (20, 3, "No score can be above 16 VP"),
        (-2, 12, "Points cannot be negative"),
        ("twelve", 3, "Enter a whole number"),
        ("", 3, "Enter both scores"),
    ],
)
def test_bad_scores_get_a_message_and_change_nothing(client, fixture, home_user, home, away, message):
    client.force_login(home_user)
    response = report(client, fixture, home, away)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Result.objects.exists() and not ResultEvent.objects.exists()


def test_double_submission_is_refused(client, fixture, home_user, away_user):
    client.force_login(home_user)
    report(client, fixture, 12, 4)
    # The same report sent again (a page kept offline) is the report there is:
    # accepted, nothing written twice.
    response = report(client, fixture, 12, 4)
    assert response.status_code == 302 and ResultEvent.objects.count() == 1
    # A different one is refused, naming the stored one, for the coach to change it on purpose.
    response = report(client, fixture, 4, 12)
    text = response.content.decode()
    assert response.status_code == 400 and "You reported this match already (12 – 4)" in text
    assert 'action="%s"' % reverse("league:change_report", args=[fixture.pk]) in text
    assert Result.objects.get().summary == "12 – 4" and ResultEvent.objects.count() == 1
    # The opponent's own, different report (sent from a phone that was offline) is
    # not a second result: it disputes the first (GB-8).
    client.force_login(away_user)
    response = report(client, fixture, 4, 12)
    assert response.status_code == 302
    assert Result.objects.count() == 1
    result = Result.objects.get()
    assert (result.home_score, result.away_score, result.status) == (12, 4, "disputed")
    assert result.proposed_summary == "4 – 12"
    assert ResultEvent.objects.filter(action="reported").count() == 1


def test_result_for_a_bye_is_refused(client, season, organiser):
    bye = FixtureFactory(round__season=season, away=None)
    client.force_login(bye.home.coach.user)
    response = report(client, bye, 12, 0)
    assert response.status_code in (400, 403)
    client.force_login(organiser)
    response = client.post(
        reverse("league:record_result", args=[bye.pk]), {"home_score": 12, "away_score": 0, "reason": "typo"}
    )
    assert response.status_code == 400
    assert "has a bye" in response.content.decode()
    assert not Result.objects.exists()


def test_unknown_fixture_is_404(client, home_user):
    client.force_login(home_user)
    assert client.get(reverse("league:fixture_detail", args=[999999])).status_code == 404
    assert report(client, Fixture(pk=999999), 12, 0).status_code == 404


@pytest.mark.parametrize(
    "name", ["report_result", "confirm_result", "dispute_result", "approve_result", "record_result", "rearrange_fixture", "reopen_result"]
)
def test_get_on_a_post_only_url_goes_back_to_the_fixture(client, fixture, home_user, name):
    """After a refused form the address is the action's: opening it again with a
    GET (a reload without the form data) shows the fixture, never a 405, and
    writes nothing (league/web/reload.py)."""
    client.force_login(home_user)
    response = client.get(reverse(f"league:{name}", args=[fixture.pk]))
    assert response.status_code == 302 and response["Location"] == fixture.get_absolute_url()
    assert not Result.objects.filter(fixture=fixture).exists()


def test_a_refused_report_re_renders_the_page_with_its_errors(client, fixture, home_user):
    client.force_login(home_user)
    refused = report(client, fixture, 10, 10)
    assert refused.status_code == 400
    page = refused.content.decode()
    assert "Guild Ball has no draws" in page
    assert f'action="{reverse("league:report_result", args=[fixture.pk])}"' in page
    assert client.get(reverse("league:report_result", args=[fixture.pk]), follow=True).status_code == 200


# Confirming and disputing ---------------------------------------------------------


@pytest.fixture
def reported(fixture, home_user):
    return services.report_result(fixture=fixture, by=home_user, home_score=12, away_score=7)


def test_opponent_confirms(client, reported, away_user):
    client.force_login(away_user)
    page = client.get(reported.fixture.get_absolute_url()).content.decode()
    assert "Your opponent reported this result" in page
    response = client.post(reverse("league:confirm_result", args=[reported.fixture.pk]))
    assert response.status_code == 302
    reported.refresh_from_db()
    assert reported.status == "confirmed"


def test_reporter_cannot_confirm_own_report(client, reported, home_user):
    client.force_login(home_user)
    response = client.post(reverse("league:confirm_result", args=[reported.fixture.pk]), follow=True)
    assert "your opponent confirms it" in response.content.decode()
    reported.refresh_from_db()
    assert reported.status == "reported"


@pytest.mark.parametrize("who", ["wrong_coach_user", "other_organiser"])
def test_outsiders_cannot_confirm_or_dispute(client, reported, who, request):
    client.force_login(request.getfixturevalue(who))
    assert client.post(reverse("league:confirm_result", args=[reported.fixture.pk])).status_code == 403
    assert (
        client.post(reverse("league:dispute_result", args=[reported.fixture.pk]), {"reason": "no"}).status_code == 403
    )
    reported.refresh_from_db()
    assert reported.status == "reported"


def test_anonymous_cannot_confirm(client, reported):
    response = client.post(reverse("league:confirm_result", args=[reported.fixture.pk]))
    assert response.status_code == 302 and reverse("login") in response.url


def test_opponent_disputes_with_reason(client, reported, away_user):
    client.force_login(away_user)
    response = client.post(reverse("league:dispute_result", args=[reported.fixture.pk]), {"reason": ""})
    assert response.status_code == 400
    assert "Say what is wrong" in response.content.decode()
    reported.refresh_from_db()
    assert reported.status == "reported"
    client.post(reverse("league:dispute_result", args=[reported.fixture.pk]), {"reason": "It was 12-9"})
    reported.refresh_from_db()
    assert (reported.status, reported.dispute_reason) == ("disputed", "It was 12-9")
    page = client.get(reported.fixture.get_absolute_url()).content.decode()
    assert "Disputed: It was 12-9" in page


# The organiser ------------------------------------------------------------------


def test_organiser_approves_and_standings_count_it(client, reported, organiser, league):
    client.force_login(organiser)
    before = client.get(reverse("league:standings_json", args=[league.slug])).json()
    assert all(row["played"] == 0 for row in before["standings"])
    # GB-8 Decision: the opponent has not confirmed it, so approving is an override
    # that needs a reason; the page says so and nothing is approved without one.
    page = client.get(reported.fixture.get_absolute_url()).content.decode()
    assert "The opponent has not confirmed this result" in page and "Approve without confirmation" in page
    response = client.post(reverse("league:approve_result", args=[reported.fixture.pk]), {"reason": " "})
    assert response.status_code == 400 and "approving it anyway is an override; give the reason" in response.content.decode()
    reported.refresh_from_db()
    assert not reported.is_approved
    response = client.post(reverse("league:approve_result", args=[reported.fixture.pk]), {"reason": "Agreed at the club"})
    assert response.status_code == 302
    reported.refresh_from_db()
    assert reported.is_approved
    assert reported.fixture.events.get(action="approved").note.endswith("Agreed at the club")
    after = client.get(reverse("league:standings_json", args=[league.slug])).json()["standings"]
    assert after[0]["coach"] == "Velocity" and after[0]["lp"] == 3 and after[0]["vp_for"] == 12


@pytest.mark.parametrize("who", ["home_user", "away_user", "wrong_coach_user", "other_organiser"])
def test_only_the_organiser_approves(client, reported, who, request):
    client.force_login(request.getfixturevalue(who))
    assert client.post(reverse("league:approve_result", args=[reported.fixture.pk])).status_code == 403
    reported.refresh_from_db()
    assert reported.status == "reported"


def test_organiser_enters_result_directly_with_a_note(client, fixture, organiser):
    client.force_login(organiser)
    url = reverse("league:record_result", args=[fixture.pk])
    client.post(url, {"home_score": 12, "away_score": 3, "reason": "Reported by phone"})
    assert "(Reported by phone)" in client.get(fixture.get_absolute_url()).content.decode()
    result = Result.objects.get()
    assert result.is_approved and result.outcome == "home" and result.reported_side == ""
    assert fixture.events.get().action == "entered"


def test_organiser_corrects_approved_result_and_standings_follow(client, reported, organiser, league):
    services.approve_result(result=reported, by=organiser, reason="agreed at the club")
    client.force_login(organiser)
    client.post(
        reverse("league:record_result", args=[reported.fixture.pk]),
        {"home_score": 10, "away_score": 12, "reason": "Scoresheet recount"},
    )
    reported.refresh_from_db()
    assert (reported.home_score, reported.away_score, reported.outcome) == (10, 12, "away")
    standings = client.get(reverse("league:standings_json", args=[league.slug])).json()["standings"]
    assert standings[0]["coach"] == "Rage" and standings[0]["lp"] == 3
    page = client.get(reported.fixture.get_absolute_url()).content.decode()
    assert "Corrected by longshanks: 10 – 12" in page and "by the organiser by" not in page
    assert "(Scoresheet recount)" in page


def test_organiser_override_records_reason(client, fixture, organiser):
    client.force_login(organiser)
    url = reverse("league:record_result", args=[fixture.pk])
    response = client.post(url, {"home_score": 9, "away_score": 4, "reason": "Time called"})
    assert response.status_code == 400 and "must reach 12 VP" in response.content.decode()
    client.post(url, {"home_score": 9, "away_score": 4, "override_reason": "Time called", "override": "on"})
    result = Result.objects.get()
    assert result.override_reason == "Time called" and result.outcome == "home"


def test_organiser_abandons_gb6(client, fixture, organiser, league):
    client.force_login(organiser)
    client.post(
        reverse("league:record_result", args=[fixture.pk]),
        {"home_score": 6, "away_score": 4, "abandoned": "on", "abandoned_reason": "Venue closed early"},
    )
    result = Result.objects.get()
    assert result.outcome == "abandoned" and result.is_approved
    standings = client.get(reverse("league:standings_json", args=[league.slug])).json()["standings"]
    rows = {row["coach"]: row for row in standings}
    for name in ("Velocity", "Rage"):
        assert (rows[name]["played"], rows[name]["lost"], rows[name]["lp"], rows[name]["vp_for"]) == (1, 1, 0, 0)
    assert "abandoned: a loss for both" in client.get(fixture.get_absolute_url()).content.decode()


def test_organiser_reopens_result(client, reported, organiser, league):
    services.approve_result(result=reported, by=organiser, reason="agreed at the club")
    client.force_login(organiser)
    url = reverse("league:reopen_result", args=[reported.fixture.pk])
    # The first click asks, naming the result and the reason; nothing changes yet.
    page = client.post(url, {"reason": "Coach appeal"})
    text = page.content.decode()
    assert page.status_code == 200 and "Reopen the result" in text and "Coach appeal" in text
    assert 'name="confirmed" value="yes"' in text and reported.fixture.get_absolute_url() in text
    reported.refresh_from_db()
    assert reported.status == "approved" and reported.fixture.events.filter(action="reopened").count() == 0
    client.post(url, {"reason": "Coach appeal", "confirmed": "yes"})
    reported.refresh_from_db()
    assert reported.status == "reported"
    standings = client.get(reverse("league:standings_json", args=[league.slug])).json()["standings"]
    assert all(row["played"] == 0 for row in standings)


@pytest.mark.parametrize(
    "name, data, message",
    [
        ("approve_result", {"reason": "x"}, "There is no result to approve yet."),
        ("reopen_result", {"reason": "x"}, "There is no result to reopen."),
        ("settle_dispute", {"accept": "reported"}, "There is no result to settle."),
    ],
)
def test_organiser_step_on_a_fixture_without_a_result_goes_back_saying_so(client, fixture, organiser, name, data, message):
    """The fixture page offers these steps only on a result: a POST without one
    (a hand-made one) returns to the fixture with the reason and writes nothing."""
    client.force_login(organiser)
    response = client.post(reverse(f"league:{name}", args=[fixture.pk]), data)
    assert response.status_code == 302 and response.url == fixture.get_absolute_url()
    page = client.get(response.url).content.decode()
    assert message in page
    assert not Result.objects.exists() and not ResultEvent.objects.exists()


def test_other_organiser_cannot_record_rearrange_or_reopen(client, fixture, other_organiser):
    client.force_login(other_organiser)
    for name, data in [
        ("record_result", {"home_score": 12, "away_score": 0, "reason": "x"}),
        ("rearrange_fixture", {"date": "2026-12-01", "reason": "x"}),
        ("reopen_result", {"reason": "x"}),
    ]:
        assert client.post(reverse(f"league:{name}", args=[fixture.pk]), data).status_code == 403
    fixture.refresh_from_db()
    assert not Result.objects.exists() and fixture.rearranged_reason == ""


def test_rearrange_emails_every_coach_with_an_address(
    client, fixture, organiser, season, django_capture_on_commit_callbacks
):
    silent = EntryFactory(season=season, coach=CoachFactory(name="No Mail", email="", user=None))
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("league:rearrange_fixture", args=[fixture.pk]), {"date": "2026-10-01", "reason": "Venue booked"}
        )
    assert response.status_code == 302
    fixture.refresh_from_db()
    assert fixture.date == datetime.date(2026, 10, 1) and fixture.rearranged_reason == "Venue booked"
    recipients = sorted(address for message in mail.outbox for address in message.to)
    assert recipients == sorted([fixture.home.coach.email, fixture.away.coach.email])
    assert silent.coach.name not in recipients
    assert "Venue booked" in mail.outbox[0].body and "Rage" in mail.outbox[0].subject
    page = client.get(fixture.get_absolute_url()).content.decode()
    assert "rearranged" in page and "Venue booked" in page


def test_rearrange_needs_reason_and_valid_date(client, fixture, organiser):
    client.force_login(organiser)
    url = reverse("league:rearrange_fixture", args=[fixture.pk])
    assert client.post(url, {"date": "not a date", "reason": "x"}).status_code == 400
    assert client.post(url, {"date": "2026-10-01", "reason": "  "}).status_code == 400
    assert not mail.outbox
    fixture.refresh_from_db()
    assert fixture.rearranged_reason == ""


def test_reporting_a_fixture_dated_in_the_future_needs_the_warning_ticked(client, fixture, home_user):
    """Every game: a result for a fixture dated after today is taken only once the
    coach has ticked the box under the warning that says so."""
    Fixture.objects.filter(pk=fixture.pk).update(date=datetime.date.today() + datetime.timedelta(days=5))
    client.force_login(home_user)
    page = client.get(fixture.get_absolute_url()).content.decode()
    assert "in the future: I confirm it has already been played" in page
    url = reverse("league:report_result", args=[fixture.pk])
    response = client.post(url, {"home_score": 12, "away_score": 7})
    assert response.status_code == 400
    assert "in the future: tick the box to confirm it has already been played" in response.content.decode()
    assert not Result.objects.filter(fixture=fixture).exists()
    assert client.post(url, {"home_score": 12, "away_score": 7, "played_early": "on"}).status_code == 302
    assert Result.objects.get(fixture=fixture).summary == "12 – 7"
    # A fixture dated today or earlier shows no such box.
    other = FixtureFactory(round__season=fixture.round.season, home=fixture.home, away__coach__name="Later")
    Fixture.objects.filter(pk=other.pk).update(date=datetime.date.today())
    assert "in the future" not in client.get(other.get_absolute_url()).content.decode()

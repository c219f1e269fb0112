"""Email at each step of the result workflow that waits on someone, to the right
people only, each alone on their message; the kinds a user turns off on their
profile are not sent to them (league/outbox/notifications.py)."""

import logging

import pytest
from django.core import mail
from django.urls import reverse

from league.outbox import notifications
from league.services import results as services
from league.models import NotificationPreference, Result
from league.ratings.models import RatedGame, Rating
from tests.support.factories import LeagueFactory, UserFactory

pytestmark = pytest.mark.django_db


def recipients():
    return sorted(address for message in mail.outbox for address in message.to)


def post(client, user, name, fixture, data, capture):
    client.force_login(user)
    with capture(execute=True):
        response = client.post(reverse(f"league:{name}", args=[fixture.pk]), data)
    return response


def test_a_report_is_mailed_to_the_opponent_only(client, fixture, home_user, django_capture_on_commit_callbacks):
    response = post(client, home_user, "report_result", fixture, {"home_score": 12, "away_score": 6}, django_capture_on_commit_callbacks)
    assert response.status_code == 302
    assert recipients() == [fixture.away.coach.email]
    message = mail.outbox[0]
    assert "Velocity reported" in message.subject and "please confirm" in message.subject
    assert "12 – 6" in message.body and fixture.get_absolute_url() in message.body
    assert fixture.home.coach.email not in message.body  # nobody sees another's address


def test_a_dispute_is_mailed_to_the_leagues_organisers_only(
    client, fixture, home_user, away_user, organiser, other_organiser, league, django_capture_on_commit_callbacks
):
    second = UserFactory(username="deputy")
    league.organisers.add(second)
    LeagueFactory(organisers=[other_organiser])
    services.report_result(fixture=fixture, by=home_user, home_score=12, away_score=6)
    response = post(client, away_user, "dispute_result", fixture, {"reason": "It was 10-12"}, django_capture_on_commit_callbacks)
    assert response.status_code == 302
    assert Result.objects.get().status == "disputed"
    assert recipients() == sorted([organiser.email, second.email])
    assert all(len(message.to) == 1 for message in mail.outbox)
    assert "It was 10-12" in mail.outbox[0].body and "Disputed" in mail.outbox[0].subject


def test_an_approval_is_mailed_to_both_coaches(client, fixture, home_user, away_user, organiser, django_capture_on_commit_callbacks):
    result = services.report_result(fixture=fixture, by=home_user, home_score=12, away_score=6)
    services.confirm_result(result=result, by=away_user)
    response = post(client, organiser, "approve_result", fixture, {}, django_capture_on_commit_callbacks)
    assert response.status_code == 302 and Result.objects.get().is_approved
    assert recipients() == sorted([fixture.home.coach.email, fixture.away.coach.email])
    assert all("approved" in message.subject for message in mail.outbox)


def test_a_correction_is_mailed_to_both_coaches_as_a_correction(client, fixture, organiser, django_capture_on_commit_callbacks):
    services.record_result(fixture=fixture, by=organiser, home_score=12, away_score=6, reason="entered")
    response = post(
        client, organiser, "record_result", fixture,
        {"home_score": 6, "away_score": 12, "reason": "home and away swapped"}, django_capture_on_commit_callbacks,
    )
    assert response.status_code == 302
    assert Result.objects.get().away_score == 12
    assert recipients() == sorted([fixture.home.coach.email, fixture.away.coach.email])
    assert all("corrected by the organiser" in message.subject for message in mail.outbox)


def test_a_refused_step_mails_nobody(client, fixture, home_user, django_capture_on_commit_callbacks):
    response = post(client, home_user, "report_result", fixture, {"home_score": 40, "away_score": 6}, django_capture_on_commit_callbacks)
    assert response.status_code == 400
    assert not Result.objects.exists() and mail.outbox == []


def test_a_kind_turned_off_is_not_sent(
    client, fixture, home_user, away_user, organiser, django_capture_on_commit_callbacks
):
    client.force_login(away_user)
    keep = [kind.key for kind in notifications.kinds() if kind.key != "result_reported"]
    response = client.post(reverse("profile"), {"form": "notifications", "on": keep})
    assert response.status_code == 302
    assert NotificationPreference.objects.get(user=away_user).off == ["result_reported"]
    page = client.get(reverse("profile")).content.decode()
    assert 'value="result_reported" id="id_on_0">' in page  # unticked
    assert 'value="result_approved" id="id_on_2" checked>' in page
    post(client, home_user, "report_result", fixture, {"home_score": 12, "away_score": 6}, django_capture_on_commit_callbacks)
    assert mail.outbox == []
    # A kind left on still reaches them.
    with django_capture_on_commit_callbacks(execute=True):
        services.approve_result(result=Result.objects.get(), by=organiser, reason="seen the scoresheet")
    assert recipients() == sorted([fixture.home.coach.email, fixture.away.coach.email])


def test_profile_lists_every_kind_the_engine_and_layers_register(client, home_user):
    client.force_login(home_user)
    page = client.get(reverse("profile")).content.decode()
    assert "Email notifications" in page
    for kind in notifications.kinds():
        assert f'value="{kind.key}"' in page
    assert "loan_requested" in page  # a layer's own kind (the Big League)
    assert NotificationPreference.objects.count() == 0  # a GET writes nothing


def test_preferences_bad_input_and_anonymous(client, home_user):
    response = client.post(reverse("profile"), {"form": "notifications", "on": ["result_reported"]})
    assert response.status_code == 302 and reverse("login") in response.url
    client.force_login(home_user)
    assert client.post(reverse("profile")).status_code == 400  # nothing posted: nothing saved
    response = client.post(reverse("profile"), {"form": "notifications", "on": ["no_such_kind"]})
    assert response.status_code == 400 and "not one of the available choices" in response.content.decode()
    assert NotificationPreference.objects.count() == 0
    # Ticking nothing turns everything off; the profile form beside it is untouched.
    assert client.post(reverse("profile"), {"form": "notifications"}).status_code == 302
    assert set(NotificationPreference.objects.get(user=home_user).off) == {k.key for k in notifications.kinds()}


def test_a_coach_without_an_account_still_gets_mail(client, fixture, home_user, django_capture_on_commit_callbacks):
    away = fixture.away.coach
    away.user = None
    away.save()
    post(client, home_user, "report_result", fixture, {"home_score": 12, "away_score": 6}, django_capture_on_commit_callbacks)
    assert recipients() == [away.email]


def test_a_mail_server_that_refuses_is_logged_not_raised(
    client, fixture, home_user, settings, caplog, django_capture_on_commit_callbacks, monkeypatch
):
    def refuse(*args, **kwargs):
        raise OSError("connection refused")

    monkeypatch.setattr(notifications.EmailMultiAlternatives, "send", refuse)
    with caplog.at_level(logging.ERROR, logger="league.outbox.notifications"):
        response = post(client, home_user, "report_result", fixture, {"home_score": 12, "away_score": 6}, django_capture_on_commit_callbacks)
    assert response.status_code == 302 and Result.objects.exists()
    assert "result_reported not sent" in caplog.text


def test_an_unregistered_kind_is_refused():
    with pytest.raises(ValueError, match="Unknown notification kind"):
        notifications.send(notifications.Kind("nope", "Nope"), [], context={})


def test_an_import_tells_nobody(tmp_path, league, organiser, django_capture_on_commit_callbacks):
    from io import StringIO

    from django.core.management import call_command

    from tests.support.factories import CoachFactory, EntryFactory, SeasonFactory

    # The import finds the league's own coach, who played an earlier season.
    EntryFactory(season=SeasonFactory(league=league, name="Earlier"),
                 coach=CoachFactory(name="Zoë O'Brien", email="zoe@example.com", created_by=organiser))
    league.discord_webhook = "http://127.0.0.1:9/api/webhooks/1/x"
    league.save()
    path = tmp_path / "results.csv"
    path.write_text(
        "league,round,home,away,home_vp,away_vp,status\nMidlands Big League,1,Zoë O'Brien,Renée d'Arc,12,0,played\n",
        encoding="utf-8",
    )
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        call_command("import_results", str(path), "--by", organiser.username, stdout=StringIO())
    assert Result.objects.get().is_approved
    queued = [callback for callback in callbacks if callback.__module__ != "league.caching.change_mark"]  # the pages' mark
    # Neither mail nor a webhook post is queued: the one task is the game's ratings'
    # recomputation (RT-2), which has run.
    assert mail.outbox == [] and len(queued) == 1
    assert RatedGame.objects.get(pk="guildball").pending_since is None
    assert Rating.objects.filter(game_system="guildball").count() == 2
    # Outside the quiet block the next step is told again.
    fixture = Result.objects.get().fixture
    with django_capture_on_commit_callbacks(execute=True):
        services.reopen_result(result=fixture.result, by=organiser, reason="check")
        services.approve_result(result=Result.objects.get(), by=organiser, reason="checked")
    assert sorted(m.to[0] for m in mail.outbox) == ["zoe@example.com"]


def test_the_demo_tells_nobody(django_capture_on_commit_callbacks):
    from league.services import demo

    with django_capture_on_commit_callbacks(execute=True):
        demo.load_demos()
    assert Result.objects.filter(status="approved").exists()
    assert mail.outbox == []


def test_mail_links_keep_the_port_of_the_request_that_caused_them(
    client, fixture, home_user, settings, django_capture_on_commit_callbacks
):
    """Without SITE_URL a link starts with the address the coach used,
    port included (a site on :8000 used to be linked as http://localhost/...)."""
    settings.SITE_URL = ""
    client.force_login(home_user)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("league:report_result", args=[fixture.pk]), {"home_score": 12, "away_score": 6},
            HTTP_HOST="localhost:8000",
        )
    assert response.status_code == 302
    assert f"http://localhost:8000{fixture.get_absolute_url()}" in mail.outbox[0].body
    # SITE_URL, when set, wins over the request's address.
    settings.SITE_URL = "https://league.example.org/"
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.approve_result(result=Result.objects.get(), by=fixture.round.season.league.organisers.get(), reason="seen")
    assert all(f"https://league.example.org{fixture.get_absolute_url()}" in m.body for m in mail.outbox)
    # Outside any request (a command) the fallback stays localhost.
    from league.outbox.links import site_root

    settings.SITE_URL = ""
    assert site_root() == "http://localhost"


def test_a_newline_in_a_name_does_not_stop_the_mail_that_names_it(
    client, fixture, home_user, django_capture_on_commit_callbacks
):
    """A display name with a newline (or a tab, a bidirectional override)
    used to make the subject a BadHeaderError, so the opponent's "please confirm"
    was logged and never sent. The subject is built from cleaned text."""
    coach = fixture.home.coach
    coach.name = "Velocity\nBcc: everyone@example.com\t\u202e"
    coach.save()
    response = post(client, home_user, "report_result", fixture, {"home_score": 12, "away_score": 6}, django_capture_on_commit_callbacks)
    assert response.status_code == 302 and Result.objects.exists()
    assert recipients() == [fixture.away.coach.email]
    subject = mail.outbox[0].subject
    assert subject.startswith("[") and "Velocity Bcc: everyone@example.com reported Velocity Bcc: everyone@example.com v Rage" in subject
    assert not any(char in subject for char in "\n\r\t\u202e")
    assert mail.outbox[0].bcc == []


def test_a_newline_in_a_league_name_does_not_stop_an_invitation(organiser, season):
    """The invitation's subject names the league; it is cleaned too."""
    from league.people import invitations

    league = season.league
    league.name = "Midlands\r\nBig League"
    league.save()
    coach = invitations.add_coach(league=league, season=season, by=organiser, name="Mina Hart", email="mina@example.org")
    invitations.send_invitation(coach=coach, league=league, request=None)
    assert [m.subject for m in mail.outbox] == ["You are invited to Midlands Big League"]

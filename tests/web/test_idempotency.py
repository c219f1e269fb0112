"""Each result form's submission is accepted once (league/web/idempotency.py over
league/idempotency.py, the API's writes' helper too),
for every role; a report sent after the opponent's own report is an answer to it
(GB-8: the same result confirms it, a different one disputes it)."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core import signing
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from league import idempotency as once_per_key
from league.services import disputes
from league.web import idempotency
from league.services import results as services
from league.models import IdempotencyKey, Result, ResultEvent
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db

KEY = re.compile(r'name="idempotency_key" value="([^"]+)"')


def keys_on(client, fixture) -> list[str]:
    return KEY.findall(client.get(fixture.get_absolute_url()).content.decode())


def report(client, fixture, home, away, key=None):
    data = {"home_score": home, "away_score": away}
    if key is not None:
        data["idempotency_key"] = key
    return client.post(reverse("league:report_result", args=[fixture.pk]), data)


def events(fixture, action) -> int:
    return ResultEvent.objects.filter(fixture=fixture, action=action).count()


# The key on the forms -----------------------------------------------------------


def test_each_rendered_form_has_its_own_key_and_visitors_get_none(client, fixture, home_user):
    assert keys_on(client, fixture) == []  # anonymous: no form, no key
    client.force_login(home_user)
    first, second = keys_on(client, fixture), keys_on(client, fixture)
    assert len(first) == 1 and first != second  # the report form, fresh per page


def test_confirm_and_dispute_forms_carry_keys(client, fixture, home_user, away_user):
    services.report_result(fixture=fixture, by=home_user, home_score=12, away_score=8)
    client.force_login(away_user)
    assert len(keys_on(client, fixture)) == 2  # confirm, dispute


# Twice sent ---------------------------------------------------------------------


def test_a_report_sent_twice_is_stored_once_and_answered_the_same(client, fixture, home_user):
    client.force_login(home_user)
    [key] = keys_on(client, fixture)
    first = report(client, fixture, 12, 8, key)
    second = report(client, fixture, 12, 8, key)
    assert first.status_code == second.status_code == 302
    assert first.url == second.url == fixture.get_absolute_url()
    assert Result.objects.filter(fixture=fixture).count() == 1
    assert events(fixture, ResultEvent.Action.REPORTED) == 1
    page = client.get(second.url).content.decode()
    assert "This was already received, so nothing was sent twice." in page
    used = IdempotencyKey.objects.get()
    assert (used.user, used.path, used.status) == (home_user, reverse("league:report_result", args=[fixture.pk]), 302)


def test_a_resend_with_other_figures_changes_nothing(client, fixture, home_user):
    """The outcome of the first submission stands: a resend is not a correction."""
    client.force_login(home_user)
    [key] = keys_on(client, fixture)
    report(client, fixture, 12, 8, key)
    assert report(client, fixture, 3, 12, key).status_code == 302
    result = Result.objects.get(fixture=fixture)
    assert (result.home_score, result.away_score) == (12, 8)


def test_confirm_and_dispute_sent_twice_write_once(client, fixture, home_user, away_user):
    result = services.report_result(fixture=fixture, by=home_user, home_score=12, away_score=8)
    client.force_login(away_user)
    confirm_key, _ = keys_on(client, fixture)
    url = reverse("league:confirm_result", args=[fixture.pk])
    assert client.post(url, {"idempotency_key": confirm_key}).status_code == 302
    assert client.post(url, {"idempotency_key": confirm_key}).status_code == 302
    assert events(fixture, ResultEvent.Action.CONFIRMED) == 1
    result.refresh_from_db()
    assert result.status == Result.Status.CONFIRMED


def test_a_dispute_sent_twice_writes_once(client, fixture, home_user, away_user):
    services.report_result(fixture=fixture, by=home_user, home_score=12, away_score=8)
    client.force_login(away_user)
    _, dispute_key = keys_on(client, fixture)
    url = reverse("league:dispute_result", args=[fixture.pk])
    data = {"reason": "It was 12-10", "idempotency_key": dispute_key}
    assert client.post(url, data).status_code == 302
    assert client.post(url, data).status_code == 302
    assert events(fixture, ResultEvent.Action.DISPUTED) == 1


def test_a_refused_form_does_not_use_its_key(client, fixture, home_user):
    """A 400 (a draw, GB-7) is corrected and sent again with the same key."""
    client.force_login(home_user)
    [key] = keys_on(client, fixture)
    assert report(client, fixture, 10, 10, key).status_code == 400
    assert not IdempotencyKey.objects.exists() and not Result.objects.exists()
    assert report(client, fixture, 12, 10, key).status_code == 302
    assert Result.objects.get().home_score == 12


def test_a_form_without_a_key_is_accepted_as_before(client, fixture, home_user):
    """Decision: pages cached before the keys, scripts: accepted; the service takes
    the same report again as the one there is, writing nothing, and refuses a
    different one."""
    client.force_login(home_user)
    assert report(client, fixture, 12, 8).status_code == 302
    assert report(client, fixture, 12, 8).status_code == 302  # the report there is
    assert report(client, fixture, 12, 9).status_code == 400  # "You reported this match already"
    assert Result.objects.count() == 1 and not IdempotencyKey.objects.exists()
    assert ResultEvent.objects.count() == 1


# Forged, foreign, stale ---------------------------------------------------------


@pytest.mark.parametrize(
    ("make_key", "message"),
    [
        (lambda user: "made-up", "not issued by this site"),
        (lambda user: signing.dumps({"n": "x", "u": user.pk}, salt="another.salt"), "not issued by this site"),
        (lambda user: signing.dumps({"n": "x", "u": user.pk}, key="not-the-secret", salt=idempotency.SALT),
         "not issued by this site"),
        (lambda user: idempotency.new_key(UserFactory()), "opened by another account"),
    ],
)
def test_a_forged_or_foreign_key_is_refused_with_400_and_writes_nothing(client, fixture, home_user, make_key, message):
    client.force_login(home_user)
    response = report(client, fixture, 12, 8, make_key(home_user))
    assert response.status_code == 400
    assert message in response.content.decode() and "Nothing was saved." in response.content.decode()
    assert not Result.objects.exists() and not IdempotencyKey.objects.exists()


def test_a_key_older_than_its_lifetime_is_refused(client, fixture, home_user, settings, monkeypatch):
    client.force_login(home_user)
    [key] = keys_on(client, fixture)
    later = timezone.now() + datetime.timedelta(days=settings.IDEMPOTENCY_KEY_DAYS, minutes=1)
    monkeypatch.setattr(signing.time, "time", lambda: later.timestamp())
    response = report(client, fixture, 12, 8, key)
    assert response.status_code == 400 and "opened too long ago" in response.content.decode()
    assert not Result.objects.exists()


def test_a_used_key_sent_to_another_form_is_refused(client, fixture, home_user, away_user):
    client.force_login(home_user)
    [key] = keys_on(client, fixture)
    report(client, fixture, 12, 8, key)
    response = client.post(reverse("league:confirm_result", args=[fixture.pk]), {"idempotency_key": key})
    assert response.status_code == 400 and "already used for another form" in response.content.decode()
    assert Result.objects.get().status == Result.Status.REPORTED


# Roles ---------------------------------------------------------------------------


def test_roles_with_their_own_valid_keys(client, fixture, home_user, wrong_coach_user, organiser, other_organiser):
    """A key is no pass: the view's own checks still decide, and a refusal uses no key."""
    url = reverse("league:report_result", args=[fixture.pk])
    response = client.post(url, {"home_score": 12, "away_score": 8, "idempotency_key": "anything"})
    assert response.status_code == 302 and reverse("login") in response.url  # anonymous
    for user in (wrong_coach_user, organiser, other_organiser):
        client.force_login(user)
        assert report(client, fixture, 12, 8, idempotency.new_key(user)).status_code == 403
    assert not Result.objects.exists() and not IdempotencyKey.objects.exists()
    client.force_login(home_user)
    assert report(client, fixture, 12, 8, idempotency.new_key(home_user)).status_code == 302


# A report after the opponent's -----------------------------------------------------


def test_the_same_report_from_the_opponent_confirms_it_gb8(client, fixture, home_user, away_user):
    """The away coach reported offline (the form kept on the phone) while the home
    coach reported the same result: it arrives as a confirmation."""
    client.force_login(away_user)
    [key] = keys_on(client, fixture)
    services.report_result(fixture=fixture, by=home_user, home_score=12, away_score=8)
    response = report(client, fixture, 12, 8, key)
    assert response.status_code == 302
    result = Result.objects.get()
    assert result.status == Result.Status.CONFIRMED and result.reported_side == "home"
    assert "Your opponent had reported the same result" in client.get(response.url).content.decode()


def test_a_different_report_from_the_opponent_is_a_dispute_gb8(client, fixture, home_user, away_user, organiser):
    client.force_login(away_user)
    [key] = keys_on(client, fixture)
    services.report_result(fixture=fixture, by=home_user, home_score=12, away_score=8)
    response = report(client, fixture, 10, 12, key)
    assert response.status_code == 302
    result = Result.objects.get()
    assert result.status == Result.Status.DISPUTED
    assert result.dispute_reason == "Both coaches reported this match; the reports differ (10 – 12 against 12 – 8)."
    assert result.proposed_summary == "10 – 12"
    assert "Your opponent had reported a different result" in client.get(response.url).content.decode()
    # Sent again: nothing more happens.
    assert report(client, fixture, 10, 12, key).status_code == 302
    assert events(fixture, ResultEvent.Action.DISPUTED) == 1
    # The organiser settles it as any dispute, with the away coach's version.
    settled = disputes.settle_dispute(result=result, by=organiser, accept=disputes.PROPOSED)
    assert (settled.home_score, settled.away_score, settled.is_approved) == (10, 12, True)


def test_a_second_report_from_the_same_side_or_after_confirmation_is_refused(client, fixture, home_user, away_user):
    services.report_result(fixture=fixture, by=home_user, home_score=12, away_score=8)
    client.force_login(home_user)
    assert report(client, fixture, 12, 10).status_code == 400
    services.confirm_result(result=Result.objects.get(), by=away_user)
    client.force_login(away_user)
    response = report(client, fixture, 12, 8)
    assert response.status_code == 400 and "already been reported" in response.content.decode()


# The one helper both doors use ----------------------------------------------------


def test_a_refusal_met_by_a_copy_that_got_there_first_replays_the_copy(home_user):
    """A form and an API request alike: the step refused, and by then the key is
    recorded (here by the step itself, standing in for a copy sent at the same
    time), so the answer is a replay, never the refusal, and everything the
    refusal's transaction holds is rolled back."""

    def step() -> str:
        IdempotencyKey.objects.create(key="k", user=home_user, path="/p/", status=302, location="/done/")
        return "refused"

    answer = once_per_key.once(key="k", user=home_user, path="/p/", step=step, accepted=lambda answer: None,
                               replay=lambda used: "replayed")
    assert answer == "replayed"
    assert not IdempotencyKey.objects.exists()


def test_a_key_is_kept_with_its_outcome_and_answered_by_its_user_at_its_path_only(home_user, away_user):
    kept = once_per_key.once(key="k", user=home_user, path="/p/", step=lambda: "written",
                             accepted=lambda answer: once_per_key.Outcome(303, "/done/"), replay=lambda used: used)
    assert kept == "written"
    assert IdempotencyKey.objects.values_list("key", "path", "status", "location").get() == ("k", "/p/", 303, "/done/")

    def again(user, path):
        return once_per_key.once(key="k", user=user, path=path, step=lambda: pytest.fail("written twice"),
                                 accepted=lambda answer: None, replay=lambda used: used and used.location)

    assert again(home_user, "/p/") == "/done/"
    assert again(home_user, "/other/") is None and again(away_user, "/p/") is None


# Keeping the keys ----------------------------------------------------------------


def test_purge_deletes_keys_that_can_no_longer_be_sent(home_user, settings):
    old = IdempotencyKey.objects.create(key="old", user=home_user, path="/x/", status=302, location="/x/")
    IdempotencyKey.objects.filter(pk=old.pk).update(
        created=timezone.now() - datetime.timedelta(days=settings.IDEMPOTENCY_KEY_DAYS, seconds=1)
    )
    IdempotencyKey.objects.create(key="new", user=home_user, path="/x/", status=302, location="/x/")
    call_command("purge_idempotency_keys", verbosity=0)
    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == ["new"]

"""Every write others must hear of records exactly one fact of its kind through
league/facts/recording.py (the fixture's history row for a result's step, a Fact
row for any other write), and a refused write records none: driven through each
write's service."""

from __future__ import annotations

import contextlib
import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from league.facts import kinds, recording
from league.facts.models import Fact
from league.models import Coach, ResultEvent
from league.people import entrants, join_requests, joining, merges as people
from league.services import results
from league.services import fixtures as fixture_services
from league.services import settings as league_settings
from tests.support.factories import CoachFactory, EntryFactory, FixtureFactory, SeasonFactory, UserFactory

pytestmark = pytest.mark.django_db


class Told:
    """The kinds recorded inside the block, and the rows that keep them."""

    def __init__(self) -> None:
        self.kinds: list[str] = []
        self.rows = 0


@pytest.fixture
def told(monkeypatch):
    @contextlib.contextmanager
    def block():
        seen = Told()
        real = recording._tell
        monkeypatch.setattr(recording, "_tell", lambda fact: seen.kinds.append(fact.kind) or real(fact))
        before = ResultEvent.objects.count() + Fact.objects.count()
        try:
            yield seen
        finally:
            seen.rows = ResultEvent.objects.count() + Fact.objects.count() - before
            monkeypatch.setattr(recording, "_tell", real)

    return block


def one(told, kind, write):
    with told() as seen:
        returned = write()
    assert (seen.kinds, seen.rows) == ([kind], 1)
    return returned


def none(told, refusal, write):
    with told() as seen, pytest.raises(refusal):
        write()
    assert (seen.kinds, seen.rows) == ([], 0)


def report(fixture, user, home=12, away=6):
    return results.report_result(fixture=fixture, by=user, home_score=home, away_score=away)


def test_the_result_workflow(told, fixture, home_user, away_user, organiser, wrong_coach_user):
    none(told, PermissionDenied, lambda: report(fixture, wrong_coach_user))
    result = one(told, kinds.RESULT_REPORTED, lambda: report(fixture, home_user))
    none(told, ValidationError, lambda: results.change_report(result=result, by=away_user, home_score=12, away_score=8))
    result = one(told, kinds.RESULT_CHANGED,
                 lambda: results.change_report(result=result, by=home_user, home_score=12, away_score=8))
    none(told, ValidationError, lambda: results.withdraw_report(result=result, by=away_user))
    one(told, kinds.RESULT_TAKEN_BACK, lambda: results.withdraw_report(result=result, by=home_user))

    result = report(fixture, home_user)
    none(told, ValidationError, lambda: results.confirm_result(result=result, by=home_user))
    none(told, ValidationError, lambda: results.dispute_result(result=result, by=away_user, reason=" "))
    one(told, kinds.RESULT_DISPUTED, lambda: results.dispute_result(result=result, by=away_user, reason="it was 12-10"))
    results.record_result(fixture=fixture, by=organiser, home_score=12, away_score=10, reason="settled")
    result = results.reopen_result(result=fixture.result, by=organiser, reason="the sheet")

    none(told, PermissionDenied, lambda: results.approve_result(result=result, by=home_user))
    result = one(told, kinds.RESULT_APPROVED,
                 lambda: results.approve_result(result=result, by=organiser, reason="the sheet agrees"))
    none(told, ValidationError, lambda: results.approve_result(result=result, by=organiser))
    none(told, PermissionDenied,
         lambda: results.record_result(fixture=fixture, by=home_user, home_score=12, away_score=6))
    result = one(told, kinds.RESULT_CORRECTED,
                 lambda: results.record_result(fixture=fixture, by=organiser, home_score=12, away_score=6))
    none(told, ValidationError, lambda: results.reopen_result(result=result, by=organiser, reason=""))
    one(told, kinds.RESULT_REOPENED, lambda: results.reopen_result(result=result, by=organiser, reason="check"))


def test_confirm_enter_and_rearrange(told, season, fixture, home_user, away_user, organiser):
    result = report(fixture, home_user)
    one(told, kinds.RESULT_CONFIRMED, lambda: results.confirm_result(result=result, by=away_user))
    later = season.start_date + datetime.timedelta(days=7)
    from_scratch = FixtureFactory(round=fixture.round, date=season.start_date)
    none(told, ValidationError, lambda: fixture_services.rearrange_fixture(
        fixture=from_scratch, by=organiser, new_date=later, reason=""))
    one(told, kinds.FIXTURE_REARRANGED, lambda: fixture_services.rearrange_fixture(
        fixture=from_scratch, by=organiser, new_date=later + datetime.timedelta(days=1), reason="venue"))
    one(told, kinds.RESULT_ENTERED,
        lambda: results.record_result(fixture=from_scratch, by=organiser, home_score=12, away_score=6))


def test_withdraw(told, season, fixture, organiser, home_user):
    entry = fixture.home
    none(told, PermissionDenied, lambda: entrants.withdraw(entry=entry, by=home_user))
    one(told, kinds.ENTRANT_WITHDREW, lambda: entrants.withdraw(entry=entry, by=organiser))
    none(told, ValidationError, lambda: entrants.withdraw(entry=entry, by=organiser))


def test_join_through_a_link(told, season, organiser):
    link = joining.create_link(season=season, by=organiser, max_uses=None, closes_on=None)
    token = joining.make_token(link)
    joiner = UserFactory(username="joiner")
    one(told, kinds.ENTRANT_JOINED, lambda: joining.join(token=token, user=joiner, name="Joiner"))
    none(told, ValidationError, lambda: joining.join(token=token, user=joiner, name="Joiner"))


def test_join_requests_and_their_answers(told, season, fixture, organiser):
    """Once the fixtures exist a newcomer asks, and someone may say they are a
    coach without an account; the organiser answers each."""
    link = joining.create_link(season=season, by=organiser, max_uses=None, closes_on=None)
    token = joining.make_token(link)
    newcomer = UserFactory(username="newcomer")
    asked = one(told, kinds.JOIN_ASKED,
                lambda: join_requests.ask_to_join(token=token, user=newcomer, name="Newcomer"))
    none(told, ValidationError, lambda: join_requests.ask_to_join(token=token, user=newcomer, name="Newcomer"))
    none(told, ValidationError, lambda: join_requests.decide(join_request=asked, by=organiser, decision="confirm"))
    one(told, kinds.JOIN_DECIDED, lambda: join_requests.decide(join_request=asked, by=organiser, decision="refuse"))

    pasted = EntryFactory(season=season, coach=CoachFactory(name="Ivy", user=None)).coach
    claimant = UserFactory(username="ivy")
    none(told, ValidationError, lambda: join_requests.claim(token=token, user=claimant, coach_id=fixture.home.coach_id))
    one(told, kinds.CLAIM_ASKED, lambda: join_requests.claim(token=token, user=claimant, coach_id=pasted.pk))


def test_claim(told, organiser, season):
    pasted = EntryFactory(season=season, coach=CoachFactory(name="Ivy", user=None, email="")).coach
    user = UserFactory(username="ivy")
    one(told, kinds.COACH_CLAIMED, lambda: people.claim(coach=pasted, user=user))
    none(told, ValidationError, lambda: people.claim(coach=Coach.objects.get(pk=pasted.pk),
                                                    user=UserFactory(username="someone")))


def test_merge_and_asking_to(told, organiser, season):
    a = EntryFactory(season=season, coach=CoachFactory(name="Ann", user=None)).coach
    b = EntryFactory(season=season, coach=CoachFactory(name="Bea", user=None)).coach
    later = SeasonFactory(league=season.league, name="Later")
    c = EntryFactory(season=later, coach=CoachFactory(name="Cat", user=None)).coach
    none(told, ValidationError, lambda: people.merge(keep=a, absorb=b, by=organiser))  # both in one season
    one(told, kinds.COACHES_MERGED, lambda: people.merge(keep=a, absorb=c, by=organiser))
    holder = EntryFactory(season=SeasonFactory(league=season.league, name="Third"), coach=CoachFactory(name="Dee")).coach
    asked = one(told, kinds.MERGE_ASKED, lambda: people.ask_merge(keep=a, absorb=holder, by=organiser))
    one(told, kinds.COACHES_MERGED, lambda: people.answer_merge(request=asked, user=holder.user, accept=True))


def test_settings(told, league, organiser, home_user):
    none(told, PermissionDenied, lambda: league_settings.rename_league(league=league, by=home_user, name="X",
                                                                       description=""))
    one(told, kinds.SETTINGS_CHANGED, lambda: league_settings.rename_league(league=league, by=organiser,
                                                                            name="Harbour League", description=""))
    one(told, kinds.SETTINGS_CHANGED, lambda: league_settings.set_webhooks(
        league=league, by=organiser, discord_webhook="", webhook_url="https://hooks.example.org/league"))
    assert list(Fact.objects.filter(kind=kinds.SETTINGS_CHANGED).values_list("concerns__part", flat=True)) == [
        "name", "webhooks"]


def test_a_fact_row_says_who_when_and_what(told, season, fixture, organiser):
    entry = fixture.away
    entrants.withdraw(entry=entry, by=organiser)
    fact = Fact.objects.get()
    assert (fact.kind, fact.league_id, fact.season_id, fact.by) == (
        kinds.ENTRANT_WITHDREW, season.league_id, season.pk, organiser)
    assert fact.concerns == {"entry": entry.pk, "coach": entry.coach_id, "fixtures": [fixture.pk]}

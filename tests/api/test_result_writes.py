"""The API's result writes: report, confirm, dispute, approve, each for every
scope and role; refusals write nothing; the messages are the fixture page's."""

from __future__ import annotations

import itertools

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league.api.models import ApiToken
from league.models import IdempotencyKey, Result, ResultEvent
from tests.api.conftest import ALL_SCOPES, bearer, rows as row_counts

STEPS = ("report", "confirm", "dispute", "approve")
NEEDS = {"report": "report", "confirm": "report", "dispute": "report", "approve": "organise"}


def url(fixture, step: str) -> str:
    return f"/api/v1/fixtures/{fixture.pk}/{step}/"


def post(client, fixture, step: str, body: dict | None = None, headers: dict | None = None, **extra):
    return client.post(url(fixture, step), body if body is not None else {}, content_type="application/json",
                       headers={**(headers or {}), **extra})


def report(client, fixture, user, home=12, away=8):
    return post(client, fixture, "report", {"facts": {"home_score": home, "away_score": away}}, bearer(user, "report"))


def body_for(step: str) -> dict:
    return {"report": {"facts": {"home_score": 12, "away_score": 8}}, "confirm": {},
            "dispute": {"reason": "It was 10 – 12"}, "approve": {"reason": "Seen at the table"}}[step]


@pytest.mark.django_db
def test_a_coach_reports_the_opponent_confirms_and_the_organiser_approves(client, gb_fixture, organiser):
    home, away = gb_fixture.home.coach.user, gb_fixture.away.coach.user
    answer = report(client, gb_fixture, home)
    assert answer.status_code == 200, answer.content
    assert answer.json() == {"fixture": gb_fixture.pk, "status": "reported", "summary": "12 – 8", "home_score": 12,
                             "away_score": 8, "url": gb_fixture.get_absolute_url()}
    event = ResultEvent.objects.get(action=ResultEvent.Action.REPORTED)
    assert event.by == home  # the token's user acts, as on the page
    assert post(client, gb_fixture, "confirm", {}, bearer(away, "report")).json()["status"] == "confirmed"
    answer = post(client, gb_fixture, "approve", {}, bearer(organiser, "organise"))
    assert answer.status_code == 200 and answer.json()["status"] == "approved"
    assert Result.objects.get().status == Result.Status.APPROVED


@pytest.mark.django_db
def test_a_dispute_with_the_result_the_coach_says_is_right(client, gb_fixture, organiser):
    report(client, gb_fixture, gb_fixture.home.coach.user)
    away = bearer(gb_fixture.away.coach.user, "report")
    missing = post(client, gb_fixture, "dispute", {"reason": " "}, away)
    assert missing.status_code == 400
    assert missing.json()["errors"] == ["reason: Say what is wrong with the report, so the organiser can settle it."]
    answer = post(client, gb_fixture, "dispute", {"reason": "Wrong way round", "proposed": {"home_score": 8,
                                                                                           "away_score": 12}}, away)
    assert answer.status_code == 200 and answer.json()["status"] == "disputed"
    result = Result.objects.get()
    assert (result.proposed_summary, result.dispute_reason) == ("8 – 12", "Wrong way round")
    # GB-8 Decision: approving what the opponent disputed needs a reason, with the page's words.
    refused = post(client, gb_fixture, "approve", {}, bearer(organiser, "organise"))
    assert refused.status_code == 400 and refused.json()["errors"]


@pytest.mark.django_db
def test_bad_facts_are_refused_with_the_forms_messages_and_nothing_is_written(client, gb_fixture):
    home = bearer(gb_fixture.home.coach.user, "report")
    before = row_counts()
    for facts in ({"home_score": "twelve", "away_score": 8}, {"home_score": -1, "away_score": 8}, {},
                  {"home_score": [1], "away_score": 2}, {"home_score": 10**30, "away_score": 1}):
        answer = post(client, gb_fixture, "report", {"facts": facts}, home)
        assert answer.status_code == 400, (facts, answer.content)
        assert answer.json()["errors"], facts
    assert post(client, gb_fixture, "report", {"facts": "12-8"}, home).status_code == 422
    assert client.post(url(gb_fixture, "report"), "{", content_type="application/json",
                       headers=home).status_code in (400, 422)
    assert row_counts() == before


@pytest.mark.django_db
def test_the_services_refusals_are_the_pages_messages(client, gb_fixture):
    report(client, gb_fixture, gb_fixture.home.coach.user)
    again = report(client, gb_fixture, gb_fixture.home.coach.user, home=12, away=10)
    assert again.status_code == 400
    assert "You reported this match already (12 – 8)" in again.json()["errors"][0]
    own = post(client, gb_fixture, "confirm", {}, bearer(gb_fixture.home.coach.user, "report"))
    assert own.status_code == 400 and own.json()["errors"] == ["You reported this result; your opponent confirms it."]


def _roles(gb_fixture, bystander, organiser, other_organiser):
    return {
        "right": gb_fixture.away.coach.user,  # the coach whose step it is (the reporter for "report")
        "wrong": bystander,
        "organiser": organiser,
        "rival": other_organiser,
    }


@pytest.mark.django_db
@pytest.mark.parametrize("step", STEPS)
def test_every_scope_and_role_on_every_step(client, gb_fixture, bystander, organiser, other_organiser, rival_league,
                                            step):
    """Who may: the fixture's coach with a token that may report (report, confirm,
    dispute); the league's organiser with one that may organise (approve). Everyone
    else, every other scope, no token or a bad one: refused, nothing written."""
    if step != "report":
        report(client, gb_fixture, gb_fixture.home.coach.user)
    roles = _roles(gb_fixture, bystander, organiser, other_organiser)
    allowed = ("right", NEEDS[step]) if step != "approve" else ("organiser", "organise")
    for role, user in roles.items():
        for size in (1, 2):
            for scopes in itertools.combinations(ALL_SCOPES, size):
                if (role, allowed[1]) == allowed and allowed[1] in scopes:
                    continue  # the one that may: below, once
                headers = bearer(user, *scopes)
                before = row_counts()
                answer = post(client, gb_fixture, step, body_for(step), headers)
                assert answer.status_code == 403, (role, scopes, answer.status_code, answer.content)
                assert answer.json()["errors"], (role, scopes)
                assert row_counts() == before, (role, scopes)
    before = row_counts()
    for headers in ({}, {"Authorization": "Bearer lgt_000000000000_nope"}, {"Authorization": "Basic eDp5"},
                    {"Authorization": "Bearer "}):
        assert post(client, gb_fixture, step, body_for(step), headers).status_code == 401, headers
    assert row_counts() == before
    answer = post(client, gb_fixture, step, body_for(step), bearer(roles[allowed[0]], allowed[1]))
    assert answer.status_code == 200, answer.content


@pytest.mark.django_db
def test_a_revoked_token_is_refused(client, gb_fixture):
    headers = bearer(gb_fixture.home.coach.user, "report")
    ApiToken.objects.update(revoked_at="2026-01-01T00:00Z")
    assert report(client, gb_fixture, gb_fixture.home.coach.user).status_code == 200  # a new token works
    assert post(client, gb_fixture, "confirm", {}, headers).status_code == 401


@pytest.mark.django_db
def test_a_missing_fixture_is_a_404(client, gb_fixture):
    answer = client.post("/api/v1/fixtures/999999/report/", {"facts": {}}, content_type="application/json",
                         headers=bearer(gb_fixture.home.coach.user, "report"))
    assert answer.status_code == 404


@pytest.mark.django_db
def test_an_idempotency_key_writes_once_and_replays(client, gb_fixture):
    headers = {**bearer(gb_fixture.home.coach.user, "report"), "Idempotency-Key": "report-1"}
    body = {"facts": {"home_score": 12, "away_score": 8}}
    first = post(client, gb_fixture, "report", body, headers)
    assert first.status_code == 200 and "Idempotent-Replayed" not in first
    events = ResultEvent.objects.count()
    again = post(client, gb_fixture, "report", {"facts": {"home_score": 1, "away_score": 0}}, headers)
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert ResultEvent.objects.count() == events and IdempotencyKey.objects.count() == 1
    # The same key for another step is refused; a refused request leaves its key unused.
    other = post(client, gb_fixture, "confirm", {}, headers)
    assert other.status_code == 422
    away = {**bearer(gb_fixture.away.coach.user, "report"), "Idempotency-Key": "d-1"}
    assert post(client, gb_fixture, "dispute", {"reason": ""}, away).status_code == 400
    assert post(client, gb_fixture, "dispute", {"reason": "Wrong"}, away).json()["status"] == "disputed"
    assert post(client, gb_fixture, "dispute", {"reason": "Wrong"}, away)["Idempotent-Replayed"] == "true"
    assert post(client, gb_fixture, "report", body, {**headers, "Idempotency-Key": "x" * 201}).status_code == 400


@pytest.mark.django_db
def test_the_same_key_of_another_user_is_their_own(client, gb_fixture):
    home = {**bearer(gb_fixture.home.coach.user, "report"), "Idempotency-Key": "k"}
    away = {**bearer(gb_fixture.away.coach.user, "report"), "Idempotency-Key": "k"}
    assert post(client, gb_fixture, "report", body_for("report"), home).status_code == 200
    answer = post(client, gb_fixture, "confirm", {}, away)
    assert answer.status_code == 200 and "Idempotent-Replayed" not in answer


def _report_queries(client, season, coaches: int) -> int:
    from tests.support.factories import EntryFactory, FixtureFactory

    for n in range(coaches - 2):
        EntryFactory(season=season, coach__name=f"Filler {coaches} {n}")
    fixture = FixtureFactory(round__season=season, date=season.start_date,
                             home=EntryFactory(season=season, coach__name=f"Home {coaches}"),
                             away=EntryFactory(season=season, coach__name=f"Away {coaches}"))
    headers = bearer(fixture.home.coach.user, "report")
    other = bearer(fixture.away.coach.user, "report")
    counts = []
    for step, hdrs, body in (("report", headers, body_for("report")), ("confirm", other, {})):
        with CaptureQueriesContext(connection) as queries:
            assert post(client, fixture, step, body, hdrs).status_code == 200
        counts.append(len(queries))
    return counts


@pytest.mark.django_db
def test_the_writes_cost_the_same_at_4_and_40_coaches(client, league):
    from tests.support.factories import SeasonFactory

    small = _report_queries(client, SeasonFactory(league=league, name="Small"), 4)
    large = _report_queries(client, SeasonFactory(league=league, name="Large"), 40)
    assert small == large


@pytest.mark.django_db
def test_odd_input_is_a_4xx_never_a_500(client, gb_fixture):
    home = bearer(gb_fixture.home.coach.user, "report")
    away = bearer(gb_fixture.away.coach.user, "report")
    before = row_counts()
    for address, status in (("/api/v1/fixtures/-1/report/", 404), ("/api/v1/fixtures/99999999999/report/", 422),
                            ("/api/v1/fixtures/x/report/", 422)):
        answer = client.post(address, body_for("report"), content_type="application/json", headers=home)
        assert answer.status_code == status, (address, answer.status_code)
    for facts in ({"home_score": "12\x00", "away_score": 8}, {"home_score": 12, "away_score": 8, "x" * 500: 1},
                  {f"k{n}": n for n in range(500)}, {"home_score": 1e308, "away_score": float("1e-300")}):
        answer = post(client, gb_fixture, "report", {"facts": facts}, home)
        assert 400 <= answer.status_code < 500, (facts, answer.status_code)
    report(client, gb_fixture, gb_fixture.home.coach.user)
    before = row_counts()
    for body in ({"reason": "bad\x00"}, {"reason": "x" * 5000}, {"reason": "Wrong", "proposed": {"home_score": [1]}},
                 {"reason": "Wrong", "proposed": {"home_score": -4, "away_score": 12}}):
        answer = post(client, gb_fixture, "dispute", body, away)
        assert answer.status_code == 400, (body, answer.status_code, answer.content)
    assert row_counts() == before

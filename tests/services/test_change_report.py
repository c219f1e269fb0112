"""The reporting coach changes or takes back their report until the opponent
answers (GB-8 Decision, every game): one engine path for the three games, each
game's own form filled in with what was reported, the opponent told by mail with
the old and the new result, and every refusal writing nothing."""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

import pytest
from django.apps import apps
from django.core import mail
from django.db import connection
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from league.dreadball.models import DreadBallResult, DreadBallSettings
from league.dungeonbowl.models import DiceRoll, GameReport, PlayerGame
from league.models import Fixture, NotificationPreference, Result, ResultEvent
from league.outbox import notifications
from league.services import results as services
from tests.dungeonbowl.builders import db_season
from tests.dungeonbowl.postgame.test_postgame import player_data
from tests.dungeonbowl.postgame.test_postgame import post as db_post
from tests.support.factories import CoachFactory, EntryFactory, FixtureFactory, LeagueFactory, SeasonFactory, UserFactory

pytestmark = pytest.mark.django_db

GAMES = ("guildball", "dreadball", "dungeonbowl")
KEY = re.compile(r'name="idempotency_key" value="([^"]+)"')


@dataclass
class Match:
    """A fixture of one game, reported by its home coach, waiting on the away coach."""

    game: str
    fixture: Fixture
    first: dict  # the report's form data
    changed: dict  # a different report's form data
    prefilled: str  # what the change form shows of the first report
    wrong: object  # a coach of the same season who is not in the fixture

    @property
    def reporter(self):
        return self.fixture.home.coach.user

    @property
    def opponent(self):
        return self.fixture.away.coach.user

    def result(self) -> Result | None:
        return Result.objects.filter(fixture=self.fixture).first()


def _guildball(organiser) -> Match:
    season = SeasonFactory(league=LeagueFactory(slug="harbour", organisers=[organiser]))
    fixture = FixtureFactory(round__season=season, date=season.start_date,
                             home__coach__name="Velocity", away__coach__name="Rage")
    wrong = EntryFactory(season=season, coach=CoachFactory(name="Bystander")).coach.user
    return Match("guildball", fixture, {"home_score": 12, "away_score": 4}, {"home_score": 8, "away_score": 12},
                 'name="home_score" value="12"', wrong)


def _dreadball(organiser) -> Match:
    league = LeagueFactory(slug="neon", game_system="dreadball", organisers=[organiser])
    DreadBallSettings.objects.create(league=league)
    season = SeasonFactory(league=league)
    fixture = FixtureFactory(
        round__season=season, date=season.start_date,
        home=EntryFactory(season=season, coach__name="Dana", team="Voss Voltage"),
        away=EntryFactory(season=season, coach__name="Tavi", team="Rell Riptide"),
    )
    wrong = EntryFactory(season=season, coach=CoachFactory(name="Bystander")).coach.user
    return Match("dreadball", fixture, {"winner": "home", "difference": 2, "rush": 14},
                 {"winner": "away", "difference": 3, "rush": 14}, 'name="difference" value="2"', wrong)


def _db_changed(fixture) -> dict:
    """The away team won after all, with other players, other dice and no Gather Funds."""
    data = {"home_score": 0, "away_score": 1, "ending": "touchdown", "home_gather": 0, "away_gather": 0,
            "home_journeymen": 0, "away_journeymen": 1, "dice": "4 3"}
    data.update(player_data(fixture, "away", 1, touchdowns=1, mvp="on"))
    return data


def _dungeonbowl(organiser) -> Match:
    season = db_season(organiser, teams=4)
    fixture = Fixture.objects.with_related().filter(round__season=season, round__number=1).first()
    wrong = Fixture.objects.filter(round__season=season, round__number=1).exclude(pk=fixture.pk).first().home.coach.user
    return Match("dungeonbowl", fixture, db_post(fixture), _db_changed(fixture), 'value="5 2"', wrong)


BUILD = {"guildball": _guildball, "dreadball": _dreadball, "dungeonbowl": _dungeonbowl}


@pytest.fixture(params=GAMES)
def match(request, organiser, client, django_capture_on_commit_callbacks) -> Match:
    built = BUILD[request.param](organiser)
    client.force_login(built.reporter)
    response = client.post(reverse("league:report_result", args=[built.fixture.pk]), built.first)
    assert response.status_code == 302, response.content.decode()[:2000]
    client.logout()
    mail.outbox.clear()
    return built


def _send(client, user, name: str, match: Match, data: dict | None, capture):
    client.logout()
    if user is not None:
        client.force_login(user)
    with capture(execute=True):
        return client.post(reverse(f"league:{name}", args=[match.fixture.pk]), data or {})


def _row_counts() -> tuple[int, ...]:
    """Every table's row count but those logging in writes to (sessions, the log-in log)."""
    tables = [m._meta.db_table for m in apps.get_models()
              if "session" not in m._meta.db_table and not m._meta.db_table.startswith("axes_")]
    sql = "SELECT " + ", ".join(f"(SELECT COUNT(*) FROM {connection.ops.quote_name(t)})" for t in tables)
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return tuple(cursor.fetchone())


def _state(match: Match):
    """What a refused step must leave as it was: every table's rows, the result."""
    result = match.result()
    return _row_counts(), result and (result.status, result.summary, result.home_score, result.away_score)


# The services -------------------------------------------------------------------


def test_the_reporter_changes_the_report_and_the_opponent_is_told(match, django_capture_on_commit_callbacks):
    before = match.result().summary
    facts = {"guildball": {"home_score": 8, "away_score": 12},
             "dreadball": {"winner": "away", "difference": 3, "rush": 14, "sudden_death": False}}.get(match.game)
    if facts is None:
        pytest.skip("Dungeon Bowl's facts come from its form: test_the_reporter_sees_the_form_filled_in_and_changes_it")
    with django_capture_on_commit_callbacks(execute=True):
        result = services.change_report(result=match.result(), by=match.reporter, **facts)
    result.refresh_from_db()
    assert result.status == Result.Status.REPORTED and result.outcome == "away" and result.summary != before
    event = ResultEvent.objects.filter(fixture=match.fixture).last()
    assert (event.action, event.summary, event.note) == ("changed", result.summary, f"was {before}")
    [message] = mail.outbox
    assert message.to == [match.fixture.away.coach.email]
    assert "changed their report" in message.subject and "please confirm" in message.subject
    assert f"Was: {before}" in message.body and f"Now: {result.summary}" in message.body


def test_taking_back_deletes_the_result_and_tells_the_opponent(match, client, django_capture_on_commit_callbacks):
    summary = match.result().summary
    with django_capture_on_commit_callbacks(execute=True):
        fixture = services.withdraw_report(result=match.result(), by=match.reporter)
    assert fixture.result_or_none is None and match.result() is None
    assert list(ResultEvent.objects.filter(fixture=match.fixture).values_list("action", flat=True)) == [
        "reported", "taken_back"]
    [message] = mail.outbox
    assert message.to == [match.fixture.away.coach.email] and "took back their report" in message.subject
    assert summary in message.body and "nothing for you to confirm" in message.body
    # The opponent's to-do to confirm it is gone; the match is theirs to report again.
    client.force_login(match.opponent)
    assert match.fixture.get_absolute_url() not in _section(client.get(reverse("league:my_fixtures")), "confirm")
    assert "Report the result" in client.get(match.fixture.get_absolute_url()).content.decode()


def _section(response, word: str) -> str:
    """The part of /me/ from the heading that has ``word`` to the next heading."""
    text = response.content.decode()
    found = re.search(r"<h2[^>]*>[^<]*" + word + r".*?(?=<h2|$)", text, re.S | re.I)
    return found.group(0) if found else ""


def test_the_opt_out_is_honoured(match, django_capture_on_commit_callbacks):
    NotificationPreference.objects.create(user=match.opponent, off=["report_changed", "report_taken_back"])
    with django_capture_on_commit_callbacks(execute=True):
        services.withdraw_report(result=match.result(), by=match.reporter)
    assert mail.outbox == []


@pytest.mark.parametrize("who", ["opponent", "wrong", "organiser", "rival", "anonymous"])
def test_only_the_reporter_may_change_or_take_back(match, who, other_organiser, organiser):
    from django.contrib.auth.models import AnonymousUser

    user = {"opponent": match.opponent, "wrong": match.wrong, "organiser": organiser, "rival": other_organiser,
            "anonymous": AnonymousUser()}[who]
    before = _state(match)
    expected = ValidationError if who == "opponent" else PermissionDenied
    with pytest.raises(expected):
        services.withdraw_report(result=match.result(), by=user)
    with pytest.raises(expected):
        services.change_report(result=match.result(), by=user, **_facts(match))
    assert _state(match) == before and mail.outbox == []


def _facts(match: Match) -> dict:
    return {"guildball": {"home_score": 8, "away_score": 12},
            "dreadball": {"winner": "away", "difference": 3, "rush": 14},
            "dungeonbowl": {"home_score": 0, "away_score": 1, "ending": "touchdown"}}[match.game]


def _confirmed(match, organiser):
    services.confirm_result(result=match.result(), by=match.opponent)


def _disputed(match, organiser):
    services.dispute_result(result=match.result(), by=match.opponent, reason="Wrong score")


def _approved(match, organiser):
    services.approve_result(result=match.result(), by=organiser, reason="seen the sheet")


def _reopened(match, organiser):
    _approved(match, organiser)
    services.reopen_result(result=match.result(), by=organiser, reason="a second look")


@pytest.mark.parametrize(("step", "message"), [
    (_confirmed, "has confirmed your report"),
    (_disputed, "has disputed your report"),
    (_approved, "has approved this result"),
    (_reopened, "reopened this result after approving it"),
])
def test_once_the_report_is_answered_it_stays(match, organiser, step, message):
    """Only while it waits for confirmation: a disputed report is the organiser's to
    settle with both versions as they stood."""
    step(match, organiser)
    before = _state(match)
    with pytest.raises(ValidationError, match=message):
        services.change_report(result=match.result(), by=match.reporter, **_facts(match))
    with pytest.raises(ValidationError, match=message):
        services.withdraw_report(result=match.result(), by=match.reporter)
    assert _state(match) == before


def test_the_same_result_or_a_bad_one_is_refused(match):
    before = _state(match)
    same = {"guildball": {"home_score": 12, "away_score": 4},
            "dreadball": {"winner": "home", "difference": 2, "rush": 14, "sudden_death": False}}.get(match.game)
    if same is not None:
        with pytest.raises(ValidationError, match="the result you reported already"):
            services.change_report(result=match.result(), by=match.reporter, **same)
    bad = {"guildball": {"home_score": 12, "away_score": 12},
           "dreadball": {"winner": "home", "difference": 9, "rush": 14},
           "dungeonbowl": {"home_score": 1, "away_score": 0, "ending": ""}}[match.game]
    with pytest.raises(ValidationError):
        services.change_report(result=match.result(), by=match.reporter, **bad)
    assert _state(match) == before


# Through the site, every role, every game ---------------------------------------


@pytest.mark.parametrize(("who", "status"), [
    ("anonymous", 302), ("wrong", 403), ("opponent", 400), ("rival", 403), ("organiser", 403),
])
@pytest.mark.parametrize("name", ["change_report", "withdraw_report"])
def test_the_pages_refuse_everyone_but_the_reporter(
    match, client, name, who, status, organiser, other_organiser, django_capture_on_commit_callbacks
):
    user = {"anonymous": None, "wrong": match.wrong, "opponent": match.opponent, "rival": other_organiser,
            "organiser": organiser}[who]
    before = _state(match)
    response = _send(client, user, name, match, {**match.changed, "confirmed": "yes"},
                     django_capture_on_commit_callbacks)
    assert response.status_code == status
    if who == "anonymous":
        assert reverse("login") in response.url
    if who == "opponent":
        assert "Your opponent reported this result" in response.content.decode()
    assert _state(match) == before and mail.outbox == []


def test_the_reporter_sees_the_form_filled_in_and_changes_it(match, client, django_capture_on_commit_callbacks):
    client.force_login(match.reporter)
    page = client.get(match.fixture.get_absolute_url()).content.decode()
    form = page[page.index(reverse("league:change_report", args=[match.fixture.pk])):]
    form = form[:form.index("</form>")]
    assert match.prefilled in form  # the game's own form, with the facts reported
    assert "Take back the report" in page
    # The opponent and the organiser are offered no such thing.
    client.force_login(match.opponent)
    assert "Change the report" not in client.get(match.fixture.get_absolute_url()).content.decode()
    before = match.result().summary
    response = _send(client, match.reporter, "change_report", match, match.changed, django_capture_on_commit_callbacks)
    assert response.status_code == 302, response.content.decode()[:3000]
    result = match.result()
    assert result.summary != before and result.outcome == "away" and result.status == "reported"
    [message] = mail.outbox
    assert message.to == [match.fixture.away.coach.email] and before in message.body and result.summary in message.body
    page = client.get(match.fixture.get_absolute_url()).content.decode()
    assert "Report changed" in page and f"was {before}" in page  # the history line


def test_the_reporter_takes_the_report_back_after_a_confirmation_page(match, client, django_capture_on_commit_callbacks):
    client.force_login(match.reporter)
    page = client.get(match.fixture.get_absolute_url()).content.decode()
    key = KEY.findall(page[page.index("report/take-back/"):])[0]  # the take-back form's own
    asked = _send(client, match.reporter, "withdraw_report", match, {"idempotency_key": key},
                  django_capture_on_commit_callbacks)
    assert asked.status_code == 200 and "Take back your report" in asked.content.decode()
    assert match.result() is not None and mail.outbox == []
    done = _send(client, match.reporter, "withdraw_report", match, {"idempotency_key": key, "confirmed": "yes"},
                 django_capture_on_commit_callbacks)
    assert done.status_code == 302 and match.result() is None
    again = _send(client, match.reporter, "withdraw_report", match, {"idempotency_key": key, "confirmed": "yes"},
                  django_capture_on_commit_callbacks)
    assert again.status_code == 302 and len(mail.outbox) == 1  # the resend replays, writes nothing
    page = client.get(match.fixture.get_absolute_url()).content.decode()
    assert "Report the result" in page and "Report taken back" in page


def test_a_report_sent_again_from_a_kept_page(match, client, django_capture_on_commit_callbacks):
    """The outbox (static/js/outbox.js) sends a report the coach kept offline after
    they reported the match from another page: the same one is accepted with nothing
    written, a different one comes back as the change form filled in with it."""
    before = _state(match)
    same = _send(client, match.reporter, "report_result", match, match.first, django_capture_on_commit_callbacks)
    assert same.status_code == 302 and _state(match) == before
    different = _send(client, match.reporter, "report_result", match, match.changed, django_capture_on_commit_callbacks)
    text = different.content.decode()
    assert different.status_code == 400 and "You reported this match already" in text
    assert reverse("league:change_report", args=[match.fixture.pk]) in text
    assert _state(match) == before and mail.outbox == []


# No stale game rows ---------------------------------------------------------------


@pytest.fixture
def db_match(organiser, client, django_capture_on_commit_callbacks):
    built = _dungeonbowl(organiser)
    client.force_login(built.reporter)
    assert client.post(reverse("league:report_result", args=[built.fixture.pk]), built.first).status_code == 302
    return built


def _rolls(result):
    return sorted((roll.team_id, tuple(roll.values)) for roll in DiceRoll.objects.filter(cause_id=result.pk))


def test_dungeon_bowl_a_change_replaces_every_row_of_the_report(db_match, client):
    result = db_match.result()
    home, away = db_match.fixture.home.dungeonbowl.team, db_match.fixture.away.dungeonbowl.team
    assert PlayerGame.objects.filter(report__result=result).count() == 5
    assert _rolls(result) == [(home.pk, (5, 2))]  # DB-16: the coach's typed dice, logged at once
    response = client.post(reverse("league:change_report", args=[db_match.fixture.pk]), db_match.changed)
    assert response.status_code == 302, response.content.decode()[:3000]
    report = GameReport.objects.get(result=result)
    assert (report.home_gather, report.away_journeymen, report.dice) == (0, 1, [4, 3])
    assert list(report.players.values_list("side", "touchdowns", "mvp")) == [("away", 1, True)]
    assert _rolls(result) == [(away.pk, (4, 3))]  # the new winner's, the old roll gone with the old report
    # Approval uses the changed report's roll, and nothing of the first.
    services.approve_result(result=result, by=db_match.fixture.round.season.league.organisers.first(), reason="ok")
    assert _rolls(result) == [(away.pk, (4, 3))]


def test_dungeon_bowl_taking_back_leaves_nothing(db_match, client):
    result = db_match.result()
    response = client.post(reverse("league:withdraw_report", args=[db_match.fixture.pk]), {"confirmed": "yes"})
    assert response.status_code == 302
    assert not GameReport.objects.exists() and not PlayerGame.objects.exists()
    assert not DiceRoll.objects.filter(cause_id=result.pk).exists()


def test_dreadball_taking_back_leaves_nothing(organiser, client):
    match = _dreadball(organiser)
    services.report_result(fixture=match.fixture, by=match.reporter, **match.first)
    assert DreadBallResult.objects.count() == 1
    services.withdraw_report(result=match.result(), by=match.reporter)
    assert not DreadBallResult.objects.exists() and not Result.objects.exists()


# The kept pages change --------------------------------------------------------------


def test_every_page_showing_the_report_changes(match, client, organiser, django_capture_on_commit_callbacks):
    """The fixture page, the opponent's and the organiser's /me/ and the organiser's
    dashboard are kept per version: a change or a take-back shows at once."""
    league = match.fixture.round.season.league
    # Reported a week ago: the dashboard lists it among the reports left unconfirmed.
    Result.objects.filter(pk=match.result().pk).update(reported_at=timezone.now() - datetime.timedelta(days=7))
    pages = {
        "fixture": (match.opponent, match.fixture.get_absolute_url()),
        "opponent": (match.opponent, reverse("league:my_fixtures")),
        "organiser": (organiser, reverse("league:my_fixtures")),
        "dashboard": (organiser, reverse("league:organiser_dashboard", args=[league.slug])),
    }

    def load():
        seen = {}
        for name, (user, url) in pages.items():
            client.logout()
            client.force_login(user)
            response = client.get(url)
            assert response.status_code == 200, url
            seen[name] = response.content.decode()
        return seen

    link = f'href="{match.fixture.get_absolute_url()}"'
    first = match.result().summary
    before = load()
    assert first in before["fixture"] and first in before["dashboard"]
    assert link in _lines(before["opponent"], "Confirm or dispute:") and link in before["organiser"]
    _send(client, match.reporter, "change_report", match, match.changed, django_capture_on_commit_callbacks)
    changed = match.result().summary
    after = load()
    assert re.search(r'class="score"><strong>[^<]*' + re.escape(changed), after["fixture"])
    assert f"was {first}" in after["fixture"]  # the history keeps the first report
    assert f"<strong>{changed}</strong>" in after["dashboard"] and f"<strong>{first}</strong>" not in after["dashboard"]
    _send(client, match.reporter, "withdraw_report", match, {"confirmed": "yes"}, django_capture_on_commit_callbacks)
    after = load()
    assert "Not reported yet" in after["fixture"]
    assert link not in _lines(after["opponent"], "Confirm or dispute:") and link in _lines(after["opponent"], "Report:")
    assert link not in after["organiser"]
    assert f"<strong>{changed}</strong>" not in after["dashboard"]  # listed now as a match to report, if at all


def _lines(page: str, prefix: str) -> str:
    """The fixture lines of /me/ that start with ``prefix``."""
    return "".join(re.findall(r'<li class="fixture"><strong>' + re.escape(prefix) + r"</strong>.*?</li>", page, re.S))


# The cost of the pages ----------------------------------------------------------------


def _reported_in(size: int, organiser):
    from tests.support.builders import season_with_results

    league = LeagueFactory(slug=f"sized-{size}", organisers=[organiser])
    season = season_with_results(coaches=size, played_rounds=size // 2, season=SeasonFactory(league=league))
    pending = Fixture.objects.filter(round__season=season, result__isnull=True, away__isnull=False).first()
    services.report_result(fixture=pending, by=pending.home.coach.user, home_score=12, away_score=4)
    return pending


def test_the_reporters_pages_cost_the_same_at_4_and_40_coaches(client, organiser):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = {}
    for size in (4, 40):
        fixture = _reported_in(size, organiser)
        client.force_login(fixture.home.coach.user)
        counts[size] = []
        for method, url, data in [
            ("get", fixture.get_absolute_url(), None),
            ("post", reverse("league:withdraw_report", args=[fixture.pk]), {}),  # the confirmation page
            ("post", reverse("league:change_report", args=[fixture.pk]), {"home_score": 12, "away_score": 99}),  # 400
        ]:
            with CaptureQueriesContext(connection) as queries:
                response = getattr(client, method)(url, data) if data is not None else client.get(url)
            assert response.status_code in (200, 400), url
            counts[size].append(len(queries))
    assert counts[4] == counts[40]

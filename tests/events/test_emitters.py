"""Where the events come from: the engine's other writes (a fixture rearranged, a
dispute, a correction, a reopened result), a game's (Dungeon Bowl's play-offs
seeded) and a layer's (a Big League coach reaching a Moment), which emit through
the engine's ``league.events.emit`` without the engine importing them."""

from __future__ import annotations

import datetime
import json

import pytest

from campaigns.ledgers import services as ledgers
from league.dungeonbowl.playoffs import services as playoffs
from league.events import types
from league.events.models import Delivery, Subscription
from league.services import fixtures as fixture_services
from league.services import results
from tests.campaigns.factories import make_campaign
from tests.dungeonbowl.builders import db_season
from tests.dungeonbowl.playoff_builders import play_regular

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _nothing_posted(monkeypatch):
    """The deliveries are queued and kept; these tests read what they carry."""
    monkeypatch.setattr("league.events.emit.tasks.enqueue_with_write", lambda task, **kwargs: None)


def listen(league, kinds) -> Subscription:
    return Subscription.objects.create(league=league, url="https://bot.example.org/e", event_types=sorted(kinds))


def sent() -> list[tuple[str, dict]]:
    return [(d.event_type, json.loads(d.payload)["data"]) for d in Delivery.objects.order_by("pk")]


def test_rearranged_disputed_corrected_and_reopened(league, organiser, fixture, home_user, away_user):
    listen(league, types.ALL)
    later = fixture.date + datetime.timedelta(days=3)
    fixture_services.rearrange_fixture(fixture=fixture, by=organiser, new_date=later, reason="venue closed")
    result = results.report_result(fixture=fixture, by=home_user, home_score=12, away_score=6)
    results.dispute_result(result=result, by=away_user, reason="it was 12-10")
    results.record_result(fixture=fixture, by=organiser, home_score=12, away_score=10, reason="settled")
    results.record_result(fixture=fixture, by=organiser, home_score=12, away_score=8, reason="typo")
    results.reopen_result(result=fixture.result, by=organiser, reason="the sheet was lost")
    events = sent()
    assert [kind for kind, _ in events] == [
        "fixture.rearranged", "result.reported", "result.disputed",
        "result.approved", "standings.changed", "season.over",
        "result.corrected", "standings.changed",
        "standings.changed",
    ]
    assert events[0][1]["fixture"]["was"] == fixture.date.isoformat()
    assert events[0][1]["fixture"]["date"] == later.isoformat()
    assert events[6][1]["result"]["away_score"] == 8


def test_a_league_without_subscriptions_writes_no_delivery(league, organiser, fixture, home_user):
    other = listen(league, [types.RESULT_APPROVED])
    other.active = False
    other.save()
    results.report_result(fixture=fixture, by=home_user, home_score=12, away_score=6)
    results.record_result(fixture=fixture, by=organiser, home_score=12, away_score=10, reason="settled")
    assert not Delivery.objects.exists()


def test_dungeon_bowl_play_offs_seeded(organiser):
    season = db_season(organiser, teams=4, playoffs=1)
    play_regular(season, organiser, ["Team 01", "Team 02", "Team 03", "Team 04"])
    listen(season.league, [types.PLAYOFFS_SEEDED])
    playoffs.start_playoffs(season=season, by=organiser)
    (kind, data), = sent()
    assert kind == "playoffs.seeded" and data["season"]["id"] == season.pk
    assert [(g["home"], g["away"]) for g in data["semi_finals"]] == [("Team 01", "Team 04"), ("Team 02", "Team 03")]


def test_a_big_league_coach_reaching_a_moment(season, organiser):
    a, _ = make_campaign(season, 2, organiser=organiser)
    listen(season.league, [types.MOMENT_REACHED])
    ledgers.adjust(coach=a, ledger="cp", amount=45, reason="a league prize", by=organiser)
    events = sent()
    assert [data["moment"]["threshold"] for _, data in events] == [20, 40]
    assert {data["moment"]["coach"] for _, data in events} == {a.entry.coach.name}
    assert events[0][1]["league"] == season.league.slug


def test_an_import_of_results_tells_of_the_table_once_a_season():
    """A results import (league/spreadsheets/writer.py) is quiet towards the coaches'
    mail; a subscriber hears the table changed once for the season, and that the
    season is over when the file completes it (LG-3), not an event a result."""
    from tests.spreadsheets.test_bulk_import import guild_ball_file, import_text, importer_user
    from league.models import League
    from tests.support.factories import LeagueFactory

    by = importer_user()
    LeagueFactory(name="Import Cup", slug="import-cup", organisers=[by])
    listen(League.objects.get(slug="import-cup"), types.ALL)
    text = guild_ball_file("Import Cup", coaches=4)
    header, *lines = text.splitlines()
    scheduled = [",".join([*line.split(",")[:4], "", "", "scheduled"]) for line in lines[3:]]
    import_text("\n".join([header, *lines[:3], *scheduled]) + "\n", "guildball", by=by)  # the season under way
    assert [kind for kind, _ in sent()] == ["standings.changed"]
    import_text(text, "guildball", by=by)  # the rest of the season: now over
    events = sent()
    assert [kind for kind, _ in events] == ["standings.changed", "standings.changed", "season.over"]
    assert events[-1][1]["league"] == "import-cup"


def test_a_next_season_tells_of_each_entrant_carried_over(season, organiser):
    """LG-3: the next season opens with the last one's entrants (not who withdrew,
    LG-4); each joins it as an added entrant would."""
    from django.utils import timezone

    from league.models import Entry, Fixture
    from league.services import seasons
    from tests.support.factories import EntryFactory

    entries = [EntryFactory(season=season, coach__name=name) for name in ("Ada", "Bo", "Cy", "Di")]
    seasons.generate_fixtures(season=season, by=organiser)
    for fixture in Fixture.objects.filter(round__season=season).matches():
        results.record_result(fixture=fixture, by=organiser, home_score=12, away_score=6, reason="played")
    Entry.objects.filter(pk=entries[3].pk).update(withdrawn_at=timezone.now())  # after their last match
    listen(season.league, [types.ENTRANT_JOINED])
    following = seasons.open_next_season(league=season.league, by=organiser)
    events = sent()
    assert [kind for kind, _ in events] == ["entrant.joined"] * 3
    assert [data["entrant"]["coach"] for _, data in events] == ["Ada", "Bo", "Cy"]
    assert {data["season"]["id"] for _, data in events} == {following.pk}


def test_a_report_changed_or_taken_back_is_sent_too(league, fixture, home_user):
    """A subscriber mirroring reports learns of every step of one: the coach
    changing their report, then taking it back."""
    listen(league, {types.RESULT_REPORTED, types.RESULT_CHANGED, types.RESULT_TAKEN_BACK})
    result = results.report_result(fixture=fixture, by=home_user, home_score=12, away_score=6)
    result = results.change_report(result=result, by=home_user, home_score=12, away_score=8)
    results.withdraw_report(result=result, by=home_user)
    events = sent()
    assert [kind for kind, _ in events] == ["result.reported", "result.changed", "result.taken_back"]
    assert [data["result"]["summary"] for _, data in events] == ["12 – 6", "12 – 8", "12 – 8"]
    assert {data["fixture"]["id"] for _, data in events} == {fixture.pk}

"""The game's and the layers' hooks are told who acted (``by``): the organiser who
starts a season, approves, corrects or reopens a result, or imports results; they
never read the fixture's history to find out."""

from __future__ import annotations

import pytest

from league import layers
from league.services import results as services
from league.services import seasons as season_services
from tests.support.factories import EntryFactory, SeasonFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard(monkeypatch) -> list[tuple[str, object]]:
    """A layer on Guild Ball, beside The Big League, that writes down each hook
    called and who it was told acted."""
    calls: list[tuple[str, object]] = []

    def hook(name):
        return lambda subject, *, by: calls.append((name, by))

    spy = layers.Layer(
        name="spy", game_systems=frozenset({"guildball"}), result_approved=hook("approved"),
        result_withdrawn=hook("withdrawn"), season_started=hook("started"), results_imported=hook("imported"),
    )
    declared = layers.layers()
    monkeypatch.setattr(layers, "layers", lambda: (*declared, spy))
    return calls


def test_every_workflow_step_tells_the_layers_who_acted(fixture, organiser, other_organiser, heard):
    league = fixture.round.season.league
    league.organisers.add(other_organiser)
    later = SeasonFactory(league=league, name="Season 2")
    EntryFactory(season=later)
    EntryFactory(season=later)
    season_services.generate_fixtures(season=later, by=organiser)
    assert heard == [("started", organiser)]

    result = services.report_result(fixture=fixture, by=fixture.home.coach.user, home_score=12, away_score=8)
    services.confirm_result(result=result, by=fixture.away.coach.user)
    services.approve_result(result=result, by=organiser)
    assert heard[1:] == [("approved", organiser)]

    services.record_result(fixture=fixture, by=other_organiser, reason="the VP were swapped", home_score=8,
                           away_score=12)
    assert heard[2:] == [("withdrawn", other_organiser), ("approved", other_organiser)]

    services.reopen_result(result=fixture.result, by=organiser, reason="the coaches disagree")
    assert heard[4:] == [("withdrawn", organiser)]

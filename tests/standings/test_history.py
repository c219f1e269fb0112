"""The kept position history (league/standings/history.py; GB-10): an approval
carries it forward one round, anything else has it built again, and what a page
shows always equals ranking every round from scratch."""

from __future__ import annotations

import pytest
from django.db.models import Q
from django.urls import reverse

from league.standings import history
from league.services import results as services
from league.caching import versions
from league.models import Entry, Fixture, Result, Season
from league.standings.ranking import with_history
from league.standings.season import compute_standings, history_for, season_inputs, standings_for
from tests.support.builders import season_with_results
from tests.support.factories import CoachFactory, EntryFactory, LeagueFactory, SeasonFactory

pytestmark = pytest.mark.django_db


def fresh(season: Season) -> Season:
    """The season as a new request reads it (its current version)."""
    return Season.objects.select_related("league").get(pk=season.pk)


def shown(rows) -> list[tuple]:
    return [(r.entry_id, r.position, r.tied, r.played, r.won, r.drawn, r.lost, r.lp, tuple(sorted(r.stats.items())),
             r.note, r.movement) for r in rows]


def assert_exact(season: Season) -> None:
    """What the pages read equals the pure path over the approved results."""
    season = fresh(season)
    entries, results = season_inputs(season)
    pure = with_history(entries, results, season.league.rules)
    assert shown(standings_for(season)) == shown(pure) == shown(compute_standings(season))
    assert dict(history_for(season)) == {row.entry_id: row.history for row in pure}


def reported(season: Season, round_number: int, *, through_the_service: bool = True) -> list[Result]:
    """The round's fixtures reported by their home coaches (not yet approved), 12-3."""
    fixtures = Fixture.objects.filter(round__season=season, round__number=round_number, away__isnull=False) \
        .select_related("home__coach__user")
    if through_the_service:
        return [services.report_result(fixture=f, by=f.home.coach.user, home_score=12, away_score=3) for f in fixtures]
    return [Result.objects.create(fixture=f, home_score=12, away_score=3, outcome="home", summary="12 – 3",
                                  status=Result.Status.REPORTED) for f in fixtures]


@pytest.fixture
def season(organiser):
    return season_with_results(coaches=6, played_rounds=2, season=SeasonFactory(
        league=LeagueFactory(slug="kept", organisers=[organiser])))


def test_reports_and_approvals_in_the_latest_round_and_the_next_carry_the_history_forward(season, organiser):
    history_for(fresh(season))  # a page built it for this version
    for round_number in (3, 4):
        results = reported(season, round_number)
        assert history.current(fresh(season)) is not None, "a report changes no table: the history is kept"
        for result in results:
            services.approve_result(result=result, by=organiser, reason="checked")
            kept = history.current(fresh(season))
            assert kept is not None, "an approval in the latest round keeps the history"
            assert kept.rounds[-1] == round_number
            assert_exact(season)


def test_a_write_that_bypasses_the_services_has_it_built_again(season, organiser):
    history_for(fresh(season))
    results = reported(season, 3, through_the_service=False)  # tracked, but not carried: a new version
    assert history.current(fresh(season)) is None
    services.approve_result(result=results[0], by=organiser, reason="checked")
    assert history.current(fresh(season)) is None
    assert_exact(season)


def test_a_late_result_of_an_earlier_round_has_it_built_again(season, organiser):
    for result in reported(season, 3):
        services.approve_result(result=result, by=organiser, reason="checked")
    early = Result.objects.filter(fixture__round__season=season, fixture__round__number=1).first()
    Result.objects.filter(pk=early.pk).update(status=Result.Status.REPORTED, approved_at=None)
    versions.bump(Q(pk=season.pk))
    history_for(fresh(season))
    services.approve_result(result=Result.objects.get(pk=early.pk), by=organiser, reason="late")
    assert history.current(fresh(season)) is None  # every later round moved: not carried forward
    assert_exact(season)
    assert history.current(fresh(season)) is not None  # built by that page, kept for the next


def test_corrections_reopenings_and_new_entrants_are_never_carried_forward(season, organiser):
    approved = Result.objects.filter(fixture__round__season=season, fixture__round__number=2).first()
    history_for(fresh(season))
    services.record_result(fixture=approved.fixture, by=organiser, reason="typo", home_score=2, away_score=12,
                           outcome="away")
    assert history.current(fresh(season)) is None
    assert_exact(season)
    services.reopen_result(result=Result.objects.get(pk=approved.pk), by=organiser, reason="ask again")
    assert history.current(fresh(season)) is None
    assert_exact(season)
    EntryFactory(season=season, coach=CoachFactory())
    assert history.current(fresh(season)) is None
    assert_exact(season)


def test_an_approval_with_the_entries_changed_in_between_is_not_carried_forward(season, organiser):
    history_for(fresh(season))
    result = reported(season, 3)[0]
    # A rename without a signal (as a bulk write would), then the approval: the
    # entries the history holds differ, so it is built again.
    Entry.objects.filter(pk=result.fixture.home_id).update(team="Renamed")
    services.approve_result(result=result, by=organiser, reason="checked")
    assert history.current(fresh(season)) is None
    assert_exact(season)


def test_a_history_built_for_a_version_that_moved_on_is_not_kept(season):
    stale = fresh(season)
    versions.bump(Q(pk=season.pk))  # a write committed after the page read the version
    history.for_season(stale)
    assert history.current(fresh(stale)) is None
    stale.__dict__.pop("_history_memo", None)
    assert history.current(stale) is None  # nothing kept under the old version either


def test_the_league_page_after_an_approval_shows_it_at_once(client, season, organiser):
    url = reverse("league:league_detail", args=[season.league.slug])
    client.get(url)
    result = reported(season, 3)[0]
    services.approve_result(result=result, by=organiser, reason="checked")
    page = client.get(url).content.decode()
    home = result.fixture.home
    row = next(r for r in standings_for(fresh(season)) if r.entry_id == home.pk)
    assert row.played == 3 and f'data-name="{home.coach.name}"' in page
    assert_exact(season)


def test_lines_are_read_one_entry_at_a_time():
    season = season_with_results(coaches=5, played_rounds=4)
    lines = history_for(fresh(season))
    pure = {row.entry_id: row.history for row in with_history(*season_inputs(fresh(season)), season.league.rules)}
    assert len(lines) == 5 and set(lines) == set(pure)
    assert all(lines[entry] == pure[entry] and len(pure[entry]) == 4 for entry in pure)
    with pytest.raises(KeyError):
        lines[-1]
    assert lines.get(-1, []) == []

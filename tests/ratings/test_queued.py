"""RT-2 through the outbox: a write that changes which results count marks the
game's ratings as waiting from the match's week and queues their recomputation
with itself (league/ratings/services.py); the task, run once the write has
committed, recomputes from the earliest week waiting, once for a burst of
approvals, and the pages say the ratings are being brought up to date until it
has run."""

from __future__ import annotations

import datetime

import pytest
from django.db import OperationalError, transaction
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from league.models import Result
from league.ratings import services as ratings
from league.ratings.models import RatedGame, Rating
from league.services import results as engine
from tests.support.factories import (
    CoachFactory, EntryFactory, FixtureFactory, LeagueFactory, ResultFactory, RoundFactory, SeasonFactory,
)
from tests.outbox.test_tasks import database_queue, work_the_queue  # noqa: F401 (a fixture)
from tests.ratings.test_recompute import from_scratch, snapshot

MONDAY = datetime.date(2026, 9, 7)
WAITING = "results are still being added to"
TASK = "league.ratings.services.recompute_ratings"


def approve_directly(results) -> None:
    """Approved without the services (nothing marked or queued), as a bulk build is."""
    Result.objects.filter(pk__in=[r.pk for r in results]).update(status=Result.Status.APPROVED,
                                                                 approved_at=timezone.now())


@pytest.fixture
def confirmed(organiser):
    """Four results of one Guild Ball season, one a week, each confirmed by both
    coaches and waiting for the organiser."""
    season = SeasonFactory(league=LeagueFactory(organisers=[organiser]), start_date=MONDAY)
    ann, bob, cat = (EntryFactory(season=season, coach=CoachFactory(name=name)) for name in ("Ann", "Bob", "Cat"))
    results = []
    for week, (home, away) in enumerate([(ann, bob), (bob, cat), (cat, ann), (ann, bob)]):
        day = MONDAY + datetime.timedelta(days=7 * week + 2)
        fixture = FixtureFactory(round=RoundFactory(season=season, date=day, number=week + 1), home=home, away=away,
                                 date=day)
        results.append(ResultFactory(fixture=fixture, status=Result.Status.CONFIRMED, approved_at=None,
                                     reported_side="home", home_score=12, away_score=2 * week))
    return results


def test_the_recomputation_is_queued_with_the_write_and_run_after_it(database_queue, confirmed, organiser):
    engine.approve_result(result=confirmed[2], by=organiser)
    game = RatedGame.objects.get(pk="guildball")
    assert game.pending_since == MONDAY + datetime.timedelta(days=14)  # the match's week (RT-2)
    assert DBTaskResult.objects.filter(task_path=TASK).count() == 1  # beside the coaches' mail
    assert not Rating.objects.exists()  # nothing is recomputed in the approving write
    work_the_queue()
    assert RatedGame.objects.get(pk="guildball").pending_since is None
    assert Rating.objects.filter(game_system="guildball").count() == 2
    assert snapshot() == from_scratch()


def test_a_rolled_back_write_leaves_nothing_waiting(database_queue, confirmed, organiser):
    before = RatedGame.objects.get(pk="guildball")
    with pytest.raises(RuntimeError), transaction.atomic():
        engine.approve_result(result=confirmed[0], by=organiser)
        raise RuntimeError("something later in the request fails")
    after = RatedGame.objects.get(pk="guildball")
    assert (after.pending_since, after.version) == (None, before.version)
    assert not DBTaskResult.objects.exists()


def test_a_burst_of_approvals_is_recomputed_once_from_its_earliest_week(database_queue, confirmed, organiser):
    """Approved out of order (the third week, the last, then the first): the
    earliest week waits, the first task recomputes from it, the others find
    nothing left to do, and the ratings equal a recomputation from scratch."""
    for result in (confirmed[2], confirmed[3], confirmed[0]):
        engine.approve_result(result=result, by=organiser)
    assert RatedGame.objects.get(pk="guildball").pending_since == MONDAY
    work_the_queue()
    assert sorted(row.return_value for row in DBTaskResult.objects.filter(task_path=TASK)) == [
        "nothing pending", "nothing pending", f"recomputed from {MONDAY}"]
    assert snapshot() == from_scratch()


def test_a_recomputation_takes_in_an_earlier_week_still_waiting(confirmed, organiser):
    """``recompute`` from a later week while an earlier one waits recomputes from the
    earlier one (a correction's week is never skipped) and clears it."""
    approve_directly(confirmed)
    ratings.recompute("guildball")
    exact = snapshot()
    Result.objects.filter(pk=confirmed[0].pk).update(home_score=0, away_score=12, outcome=Result.Outcome.AWAY_WIN)
    ratings.mark("guildball", MONDAY)
    ratings.mark("guildball", MONDAY + datetime.timedelta(days=21))  # a later week keeps the earlier one
    assert RatedGame.objects.get(pk="guildball").pending_since == MONDAY
    ratings.recompute("guildball", since=MONDAY + datetime.timedelta(days=21))
    assert RatedGame.objects.get(pk="guildball").pending_since is None
    assert snapshot() != exact and snapshot() == from_scratch()
    assert ratings.catch_up("guildball") is None  # nothing left waiting


def test_marking_is_one_query(confirmed, django_assert_num_queries):
    with django_assert_num_queries(1):
        ratings.mark("guildball", MONDAY)


def test_the_pages_say_the_ratings_are_waiting(client, confirmed, organiser, django_capture_on_commit_callbacks):
    approve_directly(confirmed[:3])
    ratings.recompute("guildball")
    ann = confirmed[0].fixture.home.coach
    profile, ranking = reverse("coach_profile", args=[ann.pk]), reverse("ratings:ranking", args=["guildball"])
    assert WAITING not in client.get(profile).content.decode()
    assert WAITING not in client.get(ranking).content.decode()
    with django_capture_on_commit_callbacks() as queued:
        engine.approve_result(result=confirmed[3], by=organiser)
    games = Rating.objects.get(coach=ann, game_system="guildball").games
    assert WAITING in client.get(profile).content.decode()
    assert WAITING in client.get(ranking).content.decode()
    for run in queued:
        run()
    assert Rating.objects.get(coach=ann, game_system="guildball").games == games + 1
    for url in (profile, ranking):
        assert WAITING not in client.get(url).content.decode()


def test_a_recomputation_the_database_fails_is_tried_again(confirmed, organiser, monkeypatch,
                                                          django_capture_on_commit_callbacks):
    """The first attempt meets a database error: the week stays waiting, and the
    next attempt (league/outbox/tasks.py) recomputes it."""
    real = ratings.catch_up
    calls = []

    def fails_once(game_system):
        calls.append(game_system)
        if len(calls) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return real(game_system)

    monkeypatch.setattr(ratings, "catch_up", fails_once)
    with django_capture_on_commit_callbacks(execute=True):
        engine.approve_result(result=confirmed[0], by=organiser)
    assert calls == ["guildball", "guildball"]
    assert RatedGame.objects.get(pk="guildball").pending_since is None
    assert snapshot() == from_scratch()


def test_the_worker_queues_the_games_still_waiting_as_it_starts(database_queue, confirmed, organiser):
    """A week left waiting (its task gave up, or its worker was lost with it) is
    recomputed once ``run_tasks`` starts again."""
    engine.approve_result(result=confirmed[1], by=organiser)
    DBTaskResult.objects.all().delete()  # the queued task is lost
    assert ratings.queue_waiting() == ["guildball"]
    assert list(DBTaskResult.objects.values_list("task_path", flat=True)) == [TASK]
    work_the_queue()
    assert RatedGame.objects.get(pk="guildball").pending_since is None
    assert snapshot() == from_scratch()
    assert ratings.queue_waiting() == []

"""A merge of two coaches while their game's ratings are being recomputed, on
PostgreSQL: the recomputation (league/ratings/services.py ``catch_up``) holds the
game's ratings row and writes rating rows that point at every rated coach; the
merge holds both coaches' rows, then marks that same ratings row. Neither may
wait for the other (a deadlock PostgreSQL would end by killing one): the coach
rows are held against other writes of them, not against rows that point at
them (league/people/merges.py ``_lock``)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from league.ratings import services as ratings
from league.ratings.models import RatedGame, Rating
from league.people import merges
from tests.support.concurrency import POSTGRES_ONLY
from tests.ratings.test_recompute import MONDAY, from_scratch, one_person_twice, snapshot

pytestmark = POSTGRES_ONLY


def test_a_merge_and_a_recomputation_of_its_game_both_finish(organiser, monkeypatch):
    keep, absorb = one_person_twice(organiser)
    ratings.mark("guildball", MONDAY)  # a recomputation waits, as after an approval

    holding, release = threading.Event(), threading.Event()
    repoint = merges._repoint

    def held_repoint(kept, absorbed):
        holding.set()  # the merge holds both coaches' rows
        release.wait(20)
        repoint(kept, absorbed)

    monkeypatch.setattr(merges, "_repoint", held_repoint)
    failures: list[Exception] = []

    def in_thread(call):
        def run():
            try:
                call()
            except Exception as exc:  # noqa: BLE001 - the test reads what was raised
                failures.append(exc)
            finally:
                connection.close()
        return threading.Thread(target=run)

    merging = in_thread(lambda: merges.merge(keep=keep, absorb=absorb, by=organiser))
    recomputing = in_thread(lambda: ratings.catch_up("guildball"))
    merging.start()
    assert holding.wait(20)
    recomputing.start()
    recomputing.join(10)
    finished_while_held = not recomputing.is_alive()
    release.set()
    merging.join(30)
    recomputing.join(30)
    assert finished_while_held, "the recomputation waited for the merge's coach rows"
    assert failures == []
    # The merge queued its own recomputation (the test's queue runs it on commit).
    assert RatedGame.objects.get(pk="guildball").pending_since is None
    assert Rating.objects.get(coach=keep, game_system="guildball").games == 2
    assert not Rating.objects.filter(coach_id=absorb.pk).exists()
    assert snapshot() == from_scratch()

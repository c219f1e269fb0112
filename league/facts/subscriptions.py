"""The engine's followers of each kind of fact: which mail, which signed event,
whether the league's webhooks post, whether the ratings wait for a
recomputation. Each follower below turns a ``Recorded`` fact into the follower
module's own call; ``register`` fills the registry from the facts app's
``ready()``. A game or a layer names its own in its declaration (``facts``,
league/games.py).

What the cache does after a write is not here: a service says how it wrote
(league/caching/writes.py ``results_write``, ``changed`` after a bulk write that
sends no signals), which is how its rows were written, not what happened.
"""

from __future__ import annotations

from league.events import emit as events
from league.events import types as event_types
from league.facts import kinds
from league.facts.registry import Recorded
from league.facts.registry import follow
from league.models import Entry, Fixture
from league.outbox import notifications as mail
from league.events import webhooks
from league.ratings import services as ratings
from league.rules import GAMES


# Mail (league/outbox/notifications.py) ---------------------------------------------


def mail_result_reported(fact: Recorded) -> None:
    mail.result_reported(fact.result)


def mail_report_changed(fact: Recorded) -> None:
    mail.report_changed(fact.result, before=fact.about["before"])


def mail_report_taken_back(fact: Recorded) -> None:
    mail.report_taken_back(fact.result)  # rendered now, while the result still exists


def mail_result_disputed(fact: Recorded) -> None:
    mail.result_disputed(fact.result)


def mail_result_approved(fact: Recorded) -> None:
    mail.result_approved(fact.result, corrected=fact.kind == kinds.RESULT_CORRECTED)


def mail_fixture_rearranged(fact: Recorded) -> None:
    mail.fixture_rearranged(fact.fixture, fact.about["old_date"])


def mail_opponents_withdrawn_from(fact: Recorded) -> None:
    """LG-2: each opponent of a fixture the withdrawal cancelled is told, once,
    with their fixtures."""
    entry, cancelled = fact.about["entry"], fact.about["cancelled"]
    if not cancelled:
        return
    fixtures = Fixture.objects.filter(pk__in=cancelled).matches().with_related().select_related(
        "home__coach__user", "away__coach__user").order_by("date", "round__number", "pk")
    by_opponent: dict[int, tuple[Entry, list[Fixture]]] = {}
    for fixture in fixtures:
        opponent = fixture.away if fixture.home_id == entry.pk else fixture.home
        by_opponent.setdefault(opponent.pk, (opponent, []))[1].append(fixture)
    for opponent, theirs in by_opponent.values():
        mail.opponent_withdrew(season=fact.season, withdrawn=entry, opponent=opponent, fixtures=theirs)


def mail_join_requested(fact: Recorded) -> None:
    mail.join_requested(fact.about["join_request"])


def mail_join_decided(fact: Recorded) -> None:
    mail.join_decided(fact.about["join_request"])


def mail_merge_asked(fact: Recorded) -> None:
    mail.merge_asked(request=fact.about["request"], holder=fact.about["holder"], other=fact.about["other"],
                     leagues=fact.about["leagues"])


# The league's webhooks: its Discord channel and its signed receiver (league/events/webhooks.py) --


def webhooks_result_approved(fact: Recorded) -> None:
    webhooks.result_approved(fact.result)


def webhooks_test(fact: Recorded) -> None:
    webhooks.queue_test(fact.league)


# Signed events (league/events/emit.py) ---------------------------------------------

_RESULT_EVENTS = {
    kinds.RESULT_REPORTED: event_types.RESULT_REPORTED,
    kinds.RESULT_CHANGED: event_types.RESULT_CHANGED,
    kinds.RESULT_TAKEN_BACK: event_types.RESULT_TAKEN_BACK,
    kinds.RESULT_CONFIRMED: event_types.RESULT_CONFIRMED,
    kinds.RESULT_DISPUTED: event_types.RESULT_DISPUTED,
    kinds.RESULT_APPROVED: event_types.RESULT_APPROVED,
    kinds.RESULT_ENTERED: event_types.RESULT_APPROVED,
}


def events_result(fact: Recorded) -> None:
    """The step's event. The organiser's result over one not approved yet (a
    disputed report corrected, a match abandoned) is its approval; over an approved
    one, a correction."""
    if fact.kind in (kinds.RESULT_CORRECTED, kinds.RESULT_ABANDONED):
        kind = event_types.RESULT_CORRECTED if fact.about["was_approved"] else event_types.RESULT_APPROVED
    else:
        kind = _RESULT_EVENTS[fact.kind]
    events.result_changed(fact.result, kind)


def events_standings_changed(fact: Recorded) -> None:
    events.standings_changed(fact.season)  # a reopened result counts no more


def events_fixture_rearranged(fact: Recorded) -> None:
    events.fixture_rearranged(fact.fixture, fact.about["old_date"])


def events_results_imported(fact: Recorded) -> None:
    events.results_imported(fact.season)


def events_entrant_joined(fact: Recorded) -> None:
    events.entrant_joined(fact.about["entry"], fact.season)


def events_entrants_carried_over(fact: Recorded) -> None:
    events.entrants_carried_over(fact.season)


def events_entrant_withdrew(fact: Recorded) -> None:
    events.entrant_withdrew(fact.about["entry"], fact.season, not_played=len(fact.about["cancelled"]))


# Ratings (RT-2, league/ratings/services.py): marked and queued with the write -------


def ratings_result(fact: Recorded) -> None:
    """A result that started counting, changed or stopped counting: its game's
    ratings wait from its week on."""
    ratings.results_changed(game_system=fact.season.league.game_system, day=fact.fixture.date)


def ratings_results_imported(fact: Recorded) -> None:
    ratings.results_changed(game_system=fact.season.league.game_system, day=fact.about["earliest"])


def ratings_league_imported(fact: Recorded) -> None:
    ratings.league_imported(fact.league)


def ratings_demo_loaded(fact: Recorded) -> None:
    """RT-2: the demo's results are rated before the site opens, not by the queue
    (the tasks its approvals queued then find nothing left to do)."""
    for game_system in GAMES:
        ratings.catch_up(game_system)


def ratings_coaches_merged(fact: Recorded) -> None:
    ratings.coaches_merged(fact.about["rated"])


# The table ---------------------------------------------------------------------------

ENGINE = {
    kinds.RESULT_REPORTED: [("mail", mail_result_reported), ("events", events_result)],
    kinds.RESULT_CHANGED: [("mail", mail_report_changed), ("events", events_result)],
    kinds.RESULT_TAKEN_BACK: [("mail", mail_report_taken_back), ("events", events_result)],
    kinds.RESULT_CONFIRMED: [("events", events_result)],
    kinds.RESULT_DISPUTED: [("mail", mail_result_disputed), ("events", events_result)],
    kinds.RESULT_APPROVED: [("ratings", ratings_result), ("mail", mail_result_approved),
                            ("webhooks", webhooks_result_approved), ("events", events_result)],
    kinds.RESULT_ENTERED: [("ratings", ratings_result), ("mail", mail_result_approved),
                           ("webhooks", webhooks_result_approved), ("events", events_result)],
    kinds.RESULT_CORRECTED: [("ratings", ratings_result), ("mail", mail_result_approved),
                             ("webhooks", webhooks_result_approved), ("events", events_result)],
    kinds.RESULT_ABANDONED: [("ratings", ratings_result), ("mail", mail_result_approved),
                             ("webhooks", webhooks_result_approved), ("events", events_result)],
    kinds.RESULT_REOPENED: [("ratings", ratings_result), ("events", events_standings_changed)],
    kinds.FIXTURE_REARRANGED: [("mail", mail_fixture_rearranged), ("events", events_fixture_rearranged)],
    kinds.RESULTS_IMPORTED: [("ratings", ratings_results_imported), ("events", events_results_imported)],
    kinds.LEAGUE_IMPORTED: [("ratings", ratings_league_imported)],
    kinds.DEMO_LOADED: [("ratings", ratings_demo_loaded)],
    kinds.ENTRANT_JOINED: [("events", events_entrant_joined)],
    kinds.ENTRANTS_CARRIED_OVER: [("events", events_entrants_carried_over)],
    kinds.ENTRANT_WITHDREW: [("mail", mail_opponents_withdrawn_from), ("events", events_entrant_withdrew)],
    kinds.JOIN_ASKED: [("mail", mail_join_requested)],
    kinds.CLAIM_ASKED: [("mail", mail_join_requested)],
    kinds.JOIN_DECIDED: [("mail", mail_join_decided)],
    kinds.MERGE_ASKED: [("mail", mail_merge_asked)],
    kinds.COACHES_MERGED: [("ratings", ratings_coaches_merged)],
    kinds.WEBHOOKS_TESTED: [("webhooks", webhooks_test)],
}


def register() -> None:
    for kind, followers in ENGINE.items():
        for name, follower in followers:
            follow(kind, name, follower)

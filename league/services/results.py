"""The result workflow of one match: report, change or take back a report,
confirm, dispute, approve, record (enter or correct), reopen. An import's results
written at once are league/services/bulk_results.py; rearranging a fixture and
whether it has a match are league/services/fixtures.py; a season's set-up
(fixtures, divisions, friendlies) is league/services/seasons.py. Each service is
one transaction and locks the row it changes, so a double click or two coaches at
once cannot record twice. Every workflow step on a match takes its locks in the
one order of league/locks.py (fixture, result, the sides' rows, the season's
version last).

Each step's fact is the fixture's history row (``facts.result_step``), written
last: what follows it (mail, the league's webhooks, signed events, the ratings)
subscribes to its kind (league/facts/subscriptions.py), never called from here.

Refusals raise ``django.core.exceptions.ValidationError`` (a message for the form)
or ``PermissionDenied`` (the caller has no business doing this).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from league import layers, locks
from league.caching import writes as season_writes
from league.facts import recording as facts
from league.models import Coach, Fixture, Result, ResultEvent
from league.permissions import require_organiser
from league.rules.base import GameRules, Verdict
from league.services import fixtures


class NeedsAcknowledgement(ValidationError):
    """A correction a layer warns about (GB-20: it leaves a coach owing Favours):
    nothing is written until the organiser acknowledges the warnings."""

    def __init__(self, warnings: list[str]):
        super().__init__([*warnings, "Nothing was changed: tick the box to go ahead with this correction anyway."])
        self.warnings = warnings


# Results --------------------------------------------------------------------


@transaction.atomic
@season_writes.results_write()  # a report changes no table: the history moves on
def report_result(*, fixture: Fixture, by, **facts) -> Result:
    """A coach in the fixture reports it with the facts the game's form asks for
    (GB-8, DB-9, DR-3); the opponent then confirms it."""
    fixture, _ = locks.fixture(fixture.pk, sides=False)
    side = _coach_side(fixture, by)
    if side is None:
        raise PermissionDenied("Only the two coaches of a fixture can report it.")
    fixtures.check_has_match(fixture)
    rules = fixture.round.season.league.rules
    stored = fixture.result_or_none
    if stored is not None:
        if stored.status == Result.Status.REPORTED and stored.reported_side == side:
            return _own_report_again(stored, rules, facts=facts)
        if stored.status != Result.Status.REPORTED:
            raise ValidationError("This fixture has already been reported.")
        return _second_report(stored, rules, by=by, facts=facts)
    verdict = rules.validate(facts)
    result = Result(fixture=fixture, reported_side=side)
    _store(result, verdict, rules)
    _step(result, ResultEvent.Action.REPORTED, by)
    return result


def _own_report_again(result: Result, rules: GameRules, *, facts: dict) -> Result:
    """A coach's report of a match they have reported already and that waits on
    their opponent: sent again from a page kept offline (static/js/outbox.js) or
    opened before the first one was sent. The same result is the report there is,
    accepted with nothing written; a different one is refused, naming the one
    stored, for the coach to change it on purpose (``change_report``), never
    replaced behind their back."""
    verdict = rules.validate(facts)
    if rules.same_result(verdict, result):
        return result
    raise ValidationError(
        f"You reported this match already ({result.summary}) and your opponent has not answered yet. "
        f"The result in this form is different ({rules.summary(verdict)}): change your report to send it instead."
    )


def _second_report(result: Result, rules: GameRules, *, by, facts: dict) -> Result:
    """A Decision for every game (GB-8): a coach's report that arrives after
    the opponent's (sent from a phone that had no signal) is that coach's answer to
    it: the same result confirms it, a different one disputes it as usual, with this
    report as the version the coach says is right (league/services/disputes.py settles it)."""
    verdict = rules.validate(facts)
    if rules.same_result(verdict, result):
        return confirm_result(result=result, by=by)
    return dispute_result(
        result=result, by=by, proposed=dict(facts),
        reason=f"Both coaches reported this match; the reports differ ({rules.summary(verdict)} against {result.summary}).",
    )


@transaction.atomic
@season_writes.results_write()  # an unconfirmed report counts in no table
def change_report(*, result: Result, by, **facts) -> Result:
    """GB-8 Decision (every game): both coaches agree on a result before it reaches
    the organiser, so until the opponent answers the reporting coach may correct
    their own report with the game's form. Only while it waits for confirmation: a
    confirmed report is agreed, a disputed one is the organiser's to settle with
    both versions as they stood, an approved one (or one reopened after approval)
    the organiser corrects. Everything the old report wrote is replaced in this
    transaction, and the opponent is told the old and the new result."""
    result = _lock_result(result, sides=False)
    require_reporting_coach(result, by)
    rules = result.fixture.round.season.league.rules
    verdict = rules.validate(facts)
    if rules.same_result(verdict, result):
        raise ValidationError("That is the result you reported already: change something, or leave it as it is.")
    before = result.summary
    rules.discard_report(result, by=by)
    _store(result, verdict, rules)
    _step(result, ResultEvent.Action.CHANGED, by, note=f"was {before}", before=before)
    return result


@transaction.atomic
@season_writes.results_write()  # an unconfirmed report counts in no table
def withdraw_report(*, result: Result, by) -> Fixture:
    """GB-8 Decision (every game): the reporting coach takes back their report
    while it waits for the opponent's confirmation (same limits as
    ``change_report``). The result is deleted with everything the report wrote
    (the game's details by key, what names it by cause through the game's
    ``discard_report``, what a layer attached through ``report_taken_back``), the
    fixture is open to report again, the opponent's to-do to confirm it goes and
    the opponent is told. The history keeps the report and its taking back."""
    result = _lock_result(result, sides=True)  # a layer's rows on the sides go too (league/locks.py)
    require_reporting_coach(result, by)
    fixture = result.fixture
    fixture.round.season.league.rules.discard_report(result, by=by)
    layers.report_taken_back(result, by=by)
    _step(result, ResultEvent.Action.TAKEN_BACK, by)  # followed now, while the result still exists
    result.delete()
    Fixture.result.related.set_cached_value(fixture, None)  # the fixture has no result now
    return fixture


def reporter_may_change(result: Result | None, side: str | None, events) -> bool:
    """Whether the coach on ``side`` may change or take back ``result`` now (the
    rule of ``change_report``), given the fixture's history ``events`` (loaded
    already by the page that asks): their report, waiting for confirmation, never
    approved since it was made."""
    if result is None or not side or side != result.reported_side or result.status != Result.Status.REPORTED:
        return False
    return not any(event.action in _APPROVAL_STEPS and event.at >= result.reported_at for event in events)


# History steps after which a report is no longer only its coach's (an organiser
# approved, entered or corrected it, then reopened it).
_APPROVAL_STEPS = frozenset({
    ResultEvent.Action.APPROVED, ResultEvent.Action.ENTERED, ResultEvent.Action.CORRECTED,
    ResultEvent.Action.ABANDONED, ResultEvent.Action.REOPENED,
})


def require_reporting_coach(result: Result, user) -> None:
    """Refuse anyone but the reporting coach, and the reporting coach once the
    report is no longer only theirs to change (``change_report``)."""
    side = _coach_side(result.fixture, user)
    if side is None:
        raise PermissionDenied("Only the coach who reported this result can change or take it back.")
    if not result.reported_side:
        raise ValidationError("The organiser entered this result: ask the organiser to correct it.")
    if side != result.reported_side:
        raise ValidationError(
            "Your opponent reported this result: confirm it, or dispute it with the result you say is right."
        )
    waiting = {
        Result.Status.CONFIRMED: "Your opponent has confirmed your report: it can no longer be changed or taken back; "
                                 "ask the organiser to correct it.",
        Result.Status.DISPUTED: "Your opponent has disputed your report: the organiser settles it with both versions, "
                                "so it can no longer be changed or taken back.",
        Result.Status.APPROVED: "The organiser has approved this result: it can no longer be changed or taken back; "
                                "ask the organiser to correct it.",
    }
    if result.status in waiting:
        raise ValidationError(waiting[result.status])
    events = ResultEvent.objects.filter(fixture_id=result.fixture_id, action__in=_APPROVAL_STEPS,
                                        at__gte=result.reported_at)
    if not reporter_may_change(result, side, events):
        raise ValidationError("The organiser reopened this result after approving it: ask the organiser to correct it.")


def _store(result: Result, verdict: Verdict, rules: GameRules) -> None:
    """Save the engine's part of a verdict, then the game's own details."""
    result.home_score = verdict.home_score
    result.away_score = verdict.away_score
    result.outcome = verdict.outcome
    result.conceded = verdict.conceded
    result.summary = rules.summary(verdict)
    result.save()
    rules.save_details(result, verdict)


@transaction.atomic
@season_writes.results_write()
def confirm_result(*, result: Result, by) -> Result:
    """The opponent of the reporting coach agrees with the report (GB-8)."""
    result = _lock_result(result, sides=False)
    _require_confirming_coach(result, by)
    if result.status != Result.Status.REPORTED:
        raise ValidationError(f"This result is {result.get_status_display().lower()}; it cannot be confirmed now.")
    result.status = Result.Status.CONFIRMED
    result.save(update_fields=["status"])
    _step(result, ResultEvent.Action.CONFIRMED, by)
    return result


@transaction.atomic
@season_writes.results_write()
def dispute_result(*, result: Result, by, reason: str, proposed: dict | None = None) -> Result:
    """The opponent disagrees; the organiser then settles it. ``proposed``: the
    result they say is right, in the game's report form's terms, checked by the
    game's rules; the organiser may accept it instead (league/services/disputes.py)."""
    result = _lock_result(result, sides=False)
    _require_confirming_coach(result, by)
    if result.status != Result.Status.REPORTED:
        raise ValidationError(f"This result is {result.get_status_display().lower()}; it cannot be disputed now.")
    reason = reason.strip()
    if not reason:
        raise ValidationError("Say what is wrong with the report, so the organiser can settle it.")
    rules = result.fixture.round.season.league.rules
    result.proposed_summary = rules.summary(rules.validate(proposed)) if proposed else ""
    result.proposed_facts = proposed or None
    result.status = Result.Status.DISPUTED
    result.dispute_reason = reason
    result.save(update_fields=["status", "dispute_reason", "proposed_facts", "proposed_summary"])
    # The history keeps both versions: the report (the line's score) and the disputing coach's.
    note = f"says {result.proposed_summary}: {reason}" if result.proposed_summary else reason
    _step(result, ResultEvent.Action.DISPUTED, by, note=note[:500])
    return result


@transaction.atomic
@season_writes.results_write(adds=lambda result: result)
def approve_result(*, result: Result, by, reason: str = "") -> Result:
    """The organiser approves a reported result; only approved results count.

    GB-8 Decision (every game): a result both coaches agreed on (confirmed) needs
    nothing more; approving one the opponent has not confirmed, or has disputed,
    is an override that needs a reason, kept in the fixture's history."""
    result = _lock_result(result, sides=True)
    require_organiser(result.fixture.round.season.league, by)
    if result.is_approved:
        raise ValidationError("This result is already approved.")
    note = approval_note(result, reason)
    result.status = Result.Status.APPROVED
    result.approved_at = timezone.now()
    result.save(update_fields=["status", "approved_at"])
    _after_approval(result, by=by)
    _step(result, ResultEvent.Action.APPROVED, by, note=note[:500])
    return result


def approval_note(result: Result, reason: str) -> str:
    """GB-8 Decision: what the history keeps of an approval; raises when the
    opponent has not confirmed and no reason is given."""
    reason = (reason or "").strip()
    # A result the organiser entered (then reopened) has no opponent to confirm it.
    if result.status != Result.Status.CONFIRMED and result.confirming_side is not None:
        if not reason:
            raise ValidationError(result.fixture.round.season.league.rules.cited(
                "override", f"The opponent has not confirmed this result ({result.get_status_display().lower()}): "
                            f"approving it anyway is an override; give the reason."
            ))
        return f"approved without the opponent's confirmation ({result.get_status_display().lower()}): {reason}"
    return reason


@transaction.atomic
@season_writes.results_write(adds=lambda result: result)
def record_result(
    *,
    fixture: Fixture,
    by,
    reason: str = "",
    abandoned: bool = False,
    override: bool = False,
    acknowledged: bool = False,
    **facts,
) -> Result:
    """The organiser enters, corrects or abandons a result directly; it is approved at
    once. GB-6/DB-5a: an abandoned or unplayed match is a loss for both. GB-8:
    ``override`` accepts a score the rules reject, with the reason recorded.
    GB-20: a correction a layer warns about (a coach left owing Favours) raises
    ``NeedsAcknowledgement`` and writes nothing unless ``acknowledged``. Scores
    alone need no reason; an abandoned match and an accepted score do."""
    fixture, _ = locks.fixture(fixture.pk, sides=True)
    league = fixture.round.season.league
    require_organiser(league, by)
    fixtures.check_has_match(fixture)
    reason = reason.strip()
    rules = league.rules
    override = override and rules.allows_override and not abandoned
    if (abandoned or override) and not reason:
        case = rules.abandoned_label.lower() if abandoned else "accepting a score the rules reject"
        raise ValidationError(f"Give a reason for {case}: it is kept in the fixture's history.")
    verdict = rules.validate(facts, override=override, abandoned=abandoned)
    result = fixture.result_or_none
    was_approved = result is not None and result.is_approved
    warnings = layers.correction_check(result) if was_approved else list
    if was_approved:
        season_writes.result_withdrawn()  # a correction: the next page builds the history
        _before_withdrawal(result, by=by)
    if result is None:
        result = Result(fixture=fixture)
        action = ResultEvent.Action.ABANDONED if abandoned else ResultEvent.Action.ENTERED
    else:
        action = ResultEvent.Action.ABANDONED if abandoned else ResultEvent.Action.CORRECTED
    result.status = Result.Status.APPROVED
    result.approved_at = timezone.now()
    result.override_reason = reason if override else ""
    _store(result, verdict, rules)
    _after_approval(result, by=by)
    _step(result, action, by, note=reason, was_approved=was_approved)
    if not acknowledged and (found := warnings()):
        raise NeedsAcknowledgement(found)  # rolls the whole correction back
    return result


@transaction.atomic
def reopen_result(*, result: Result, by, reason: str) -> Result:
    """The organiser takes an approved result back to the coaches: it stops counting
    until it is approved again."""
    result = _lock_result(result, sides=True)
    require_organiser(result.fixture.round.season.league, by)
    if not result.is_approved:
        raise ValidationError("Only an approved result can be reopened.")
    reason = reason.strip()
    if not reason:
        raise ValidationError("Give a reason: it is kept in the fixture's history.")
    _before_withdrawal(result, by=by)
    result.status = Result.Status.REPORTED
    result.approved_at = None
    result.save(update_fields=["status", "approved_at"])
    _step(result, ResultEvent.Action.REOPENED, by, note=reason)  # the result counts no more
    return result


# Hooks for the game layer ----------------------------------------------------


def _after_approval(result: Result, *, by) -> None:
    """Let the game (Dungeon Bowl's post-game sequence) and then its layers (a Big
    League campaign) derive what follows from a newly approved result, inside the
    same transaction; ``by`` approved or entered it."""
    result.fixture.round.season.league.rules.result_approved(result, by=by)
    layers.result_approved(result, by=by)


def _before_withdrawal(result: Result, *, by) -> None:
    """Let the layers, then the game, reverse what an approved result gave before it
    changes (the reverse order of ``_after_approval``); ``by`` corrects or reopens it."""
    layers.result_withdrawn(result, by=by)
    result.fixture.round.season.league.rules.result_withdrawn(result, by=by)


# Helpers --------------------------------------------------------------------


def _lock_result(result: Result, *, sides: bool) -> Result:
    """The result's fixture, then the result, then (``sides``) the rows approving
    or withdrawing it changes: the one lock order of league/locks.py."""
    _, locked = locks.fixture(result.fixture_id, sides=sides)
    if locked is None or locked.pk != result.pk:
        raise ValidationError("This result has changed since the page was loaded; reload it and try again.")
    return locked


def _coach_of(user) -> Coach | None:
    if user is None or not user.is_authenticated:
        return None
    return Coach.objects.filter(user=user).first()


def _coach_side(fixture: Fixture, user) -> str | None:
    return fixture.side_of(_coach_of(user))


def _require_confirming_coach(result: Result, user) -> None:
    side = _coach_side(result.fixture, user)
    if side is None:
        raise PermissionDenied("Only the two coaches of a fixture can confirm or dispute it.")
    if side == result.reported_side:
        raise ValidationError("You reported this result; your opponent confirms it.")
    if result.confirming_side is None:
        raise ValidationError("The organiser entered this result; there is nothing to confirm.")


def _step(result: Result, action: str, by, note: str = "", **about) -> None:
    """The step's fact: the fixture's history row, with the result as it stands,
    and what follows its kind."""
    facts.result_step(fixture=result.fixture, result=result, action=action, by=by, note=note, **about)

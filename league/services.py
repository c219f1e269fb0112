"""Every write to the league engine. Each service is one transaction and locks the
row it changes, so a double click or two coaches at once cannot record twice.

Refusals raise ``django.core.exceptions.ValidationError`` (a message for the form)
or ``PermissionDenied`` (the caller has no business doing this).
"""

from __future__ import annotations

import datetime
import random

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.mail import send_mass_mail
from django.db import transaction
from django.utils import timezone

from league import layers
from league.models import Coach, Fixture, League, Result, ResultEvent, Round, Season
from league.scheduling import round_dates, round_robin

# Fixtures -------------------------------------------------------------------


@transaction.atomic
def generate_fixtures(*, season: Season, by=None, seed: int | None = None) -> list[Round]:
    """GB-4/GB-5: the whole fixture list of a season, published at the start.

    Round robin by the circle method (double when the season says so), shuffled by
    a seed stored on the season so the schedule can be reproduced. ``by`` is the
    organiser asking; None only for the system's own jobs (demo data, tests).
    """
    season = Season.objects.select_for_update().select_related("league").get(pk=season.pk)
    if by is not None:
        _require_organiser(season.league, by)
    if season.rounds.exists():
        raise ValidationError(f"{season} already has its fixtures.")
    entries = list(season.entries.order_by("pk"))
    if len(entries) < 2:
        raise ValidationError("A season needs at least two coaches before fixtures can be generated (GB-2).")
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    schedule = round_robin(entries, double=season.double_round_robin, seed=seed)
    dates = round_dates(season.start_date, len(schedule), season.cadence_days)
    rounds = Round.objects.bulk_create(
        Round(season=season, number=number, date=date) for number, date in enumerate(dates, start=1)
    )
    Fixture.objects.bulk_create(
        Fixture(round=rnd, home=home, away=away, date=rnd.date)
        for rnd, pairs in zip(rounds, schedule)
        for home, away in pairs
    )
    season.schedule_seed = seed
    season.save(update_fields=["schedule_seed"])
    layers.season_started(season)
    return rounds


@transaction.atomic
def rearrange_fixture(*, fixture: Fixture, by, new_date: datetime.date, reason: str) -> Fixture:
    """GB-5: move an unplayed fixture to a new date; every coach of the season with
    an email address is told. The fixture keeps its round."""
    fixture = _lock_fixture(fixture)
    _require_organiser(fixture.round.season.league, by)
    if fixture.is_bye:
        raise ValidationError("A bye has no match to rearrange.")
    result = fixture.result_or_none
    if result is not None and result.is_approved:
        raise ValidationError("This fixture already has an approved result; correct the result instead.")
    reason = reason.strip()
    if not reason:
        raise ValidationError("Give a reason for the rearrangement; every coach is told it.")
    old_date = fixture.date
    fixture.date = new_date
    fixture.rearranged_reason = reason
    fixture.save(update_fields=["date", "rearranged_reason"])
    ResultEvent.objects.create(
        fixture=fixture, action=ResultEvent.Action.REARRANGED, by=by, note=f"{old_date:%d %b %Y} → {new_date:%d %b %Y}: {reason}"
    )
    transaction.on_commit(lambda: _mail_rearrangement(fixture, old_date, reason))
    return fixture


def _mail_rearrangement(fixture: Fixture, old_date: datetime.date, reason: str) -> None:
    season = fixture.round.season
    coaches = Coach.objects.filter(entries__season=season).select_related("user")
    recipients = sorted({coach.contact_email for coach in coaches} - {""})
    if not recipients:
        return
    subject = f"[{season.league.name}] {fixture.home} v {fixture.away} moved to {fixture.date:%a %d %b %Y}"
    body = (
        f"The Longshanks has rearranged a fixture in {season.league.name} ({season.name}).\n\n"
        f"{fixture.round}: {fixture.home} v {fixture.away}\n"
        f"Was: {old_date:%A %d %B %Y}\nNow: {fixture.date:%A %d %B %Y}\nReason: {reason}\n\n"
        f"{settings.SITE_URL}{fixture.get_absolute_url()}\n"
    )
    send_mass_mail([(subject, body, settings.DEFAULT_FROM_EMAIL, [to]) for to in sorted(set(recipients))])


# Results --------------------------------------------------------------------


@transaction.atomic
def report_result(*, fixture: Fixture, by, home_score: int, away_score: int) -> Result:
    """A coach in the fixture reports it (GB-8); the opponent then confirms it."""
    fixture = _lock_fixture(fixture)
    side = _coach_side(fixture, by)
    if side is None:
        raise PermissionDenied("Only the two coaches of a fixture can report it.")
    _check_has_match(fixture)
    if fixture.result_or_none is not None:
        raise ValidationError("This fixture has already been reported.")
    league = fixture.round.season.league
    outcome = league.rules.validate_score(home_score=home_score, away_score=away_score, vp_target=league.vp_target)
    result = Result.objects.create(
        fixture=fixture, home_score=home_score, away_score=away_score, outcome=outcome, reported_side=side
    )
    _event(result, ResultEvent.Action.REPORTED, by)
    return result


@transaction.atomic
def confirm_result(*, result: Result, by) -> Result:
    """The opponent of the reporting coach agrees with the report (GB-8)."""
    result = _lock_result(result)
    _require_confirming_coach(result, by)
    if result.status != Result.Status.REPORTED:
        raise ValidationError(f"This result is {result.get_status_display().lower()}; it cannot be confirmed now.")
    result.status = Result.Status.CONFIRMED
    result.save(update_fields=["status"])
    _event(result, ResultEvent.Action.CONFIRMED, by)
    return result


@transaction.atomic
def dispute_result(*, result: Result, by, reason: str) -> Result:
    """The opponent disagrees; the organiser then settles it."""
    result = _lock_result(result)
    _require_confirming_coach(result, by)
    if result.status != Result.Status.REPORTED:
        raise ValidationError(f"This result is {result.get_status_display().lower()}; it cannot be disputed now.")
    reason = reason.strip()
    if not reason:
        raise ValidationError("Say what is wrong with the report, so the organiser can settle it.")
    result.status = Result.Status.DISPUTED
    result.dispute_reason = reason
    result.save(update_fields=["status", "dispute_reason"])
    _event(result, ResultEvent.Action.DISPUTED, by, note=reason)
    return result


@transaction.atomic
def approve_result(*, result: Result, by) -> Result:
    """The organiser approves a reported result; only approved results count."""
    result = _lock_result(result)
    _require_organiser(result.fixture.round.season.league, by)
    if result.is_approved:
        raise ValidationError("This result is already approved.")
    result.status = Result.Status.APPROVED
    result.approved_at = timezone.now()
    result.save(update_fields=["status", "approved_at"])
    _event(result, ResultEvent.Action.APPROVED, by)
    _after_approval(result)
    return result


@transaction.atomic
def record_result(
    *,
    fixture: Fixture,
    by,
    home_score: int,
    away_score: int,
    reason: str,
    abandoned: bool = False,
    override: bool = False,
) -> Result:
    """The organiser enters, corrects or abandons a result directly; it is approved at
    once. GB-6: an abandoned match is a loss for both. GB-8: ``override`` accepts a
    score the rules reject, with the reason recorded."""
    fixture = _lock_fixture(fixture)
    league = fixture.round.season.league
    _require_organiser(league, by)
    _check_has_match(fixture)
    reason = reason.strip()
    if not reason:
        raise ValidationError("Give a reason: it is kept in the fixture's history.")
    if abandoned:
        outcome = league.rules.validate_abandoned(home_score=home_score, away_score=away_score, vp_target=league.vp_target)
    else:
        outcome = league.rules.validate_score(
            home_score=home_score, away_score=away_score, vp_target=league.vp_target, override=override
        )
    result = fixture.result_or_none
    was_approved = result is not None and result.is_approved
    if was_approved:
        _before_withdrawal(result)
    if result is None:
        result = Result(fixture=fixture)
        action = ResultEvent.Action.ABANDONED if abandoned else ResultEvent.Action.ENTERED
    else:
        action = ResultEvent.Action.ABANDONED if abandoned else ResultEvent.Action.CORRECTED
    result.home_score = home_score
    result.away_score = away_score
    result.outcome = outcome
    result.status = Result.Status.APPROVED
    result.approved_at = timezone.now()
    result.override_reason = reason if override and not abandoned else ""
    result.save()
    _event(result, action, by, note=reason)
    _after_approval(result)
    return result


@transaction.atomic
def reopen_result(*, result: Result, by, reason: str) -> Result:
    """The organiser takes an approved result back to the coaches: it stops counting
    until it is approved again."""
    result = _lock_result(result)
    _require_organiser(result.fixture.round.season.league, by)
    if not result.is_approved:
        raise ValidationError("Only an approved result can be reopened.")
    reason = reason.strip()
    if not reason:
        raise ValidationError("Give a reason: it is kept in the fixture's history.")
    _before_withdrawal(result)
    result.status = Result.Status.REPORTED
    result.approved_at = None
    result.save(update_fields=["status", "approved_at"])
    _event(result, ResultEvent.Action.REOPENED, by, note=reason)
    return result


# Hooks for the game layer ----------------------------------------------------


def _after_approval(result: Result) -> None:
    """Let the game and its layers (a Big League campaign) derive what they need
    from a newly approved result, inside the same transaction."""
    result.fixture.round.season.league.rules.result_approved(result)
    layers.result_approved(result)


def _before_withdrawal(result: Result) -> None:
    """Let the game and its layers reverse what an approved result gave before it changes."""
    result.fixture.round.season.league.rules.result_withdrawn(result)
    layers.result_withdrawn(result)


# Helpers --------------------------------------------------------------------


def _lock_fixture(fixture: Fixture) -> Fixture:
    return (
        Fixture.objects.select_for_update(of=("self",))
        .select_related("round__season__league", "home__coach", "away__coach")
        .get(pk=fixture.pk)
    )


def _lock_result(result: Result) -> Result:
    return (
        Result.objects.select_for_update(of=("self",))
        .select_related("fixture__round__season__league", "fixture__home__coach", "fixture__away__coach")
        .get(pk=result.pk)
    )


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


def _require_organiser(league: League, user) -> None:
    if not league.is_organised_by(user):
        raise PermissionDenied("Only the league's organiser can do this.")


def _check_has_match(fixture: Fixture) -> None:
    if fixture.is_bye:
        raise ValidationError(f"{fixture.home} has a bye in {fixture.round}: there is no match to report.")


def _event(result: Result, action: str, by, note: str = "") -> ResultEvent:
    return ResultEvent.objects.create(
        fixture=result.fixture,
        action=action,
        by=by if by is not None and by.is_authenticated else None,
        home_score=result.home_score,
        away_score=result.away_score,
        note=note,
    )

"""Email at each step that waits on someone, and the kinds a person can turn off.

One registry of kinds: the engine's own below, and each layer's through
``league.layers`` (``Layer.notification_kinds``), so this module never imports a
layer. The engine's step functions below follow kinds of fact (league/facts/subscriptions.py),
a layer's its own, and call ``send`` inside the write's transaction; each message is queued as a task (``send_email``, league/outbox/tasks.py)
in that transaction, so a committed write tells everyone it should even if the
process stops right after the commit, a refused or rolled-back write tells nobody,
and a slow mail server slows nobody's request. Each recipient gets their own message:
nobody sees another person's address. A kind a user has turned off on their
profile (``NotificationPreference.off``) is not sent to them; coaches without an
account cannot turn anything off and get every kind at the address the organiser
gave.

A mail server that refuses is retried, then logged: never an error for the person
whose action triggered the mail (their write has already committed).
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django_tasks import task

from league import layers
from league.models import Coach, NotificationPreference
from league.outbox.quiet import is_quiet
from league.outbox import tasks
from league.outbox.links import site_root

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Kind:
    """A kind of notification: ``key`` is stored in preferences, ``label`` is what
    the profile page shows next to its tick box."""

    key: str
    label: str


RESULT_REPORTED = Kind("result_reported", "Your opponent reported a result for you to confirm")
RESULT_DISPUTED = Kind("result_disputed", "A result in a league you organise is disputed")
RESULT_APPROVED = Kind("result_approved", "A result of yours is approved or corrected by the organiser")
REPORT_CHANGED = Kind("report_changed", "Your opponent changes a report you are asked to confirm")
REPORT_TAKEN_BACK = Kind("report_taken_back", "Your opponent takes back a report you were asked to confirm")
FIXTURE_REARRANGED = Kind("fixture_rearranged", "A fixture in your league is rearranged")
OPPONENT_WITHDREW = Kind("opponent_withdrew", "An opponent withdraws and your match with them is not played")
JOIN_REQUESTED = Kind("join_requested", "Someone asks to join a league you organise, or says they are one of its coaches")
JOIN_DECIDED = Kind("join_decided", "The organiser answers your request to join a league")
MERGE_ASKED = Kind("merge_asked", "An organiser asks whether a coach of their league is you, to join your records")

ENGINE_KINDS: tuple[Kind, ...] = (
    RESULT_REPORTED, RESULT_DISPUTED, RESULT_APPROVED, FIXTURE_REARRANGED, OPPONENT_WITHDREW,
    REPORT_CHANGED, REPORT_TAKEN_BACK, MERGE_ASKED, JOIN_REQUESTED, JOIN_DECIDED,
)


def kinds() -> list[Kind]:
    """Every kind: the engine's, then each registered layer's."""
    found = list(ENGINE_KINDS)
    for layer in layers.layers():
        found.extend(layer.notification_kinds)
    return found


def kind_keys() -> set[str]:
    return {kind.key for kind in kinds()}


@dataclass(frozen=True)
class Recipient:
    """Where one message goes: an address, and the account whose preferences apply
    (None for a coach without an account)."""

    email: str
    user_id: int | None


def coach_recipient(coach) -> Recipient | None:
    """A league ``Coach``: the address the organiser gave, else their account's.
    Needs ``coach.user`` loaded (select_related) to avoid a query."""
    email = coach.contact_email
    return Recipient(email, coach.user_id) if email else None


def user_recipient(user) -> Recipient | None:
    return Recipient(user.email, user.pk) if user.email else None


def organiser_recipients(league) -> list[Recipient]:
    """The league's organisers with an address; superusers are not organisers of
    every league for mail purposes (they are told nothing they did not ask for)."""
    return [r for r in (user_recipient(user) for user in league.organisers.all()) if r]


def one_line(text: str) -> str:
    """``text`` fit for a mail header: every control or format character (a
    newline, a tab, a bidirectional override) and every line or paragraph
    separator becomes a space, and runs of spaces one. A name with a newline in it
    would otherwise make Django refuse the whole message (BadHeaderError), so one
    coach's name could silence their opponent's mail."""
    cleaned = "".join(
        " " if unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp") else char for char in text
    )
    return re.sub(r"\s+", " ", cleaned).strip()


def send(kind: Kind, recipients: Iterable[Recipient | None], *, context: dict[str, Any], link: str = "") -> None:
    """Queue the kind's message to each recipient with the current write
    (``tasks.enqueue_with_write``). Its words are templates, as
    healthchecks keeps them: ``emails/<kind>-subject.txt``, ``-body-text.txt`` and
    ``-body-html.html``, rendered now with ``context`` plus ``url`` (the absolute
    ``link``). The subject is made one clean line (``one_line``) whatever the names
    in it hold."""
    if kind.key not in kind_keys():
        raise ValueError(f"Unknown notification kind {kind.key!r}: register it first.")
    if is_quiet():  # an import, the demo (league/outbox/quiet.py)
        return
    unique: dict[str, Recipient] = {}
    for recipient in recipients:
        if recipient is not None and recipient.email:
            unique.setdefault(recipient.email.lower(), recipient)
    if not unique:
        return
    subject, text, html = render(kind, context, link)
    for recipient in unique.values():
        tasks.enqueue_with_write(
            send_email, kind=kind.key, to=recipient.email, user_id=recipient.user_id, subject=subject, text=text, html=html
        )


def queue_account_mail(*, kind: str, to: str, subject: str, text: str, html: str = "") -> None:
    """An account's own mail (an invitation, an address to confirm, a password
    reset) as a task like every other mail: its row is written in the transaction of
    the write that asks for it (a rolled-back write sends nothing), a slow mail
    server slows no request, and a refusal is retried. Never muted: the person asked
    for it."""
    send_email.enqueue(kind=kind, to=to, user_id=None, subject=one_line(subject), text=text, html=html)


def render(kind: Kind, context: dict[str, Any], link: str = "") -> tuple[str, str, str]:
    """The kind's subject (one line), plain-text body and HTML body."""
    context = {**context, "url": f"{site_root()}{link}" if link else ""}
    subject = one_line(render_to_string(f"emails/{kind.key}-subject.txt", context))
    text = render_to_string(f"emails/{kind.key}-body-text.txt", context).rstrip("\n") + "\n"
    html = render_to_string(f"emails/{kind.key}-body-html.html", {**context, "subject": subject})
    return subject, text, html


@task()
def send_email(*, kind: str, to: str, user_id: int | None, subject: str, text: str, html: str, attempt: int = 1) -> str:
    """One message to one address, unless its account has turned ``kind`` off by
    the time it goes. A mail server's refusal is retried (league/outbox/tasks.py), then
    logged: the write that caused it has long committed."""
    if user_id is not None and _muted([user_id], kind):
        return f"not sent: {kind} turned off"
    message = EmailMultiAlternatives(subject, text, settings.DEFAULT_FROM_EMAIL, [to])
    if html:
        message.attach_alternative(html, "text/html")
    try:
        message.send()
    except Exception as error:  # any refusal: SMTPException, a refused connection, a timeout
        tasks.retry_or_give_up(
            send_email, {"kind": kind, "to": to, "user_id": user_id, "subject": subject, "text": text, "html": html},
            attempt=attempt, problem=f"{type(error).__name__}: {error}", logger=logger, what=f"Notification {kind} not sent",
        )
    return f"sent to {to}"


def _muted(user_ids: list[int], key: str) -> set[int]:
    """Who of ``user_ids`` turned ``key`` off (one query; the list is short)."""
    if not user_ids:
        return set()
    return {
        user_id
        for user_id, off in NotificationPreference.objects.filter(user_id__in=user_ids).values_list("user_id", "off")
        if key in (off or [])
    }


def turned_off(user) -> set[str]:
    pref = NotificationPreference.objects.filter(user=user).first()
    return set(pref.off) if pref else set()


@transaction.atomic
def set_preferences(*, user, on: Iterable[str]) -> None:
    """Save which kinds ``user`` receives: every known kind not in ``on`` is off.
    Unknown keys are ignored (a kind removed since the form was shown)."""
    on = set(on)
    off = sorted(kind_keys() - on)
    NotificationPreference.objects.update_or_create(user=user, defaults={"off": off})


# The engine's steps: each builds its kind's context (templates/emails/) --------


def _context(result) -> dict[str, Any]:
    fixture = result.fixture
    return {"result": result, "fixture": fixture, "league": fixture.round.season.league}


def result_reported(result) -> None:
    """To the coach who confirms (or disputes) the report."""
    fixture = result.fixture
    side = result.confirming_side
    if side is None:
        return
    send(
        RESULT_REPORTED,
        [coach_recipient(fixture.entry_for(side).coach)],
        context={**_context(result), "reporter": fixture.entry_for(result.reported_side)},
        link=fixture.get_absolute_url(),
    )


def report_changed(result, *, before: str) -> None:
    """GB-8 Decision: to the coach asked to confirm, when the reporting coach changes
    their report: the result as it was (``before``) and as it is now."""
    _to_confirming_coach(REPORT_CHANGED, result, before=before)


def report_taken_back(result) -> None:
    """GB-8 Decision: to the coach who was asked to confirm, when the reporting coach
    takes their report back; rendered before the result is deleted."""
    _to_confirming_coach(REPORT_TAKEN_BACK, result, before=result.summary)


def _to_confirming_coach(kind: Kind, result, *, before: str) -> None:
    fixture = result.fixture
    side = result.confirming_side
    if side is None:
        return
    send(
        kind,
        [coach_recipient(fixture.entry_for(side).coach)],
        context={**_context(result), "reporter": fixture.entry_for(result.reported_side), "before": before},
        link=fixture.get_absolute_url(),
    )


def result_disputed(result) -> None:
    """To the league's organisers, who settle it: both versions, the report and
    the disputing coach's."""
    fixture = result.fixture
    send(
        RESULT_DISPUTED,
        organiser_recipients(fixture.round.season.league),
        context={**_context(result), "reporter": fixture.entry_for(result.reported_side),
                 "disputer": fixture.entry_for(result.confirming_side) if result.confirming_side else None},
        link=fixture.get_absolute_url(),
    )


def result_approved(result, *, corrected: bool = False) -> None:
    """To both coaches. The league's webhooks follow the same facts
    (league/events/webhooks.py)."""
    fixture = result.fixture
    coaches = [fixture.home.coach] + ([fixture.away.coach] if fixture.away_id else [])
    send(
        RESULT_APPROVED,
        [coach_recipient(coach) for coach in coaches],
        context={**_context(result), "corrected": corrected},
        link=fixture.get_absolute_url(),
    )


def fixture_rearranged(fixture, old_date) -> None:
    """GB-5: every coach of the season (both of the fixture among them)."""
    season = fixture.round.season
    coaches = Coach.objects.filter(entries__season=season).select_related("user")
    send(
        FIXTURE_REARRANGED,
        [coach_recipient(coach) for coach in coaches],
        context={
            "fixture": fixture, "season": season, "league": season.league,
            "old_date": old_date, "reason": fixture.rearranged_reason,
        },
        link=fixture.get_absolute_url(),
    )


def opponent_withdrew(*, season, withdrawn, opponent, fixtures) -> None:
    """LG-2: to an opponent of an entrant who withdrew, naming their ``fixtures``
    that are now not played (both sides and the round loaded)."""
    send(
        OPPONENT_WITHDREW,
        [coach_recipient(opponent.coach)],
        context={"season": season, "league": season.league, "withdrawn": withdrawn, "opponent": opponent,
                 "fixtures": fixtures},
        link=season.league.get_absolute_url(),
    )


def join_requested(join_request) -> None:
    """LG-1: to the league's organisers, a request waiting on their dashboard (its
    season, league, user and coach loaded)."""
    league = join_request.season.league
    send(
        JOIN_REQUESTED,
        organiser_recipients(league),
        context={"request": join_request, "season": join_request.season, "league": league},
        link=reverse("league:organiser_dashboard", args=[league.slug]) + "#join-requests",
    )


def join_decided(join_request) -> None:
    """LG-1: to the person who asked, what the organiser decided (the request's
    season, league, coach and ``placed_in`` loaded)."""
    league = join_request.season.league
    send(
        JOIN_DECIDED,
        [user_recipient(join_request.user)],
        context={"request": join_request, "season": join_request.season, "league": league},
        link=reverse("league:my_fixtures"),
    )


def merge_asked(*, request, holder, other, leagues) -> None:
    """To the account holder an organiser's merge request waits on (``holder``, with
    its user loaded; ``other`` the row without an account; ``leagues`` the names
    of the leagues concerned): which two rows, which name stays, where to answer."""
    send(
        MERGE_ASKED,
        [coach_recipient(holder)],
        context={"request": request, "holder": holder, "other": other, "keep": request.keep, "leagues": leagues},
        link="/me/",
    )

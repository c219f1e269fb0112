"""Entrants of a season without the admin: a pasted list of names,
and join links through which people enter the season themselves. Every coach is
added through ``league.people.invitations`` (``add_coach``, or ``enter_coach`` for
someone who is a coach already), as from the Coaches page.

A join link's address carries a signed token (league/signing.py,
``JOIN``) naming the link and bound to its random key: a forged or altered token
fails the signature, and a token of a deleted link names no link. Revoking, the closing date
and the limit on uses are checked under the link's row lock when someone joins.
"""

from __future__ import annotations

import secrets

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from league import signing
from league.people import invitations
from league.text import plaintext
from league.models import DEFAULT_JOIN_SIGNUPS_PER_HOUR, MAX_JOIN_SIGNUPS_PER_HOUR, Coach, Entry, JoinLink, Season
from league.permissions import require_organiser
from league.people import entrants

MAX_PASTED = 60  # names in one paste: a club's season, several times over


class LinkRefused(signing.LinkError):
    """A join link that works no more (revoked, closed, used up): 410, not 400."""

    def __init__(self, message: str) -> None:
        super().__init__(message, reason=signing.USED)


def make_token(link: JoinLink) -> str:
    return signing.JOIN.make(ids={"l": link.pk}, state=link.key)


def read_token(token: str) -> JoinLink:
    """The link a token names, with its season and league; signing.LinkError when the
    token is forged, altered or names no link, LinkRefused when it works no more."""
    data = signing.JOIN.read(token)
    link = JoinLink.objects.select_related("season__league").filter(pk=data.get("l")).first()
    if link is None:
        raise signing.JOIN.refused(signing.TAMPERED)
    signing.JOIN.check(data, link.key)
    refusal = link.refusal()
    if refusal:
        raise LinkRefused(refusal)
    return link


@transaction.atomic
def create_link(*, season: Season, by, max_uses: int | None, closes_on,
                signups_per_hour: int = DEFAULT_JOIN_SIGNUPS_PER_HOUR) -> JoinLink:
    require_organiser(season.league, by)
    if closes_on is not None and closes_on < timezone.localdate():
        raise ValidationError("The closing date has passed already; choose a later one or none.")
    if not 1 <= signups_per_hour <= MAX_JOIN_SIGNUPS_PER_HOUR:
        raise ValidationError(f"New accounts an hour: from 1 to {MAX_JOIN_SIGNUPS_PER_HOUR}.")
    return JoinLink.objects.create(
        season=season, created_by=by, key=secrets.token_urlsafe(16), max_uses=max_uses, closes_on=closes_on,
        signups_per_hour=signups_per_hour,
    )


@transaction.atomic
def revoke_link(*, link: JoinLink, by) -> None:
    require_organiser(link.season.league, by)
    JoinLink.objects.filter(pk=link.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())


def started(season: Season) -> str:
    """What a joiner is told once ``season``'s fixtures exist, before anything is
    asked of them (LG-1 in the joiner's words, not the organiser's question)."""
    return (f"{season.name} has started: your request to join will wait for the organiser, who can put you in "
            "the next season or, while no result is reported, start the fixtures again with you in.")


@transaction.atomic
def join(*, token: str, user, name: str, team: str = "") -> Entry:
    """``user`` enters the link's season: as the coach their account already is, or
    as a new coach called ``name``. One use of the link, counted under its lock."""
    link = read_token(token)
    link = JoinLink.objects.select_for_update().select_related("season__league").get(pk=link.pk)
    refusal = link.refusal()  # again under the lock: two people cannot take the last place
    if refusal:
        raise LinkRefused(refusal)
    season, league = link.season, link.season.league
    if entrants.has_fixtures(season):  # LG-1: a request for the organiser instead (join_requests.ask_to_join)
        raise ValidationError(started(season))
    coach = Coach.objects.select_for_update().filter(user=user).first()
    if coach is not None:
        if Entry.objects.filter(season=season, coach=coach).exists():
            raise ValidationError(f"You are in {season.name} of {league.name} already.")
        entry = invitations.enter_coach(season=season, coach=coach, team=team)
    else:
        organiser = link.created_by
        if organiser is None or not league.is_organised_by(organiser):
            raise ValidationError("The organiser who made this link no longer runs the league. Ask for a new one.")
        # A new coach of the league, theirs before it enters the season (as a coach
        # with an account does above), so the entry is the one returned.
        coach = invitations.add_coach(league=league, season=None, by=organiser, name=name, email=user.email)
        coach.user = user
        coach.save(update_fields=["user"])
        entry = invitations.enter_coach(season=season, coach=coach, team=team)
    link.uses += 1
    link.save(update_fields=["uses"])
    return entry


def read_names(text: str) -> list[tuple[int, str]]:
    """A pasted column of names (one a line, as from a spreadsheet): each name with
    its line number, in order. Blank lines are skipped (and counted: the numbers
    are the ones the box shows); a tab ends the name (the first cell of a row
    copied from a spreadsheet)."""
    lines = []
    for number, line in enumerate(text.splitlines(), start=1):
        name = line.split("\t")[0].strip()
        if name:
            lines.append((number, name))
    return lines


def _paste_refusals(season: Season, lines: list[tuple[int, str]], theirs: dict[str, list[Coach]]) -> list[str]:
    """Every line a paste cannot enter, with its number: a name given twice
    (however written: case, width, invisible characters, league/text/plaintext.py),
    one already entered in the season, one two of the league's coaches share."""
    refusals, first = [], {}
    entered = {plaintext.name_key(name) for name in Coach.objects.filter(entries__season=season)
               .values_list("name", flat=True)}
    for number, name in lines:
        key = plaintext.name_key(name)
        if key in first:
            refusals.append(f"Line {number} repeats line {first[key]}: {name}.")
            continue
        first[key] = number
        if key in entered:
            refusals.append(f"Line {number}: {name} is in {season.name} already.")
        elif len(theirs.get(key, ())) > 1:
            refusals.append(f"Line {number}: {len(theirs[key])} coaches of {season.league.name} are called {name}: "
                            "add them from the Coaches page.")
    return refusals


@transaction.atomic
def add_pasted(*, season: Season, by, text: str) -> tuple[list[Coach], list[Coach]]:
    """Each pasted name enters ``season``, all or nothing: a name of a coach who has
    played in this league before (any season) is that coach (one person, one
    coach), any other a new coach of the league (``invitations.add_coach``). A
    coach of another league never matters. Refused with every line that cannot be
    entered (``_paste_refusals``). Returns (new coaches, returning coaches)."""
    league = season.league
    require_organiser(league, by)
    lines = read_names(text)
    if not lines:
        raise ValidationError("Paste at least one name, one a line.")
    if len(lines) > MAX_PASTED:
        raise ValidationError(f"Paste at most {MAX_PASTED} names at a time; this list has {len(lines)}.")
    theirs: dict[str, list[Coach]] = {}
    for coach in Coach.objects.filter(entries__season__league=league).distinct().order_by("pk"):
        theirs.setdefault(plaintext.name_key(coach.name), []).append(coach)
    refusals = _paste_refusals(season, lines, theirs)
    if refusals:
        raise ValidationError(refusals)
    added, returning = [], []
    for _, name in lines:
        known = theirs.get(plaintext.name_key(name))
        if known:
            invitations.enter_coach(season=season, coach=known[0], by=by)
            returning.append(known[0])
        else:
            added.append(invitations.add_coach(league=league, season=season, by=by, name=name, email=""))
    return added, returning

"""Entrants of a season without the admin: a pasted list of names,
and join links through which people enter the season themselves. Every coach is
added through ``league.accounts.invitations`` (``add_coach``, or ``enter_coach`` for
someone who is a coach already), as from the Coaches page.

A join link's address carries a signed token (league/accounts/signing.py,
``JOIN``) naming the link and bound to its random key: a forged or altered token
fails the signature, and a token of a deleted link names no link. Revoking, the closing date
and the limit on uses are checked under the link's row lock when someone joins.
"""

from __future__ import annotations

import secrets

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from league.accounts import invitations, signing
from league.text import plaintext
from league.models import DEFAULT_JOIN_SIGNUPS_PER_HOUR, MAX_JOIN_SIGNUPS_PER_HOUR, Coach, Entry, JoinLink, Season
from league.accounts.permissions import require_organiser
from league.services import entrants

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
        coach = invitations.add_coach(
            league=league, season=season, by=organiser, name=name, email=user.email, team=team
        )
        coach.user = user
        coach.save(update_fields=["user"])
        entry = Entry.objects.get(season=season, coach=coach)
    link.uses += 1
    link.save(update_fields=["uses"])
    return entry


def read_names(text: str) -> tuple[list[str], list[str]]:
    """A pasted column of names (one a line, as from a spreadsheet): the names in
    order, and the lines left out as repeats (the same name however it is written:
    case, width, invisible characters, league/text/plaintext.py). Blank lines are skipped;
    a tab ends the name (the first cell of a row copied from a spreadsheet)."""
    names, repeats, seen = [], [], set()
    for line in text.splitlines():
        name = line.split("\t")[0].strip()
        if not name:
            continue
        key = plaintext.name_key(name)
        if key in seen:
            repeats.append(name)
            continue
        seen.add(key)
        names.append(name)
    return names, repeats


@transaction.atomic
def add_pasted(*, season: Season, by, text: str) -> tuple[list[Coach], list[str], list[str]]:
    """Each pasted name becomes a coach of the league entered in ``season`` (through
    ``invitations.add_coach``); all or nothing. Returns (added, repeats left out,
    names already in the league left out)."""
    league = season.league
    require_organiser(league, by)
    names, repeats = read_names(text)
    if not names:
        raise ValidationError("Paste at least one name, one a line.")
    if len(names) > MAX_PASTED:
        raise ValidationError(f"Paste at most {MAX_PASTED} names at a time; this list has {len(names)}.")
    taken = {
        plaintext.name_key(name)
        for name in Coach.objects.filter(entries__season__league=league).values_list("name", flat=True).distinct()
    }
    existing = [name for name in names if plaintext.name_key(name) in taken]
    added = [
        invitations.add_coach(league=league, season=season, by=by, name=name, email="")
        for name in names
        if plaintext.name_key(name) not in taken
    ]
    return added, repeats, existing

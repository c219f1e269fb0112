"""Coaches without a superuser: the organiser adds a coach with an email address,
the coach gets a link, sets a password (or, logged in, links their account) and
is that coach from then on.

The link (league/signing.py, ``INVITATION``) is, like Django's
password-reset tokens, bound to the coach's state: the address, the linked
account and the invitation's random nonce
(``Coach.invitation_nonce``), so it stops working once used (the coach
then has an account), when the organiser changes the address, and when a new
invitation is sent (a new nonce). The nonce is what no outsider can know: without
it, the coach's id (public) and an empty address were all a forger signing with a
known key needed.

A claim link (``CLAIM``) is the same invitation without the mail: the organiser
copies it from the Coaches page and hands it over. It is bound to the same
nonce, so a coach has one open way in at a time: a new link or a new email
retires the one before. Whoever opens either while logged in as a coach of
another league takes the place as that coach (league/people/merges.py
``claim``: the two rows become one).
"""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse

from league import signing
from league.accounts import email_change
from league.outbox import notifications
from league.people import entrants as season_entrants
from league.people import merges
from league.outbox.links import site_root
from league.models import Coach, Entry, League, Season
from league.permissions import require_organiser

MAX_NAME = Coach._meta.get_field("name").max_length
MAX_TEAM = Entry._meta.get_field("team").max_length


def _state(coach: Coach) -> str:
    """What a token is bound to: the coach, its address, its account (none yet)
    and the open invitation's nonce."""
    return f"{coach.pk}:{coach.email.strip().lower()}:{coach.user_id or 0}:{coach.invitation_nonce}"


def make_token(coach: Coach) -> str:
    """The token for ``coach``'s open invitation (``send_invitation`` opens one)."""
    if not coach.invitation_nonce:
        raise ValueError("No invitation is open for this coach: send_invitation makes the token.")
    return signing.INVITATION.make(ids={"c": coach.pk}, state=_state(coach))


def coach_for_token(token: str) -> Coach:
    """The coach a token invites; signing.LinkError with a reason a person understands
    when it is expired, already used, replaced or not a token at all."""
    data = signing.INVITATION.read(token)
    coach = Coach.objects.filter(pk=data.get("c")).first()
    if coach is None:
        raise signing.INVITATION.refused(signing.USED, "This invitation is for a coach who no longer exists.")
    if coach.user_id is not None:
        raise signing.INVITATION.refused(
            signing.USED, "This invitation has already been used: log in with the account it created."
        )
    if not coach.invitation_nonce:
        raise signing.INVITATION.refused(signing.USED)
    signing.INVITATION.check(data, _state(coach))
    return coach


def _claim_state(coach: Coach) -> str:
    return f"{coach.pk}:{coach.user_id or 0}:{coach.invitation_nonce}"


def _lock_coach_of(coach: Coach, league: League) -> Coach | None:
    """``coach``'s row, locked, when they play in ``league`` (else None). The
    league is an EXISTS, not a join: PostgreSQL locks no row of a DISTINCT."""
    plays = Entry.objects.filter(coach=OuterRef("pk"), season__league=league)
    return Coach.objects.select_for_update().filter(Exists(plays), pk=coach.pk).first()


@transaction.atomic
def make_claim_link(*, coach: Coach, league: League, by) -> str:
    """A new claim link's token for ``coach`` of ``league`` (one the organiser
    ``by`` runs): a new nonce, which retires every link and invitation before."""
    require_organiser(league, by)
    coach = _lock_coach_of(coach, league)
    if coach is None:
        raise ValidationError("That coach does not play in this league.")
    if coach.user_id is not None:
        raise ValidationError(f"{coach} already has an account.")
    coach.invitation_nonce = secrets.token_hex(16)
    Coach.objects.filter(pk=coach.pk).update(invitation_nonce=coach.invitation_nonce)  # no page shows it
    return signing.CLAIM.make(ids={"c": coach.pk}, state=_claim_state(coach))


def coach_for_claim(token: str) -> Coach:
    """The coach a claim link offers; signing.LinkError saying why when it works no more."""
    data = signing.CLAIM.read(token)
    coach = Coach.objects.filter(pk=data.get("c")).first()
    if coach is None or coach.user_id is not None or not coach.invitation_nonce:
        raise signing.CLAIM.refused(signing.USED)
    signing.CLAIM.check(data, _claim_state(coach))
    return coach


@transaction.atomic
def accept_claim(*, token: str, user=None, username: str = "", password: str = ""):
    """``user`` (logged in), or a new account ``username``/``password``, takes the
    place a claim link offers (``merges.claim``: as their own coach when they are
    one already); the link is spent. Returns the user."""
    merges.lock_for_claim(coach=coach_for_claim(token), user=user)
    coach = coach_for_claim(token)  # again under the lock: two people cannot both take it
    if user is None:
        user = _new_account(username=username, password=password, email=coach.email)
    merges.claim(coach=coach, user=user)
    return user


def send_invitation(*, coach: Coach, league: League, request: HttpRequest | None) -> None:
    """Email ``coach`` a link to claim their place. Refused for a coach with an
    account already or without an address."""
    if coach.user_id is not None:
        raise ValidationError(f"{coach} already has an account.")
    if not coach.email:
        raise ValidationError(f"{coach} has no email address to invite.")
    # A new nonce retires every link sent before. An UPDATE of the one column: the
    # pages show nothing of it, so no season's cached pages change (league/caching/versions.py).
    coach.invitation_nonce = secrets.token_hex(16)
    Coach.objects.filter(pk=coach.pk).update(invitation_nonce=coach.invitation_nonce)
    link = site_root(request) + reverse("accept_invitation", args=[make_token(coach)])
    context = {"coach": coach, "league": league, "link": link, "days": signing.INVITATION.max_age.days}
    notifications.queue_account_mail(
        kind="invitation", to=coach.email, subject=render_to_string("registration/invitation_subject.txt", context),
        text=render_to_string("registration/invitation_email.txt", context),
    )


@transaction.atomic
def invite_by_email(*, coach: Coach, league: League, email: str, by, request: HttpRequest | None) -> Coach:
    """The Coaches page's invitation for a coach of ``league`` without an account:
    ``email`` becomes their address when they have none, and the invitation goes
    there; a coach with an address gets it again (a new link; the old ones stop)."""
    require_organiser(league, by)
    coach = _lock_coach_of(coach, league)
    if coach is None:
        raise ValidationError("That coach does not play in this league.")
    email = email.strip()
    if not coach.email:
        if not email:
            raise ValidationError(f"Give {coach}'s email address: the invitation goes there.")
        coach.email = email
        coach.save(update_fields=["email"])
    send_invitation(coach=coach, league=league, request=request)
    return coach


@transaction.atomic
def add_coach(
    *, league: League, season: Season | None, by, name: str, email: str, team: str = "", when_fixtures_exist: str = "",
) -> Coach:
    """A new coach with an address, entered in ``season`` (the league's current one)
    when given. The caller sends the invitation after this commits.

    Once ``season``'s fixtures exist, ``when_fixtures_exist`` says what to do
    (``season_entrants.NEXT_SEASON`` or ``REGENERATE``); without it the addition
    is refused with the question, and nothing is written (LG-1,
    league/people/entrants.py ``place``, the one rule for every path)."""
    if not league.is_organised_by(by):
        raise ValidationError("Only the league's organiser can add coaches.")
    name, email, team = name.strip()[:MAX_NAME], email.strip(), team.strip()[:MAX_TEAM]
    if not name:
        raise ValidationError("Give the coach a name.")
    # No name check here: names differ within a season's entrants, and entering
    # the coach checks that (league/people/entrants.py ``_enter``).
    coach = Coach.objects.create(name=name, email=email, created_by=by)
    if season is not None:
        if season.league_id != league.pk:
            raise ValidationError("That season belongs to another league.")
        enter_coach(season=season, coach=coach, team=team, when_fixtures_exist=when_fixtures_exist, by=by)
    return coach


def enter_coach(*, season: Season, coach: Coach, team: str = "", when_fixtures_exist: str = "", by=None) -> Entry:
    """``coach`` enters ``season``: every path that adds a coach (the Coaches page,
    a pasted list, a join link) ends here, and so in the one rule for a
    season whose fixtures exist (LG-1, ``season_entrants.place``: without a choice
    it is refused with the question). ``by`` None: the coach joins by a link."""
    return season_entrants.place(season=season, coach=coach, team=team.strip()[:MAX_TEAM],
                                 when_fixtures_exist=when_fixtures_exist, by=by)


def _new_account(*, username: str, password: str, email: str):
    """The account someone makes on an invitation or a claim link: the link was
    their proof, so it needs no address confirmation."""
    User = get_user_model()
    # NFKC (a full-width "Ａda" is "Ada"), Django's characters for a username (no
    # zero-width ones), then unique whatever the case.
    username = User.normalize_username(username.strip())
    if not username:
        raise ValidationError("Choose a username.")
    User.username_validator(username)
    if User.objects.filter(username__iexact=username).exists():
        raise ValidationError("That username is taken; choose another.")
    if email and email_change.address_taken(email, user=User()):
        raise ValidationError(
            "An account already uses this email address: log in with it, then open this link again to link it."
        )
    user = User(username=username, email=email)
    validate_password(password, user)
    user.set_password(password)
    user.save()
    return user


@transaction.atomic
def accept_invitation(*, token: str, user=None, username: str = "", password: str = ""):
    """Link the invited coach to ``user`` (logged in) or to a new account
    ``username``/``password``; the token is spent either way. Returns the user."""
    merges.lock_for_claim(coach=coach_for_token(token), user=user)
    coach = coach_for_token(token)  # again under the lock: two tabs cannot both use it
    if user is None:
        user = _new_account(username=username, password=password, email=coach.email)
    # Already a coach (of another league): the two places become one person's.
    merges.claim(coach=coach, user=user)
    if not user.email and coach.email and not email_change.address_taken(coach.email, user=user):
        user.email = coach.email
        user.save(update_fields=["email"])
    return user


def mask_email(address: str) -> str:
    """An address as the organiser's list shows it: enough to tell it was entered,
    not enough to read someone else's email off the page."""
    local, _, domain = address.partition("@")
    if not domain:
        return ""
    return f"{local[:1]}…@{domain}"

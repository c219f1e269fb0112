"""Login throttling with django-axes: the client address it counts failures by,
what locks (a username at one address, or an address), the page a locked-out
person sees, and an organiser's view and lifting of their coaches' locks. Axes
calls the first three through settings (AXES_CLIENT_IP_CALLABLE, AXES_HANDLER,
AXES_LOCKOUT_CALLABLE); the organiser's page (league/web/organiser.py) the last
two."""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import CharField, Max, Sum, Value
from django.db.models.functions import Cast, Concat
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone

from league.permissions import display_name, require_organiser
from league.throttle import within_limit
from league.models import Coach, League
from league.outbox import notifications
from league.outbox.links import site_root

logger = logging.getLogger(__name__)


def client_ip(request: HttpRequest) -> str | None:
    """The address a login attempt comes from.

    Behind TRUSTED_PROXY_COUNT reverse proxies that each append the address they
    saw to X-Forwarded-For, the client is the entry that many places from the right:
    entries further left were written by the client and can be forged, so trusting
    the left-most one would give an attacker a fresh address per attempt. With no
    proxy (the default), REMOTE_ADDR; a proxy in front with the count left at 0
    makes every visitor one address, which locks everyone out together, so the
    README's production recipe sets it.
    """
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies:
        hops = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        if len(hops) >= proxies:
            return hops[-proxies][:100]
    return request.META.get("REMOTE_ADDR")


def lockout_response(request: HttpRequest, original_response: HttpResponse | None = None, credentials: dict | None = None) -> HttpResponse:
    """429 with the cool-off in minutes, a Retry-After header and a way home, for the
    site's login and the admin's alike."""
    cool_off: timedelta = settings.AXES_COOLOFF_TIME
    minutes = max(1, math.ceil(cool_off.total_seconds() / 60))
    response = TemplateResponse(
        request,
        "registration/locked_out.html",
        {"minutes": minutes, "failure_limit": settings.AXES_FAILURE_LIMIT},
        status=429,
    )
    response["Retry-After"] = str(int(cool_off.total_seconds()))
    return response.render()


class AccountAtAddressHandler(AxesDatabaseHandler):
    """Two locks, each with its own limit: a username from one address
    after AXES_FAILURE_LIMIT failures, and an address after
    AXES_ADDRESS_FAILURE_LIMIT failures for any usernames. Never a username from
    everywhere: five bad passwords from anyone's address would lock its owner out
    too. Axes compares one count with one limit, so the count given is the
    username-at-address one, raised to that limit when the address is over its own.
    AXES_LOCKOUT_PARAMETERS lists the two in this order."""

    def get_failures(self, request, credentials: dict | None = None) -> int:
        at_address, address = (
            attempts.aggregate(failures=Sum("failures_since_start"))["failures"] or 0
            for attempts in self.get_user_attempts(request, credentials)
        )
        if address >= settings.AXES_ADDRESS_FAILURE_LIMIT:
            return max(at_address, get_failure_limit(request, credentials))
        return at_address

    def reset_user_attempts(self, request, credentials: dict | None = None) -> int:
        """A successful log-in (AXES_RESET_ON_SUCCESS) forgets that username's
        failures at that address only: the address's failures for other usernames
        stay counted, or someone with an account of their own could clear their
        address by logging in between guesses."""
        at_address = self.filter_user_attempts(request, credentials)[0]
        return at_address.delete()[0]


@dataclass(frozen=True)
class Lockout:
    """A coach who cannot log in now from ``addresses`` addresses (not shown: an
    address says where someone is) until ``until``."""

    coach: Coach
    addresses: int
    until: datetime


def lockouts_in(league: League) -> list[Lockout]:
    """The coaches of ``league`` (entered in any of its seasons, with an account)
    whose username is locked at some address now, by name. Two queries whatever
    the number of coaches or attempts."""
    since = timezone.now() - settings.AXES_COOLOFF_TIME
    # Usernames as stored: a log-in is matched exactly (ModelBackend), and so is a lock.
    usernames = Coach.objects.filter(entries__season__league=league, user__isnull=False).values("user__username")
    locked = (
        AccessAttempt.objects.filter(username__in=usernames, attempt_time__gte=since)
        .values("username", "ip_address")
        .annotate(failures=Sum("failures_since_start"), last=Max("attempt_time"))
        .filter(failures__gte=settings.AXES_FAILURE_LIMIT)
        .order_by()
    )
    by_username: dict[str, list[datetime]] = {}
    for row in locked:
        by_username.setdefault(row["username"], []).append(row["last"])
    if not by_username:
        return []
    coaches = (
        Coach.objects.filter(entries__season__league=league, user__username__in=list(by_username))
        .select_related("user").distinct().order_by("name")
    )
    return [
        Lockout(coach=coach, addresses=len(by_username[coach.user.username]),
                until=max(by_username[coach.user.username]) + settings.AXES_COOLOFF_TIME)
        for coach in coaches
    ]


#: How often an organiser may lift one coach's lock within a day: enough for a coach
#: who keeps mistyping, too few to turn the button into unlimited guesses.
LIFTS_PER_DAY = 3
#: What a lifted attempt's username starts with: a colon, which no
#: username can hold, so the row never matches a log-in again.
LIFTED = "lifted:"


@transaction.atomic
def lift_lockouts(*, league: League, coach: Coach, by) -> int:
    """The organiser of ``league`` lets ``coach`` (one of its coaches) log in again
    from every address. Their username's failed attempts stop counting against the
    username, but still count against each address they came from: they are kept
    under a name no log-in matches, so guessing from an address, with a lift between
    every five guesses, still meets the address's limit. At most ``LIFTS_PER_DAY``
    lifts a coach a day (counted in the database, league/throttle.py), and
    the coach is mailed who lifted it. Returns how many attempt records were lifted."""
    require_organiser(league, by)
    if coach.user_id is None:
        return 0
    attempts = AccessAttempt.objects.filter(username=coach.user.username)
    if not attempts.exists():
        return 0
    if not within_limit("lift-lockout", str(coach.pk), LIFTS_PER_DAY, window=timedelta(days=1)):
        minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
        raise ValidationError(
            f"{coach}'s lock has been lifted {LIFTS_PER_DAY} times today already; it lifts by itself "
            f"{minutes} minutes after the last failed log-in."
        )
    stamp = timezone.now().strftime("%Y%m%dT%H%M%S")
    lifted = attempts.update(
        username=Concat(Value(f"{LIFTED}{stamp}:"), Cast("pk", CharField()), Value(": "), "username",
                        output_field=CharField())
    )
    if coach.user.email:
        context = {"coach": coach, "league": league, "by": display_name(by),
                   "login": site_root() + reverse("login"), "reset": site_root() + reverse("password_reset")}
        notifications.queue_account_mail(
            kind="lockout_lifted", to=coach.user.email,
            subject=render_to_string("registration/lockout_lifted_subject.txt", context),
            text=render_to_string("registration/lockout_lifted_email.txt", context),
        )
    logger.warning("Login lockout of coach %s lifted by organiser %s of %s", coach.pk, by.pk, league.slug)
    return lifted

"""Who may do what. Organisers are staff users in the "Organisers" group; what they
see in the admin is further scoped to the leagues they organise (league/admin/scoping.py)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import Group, Permission
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied
from django.shortcuts import get_object_or_404

from league import layers, rules
from league.models import Fixture, League

ORGANISER_GROUP = "Organisers"


def organiser_apps() -> tuple[str, ...]:
    """The engine's app, then every registered game's and layer's (league.rules,
    league.layers): their models are the organisers'."""
    return tuple(dict.fromkeys(("league", *rules.app_labels(), *layers.app_labels())))


def organiser_group() -> Group:
    """The group with every permission on the league, game and layer models; created
    or brought up to date when called (after migrations have created permissions)."""
    group, _ = Group.objects.get_or_create(name=ORGANISER_GROUP)
    group.permissions.set(Permission.objects.filter(content_type__app_label__in=organiser_apps()))
    return group


def make_organiser(user) -> None:
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.groups.add(organiser_group())


def may_create_league(user) -> bool:
    """The superuser; anyone whose email address is verified while sign-up
    is open (OPEN_SIGNUP); or who holds the ``league.add_league`` permission the
    superuser grants (the Organisers group holds it too). An address is verified
    when the account has one: every way an account gets its address is a link sent
    to it (sign-up, an invitation, a change of address), or the superuser."""
    if not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser or user.has_perm("league.add_league"):
        return True
    return settings.OPEN_SIGNUP and bool(user.email)


def display_name(user) -> str:
    """What to call a user on a page: their coach's name, else their username (no
    query: ``user.coach`` is read with the account, league/backends.py)."""
    if user is None:
        return ""
    try:
        coach = user.coach
    except (ObjectDoesNotExist, AttributeError):  # an organiser who does not play; AnonymousUser
        coach = None
    return coach.name if coach is not None else user.get_username()


def coach_for(user):
    """The Coach linked to a logged-in user, or None: ``user.coach``, which Django
    keeps on the user object, so the page's menu (``display_name``) reads the same
    row without a second query."""
    if not user.is_authenticated:
        return None
    try:
        return user.coach
    except ObjectDoesNotExist:
        return None


def get_fixture_for_coach(request, pk: int):
    """The fixture, if the logged-in user coaches one of its sides or organises its
    league; 404 when it does not exist, 403 for anyone else."""
    fixture = get_object_or_404(Fixture.objects.with_related().select_related("round__season__league"), pk=pk)
    coach = coach_for(request.user)
    if fixture.side_of(coach) is None and not fixture.round.season.league.is_organised_by(request.user):
        raise PermissionDenied("This is not your fixture.")
    return fixture


def get_league_for_organiser(request, slug: str):
    """The league, if the logged-in user organises it; 404 when it does not exist,
    403 for anyone else (coaches, another league's organiser)."""
    league = get_object_or_404(League, slug=slug)
    if not league.is_organised_by(request.user):
        raise PermissionDenied("Only this league's organisers can see this page.")
    return league


def require_organiser(league, user) -> None:
    """For services: refuse anyone who does not organise ``league``."""
    if not league.is_organised_by(user):
        raise PermissionDenied("Only the league's organiser can do this.")

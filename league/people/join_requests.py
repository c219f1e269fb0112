"""Requests that wait on the organiser, made through a join link (LG-1):

- a newcomer once the season's fixtures exist (``ask_to_join``): nobody joins a
  running round robin without fixtures, so the organiser chooses to put them in
  the next season or, while no result is reported, to generate the fixtures again
  with them in; or refuses;
- "I am one of these" (``claim``): someone says they are one of the season's
  coaches without an account; the organiser confirms with one click and the
  account takes the coach's place (league/people/merges.py ``claim``, which makes
  one coach of two when the account already plays elsewhere).

Nothing is entered when a request is made; the organiser's decision (``decide``)
is one transaction through ``entrants.place``. Each request and each decision is
a fact (league/facts/), whose followers tell both sides by mail with the write.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from league.people import invitations
from league.permissions import require_organiser
from league.models import Coach, Entry, JoinLink, JoinRequest, Result, Round, Season
from league.facts import kinds as fact
from league.facts import recording as facts
from league.people import entrants, joining, merges

CONFIRM = "confirm"
REFUSE = "refuse"
DECISIONS = (CONFIRM, entrants.NEXT_SEASON, entrants.REGENERATE, REFUSE)


def unclaimed(season: Season) -> list[Coach]:
    """The season's entrants whose coach has no account, by name: who a join link
    offers as "I am one of these" (one query)."""
    return list(
        Coach.objects.filter(entries__season=season, entries__withdrawn_at__isnull=True, user__isnull=True)
        .order_by("name", "pk")
    )


def pending_for(user) -> list[JoinRequest]:
    """``user``'s requests that wait on an organiser, with their league (one query)."""
    if not user.is_authenticated:
        return []
    return list(
        JoinRequest.objects.filter(user=user, outcome=JoinRequest.Outcome.PENDING)
        .select_related("season__league", "coach").order_by("created_at", "pk")
    )


def pending_in(league) -> list[JoinRequest]:
    """The league's requests that wait on its organiser, every season's, oldest
    first, each with ``season_has_result`` and ``next_open`` (the league's next
    season that can take them, or None): two queries, whatever their number."""
    found = list(
        JoinRequest.objects.filter(season__league=league, outcome=JoinRequest.Outcome.PENDING)
        .select_related("season", "user", "coach")
        .annotate(season_has_result=Exists(Result.objects.filter(fixture__round__season=OuterRef("season"))),
                  season_has_fixtures=Exists(Round.objects.filter(season=OuterRef("season"))))
        .order_by("created_at", "pk")
    )
    if not found:
        return found
    # Seasons without fixtures, in order: a request's next season is the first one after its own.
    open_seasons = list(
        Season.objects.filter(league=league).exclude(Exists(Round.objects.filter(season=OuterRef("pk"))))
        .order_by("start_date", "pk")
    )
    for join_request in found:
        season = join_request.season
        join_request.next_open = next(
            (later for later in open_seasons
             if (later.start_date, later.pk) > (season.start_date, season.pk)), None)
    return found


def _link(token: str) -> JoinLink:
    """The token's link, locked, refused again under the lock (revoked, closed, used up)."""
    link = joining.read_token(token)
    link = JoinLink.objects.select_for_update().select_related("season__league").get(pk=link.pk)
    refusal = link.refusal()
    if refusal:
        raise joining.LinkRefused(refusal)
    return link


def _not_in_already(season: Season, user) -> Coach | None:
    """``user``'s coach (or None); refused when they are in ``season`` already or
    have a request of it waiting."""
    coach = Coach.objects.filter(user=user).first()
    if coach is not None and Entry.objects.filter(season=season, coach=coach).exists():
        raise ValidationError(f"You are in {season.name} of {season.league.name} already.")
    if JoinRequest.objects.filter(season=season, user=user, outcome=JoinRequest.Outcome.PENDING).exists():
        raise ValidationError(f"Your request to join {season.name} already waits for the organiser.")
    return coach


def _create(**fields) -> JoinRequest:
    # The constraint (joinrequest_one_pending_per_user) settles two tabs at once.
    try:
        with transaction.atomic():
            return JoinRequest.objects.create(**fields)
    except IntegrityError:
        raise ValidationError("Your request already waits for the organiser.") from None


@transaction.atomic
def ask_to_join(*, token: str, user, name: str, team: str = "") -> JoinRequest:
    """LG-1: a newcomer's request to join the link's season once its fixtures
    exist; one use of the link. ``name`` is the coach's name for an account that
    is not a coach yet (a coach joins under their own name)."""
    link = _link(token)
    season = link.season
    if not entrants.has_fixtures(season):
        raise ValidationError(f"{season.name} has no fixtures yet: join it straight away with the button.")
    coach = _not_in_already(season, user)
    name = coach.name if coach is not None else name.strip()[:invitations.MAX_NAME]
    if not name:
        raise ValidationError("Give the name you play under.")
    join_request = _create(season=season, link=link, user=user, kind=JoinRequest.Kind.NEW, name=name,
                           team=team.strip()[:invitations.MAX_TEAM])
    link.uses += 1
    link.save(update_fields=["uses"])
    _asked(fact.JOIN_ASKED, join_request)
    return join_request


@transaction.atomic
def claim(*, token: str, user, coach_id: int) -> JoinRequest:
    """"I am one of these": ``user`` says they are coach ``coach_id``, an entrant of
    the link's season without an account. Waits on the organiser's one click."""
    link = _link(token)
    season = link.season
    coach = Coach.objects.filter(pk=coach_id, entries__season=season, entries__withdrawn_at__isnull=True).first()
    if coach is None:
        raise ValidationError(f"Choose one of the coaches of {season.name} listed.")
    if coach.user_id is not None:
        raise ValidationError(f"{coach.name} has an account already: nobody else can take their place.")
    _not_in_already(season, user)
    join_request = _create(season=season, link=link, user=user, kind=JoinRequest.Kind.CLAIM, coach=coach,
                           name=coach.name)
    _asked(fact.CLAIM_ASKED, join_request)
    return join_request


def _asked(kind: str, join_request: JoinRequest) -> None:
    facts.record(kind, by=join_request.user, season=join_request.season,
                 concerns={"join_request": join_request.pk, "coach": join_request.coach_id},
                 join_request=join_request)


@transaction.atomic
def decide(*, join_request: JoinRequest, by, decision: str) -> JoinRequest:
    """The organiser's answer to a pending request, in one transaction: a claim
    confirmed (the account takes the coach's place, ``merges.claim``), a newcomer
    put in the next season or in this one with its fixtures generated again (LG-1,
    ``entrants.place``), or either refused. The row records the outcome; the
    person is told."""
    # The season first, as entrants.place locks it: two answers at once queue up here.
    season = Season.objects.select_for_update(of=("self",)).select_related("league").get(pk=join_request.season_id)
    require_organiser(season.league, by)
    join_request = (JoinRequest.objects.select_for_update(of=("self",)).select_related("user", "coach")
                    .get(pk=join_request.pk))
    join_request.season = season
    if not join_request.is_pending:
        raise ValidationError("This request has been answered already.")
    if decision not in DECISIONS:
        raise ValidationError("Choose one of the buttons.")
    Kind, Outcome = JoinRequest.Kind, JoinRequest.Outcome
    if decision == REFUSE:
        outcome = Outcome.REFUSED
    elif join_request.kind == Kind.CLAIM:
        if decision != CONFIRM:
            raise ValidationError("A claim is confirmed or refused.")
        # The account's coach of another league, if any, absorbs this one (merges.merge
        # re-points this request too): the row is read again below.
        join_request.coach = merges.claim(coach=join_request.coach, user=join_request.user, by=by)
        outcome = Outcome.ACCEPTED
    else:
        if decision == CONFIRM:
            raise ValidationError(f"{season.name} has its fixtures: put them in the next season, "
                                  "or generate the fixtures again with them in.")
        entry = _place_newcomer(join_request, season, decision, by)
        join_request.placed_in_id = entry.season_id
        outcome = Outcome.NEXT_SEASON if decision == entrants.NEXT_SEASON else Outcome.REGENERATED
    join_request.outcome = outcome
    join_request.decided_at = timezone.now()
    join_request.decided_by = by
    join_request.save(update_fields=["outcome", "decided_at", "decided_by", "placed_in"])
    join_request.placed_in = Season.objects.filter(pk=join_request.placed_in_id).first()
    facts.record(fact.JOIN_DECIDED, by=by, season=season,
                 concerns={"join_request": join_request.pk, "outcome": outcome}, join_request=join_request)
    return join_request


def _place_newcomer(join_request: JoinRequest, season: Season, decision: str, by) -> Entry:
    """The newcomer's entry where the organiser chose: as the coach their account
    is already, or as a new coach of the league under the name they gave."""
    user = join_request.user
    coach = Coach.objects.filter(user=user).first()
    if coach is None:
        coach = invitations.add_coach(league=season.league, season=None, by=by, name=join_request.name,
                                      email=user.email)
        coach.user = user  # the account's own coach: Coach.user is unique, so a race is refused
        coach.save(update_fields=["user"])
    return entrants.place(season=season, coach=coach, team=join_request.team, when_fixtures_exist=decision, by=by)

"""One person, one coach: an account is one coach in every league it plays in,
whoever organises them.

Two rows can still describe one person: a pasted name ("no account") in one
league and the same person's account-holding coach in another, or two rows an
organiser made by mistake. ``merge`` makes them one: everything that points at
the absorbed row (entries, and through them results, standings, ledgers and the
Big League's campaign rows; a game's own rows such as Dungeon Bowl teams) is
re-pointed at the kept one in one transaction, and the absorbed row is deleted.
``claim`` is how a person with an account takes a coach's place (an
invitation, a claim link, a join link's "I am one of these").

A coach with an account is never merged away without that account confirming
(``confirmed_by_account``): an organiser's merge of such a row waits for the
account holder (``ask_merge``, ``answer_merge``). Two accounts are two people and are
never merged.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, models, transaction
from django.db.models import Q
from django.utils import timezone

from league import layers
from league.caching import writes as season_writes
from league.models import Coach, Entry, League, MergeRequest, Result, Season
from league.facts import kinds as fact
from league.facts import recording as facts
from league.ratings import selectors as ratings
from league.ratings.models import Rating, RatingWeek
from league.text import plaintext


def leagues_of(coach: Coach) -> models.QuerySet[League]:
    """Every league ``coach`` plays in: through an entry, or through what a game
    keeps outside seasons (``Layer.coach_leagues``: a Dungeon Bowl team founded
    before its first season)."""
    where = Q(seasons__entries__coach_id=coach.pk)
    for layer in layers.layers():
        if layer.coach_leagues is not None:
            where |= layer.coach_leagues(coach.pk)
    return League.objects.filter(where).distinct()


def _lock(*coaches: Coach) -> dict[int, Coach]:
    """The coaches' rows, lowest primary key first (league/locks.py: coach rows
    in primary-key order, before any other), read again under the lock. Held
    ``FOR NO KEY UPDATE``: against another merge, claim or edit of these rows, not
    against a row being written that points at them (the key check of an insert,
    ``FOR KEY SHARE``). A recomputation of the ratings holds its game's ratings row
    while it writes rating rows pointing at every rated coach; were it to wait
    here, a merge marking that row later would wait for it in turn."""
    rows = (Coach.objects.select_for_update(no_key=True, of=("self",))
            .filter(pk__in=[c.pk for c in coaches]).order_by("pk"))
    return {coach.pk: coach for coach in rows}


def lock_for_claim(*, coach: Coach, user) -> Coach | None:
    """Before a claim: ``coach``'s row and, when ``user`` is a coach already, theirs,
    in the one order (``_lock``), so a claim and a merge of the same rows queue up
    instead of each waiting for the other. Returns ``coach`` fresh (None: gone)."""
    own = Coach.objects.filter(user=user).values_list("pk", flat=True).first() if user is not None else None
    locked = _lock(coach, *([Coach(pk=own)] if own is not None else []))
    return locked.get(coach.pk)


def _refusal(keep: Coach, absorb: Coach, by, confirmed_by_account: bool) -> str | None:
    """Why ``absorb`` cannot become ``keep``, or None."""
    if keep.pk == absorb.pk:
        return "Those are the same coach."
    if keep.user_id is not None and absorb.user_id is not None:
        return (f"{keep.name} and {absorb.name} each have an account: two accounts are two people, "
                "so they cannot become one coach.")
    if absorb.user_id is not None and not confirmed_by_account:
        return f"{absorb.name} has an account: only that account can agree to this merge."
    if by is not None:
        theirs = set(League.objects.organised_by(by).values_list("pk", flat=True))
        for coach in (keep, absorb):
            if not leagues_of(coach).exists():
                return f"{coach.name} plays in none of your leagues: only coaches of your leagues can be merged."
        for league in (leagues_of(keep) | leagues_of(absorb)).distinct():
            if league.pk not in theirs:
                return f"{league.name} is not one of your leagues: only its organiser can merge its coaches."
    shared = Season.objects.filter(entries__coach=keep).filter(entries__coach=absorb).select_related("league").first()
    if shared is not None:
        return (f"{keep.name} and {absorb.name} are both entered in {shared.league.name}, {shared.name}: "
                "two entrants of one season are two people.")
    # Names differ within a season's entrants: keep's name, in absorb's seasons.
    others = (Entry.objects.filter(season__entries__coach=absorb).exclude(coach__in=[keep.pk, absorb.pk])
              .select_related("coach", "season__league"))
    for entry in others:
        if plaintext.name_key(entry.coach.name) == plaintext.name_key(keep.name):
            return (f"There is already a coach called {entry.coach.name} in {entry.season.league.name}, "
                    f"{entry.season.name}: rename one of them first.")
    return None


# Rows about the coach as a row, not about the person: a merge decides them. A
# coach's ratings are derived from their results: recomputed once the results are
# the kept coach's (``ratings.coaches_merged``), never moved.
NOT_MOVED = (MergeRequest, Rating, RatingWeek)


def _repoint(keep: Coach, absorb: Coach) -> None:
    """Every row that points at ``absorb`` points at ``keep``: walked from the
    model's relations, so a relation added later (a game's, a layer's) moves too."""
    for relation in Coach._meta.related_objects:
        if relation.related_model in NOT_MOVED:
            continue
        if relation.many_to_many:
            through = relation.through
            source = next(f for f in through._meta.get_fields() if getattr(f, "related_model", None) is Coach)
            kept = through._default_manager.filter(**{source.name: keep})
            other = [f for f in through._meta.concrete_fields
                     if f.is_relation and f.related_model is not Coach][0]
            already = kept.values_list(other.attname, flat=True)
            rows = through._default_manager.filter(**{source.name: absorb})
            rows.filter(**{f"{other.attname}__in": list(already)}).delete()
            rows.update(**{source.name: keep})
            continue
        if not relation.field.concrete:
            continue  # a generic relation or similar: nothing stored that names the coach
        manager = relation.related_model._base_manager
        moving = manager.filter(**{relation.field.name: absorb})
        if relation.one_to_one and manager.filter(**{relation.field.name: keep}).exists() and moving.exists():
            raise ValidationError(
                f"Both coaches have their own {relation.related_model._meta.verbose_name}: only one can stay."
            )
        moving.update(**{relation.field.name: keep})


@transaction.atomic
def merge(*, keep: Coach, absorb: Coach, by, confirmed_by_account: bool = False) -> Coach:
    """``absorb`` becomes ``keep``: its entries (with their results, standings,
    campaign ledgers and teams), its account when ``keep`` has none and the
    account confirmed, its address when ``keep`` has none; then it is deleted.
    Refused with nothing written when they are one coach, both have accounts,
    ``absorb`` has an account that did not confirm, ``by`` (None: the caller
    checked, as ``claim`` does) does not organise every league either plays in,
    both play in one season, or ``keep``'s name is another entrant's in one of
    ``absorb``'s seasons. Returns ``keep``, fresh."""
    locked = _lock(keep, absorb)
    if keep.pk == absorb.pk:
        raise ValidationError("Those are the same coach.")
    if keep.pk not in locked or absorb.pk not in locked:
        raise ValidationError("One of these coaches no longer exists.")
    keep, absorb = locked[keep.pk], locked[absorb.pk]
    why = _refusal(keep, absorb, by, confirmed_by_account)
    if why is not None:
        raise ValidationError(why)
    seasons = Q(league__in=list((leagues_of(keep) | leagues_of(absorb)).values_list("pk", flat=True)))
    rated = ratings.first_weeks(absorb)
    try:
        with transaction.atomic():
            _repoint(keep, absorb)
    except IntegrityError:  # a game's own rule (one of something per coach) the walk cannot know
        raise ValidationError(f"{keep.name} and {absorb.name} cannot be merged: both hold something only one "
                              "coach may hold in the same league.") from None
    fields = []
    if absorb.user_id is not None:
        user_id = absorb.user_id
        Coach.objects.filter(pk=absorb.pk).update(user=None)  # the account is one coach's at a time
        keep.user_id = user_id
        fields.append("user")
    if not keep.email and absorb.email:
        keep.email = absorb.email
        fields.append("email")
    if fields:
        keep.save(update_fields=fields)
    # Open requests about the absorbed row are settled by this merge.
    MergeRequest.objects.filter(decided_at__isnull=True).filter(Q(keep=absorb) | Q(absorb=absorb)).delete()
    absorb_pk = absorb.pk
    absorb.delete()
    # The updates above send no signals: every page of both coaches' leagues names them.
    season_writes.changed(seasons)
    # RT-2: the absorbed coach's games are now the kept coach's, from their first rated week.
    facts.record(fact.COACHES_MERGED, by=by, concerns={"keep": keep.pk, "absorb": absorb_pk}, rated=rated)
    return Coach.objects.select_related("user").get(pk=keep.pk)


@transaction.atomic
def claim(*, coach: Coach, user, by=None) -> Coach:
    """The person with account ``user`` takes ``coach``'s place: ``coach`` becomes
    theirs, or, when they are already a coach (of another league), the two
    become one (``merge``, keeping theirs). Refused when ``coach`` has an account.
    The caller checked that ``user`` may (a valid invitation or claim link, the
    organiser's confirmation); ``by``, when given, must organise ``coach``'s leagues."""
    coach = lock_for_claim(coach=coach, user=user)
    if coach is None:
        raise ValidationError("This coach no longer exists.")
    if coach.user_id is not None:
        if coach.user_id == user.pk:
            return coach
        raise ValidationError(f"{coach.name} already has an account.")
    if by is not None:
        for league in leagues_of(coach):
            if not league.is_organised_by(by):
                raise ValidationError(f"{league.name} is not one of your leagues.")
    own = Coach.objects.filter(user=user).first()
    if own is not None:
        return merge(keep=own, absorb=coach, by=None)
    coach.user = user
    coach.invitation_nonce = ""  # any invitation or claim link for this place is spent
    fields = ["user", "invitation_nonce"]
    if not coach.email and user.email:
        coach.email = user.email
        fields.append("email")
    coach.save(update_fields=fields)
    facts.record(fact.COACH_CLAIMED, by=by or user, concerns={"coach": coach.pk, "user": user.pk})
    return coach


def refusal(*, keep: Coach, absorb: Coach, by) -> str | None:
    """Why the organiser ``by`` cannot merge these two, nor ask to (reads only):
    for the form, before the confirmation page."""
    return _refusal(keep, absorb, by, confirmed_by_account=True)


def describe_merge(*, keep: Coach, absorb: Coach, to_holder: bool = False) -> str:
    """What a merge of ``absorb`` into ``keep`` moves, in a sentence for the
    confirmation page (reads only): the entries with their leagues and seasons,
    how many results, and every other row that names the coach (a Dungeon Bowl
    team ...), counted by kind. ``to_holder``: said to the account holder, who is
    not told they will be asked."""
    entries = list(Entry.objects.filter(coach=absorb).select_related("season__league")
                   .order_by("season__league__name", "season__start_date"))
    results = (Result.objects.filter(Q(fixture__home__coach=absorb) | Q(fixture__away__coach=absorb))
               .values("fixture").distinct().count())
    others = []
    for relation in Coach._meta.related_objects:
        if relation.related_model in NOT_MOVED or relation.related_model is Entry or not relation.field.concrete:
            continue
        if relation.many_to_many:
            continue
        count = relation.related_model._base_manager.filter(**{relation.field.name: absorb}).count()
        if count:
            meta = relation.related_model._meta
            others.append(f"{count} {meta.verbose_name if count == 1 else meta.verbose_name_plural}")
    places = "; ".join(f"{e.season.league.name}, {e.season.name}" for e in entries) or "no season"
    moved = [f"{len(entries)} {'entry' if len(entries) == 1 else 'entries'} ({places})",
             f"{results} {'match' if results == 1 else 'matches'} with a result", *others]
    sentence = (f"{absorb.name} becomes {keep.name}: {', '.join(moved)} move to {keep.name}, with every point, "
                f"ledger line and team figure as it stands. Every league's pages then call them {keep.name}.")
    holder = keep if keep.user_id else absorb if absorb.user_id else None
    if holder is not None and not to_holder:
        sentence += f" {holder.name} has an account: they are asked first, and nothing moves until they accept."
    return sentence


@transaction.atomic
def ask_merge(*, keep: Coach, absorb: Coach, by) -> Coach | MergeRequest:
    """The organiser ``by`` says two coach rows of their leagues are one person.
    Neither has an account: merged at once (returns the kept coach). One has: a
    request waits for that account (returns it; the account holder is mailed).
    Refused as ``merge`` refuses (both with accounts, one season, someone else's
    league, a name clash), checked now so nobody is asked for what cannot be done."""
    locked = _lock(keep, absorb)
    if keep.pk == absorb.pk:
        raise ValidationError("Those are the same coach.")
    if keep.pk not in locked or absorb.pk not in locked:
        raise ValidationError("One of these coaches no longer exists.")
    keep, absorb = locked[keep.pk], locked[absorb.pk]
    holder = keep if keep.user_id is not None else absorb if absorb.user_id is not None else None
    if holder is None:
        return merge(keep=keep, absorb=absorb, by=by)
    why = _refusal(keep, absorb, by, confirmed_by_account=True)
    if why is not None:
        raise ValidationError(why)
    if MergeRequest.objects.filter(keep=keep, absorb=absorb, decided_at__isnull=True).exists():
        raise ValidationError(f"{holder.name} has been asked already; the request waits on their page.")
    request = MergeRequest.objects.create(keep=keep, absorb=absorb, asked_by=by)
    leagues = sorted({league.name for league in (leagues_of(keep) | leagues_of(absorb))})
    facts.record(fact.MERGE_ASKED, by=by, concerns={"request": request.pk, "keep": keep.pk, "absorb": absorb.pk},
                 request=request, holder=Coach.objects.select_related("user").get(pk=holder.pk),
                 other=absorb if holder.pk == keep.pk else keep, leagues=leagues)
    return request


def open_requests_for(user) -> models.QuerySet[MergeRequest]:
    """The merge requests waiting on ``user``'s coach, oldest first."""
    return (MergeRequest.objects.filter(decided_at__isnull=True)
            .filter(Q(keep__user=user) | Q(absorb__user=user))
            .select_related("keep", "absorb", "asked_by"))


@transaction.atomic
def answer_merge(*, request: MergeRequest, user, accept: bool) -> Coach | None:
    """The account holder accepts (the merge is done: returns the kept coach) or
    refuses (nothing moves) a request about their coach. Only they may answer,
    once; the organiser who asked must still run every league concerned."""
    # Only the request's row: its absorbed coach may be gone (a nullable join PostgreSQL will not lock).
    request = (MergeRequest.objects.select_for_update(of=("self",)).select_related("keep", "absorb")
               .filter(pk=request.pk).first())
    if request is None or request.decided_at is not None or request.absorb_id is None:
        raise ValidationError("This request has been answered already.")
    if user.pk not in (request.keep.user_id, request.absorb.user_id):
        raise PermissionDenied("Only the coach this request is about can answer it.")
    request.decided_at, request.accepted = timezone.now(), accept
    request.save(update_fields=["decided_at", "accepted"])
    if not accept:
        return None
    return merge(keep=request.keep, absorb=request.absorb, by=request.asked_by, confirmed_by_account=True)

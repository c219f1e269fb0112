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
account holder (league/accounts/merging.py). Two accounts are two people and are
never merged.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.db.models import Q

from league import layers
from league.caching import writes as season_writes
from league.models import Coach, Entry, League, Season
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
    """The coaches' rows, lowest primary key first (league/locks.py step 3: rows
    of one kind in primary-key order), read again under the lock."""
    rows = Coach.objects.select_for_update(of=("self",)).filter(pk__in=[c.pk for c in coaches]).order_by("pk")
    return {coach.pk: coach for coach in rows}


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


def _repoint(keep: Coach, absorb: Coach) -> None:
    """Every row that points at ``absorb`` points at ``keep``: walked from the
    model's relations, so a relation added later (a game's, a layer's) moves too."""
    for relation in Coach._meta.related_objects:
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
    absorb.delete()
    # The updates above send no signals: every page of both coaches' leagues names them.
    season_writes.changed(seasons)
    return Coach.objects.select_related("user").get(pk=keep.pk)


@transaction.atomic
def claim(*, coach: Coach, user, by=None) -> Coach:
    """The person with account ``user`` takes ``coach``'s place: ``coach`` becomes
    theirs, or, when they are already a coach (of another league), the two
    become one (``merge``, keeping theirs). Refused when ``coach`` has an account.
    The caller checked that ``user`` may (a valid invitation or claim link, the
    organiser's confirmation); ``by``, when given, must organise ``coach``'s leagues."""
    coach = Coach.objects.select_for_update(of=("self",)).filter(pk=coach.pk).first()
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
    return coach

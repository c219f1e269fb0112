"""Who plays in a season once it is under way (LG-1 to LG-4): the one place that
decides how an entrant joins a season and how one leaves it, whatever the path
(the Coaches page, the season set-up page's pasted names and join links, a game's
"enter the ready teams", the admin). ``league.people.invitations.add_coach`` calls
``place``.

- LG-1 Decision: before the fixtures exist an entrant simply joins. Once they
  exist nobody joins a running round robin without fixtures: the organiser chooses
  to put the newcomer in the league's next season (one that has no fixtures yet),
  or, while no result has been reported, to generate the fixture list again with
  the newcomer in. Without a choice the addition is refused with that question.
- LG-2 Decision: an entrant withdrawn mid-season keeps its approved results (its
  opponents' points from them stand); its fixtures without an approved result are
  not played and count for nothing for either side (no abandonment, no DB-5a
  double loss): they stay listed, marked as not played because of the withdrawal
  (``Fixture.cancelled_by``), any result not yet approved on them is dropped,
  nothing can be reported, imported or arranged for them afterwards, and each
  opponent is told. The tables mark the entrant's row with the date. Before the
  fixtures exist, withdrawing just takes the entry out of the season.
- LG-5 Decision: what a game's layer attached to a fixture that a withdrawal
  cancels or a re-generation removes (a Big League sponsorship or loan) is cancelled and its
  Favours given back, in the same transaction (``layers.release_fixtures``); the
  confirmation page says what first (``withdrawal_cancels``, ``regeneration_cancels``).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from league import layers
from league.caching import writes as season_writes
from league.facts import kinds as fact
from league.facts import recording as facts
from league.text import plaintext
from league.models import Coach, Division, Entry, Fixture, Result, Round, Season
from league.permissions import require_organiser
from league.services.seasons import generate_fixtures

NEXT_SEASON = "next"
REGENERATE = "regenerate"
CHOICES = [
    (NEXT_SEASON, "Put them in the next season"),
    (REGENERATE, "Generate the fixtures again with them in (only while no result is reported)"),
]


def has_fixtures(season: Season) -> bool:
    return season.rounds.exists()


def any_result(season: Season) -> bool:
    """Whether any fixture of the season has a result, approved or not."""
    return Result.objects.filter(fixture__round__season=season).exists()


def next_season(season: Season) -> Season | None:
    """The league's next season that can still take entrants: it starts after
    ``season`` and has no fixtures yet."""
    rounds = Round.objects.filter(season=OuterRef("pk"))
    return (
        Season.objects.filter(league_id=season.league_id)
        .filter(Q(start_date__gt=season.start_date) | Q(start_date=season.start_date, pk__gt=season.pk))
        .exclude(Exists(rounds)).order_by("start_date", "pk").first()
    )


def question(season: Season) -> str:
    """What the organiser is asked once ``season``'s fixtures exist (LG-1)."""
    regenerate = (
        " (a result is already reported, so the fixtures can no longer be generated again)"
        if any_result(season) else ", or generate the fixtures again with them in"
    )
    return (f"{season.name} already has its fixtures: put the newcomer in the next season{regenerate}. "
            "Nobody joins a running round robin without fixtures.")


def place(*, season: Season, coach: Coach, team: str = "", division: Division | None = None,
          when_fixtures_exist: str = "", by) -> Entry:
    """LG-1: enter ``coach`` in ``season`` (or in its next season) and return the
    entry. Runs in the caller's transaction; the season row is locked first, so
    two additions at once queue up. ``by`` None only for the system's own jobs."""
    season = Season.objects.select_for_update(of=("self",)).select_related("league").get(pk=season.pk)
    if by is not None:
        require_organiser(season.league, by)
    if not has_fixtures(season):
        return _enter(season, coach, team, division, by)
    if when_fixtures_exist == NEXT_SEASON:
        later = next_season(season)
        if later is None:
            raise ValidationError(f"{season.league} has no next season open yet: open it first, then add them there, "
                                  "or generate this season's fixtures again with them in.")
        return _enter(later, coach, team, None, by)
    if when_fixtures_exist == REGENERATE:
        if any_result(season):
            raise ValidationError(f"A result of {season.name} is already reported: its fixtures can no longer be "
                                  "generated again. Put the newcomer in the next season.")
        entry = _enter(season, coach, team, division, by)
        regenerate(season=season, by=by)
        return entry
    raise ValidationError(question(season))


def _enter(season: Season, coach: Coach, team: str, division: Division | None, by) -> Entry:
    """The one place that keeps names apart: two entrants of one season never share
    a name, however written (case, width, invisible characters:
    league/text/plaintext.py ``name_key``). Anywhere else two coaches may share one.
    The season's row is locked (``place``), so two additions at once queue up."""
    if division is not None and division.season_id != season.pk:
        raise ValidationError("That division belongs to another season.")
    team = layers.team_name(season.league.game_system, team)  # a Guild typed another way: its catalogue name
    others = Coach.objects.filter(entries__season=season).exclude(pk=coach.pk).values_list("name", flat=True)
    clash = plaintext.same_name(coach.name, others.iterator())
    if clash is not None:
        raise ValidationError(f"There is already a coach called {clash} in {season.name}; "
                              "choose a name people can tell apart.")
    # Every caller has checked already; the constraint (entry_one_per_coach_per_season)
    # settles a race, and the caller's transaction is rolled back with the refusal.
    try:
        entry = Entry.objects.create(season=season, coach=coach, team=team, division=division)
    except IntegrityError:
        raise ValidationError(f"{coach} is already entered in {season.name}.") from None
    facts.record(fact.ENTRANT_JOINED, by=by, season=season, concerns={"entry": entry.pk, "coach": coach.pk},
                 entry=entry)
    return entry


def regenerate(*, season: Season, by) -> None:
    """LG-1: the whole fixture list again, with every entry still in the season,
    while no result is reported (the caller checked). Keeps the start date and the
    cadence; a new shuffle."""
    layers.release_fixtures(season, Fixture.objects.filter(round__season=season),
                            why=f"the fixtures of {season.name} were generated again (LG-5)", by=by)
    Round.objects.filter(season=season).delete()
    generate_fixtures(season=season, by=by)


def regeneration_cancels(season: Season) -> list[str]:
    """LG-5: what generating ``season``'s fixtures again would cancel, a sentence
    each, for the confirmation page (reads only)."""
    return layers.held_by_fixtures(season, Fixture.objects.filter(round__season=season))


def _cancelled_by_withdrawal(season: Season, entry: Entry):
    """LG-2: the fixtures a withdrawal cancels: the entrant's, without an approved
    result, play-offs aside."""
    return (
        Fixture.objects.filter(Q(home=entry) | Q(away=entry), round__season=season, cancelled_by__isnull=True)
        .exclude(stage=Fixture.Stage.PLAYOFF).exclude(result__status=Result.Status.APPROVED)
    )


def withdrawal_cancels(*, season: Season, entry: Entry) -> list[str]:
    """LG-5: what withdrawing ``entry`` from ``season`` (its league loaded) would
    cancel, a sentence each, for the confirmation page (reads only)."""
    if not has_fixtures(season):
        return []
    return layers.held_by_fixtures(season, _cancelled_by_withdrawal(season, entry))


@transaction.atomic
def withdraw(*, entry: Entry, by) -> int:
    """LG-2: ``entry`` leaves its season. Returns how many fixtures are now not
    played: they stay, marked as cancelled by the withdrawal, with any result not
    yet approved dropped; what the layers attached to them is cancelled first
    (LG-5), and each opponent is told."""
    season = Season.objects.select_for_update(of=("self",)).select_related("league").get(pk=entry.season_id)
    require_organiser(season.league, by)
    entry = Entry.objects.select_related("coach").get(pk=entry.pk)
    if entry.withdrawn_at is not None:
        raise ValidationError(f"{entry.coach} has already withdrawn from {season.name}.")
    if not has_fixtures(season):
        _withdrew(season, entry, [], by)  # told before the entry goes
        entry.delete()
        return 0
    # Locked, so a report arriving meanwhile waits and then finds its match cancelled.
    ids = list(_cancelled_by_withdrawal(season, entry).select_for_update(of=("self",))
               .order_by("pk").values_list("pk", flat=True))
    layers.release_fixtures(season, Fixture.objects.filter(pk__in=ids),
                            why=f"{entry.coach} withdrew from {season.name} (LG-5)", by=by)
    Result.objects.filter(fixture_id__in=ids).delete()
    Fixture.objects.filter(pk__in=ids).update(cancelled_by=entry)
    entry.withdrawn_at = timezone.now()
    entry.save(update_fields=["withdrawn_at"])
    season_writes.changed(season)  # the fixtures' bulk update sends no signal
    _withdrew(season, entry, ids, by)
    return len(ids)


def _withdrew(season: Season, entry: Entry, cancelled: list[int], by) -> None:
    """LG-2's fact: the entry left, its ``cancelled`` fixtures are not played (each
    opponent is told by its followers)."""
    facts.record(fact.ENTRANT_WITHDREW, by=by, season=season,
                 concerns={"entry": entry.pk, "coach": entry.coach_id, "fixtures": cancelled},
                 entry=entry, cancelled=cancelled)


def withdrawn(season: Season) -> list[Entry]:
    """The season's withdrawn entrants, for the tables and the fixtures page (one query)."""
    return list(season.entries.filter(withdrawn_at__isnull=False).select_related("coach").order_by("withdrawn_at"))

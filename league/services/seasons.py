"""A season's set-up, before and beside its matches: the fixture list (GB-4,
GB-5), divisions (DB-2) and friendlies (DB-5a). Each service is one transaction
that locks the season row first; the result workflow on those fixtures is in
league/services/results.py.

Refusals raise ``ValidationError`` (a message for the form) or
``PermissionDenied`` (the caller does not organise the league).
"""

from __future__ import annotations

import datetime
import random

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q

from league import datebounds, layers
from league.caching import writes as season_writes
from league.facts import kinds as fact
from league.facts import recording as facts
from league.models import Division, Entry, Fixture, League, Round, Season
from league.permissions import require_organiser
from league.rules.scheduling import (
    MAX_DIVISIONS, MIN_DIVISIONS, MIN_PER_DIVISION, check_split, draw_divisions, merge_rounds, round_dates, round_robin,
)


@transaction.atomic
def generate_fixtures(*, season: Season, by=None, seed: int | None = None) -> list[Round]:
    """GB-4/GB-5: the whole fixture list of a season, published at the start.

    Round robin by the circle method (double when the season says so), shuffled by
    a seed stored on the season so the schedule can be reproduced. ``by`` is the
    organiser asking; None only for the system's own jobs (demo data, tests).
    """
    season = Season.objects.select_for_update(of=("self",)).select_related("league").get(pk=season.pk)
    if by is not None:
        require_organiser(season.league, by)
    if season.rounds.exists():
        raise ValidationError(f"{season} already has its fixtures.")
    entries = list(season.entries.filter(withdrawn_at__isnull=True).order_by("pk"))  # LG-2: not who withdrew
    refusal = season.league.rules.too_few_entries(len(entries))  # GB-2, DB-1
    if refusal:
        raise ValidationError(refusal)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    schedule = merge_rounds([
        round_robin(group, double=season.double_round_robin, seed=seed) for group in _division_groups(entries, season)
    ])
    # Every round's date within league/datebounds.py's range, at most MAX_ROUNDS rounds.
    datebounds.validate_season_dates(season.start_date, rounds=len(schedule), days_between=season.cadence_days)
    dates = round_dates(season.start_date, len(schedule), season.cadence_days)
    rounds = Round.objects.bulk_create(
        Round(season=season, number=number, date=date) for number, date in enumerate(dates, start=1)
    )
    Fixture.objects.bulk_create(
        Fixture(round=rnd, home=home, away=away, date=rnd.date)
        for rnd, pairs in zip(rounds, schedule)
        for home, away in pairs
    )
    season.schedule_seed = seed
    season.save(update_fields=["schedule_seed"])  # also a new version for the bulk-created fixtures
    layers.season_started(season, by=by)
    return rounds


def _division_groups(entries: list[Entry], season: Season) -> list[list[Entry]]:
    """The entries that play each other: the whole season, or each division (DB-2,
    DB-5a: teams play every other team of their division)."""
    if not any(entry.division_id for entry in entries):
        return [entries]
    groups: dict[int | None, list[Entry]] = {}
    for entry in entries:
        groups.setdefault(entry.division_id, []).append(entry)
    if None in groups:
        names = ", ".join(str(entry.coach) for entry in groups[None])
        raise ValidationError(f"Put every entry in a division before generating fixtures; not yet placed: {names}.")
    small = [group for group in groups.values() if len(group) < 2]
    if small:
        raise ValidationError("Every division needs at least two entries to play a round robin.")
    try:  # DB-2 however the entries were placed (the admin's entry by entry included)
        check_split([len(group) for group in groups.values()])
    except ValueError as error:
        raise ValidationError(season.league.rules.cited("divisions", str(error))) from error
    return [groups[key] for key in sorted(groups)]


@transaction.atomic
def draw_season_divisions(*, season: Season, by, count: int, seed: int | None = None) -> list[Division]:
    """DB-2: split a season's entries into ``count`` divisions (2 to 4, as equal as
    possible, at least 4 each) by a seeded random draw, before fixtures exist."""
    season = _lock_season_without_fixtures(season, by)
    entries = list(season.entries.order_by("pk"))
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    try:
        groups = draw_divisions(entries, count, seed=seed)
    except ValueError as error:
        raise ValidationError(season.league.rules.cited("divisions", str(error))) from error
    return _place_in_divisions(season, {f"Division {chr(ord('A') + i)}": group for i, group in enumerate(groups)})


@transaction.atomic
def set_season_divisions(*, season: Season, by, divisions: dict[str, list[Entry]]) -> list[Division]:
    """DB-2: the organiser's own split (division name -> its entries), checked
    against the same rules as a draw: 2 to 4 divisions, at least 4 entries each,
    sizes differing by at most one, every entry in exactly one."""
    season = _lock_season_without_fixtures(season, by)
    entries = {entry.pk for entry in season.entries.all()}
    placed = [entry.pk for group in divisions.values() for entry in group]
    if sorted(placed) != sorted(entries):
        raise ValidationError("Every entry of the season must be in exactly one division.")
    small = [name for name, group in divisions.items() if len(group) < MIN_PER_DIVISION]
    if small and MIN_DIVISIONS <= len(divisions) <= MAX_DIVISIONS:
        raise ValidationError(season.league.rules.cited(
            "divisions", f"A division needs at least {MIN_PER_DIVISION} entries: {', '.join(small)}."))
    try:
        check_split([len(group) for group in divisions.values()])
    except ValueError as error:
        raise ValidationError(season.league.rules.cited("divisions", str(error))) from error
    return _place_in_divisions(season, divisions)


def _lock_season_without_fixtures(season: Season, by) -> Season:
    season = Season.objects.select_for_update(of=("self",)).select_related("league").get(pk=season.pk)
    if by is not None:
        require_organiser(season.league, by)
    if season.rounds.exists():
        raise ValidationError("Divisions are set before the fixtures are generated.")
    return season


def _place_in_divisions(season: Season, groups: dict[str, list[Entry]]) -> list[Division]:
    Entry.objects.filter(season=season).update(division=None)
    season.divisions.all().delete()
    divisions = Division.objects.bulk_create(Division(season=season, name=name.strip()) for name in groups)
    for division, group in zip(divisions, groups.values()):
        Entry.objects.filter(pk__in=[entry.pk for entry in group]).update(division=division)
    season_writes.changed(season)  # bulk writes send no signals
    return divisions


@transaction.atomic
def add_friendly(*, season: Season, by, home: Entry, away: Entry, date: datetime.date) -> Fixture:
    """A friendly (cross-division ones too): played and reported like any match, it
    counts for nothing in the standings (DB-5a). It sits in the round whose week it
    falls in."""
    season = Season.objects.select_related("league").get(pk=season.pk)
    require_organiser(season.league, by)
    if home.season_id != season.pk or away.season_id != season.pk:
        raise ValidationError("Both sides of a friendly must be entries of this season.")
    if home.pk == away.pk:
        raise ValidationError("A friendly needs two different sides.")
    gone = Entry.objects.filter(pk__in=[home.pk, away.pk], withdrawn_at__isnull=False).select_related("coach").first()
    if gone is not None:  # LG-2: nothing is arranged for a withdrawn entrant
        raise ValidationError(f"{gone} has withdrawn from {season.name}: no friendly is arranged for them.")
    datebounds.validate_match_date(date)
    rnd = season.rounds.filter(date__lte=date).order_by("-number").first() or season.rounds.order_by("number").first()
    if rnd is None:
        raise ValidationError("Generate the season's fixtures first; a friendly joins the round of its week.")
    return Fixture.objects.create(round=rnd, home=home, away=away, date=date, stage=Fixture.Stage.FRIENDLY)


@transaction.atomic
def add_fixture(*, round: Round, home: Entry, away: Entry | None, date: datetime.date, by) -> Fixture:
    """One fixture added by hand to a round of a season (a match the generated list
    lacks, a bye without ``away``): both sides entrants of the season who have not
    withdrawn (LG-2), the date within bounds. A fixture between entries of two
    divisions is a friendly (DB-5a, ``Fixture.stage_between``); any other plays
    each side once a round."""
    season = Season.objects.select_for_update(of=("self",)).select_related("league").get(pk=round.season_id)
    require_organiser(season.league, by)
    sides = [entry for entry in (home, away) if entry is not None]
    for entry in sides:
        if entry.season_id != season.pk:
            raise ValidationError(f"{entry} is not entered in {season}.")
        if entry.withdrawn_at is not None:
            raise ValidationError(f"{entry} has withdrawn from {season.name}.")
    if away is not None and home.pk == away.pk:
        raise ValidationError("A fixture needs two different sides.")
    datebounds.validate_match_date(date)
    stage = Fixture.stage_between(home, away, Fixture.Stage.REGULAR)
    if stage == Fixture.Stage.REGULAR:
        playing = Fixture.objects.filter(round=round, stage=Fixture.Stage.REGULAR)
        for entry in sides:
            if playing.filter(Q(home=entry) | Q(away=entry)).exists():
                raise ValidationError(f"{entry} already plays in {round}.")
    return Fixture.objects.create(round=round, home=home, away=away, date=date, stage=stage)


@transaction.atomic
def open_next_season(
    *, league, by, today: datetime.date | None = None, name: str = "", start_date: datetime.date | None = None,
    cadence_days: int | None = None, double_round_robin: bool | None = None,
) -> Season:
    """The season checklist's "Open the next season" (LG-3), for a game
    without a page of its own for it (Dungeon Bowl re-drafts first: DB-15): once
    every regular match of the newest season has its approved result, a new
    season with its settings (cadence GB-5, single or double round robin GB-4)
    and its entrants (Decision LG-3: the same coaches with the same teams, without
    divisions; the organiser adds or withdraws entrants before generating the
    fixtures; LG-4: not who withdrew, unless the organiser enters them again). A
    league without a season gets its first, empty. It starts today, or the day after
    the last round when that is later.

    The admin's add page names it and chooses its start (never before the day
    after the last round) and its schedule; left out, they are chosen as above."""
    require_organiser(league, by)
    today = today or datetime.date.today()
    # The league's row, locked: two clicks at once open one season (the second finds it).
    League.objects.select_for_update().filter(pk=league.pk).first()
    seasons = Season.objects.filter(league=league).order_by("-start_date", "-id")
    last = seasons.first()
    if last is not None and league.rules.own_next_season:
        raise ValidationError(f"A {league.rules.name} league opens its next season on its own page.")
    names = set(seasons.values_list("name", flat=True))
    number = len(names) + 1
    while f"Season {number}" in names:
        number += 1
    name = name.strip() or f"Season {number}"
    if name in names:
        raise ValidationError(f"{league} already has a season called {name}.")
    if start_date is not None:
        datebounds.validate_match_date(start_date)
    chosen = {key: value for key, value in (("cadence_days", cadence_days), ("double_round_robin", double_round_robin))
              if value is not None}
    if last is None:
        return Season.objects.create(league=league, name=name, start_date=start_date or today, **chosen)
    if not last.rounds.exists():
        raise ValidationError(f"{last.name} has no fixtures yet: generate them, or add its entrants, before a next season.")
    unplayed = Fixture.objects.filter(round__season=last).regular().unplayed().count()
    if unplayed:
        raise ValidationError(
            f"{last.name} is not over: {unplayed} match{'es' if unplayed != 1 else ''} still without an approved result."
        )
    after = (last.rounds.order_by("-date").values_list("date", flat=True).first() or today) + datetime.timedelta(days=1)
    if start_date is not None and start_date < after:
        raise ValidationError(f"{name} starts after the last round of {last.name}: on {after:%d %b %Y} or later.")
    season = Season.objects.create(
        league=league, name=name, start_date=start_date or max(today, after),
        **{"cadence_days": last.cadence_days, "double_round_robin": last.double_round_robin, **chosen},
    )
    stayed = last.entries.filter(withdrawn_at__isnull=True)  # LG-4
    Entry.objects.bulk_create(
        Entry(season=season, coach_id=coach_id, team=team)
        for coach_id, team in stayed.order_by("pk").values_list("coach_id", "team")
    )
    season_writes.changed(season)  # bulk writes send no signals
    facts.record(fact.ENTRANTS_CARRIED_OVER, by=by, season=season, concerns={"from_season": last.pk})
    return season

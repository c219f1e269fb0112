"""The demo Guild Ball league that ``manage.py quickstart`` loads.

Ten coaches in a single round robin (GB-4), the first four rounds played and
approved, the fifth part-way through the workflow: some results reported and
waiting for the opponent's confirmation, one confirmed and waiting for the
organiser's approval. Every result goes through ``league.services``, as on the
site, so each fixture has its history and anything that hangs off an approval
(a campaign's Favours) follows. The schedule and scores come from a fixed seed;
the dates follow today, so round 5 is this week's round.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from league import services
from league.models import Coach, Entry, Fixture, League, Season
from league.permissions import make_organiser

DEMO_SLUG = "harbour-lights"
DEMO_LEAGUE = "Harbour Lights Big League"
DEMO_SEASON = "Season One"
DEMO_SEED = 20260907

ORGANISER_USERNAME = "longshanks"
ORGANISER_PASSWORD = "longshanks-demo"
COACH_PASSWORD = "coach-demo"  # every demo coach's account
COACH_USERNAME = "ada"  # the coach account quickstart prints

PLAYED_ROUNDS = 4
CURRENT_ROUND = 5

# Display name, username, Guild (RULES.md catalogue), a hidden strength that
# makes the table worth reading.
COACHES = [
    ("Ada Blackwater", "ada", "Fisherman's", 6),
    ("Bram Coldiron", "bram", "Mason's", 7),
    ("Cassia Vane", "cassia", "Alchemist's", 5),
    ("Dunstan Hale", "dunstan", "Brewer's", 6),
    ("Elske Marrow", "elske", "Mortician's", 4),
    ("Fenwick Rook", "fenwick", "Hunter's", 5),
    ("Greta Hask", "greta", "Butcher's", 8),
    ("Hollis Sprocket", "hollis", "Engineer's", 3),
    ("Ines Coinworth", "ines", "The Union", 6),
    ("Zoë O'Brien", "zoe", "Fisherman's", 4),
]


@dataclass(frozen=True)
class Credentials:
    username: str
    password: str
    role: str


ORGANISER = Credentials(ORGANISER_USERNAME, ORGANISER_PASSWORD, "organiser (the Longshanks; staff, admin at /admin/)")
COACH = Credentials(COACH_USERNAME, COACH_PASSWORD, f"coach ({COACHES[0][0]}, with a result to confirm)")


def demo_loaded() -> bool:
    return League.objects.filter(slug=DEMO_SLUG).exists()


@transaction.atomic
def load_demo(*, today: datetime.date | None = None) -> League | None:
    """Create the demo league and its accounts; None when it is already there, so
    running it again changes nothing."""
    if demo_loaded():
        return None
    today = today or timezone.localdate()
    this_monday = today - datetime.timedelta(days=today.weekday())
    rng = random.Random(DEMO_SEED)

    organiser = _account(ORGANISER_USERNAME, ORGANISER_PASSWORD, first_name="Longshanks")
    make_organiser(organiser)
    league = League.objects.create(
        name=DEMO_LEAGUE,
        slug=DEMO_SLUG,
        vp_target=12,
        description="A demo Guild Ball: The Big League campaign loaded by quickstart.",
    )
    league.organisers.add(organiser)
    season = Season.objects.create(
        league=league,
        name=DEMO_SEASON,
        start_date=this_monday - datetime.timedelta(weeks=CURRENT_ROUND - 1),
    )
    strength = {}
    for name, username, guild, skill in COACHES:
        user = _account(username, COACH_PASSWORD, first_name=name.split()[0])
        coach, _ = Coach.objects.get_or_create(
            name=name, defaults={"user": user, "email": f"{username}@example.com", "created_by": organiser}
        )
        if coach.user_id is None:
            coach.user = user
            coach.save(update_fields=["user"])
        if username == COACH_USERNAME:
            coach_account = coach
        entry = Entry.objects.create(season=season, coach=coach, team=guild)
        strength[entry.pk] = skill

    rounds = services.generate_fixtures(season=season, by=organiser, seed=DEMO_SEED)
    fixtures = {
        rnd.number: list(Fixture.objects.filter(round=rnd).select_related("home__coach__user", "away__coach__user"))
        for rnd in rounds
    }
    for number in range(1, PLAYED_ROUNDS + 1):
        for index, fixture in enumerate(fixtures[number]):
            if number == 3 and index == 0:
                # GB-6: one match that could not be finished, a loss for both.
                services.record_result(
                    fixture=fixture, by=organiser, home_score=6, away_score=4, abandoned=True,
                    reason="Venue closed early; abandoned at 6-4.",
                )
                continue
            result = _report(fixture, rng, strength)
            services.confirm_result(result=result, by=_user_of(fixture, _other(result.reported_side)))
            services.approve_result(result=result, by=organiser)

    # The current round, part-way through: the coach account has a report to
    # confirm, another report waits on its opponent, one waits on the organiser,
    # the rest are approved.
    current = sorted(fixtures[CURRENT_ROUND], key=lambda f: f.side_of(coach_account) is None)
    stages = ["to_confirm", "to_confirm", "confirmed"] + ["approved"] * (len(current) - 3)
    for fixture, stage in zip(current, stages):
        side = fixture.side_of(coach_account)
        result = _report(fixture, rng, strength, side=_other(side) if side else None)
        if stage == "to_confirm":
            continue
        services.confirm_result(result=result, by=_user_of(fixture, _other(result.reported_side)))
        if stage == "approved":
            services.approve_result(result=result, by=organiser)
    return league


def _account(username: str, password: str, **fields):
    user, created = get_user_model().objects.get_or_create(
        username=username, defaults={"email": f"{username}@example.com", **fields}
    )
    if created:
        user.set_password(password)
        user.save(update_fields=["password"])
    return user


def _report(fixture: Fixture, rng: random.Random, strength: dict[int, int], side: str | None = None):
    """A valid GB-8 score (the winner on 12 to 15 VP, the loser below), reported by
    ``side`` or by the winner."""
    home, away = strength[fixture.home_id], strength[fixture.away_id]
    home_wins = rng.random() < home / (home + away)
    winner = rng.choice((12, 12, 12, 13, 14, 15))
    loser = rng.randint(0, 11)
    home_score, away_score = (winner, loser) if home_wins else (loser, winner)
    side = side or ("home" if home_wins else "away")
    return services.report_result(
        fixture=fixture, by=_user_of(fixture, side), home_score=home_score, away_score=away_score
    )


def _user_of(fixture: Fixture, side: str):
    return fixture.entry_for(side).coach.user


def _other(side: str) -> str:
    return "away" if side == "home" else "home"

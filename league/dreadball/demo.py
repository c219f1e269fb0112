"""The demo DreadBall league that ``manage.py quickstart`` loads.

Six coaches, three playing the Draconis All-Stars and three the Ninth Moon Tree
Sharks (DR-5), each with a roster; the first three rounds reported, confirmed and
approved through ``league.services.results`` (a landslide in Rush 9, a Sudden Death draw,
a Sudden Death win among them), and in round 4 the demo coach has a report from
their opponent waiting for confirmation.

The rosters' stats and costs are demo numbers chosen by a coach, not the boxed
Team Cards (the seed rulebook does not list them).
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone

from league.services import results as services
from league.services import seasons as season_services
from league.services.demo import COACH_PASSWORD, ORGANISER_PASSWORD, ORGANISER_USERNAME, Credentials
from league.services.demo import account as _account
from league.layers import DemoReport
from league.dreadball import services as team_services
from league.dreadball.models import DreadBallSettings, TeamType
from league.models import Coach, Entry, Fixture, League, Season
from league.permissions import make_organiser

DEMO_SLUG = "neon-dome"
DEMO_LEAGUE = "Neon Dome DreadBall League"
DEMO_SEASON = "Season One"
DEMO_SEED = 20261130
COACH_USERNAME = "dreadball"
PLAYED_ROUNDS = 3
CURRENT_ROUND = 4

ALL_STARS = "Draconis All-Stars"
TREE_SHARKS = "Ninth Moon Tree Sharks"

# Coach, username, team name, published team.
COACHES = [
    ("Dana Voss", COACH_USERNAME, "Voss Voltage", ALL_STARS),
    ("Kaito Mercer", "kaito", "Mercer Machines", ALL_STARS),
    ("Orla Quint", "orla", "Quint Circuit", ALL_STARS),
    ("Tavi Rell", "tavi", "Rell Riptide", TREE_SHARKS),
    ("Yara Okonkwo", "yara", "Okonkwo Canopy", TREE_SHARKS),
    ("Bex Harrow", "bex", "Harrow Fins", TREE_SHARKS),
]

# Name, role, Move, Strength, Agility, Speed, Skill, Armour, cost (mc): demo numbers.
ROSTERS = {
    ALL_STARS: [
        ("Romeo Blue", "striker", 6, 5, 4, 4, 3, 5, 12),
        ("Whiskey Rose", "jack", 5, 4, 4, 4, 4, 4, 11),
        ("Tango Grey", "jack", 5, 4, 4, 4, 4, 4, 11),
        ("Bravo Steel", "guard", 4, 3, 5, 5, 6, 3, 10),
        ("Delta Iron", "guard", 4, 3, 5, 5, 6, 3, 10),
        ("Echo Chrome", "striker", 6, 5, 4, 4, 3, 5, 12),
    ],
    TREE_SHARKS: [
        ("T'tana", "jack", 5, 4, 3, 4, 4, 5, 11),
        ("Na'huatl", "jack", 5, 4, 3, 4, 4, 5, 11),
        ("Da'nogo", "guard", 5, 3, 4, 4, 5, 4, 10),
        ("Ix'chel", "striker", 6, 5, 3, 3, 3, 5, 12),
        ("Mo'ana", "striker", 6, 5, 3, 3, 3, 5, 12),
        ("Ka'lani", "guard", 5, 3, 4, 4, 5, 4, 10),
    ],
}

# Per played round, one result per fixture in the order generated: (winner as
# "home"/"away"/"draw", difference, Rush, Sudden Death). Every line passes DR-3.
SCRIPT = {
    1: [("home", 7, 9, False), ("home", 2, 14, False), ("away", 3, 14, False)],
    2: [("draw", 0, 16, True), ("away", 7, 12, False), ("home", 1, 16, True)],
    3: [("home", 4, 14, False), ("away", 2, 14, False), ("home", 7, 14, False)],
}

ORGANISER = Credentials(ORGANISER_USERNAME, ORGANISER_PASSWORD, "organiser of the DreadBall league too")
COACH = Credentials(
    COACH_USERNAME, COACH_PASSWORD, f"DreadBall coach ({COACHES[0][0]}, with a round {CURRENT_ROUND} result to confirm)"
)


def demo_loaded() -> bool:
    return League.objects.filter(slug=DEMO_SLUG).exists()


def demo_accounts() -> list[Credentials]:
    return [COACH]


def load() -> DemoReport:
    """The demo for ``quickstart`` (league.layers): load it once and say what was done."""
    if demo_loaded():
        return DemoReport(f"The demo league {DEMO_LEAGUE} is already loaded; nothing added.", False, DEMO_SLUG)
    load_demo()
    return DemoReport(
        f"Loaded the demo league {DEMO_LEAGUE}: {len(COACHES)} DreadBall coaches and their teams, "
        f"{PLAYED_ROUNDS} rounds played, round {CURRENT_ROUND} under way.",
        True,
        DEMO_SLUG,
    )


def quickstart_accounts() -> list[tuple[str, str, str]]:
    return [(c.role, c.username, c.password) for c in demo_accounts()]


@transaction.atomic
def load_demo(*, today: datetime.date | None = None) -> list[Credentials]:
    """Create the demo DreadBall league once (running it again adds nothing) and
    return the accounts to print."""
    if demo_loaded():
        return demo_accounts()
    today = today or timezone.localdate()
    this_monday = today - datetime.timedelta(days=today.weekday())
    organiser = _account(ORGANISER_USERNAME, ORGANISER_PASSWORD, first_name="Morgan")
    make_organiser(organiser)
    league = League.objects.create(
        name=DEMO_LEAGUE, slug=DEMO_SLUG, game_system="dreadball",
        description="A demo DreadBall league loaded by quickstart.",
    )
    league.organisers.add(organiser)
    DreadBallSettings.objects.create(league=league)  # DR-4 defaults 3/2/1/0
    season = Season.objects.create(
        league=league, name=DEMO_SEASON, start_date=this_monday - datetime.timedelta(weeks=CURRENT_ROUND - 1)
    )
    types = {t.name: t for t in TeamType.objects.filter(name__in=ROSTERS, league__isnull=True)}
    demo_coach = None
    for name, username, team_name, team_type in COACHES:
        user = _account(username, COACH_PASSWORD, first_name=name.split()[0])
        coach, _ = Coach.objects.get_or_create(
            name=name, defaults={"user": user, "email": f"{username}@example.com", "created_by": organiser}
        )
        entry = Entry.objects.create(season=season, coach=coach)
        team = team_services.register_team(entry=entry, name=team_name, team_type=types[team_type], by=user)
        for player, role, move, strength, agility, speed, skill, armour, cost in ROSTERS[team_type]:
            team_services.add_player(
                team=team, by=user, name=player, role=role, move=move, strength=strength, agility=agility,
                speed=speed, skill=skill, armour=armour, cost=cost,
            )
        if username == COACH_USERNAME:
            demo_coach = coach

    rounds = season_services.generate_fixtures(season=season, by=organiser, seed=DEMO_SEED)
    for rnd in rounds[:PLAYED_ROUNDS]:
        fixtures = list(Fixture.objects.filter(round=rnd).select_related("home__coach__user", "away__coach__user"))
        for fixture, (winner, difference, rush, sudden_death) in zip(fixtures, SCRIPT[rnd.number]):
            reporter = "away" if winner == "away" else "home"
            result = services.report_result(
                fixture=fixture, by=fixture.entry_for(reporter).coach.user,
                winner=winner, difference=difference, rush=rush, sudden_death=sudden_death,
            )
            other = "home" if reporter == "away" else "away"
            services.confirm_result(result=result, by=fixture.entry_for(other).coach.user)
            services.approve_result(result=result, by=organiser)

    # Round 4: the demo coach's opponent has reported; the demo coach confirms or disputes.
    current = Fixture.objects.involving(demo_coach).select_related("home__coach__user", "away__coach__user").get(
        round=rounds[CURRENT_ROUND - 1]
    )
    opponent = "away" if current.side_of(demo_coach) == "home" else "home"
    services.report_result(
        fixture=current, by=current.entry_for(opponent).coach.user,
        winner=opponent, difference=3, rush=14, sudden_death=False,
    )
    return demo_accounts()

"""One league world with all three games, for the reliability suites:
the role matrix (R1), the fuzzing (R3) and backup and restore (R6).

It is the quickstart demo of every layer (the Big League on Guild Ball, Dungeon
Bowl, DreadBall: built through the services, so every ledger, dice roll and
result agrees), plus a second organiser running a league of their own and a coach
who plays in no league. Each game names the people the matrix needs: the coach a
fixture waits on (a report from their opponent to confirm), a coach of the same
league who is not in that fixture, and the organiser."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass

from django.apps import apps
from django.contrib.auth.models import User
from django.db import connection, connections, transaction
from django.db.models import Q
from django.test import Client, override_settings
from django.urls import reverse

from campaigns.models import CampaignCoach, Loan
from league.services.demo import ORGANISER_USERNAME, load_demos
from league.models import Coach, Fixture, League, Result
from league.permissions import make_organiser
from tests.support.factories import CoachFactory, LeagueFactory, SeasonFactory, UserFactory

# The game, its league and the coach concerned: the demo league and coach for
# the Big League and DreadBall (league/*/demo.py); Dungeon Bowl's demo season is
# over, so a league of its own is played here up to a report waiting (live_dungeon_bowl).
DEMOS = {
    "guildball": ("harbour-lights", "ada"),
    "dungeonbowl": ("altdorf-live", "coachofteam01"),
    "dreadball": ("neon-dome", "dreadball"),
}
GAMES = list(DEMOS)


@dataclass(frozen=True)
class Game:
    name: str
    league: League
    fixture: Fixture  # waits on ``right``'s confirmation of the opponent's report
    right: Coach  # the coach the fixture, the coach page and the team belong to
    wrong: Coach  # a coach of the same league who is not in the fixture
    open_fixture: Fixture  # a later fixture of ``right`` with no result yet
    approved_fixture: Fixture  # a fixture of ``right`` with an approved result


@dataclass(frozen=True)
class World:
    games: dict[str, Game]
    organiser: User  # organises every demo league
    rival: User  # organises a league of their own, none of the demo leagues
    nobody: User  # a coach with a login who plays in no league


def _game(name: str) -> Game:
    slug, username = DEMOS[name]
    league = League.objects.get(slug=slug)
    right = Coach.objects.get(user__username=username)
    result = (
        Result.objects.filter(fixture__round__season__league=league, status=Result.Status.REPORTED)
        .filter(Q(fixture__home__coach=right) | Q(fixture__away__coach=right))
        .select_related("fixture__home__coach", "fixture__away__coach")
        .get()
    )
    fixture = result.fixture
    assert fixture.side_of(right) == result.confirming_side, name
    wrong = (
        Coach.objects.filter(entries__season__league=league)
        .exclude(pk__in=[fixture.home.coach_id, fixture.away.coach_id])
        .filter(user__isnull=False)
        .order_by("name")
        .first()
    )
    theirs = Fixture.objects.filter(round__season__league=league, away__isnull=False).filter(
        Q(home__coach=right) | Q(away__coach=right)
    ).order_by("round__number", "pk")
    return Game(
        name=name, league=league, fixture=fixture, right=right, wrong=wrong,
        open_fixture=theirs.filter(result__isnull=True).first(),
        approved_fixture=theirs.filter(result__status=Result.Status.APPROVED).first(),
    )


def live_dungeon_bowl(organiser) -> None:
    """Four drafted teams in one round robin: the first coach's round 1 game
    approved, their round 2 game reported by the opponent and waiting on them,
    round 3 to play. Reports go through the report form (the post-game sequence)."""
    from django.test import Client

    from tests.dungeonbowl.builders import db_league, db_season
    from tests.dungeonbowl.postgame.test_postgame import post

    season = db_season(organiser, teams=4, league=db_league(organiser, slug="altdorf-live"))
    right = Coach.objects.get(name="Coach of Team 01")
    theirs = Fixture.objects.filter(round__season=season).filter(Q(home__coach=right) | Q(away__coach=right))
    client = Client()
    for number, approve in ((1, True), (2, False)):
        fixture = theirs.select_related("home__coach__user", "away__coach__user").get(round__number=number)
        reporter = fixture.away if fixture.home.coach_id == right.pk else fixture.home
        client.force_login(reporter.coach.user)
        response = client.post(reverse("league:report_result", args=[fixture.pk]), post(fixture))
        assert response.status_code == 302, response.content.decode()[:2000]
        if approve:
            client.force_login(organiser)
            response = client.post(reverse("league:approve_result", args=[fixture.pk]), {"reason": "Played"})
            assert response.status_code == 302, response.content.decode()[:2000]


def build_world() -> World:
    load_demos()
    live_dungeon_bowl(User.objects.get(username=ORGANISER_USERNAME))
    rival = UserFactory(username="rival")
    make_organiser(rival)
    SeasonFactory(league=LeagueFactory(name="Rival League", slug="rival-league", organisers=[rival]), name="Season 1")
    nobody = CoachFactory(name="Nobody Anywhere").user
    _loan_to_answer()
    return World(
        games={name: _game(name) for name in GAMES},
        organiser=User.objects.get(username=ORGANISER_USERNAME),
        rival=rival,
        nobody=nobody,
    )


def _loan_to_answer() -> None:
    """The demo's pending loan is not Ada's to answer: add one she is asked for,
    written as a row (the services' phase checks follow today's date)."""
    ada = CampaignCoach.objects.get(entry__coach__user__username=DEMOS["guildball"][1])
    # Her opponent in the fixture that waits on her: not the matrix's wrong coach.
    fixture = _game("guildball").fixture
    opponent = fixture.away if fixture.home.coach_id == ada.entry.coach_id else fixture.home
    borrower = CampaignCoach.objects.get(entry=opponent)
    Loan.objects.create(borrower=borrower, lender=ada, model_name="Friday", model_type="squaddie")


# The demo sets its accounts' passwords; PBKDF2 would take most of the build.
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@contextmanager
def rolled_back(django_db_blocker):
    """A transaction on every database, rolled back at the end, for rows a module's
    or package's fixture builds once: each test's own transaction is a savepoint
    inside it (as Django's ``TestCase.setUpTestData`` does), so tests see the rows
    and leave them as they were, and later test modules find the empty test
    database they expect."""
    with django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        atomics = [transaction.atomic(using=alias) for alias in connections]
        for atomic in atomics:
            atomic.__enter__()
        try:
            yield
        finally:
            for alias in connections:
                transaction.set_rollback(True, using=alias)
            for atomic in reversed(atomics):
                atomic.__exit__(None, None, None)


@contextmanager
def world_in_transaction(django_db_blocker):
    """The world built inside ``rolled_back``: tests see it and leave it as it was."""
    with rolled_back(django_db_blocker):
        yield build_world()


def logged_in_clients(world, users_of) -> dict[tuple[str, str], Client]:
    """A client per game and role, logged in once: ``users_of(world, game)`` maps
    each role to its user (None: anonymous). Call it inside the world's
    transaction (``django_db_blocker.unblock()``)."""
    made = {}
    for game in world.games:
        for role, user in users_of(world, game).items():
            client = Client()
            if user is not None:
                client.force_login(user)
            made[game, role] = client
    return made


# Tables a read may write: the log-in sessions, and the rate limits' counters (the
# API counts every request, per token or per address, league/api/access.py).
BOOKKEEPING = ("league_session", "league_throttle")


def row_counts() -> tuple[int, ...]:
    """Every table's row count but the bookkeeping's, in one query: whether a
    request wrote anything."""
    q = connection.ops.quote_name
    sql = "SELECT " + ", ".join(f"(SELECT COUNT(*) FROM {q(m._meta.db_table)})" for m in apps.get_models()
                                if m._meta.db_table not in BOOKKEEPING[1:])
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return tuple(cursor.fetchone())


def is_write(sql: str) -> bool:
    """A write statement, except to the bookkeeping's tables (logging in and out
    write the sessions; every API request counts against its rate limit)."""
    head = sql.lstrip()[:7].upper()
    return head.startswith(("INSERT", "UPDATE", "DELETE")) and not any(table in sql for table in BOOKKEEPING)

"""The demo Dungeon Bowl league that ``manage.py quickstart`` loads.

Eight teams, four of the College of Fire and four of the College of Shadows, in
two divisions that meet twice (six rounds). Every game is reported, confirmed and
approved through the services, so the post-game sequence has paid winnings and
the Treasure Room bonus, given SPP and MVP awards and put players out of the next
game. After round 3 the demo coach (``dungeon``) spent gold on a player and a
re-roll and SPP on a skill. Then the play-off season (DB-5b): ties at qualifying
places settled by a logged roll, the semi-finals, the final and the match for
third place, the prizes paid and the Trophy held (DB-14). Season One is over: the
league is in its off-season, where the re-draft (DB-15) can be tried. Every die
is rolled by the app and logged (DB-16).
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone

from league.services import results as engine
from league.services import seasons as season_services
from league.services.demo import COACH_PASSWORD, ORGANISER_PASSWORD, ORGANISER_USERNAME, Credentials
from league.services.demo import account as _account
from league.dungeonbowl.teams import player_rules, services
from league.dungeonbowl.playoffs import services as playoffs
from league.dungeonbowl.spending import services as spending
from league.dungeonbowl.models import (
    GAME_SYSTEM, College, DungeonBowlSettings, Player, PlayoffGame, Position, Skill, Team, TeamSeason,
)
from league.layers import DemoReport
from league.models import Coach, Fixture, League, Season
from league.permissions import make_organiser

DEMO_SLUG = "altdorf-colleges"
DEMO_LEAGUE = "Altdorf Colleges Dungeon Bowl League"
DEMO_SEASON = "Season One"
DEMO_SEED = 20270117
COACH_USERNAME = "dungeon"
SPENT_AFTER_ROUND = 3
ROUNDS = 6  # two divisions of four, meeting twice

FIRE_DRAFT = ["Troll Slayer", "Dwarf Blitzer", "Dwarf Runner", *["Dwarf Blocker Lineman"] * 4, "Gnoblar Lineman"]
SHADOWS_DRAFT = ["Dark Elf Blitzer", "Gutter Runner", "Dark Elf Runner", *["Dark Elf Lineman"] * 5]

# Coach, username, team, college slug, division.
TEAMS = [
    ("Hilde Brandt", COACH_USERNAME, "Karak Scorchers", "college-of-fire", "Ember Division"),
    ("Ulrika Vogt", "ulrika", "Grey Phantoms", "college-of-shadows", "Ember Division"),
    ("Gotri Hammerson", "gotri", "Bright Hammers", "college-of-fire", "Ember Division"),
    ("Lisette Marr", "lisette", "Veiled Knives", "college-of-shadows", "Ember Division"),
    ("Brokk Ironside", "brokk", "Ember Anvils", "college-of-fire", "Gloam Division"),
    ("Sable Thorn", "sable", "Dusk Runners", "college-of-shadows", "Gloam Division"),
    ("Durin Ashbeard", "durin", "Forge Wardens", "college-of-fire", "Gloam Division"),
    ("Nyx Calder", "nyx", "Mist Stalkers", "college-of-shadows", "Gloam Division"),
]

# A few Blood Bowl 2020 skills per category, for the demo coach's advancement.

ORGANISER = Credentials(ORGANISER_USERNAME, ORGANISER_PASSWORD, "organiser of the Dungeon Bowl league too")
COACH = Credentials(
    COACH_USERNAME, COACH_PASSWORD,
    f"Dungeon Bowl coach ({TEAMS[0][0]}, {TEAMS[0][2]}: {DEMO_SEASON} is over, the re-draft to try)",
)


def demo_loaded() -> bool:
    return League.objects.filter(slug=DEMO_SLUG).exists()


def quickstart_accounts() -> list[tuple[str, str, str]]:
    return [(COACH.role, COACH.username, COACH.password)]


def load() -> DemoReport:
    """The demo for ``quickstart`` (league.layers): load it once and say what was done."""
    if demo_loaded():
        return DemoReport(f"The demo league {DEMO_LEAGUE} is already loaded; nothing added.", False, DEMO_SLUG)
    load_demo()
    return DemoReport(
        f"Loaded the demo league {DEMO_LEAGUE}: {len(TEAMS)} Dungeon Bowl teams of both colleges in two "
        f"divisions, {DEMO_SEASON} played to the end with its post-game sequences and play-offs, the prizes "
        f"paid and the Trophy held; the off-season has begun.",
        True,
        DEMO_SLUG,
        note="Dungeon Bowl: the play-off bracket and honours are on the league page; the draft form, team pages, "
             "dice log and the coach's next steps are linked from the league page and /me/.",
    )


def _lines(players: list[Player], *, touchdowns: int, casualties: int, mvp: bool, injury: str = "") -> list[dict]:
    """A side's player lines: the first player scores, the second causes the
    casualties, the third is MVP, the last takes the injury."""
    lines = [{"player": p.pk, "touchdowns": 0, "completions": 0, "deflections": 0, "interceptions": 0,
              "casualties": 0, "mvp": False, "injury": "", "lasting": ""} for p in players[:4]]
    lines[0]["touchdowns"] = touchdowns
    lines[1]["casualties"] = casualties
    lines[2]["completions"] = 1
    lines[2]["mvp"] = mvp
    lines[3]["injury"] = injury
    return lines


@transaction.atomic
def load_demo(*, today: datetime.date | None = None) -> None:
    """Create the demo Dungeon Bowl league once; running it again adds nothing."""
    if demo_loaded():
        return
    today = today or timezone.localdate()
    this_monday = today - datetime.timedelta(days=today.weekday())
    organiser = _account(ORGANISER_USERNAME, ORGANISER_PASSWORD, first_name="Morgan")
    make_organiser(organiser)
    league = League.objects.create(name=DEMO_LEAGUE, slug=DEMO_SLUG, game_system=GAME_SYSTEM,
                                   description="A demo Dungeon Bowl college league loaded by quickstart.")
    league.organisers.add(organiser)
    DungeonBowlSettings.objects.create(league=league, casualty_bonus=True,
                                       playoffs=DungeonBowlSettings.Playoffs.TWO)
    # Six rounds and two of play-offs, the last of them last week.
    season = Season.objects.create(league=league, name=DEMO_SEASON, double_round_robin=True,
                                   start_date=this_monday - datetime.timedelta(weeks=ROUNDS + 2))
    colleges = {c.slug: c for c in College.objects.all()}
    divisions: dict[str, list] = {}
    for name, username, team_name, college, division in TEAMS:
        user = _account(username, COACH_PASSWORD, first_name=name.split()[0])
        coach, _ = Coach.objects.get_or_create(
            name=name, defaults={"user": user, "email": f"{username}@example.com", "created_by": organiser})
        team = services.submit_draft(
            league=league, coach=coach, name=team_name, college=colleges[college], rerolls=2, by=user,
            picks=FIRE_DRAFT if college == "college-of-fire" else SHADOWS_DRAFT,
        )
        services.lock_draft(team=team, by=organiser)
        divisions.setdefault(division, []).append(services.enter_team(team=team, season=season, by=organiser))
    season_services.set_season_divisions(season=season, by=organiser, divisions=divisions)
    rounds = season_services.generate_fixtures(season=season, by=organiser, seed=DEMO_SEED)

    teams = {ts.entry_id: ts.team for ts in TeamSeason.objects.filter(entry__season=season).select_related("team")}
    for rnd in rounds:
        fixtures = Fixture.objects.filter(round=rnd).select_related("home__coach__user", "away__coach__user")
        for index, fixture in enumerate(fixtures.order_by("pk")):
            _play(fixture, teams, organiser, draw=(rnd.number == 2 and index == 0),
                  injury="seriously_hurt" if rnd.number == SPENT_AFTER_ROUND and index == 0 else "")
        if rnd.number == SPENT_AFTER_ROUND:
            _spend(league)
    _play_offs(season, teams, organiser)


def _spend(league: League) -> None:
    """Gold spent after the games (DB-12) and SPP on a skill where the scorer has enough (DB-11)."""
    demo_team = Team.objects.get(league=league, coach__user__username=COACH_USERNAME)
    user = demo_team.coach.user
    spending.hire_player(team=demo_team, position=Position.objects.get(college=demo_team.college,
                                                                       name="Gnoblar Lineman"),
                         name="Snikkit", by=user)
    spending.buy_reroll(team=demo_team, by=user)
    scorer = demo_team.players.on_draft_list().select_related("position").order_by("-spp", "number").first()
    category = scorer.position.primary[:1].upper()
    # A skill of the list (DB-11) the scorer lacks: one of its primary category, or one
    # the list leaves uncategorised (learnt as that category).
    skill = (Skill.objects.filter(category__in=[category, ""]).exclude(name__in=scorer.skills)
             .order_by("-category", "name").first())
    if scorer.spp >= 6 and category in player_rules.SKILL_CATEGORIES and skill is not None:
        spending.advance_player(player=scorer, kind="chosen_primary", category=category, skill=skill.name, by=user)


def _play_offs(season: Season, teams, organiser) -> None:
    """DB-5b: ties at qualifying places settled by a roll each (logged, DB-16), the
    semi-finals, then the final and the match for third place, played like any
    game; approving the last pays the prizes (DB-14)."""
    season = Season.objects.select_related("league").get(pk=season.pk)
    for _ in range(len(TEAMS)):  # each settlement closes a tie; there are fewer ties than teams
        seeding, _rows = playoffs.current_seeding(season)
        if seeding.semi_finals is not None:
            break
        tie = seeding.ties[0]
        playoffs.settle_tie(season=season, by=organiser, teams=list(tie.teams), roll=True,
                            reason="Level on everything: settled by a D6 each")
    playoffs.start_playoffs(season=season, by=organiser)
    for slots in ((1, 2), (3, 4)):
        games = PlayoffGame.objects.filter(season=season, slot__in=slots).select_related(
            "fixture__home__coach__user", "fixture__away__coach__user").order_by("slot")
        for game in games:  # the final leaves a player hurt: R&R (DB-15) has someone to heal
            _play(game.fixture, teams, organiser, draw=False, injury="seriously_hurt" if game.slot == 3 else "")


def _side_players(fixture: Fixture, teams) -> dict[str, list[Player]]:
    return {
        side: list(teams[fixture.entry_for(side).pk].players.on_draft_list().filter(miss_next_game=False)
                   .order_by("number")[:4])
        for side in ("home", "away")
    }


def _play(fixture: Fixture, teams, organiser, *, draw: bool, injury: str) -> None:
    """Report (the winner's coach), confirm (the other) and approve a game."""
    players = _side_players(fixture, teams)
    winner = "home" if fixture.pk % 3 else "away"
    loser = "away" if winner == "home" else "home"
    facts = {
        "home_score": 0 if draw else int(winner == "home"), "away_score": 0 if draw else int(winner == "away"),
        "ending": "draw" if draw else "touchdown",
        "home_gather": fixture.pk % 4, "away_gather": 1, "home_journeymen": 0, "away_journeymen": 0, "dice": None,
        "players": {
            winner: _lines(players[winner], touchdowns=0 if draw else 1, casualties=fixture.pk % 3 + 1, mvp=True),
            loser: _lines(players[loser], touchdowns=0, casualties=1, mvp=True, injury=injury),
        },
    }
    result = engine.report_result(fixture=fixture, by=fixture.entry_for(winner).coach.user, **facts)
    engine.confirm_result(result=result, by=fixture.entry_for(loser).coach.user)
    engine.approve_result(result=result, by=organiser)

"""Teams, the Treasury ledger and the dice log through the draft service (DB-1,
DB-6, DB-8, DB-16), and the database's own bounds."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from league.dungeonbowl import dice
from league.dungeonbowl.teams import services
from league.dungeonbowl.models import College, DiceRoll, Player, Team, TreasuryLine
from league.dungeonbowl.teams.services import DraftPick
from tests.support.factories import CoachFactory, LeagueFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def db_league(organiser):
    return LeagueFactory(name="Altdorf Colleges", slug="altdorf", game_system="dungeonbowl", organisers=[organiser])


@pytest.fixture
def coach():
    return CoachFactory(name="Ulrika")


@pytest.fixture
def fire():
    return College.objects.get(slug="college-of-fire")


@pytest.fixture
def shadows():
    return College.objects.get(slug="college-of-shadows")


FIRE_DRAFT = [
    DraftPick("Troll Slayer", "Grimm", 7),
    DraftPick("Chaos Dwarf Flamesmith"),
    *["Dwarf Blocker Lineman"] * 5,
    "Gnoblar Lineman",
]  # 95,000 + 80,000 + 350,000 + 15,000 = 540,000


def draft(db_league, coach, fire, **kwargs):
    args = {"league": db_league, "coach": coach, "name": "Blazing Axes", "college": fire, "picks": FIRE_DRAFT,
            "rerolls": 3, "by": coach.user}
    return services.submit_draft(**{**args, **kwargs})


def test_a_draft_creates_the_team_its_players_and_opens_the_treasury(db_league, coach, fire):
    team = draft(db_league, coach, fire)
    assert (team.slug, team.rerolls, team.draft_budget, team.draft_locked) == ("blazing-axes", 3, 1_000_000, False)
    players = list(team.players.order_by("number").select_related("position"))
    assert [p.number for p in players] == [1, 2, 3, 4, 5, 6, 7, 8]
    grimm = team.players.get(name="Grimm")
    assert (grimm.number, grimm.ma, grimm.st, grimm.ag, grimm.pa, grimm.av, grimm.value) == (7, 5, 3, 4, None, 9, 95_000)
    assert team.players.get(number=1).name == "Chaos Dwarf Flamesmith"
    line = TreasuryLine.objects.get(team=team)
    assert (line.amount, line.kind, line.created_by) == (1_000_000 - 540_000 - 150_000, "draft", coach.user)
    assert "unspent 310,000 gp" in line.reason
    assert team.treasury() == 310_000
    assert team.value().team_value == 690_000


def test_a_refused_draft_says_why_and_writes_nothing(db_league, coach, fire):
    picks = ["Troll Slayer", "Troll Slayer", "Chaos Dwarf Flamesmith", *["Ogre Blocker"] * 3, *["Dwarf Blitzer"] * 2]
    with pytest.raises(ValidationError) as refused:
        draft(db_league, coach, fire, picks=picks, rerolls=8)
    assert refused.value.messages == [
        "0-2 Special: Troll Slayer and Chaos Dwarf Flamesmith together, you have 3 (1 too many).",
        "Over budget by 250,000 gp.",  # 270,000 + 420,000 + 160,000 + 400,000
    ]
    assert not Team.objects.exists() and not Player.objects.exists() and not TreasuryLine.objects.exists()


def test_bad_numbers_and_positions_of_another_college_are_refused(db_league, coach, fire):
    picks = [DraftPick("Dwarf Runner", number=4), DraftPick("Dwarf Runner", number=4), DraftPick("Gutter Runner", number=100)]
    with pytest.raises(ValidationError) as refused:
        draft(db_league, coach, fire, picks=picks)
    assert set(refused.value.messages) == {
        "Gutter Runner is not a position of the College of Fire.",
        "Player numbers run from 1 to 99, not 100.",
        "Two players cannot wear the same number: 4.",
    }
    for bad in (-1, 10_000_001, "1000"):
        with pytest.raises(ValidationError, match="draft budget"):
            draft(db_league, coach, fire, budget=bad)
    assert not Team.objects.exists()


def test_spending_every_coin_opens_the_treasury_at_zero(db_league, coach, shadows):
    team = draft(db_league, coach, shadows, picks=["Dark Elf Blitzer"] * 2, rerolls=0, budget=200_000)
    assert list(team.treasury_lines.values_list("amount", flat=True)) == [0]
    assert team.treasury() == 0


def test_who_may_submit(db_league, coach, fire, organiser):
    with pytest.raises(PermissionDenied):
        draft(db_league, coach, fire, by=UserFactory(username="stranger"))
    with pytest.raises(PermissionDenied):
        draft(db_league, coach, fire, by=None)
    team = draft(db_league, coach, fire, by=organiser)  # the commissioner enters a paper draft
    assert team.coach == coach and team.treasury_lines.get().created_by == organiser


def test_names_are_unique_in_a_league_and_the_league_must_be_dungeon_bowl(db_league, coach, fire):
    draft(db_league, coach, fire)
    with pytest.raises(ValidationError, match="already plays"):
        draft(db_league, CoachFactory(), fire, name="blazing axes!")
    with pytest.raises(ValidationError, match="letter or digit"):
        draft(db_league, coach, fire, name="!!!")
    guild_ball = LeagueFactory(organisers=[])
    with pytest.raises(ValidationError, match="not a Dungeon Bowl league"):
        draft(guild_ball, coach, fire)
    assert Team.objects.count() == 1


def test_resubmitting_replaces_the_players_and_reverses_the_treasury_line(db_league, coach, fire):
    team = draft(db_league, coach, fire)
    team = services.submit_draft(team=team, picks=["Ogre Blocker"] * 3, rerolls=0, budget=1_000_000, by=coach.user)
    assert list(team.players.values_list("position__name", flat=True)) == ["Ogre Blocker"] * 3
    amounts = sorted(team.treasury_lines.values_list("amount", flat=True))
    assert amounts == [-310_000, 310_000, 580_000]
    assert team.treasury() == 580_000
    reversal = team.treasury_lines.get(amount=-310_000)
    assert reversal.reverses.amount == 310_000


def test_the_commissioner_locks_a_submitted_draft(db_league, coach, fire, organiser):
    team = draft(db_league, coach, fire)
    with pytest.raises(PermissionDenied):
        services.lock_draft(team=team, by=coach.user)
    team = services.lock_draft(team=team, by=organiser)
    assert team.draft_locked and team.draft_locked_by == organiser
    with pytest.raises(ValidationError, match="already locked"):
        services.lock_draft(team=team, by=organiser)
    with pytest.raises(ValidationError, match="locked"):
        services.submit_draft(team=team, picks=["Ogre Blocker"], rerolls=0, by=coach.user)
    assert team.players.count() == 8 and team.treasury() == 310_000


def test_an_unsubmitted_draft_cannot_be_locked(db_league, coach, fire, organiser):
    team = Team.objects.create(league=db_league, coach=coach, college=fire, name="Empty", slug="empty")
    with pytest.raises(ValidationError, match="not submitted"):
        services.lock_draft(team=team, by=organiser)
    team = services.submit_draft(team=team, picks=["Gnoblar Lineman"], rerolls=0, by=coach.user)
    assert team.treasury() == 985_000 and team.treasury_lines.count() == 1


def test_current_team_value_and_the_trophy(db_league, coach, fire):
    team = draft(db_league, coach, fire)
    Player.objects.filter(name="Grimm").update(miss_next_game=True)
    Player.objects.filter(number=1).update(status=Player.Status.DEAD)  # the Flamesmith: history, not roster
    value = team.value(trophy=True)
    assert value.team_value == 690_000 - 80_000 + 50_000
    assert value.current_team_value == value.team_value - 95_000
    assert team.players.count() == 8 and team.players.on_draft_list().count() == 7


@pytest.mark.parametrize(
    "model,changes",
    [
        ("team", {"rerolls": 9}),
        ("player", {"ma": 0}),
        ("player", {"ag": 7}),
        ("player", {"av": 12}),
        ("player", {"number": 0}),
        ("player", {"advancements": 7}),
        ("player", {"status": "retired"}),
    ],
)
def test_the_database_refuses_out_of_bounds_numbers(db_league, coach, fire, model, changes):
    team = draft(db_league, coach, fire)
    obj = team if model == "team" else team.players.first()
    for field, value in changes.items():
        setattr(obj, field, value)
    with pytest.raises(IntegrityError), transaction.atomic():
        obj.save()


def test_numbers_are_unique_on_the_draft_list_only(db_league, coach, fire):
    team = draft(db_league, coach, fire)
    grimm = team.players.get(number=7)
    second = Player(team=team, name="Grimm II", number=7, position=grimm.position, ma=5, st=3, ag=4, pa=None, av=9)
    with pytest.raises(IntegrityError), transaction.atomic():
        second.save()
    grimm.status = Player.Status.DEAD
    grimm.save()
    second.save()  # the dead keep their number in history; the draft list reuses it
    assert team.players.filter(number=7).count() == 2


def test_treasury_lines_are_bounded(db_league, coach, fire):
    team = draft(db_league, coach, fire)
    for bad in (
        TreasuryLine(team=team, amount=0, kind="winnings", reason="nothing"),
        TreasuryLine(team=team, amount=10_000_001, kind="prize", reason="typo"),
        TreasuryLine(team=team, amount=10_000, kind="gift", reason="unknown kind"),
        TreasuryLine(team=team, amount=10_000, kind="prize", reason="half a cause", cause_id=4),
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            bad.save()


def test_dice_rolls_are_logged_by_the_app_or_entered_from_the_table(db_league, coach, fire, organiser):
    team = draft(db_league, coach, fire)
    line = team.treasury_lines.get()
    rolled = dice.record_roll(league=db_league, purpose="winnings", dice="2D6", team=team, cause=line)
    assert rolled.source == "app" and len(rolled.values) == 2 and all(1 <= v <= 6 for v in rolled.values)
    assert DiceRoll.objects.get(pk=rolled.pk).cause == line
    table = dice.record_roll(league=db_league, purpose="casualty", dice="D16", values=[16], by=organiser)
    assert (table.source, table.entered_by, table.total) == ("table", organiser, 16)
    with pytest.raises(ValidationError, match="1 numbers from 1 to 16"):
        dice.record_roll(league=db_league, purpose="casualty", dice="D16", values=[17], by=organiser)
    with pytest.raises(ValidationError, match="says who"):
        dice.record_roll(league=db_league, purpose="scouting", dice="D6", values=[6])
    with pytest.raises(ValidationError, match="written like"):
        dice.record_roll(league=db_league, purpose="scouting", dice="d20")
    with pytest.raises(ValidationError, match="Unknown purpose"):
        dice.record_roll(league=db_league, purpose="luck", dice="D6")
    assert DiceRoll.objects.count() == 2

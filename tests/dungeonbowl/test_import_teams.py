"""``manage.py import_teams``: a paper league's teams and drafts, atomic and
idempotent, a bad line refused with its number and nothing written."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from league.dungeonbowl.models import Player, Team, TeamSeason, TreasuryLine
from league.models import Coach, Division, Entry, League, Season
from tests.support.factories import with_organiser

pytestmark = pytest.mark.django_db

HEADER = "league,division,team,coach,college,rerolls,position,player"
FIRE = ["Troll Slayer", *["Dwarf Blocker Lineman"] * 10]  # 795,000 gp
SHADOWS = ["Dark Elf Blitzer", *["Dark Elf Lineman"] * 10]  # 800,000 gp


def team_lines(team: str, coach: str, college: str, division: str = "", *, picks=None, rerolls: int = 2,
               league: str = "Reikland Colleges") -> list[str]:
    picks = picks or (FIRE if college == "College of Fire" else SHADOWS)
    return [f"{league},{division},{team},{coach},{college},{rerolls},{position},{team[:3]} {i + 1}"
            for i, position in enumerate(picks)]


def league_file(tmp_path, lines: list[str], name: str = "teams.csv"):
    path = tmp_path / name
    path.write_text("\n".join([HEADER, *lines]) + "\n", encoding="utf-8")
    return path


def eight_teams() -> list[str]:
    lines = []
    for i in range(8):
        college = "College of Fire" if i % 2 == 0 else "College of Shadows"
        lines += team_lines(f"Team {i + 1}", f"Coach {i + 1}", college, "North" if i < 4 else "South")
    return lines


def run(path) -> str:
    from io import StringIO

    out = StringIO()
    call_command("import_teams", str(path), *with_organiser(()), stdout=out)
    return out.getvalue()


def snapshot() -> tuple:
    return (League.objects.count(), Season.objects.count(), Division.objects.count(), Coach.objects.count(),
            Team.objects.count(), Player.objects.count(), Entry.objects.count(), TreasuryLine.objects.count())


def test_a_league_in_two_divisions_is_imported_once(tmp_path):
    path = league_file(tmp_path, eight_teams())
    out = run(path)
    assert "1 league(s), 1 season(s), 2 division(s), 8 coach(es), 8 team(s) with 88 player(s), 8 entr(ies)" in out
    league = League.objects.get()
    assert (league.slug, league.game_system) == ("reikland-colleges", "dungeonbowl")
    assert league.dungeonbowl_settings.draft_budget == 1_000_000
    team = Team.objects.get(name="Team 1")
    assert (team.college.name, team.coach.name, team.rerolls, team.draft_locked) == ("College of Fire", "Coach 1", 2, True)
    assert team.treasury() == 1_000_000 - 795_000 - 100_000
    assert list(team.players.order_by("number").values_list("number", "name")[:2]) == [(1, "Tea 1"), (2, "Tea 2")]
    entry = TeamSeason.objects.get(team=team).entry
    assert (entry.season.name, entry.division.name, entry.team) == ("Imported", "North", "Team 1")
    before = snapshot()
    assert "already up to date; nothing changed" in run(path)
    assert snapshot() == before


def test_no_divisions_and_positions_in_any_case(tmp_path):
    lines = [line.replace("Troll Slayer", "troll slayer") for line in team_lines("Flames", "Ann", "College of Fire")]
    lines += team_lines("Shades", "Bob", "College of Shadows")
    lines += team_lines("Embers", "Cid", "College of Fire") + team_lines("Shadows", "Dee", "College of Shadows")
    run(league_file(tmp_path, lines))
    assert Division.objects.count() == 0 and Entry.objects.filter(division__isnull=True).count() == 4
    assert Team.objects.get(name="Flames").players.filter(position__name="Troll Slayer").count() == 1


@pytest.mark.parametrize(
    ("mutate", "line", "reason"),
    [
        (lambda ls: [line.replace("College of Fire", "College of Ice") if ",Team 1," in line else line for line in ls], 2,
         "there is no college called College of Ice"),
        (lambda ls: ls[:5] + [ls[5].replace("Dwarf Blocker Lineman", "Ogre Chef")] + ls[6:], 7,
         "Ogre Chef is not a position of the College of Fire"),
        (lambda ls: ls + team_lines("Team 9", "Coach 9", "College of Fire", "South",
                                    picks=["Troll Slayer"] * 3), 92,
         "Team 9's draft is refused: 0-2 Special: Troll Slayer and Chaos Dwarf Flamesmith together, you have 3"),
        (lambda ls: ls + team_lines("Rich", "Coach R", "College of Fire", "South", picks=["Ogre Blocker"] * 3 + ["Dwarf Blocker Lineman"] * 9), 101,
         "Over budget by"),
        (lambda ls: ls[:4] + [ls[4].replace(",2,", ",3,")] + ls[5:], 6, "Team 1's rerolls is 2 on line 2, 3 here"),
        (lambda ls: ls[:4] + [ls[4].replace(",Coach 1,", ",Someone,")] + ls[5:], 6, "Team 1's coach is Coach 1"),
        (lambda ls: ls + team_lines("Team 10", "Coach 1", "College of Fire", "South"), 90,
         "Coach 1 already coaches Team 1 in Reikland Colleges (line 2)"),
        (lambda ls: [line.replace(",South,", ",,") if "Team 8" in line else line for line in ls], 79,
         "Team 8 has no division while other teams"),
        (lambda ls: [line.replace(",South,", ",West,") if "Team 8" in line else line for line in ls], 78,
         "division South has 3 teams"),
        (lambda ls: ls[:1] + [ls[1].replace(",2,", ",nine,")] + ls[2:], 3, "rerolls must be a whole number"),
        (lambda ls: ls[:1] + [ls[1].replace(",2,", ",9,")] + ls[2:], 3, "a team has 0 to 8 re-rolls"),
        (lambda ls: ls[:2] + [ls[2] + ",extra"] + ls[3:], 4, "more fields than the header's 8"),
    ],
)
def test_a_bad_line_is_refused_with_its_number_and_nothing_is_written(tmp_path, mutate, line, reason):
    path = league_file(tmp_path, mutate(eight_teams()))
    with pytest.raises(CommandError) as error:
        run(path)
    assert f"line {line}: " in str(error.value) and reason in str(error.value), str(error.value)
    assert str(error.value).endswith("Nothing was imported.")
    assert snapshot() == (0, 0, 0, 0, 0, 0, 0, 0)


def test_a_changed_team_is_refused_on_a_second_import(tmp_path):
    run(league_file(tmp_path, eight_teams()))
    before = snapshot()
    changed = [line.replace(",2,", ",1,") if line.split(",")[2] == "Team 3" else line for line in eight_teams()]
    with pytest.raises(CommandError, match="line 24: Team 3 already exists with 2 re-rolls; change it on the site"):
        run(league_file(tmp_path, changed, "again.csv"))
    assert snapshot() == before


def test_a_bad_header_is_line_1(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("league,team,coach\nX,Y,Z\n", encoding="utf-8")
    with pytest.raises(CommandError, match="line 1: missing column\\(s\\) division, college, rerolls, position, player"):
        run(path)


def test_two_leagues_of_the_files_name_are_refused_not_one_picked(tmp_path, django_user_model):
    """The teams import finds its league as the results import does
    (importer.find_league): a name two leagues share is refused at the first line
    that names it, and nothing is written."""
    organiser = django_user_model.objects.create_user("organiser")
    for slug in ("reikland-north", "reikland-south"):
        League.objects.create(name="Reikland Colleges", slug=slug, game_system="dungeonbowl").organisers.add(organiser)
    before = snapshot()
    with pytest.raises(CommandError, match="line 2: more than one league is called Reikland Colleges"):
        call_command("import_teams", str(league_file(tmp_path, eight_teams())), "--by", "organiser")
    assert snapshot() == before

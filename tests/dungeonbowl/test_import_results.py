"""``manage.py import_results`` on a Dungeon Bowl league: the game's header (status
in the middle) recognised with or without --game, results approved with the whole
post-game sequence, casualty totals in the standings, atomic and idempotent."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from league.dungeonbowl.models import DiceRoll, Team, TreasuryLine
from league.models import Fixture, Result, Season
from league.standings.season import standings_for
from tests.dungeonbowl.test_import_teams import eight_teams, league_file
from tests.support.factories import with_organiser

pytestmark = pytest.mark.django_db

HEADER = "league,round,home,away,home_td,away_td,home_cas,away_cas,status,dice,home_gather,away_gather"
ROUND_1 = [
    "Reikland Colleges,1,Team 1,Team 2,1,0,2,1,played,5 3,1,0",
    "Reikland Colleges,1,Team 3,Team 4,0,0,0,0,played,2 6,0,0",
    "Reikland Colleges,1,Team 5,Team 6,0,1,0,3,conceded,,0,3",
    "Reikland Colleges,1,Team 7,Team 8,,,,,unplayed,,,",
]


def results_file(tmp_path, lines, name="results.csv"):
    path = tmp_path / name
    path.write_text("\n".join([HEADER, *lines]) + "\n", encoding="utf-8")
    return path


def run(path, *args) -> str:
    out = StringIO()
    call_command("import_results", str(path), *with_organiser(args), stdout=out)
    return out.getvalue()


@pytest.fixture
def teams(tmp_path):
    call_command("import_teams", str(league_file(tmp_path, eight_teams())), *with_organiser(()), stdout=StringIO())
    return {team.name: team for team in Team.objects.all()}


def gold(teams) -> dict[str, int]:
    return {name: team.treasury() for name, team in teams.items()}


def snapshot() -> tuple:
    return (Fixture.objects.count(), Result.objects.count(), TreasuryLine.objects.count(), DiceRoll.objects.count())


def test_results_are_approved_with_their_post_game_sequence(tmp_path, teams):
    before = gold(teams)
    out = run(results_file(tmp_path, ROUND_1))  # no --game: the league exists and is Dungeon Bowl
    assert "4 fixture(s) created; 4 result(s) recorded" in out
    assert Result.objects.filter(status=Result.Status.APPROVED).count() == 4
    after = gold(teams)
    gained = {name: after[name] - before[name] for name in teams}
    assert gained["Team 1"] == 50_000 + 10_000  # the higher die and the Treasure Room bonus for 1 player
    assert gained["Team 2"] == 30_000
    assert (gained["Team 3"], gained["Team 4"]) == (20_000, 60_000)  # a draw: home D6, then away D6
    assert gained["Team 5"] == 0  # conceded: no winnings
    app_roll = DiceRoll.objects.get(team=teams["Team 6"], purpose="winnings")
    assert app_roll.source == "app" and gained["Team 6"] == max(app_roll.values) * 10_000 + 20_000
    assert (gained["Team 7"], gained["Team 8"]) == (0, 0)
    table = DiceRoll.objects.get(team=teams["Team 1"], purpose="winnings")
    assert (table.values, table.source, table.entered_by.username) == ([5, 3], "table", "importing")

    rows = {row.team: row for row in standings_for(Season.objects.get(name="Imported"))}
    assert (rows["Team 1"].lp, rows["Team 1"].stats["cas_for"], rows["Team 2"].stats["cas_for"]) == (3, 2, 1)
    assert (rows["Team 6"].lp, rows["Team 6"].stats["cas_for"], rows["Team 6"].stats["td_for"]) == (3, 3, 1)
    assert (rows["Team 5"].lost, rows["Team 7"].lost, rows["Team 8"].lost, rows["Team 8"].lp) == (1, 1, 1, 0)
    assert rows["Team 3"].drawn == 1 and rows["Team 3"].lp == 1
    # Team totals give no player SPP: nobody is named.
    assert not teams["Team 6"].players.filter(spp__gt=0).exists()

    before_again = (snapshot(), gold(teams))
    assert "already up to date; nothing changed" in run(results_file(tmp_path, ROUND_1, "again.csv"),
                                                        "--game", "dungeonbowl")
    assert (snapshot(), gold(teams)) == before_again


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("Reikland Colleges,2,Team 1,Team 3,2,0,0,0,played,,0,0", "ends with that touchdown: 1–0, not 2–0"),
        ("Reikland Colleges,2,Team 1,Team 3,0,0,0,0,conceded,,0,0", "a conceded game is recorded 1-0"),
        ("Reikland Colleges,2,Team 1,Team 3,1,0,0,0,played,7 1,0,0", "Winnings dice are two numbers from 1 to 6"),
        ("Reikland Colleges,2,Team 1,Team 3,1,0,0,0,abandoned,,0,0", "unknown status 'abandoned'; use played, unplayed or conceded"),
        ("Reikland Colleges,2,Team 1,Team 3,1,0,x,0,played,,0,0", "home_cas must be a whole number"),
        ("Reikland Colleges,2,Team 1,Team 3,1,0,0,0,unplayed,,0,0", "an unplayed fixture records nothing: leave home_td empty"),
        ("Reikland Colleges,2,Team 1,Nobody,1,0,0,0,played,,0,0", "has no team called Nobody; import the teams first"),
        ("Reikland Colleges,1,Team 1,Team 2,0,1,0,0,played,,0,0", "already has a different result 1-0"),
    ],
)
def test_a_bad_line_is_refused_with_its_number_and_nothing_is_written(tmp_path, teams, line, reason):
    run(results_file(tmp_path, ROUND_1))
    before = (snapshot(), gold(teams))
    with pytest.raises(CommandError) as error:
        run(results_file(tmp_path, ["Reikland Colleges,2,Team 2,Team 4,1,0,0,0,played,,0,0", line], "bad.csv"))
    assert "bad.csv, line 3: " in str(error.value) and reason in str(error.value), str(error.value)
    assert (snapshot(), gold(teams)) == before


def test_the_header_names_the_game_of_a_new_league(tmp_path, teams):
    """No such league yet and no --game: the header is Dungeon Bowl's, so the refusal
    is Dungeon Bowl's (its teams must be imported first), not Guild Ball's columns."""
    path = results_file(tmp_path, ["Nuln Colleges,1,Red,Blue,1,0,0,0,played,,0,0"])
    with pytest.raises(CommandError, match="line 2: Nuln Colleges has no team called Blue; import the teams first"):
        run(path)
    assert not Result.objects.exists()

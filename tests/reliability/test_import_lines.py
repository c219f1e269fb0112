"""A bad import line is refused, never a 500: a line with a huge number, a
1 MB field, a NUL byte or an over-long name is refused as "line N: reason" and
nothing is stored (SQLite would store a name past its column's length), for the
results import of every game and the Dungeon Bowl teams import; so are a round
past 200, a round dated past league/datebounds.py's range, a --start out of range
and an over-long --season."""

from __future__ import annotations

from io import StringIO

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command

from league.models import Coach, Fixture, League, Result, Round, Season
from tests.support.factories import with_organiser

pytestmark = pytest.mark.django_db

GB = "league,round,home,away,home_vp,away_vp,status"
GB_CP = "league,round,home,away,home_vp,away_vp,status,home_cp,away_cp"
DR = "league,round,home,away,winner,difference,rush,sudden_death,status"
TEAMS = "league,team,coach,college,division,rerolls,position,player"
OK_GB = "Harbour Cup,1,Ada,Bea,12,8,played"
MODELS = (League, Season, Coach, Round, Fixture, Result)


def counts():
    return {model.__name__: model.objects.count() for model in MODELS}


def refused(tmp_path, command: str, lines: list[str], *args) -> str:
    path = tmp_path / "file.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = counts()
    with pytest.raises(CommandError) as error:
        call_command(command, str(path), *with_organiser(args), stdout=StringIO())
    assert counts() == before, "nothing is stored"
    message = str(error.value)
    assert "Traceback" not in message and len(message) < 600
    return message


@pytest.mark.parametrize(
    "line,reason",
    [
        ("Harbour Cup,1,Ada,Bea,99999999999999999999,8,played", "home_vp is too large"),
        ("Harbour Cup,1,Ada,Bea," + "9" * 5000 + ",8,played", "home_vp is too large"),
        ("Harbour Cup,1,Ada,Bea,40000,8,played", "more than 99 VP"),
        ("Harbour Cup,99999,Ada,Bea,12,8,played", "round number must be from 1 to 1000"),
        ("Harbour Cup,1001,Ada,Bea,12,8,played", "round number must be from 1 to 1000"),
        ("Harbour Cup,1," + "A" * 101 + ",Bea,12,8,played", "longer than 100 characters"),
        ("Harbour Cup,1,Ada,Bea,12,8," + "x" * 100_000, "unknown status"),
        ("Harbour Cup,1,Ada\x00Eve,Bea,12,8,played", "NUL byte"),
        ("Harbour Cup,1,Ada,Bea,12,8,played\x00", "NUL byte"),
        ("Harbour Cup,1,Ada," + "B" * 1_000_000 + ",12,8,played", "cannot be read as CSV"),
    ],
)
def test_a_bad_guild_ball_line_is_refused_with_its_number(tmp_path, line, reason):
    message = refused(tmp_path, "import_results", [GB, OK_GB, line])
    assert "line 3: " in message and reason in message, message


def test_huge_cp_in_the_big_league_columns_is_refused(tmp_path):
    message = refused(tmp_path, "import_results", [GB_CP, "Harbour Cup,1,Ada,Bea,12,8,played,5000000,0"])
    assert "line 2: " in message and "between -1000 and 1000" in message, message


def test_a_bad_dreadball_line_is_refused_with_its_number(tmp_path):
    message = refused(tmp_path, "import_results", [DR, "Rush Hour,1,Ada,Bea,home," + "7" * 30 + ",10,no,played"], "--game", "dreadball")
    assert "line 2: " in message and "too large" in message, message


def test_a_bad_dungeon_bowl_team_line_is_refused_with_its_number(tmp_path):
    lines = [TEAMS, "Altdorf,Reds,Ada,College of Fire,,2,Human Thrower,Gil", "Altdorf,Blues,Bea\x00,College of Fire,,2,Human Thrower,"]
    message = refused(tmp_path, "import_teams", lines)
    assert "line 3: " in message and "NUL byte" in message, message
    lines = [TEAMS, "Altdorf,Reds,Ada,College of Fire,,2" + "2" * 5000 + ",Human Thrower,Gil"]
    message = refused(tmp_path, "import_teams", lines)
    assert "line 2: " in message and "rerolls" in message, message


def test_a_round_dated_past_the_bound_is_refused(tmp_path):
    message = refused(tmp_path, "import_results", [GB, "Harbour Cup,3,Ada,Bea,12,8,played"], "--start", "2200-12-20")
    assert "line 2: " in message and "Round 3 would fall on" in message, message


@pytest.mark.parametrize(
    "args,reason",
    [(("--start", "9999-12-31"), "--start: Enter a date between"), (("--season", "S" * 101), "--season")],
)
def test_season_options_out_of_bounds_are_refused(tmp_path, args, reason):
    message = refused(tmp_path, "import_results", [GB, OK_GB], *args)
    assert reason in message, message

"""Each import format, fuzzed (R3): ``import_results`` for every game (with the Big
League's ``home_cp,away_cp`` columns on Guild Ball) and Dungeon Bowl's
``import_teams``. A file either imports or stops with "line N: reason" (a
CommandError); never a traceback, and a refused file writes nothing."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.management import CommandError, call_command
from hypothesis import given, note
from hypothesis import strategies as st

from league.dungeonbowl.importing import COLUMNS as TEAM_COLUMNS
from league.spreadsheets.files import ENGINE_COLUMNS
from league.rules import GAMES as RULES
from tests.fuzz.conftest import Attempt
from tests.fuzz.test_forms import DATES, NUMBERS, TEXT
from tests.support.world import GAMES
from tests.support.factories import with_organiser

NAMES = st.sampled_from(["Fuzz League", "Harbour Lights Big League", "Neon Dome DreadBall League",
                         "Altdorf Colleges Dungeon Bowl League", "Ada Blackwater", "Dana Voss", "Hilde Brandt",
                         "Coach A", "Coach B", "Coach C", "Coach D", "karak scorchers"])
SMALL = st.integers(min_value=0, max_value=20).map(str)
CELLS = {
    "round": st.one_of(SMALL, NUMBERS),
    "status": st.sampled_from(["played", "abandoned", "scheduled", "unplayed", "conceded", "PLAYED", ""]),
    "winner": st.sampled_from(["home", "away", "draw", ""]),
    "sudden_death": st.sampled_from(["yes", "no", "true", "false", "1", "0", ""]),
    "dice": st.sampled_from(["3,4", "6 6", "1", "", "2,2,2"]),
    "college": st.sampled_from(["College of Fire", "College of Shadows", "college-of-fire", "Nope"]),
    "position": st.sampled_from(["Troll Slayer", "Dwarf Blitzer", "Dwarf Runner", "Dwarf Blocker Lineman",
                                 "Gnoblar Lineman", "Dark Elf Lineman", "Gutter Runner"]),
    "division": st.sampled_from(["", "North", "South"]),
}


def cell(column: str) -> st.SearchStrategy:
    plausible = CELLS.get(column) or (NAMES if column in ("league", "home", "away", "team", "coach", "player")
                                      else st.one_of(SMALL, SMALL, NUMBERS))
    return st.one_of(plausible, plausible, plausible, TEXT, NUMBERS, DATES)


def csv_file(header: list[str], rows: list[list[str]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def files(columns: tuple[str, ...]) -> st.SearchStrategy:
    """A header (now and then with a column dropped or made up) and up to 8 lines."""
    header = st.one_of(
        st.just(list(columns)), st.just(list(columns)), st.just(list(columns)),
        st.permutations(list(columns)).map(lambda cols: cols[:-1] if len(cols) > 4 else cols),
        st.just([*columns, "extra"]),
    )
    return header.flatmap(
        lambda head: st.lists(st.tuples(*[cell(c) for c in head]).map(list), max_size=8).map(
            lambda rows: csv_file(head, rows)
        )
    )


def _import(tmp_path, text: str, command: str, *args: str) -> str | None:
    """Import ``text``: None when it imports, else the refusal."""
    path = tmp_path / "file.csv"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    note(text[:3000])
    args = with_organiser(args)  # the organiser exists before the attempt is watched
    with Attempt() as attempt:
        try:
            call_command(command, str(path), *args, stdout=io.StringIO(), stderr=io.StringIO())
            refused = None
        except CommandError as error:
            refused = str(error)
            note(f"refused: {error}")
    assert refused is not None or not attempt.unplain, (
        f"an import wrote text a backup cannot hold: {attempt.unplain}"
    )
    if refused is not None:
        # The import's own transaction may have run statements before the bad line:
        # what counts is that nothing stays (every table's row count as before).
        assert not attempt.changed, f"a refused import left rows behind: {attempt.writes}"
    return refused


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("by", ["", "longshanks"])
def test_import_results_files(game, by, world, tmp_path):
    rules = RULES[game]
    columns = (*ENGINE_COLUMNS, *rules.import_columns, "status")
    if game == "guildball":
        columns = (*columns, "home_cp", "away_cp")
    args = ["--game", game] + (["--by", by] if by else [])

    @given(text=files(columns))
    def fuzz(text):
        _import(tmp_path, text, "import_results", *args)

    fuzz()


@pytest.mark.django_db
@pytest.mark.parametrize("by", ["", "longshanks"])
def test_import_teams_files(by, world, tmp_path):
    args = ["--by", by] if by else []

    @given(text=files(TEAM_COLUMNS))
    def fuzz(text):
        _import(tmp_path, text, "import_teams", *args)

    fuzz()


# Oversized and NUL-bearing files, with and without --game ----------------

DAMAGE = st.sampled_from(["\x00", "a\x00b", "\x00" * 3, "B" * 140_000, '"' + "C" * 140_000 + '"', "é" * 70_000])


def damaged(columns: tuple[str, ...]) -> st.SearchStrategy:
    """A file with a NUL byte or a field past the csv module's 128 KB put anywhere:
    the header, the first row (read to guess the game) or a later one."""
    return st.tuples(files(columns), st.floats(min_value=0, max_value=1), DAMAGE).map(
        lambda f: f[0][: int(len(f[0]) * f[1])] + f[2] + f[0][int(len(f[0]) * f[1]):]
    )


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["", *GAMES])
def test_import_results_of_oversized_and_nul_bearing_files(game, world, tmp_path):
    rules = RULES[game or "guildball"]
    columns = (*ENGINE_COLUMNS, *rules.import_columns, "status")
    if game in ("", "guildball"):
        columns = (*columns, "home_cp", "away_cp")
    args = ["--game", game] if game else []

    @given(text=damaged(columns))
    def fuzz(text):
        refused = _import(tmp_path, text, "import_results", *args)
        assert refused is None or ", line " in refused or "has a header but no rows" in refused, refused

    fuzz()


@pytest.mark.django_db
def test_import_teams_of_oversized_and_nul_bearing_files(world, tmp_path):
    @given(text=damaged(TEAM_COLUMNS))
    def fuzz(text):
        refused = _import(tmp_path, text, "import_teams")
        assert refused is None or ", line " in refused or "has a header but no rows" in refused, refused

    fuzz()

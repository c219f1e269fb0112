"""Imports that stopped with a traceback instead of "line N: reason"
(a field past the csv module's 128 KB in the first lines without ``--game``, a NUL
byte in the first row's league name, which PostgreSQL cannot compare) and a Big
League file with CP columns that SQLite could not import from 250 lines on
("Expression tree is too large" in ``versions.deferred``). Run on PostgreSQL too
(DATABASE_URL)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db.models import Q

from campaigns.models import CampaignPointLine
from league.caching import versions
from league.models import Coach, Fixture, League, Result, Season
from tests.support.factories import LeagueFactory, with_organiser

pytestmark = pytest.mark.django_db

GB_CP = "league,round,home,away,home_vp,away_vp,status,home_cp,away_cp"
MODELS = (League, Season, Coach, Fixture, Result)
BIG_FIELD = "B" * 140_000  # past the csv module's field_size_limit of 131,072


def counts():
    return {model.__name__: model.objects.count() for model in MODELS}


def refused(tmp_path, text: str, *args) -> str:
    path = tmp_path / "file.csv"
    path.write_text(text, encoding="utf-8")
    before = counts()
    with pytest.raises(CommandError) as error:
        call_command("import_results", str(path), *with_organiser(args), stdout=StringIO())
    assert counts() == before, "nothing is stored"
    message = str(error.value)
    assert len(message) < 600, message
    return message


@pytest.mark.parametrize("game", [[], ["--game", "guildball"]])
def test_a_field_past_128_kb_in_the_first_row_is_refused_with_its_line(tmp_path, game):
    message = refused(tmp_path, f"{GB_CP}\nHarbour Cup,1,Ada,{BIG_FIELD},12,8,played,,\n", *game)
    assert "line 2: the line cannot be read as CSV" in message, message


def test_a_field_past_128_kb_in_the_header_is_refused_with_its_line(tmp_path):
    message = refused(tmp_path, f"league,{BIG_FIELD}\nHarbour Cup,1\n")
    assert "line 1: the line cannot be read as CSV" in message, message


def test_a_nul_in_the_first_rows_league_name_is_refused_with_its_line(tmp_path):
    """Without --game the league the first row names was looked up before the line
    was read: PostgreSQL's DataError (a traceback)."""
    message = refused(tmp_path, f"{GB_CP}\nHarbour\x00Cup,1,Ada,Bea,12,8,played,,\n")
    assert "line 2: the league field holds a NUL byte" in message, message


def test_a_league_name_longer_than_any_in_the_first_row_is_refused_with_its_line(tmp_path):
    """Found by the fuzzing: without --game a 70,000-character name was looked up
    (SQLite: "LIKE or GLOB pattern too complex", once a league is there to compare)."""
    LeagueFactory(name="Harbour Cup", slug="harbour-cup")
    message = refused(tmp_path, f"{GB_CP}\n{'é' * 70_000},1,Ada,Bea,12,8,played,,\n")
    assert "line 2: the league name is longer than 120 characters" in message, message


def test_a_nul_in_the_header_is_refused_with_its_line(tmp_path):
    message = refused(tmp_path, f"league\x00,round,home,away,home_vp,away_vp,status\nHarbour Cup,1,Ada,Bea,12,8,played\n")
    assert "line 1: the header holds a NUL byte" in message, message


def big_league_file(lines: int, coaches: int = 40) -> str:
    """A round robin of ``coaches`` (the circle method), ``lines`` results with CP."""
    names = [f"Coach {i:03d}" for i in range(coaches)]
    out, rot, number = [GB_CP], names[1:], 0
    while len(out) <= lines:
        number += 1
        circle = [names[0], *rot]
        out += [f"Harbour Cup,{number},{circle[i]},{circle[-1 - i]},12,8,played,3,1" for i in range(coaches // 2)]
        rot = rot[-1:] + rot[:-1]
    return "\n".join(out[: lines + 1]) + "\n"


def test_a_big_league_file_of_260_lines_with_cp_imports(tmp_path):
    path = tmp_path / "big.csv"
    path.write_text(big_league_file(260), encoding="utf-8")
    call_command("import_results", str(path), *with_organiser(()), stdout=StringIO())
    assert Result.objects.count() == 260
    assert CampaignPointLine.objects.filter(kind="adjustment").count() == 520


def test_deferred_bumps_of_thousands_of_rows_are_a_few_updates(django_assert_max_num_queries, season):
    """The bumps an import collects are merged by lookup (``versions.merged``), not
    one OR of thousands of conditions."""
    version = season.version
    with django_assert_max_num_queries(2):
        with versions.deferred():
            for i in range(3000):
                versions.bump(Q(pk=season.pk) if i % 2 else Q(rounds__fixtures__pk=10**6 + i))
    season.refresh_from_db()
    assert season.version != version

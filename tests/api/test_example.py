"""docs/api.md's worked example (docs/examples/print_table.py) run against the live
test server: it prints the table the league page shows, and its ``fetch`` gets 304
for an unchanged table."""

from __future__ import annotations

import importlib.util
import pathlib
import subprocess
import sys

import pytest

from tests.support.builders import season_with_results
from tests.support.factories import LeagueFactory, SeasonFactory

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "docs" / "examples" / "print_table.py"


def test_the_docs_show_the_script_as_it_is():
    assert SCRIPT.read_text() in (SCRIPT.parents[1] / "api.md").read_text()


def _example():
    spec = importlib.util.spec_from_file_location("print_table", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_example_prints_the_leagues_table(live_server):
    league = LeagueFactory(slug="midlands", name="Midlands Big League", game_system="guildball")
    season_with_results(coaches=4, played_rounds=2, season=SeasonFactory(league=league, name="Season 1"))
    printed = subprocess.run([sys.executable, str(SCRIPT), live_server.url, "midlands"], capture_output=True,
                             text=True, timeout=60, check=True).stdout.splitlines()
    assert printed[0] == "midlands - Season 1"
    assert len(printed) == 2 + 4
    feed = _example().fetch(f"{live_server.url}/leagues/midlands/standings.json")[0]["standings"]
    assert [line.split()[1] for line in printed[2:]] == [row["coach"].split()[0] for row in feed]
    example = _example()
    body, etag = example.fetch(f"{live_server.url}/api/v1/leagues/midlands/standings/")
    assert body["standings"] and etag
    assert example.fetch(f"{live_server.url}/api/v1/leagues/midlands/standings/", etag) == (None, etag)

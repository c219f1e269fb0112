"""docs/examples/report_result.py, the documented example, reports a result
against a running server with a token, and says why when it is refused."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from league.api import tokens
from league.models import Result
from tests.api.conftest import bearer

SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "examples" / "report_result.py"


def _script():
    spec = importlib.util.spec_from_file_location("report_result", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_example_reports_a_result(live_server, gb_fixture, monkeypatch, capsys):
    script = _script()
    _, token = tokens.create_token(user=gb_fixture.home.coach.user, name="example", scopes=["report"])
    monkeypatch.setenv("LEAGUE_API", live_server.url)
    monkeypatch.setenv("LEAGUE_TOKEN", token)
    assert script.main(["report_result.py", str(gb_fixture.pk), "12", "8"]) == 0
    assert f"Fixture {gb_fixture.pk}: 12 – 8, reported" in capsys.readouterr().out
    assert Result.objects.get(fixture=gb_fixture).summary == "12 – 8"
    # Sent again with its key, the first answer comes back and nothing is written twice.
    again = script.report(live_server.url, token, gb_fixture.pk, 12, 8, key="same")
    assert script.report(live_server.url, token, gb_fixture.pk, 12, 8, key="same") == again
    # Refused: the page's message, and a non-zero exit.
    other = bearer(gb_fixture.away.coach.user, "read")["Authorization"].removeprefix("Bearer ")
    monkeypatch.setenv("LEAGUE_TOKEN", other)
    assert script.main(["report_result.py", str(gb_fixture.pk), "12", "8"]) == 1
    assert "may not report" in capsys.readouterr().out

"""DreadBall: the opponent's own report, sent late from a phone that
had no signal, confirms the first when it says the same (DR-3 facts included) and
disputes it otherwise (GB-8 Decision, every game)."""

import pytest

from league.services import results as services

pytestmark = pytest.mark.django_db

FIRST = {"winner": "home", "difference": 2, "rush": 14, "sudden_death": False}


@pytest.mark.parametrize(
    ("second", "status"),
    [(FIRST, "confirmed"), ({**FIRST, "difference": 3}, "disputed"), ({**FIRST, "winner": "away"}, "disputed")],
)
def test_the_opponents_report_confirms_or_disputes(dr_fixture, second, status):
    services.report_result(fixture=dr_fixture, by=dr_fixture.home.coach.user, **FIRST)
    result = services.report_result(fixture=dr_fixture, by=dr_fixture.away.coach.user, **second)
    assert result.status == status and result.summary == "2–0"
    if status == "disputed":
        assert result.proposed_facts == second

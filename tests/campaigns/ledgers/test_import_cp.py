"""CP from the spreadsheet import's optional home_cp,away_cp columns, via
``campaigns.ledgers.imports.record_match_cp``; Favours of imported results follow GB-18."""

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError

from campaigns.ledgers import balances, imports
from campaigns.ledgers.balances import favour_balance
from campaigns.models import CampaignCoach, CampaignPointLine, LineKind, MomentUnlock
from league.models import League
from league.services import results as league_services
from tests.support.factories import FixtureFactory
from tests.spreadsheets.test_command import GOOD, HEADER, counts, run, write

pytestmark = pytest.mark.django_db


def test_imported_cp_are_organiser_lines_and_idempotent(season, organiser):
    fixture = FixtureFactory(round__season=season)
    result = league_services.record_result(
        fixture=fixture, by=organiser, home_score=12, away_score=8, reason="Imported from league.csv, line 2"
    )
    assert imports.record_match_cp(result=result, home_cp=25, away_cp=0, by=organiser, source="league.csv, line 2") == 1
    home = fixture.home.campaign_coach
    line = CampaignPointLine.objects.get(coach=home)
    assert (line.kind, line.amount, line.result, line.created_by) == (LineKind.ADJUSTMENT, 25, result, organiser)
    assert "league.csv, line 2" in line.reason
    # 25 CP reaches Planning (GB-12); the match Favours came through the hook (GB-18).
    assert MomentUnlock.objects.filter(coach=home, threshold=20).exists()
    assert balances.favour_balance(home) == 1 and balances.favour_balance(fixture.away.campaign_coach) == 3
    # The same file again adds nothing; another figure is refused.
    assert imports.record_match_cp(result=result, home_cp=25, away_cp=None, by=organiser, source="again") == 0
    with pytest.raises(ValidationError, match="already has 25 CP imported"):
        imports.record_match_cp(result=result, home_cp=30, away_cp=None, by=organiser, source="changed")
    # A correction on the site keeps the imported CP (only match and card lines are reversed).
    league_services.record_result(fixture=fixture, by=organiser, home_score=8, away_score=12, reason="swapped")
    assert balances.cp_total(home) == 25 and balances.favour_balance(home) == 3


CP_FILE = [
    HEADER + ",home_cp,away_cp",
    "Harbour Cup,1,Zoë O'Brien,Renée d'Arc,12,8,played,15,5",
    "Harbour Cup,1,Brother Cask,Mags Ironhand,4,14,played,,10",
    "Harbour Cup,2,Zoë O'Brien,Brother Cask,,,scheduled,,",
]


@pytest.mark.django_db
def test_cp_columns_are_recorded_as_organiser_lines_gb11(tmp_path):
    path = write(tmp_path, CP_FILE)
    run(path)
    totals = {cc.name: balances.cp_total(cc) for cc in CampaignCoach.objects.select_related("entry__coach")}
    assert totals == {"Zoë O'Brien": 15, "Renée d'Arc": 5, "Brother Cask": 0, "Mags Ironhand": 10}
    lines = CampaignPointLine.objects.filter(kind="adjustment")
    assert lines.count() == 3
    assert all(line.result_id is not None and "results.csv, line" in line.reason for line in lines)
    # Favours follow GB-18 as for any result.
    favours = {cc.name: favour_balance(cc) for cc in CampaignCoach.objects.select_related("entry__coach")}
    assert favours == {"Zoë O'Brien": 1, "Renée d'Arc": 3, "Brother Cask": 3, "Mags Ironhand": 1}

    before = counts(), CampaignPointLine.objects.count()
    run(path)
    assert (counts(), CampaignPointLine.objects.count()) == before


@pytest.mark.django_db
def test_changed_cp_on_reimport_is_refused_and_nothing_written(tmp_path):
    run(write(tmp_path, CP_FILE))
    changed = [CP_FILE[0], CP_FILE[1].replace(",15,5", ",20,5"), CP_FILE[2]]
    before = CampaignPointLine.objects.count()
    with pytest.raises(CommandError, match="line 2: .*already has 15 CP imported"):
        run(write(tmp_path, changed, name="changed.csv"))
    assert CampaignPointLine.objects.count() == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("row", "reason"),
    [
        ("Harbour Cup,1,Zoë O'Brien,Renée d'Arc,12,8,played,-5,0", "home_cp cannot be negative"),
        ("Harbour Cup,1,Zoë O'Brien,Renée d'Arc,12,8,played,ten,0", "home_cp must be a whole number"),
        ("Harbour Cup,1,Zoë O'Brien,Renée d'Arc,,,scheduled,5,", "a scheduled fixture has gained no CP"),
    ],
)
def test_bad_cp_is_refused_with_line(tmp_path, row, reason):
    with pytest.raises(CommandError, match=f"line 2: {reason}"):
        run(write(tmp_path, [CP_FILE[0], row]))
    assert not League.objects.exists()


@pytest.mark.django_db
def test_imported_results_earn_favours_as_on_the_site_gb18(tmp_path):
    run(write(tmp_path, GOOD))

    balances = {cc.name: favour_balance(cc) for cc in CampaignCoach.objects.select_related("entry__coach")}
    # Round 1: winners +1, losers +3. Round 2 abandoned (GB-6): a loss for both, +3
    # each, and Brother Cask (0 LP) played Zoë (3 LP), a coach with more LP: +1.
    assert balances == {"Zoë O'Brien": 4, "Renée d'Arc": 3, "Mags Ironhand": 1, "Brother Cask": 7}

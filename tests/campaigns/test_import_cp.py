"""CP from the spreadsheet import's optional home_cp,away_cp columns (issue 3), via
``campaigns.services.record_match_cp``; Favours of imported results follow GB-18."""

import pytest
from django.core.exceptions import ValidationError

from campaigns import services
from campaigns.models import CampaignPointEntry, EntryKind, MomentUnlock
from league import services as league_services
from tests.factories import FixtureFactory

pytestmark = pytest.mark.django_db


def test_imported_cp_are_organiser_entries_and_idempotent(season, organiser):
    fixture = FixtureFactory(round__season=season)
    result = league_services.record_result(
        fixture=fixture, by=organiser, home_score=12, away_score=8, reason="Imported from league.csv, line 2"
    )
    assert services.record_match_cp(result=result, home_cp=25, away_cp=0, by=organiser, source="league.csv, line 2") == 1
    home = fixture.home.campaign_coach
    entry = CampaignPointEntry.objects.get(coach=home)
    assert (entry.kind, entry.amount, entry.result, entry.created_by) == (EntryKind.ADJUSTMENT, 25, result, organiser)
    assert "league.csv, line 2" in entry.reason
    # 25 CP reaches Planning (GB-12); the match Favours came through the hook (GB-18).
    assert MomentUnlock.objects.filter(coach=home, threshold=20).exists()
    assert services.favour_balance(home) == 1 and services.favour_balance(fixture.away.campaign_coach) == 3
    # The same file again adds nothing; another figure is refused.
    assert services.record_match_cp(result=result, home_cp=25, away_cp=None, by=organiser, source="again") == 0
    with pytest.raises(ValidationError, match="already has 25 CP imported"):
        services.record_match_cp(result=result, home_cp=30, away_cp=None, by=organiser, source="changed")
    # A correction on the site keeps the imported CP (only match and card lines are reversed).
    league_services.record_result(fixture=fixture, by=organiser, home_score=8, away_score=12, reason="swapped")
    assert services.cp_total(home) == 25 and services.favour_balance(home) == 3

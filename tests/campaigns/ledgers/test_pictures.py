"""The coach's campaign page in pictures: CP over the season with the Moment
thresholds, Favours earned and spent, ledger lines dated by their match."""

import pytest
from django.urls import reverse

from campaigns.ledgers import services as ledgers
from tests.campaigns.factories import fixture_between, make_campaign, play, user_of

pytestmark = pytest.mark.django_db


def test_cp_and_favours_pictures_on_the_coach_page(client, season, organiser):
    a, b = make_campaign(season, 2, organiser=organiser)[:2]
    fixture = fixture_between(a, b)
    play(fixture, winner=a, organiser=organiser)
    ledgers.adjust(coach=a, ledger="cp", amount=45, reason="bonus", by=organiser)
    client.force_login(user_of(a))
    page = client.get(reverse("campaigns:coach_page", args=[season.league.slug, a.entry.coach_id])).content.decode()
    assert '<title id="cp-title">Campaign Points: 45</title>' in page
    assert "Moments reached: Plotting, Planning, Opening Gambit. Next: Best Laid Plans at 60 CP." in page
    assert '<title id="favours-title">Favours: 1 earned, 0 spent</title>' in page
    # The match's Favour line is dated by its round, not by when it was written.
    history = page.split("Favours history")[1]
    assert f"<td>{fixture.round} <span class=\"muted\">" in history
    assert "style=" not in page

"""The Big League's panel on the organiser's dashboard: Moments waiting for the
Longshanks (GB-13), confirmed from there and back to the dashboard."""

import pytest
from django.urls import reverse

from campaigns.ledgers import services as ledgers
from campaigns.models import MomentUnlock
from tests.campaigns.factories import make_campaign

pytestmark = pytest.mark.django_db


def test_moments_to_confirm_are_listed_and_confirmed_from_the_dashboard(client, season, organiser):
    a, b = make_campaign(season, 2, organiser=organiser)[:2]
    ledgers.adjust(coach=a, ledger="cp", amount=60, reason="test", by=organiser)
    waiting = MomentUnlock.objects.filter(coach=a, confirmed_at__isnull=True, threshold__gt=0).order_by("threshold")
    assert waiting.exists()
    dashboard = reverse("league:organiser_dashboard", args=[season.league.slug])
    client.force_login(organiser)
    page = client.get(dashboard).content.decode()
    assert "Moments to confirm" in page and a.entry.coach.name in page and "Best Laid Plans" in page
    assert b.entry.coach.name not in page.split("Moments to confirm")[1]
    unlock = waiting.get(threshold=60)
    response = client.post(
        reverse("campaigns:confirm_unlock", args=[season.league.slug, unlock.pk]), {"next": dashboard}
    )
    assert response.status_code == 302 and response["Location"] == dashboard
    unlock.refresh_from_db()
    assert unlock.confirmed_at is not None
    # An address elsewhere is not followed: back to the coach's page instead.
    other = waiting.exclude(pk=unlock.pk).first()
    response = client.post(
        reverse("campaigns:confirm_unlock", args=[season.league.slug, other.pk]), {"next": "https://evil.example/"}
    )
    assert response["Location"] == reverse("campaigns:coach_page", args=[season.league.slug, a.entry.coach_id])


def test_no_panel_for_another_game(client, organiser):
    from tests.support.factories import LeagueFactory, SeasonFactory

    league = LeagueFactory(game_system="dreadball", organisers=[organiser])
    SeasonFactory(league=league)
    client.force_login(organiser)
    assert "Moments to confirm" not in client.get(reverse("league:organiser_dashboard", args=[league.slug])).content.decode()


@pytest.mark.parametrize("back", ["0", "league:league_list", "campaigns:campaign_table"])
def test_a_next_that_is_no_address_goes_to_the_coach_page(client, season, organiser, back):
    """Found by the fuzzing: a view name or a bare word in ``next`` was
    looked up as a view after the Moment was confirmed, a 500."""
    a = make_campaign(season, 2, organiser=organiser)[0]
    ledgers.adjust(coach=a, ledger="cp", amount=60, reason="test", by=organiser)
    unlock = MomentUnlock.objects.get(coach=a, threshold=60)
    client.force_login(organiser)
    response = client.post(reverse("campaigns:confirm_unlock", args=[season.league.slug, unlock.pk]), {"next": back})
    assert response.status_code == 302
    assert response["Location"] == reverse("campaigns:coach_page", args=[season.league.slug, a.entry.coach_id])
    unlock.refresh_from_db()
    assert unlock.confirmed_at is not None


def test_the_home_page_counts_moments_to_confirm_for_the_organiser(client, season, organiser, other_organiser):
    a = make_campaign(season, 2, organiser=organiser)[0]
    client.force_login(organiser)
    assert "moments to confirm" not in client.get(reverse("league:league_list")).content.decode()
    ledgers.adjust(coach=a, ledger="cp", amount=20, reason="test", by=organiser)
    page = client.get(reverse("league:league_list")).content.decode()
    assert "1 to do" in page and "1 moment to confirm" in page
    client.force_login(other_organiser)
    assert "moment to confirm" not in client.get(reverse("league:league_list")).content.decode()
    client.force_login(a.entry.coach.user)
    assert "moment to confirm" not in client.get(reverse("league:league_list")).content.decode()


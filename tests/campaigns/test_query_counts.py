"""Every campaign page costs a fixed number of queries, whatever the campaign's
size: the same bound holds for 4 coaches and for 40 (STYLE habit 4)."""

import datetime

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import Sponsorship
from league.models import Fixture
from tests.campaigns.factories import base_deck, make_campaign, play, starting_card, user_of

pytestmark = pytest.mark.django_db

BOUNDS = {"table": 13, "json": 13, "coach_own": 33, "coach_organiser": 29, "fixture": 22}


def build(season, organiser, n):
    coaches = make_campaign(season, n, organiser=organiser)
    for f in Fixture.objects.filter(round__number=1, round__season=season):
        play(f, winner=f.home.campaign_coach, organiser=organiser)
    for cc in coaches:
        services.adjust(coach=cc, ledger="favours", amount=5, reason="grant", by=organiser)
        services.adjust(coach=cc, ledger="cp", amount=25, reason="bonus", by=organiser)
        services.choose_starting_card(coach=cc, card=starting_card(cc), by=user_of(cc))
        services.buy_sponsorship(coach=cc, sponsorship=Sponsorship.objects.first(), by=user_of(cc))
        nxt = services.phase_for(cc).next_fixture
        Fixture.objects.filter(pk=nxt.pk).update(date=datetime.date.today() + datetime.timedelta(days=3))
        services.register_deck(coach=cc, fixture=nxt, cards=base_deck(), by=user_of(cc))
    a, b = coaches[0], coaches[1]
    services.request_loan(borrower=a, lender=b, model_name="Friday", model_type="squaddie", by=user_of(a))
    return coaches


@pytest.mark.parametrize("n", [4, 40])
def test_pages_at_a_fixed_number_of_queries(client, season, organiser, django_assert_max_num_queries, n):
    coaches = build(season, organiser, n)
    a = coaches[0]
    fixture = services.phase_for(a).next_fixture
    slug = season.league.slug
    with django_assert_max_num_queries(BOUNDS["table"]):
        assert client.get(reverse("campaigns:campaign_table", args=[slug])).status_code == 200
    with django_assert_max_num_queries(BOUNDS["json"]):
        assert len(client.get(reverse("campaigns:campaign_json", args=[slug])).json()["coaches"]) == n
    client.force_login(user_of(a))
    with django_assert_max_num_queries(BOUNDS["coach_own"]):
        assert client.get(reverse("campaigns:coach_page", args=[slug, a.entry.coach_id])).status_code == 200
    with django_assert_max_num_queries(BOUNDS["fixture"]):
        assert client.get(reverse("campaigns:fixture_page", args=[slug, fixture.pk])).status_code == 200
    client.force_login(organiser)
    with django_assert_max_num_queries(BOUNDS["coach_organiser"]):
        assert client.get(reverse("campaigns:coach_page", args=[slug, a.entry.coach_id])).status_code == 200

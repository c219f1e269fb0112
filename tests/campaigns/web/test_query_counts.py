"""Every campaign page costs a fixed number of queries, whatever the campaign's
size: the same bound holds for 4 coaches and for 40 (STYLE habit 4)."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.dealing import services as dealing
from campaigns.decks import services as decks
from campaigns.ledgers import services as ledgers
from campaigns.moments import services as moments
from campaigns.dealing import phases
from campaigns.models import Sponsorship
from league.models import Fixture
from tests.campaigns.factories import base_deck, make_campaign, play, starting_card, user_of
from tests.support.factories import LeagueFactory, SeasonFactory

pytestmark = pytest.mark.django_db

BOUNDS = {"table": 13, "json": 13, "coach_own": 33, "coach_organiser": 12, "fixture": 22}  # coach_*: the first reading of a version


def build(season, organiser, n, prefix="Coach"):
    coaches = make_campaign(season, n, organiser=organiser, prefix=prefix)
    for f in Fixture.objects.filter(round__number=1, round__season=season):
        play(f, winner=f.home.campaign_coach, organiser=organiser)
    for cc in coaches:
        ledgers.adjust(coach=cc, ledger="favours", amount=5, reason="grant", by=organiser)
        ledgers.adjust(coach=cc, ledger="cp", amount=25, reason="bonus", by=organiser)
        moments.choose_starting_card(coach=cc, card=starting_card(cc), by=user_of(cc))
        dealing.buy_sponsorship(coach=cc, sponsorship=Sponsorship.objects.first(), by=user_of(cc))
        nxt = phases.phase_for(cc).next_fixture
        Fixture.objects.filter(pk=nxt.pk).update(date=datetime.date.today() + datetime.timedelta(days=3))
        decks.register_deck(coach=cc, fixture=nxt, cards=base_deck(), by=user_of(cc))
    a, b = coaches[0], coaches[1]
    dealing.request_loan(borrower=a, lender=b, model_name="Friday", model_type="squaddie", by=user_of(a))
    return coaches


def pages(season, coaches) -> list[tuple[str, str, object]]:
    """(bound, url, who reads it) for every campaign page; None is anonymous and
    "organiser" the Longshanks."""
    a = coaches[0]
    fixture = phases.phase_for(a).next_fixture
    slug = season.league.slug
    return [
        ("table", reverse("campaigns:campaign_table", args=[slug]), None),
        ("table", reverse("campaigns:campaign_table", args=[slug]) + "?sort=-cp", None),
        ("json", reverse("campaigns:campaign_json", args=[slug]), None),
        ("coach_own", reverse("campaigns:coach_page", args=[slug, a.entry.coach_id]), user_of(a)),
        ("fixture", reverse("campaigns:fixture_page", args=[slug, fixture.pk]), user_of(a)),
        ("coach_organiser", reverse("campaigns:coach_page", args=[slug, a.entry.coach_id]), "organiser"),
        ("fixture", reverse("campaigns:fixture_page", args=[slug, fixture.pk]), "organiser"),
    ]


def test_counts_do_not_grow_with_the_campaign(client, organiser):
    """Each campaign page costs exactly as many queries at 40 coaches as at 4."""
    counts = {}
    for n in (4, 40):
        season = SeasonFactory(league=LeagueFactory(slug=f"size-{n}", organisers=[organiser]))
        coaches = build(season, organiser, n, prefix=f"Size{n}")
        counts[n] = []
        for _, url, who in pages(season, coaches):
            client.logout()
            if who is not None:
                client.force_login(organiser if who == "organiser" else who)
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200, url
            counts[n].append((url.replace(f"size-{n}", "size"), len(queries)))
    assert [count for _, count in counts[4]] == [count for _, count in counts[40]], counts


@pytest.mark.parametrize("n", [4, 40])
def test_pages_at_a_fixed_number_of_queries(client, season, organiser, django_assert_max_num_queries, n):
    coaches = build(season, organiser, n)
    a = coaches[0]
    fixture = phases.phase_for(a).next_fixture
    slug = season.league.slug
    with django_assert_max_num_queries(BOUNDS["table"]):
        assert client.get(reverse("campaigns:campaign_table", args=[slug])).status_code == 200
    with django_assert_max_num_queries(BOUNDS["json"]):
        assert len(client.get(reverse("campaigns:campaign_json", args=[slug])).json()["coaches"]) == n
    client.force_login(user_of(a))
    coach_page = reverse("campaigns:coach_page", args=[slug, a.entry.coach_id])
    with django_assert_max_num_queries(BOUNDS["coach_own"]):
        assert client.get(coach_page).status_code == 200
    # Once built for the season's version, the page costs what the viewer's
    # own forms cost, at most 12 queries.
    with django_assert_max_num_queries(12):
        assert client.get(coach_page).status_code == 200
    with django_assert_max_num_queries(BOUNDS["fixture"]):
        assert client.get(reverse("campaigns:fixture_page", args=[slug, fixture.pk])).status_code == 200
    with django_assert_max_num_queries(12):  # kept for the version
        assert client.get(reverse("campaigns:fixture_page", args=[slug, fixture.pk])).status_code == 200
    client.force_login(organiser)
    with django_assert_max_num_queries(12):
        assert client.get(coach_page).status_code == 200

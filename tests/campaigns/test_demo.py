"""The Big League demo that ``quickstart`` loads (registered by ``campaigns.layer``):
a campaign a few weeks in, played through the campaign services."""

import pytest
from django.http import HttpRequest
from django.urls import reverse

from campaigns import demo
from campaigns.dealing import services as dealing
from campaigns.moments import services as moments
from campaigns.models import (
    Achievement,
    Campaign,
    CampaignCoach,
    CampaignPointLine,
    CardOffer,
    Deck,
    FavourLine,
    LineKind,
    Loan,
    MomentUnlock,
    OwnedCard,
    SponsorshipPurchase,
)
from league.models import Fixture, League, ResultEvent
from tests.management.test_quickstart_and_benchmark import quickstart


@pytest.mark.django_db
def test_quickstart_plays_the_big_league_campaign(client):
    quickstart()
    league = League.objects.get(slug=demo.DEMO_SLUG)
    season = league.seasons.get()
    campaign = Campaign.objects.get(season=season)
    coaches = list(CampaignCoach.objects.filter(campaign=campaign).select_related("entry", "guild"))
    assert len(coaches) == 10

    # GB-14: every coach has the Guild of their entry and one starting card from it.
    for cc in coaches:
        assert cc.guild.name == cc.entry.team
        start = OwnedCard.objects.get(coach=cc, source=OwnedCard.Source.START)
        assert start.card.guild_id == cc.guild_id and not start.card.is_rare

    # GB-16/GB-17/GB-25: both coaches of every match of rounds 1 to 5 registered 12
    # cards before it was reported; achieved cards come from that deck and were
    # recorded before the approval.
    matches = Fixture.objects.filter(round__season=season, round__number__lte=demo.CURRENT_ROUND)
    decks = Deck.objects.filter(fixture__in=matches).prefetch_related("cards")
    assert decks.count() == 2 * matches.count() == 50
    reported_at = dict(
        ResultEvent.objects.filter(fixture__in=matches, action__in=["reported", "abandoned"])
        .values_list("fixture_id", "at")
    )
    for deck in decks:
        assert deck.cards.count() == 12 and deck.registered_at <= reported_at[deck.fixture_id]
    cards_in = {(d.coach_id, d.fixture_id): {c.pk for c in d.cards.all()} for d in decks}
    achievements = Achievement.objects.select_related("fixture__result")
    assert achievements.count() > 30
    for a in achievements:
        assert a.card_id in cards_in[(a.coach_id, a.fixture_id)]
        if a.fixture.result.is_approved:
            assert a.recorded_at <= a.fixture.result.approved_at

    # CP accrued at approval; the race has leaders and stragglers.
    feed = client.get(reverse("campaigns:campaign_json", args=[demo.DEMO_SLUG])).json()
    cp = {row["coach"]: row["cp"] for row in feed["coaches"]}
    assert max(cp.values()) >= 40 and sum(value >= 20 for value in cp.values()) >= 5
    assert min(cp.values()) < 40
    assert sum(row["favours_spent"] for row in feed["coaches"]) > 0
    assert feed["leaders"]["master_strategos"] and feed["leaders"]["master_of_shadows"]
    assert CampaignPointLine.objects.filter(kind=LineKind.CARD).exists()
    assert CampaignPointLine.objects.filter(kind=LineKind.ADVANCEMENT).count() == 1

    # GB-13: Moments confirmed and picked, some waiting on the Longshanks, at least
    # one confirmed and waiting for the coach's pick.
    unlocks = MomentUnlock.objects.filter(coach__campaign=campaign, threshold__gt=0)
    assert unlocks.filter(confirmed_at__isnull=False, picked__isnull=False).count() >= 10
    assert unlocks.filter(confirmed_at__isnull=True).exists()
    pending = unlocks.filter(confirmed_at__isnull=False, picked__isnull=True)
    assert pending.exists()

    # Wheeling & Dealing (GB-21 to GB-24).
    assert SponsorshipPurchase.objects.count() >= 2
    assert Loan.objects.filter(status="accepted").count() == 1
    assert Loan.objects.filter(status="pending").count() == 1
    assert FavourLine.objects.filter(kind=LineKind.LOAN_FEE).count() == 2  # borrower and lender

    # Ada has something to do on her campaign page, besides her result to confirm.
    ada = CampaignCoach.objects.get(campaign=campaign, entry__coach__user__username=demo.COACH_USERNAME)
    offer = CardOffer.objects.get(status="pending")
    assert offer.recipient == ada
    assert client.login(request=HttpRequest(), username=demo.COACH_USERNAME, password=demo.COACH_PASSWORD)
    page = client.get(reverse("campaigns:coach_page", args=[demo.DEMO_SLUG, ada.entry.coach_id]))
    assert [u.pk for u in page.context["pending"]] == list(pending.filter(coach=ada).values_list("pk", flat=True))
    assert page.context["pending"] and offer in page.context["offers"]
    assert "pick pending" in page.content.decode()
    # What waits on her can be done now, through the same services as the site.
    unlock = page.context["pending"][0]
    option = moments.pick_options(ada, unlock.unlocks).first()
    moments.pick_card(unlock=unlock, card=option, by=ada.entry.coach.user)
    dealing.answer_offer(offer=offer, accept=True, by=ada.entry.coach.user)
    loan = Loan.objects.get(status="pending")
    dealing.answer_loan(loan=loan, accept=True, by=loan.lender.entry.coach.user)

"""LG-5 Decision: a sponsorship or a loan bought for a fixture that a withdrawal or
a re-generation of fixtures removes is cancelled, and every Favour it moved goes
back (the borrower's 3: 2 from the lender, 1 from the council) as ledger lines
naming why, in the same transaction; the confirmation page says what first.
Driven through the organiser's pages: the withdrawal and the Coaches page."""

from __future__ import annotations

import pytest
from django.db.models import Q
from django.urls import reverse

from campaigns.ledgers import balances
from campaigns.dealing import services as dealing
from campaigns.ledgers import services as ledgers
from campaigns.models import FavourLine, Loan, ModelType, Sponsorship, SponsorshipPurchase, Status
from league.models import Coach, Entry, Fixture
from league.people import entrants as season_entrants
from tests.campaigns.factories import make_campaign, play, user_of

pytestmark = pytest.mark.django_db


def deals(coaches, organiser):
    """The first coach buys +1 DEF for their next match and borrows a model from a
    coach who is not their opponent there: (buyer, lender, the match)."""
    for cc in coaches:
        ledgers.adjust(coach=cc, ledger="favours", amount=10, reason="start-up grant", by=organiser)
    buyer = coaches[0]
    purchase = dealing.buy_sponsorship(coach=buyer, sponsorship=Sponsorship.objects.get(name="+1 DEF"),
                                       by=user_of(buyer))
    match = purchase.fixture
    lender = next(cc for cc in coaches[1:] if cc.entry_id not in (match.home_id, match.away_id))
    loan = dealing.request_loan(borrower=buyer, lender=lender, model_name="Harry the Hat",
                                model_type=ModelType.SQUADDIE, by=user_of(buyer))
    dealing.answer_loan(loan=loan, accept=True, by=user_of(lender))
    assert Loan.objects.get(pk=loan.pk).fixture_id == match.pk
    return buyer, lender, match


def favours(*coaches) -> list[int]:
    return [balances.favour_balance(cc) for cc in coaches]


def assert_cancelled(buyer, lender, why: str, before: list[int], phase: int) -> None:
    purchase = SponsorshipPurchase.objects.get()
    assert purchase.fixture is None and why in purchase.cancelled_reason
    loan = Loan.objects.get()
    assert (loan.fixture, loan.status) == (None, Status.CLOSED) and why in loan.closed_reason
    back = FavourLine.objects.filter(reverses__isnull=False, reason__contains=why)
    assert sorted(back.values_list("coach_id", "amount")) == sorted([(buyer.pk, 1), (buyer.pk, 3), (lender.pk, -2)])
    assert all(line.reason.startswith("cancelled, ") for line in back)
    # The Favours are back where they were, and no longer spent in the phase (GB-19).
    assert favours(buyer, lender) == [before[0] + 4, before[1] - 2]
    assert balances.spent_in_phase(buyer, phase) == 0


@pytest.mark.parametrize("leaver", ["opponent", "buyer"])
def test_withdrawal_cancels_the_deals_on_the_fixtures_it_cancels(client, season, organiser, leaver):
    coaches = make_campaign(season, 4, organiser=organiser)
    for fixture in Fixture.objects.filter(round__season=season, round__number=1).select_related("home"):
        play(fixture, winner=fixture.home.campaign_coach, organiser=organiser)
    buyer, lender, match = deals(coaches, organiser)
    before = favours(buyer, lender)
    entry = buyer.entry if leaver == "buyer" else Entry.objects.get(
        pk=match.away_id if match.home_id == buyer.entry_id else match.home_id)
    url = reverse("league:withdraw_entry", args=[season.league.slug, entry.pk])
    client.force_login(organiser)

    ask = client.post(url)
    assert ask.status_code == 200
    page = ask.content.decode()
    assert "Cancelled, with every Favour they moved given back (LG-5)" in page
    assert f"{buyer}&#x27;s sponsorship +1 DEF for {match.round}" in page and f"1 Favour back to {buyer}" in page
    assert f"loan of Harry the Hat from {lender}" in page
    assert f"3 Favours back to {buyer}, 2 of them from {lender} and 1 from the council" in page
    assert SponsorshipPurchase.objects.get().fixture_id == match.pk and favours(buyer, lender) == before

    done = client.post(url, {"confirmed": "yes"}, follow=True)
    assert done.status_code == 200 and f"{entry.coach} has withdrawn from Season 1" in done.content.decode()
    assert Entry.objects.get(pk=entry.pk).withdrawn_at is not None
    assert Fixture.objects.get(pk=match.pk).cancelled_by_id == entry.pk  # LG-2: kept, not played
    assert_cancelled(buyer, lender, f"{entry.coach} withdrew from Season 1 (LG-5)", before, phase=1)

    coach_page = client.get(reverse("campaigns:coach_page", args=[season.league.slug, buyer.entry.coach_id]))
    assert f"withdrew from Season 1 (LG-5)" in coach_page.content.decode()
    if leaver == "opponent":  # the sponsorship is theirs no more: they may buy it for their next match
        again = dealing.buy_sponsorship(coach=buyer, sponsorship=Sponsorship.objects.get(name="+1 DEF"),
                                        by=user_of(buyer))
        assert again.fixture_id != match.pk


def test_generating_the_fixtures_again_cancels_the_deals_after_asking(client, season, organiser):
    coaches = make_campaign(season, 4, organiser=organiser)
    buyer, lender, match = deals(coaches, organiser)  # phase 0: before anyone's first match
    before = favours(buyer, lender)
    fixtures = set(Fixture.objects.filter(round__season=season).values_list("pk", flat=True))
    url = reverse("league:organiser_coaches", args=[season.league.slug])
    data = {"name": "Latecomer", "email": "late@example.com", "enter": "on",
            "when_fixtures_exist": season_entrants.REGENERATE}
    client.force_login(organiser)

    ask = client.post(url, data)
    assert ask.status_code == 200
    page = ask.content.decode()
    assert "Generate the fixtures of Season 1 again?" in page
    assert f"{buyer}&#x27;s sponsorship +1 DEF for {match.round}" in page and "Harry the Hat" in page
    assert not Coach.objects.filter(name="Latecomer").exists()
    assert set(Fixture.objects.filter(round__season=season).values_list("pk", flat=True)) == fixtures

    done = client.post(url, {**data, "confirmed": "yes"})
    assert done.status_code == 302
    latecomer = Entry.objects.get(coach__name="Latecomer", season=season)
    assert Fixture.objects.filter(Q(home=latecomer) | Q(away=latecomer)).exists()
    assert not Fixture.objects.filter(pk__in=fixtures).exists()
    assert_cancelled(buyer, lender, "the fixtures of Season 1 were generated again (LG-5)", before, phase=0)
    assert 'id="LG-5"' in client.get(reverse("rules")).content.decode()


def test_adding_by_generating_again_asks_nothing_when_nothing_is_cancelled(client, season, organiser):
    make_campaign(season, 4, organiser=organiser)
    client.force_login(organiser)
    response = client.post(reverse("league:organiser_coaches", args=[season.league.slug]), {
        "name": "Latecomer", "email": "late@example.com", "enter": "on",
        "when_fixtures_exist": season_entrants.REGENERATE,
    })
    assert response.status_code == 302 and Entry.objects.filter(coach__name="Latecomer", season=season).exists()

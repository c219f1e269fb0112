"""Every campaign form through the client, for each role: anonymous (to the login
page), a coach who is not in the campaign or not the one concerned, the coach, an
organiser of another league, the organiser. Each asserts what reached the ledgers
and what the page shows."""

import datetime

import pytest
from django.urls import reverse

from campaigns.dealing import services as dealing
from campaigns.ledgers import services as ledgers
from campaigns.moments import services as moments
from campaigns.dealing import phases
from campaigns.models import (
    Achievement, CampaignPointLine, CardOffer, Deck, LineKind, FavourLine, Loan, MomentUnlock, OwnedCard,
    PlotCard, Sponsorship, SponsorshipPurchase, Title,
)
from league.services import results as league_services
from league.models import Fixture
from tests.campaigns.factories import base_deck, make_campaign, play, set_match_day, starting_card, user_of
from tests.support.factories import CoachFactory

pytestmark = pytest.mark.django_db

SLUG = "midlands"


@pytest.fixture
def world(season, organiser):
    """Four coaches after round 1 with 10 extra Favours each, plus an outsider coach
    who is in no campaign of this league."""
    coaches = make_campaign(season, 4, organiser=organiser)
    for f in Fixture.objects.filter(round__number=1, round__season=season):
        play(f, winner=f.home.campaign_coach, organiser=organiser)
    for cc in coaches:
        ledgers.adjust(coach=cc, ledger="favours", amount=10, reason="start-up grant", by=organiser)
    return {"a": coaches[0], "b": coaches[1], "c": coaches[2], "outsider": CoachFactory(name="Outsider").user}


def url(name, *args):
    return reverse(f"campaigns:{name}", args=[SLUG, *args])


def as_user(client, user):
    if user is not None:
        client.force_login(user)
    return client


def assert_login_redirect(response):
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


# Public pages ---------------------------------------------------------------------------


def test_campaign_table_is_public(client, world):
    page = client.get(url("campaign_table")).content.decode()
    for cc in (world["a"], world["b"]):
        assert cc.name in page
    assert "Title race" in page and "League Champion" in page
    # Coaches' own pages are not linked for the public.
    assert url("coach_page", world["a"].entry.coach_id) not in page


def test_every_sortable_campaign_column_renders(client, world, organiser):
    a = world["a"]
    dealing.buy_advancement(coach=a, by=user_of(a))  # a leads on CP and Favours spent
    table = client.get(url("campaign_table")).context["table"]
    sortable = [column.name for column in table.columns if column.orderable]
    assert {"position", "name", "lp", "cp", "favours_spent"} <= set(sortable)
    for name in sortable:
        for prefix in ("", "-"):
            response = client.get(url("campaign_table"), {"sort": prefix + name})
            assert response.status_code == 200 and len(response.context["table"].rows) == 4
    assert [r.name for r in client.get(url("campaign_table"), {"sort": "cp"}).context["table"].data][0] == a.name
    by_spent = client.get(url("campaign_table"), {"sort": "favours_spent"}).context["table"].data
    assert by_spent[0].name == a.name and by_spent[0].favours_spent == 1
    # Default order is the standings order (GB-9).
    assert [r.position for r in table.data] == sorted((r.position for r in table.data), key=lambda p: int(p.lstrip("=")))


def test_campaign_table_links_own_page_for_the_coach_and_organiser(client, world, organiser):
    a = world["a"]
    client.force_login(user_of(a))
    page = client.get(url("campaign_table")).content.decode()
    assert url("coach_page", a.entry.coach_id) in page
    assert url("coach_page", world["b"].entry.coach_id) not in page
    assert reverse("league:coach_detail", args=[SLUG, world["b"].entry.coach_id]) in page
    client.force_login(organiser)
    page = client.get(url("campaign_table")).content.decode()
    assert url("coach_page", world["b"].entry.coach_id) in page


def test_campaign_json_shape(client, world, organiser):
    a = world["a"]
    dealing.buy_advancement(coach=a, by=user_of(a))
    data = client.get(url("campaign_json")).json()
    assert data["league"] == SLUG and data["season"] == "Season 1"
    row = next(r for r in data["coaches"] if r["coach"] == a.name)
    assert set(row) == {"coach", "guild", "lp", "cp", "moments", "favours_gained", "favours_spent", "favours_balance"}
    assert row["cp"] == 5 and row["moments"] == 1 and row["favours_spent"] == 1
    assert row["favours_balance"] == row["favours_gained"] - 1
    assert row["guild"] == "Alchemist's"
    assert data["leaders"]["master_strategos"] == [a.name]
    assert data["leaders"]["master_of_shadows"] == [a.name]
    assert len(data["leaders"]["league_champion"]) == 2  # two 12-6 winners share first place


def test_unknown_league_is_404(client, db):
    assert client.get(reverse("campaigns:campaign_table", args=["nope"])).status_code == 404


# The coach's page -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "role,status", [("anonymous", 302), ("other", 403), ("outsider", 403), ("other_organiser", 403), ("own", 200), ("organiser", 200)]
)
def test_coach_page_roles(client, world, organiser, other_organiser, role, status):
    a = world["a"]
    user = {
        "anonymous": None, "other": user_of(world["b"]), "outsider": world["outsider"],
        "other_organiser": other_organiser, "own": user_of(a), "organiser": organiser,
    }[role]
    response = as_user(client, user).get(url("coach_page", a.entry.coach_id))
    assert response.status_code == status
    if status == 200:
        page = response.content.decode()
        assert "start-up grant" in page and "Round 1:" in page  # reasons in the ledger history
        assert "Wheeling &amp; Dealing" in page
        assert ("Record adjustment" in page) is (role == "organiser")
        assert ("Buy +5 CP" in page) is (role == "own")


# Coach actions: starting pick, sponsorship, advancement, loan, offer -------------------------


def _coach_action_roles(client, world, other_organiser, organiser, name, data, written):
    """Anonymous, outsider, organisers (not coaches) are refused; nothing is written."""
    assert_login_redirect(client.post(url(name), data))
    for user in (world["outsider"], other_organiser, organiser):
        client.logout()
        assert as_user(client, user).post(url(name), data).status_code == 403
    assert not written()
    client.logout()


def test_start_pick_form(client, world, organiser, other_organiser):
    a = world["a"]
    card = starting_card(a)
    written = lambda: OwnedCard.objects.filter(source="start").exists()  # noqa: E731
    _coach_action_roles(client, world, other_organiser, organiser, "start_pick", {"card": card.pk}, written)
    response = as_user(client, user_of(a)).post(url("start_pick"), {"card": card.pk}, follow=True)
    assert f"{card.name} is your starting card" in response.content.decode()
    assert OwnedCard.objects.get(coach=a, source="start").card == card
    # Locked: a second pick is refused with the rule.
    response = client.post(url("start_pick"), {"card": card.pk})
    assert response.status_code == 400
    assert "cannot be changed" in response.content.decode()
    assert OwnedCard.objects.filter(coach=a).count() == 1


def test_sponsorship_form(client, world, organiser, other_organiser):
    a = world["a"]
    data = {"sponsorship": Sponsorship.objects.get(name="+1 DEF").pk}
    _coach_action_roles(client, world, other_organiser, organiser, "buy_sponsorship", data, SponsorshipPurchase.objects.exists)
    page = as_user(client, user_of(a)).post(url("buy_sponsorship"), data, follow=True).content.decode()
    assert "Sponsorship +1 DEF bought for Round 2" in page
    assert FavourLine.objects.get(coach=a, kind=LineKind.SPONSORSHIP).amount == -1
    response = client.post(url("buy_sponsorship"), data)
    assert response.status_code == 400
    assert "already hold +1 DEF for your next match (one copy of each sponsorship)" in response.content.decode()
    assert SponsorshipPurchase.objects.count() == 1


def test_advancement_form(client, world, organiser, other_organiser):
    a = world["a"]
    _coach_action_roles(
        client, world, other_organiser, organiser, "buy_advancement", {},
        FavourLine.objects.filter(kind=LineKind.ADVANCEMENT).exists,
    )
    # Asked first, nothing written until confirmed.
    page = as_user(client, user_of(a)).post(url("buy_advancement")).content.decode()
    assert "Buy Campaign Advancement?" in page and not CampaignPointLine.objects.filter(kind=LineKind.ADVANCEMENT).exists()
    page = client.post(url("buy_advancement"), {"confirmed": "yes"}, follow=True).content.decode()
    assert "+5 CP" in page
    assert CampaignPointLine.objects.get(coach=a, kind=LineKind.ADVANCEMENT).amount == 5
    response = client.post(url("buy_advancement"))
    assert response.status_code == 400 and "at most 1 Favour per phase" in response.content.decode()
    assert CampaignPointLine.objects.filter(kind=LineKind.ADVANCEMENT).count() == 1


def test_loan_forms(client, world, organiser, other_organiser):
    a, b, c = world["a"], world["b"], world["c"]
    data = {"lender": b.pk, "model_name": "Friday", "model_type": "squaddie"}
    _coach_action_roles(client, world, other_organiser, organiser, "request_loan", data, Loan.objects.exists)
    # GB-22: the form offers neither Captains nor Mascots, and refuses them if posted.
    page = as_user(client, user_of(a)).get(url("coach_page", a.entry.coach_id)).content.decode()
    assert 'value="squaddie"' in page and 'value="captain"' not in page and 'value="mascot"' not in page
    for model_type in ("captain", "mascot"):
        response = client.post(url("request_loan"), {**data, "model_type": model_type})
        assert response.status_code == 400 and f"{model_type} is not one of the available choices" in response.content.decode()
    assert not Loan.objects.exists()
    client.post(url("request_loan"), data)
    loan = Loan.objects.get()
    # Answering: anonymous, a coach not in the loan (404), the borrower cannot accept.
    client.logout()
    assert_login_redirect(client.post(url("answer_loan", loan.pk), {"action": "accept"}))
    assert as_user(client, user_of(c)).post(url("answer_loan", loan.pk), {"action": "accept"}).status_code == 404
    assert as_user(client, other_organiser).post(url("answer_loan", loan.pk), {"action": "accept"}).status_code == 403
    assert as_user(client, user_of(a)).post(url("answer_loan", loan.pk), {"action": "accept"}).status_code == 403
    assert not FavourLine.objects.filter(kind=LineKind.LOAN_FEE).exists()
    page = as_user(client, user_of(b)).post(url("answer_loan", loan.pk), {"action": "accept"}).content.decode()
    assert "Lend Friday to Coach 00?" in page and not FavourLine.objects.filter(kind=LineKind.LOAN_FEE).exists()
    page = client.post(url("answer_loan", loan.pk), {"action": "accept", "confirmed": "yes"}, follow=True).content.decode()
    assert "Loan of Friday accepted" in page and "out on loan" in page
    assert sorted(FavourLine.objects.filter(kind=LineKind.LOAN_FEE).values_list("amount", flat=True)) == [-3, 2]
    assert client.post(url("answer_loan", loan.pk), {"action": "bogus"}).status_code == 400


def _unlock_and_pick(cc, organiser):
    ledgers.adjust(coach=cc, ledger="cp", amount=20, reason="test", by=organiser)
    unlock = MomentUnlock.objects.get(coach=cc, threshold=20)
    moments.confirm_unlock(unlock=unlock, by=organiser)
    return moments.pick_card(
        unlock=unlock, card=PlotCard.objects.filter(guild=cc.guild, is_rare=False).last(), by=user_of(cc)
    )


def test_offer_forms(client, world, organiser, other_organiser):
    a, b, c = world["a"], world["b"], world["c"]
    wanted = _unlock_and_pick(b, organiser)
    data = {"kind": "purchase", "wanted": wanted.pk, "favours": 3}
    _coach_action_roles(client, world, other_organiser, organiser, "make_offer", data, CardOffer.objects.exists)
    response = as_user(client, user_of(a)).post(url("make_offer"), {**data, "favours": 7})
    assert response.status_code == 400 and "1 to 5 Favours; you offered 7" in response.content.decode()
    response = client.post(url("make_offer"), {"kind": "swap", "wanted": wanted.pk})
    assert response.status_code == 400 and "Choose the card you give" in response.content.decode()
    client.post(url("make_offer"), data)
    offer = CardOffer.objects.get()
    client.logout()
    assert_login_redirect(client.post(url("answer_offer", offer.pk), {"action": "accept"}))
    assert as_user(client, user_of(c)).post(url("answer_offer", offer.pk), {"action": "accept"}).status_code == 404
    assert as_user(client, user_of(a)).post(url("answer_offer", offer.pk), {"action": "accept"}).status_code == 403
    page = as_user(client, user_of(b)).post(
        url("answer_offer", offer.pk), {"action": "accept", "confirmed": "yes"}, follow=True
    ).content.decode()
    assert "Offer accepted" in page
    assert sorted(FavourLine.objects.filter(kind=LineKind.CARD_SALE).values_list("amount", flat=True)) == [-3, 3]
    assert OwnedCard.objects.get(card=wanted.card, gone_at__isnull=True).coach == a


def test_pick_form(client, world, organiser, other_organiser):
    a, b = world["a"], world["b"]
    ledgers.adjust(coach=a, ledger="cp", amount=60, reason="test", by=organiser)
    unlock = MomentUnlock.objects.get(coach=a, threshold=60)
    # Confirming: anonymous, a coach, another league's organiser are refused.
    assert_login_redirect(client.post(url("confirm_unlock", unlock.pk)))
    assert as_user(client, user_of(a)).post(url("confirm_unlock", unlock.pk)).status_code == 403
    assert as_user(client, other_organiser).post(url("confirm_unlock", unlock.pk)).status_code == 403
    page = as_user(client, organiser).post(url("confirm_unlock", unlock.pk), follow=True).content.decode()
    assert "Best Laid Plans confirmed" in page
    chalice = PlotCard.objects.get(name="Poisoned Chalice")
    key = f"pick-{unlock.pk}-card"
    client.logout()
    assert_login_redirect(client.post(url("pick", unlock.pk), {key: chalice.pk}))
    assert as_user(client, user_of(b)).post(url("pick", unlock.pk), {key: chalice.pk}).status_code == 404
    assert as_user(client, other_organiser).post(url("pick", unlock.pk), {key: chalice.pk}).status_code == 403
    response = as_user(client, user_of(a)).post(url("pick", unlock.pk), {key: PlotCard.objects.get(name="Mixology").pk})
    assert response.status_code == 400  # not a Rare card: not among the choices
    page = client.post(url("pick", unlock.pk), {key: chalice.pk}, follow=True).content.decode()
    assert "Poisoned Chalice added to your pool" in page
    assert OwnedCard.objects.get(unlock=unlock).card == chalice


def test_adjust_form(client, world, organiser, other_organiser):
    a = world["a"]
    data = {"ledger": "cp", "amount": 15, "reason": "hosted the league night"}
    target = url("adjust", a.entry.coach_id)
    assert_login_redirect(client.post(target, data))
    for user in (user_of(a), other_organiser):
        assert as_user(client, user).post(target, data).status_code == 403
    assert not CampaignPointLine.objects.filter(reason=data["reason"]).exists()
    page = as_user(client, organiser).post(target, data, follow=True).content.decode()
    assert "hosted the league night" in page
    assert CampaignPointLine.objects.get(reason=data["reason"]).created_by == organiser
    response = client.post(target, {"ledger": "favours", "amount": -999, "reason": "fine"})
    assert response.status_code == 400 and "never below zero" in response.content.decode()


# Fixture page: decks and achieved cards --------------------------------------------------------


def test_deck_and_achievement_forms(client, world, organiser, other_organiser):
    a = world["a"]
    fixture = phases.phase_for(a).next_fixture
    set_match_day(fixture, datetime.date.today() + datetime.timedelta(days=2))
    side = "home" if fixture.home_id == a.entry_id else "away"
    opponent = fixture.away.campaign_coach if side == "home" else fixture.home.campaign_coach
    third = next(cc for cc in (world["b"], world["c"]) if cc.pk != opponent.pk)
    cards = base_deck([PlotCard.objects.get(name="Winning Ugly")])
    deck_data = {f"deck-{side}-cards": [c.pk for c in cards]}
    deck_url = url("register_deck", fixture.pk)
    assert_login_redirect(client.post(deck_url, deck_data))
    for user in (user_of(third), world["outsider"], other_organiser):
        assert as_user(client, user).post(deck_url, deck_data).status_code == 403
    assert not Deck.objects.exists()
    response = as_user(client, user_of(a)).post(deck_url, {f"deck-{side}-cards": [c.pk for c in cards[:11]]})
    assert response.status_code == 400 and "exactly 12 distinct cards; you chose 11" in response.content.decode()
    page = client.post(deck_url, deck_data, follow=True).content.decode()
    assert "Deck registered" in page and "Winning Ugly" in page
    # The opponent does not see it before match day, and does from match day.
    client.logout()
    page = as_user(client, user_of(opponent)).get(url("fixture_page", fixture.pk)).content.decode()
    assert "shown on match day" in page
    set_match_day(fixture, datetime.date.today())
    page = client.get(url("fixture_page", fixture.pk)).content.decode()
    assert "Winning Ugly" in page
    assert as_user(client, user_of(third)).get(url("fixture_page", fixture.pk)).status_code == 403

    ach_url = url("record_achievements", fixture.pk)
    ugly = PlotCard.objects.get(name="Winning Ugly")
    # GB-17: recorded once the match is played and reported.
    league_services.report_result(
        fixture=fixture, by=user_of(a), home_score=12 if side == "home" else 6, away_score=6 if side == "home" else 12
    )
    data = {"side": side, f"achieved-{side}-cards": [ugly.pk]}
    client.logout()
    assert_login_redirect(client.post(ach_url, data))
    for user in (user_of(opponent), other_organiser):
        assert as_user(client, user).post(ach_url, data).status_code == 403
    assert not Achievement.objects.exists()
    page = as_user(client, organiser).post(ach_url, data, follow=True).content.decode()
    assert "Achieved cards recorded" in page
    play(fixture, winner=a, organiser=organiser)
    assert CampaignPointLine.objects.get(coach=a, kind=LineKind.CARD).amount == 10
    page = as_user(client, user_of(a)).get(url("coach_page", a.entry.coach_id)).content.decode()
    assert "achieved Winning Ugly" in page


# Final Day -------------------------------------------------------------------------------------


def test_final_day_form(client, world, organiser, other_organiser):
    target = url("declare_final_day")
    assert_login_redirect(client.post(target))
    for user in (user_of(world["a"]), other_organiser):
        assert as_user(client, user).post(target).status_code == 403
    page = as_user(client, organiser).post(target, follow=True).content.decode()
    assert "still without an approved result" in page
    for f in Fixture.objects.unplayed():
        play(f, winner=f.home.campaign_coach, organiser=organiser)
    page = client.post(target).content.decode()
    assert "Declare the Final Day?" in page and not Title.objects.exists()
    page = client.post(target, {"confirmed": "yes"}, follow=True).content.decode()
    assert "Final Day declared" in page and "Titles (Final Day)" in page
    assert Title.objects.filter(title="league_champion").exists()


@pytest.mark.parametrize(
    "role,status", [("anonymous", 302), ("third", 403), ("outsider", 403), ("other_organiser", 403), ("own", 200), ("organiser", 200)]
)
def test_fixture_page_roles(client, world, organiser, other_organiser, role, status):
    a = world["a"]
    fixture = phases.phase_for(a).next_fixture
    opponent_entry = fixture.away_id if fixture.home_id == a.entry_id else fixture.home_id
    third = next(cc for cc in (world["b"], world["c"]) if cc.entry_id != opponent_entry)
    dealing.buy_sponsorship(coach=a, sponsorship=Sponsorship.objects.get(name="Re-roll Shots"), by=user_of(a))
    user = {
        "anonymous": None, "third": user_of(third), "outsider": world["outsider"],
        "other_organiser": other_organiser, "own": user_of(a), "organiser": organiser,
    }[role]
    response = as_user(client, user).get(url("fixture_page", fixture.pk))
    assert response.status_code == status
    if status == 200:
        page = response.content.decode()
        assert "Sponsorships: Re-roll Shots" in page and 'href="/rules/#GB-21"' in page
        assert ("Register your deck" in page) is (role == "own")

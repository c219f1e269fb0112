"""GB-1, GB-23: every card sale or swap is notified to the Longshanks. An
accepted one appears on the organiser's dashboard and in both coaches' campaign
histories, and the organiser is told by mail unless they turned that kind off;
an offer refused or still pending appears nowhere."""

import pytest
from django.core import mail
from django.urls import reverse

from campaigns.ledgers import services as ledgers
from campaigns.moments import services as moments
from campaigns.models import CardOffer, MomentUnlock, OwnedCard, PlotCard
from league.outbox import notifications
from league.models import Coach, Fixture
from tests.campaigns.factories import make_campaign, play, user_of

pytestmark = pytest.mark.django_db

SLUG = "midlands"


def url(name, *args):
    return reverse(f"campaigns:{name}", args=[SLUG, *args])


def dashboard(client, user, query: str = "") -> str:
    client.force_login(user)
    page = client.get(reverse("league:organiser_dashboard", args=[SLUG]) + query).content.decode()
    return page.split('id="card-trades"')[1].split("</section>")[0]


def history(client, cc, viewer) -> str:
    client.force_login(viewer)
    page = client.get(url("coach_page", cc.entry.coach_id)).content.decode()
    return page.split('id="tab-history"')[1]


def pick_a_card(cc, organiser) -> OwnedCard:
    """The coach reaches their 20 CP Moment and picks a Guild card they can trade."""
    ledgers.adjust(coach=cc, ledger="cp", amount=20, reason="test", by=organiser)
    unlock = MomentUnlock.objects.get(coach=cc, threshold=20)
    moments.confirm_unlock(unlock=unlock, by=organiser)
    card = PlotCard.objects.filter(guild=cc.guild, is_rare=False).last()
    return moments.pick_card(unlock=unlock, card=card, by=user_of(cc))


@pytest.fixture
def world(season, organiser):
    coaches = make_campaign(season, 4, organiser=organiser)
    for f in Fixture.objects.filter(round__number=1, round__season=season):
        play(f, winner=f.home.campaign_coach, organiser=organiser)
    for cc in coaches:
        ledgers.adjust(coach=cc, ledger="favours", amount=10, reason="start-up grant", by=organiser)
    return coaches


def offer_and_answer(client, proposer, recipient, data, *, action="accept", capture) -> CardOffer:
    client.force_login(user_of(proposer))
    assert client.post(url("make_offer"), data).status_code == 302
    offer = CardOffer.objects.latest("pk")
    mail.outbox.clear()
    client.force_login(user_of(recipient))
    with capture(execute=True):
        client.post(url("answer_offer", offer.pk), {"action": action, "confirmed": "yes"})
    offer.refresh_from_db()
    return offer


def test_an_accepted_sale_reaches_the_dashboard_the_histories_and_the_organisers_mail(
    client, world, organiser, django_capture_on_commit_callbacks
):
    a, b = world[0], world[1]
    wanted = pick_a_card(b, organiser)
    assert "None yet." in dashboard(client, organiser)

    offer = offer_and_answer(client, a, b, {"kind": "purchase", "wanted": wanted.pk, "favours": 3},
                             capture=django_capture_on_commit_callbacks)
    assert offer.status == "accepted"
    line = f"{a} bought {wanted.card} from {b} for 3 Favours"
    league = a.campaign.season.league.name
    assert (organiser.email, f"[{league}] The Big League: {line}") in [(m.to[0], m.subject) for m in mail.outbox]
    told = next(m for m in mail.outbox if m.to == [organiser.email])
    assert f"{line}." in told.body
    assert reverse("league:organiser_dashboard", args=[SLUG]) + "#card-trades" in told.body

    panel = dashboard(client, organiser)
    assert line in panel and '<span class="count">1</span>' in panel
    for cc in (a, b):
        assert line in history(client, cc, user_of(cc))
        assert line in history(client, cc, organiser)
    assert line not in history(client, world[2], user_of(world[2]))


def test_an_accepted_swap_is_listed_too_though_it_moves_no_favour(
    client, world, organiser, django_capture_on_commit_callbacks
):
    a, b = world[0], world[1]
    wanted, offered = pick_a_card(b, organiser), pick_a_card(a, organiser)
    offer_and_answer(client, a, b, {"kind": "swap", "wanted": wanted.pk, "offered": offered.pk},
                     capture=django_capture_on_commit_callbacks)
    line = f"{a} swapped {offered.card} for {b}'s {wanted.card}"
    assert line in dashboard(client, organiser)
    assert line in history(client, a, user_of(a)) and line in history(client, b, organiser)
    assert [m.subject for m in mail.outbox if m.to == [organiser.email]] == [
        f"[{a.campaign.season.league.name}] The Big League: {a} swapped {offered.card} for {b}'s {wanted.card}"
    ]


def test_a_refused_or_pending_offer_is_not_a_trade(client, world, organiser, django_capture_on_commit_callbacks):
    a, b, c = world[0], world[1], world[2]
    wanted = pick_a_card(b, organiser)
    offer_and_answer(client, a, b, {"kind": "purchase", "wanted": wanted.pk, "favours": 2}, action="refuse",
                     capture=django_capture_on_commit_callbacks)
    client.force_login(user_of(c))
    client.post(url("make_offer"), {"kind": "purchase", "wanted": wanted.pk, "favours": 1})
    assert CardOffer.objects.filter(status="pending").count() == 1
    assert organiser.email not in [m.to[0] for m in mail.outbox]
    panel = dashboard(client, organiser)
    assert "None yet." in panel and "bought" not in panel
    assert "No card sold or swapped yet" in history(client, b, user_of(b))


def test_the_organisers_setting_applies_and_only_this_leagues_organisers_are_told(
    client, world, organiser, other_organiser, django_capture_on_commit_callbacks
):
    a, b = world[0], world[1]
    first, second = pick_a_card(b, organiser), pick_a_card(a, organiser)
    everything_else = [kind.key for kind in notifications.kinds() if kind.key != "card_traded"]
    notifications.set_preferences(user=organiser, on=everything_else)
    offer_and_answer(client, a, b, {"kind": "purchase", "wanted": first.pk, "favours": 2},
                     capture=django_capture_on_commit_callbacks)
    assert [m.to[0] for m in mail.outbox] == [a.entry.coach.contact_email]  # the buyer hears the answer
    assert f"{a} bought {first.card} from {b}" in dashboard(client, organiser)  # the dashboard lists it still

    notifications.set_preferences(user=organiser, on=[*everything_else, "card_traded"])
    offer_and_answer(client, b, a, {"kind": "purchase", "wanted": second.pk, "favours": 1},
                     capture=django_capture_on_commit_callbacks)
    to = sorted(m.to[0] for m in mail.outbox)
    assert to == sorted([b.entry.coach.contact_email, organiser.email]) and other_organiser.email not in to


def test_the_dashboard_pages_through_many_trades(client, world, organiser):
    a, b = world[0], world[1]
    card = pick_a_card(b, organiser)
    CardOffer.objects.bulk_create(
        CardOffer(kind="purchase", proposer=a, recipient=b, wanted=card, favours=1 + n % 5, status="accepted",
                  answered_at=card.acquired_at.replace(microsecond=n))
        for n in range(12)
    )
    ledgers.adjust(coach=a, ledger="cp", amount=1, reason="a write that gives the season a new version", by=organiser)
    first = dashboard(client, organiser)
    assert '<span class="count">12</span>' in first and "Sales and swaps 1–10 of 12" in first
    assert first.count("<li") == 10
    second = dashboard(client, organiser, "?trades=2")
    assert "Sales and swaps 11–12 of 12" in second and second.count("<li") == 2
    assert dashboard(client, organiser, "?trades=99").count("<li") == 2  # past the last: the last


def test_a_longshanks_who_made_the_deal_is_not_told_of_it_but_the_other_organisers_are(
    client, world, organiser, other_organiser, django_capture_on_commit_callbacks
):
    """The Longshanks may also play (GB-1): they know of their own deal."""
    a, b = world[0], world[1]
    wanted = pick_a_card(b, organiser)
    a.campaign.season.league.organisers.add(other_organiser)
    a.entry.coach.user.delete()
    Coach.objects.filter(pk=a.entry.coach_id).update(user=organiser, email="")
    a.refresh_from_db()
    a.entry.coach.refresh_from_db()
    offer_and_answer(client, a, b, {"kind": "purchase", "wanted": wanted.pk, "favours": 3},
                     capture=django_capture_on_commit_callbacks)
    told = [m.to[0] for m in mail.outbox if "bought" in m.subject]
    assert told == [other_organiser.email]

"""The set-up and measuring commands: ``quickstart`` and ``benchmark``."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.http import HttpRequest
from django.urls import reverse

from campaigns import services as campaign_services
from campaigns.models import (
    Achievement,
    Campaign,
    CampaignCoach,
    CampaignPointEntry,
    CardOffer,
    Deck,
    EntryKind,
    FavourEntry,
    Loan,
    MomentUnlock,
    OwnedCard,
    SponsorshipPurchase,
)
from league import demo
from league.models import (
    Coach,
    Entry,
    Fixture,
    League,
    Result,
    ResultEvent,
    Round,
    Season,
)
from league.permissions import ORGANISER_GROUP
from league.standings import standings_for

MODELS = (
    League, Season, Coach, Entry, Round, Fixture, Result, ResultEvent, get_user_model(),
    # The Big League layer: running quickstart twice must not add a line to a ledger either.
    Campaign, CampaignCoach, CampaignPointEntry, FavourEntry, MomentUnlock, OwnedCard, Deck, Achievement,
    SponsorshipPurchase, Loan, CardOffer,
)


def counts():
    return {model.__name__: model.objects.count() for model in MODELS}


def quickstart():
    out = StringIO()
    call_command("quickstart", "--no-serve", verbosity=0, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_quickstart_loads_the_demo_league_once():
    first = quickstart()
    loaded = counts()
    second = quickstart()

    assert counts() == loaded
    assert loaded["CampaignPointEntry"] > 0 and loaded["FavourEntry"] > 0 and loaded["Deck"] > 0
    assert "Loaded the demo league Harbour Lights Big League" in first
    assert "already loaded; nothing added" in second
    for output in (first, second):
        assert "http://127.0.0.1:8000/" in output and "http://127.0.0.1:8000/admin/" in output
        assert "username 'longshanks', password 'longshanks-demo'" in output
        assert "username 'ada', password 'coach-demo'" in output

    league = League.objects.get(slug=demo.DEMO_SLUG)
    season = league.seasons.get()
    assert season.entries.count() == 10
    assert set(season.entries.values_list("team", flat=True)) <= {
        "Alchemist's", "Brewer's", "Butcher's", "Engineer's", "Fisherman's", "Hunter's", "Mason's",
        "Mortician's", "The Union",
    }
    assert season.rounds.count() == 9  # GB-4: single round robin of 10
    results = Result.objects.filter(fixture__round__season=season)
    statuses = {status: results.filter(status=status).count() for status in Result.Status.values}
    assert statuses["approved"] == 4 * 5 + 2
    assert statuses["reported"] == 2
    assert statuses["confirmed"] == 1
    assert results.filter(outcome="abandoned").count() == 1
    table = standings_for(season)
    assert sum(row.played for row in table) == 2 * statuses["approved"]


@pytest.mark.django_db
def test_quickstart_accounts_can_log_in(client):
    quickstart()
    organiser = get_user_model().objects.get(username=demo.ORGANISER_USERNAME)
    league = League.objects.get(slug=demo.DEMO_SLUG)
    assert organiser.is_staff and organiser.groups.filter(name=ORGANISER_GROUP).exists()
    assert league.is_organised_by(organiser) and not organiser.is_superuser

    response = client.post(
        reverse("admin:login"),
        {"username": demo.ORGANISER_USERNAME, "password": demo.ORGANISER_PASSWORD, "next": reverse("admin:index")},
        follow=True,
    )
    assert response.context["user"] == organiser
    assert "Your leagues, results and campaigns" in response.content.decode()

    client.logout()
    response = client.post(
        reverse("login"), {"username": demo.COACH_USERNAME, "password": demo.COACH_PASSWORD}, follow=True
    )
    coach = Coach.objects.get(user__username=demo.COACH_USERNAME)
    assert response.context["user"] == coach.user
    # The coach account has a result its opponent reported, waiting on it.
    waiting = Result.objects.get(
        fixture__round__number=demo.CURRENT_ROUND, status=Result.Status.REPORTED,
        fixture__in=Fixture.objects.involving(coach),
    )
    assert waiting.confirming_side == waiting.fixture.side_of(coach)
    page = client.get(reverse("league:my_fixtures"))
    assert page.context["to_confirm"] == [waiting.fixture]


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
    assert CampaignPointEntry.objects.filter(kind=EntryKind.CARD).exists()
    assert CampaignPointEntry.objects.filter(kind=EntryKind.ADVANCEMENT).count() == 1

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
    assert FavourEntry.objects.filter(kind=EntryKind.LOAN_FEE).count() == 2  # borrower and lender

    # Ada has something to do on her campaign page, besides her result to confirm.
    ada = CampaignCoach.objects.get(campaign=campaign, entry__coach__user__username=demo.COACH_USERNAME)
    offer = CardOffer.objects.get(status="pending")
    assert offer.recipient == ada
    # django-axes checks every authentication against a request (tests/league/test_lockout.py).
    assert client.login(request=HttpRequest(), username=demo.COACH_USERNAME, password=demo.COACH_PASSWORD)
    page = client.get(reverse("campaigns:coach_page", args=[demo.DEMO_SLUG, ada.entry.coach_id]))
    assert [u.pk for u in page.context["pending"]] == list(pending.filter(coach=ada).values_list("pk", flat=True))
    assert page.context["pending"] and offer in page.context["offers"]
    assert "pick pending" in page.content.decode()
    # What waits on her can be done now, through the same services as the site.
    unlock = page.context["pending"][0]
    option = campaign_services.pick_options(ada, unlock.unlocks).first()
    campaign_services.pick_card(unlock=unlock, card=option, by=ada.entry.coach.user)
    campaign_services.answer_offer(offer=offer, accept=True, by=ada.entry.coach.user)
    loan = Loan.objects.get(status="pending")
    campaign_services.answer_loan(loan=loan, accept=True, by=loan.lender.entry.coach.user)


@pytest.mark.django_db
def test_benchmark_prints_figures_and_leaves_nothing_behind():
    quickstart()
    before = counts()
    out = StringIO()

    call_command("benchmark", "--coaches", "6", "--repeat", "1", stdout=out)

    output = out.getvalue()
    assert counts() == before
    assert "6 coaches, 10 rounds, 30 approved results" in output  # GB-4 double round robin
    assert "standings of 6 coaches < 200 ms; each page < 500 ms" in output
    lines = {line.split()[0]: line for line in output.splitlines() if line.strip()}
    for name in ("standings_for(season)", "league_list", "league_detail", "fixtures", "standings_json",
                 "standings_csv"):
        median, queries, peak = lines[name].split()[1:4]
        assert float(median) >= 0 and int(queries) > 0 and float(peak) >= 0
    assert "HTTP 200 /leagues/" in lines["league_detail"]
    assert "Rolled back" in output

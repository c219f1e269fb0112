"""What waits on a coach in their Big League campaigns, for their home page (the
"my_fixtures" panel): a loan request or card offer to answer (GB-22, GB-23), a
card to pick (GB-13, GB-14), the deck to register for the next match (GB-16) and
Favours to spend before Wheeling & Dealing closes (GB-19, GB-20).

Six queries whatever the number of campaigns, fixtures or deals: the coach's
campaign places, their Favour balances, the pending loans and offers, the
unlocks without a card, the decks registered for their next matches."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Count, Sum
from django.urls import reverse

from campaigns.models import CampaignCoach, CardOffer, Deck, FavourLine, Loan, MomentUnlock, Status
from campaigns.dealing.phases import next_match, today
from campaigns.selectors import moments_waiting


@dataclass(frozen=True)
class Waiting:
    league: str
    verb: str
    text: str
    url: str
    due: datetime.date | None = None


def waiting_on(coach, fixtures) -> list[Waiting]:
    """``fixtures``: the coach's fixtures in every league with round, sides and
    result loaded (the home page has them already)."""
    places = list(
        # LG-2: nothing waits on a coach in a season they withdrew from.
        CampaignCoach.objects.filter(entry__coach=coach, entry__withdrawn_at__isnull=True,
                                     campaign__final_day_declared_at__isnull=True)
        .select_related("campaign__season__league", "entry")
    )
    if not places:
        return []
    by_pk = {cc.pk: cc for cc in places}
    by_entry = {cc.entry_id: cc for cc in places}
    page = {cc.pk: reverse("campaigns:coach_page", args=[cc.campaign.season.league.slug, coach.pk]) for cc in places}
    league = {cc.pk: cc.campaign.season.league.name for cc in places}
    found: list[Waiting] = []

    for loan in Loan.objects.filter(lender__in=places, status=Status.PENDING).select_related("borrower__entry__coach"):
        found.append(Waiting(
            league[loan.lender_id], "Answer", f"{loan.borrower} asks to borrow {loan.model_name}", page[loan.lender_id]
        ))
    offers = CardOffer.objects.filter(recipient__in=places, status=Status.PENDING).select_related(
        "proposer__entry__coach", "wanted__card"
    )
    for offer in offers:
        what = (
            f"{offer.favours} Favour{'s' if offer.favours != 1 else ''}" if offer.kind == CardOffer.Kind.PURCHASE
            else "a swap"
        )
        found.append(Waiting(
            league[offer.recipient_id], "Answer", f"{offer.proposer} offers {what} for {offer.wanted.card}",
            page[offer.recipient_id],
        ))
    unpicked = MomentUnlock.objects.filter(coach__in=places, picked__isnull=True).exclude(
        confirmed_at__isnull=True, threshold__gt=0
    )
    for unlock in unpicked.order_by("threshold"):
        text = (
            "choose your starting Guild card" if unlock.threshold == 0
            else f"{unlock.name} is confirmed: pick your card"
        )
        found.append(Waiting(league[unlock.coach_id], "Pick", text, page[unlock.coach_id]))

    matches: dict[int, list] = {}
    for fixture in fixtures:
        if fixture.is_bye or fixture.stage != "regular":
            continue
        for entry_id in (fixture.home_id, fixture.away_id):
            if entry_id in by_entry:
                matches.setdefault(by_entry[entry_id].pk, []).append(fixture)
    upcoming = {cc_id: next_match(own) for cc_id, own in matches.items()}
    upcoming = {cc_id: f for cc_id, f in upcoming.items() if f is not None and f.result_or_none is None}
    registered = set(
        Deck.objects.filter(coach__in=places, fixture__in=list(upcoming.values())).values_list("coach_id", "fixture_id")
    )
    balances = dict(
        FavourLine.objects.filter(coach__in=places).values("coach").annotate(total=Sum("amount")).values_list("coach", "total")
    )
    day = today()
    for cc_id, fixture in upcoming.items():
        cc = by_pk[cc_id]
        opponent = fixture.away if fixture.home_id == cc.entry_id else fixture.home
        if (cc_id, fixture.pk) not in registered:
            found.append(Waiting(
                league[cc_id], "Register", f"your deck for {fixture.round} against {opponent}",
                reverse("campaigns:fixture_page", args=[cc.campaign.season.league.slug, fixture.pk]), fixture.date,
            ))
        balance = balances.get(cc_id) or 0
        if balance > 0 and day < fixture.date:
            found.append(Waiting(
                league[cc_id], "Spend",
                f"{balance} Favour{'s' if balance != 1 else ''} before Wheeling & Dealing closes on "
                f"{fixture.date:%A %-d %B}",
                page[cc_id], fixture.date,
            ))
    return found


def moments_to_confirm_counts(season_ids: list[int]) -> dict[int, dict[str, int]]:
    """For the organiser's dashboard and home page (league.layers organiser_counts):
    the Moments waiting for the Longshanks per season (GB-13), the same ones the
    dashboard lists (still reached: GB-12). One query."""
    rows = (
        moments_waiting(season_ids).order_by()
        .values("coach__campaign__season")
        .annotate(n=Count("pk"))
        .values_list("coach__campaign__season", "n")
    )
    return {season_id: {"Moment to confirm" if n == 1 else "Moments to confirm": n} for season_id, n in rows}

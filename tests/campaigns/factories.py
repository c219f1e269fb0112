"""Helpers that build a Big League campaign through the real services, so every
row agrees with the engine (entries, fixtures, approved results)."""

from __future__ import annotations

import datetime

from django.db.models import Q

from campaigns import setup
from campaigns.decks import services as decks
from campaigns.models import CampaignCoach, Guild, PlotCard
from league.services import results as league_services
from league.services import seasons as season_services
from league.caching import versions
from league.models import Fixture, Season
from tests.support.factories import EntryFactory

GUILD_NAMES = [
    "Alchemist's", "Brewer's", "Butcher's", "Engineer's", "Fisherman's", "Hunter's", "Mason's", "Mortician's",
    "The Union",
]


def make_campaign(
    season: Season, n: int, *, organiser, fixtures: bool = True, seed: int = 7, prefix: str = "Coach"
) -> list[CampaignCoach]:
    """``n`` coaches (Guilds in turn) in ``season``, fixtures generated, campaign rows
    created. Returns the campaign coaches ordered by coach name.

    The season starts a week from today, so every match day is still ahead and
    Wheeling & Dealing is open between matches (GB-20: a phase closes when the next
    match's day starts); a test moves a match day with ``set_match_day``."""
    if fixtures:
        season.start_date = datetime.date.today() + datetime.timedelta(days=7)
        season.save(update_fields=["start_date"])
    for i in range(n):
        EntryFactory(season=season, coach__name=f"{prefix} {i:02d}", team=GUILD_NAMES[i % len(GUILD_NAMES)])
    if fixtures:
        season_services.generate_fixtures(season=season, by=organiser, seed=seed)
    setup.ensure_campaign(season)
    return list(CampaignCoach.objects.filter(campaign__season=season).select_related("entry__coach", "guild"))


def user_of(cc: CampaignCoach):
    return cc.entry.coach.user


def starting_card(cc: CampaignCoach) -> PlotCard:
    return PlotCard.objects.filter(kind="guild", guild=cc.guild, is_rare=False).order_by("order").first()


def base_deck(extra: list[PlotCard] = ()) -> list[PlotCard]:
    """12 distinct cards: the extras first, then Common and core plots."""
    cards = list(extra)
    for card in decks.base_pool().order_by("-kind", "order"):
        if len(cards) == 12:
            break
        if card not in cards:
            cards.append(card)
    return cards


def fixture_between(a: CampaignCoach, b: CampaignCoach) -> Fixture:
    return (
        Fixture.objects.filter(home_id__in=[a.entry_id, b.entry_id], away_id__in=[a.entry_id, b.entry_id])
        .select_related("round", "home__coach", "away__coach")
        .first()
    )


def play(fixture: Fixture, *, winner: CampaignCoach | None, organiser, abandoned: bool = False):
    """The organiser enters an approved result (12-6 to the winner)."""
    if abandoned:
        home, away = 4, 2
    else:
        home, away = (12, 6) if fixture.home_id == winner.entry_id else (6, 12)
    return league_services.record_result(
        fixture=fixture, by=organiser, home_score=home, away_score=away, reason="played", abandoned=abandoned
    )


def guild(name: str) -> Guild:
    return Guild.objects.get(name=name)


def set_match_day(fixture: Fixture, date: datetime.date) -> None:
    """The fixture moved to ``date`` as a rearrangement would (a new version of its
    season: the pages kept per version follow)."""
    Fixture.objects.filter(pk=fixture.pk).update(date=date)
    versions.bump(Q(rounds__fixtures__pk=fixture.pk))
    fixture.date = date

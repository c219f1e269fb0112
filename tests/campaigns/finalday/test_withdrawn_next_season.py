"""LG-4 Decision: an entrant who withdrew is not entered in the next season unless
the organiser enters them again, and gains no end-of-season carry-over (GB-26's 5
Favours go to the coaches who finished the campaign), whichever comes first, the
Final Day or the next season. Driven through the organiser's pages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.finalday import services as titles
from campaigns.models import FavourLine, LineKind, Title
from league import selectors
from league.people import invitations
from league.models import Entry, Fixture
from tests.campaigns.factories import fixture_between, make_campaign, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(client, season, organiser):
    """Four coaches; the last loses round 1 and then withdraws (the organiser's
    page), every other League Match is played. Returns (season, the withdrawn
    entry, the entries who finished)."""
    coaches = make_campaign(season, 4, organiser=organiser)
    leaver = coaches[-1]
    for fixture in Fixture.objects.filter(round__season=season, round__number=1).select_related("home", "away"):
        winner = fixture.away.campaign_coach if fixture.home_id == leaver.entry_id else fixture.home.campaign_coach
        play(fixture, winner=winner, organiser=organiser)
    client.force_login(organiser)
    url = reverse("league:withdraw_entry", args=[season.league.slug, leaver.entry_id])
    assert client.post(url, {"confirmed": "yes"}).status_code == 302
    for fixture in Fixture.objects.filter(round__season=season).unplayed().select_related("home"):
        play(fixture, winner=fixture.home.campaign_coach, organiser=organiser)
    leaver = Entry.objects.select_related("coach").get(pk=leaver.entry_id)
    assert leaver.withdrawn_at is not None
    return season, leaver, [cc.entry for cc in coaches[:-1]]


def carried_over(season) -> dict[str, int]:
    return {
        line.coach.entry.coach.name: line.amount
        for line in FavourLine.objects.filter(coach__campaign__season=season, kind=LineKind.CARRY_OVER)
        .select_related("coach__entry__coach")
    }


def untitled(season, entries) -> set[str]:
    held = set(Title.objects.filter(campaign__season=season).values_list("coach__entry__coach__name", flat=True))
    return {entry.coach.name for entry in entries} - held


def open_next(client, league):
    page = client.post(reverse("league:checklist_next_season", args=[league.slug]), follow=True).content.decode()
    return selectors.season_for(league), page


def test_final_day_then_next_season(client, organiser, finished):
    season, leaver, stayed = finished
    league = season.league
    final = client.post(reverse("campaigns:declare_final_day", args=[league.slug]), {"confirmed": "yes"}, follow=True)
    assert "Final Day declared" in final.content.decode()
    assert untitled(season, stayed)  # someone finished without a title: the carry-over is theirs

    new, page = open_next(client, league)
    assert new.pk != season.pk and "is open with 3 entrants" in page
    assert set(new.entries.values_list("coach_id", flat=True)) == {entry.coach_id for entry in stayed}

    # The organiser enters them again: they play, without the carry-over.
    invitations.enter_coach(season=new, coach=leaver.coach, by=organiser)
    client.post(reverse("league:checklist_fixtures", args=[league.slug]))
    assert new.rounds.exists()
    assert carried_over(new) == {name: 5 for name in untitled(season, stayed)}
    def campaign_page(coach_id: int) -> str:
        return client.get(reverse("campaigns:coach_page", args=[league.slug, coach_id])).content.decode()

    finisher = next(entry for entry in stayed if entry.coach.name in untitled(season, stayed))
    assert "carried over from Season 1" in campaign_page(finisher.coach_id)
    assert "carried over" not in campaign_page(leaver.coach_id)
    assert 'id="LG-4"' in client.get(reverse("rules")).content.decode()


def test_next_season_then_final_day(client, organiser, finished):
    season, leaver, stayed = finished
    league = season.league
    new, page = open_next(client, league)
    assert set(new.entries.values_list("coach_id", flat=True)) == {entry.coach_id for entry in stayed}
    invitations.enter_coach(season=new, coach=leaver.coach, by=organiser)
    client.post(reverse("league:checklist_fixtures", args=[league.slug]))
    assert new.rounds.exists() and not carried_over(new)

    titles.declare_final_day(campaign=season.campaign, by=organiser)  # the Final Day of the season before
    assert untitled(season, stayed)
    assert carried_over(new) == {name: 5 for name in untitled(season, stayed)}
    assert leaver.coach.name not in carried_over(new)

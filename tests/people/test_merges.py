"""One person, one coach (league/people/merges.py): a merge moves everything
of the absorbed coach to the kept one and keeps every figure of every league;
a refusal writes nothing; a claim links an account or merges into its coach."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db.models import Sum

from campaigns.models import CampaignPointLine, FavourLine
from league.dreadball.models import DreadBallResult
from league.dungeonbowl.models import Team, TreasuryLine
from league.people import merges
from league.standings.season import standings_for
from league.models import Coach, Entry, Season
from tests.support.builders import season_with_results
from tests.support.factories import CoachFactory, EntryFactory, LeagueFactory, SeasonFactory, UserFactory
from tests.support.world import GAMES, row_counts, world_in_transaction


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with world_in_transaction(django_db_blocker) as built:
        yield built


def table(season: Season) -> list[tuple]:
    """Every figure of the season's table, the coach's name aside."""
    return [(r.entry_id, r.position, r.team, r.played, r.won, r.drawn, r.lost, r.lp, sorted(r.stats.items()))
            for r in standings_for(Season.objects.get(pk=season.pk))]


def names(season: Season) -> dict[int, str]:
    return {r.entry_id: r.coach for r in standings_for(Season.objects.get(pk=season.pk))}


def figures() -> tuple:
    """The ledgers and game rows a merge must leave as they were."""
    return (
        sorted(CampaignPointLine.objects.values("coach__entry_id").annotate(t=Sum("amount")).values_list("coach__entry_id", "t")),
        sorted(FavourLine.objects.values("coach__entry_id").annotate(t=Sum("amount")).values_list("coach__entry_id", "t")),
        sorted(TreasuryLine.objects.values("team_id").annotate(t=Sum("amount")).values_list("team_id", "t")),
        DreadBallResult.objects.count(),
    )


def other_league(*, game: str, coach: Coach) -> Season:
    """A league of another organiser's where ``coach`` played a season."""
    rival = UserFactory(username=f"elsewhere-{game}")
    season = SeasonFactory(league=LeagueFactory(game_system=game, organisers=[rival]), name="Spring")
    EntryFactory(season=season, coach=coach)
    return season_with_results(coaches=3, played_rounds=2, season=season)


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_claiming_a_place_in_a_second_league_merges_and_keeps_every_figure(world, game):
    g = world.games[game]
    mine = Entry.objects.filter(coach=g.right).values_list("season", flat=True)
    own_seasons = list(Season.objects.filter(pk__in=mine))
    pasted = CoachFactory(name="Pasted Person", user=None, email="")
    elsewhere = other_league(game=game, coach=pasted)
    pasted_entry = Entry.objects.get(coach=pasted)
    teams = list(Team.objects.filter(coach=g.right).values_list("pk", flat=True))
    before = {s.pk: table(s) for s in [*own_seasons, elsewhere]}
    before_names = {s.pk: names(s) for s in own_seasons}
    before_figures = figures()

    kept = merges.claim(coach=pasted, user=g.right.user)

    assert kept.pk == g.right.pk and kept.user_id == g.right.user_id
    assert not Coach.objects.filter(pk=pasted.pk).exists()
    assert Entry.objects.get(pk=pasted_entry.pk).coach_id == g.right.pk
    assert {s.pk: table(s) for s in [*own_seasons, elsewhere]} == before
    assert figures() == before_figures
    assert list(Team.objects.filter(coach=g.right).values_list("pk", flat=True)) == teams
    # Both leagues name the person by the kept name.
    assert names(elsewhere)[pasted_entry.pk] == g.right.name
    assert {s.pk: names(s) for s in own_seasons} == before_names


@pytest.mark.django_db
def test_the_account_holders_row_can_be_absorbed_when_the_account_confirms(world):
    g = world.games["dungeonbowl"]
    user, teams = g.right.user, set(Team.objects.filter(coach=g.right).values_list("pk", flat=True))
    assert teams
    keep = CoachFactory(name="Other Row", user=None, email="")
    elsewhere = other_league(game="dungeonbowl", coach=keep)
    before = figures()

    with pytest.raises(ValidationError, match="only that account can agree"):
        merges.merge(keep=keep, absorb=g.right, by=None)
    kept = merges.merge(keep=keep, absorb=g.right, by=None, confirmed_by_account=True)

    assert kept.user == user and kept.email == g.right.email
    assert set(Team.objects.filter(coach=kept).values_list("pk", flat=True)) == teams
    assert figures() == before
    assert {r.coach for r in standings_for(elsewhere)} >= {"Other Row"}


@pytest.mark.django_db
def test_the_organiser_merges_two_rows_of_their_own_leagues(organiser):
    first = season_with_results(coaches=4, played_rounds=2, season=SeasonFactory(
        league=LeagueFactory(organisers=[organiser]), name="First"))
    second = season_with_results(coaches=4, played_rounds=2, season=SeasonFactory(
        league=LeagueFactory(organisers=[organiser]), name="Second"))
    keep = Entry.objects.filter(season=first).first().coach
    absorb = Entry.objects.filter(season=second).first().coach
    Coach.objects.filter(pk__in=[keep.pk, absorb.pk]).update(user=None)
    moved = Entry.objects.get(coach=absorb)
    before = (table(first), table(second))

    merges.merge(keep=keep, absorb=absorb, by=organiser)

    assert (table(first), table(second)) == before
    assert names(second)[moved.pk] == keep.name
    assert set(Entry.objects.filter(coach=keep).values_list("season", flat=True)) == {first.pk, second.pk}


def refused(match: str, **kwargs) -> None:
    counts = row_counts()
    with pytest.raises(ValidationError, match=match):
        merges.merge(**kwargs)
    assert row_counts() == counts


@pytest.mark.django_db
def test_refusals_write_nothing(organiser, other_organiser):
    mine = SeasonFactory(league=LeagueFactory(organisers=[organiser]))
    theirs = SeasonFactory(league=LeagueFactory(organisers=[other_organiser]))
    a = EntryFactory(season=mine, coach=CoachFactory(name="Ann", user=None)).coach
    b = EntryFactory(season=mine, coach=CoachFactory(name="Bea", user=None)).coach
    c = EntryFactory(season=SeasonFactory(league=mine.league, name="Later"),
                     coach=CoachFactory(name="Cat", user=None)).coach
    holder = EntryFactory(season=SeasonFactory(league=mine.league, name="Third"), coach=CoachFactory(name="Dee")).coach
    other_holder = CoachFactory(name="Eve")
    stranger = EntryFactory(season=theirs, coach=CoachFactory(name="Fay", user=None)).coach

    refused("same coach", keep=a, absorb=a, by=organiser)
    refused("both entered in", keep=a, absorb=b, by=organiser)
    refused("two accounts are two people", keep=holder, absorb=other_holder, by=None, confirmed_by_account=True)
    refused("only that account can agree", keep=c, absorb=holder, by=organiser)
    refused("not one of your leagues", keep=c, absorb=stranger, by=organiser)
    refused("not one of your leagues", keep=stranger, absorb=c, by=organiser)
    # Names differ within a season's entrants, however written: Ann would meet "ANN".
    fourth = SeasonFactory(league=mine.league, name="Fourth")
    EntryFactory(season=fourth, coach=CoachFactory(name="ANN", user=None))
    lone = EntryFactory(season=fourth, coach=CoachFactory(name="Lone", user=None)).coach
    refused("already a coach called ANN", keep=a, absorb=lone, by=organiser)


@pytest.mark.django_db
def test_claim_links_an_account_without_a_coach(organiser):
    season = SeasonFactory(league=LeagueFactory(organisers=[organiser]))
    pasted = EntryFactory(season=season, coach=CoachFactory(name="Ivy Thorne", user=None, email="")).coach
    user = UserFactory(username="ivy", email="ivy@example.com")

    claimed = merges.claim(coach=pasted, user=user)

    assert claimed.pk == pasted.pk and claimed.user == user and claimed.email == "ivy@example.com"
    with pytest.raises(ValidationError, match="already has an account"):
        merges.claim(coach=claimed, user=UserFactory(username="someone"))

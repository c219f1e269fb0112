"""A whole Big League campaign of 8 coaches, from the starting picks to the Final Day
(GB-3, GB-12 to GB-26), then the carry-over into the next campaign."""

import pytest
from django.urls import reverse
from django.core.exceptions import ValidationError

from campaigns import setup
from campaigns.ledgers import balances
from campaigns.dealing import services as dealing
from campaigns.decks import services as decks
from campaigns.moments import services as moments
from campaigns.finalday import services as titles
from campaigns.models import LineKind, FavourLine, MomentUnlock, OwnedCard, PlotCard, Sponsorship, Title
from campaigns.selectors import campaign_feed
from league.services import results as league_services
from league.models import Entry, Fixture
from tests.campaigns.factories import base_deck, make_campaign, play, starting_card, user_of
from tests.support.factories import SeasonFactory

pytestmark = pytest.mark.django_db


def test_eight_coach_campaign_to_final_day_and_carry_over(season, organiser, client):
    coaches = make_campaign(season, 8, organiser=organiser)
    by_name = {cc.name: cc for cc in coaches}
    rank = {cc.pk: i for i, cc in enumerate(coaches)}  # Coach 00 always wins, Coach 07 always loses
    strategist, shadow = by_name["Coach 07"], by_name["Coach 06"]
    geoff, beautiful = PlotCard.objects.get(name="It's Unbelievable Geoff!"), PlotCard.objects.get(name="The Beautiful Game")
    sponsorships = list(Sponsorship.objects.all())

    for cc in coaches:  # GB-14
        moments.choose_starting_card(coach=cc, card=starting_card(cc), by=user_of(cc))

    rounds = list(season.rounds.order_by("number"))
    assert len(rounds) == 7  # GB-4: single round robin
    for rnd in rounds:
        fixtures = list(Fixture.objects.filter(round=rnd).select_related("home", "away"))
        # Wheeling & Dealing before the match (phase = matches played so far).
        for cc in coaches if rnd.number > 1 else ():  # nobody has Favours before their first match
            if cc is shadow:
                for s in sponsorships[:3]:
                    dealing.buy_sponsorship(coach=cc, sponsorship=s, by=user_of(cc))
            elif cc.name == "Coach 05" and balances.favour_balance(cc):
                dealing.buy_advancement(coach=cc, by=user_of(cc))
        # Warm-up (GB-16) and Match Day; the strategist achieves two cards every match.
        for f in fixtures:
            for entry in (f.home, f.away):
                cc = entry.campaign_coach
                decks.register_deck(coach=cc, fixture=f, cards=base_deck([geoff, beautiful]), by=user_of(cc))
            home, away = f.home.campaign_coach, f.away.campaign_coach
            home_wins = rank[home.pk] < rank[away.pk]
            # Played and reported, then the cards achieved (GB-17), confirmed, approved.
            result = league_services.report_result(
                fixture=f, by=user_of(home), home_score=12 if home_wins else 6, away_score=6 if home_wins else 12
            )
            if strategist.pk in (home.pk, away.pk):
                decks.record_achievements(coach=strategist, fixture=f, cards=[geoff, beautiful], by=user_of(strategist))
            league_services.confirm_result(result=result, by=user_of(away))
            league_services.approve_result(result=result, by=organiser)
        # Results & Fixtures: the Longshanks confirms Moments, coaches pick (GB-13).
        for unlock in MomentUnlock.objects.filter(confirmed_at__isnull=True).select_related("coach"):
            moments.confirm_unlock(unlock=unlock, by=organiser)
            option = moments.pick_options(unlock.coach, unlock.unlocks).first()
            moments.pick_card(unlock=unlock, card=option, by=user_of(unlock.coach))

    # Strategist: 20 CP a match for 7 matches; Moments up to 140 unlocked and picked.
    assert balances.cp_total(strategist) == 140
    assert OwnedCard.objects.filter(coach=strategist, source="moment").count() == 7  # 20..140
    assert list(MomentUnlock.objects.filter(coach=strategist).values_list("threshold", flat=True)) == list(range(0, 141, 20))
    # Shadow: 3 sponsorships a phase; loser Favours are 3 (+1 when facing more LP) so they can always pay.
    assert [balances.spent_in_phase(shadow, n) for n in range(8)] == [0, 3, 3, 3, 3, 3, 3, 0]
    feed = campaign_feed(strategist.campaign)
    assert feed["leaders"] == {
        "league_champion": ["Coach 00"], "master_strategos": ["Coach 07"], "master_of_shadows": ["Coach 06"],
    }
    row = {r["coach"]: r for r in feed["coaches"]}
    assert row["Coach 00"]["lp"] == 21 and row["Coach 07"]["lp"] == 0
    assert row["Coach 06"]["favours_spent"] == 18 and row["Coach 05"]["favours_spent"] == 6
    assert row["Coach 05"]["cp"] == 30
    assert row["Coach 07"]["moments"] == 8

    fixed = titles.declare_final_day(campaign=strategist.campaign, by=organiser)
    assert {(t.get_title_display(), t.coach.name) for t in fixed} == {
        ("League Champion", "Coach 00"), ("Master Strategos", "Coach 07"), ("Master of Shadows", "Coach 06"),
    }
    with pytest.raises(ValidationError, match="Final Day has already been declared"):
        titles.declare_final_day(campaign=strategist.campaign, by=organiser)
    with pytest.raises(ValidationError, match="campaign is over"):
        dealing.buy_advancement(coach=by_name["Coach 03"], by=user_of(by_name["Coach 03"]))
    page = client.get(f"/leagues/{season.league.slug}/campaign/").content.decode()
    assert "Titles (Final Day)" in page and "Master Strategos</strong>: Coach 07" in page
    # Each title is on its coach's profile across leagues (league/records/titles.py).
    shadows = by_name["Coach 06"].entry.coach_id
    profile = client.get(reverse("coach_profile", args=[shadows])).content.decode()
    assert "<strong>Master of Shadows</strong>" in profile and season.league.name in profile
    assert "Master Strategos" not in profile

    # Next campaign in the same league: every untitled coach starts with 5 Favours (GB-26).
    next_season = SeasonFactory(league=season.league, name="Season 2", start_date=season.start_date.replace(year=2027))
    for cc in coaches:
        Entry.objects.create(season=next_season, coach=cc.entry.coach, team=cc.entry.team)
    setup.ensure_campaign(next_season)
    carried = dict(
        FavourLine.objects.filter(coach__campaign__season=next_season, kind=LineKind.CARRY_OVER)
        .values_list("coach__entry__coach__name", "amount")
    )
    assert carried == {f"Coach 0{i}": 5 for i in range(1, 6)}
    setup.ensure_campaign(next_season)  # idempotent
    assert FavourLine.objects.filter(kind=LineKind.CARRY_OVER).count() == 5
    assert Title.objects.count() == 3


def test_carry_over_credited_at_once_when_the_next_campaign_exists(season, organiser):
    a, b = make_campaign(season, 2, organiser=organiser)
    next_season = SeasonFactory(league=season.league, name="Season 2", start_date=season.start_date.replace(year=2027))
    for cc in (a, b):
        Entry.objects.create(season=next_season, coach=cc.entry.coach, team=cc.entry.team)
    setup.ensure_campaign(next_season)
    play(Fixture.objects.get(round__season=season), winner=a, organiser=organiser)
    titles.declare_final_day(campaign=a.campaign, by=organiser)
    # a is champion (and the only one to gain LP); b won nothing: 0 CP and 0 spent hold no title (GB-3).
    assert list(Title.objects.values_list("coach__entry__coach__name", flat=True)) == [a.name]
    carried = FavourLine.objects.get(kind=LineKind.CARRY_OVER)
    assert carried.coach.campaign.season == next_season and carried.coach.entry.coach == b.entry.coach
    assert "competed without winning a title" in carried.reason

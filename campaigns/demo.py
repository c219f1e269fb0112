"""The demo Guild Ball league and Big League campaign that ``manage.py quickstart``
loads (registered as this layer's demo in ``campaigns.layer``).

Ten coaches in a single round robin (GB-4), the first four rounds played and
approved, the fifth part-way through the workflow: some results reported and
waiting for the opponent's confirmation, one confirmed and waiting for the
organiser's approval. Every result goes through ``league.services.results``, as on the
site, so each fixture has its history and anything that hangs off an approval
(the campaign's CP, Favours and Moments) follows.

The season is also a Big League campaign a few weeks in, started by the engine's
``generate_fixtures`` (the layer's ``season_started``) and written only through
the campaign services (``moments``, ``decks``, ``dealing``) and in the GB-25 order of each round: every coach made their
starting pick (GB-14); before each match both coaches registered a deck (GB-16);
the plot cards they achieved were recorded before the result was approved
(GB-17); the Longshanks then confirmed the Moments reached and the coaches picked
their cards (GB-13); then came some Wheeling & Dealing (GB-19 to GB-24). Ada's
Moment of round 4 waits for her pick and Zoë's offer for one of her cards waits
for her answer.

The schedule, scores and cards come from fixed seeds; the dates follow today, so
round 5 is this week's round.
"""

from __future__ import annotations

import datetime
import random

from django.db import transaction
from django.utils import timezone

from campaigns.dealing import services as dealing
from campaigns.decks import services as decks
from campaigns.moments import services as moments
from campaigns.dealing import phases
from campaigns.models import (
    Campaign,
    CampaignCoach,
    CardOffer,
    Guild,
    ModelType,
    MomentUnlock,
    OwnedCard,
    PlotCard,
    Sponsorship,
    Status,
)
from league.services import results as services
from league.services import seasons as season_services
from league.services.demo import COACH_PASSWORD, ORGANISER_PASSWORD, ORGANISER_USERNAME, Credentials, account
from league.layers import DemoReport
from league.models import Coach, Entry, Fixture, League, Season
from league.permissions import make_organiser

DEMO_SLUG = "harbour-lights"
DEMO_LEAGUE = "Harbour Lights Big League"
DEMO_SEASON = "Season One"
DEMO_SEED = 20260907

COACH_USERNAME = "ada"  # the coach account quickstart prints

PLAYED_ROUNDS = 4
CURRENT_ROUND = 5

# Display name, username, Guild (RULES.md catalogue), a hidden strength that
# makes the table worth reading, how many campaign plots the coach achieves a
# match (so the CP race has leaders and stragglers) and the starting Guild card
# (GB-14).
COACHES = [
    ("Ada Blackwater", "ada", "Fisherman's", 6, 3, "Showboating"),
    ("Bram Coldiron", "bram", "Mason's", 7, 1, "Laying the Foundation"),
    ("Cassia Vane", "cassia", "Alchemist's", 5, 3, "Recipe for Success"),
    ("Dunstan Hale", "dunstan", "Brewer's", 6, 1, "Bad Pint"),
    ("Elske Marrow", "elske", "Mortician's", 4, 2, "Shroud"),
    ("Fenwick Rook", "fenwick", "Hunter's", 5, 1, "Swift as Shadows"),
    ("Greta Hask", "greta", "Butcher's", 8, 1, "Tough Meat"),
    ("Hollis Sprocket", "hollis", "Engineer's", 3, 1, "Spring-Loaded"),
    ("Ines Coinworth", "ines", "The Union", 6, 2, "Show me the Money!"),
    ("Zoë O'Brien", "zoe", "Fisherman's", 4, 1, "Sea Breeze"),
]


ORGANISER = Credentials(ORGANISER_USERNAME, ORGANISER_PASSWORD, "organiser (staff, admin at /admin/)")
COACH = Credentials(
    COACH_USERNAME,
    COACH_PASSWORD,
    f"coach ({COACHES[0][0]}, with a result to confirm, a Moment card to pick and an offer to answer)",
)


def load() -> DemoReport:
    """The layer's demo for ``quickstart``: load it once and say what was done."""
    if load_demo() is None:
        message = f"The demo league {DEMO_LEAGUE} is already loaded; nothing added."
        loaded = False
    else:
        message = (
            f"Loaded the demo league {DEMO_LEAGUE}: {len(COACHES)} coaches, "
            f"{PLAYED_ROUNDS} rounds played, round {CURRENT_ROUND} under way, "
            f"the Big League campaign {PLAYED_ROUNDS} weeks in (decks, plot cards, Moments, "
            f"Wheeling & Dealing)."
        )
        loaded = True
    note = (
        f"The other demo coaches log in with their first name in lower case (e.g. 'greta') and the "
        f"password {COACH_PASSWORD!r}."
    )
    return DemoReport(message=message, loaded=loaded, league_slug=DEMO_SLUG, note=note)


def demo_accounts() -> list[tuple[str, str, str]]:
    """(role, username, password) of the accounts quickstart prints."""
    return [(c.role, c.username, c.password) for c in (ORGANISER, COACH)]


def demo_loaded() -> bool:
    return League.objects.filter(slug=DEMO_SLUG).exists()


@transaction.atomic
def load_demo(*, today: datetime.date | None = None) -> League | None:
    """Create the demo league and its accounts; None when it is already there, so
    running it again changes nothing."""
    if demo_loaded():
        return None
    today = today or timezone.localdate()
    this_monday = today - datetime.timedelta(days=today.weekday())
    rng = random.Random(DEMO_SEED)
    # The plot cards have their own stream, so the scores stay those of the seed.
    plots = random.Random(DEMO_SEED + 1)

    organiser = account(ORGANISER_USERNAME, ORGANISER_PASSWORD, first_name="Morgan")
    make_organiser(organiser)
    league = League.objects.create(
        name=DEMO_LEAGUE,
        slug=DEMO_SLUG,
        game_system="guildball",
        description="A demo Guild Ball: The Big League campaign loaded by quickstart.",
    )
    league.organisers.add(organiser)
    season = Season.objects.create(
        league=league,
        name=DEMO_SEASON,
        start_date=this_monday - datetime.timedelta(weeks=CURRENT_ROUND - 1),
    )
    strength = {}
    for name, username, guild, skill, _, _ in COACHES:
        user = account(username, COACH_PASSWORD, first_name=name.split()[0])
        coach, _ = Coach.objects.get_or_create(
            name=name, defaults={"user": user, "email": f"{username}@example.com", "created_by": organiser}
        )
        if coach.user_id is None:
            coach.user = user
            coach.save(update_fields=["user"])
        if username == COACH_USERNAME:
            coach_account = coach
        entry = Entry.objects.create(season=season, coach=coach, team=guild)
        strength[entry.pk] = skill

    rounds = season_services.generate_fixtures(season=season, by=organiser, seed=DEMO_SEED)
    fixtures = {
        rnd.number: list(Fixture.objects.filter(round=rnd).select_related("home__coach__user", "away__coach__user"))
        for rnd in rounds
    }
    big_league = _BigLeague(season, organiser, plots)
    big_league.starting_picks()

    for number in range(1, PLAYED_ROUNDS + 1):
        big_league.warm_up(fixtures[number])  # GB-25 step 1
        for index, fixture in enumerate(fixtures[number]):  # steps 2 and 3
            if number == 3 and index == 0:
                # GB-6: one match that could not be finished, a loss for both.
                services.record_result(
                    fixture=fixture, by=organiser, home_score=6, away_score=4, abandoned=True,
                    reason="Venue closed early; abandoned at 6-4.",
                )
                continue
            result = _report(fixture, rng, strength)
            big_league.achieved(fixture)
            services.confirm_result(result=result, by=_user_of(fixture, _other(result.reported_side)))
            services.approve_result(result=result, by=organiser)
        # Ada leaves the Moments of the last played round for the demo visitor to pick.
        big_league.moments(leave_pending={COACH_USERNAME} if number == PLAYED_ROUNDS else set())
        # Step 4, in the week after the round (GB-20: a phase closes on the next match day).
        with phases.as_of(rounds[number - 1].date + datetime.timedelta(days=1)):
            big_league.wheeling_and_dealing(number)

    # The current round, part-way through: the coach account has a report to
    # confirm, another report waits on its opponent, one waits on the organiser,
    # the rest are approved (their Moments wait for the Longshanks' confirmation).
    big_league.warm_up(fixtures[CURRENT_ROUND])
    current = sorted(fixtures[CURRENT_ROUND], key=lambda f: f.side_of(coach_account) is None)
    stages = ["to_confirm", "to_confirm", "confirmed"] + ["approved"] * (len(current) - 3)
    for fixture, stage in zip(current, stages):
        side = fixture.side_of(coach_account)
        result = _report(fixture, rng, strength, side=_other(side) if side else None)
        if stage == "to_confirm":
            continue
        big_league.achieved(fixture)
        services.confirm_result(result=result, by=_user_of(fixture, _other(result.reported_side)))
        if stage == "approved":
            services.approve_result(result=result, by=organiser)
    return league


class _BigLeague:
    """The demo coaches' side of the campaign, every write through
    the campaign services with the user who would make it on the site."""

    def __init__(self, season: Season, organiser, plots: random.Random):
        self.organiser = organiser
        self.plots = plots
        self.campaign = Campaign.objects.get(season=season)  # written when the fixtures were generated
        self.coaches = {
            cc.entry.coach.user.username: cc
            for cc in CampaignCoach.objects.filter(campaign=self.campaign).select_related("entry__coach__user", "guild")
        }
        self.by_entry = {cc.entry_id: cc for cc in self.coaches.values()}
        self.per_match = {username: count for _, username, _, _, count, _ in COACHES}
        self.base_pool = list(decks.base_pool())

    def starting_picks(self) -> None:
        """GB-14: each coach names the Guild of their entry and its one starting card."""
        guilds = {g.name: g for g in Guild.objects.all()}
        for _, username, guild_name, _, _, card_name in COACHES:
            cc = self.coaches[username]
            guild = guilds[guild_name]
            card = PlotCard.objects.get(name=card_name, guild=guild)
            moments.choose_starting_card(coach=cc, card=card, guild=guild, by=_user(cc))

    def warm_up(self, fixtures: list[Fixture]) -> None:
        """GB-16: both coaches register 12 distinct pool cards: their own Guild and
        Rare cards (the best rewards first), then the Common and core plots."""
        for fixture in fixtures:
            for entry_id in (fixture.home_id, fixture.away_id):
                cc = self.by_entry[entry_id]
                # A card someone offers for stays out of its owner's deck, so the
                # offer can be accepted (GB-23: a card in a registered deck cannot move).
                offered = CardOffer.objects.filter(recipient=cc, status=Status.PENDING).values("wanted__card")
                owned = sorted(
                    (
                        o.card
                        for o in cc.owned_cards.filter(gone_at__isnull=True).exclude(card__in=offered)
                        .select_related("card")
                    ),
                    key=lambda c: (-c.cp_reward, -c.favour_reward, c.name),
                )
                deck = (owned + [c for c in self.base_pool if c not in owned])[:12]
                decks.register_deck(coach=cc, fixture=fixture, cards=deck, by=_user(cc))

    def achieved(self, fixture: Fixture) -> None:
        """GB-17: the campaign plots each coach achieved, drawn from their deck."""
        for entry_id in (fixture.home_id, fixture.away_id):
            cc = self.by_entry[entry_id]
            deck = cc.decks.get(fixture=fixture)
            scoring = [c for c in deck.cards.order_by("pk") if c.cp_reward or c.favour_reward]
            count = min(self.per_match[_user(cc).username], len(scoring))
            cards = self.plots.sample(scoring, count)
            if cards:
                decks.record_achievements(coach=cc, fixture=fixture, cards=cards, by=_user(cc))

    def moments(self, *, leave_pending: set[str]) -> None:
        """GB-13: the Longshanks confirms every Moment reached; each coach picks the
        card with the best reward (except those left pending)."""
        unlocks = MomentUnlock.objects.filter(coach__campaign=self.campaign, confirmed_at__isnull=True).order_by(
            "coach__entry__coach__name", "threshold"
        )
        for unlock in unlocks:
            moments.confirm_unlock(unlock=unlock, by=self.organiser)
            cc = self.by_entry[unlock.coach.entry_id]
            if _user(cc).username in leave_pending:
                continue
            options = sorted(
                moments.pick_options(cc, unlock.unlocks), key=lambda c: (-c.cp_reward, -c.favour_reward, c.name)
            )
            moments.pick_card(unlock=unlock, card=options[0], by=_user(cc))

    def wheeling_and_dealing(self, number: int) -> None:
        """GB-19 to GB-24 after round ``number``, every phase within its 5 Favours."""
        cc = self.coaches
        if number == 1:
            self._sponsor("greta", "+1 TAC and +1 ARM")
        elif number == 2:
            dealing.buy_advancement(coach=cc["cassia"], by=_user(cc["cassia"]))
            self._sponsor("ines", "Re-roll Shots")
        elif number == 3:
            loan = dealing.request_loan(
                borrower=cc["hollis"], lender=cc["greta"], model_name="Boiler", model_type=ModelType.SQUADDIE,
                by=_user(cc["hollis"]),
            )
            dealing.answer_loan(loan=loan, accept=True, by=_user(cc["greta"]))
        elif number == 4:
            self._sponsor("dunstan", '+2"/+2" MOV')
            # Left for Bram to answer (Dunstan's round 5 is approved, so he can).
            dealing.request_loan(
                borrower=cc["dunstan"], lender=cc["bram"], model_name="Brick", model_type=ModelType.SQUADDIE,
                by=_user(cc["dunstan"]),
            )
            # Zoë, also Fisherman's, offers for a card Ada unlocked: Ada's to answer.
            zoe, ada = cc["zoe"], cc[COACH_USERNAME]
            zoe_has = OwnedCard.objects.filter(coach=zoe, gone_at__isnull=True).values("card")
            wanted = (
                ada.owned_cards.filter(gone_at__isnull=True, source=OwnedCard.Source.MOMENT)
                .exclude(card__in=zoe_has)
                .order_by("card__name")
                .first()
            )
            dealing.offer_purchase(buyer=zoe, wanted=wanted, favours=3, by=_user(zoe))

    def _sponsor(self, username: str, name: str) -> None:
        cc = self.coaches[username]
        dealing.buy_sponsorship(coach=cc, sponsorship=Sponsorship.objects.get(name=name), by=_user(cc))


def _user(cc: CampaignCoach):
    return cc.entry.coach.user


def _report(fixture: Fixture, rng: random.Random, strength: dict[int, int], side: str | None = None):
    """A valid GB-8 score (the winner on 12 to 15 VP, the loser below), reported by
    ``side`` or by the winner."""
    home, away = strength[fixture.home_id], strength[fixture.away_id]
    home_wins = rng.random() < home / (home + away)
    winner = rng.choice((12, 12, 12, 13, 14, 15))
    loser = rng.randint(0, 11)
    home_score, away_score = (winner, loser) if home_wins else (loser, winner)
    side = side or ("home" if home_wins else "away")
    return services.report_result(
        fixture=fixture, by=_user_of(fixture, side), home_score=home_score, away_score=away_score
    )


def _user_of(fixture: Fixture, side: str):
    return fixture.entry_for(side).coach.user


def _other(side: str) -> str:
    return "away" if side == "home" else "home"

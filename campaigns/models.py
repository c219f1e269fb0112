"""The Big League (RULES.md GB-1 to GB-26): the catalogue, each coach's campaign row,
the CP and Favour ledgers, Moments and picks, pools and decks, Wheeling & Dealing.

A Guild Ball season *is* the campaign: ``Campaign`` hangs off ``league.Season`` and
``CampaignCoach`` off ``league.Entry``. Balances are never stored: they are sums of
the append-only ledger lines (STYLE.md habit 5). Every write goes through the
services (``setup``, ``moments``, ``decks``, ``ledgers``, ``dealing``, ``titles``,
``imports``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from campaigns.rules import MAX_ADJUSTMENT, MAX_CP_TOTAL

# Catalogue ------------------------------------------------------------------


class Guild(models.Model):
    name = models.CharField(max_length=60, unique=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class PlotCard(models.Model):
    """One plot card of the catalogue (GB-15, RULES.md Catalogue)."""

    class Kind(models.TextChoices):
        CORE = "core", "Season Two core Guild Plot"
        COMMON = "common", "Common Campaign Plot"
        RARE = "rare", "Season Two Rare Campaign Plot"
        GUILD = "guild", "Guild campaign plot"

    name = models.CharField(max_length=80, unique=True)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    guild = models.ForeignKey(Guild, null=True, blank=True, on_delete=models.PROTECT, related_name="cards")
    is_rare = models.BooleanField("rare", default=False)
    cp_reward = models.PositiveSmallIntegerField("CP", default=0)
    favour_reward = models.PositiveSmallIntegerField("Favours", default=0)
    summary = models.CharField(max_length=200, help_text="What achieves the card, in a line.")
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["kind", "guild__name", "order", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="guild", guild__isnull=False) | (~Q(kind="guild") & Q(guild__isnull=True)),
                name="plotcard_guild_only_for_guild_cards",
            ),
            models.CheckConstraint(
                condition=~Q(kind="rare") | Q(is_rare=True), name="plotcard_season_rares_are_rare"
            ),
            # A card's reward is a ledger line, which stays within MAX_ADJUSTMENT.
            models.CheckConstraint(
                condition=Q(cp_reward__lte=MAX_ADJUSTMENT, favour_reward__lte=MAX_ADJUSTMENT),
                name="plotcard_rewards_bounded",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def reward_label(self) -> str:
        parts = []
        if self.cp_reward:
            parts.append(f"{self.cp_reward} CP")
        if self.favour_reward:
            parts.append(f"{self.favour_reward} Favour{'s' if self.favour_reward != 1 else ''}")
        return " + ".join(parts) or "in-game only"


class Sponsorship(models.Model):
    """GB-21: the nine sponsorships a coach can buy for one Favour each."""

    name = models.CharField(max_length=80, unique=True)
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["order", "name"]

    def __str__(self) -> str:
        return self.name


class Moment(models.Model):
    """GB-12: one row of the Moments table. ``repeat_every`` makes a row repeat
    beyond its threshold (Driving the Advantage: every further 20 CP from 200)."""

    class Unlocks(models.TextChoices):
        GUILD = "guild", "1 Guild card"
        RARE = "rare", "1 Rare card"

    threshold = models.PositiveSmallIntegerField(unique=True, help_text="CP total that reaches it.")
    name = models.CharField(max_length=60)
    unlocks = models.CharField(max_length=5, choices=Unlocks.choices)
    repeat_every = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["threshold"]

    def __str__(self) -> str:
        return f"{self.threshold} CP: {self.name}"


# Campaign and coaches -----------------------------------------------------------


class Campaign(models.Model):
    """A Guild Ball season run as The Big League."""

    season = models.OneToOneField("league.Season", on_delete=models.CASCADE, related_name="campaign")
    created_at = models.DateTimeField(default=timezone.now)
    final_day_declared_at = models.DateTimeField(null=True, blank=True)
    final_day_declared_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    def __str__(self) -> str:
        return str(self.season)

    @property
    def is_over(self) -> bool:
        return self.final_day_declared_at is not None


class CampaignCoach(models.Model):
    """A coach's place in a campaign. Every Favour-spending transaction locks this
    row first (select_for_update) so two requests cannot both pass the GB-19/GB-20
    checks on the same balance."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="coaches")
    entry = models.OneToOneField("league.Entry", on_delete=models.CASCADE, related_name="campaign_coach")
    guild = models.ForeignKey(Guild, null=True, blank=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["entry__coach__name"]
        verbose_name = "campaign coach"
        verbose_name_plural = "campaign coaches"

    def __str__(self) -> str:
        return self.entry.coach.name

    @property
    def name(self) -> str:
        return self.entry.coach.name


# Ledgers ------------------------------------------------------------------------


class LineKind(models.TextChoices):
    MATCH = "match", "match result"
    CARD = "card", "plot card achieved"
    ADVANCEMENT = "advancement", "Campaign Advancement"
    SPONSORSHIP = "sponsorship", "sponsorship"
    LOAN_FEE = "loan", "loan fee"
    CARD_SALE = "sale", "card sale"
    ADJUSTMENT = "adjustment", "organiser adjustment"
    CARRY_OVER = "carry_over", "carry-over"


class LedgerLine(models.Model):
    """One append-only line. A correction never edits a line: it adds the line that
    ``reverses`` it, so the history explains every number the coach sees."""

    coach = models.ForeignKey(CampaignCoach, on_delete=models.CASCADE, related_name="%(class)s_set")
    amount = models.IntegerField()
    kind = models.CharField(max_length=12, choices=LineKind.choices)
    reason = models.CharField(max_length=300)
    # What caused it (the nullable links; at most one or two are set).
    result = models.ForeignKey("league.Result", null=True, blank=True, on_delete=models.RESTRICT, related_name="+")
    card = models.ForeignKey(PlotCard, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    reverses = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.RESTRICT, related_name="reversed_by"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        abstract = True
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.coach}: {self.amount:+d} ({self.get_kind_display()})"


class CampaignPointLine(LedgerLine):
    """GB-11: CP from plot cards achieved, Campaign Advancement and adjustments.

    A ledger *line*; the league's ``Entry`` is a coach's place in a season. The
    admin keeps the organisers' wording ("entry") for both ledgers."""

    class Meta(LedgerLine.Meta):
        verbose_name = "Campaign Point entry"
        verbose_name_plural = "Campaign Point entries"
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="cp_entry_not_zero"),
            # STYLE habit 15: no line (an adjustment, a reversal) beyond the bound.
            models.CheckConstraint(
                condition=Q(amount__gte=-MAX_ADJUSTMENT, amount__lte=MAX_ADJUSTMENT), name="cp_entry_bounded"
            ),
        ]


class FavourLine(LedgerLine):
    """GB-18 to GB-26. ``phase`` is set on spending lines only: the number of League
    Matches the coach had played when spending (the Wheeling & Dealing phase, GB-19),
    and on the line that reverses one (a deal cancelled, LG-5), so "Favours spent"
    is the sum of lines with a phase."""

    phase = models.PositiveSmallIntegerField(null=True, blank=True)
    sponsorship = models.ForeignKey(
        "SponsorshipPurchase", null=True, blank=True, on_delete=models.RESTRICT, related_name="+"
    )
    loan = models.ForeignKey("Loan", null=True, blank=True, on_delete=models.RESTRICT, related_name="+")
    offer = models.ForeignKey("CardOffer", null=True, blank=True, on_delete=models.RESTRICT, related_name="+")
    carried_from = models.ForeignKey(
        Campaign, null=True, blank=True, on_delete=models.RESTRICT, related_name="carried_over_lines"
    )

    class Meta(LedgerLine.Meta):
        verbose_name = "Favour entry"
        verbose_name_plural = "Favour entries"
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="favour_entry_not_zero"),
            models.CheckConstraint(
                condition=Q(amount__gte=-MAX_ADJUSTMENT, amount__lte=MAX_ADJUSTMENT), name="favour_entry_bounded"
            ),
            # Spending is always a debit; only its reversal gives it back in its phase.
            models.CheckConstraint(
                condition=Q(phase__isnull=True) | Q(amount__lt=0) | Q(reverses__isnull=False),
                name="favour_spend_is_debit",
            ),
            # GB-26: one carry-over per coach per finished campaign.
            models.UniqueConstraint(
                fields=["coach", "carried_from"],
                condition=Q(carried_from__isnull=False, reverses__isnull=True),
                name="favour_one_carry_over_per_campaign",
            ),
        ]


# Moments, pools, decks ------------------------------------------------------------


class MomentUnlock(models.Model):
    """GB-12/GB-13: a Moment a coach has reached. The Longshanks confirms it, then
    the coach picks the card. The row stays if a correction takes the CP total back
    below the threshold: the page shows it as no longer reached."""

    coach = models.ForeignKey(CampaignCoach, on_delete=models.CASCADE, related_name="unlocks")
    # An integer, not a smallint: a repeating Moment reaches any threshold up to
    # MAX_CP_TOTAL (PostgreSQL's smallint stopped at 32,767: a 500).
    threshold = models.PositiveIntegerField()
    name = models.CharField(max_length=60)
    unlocks = models.CharField(max_length=5, choices=Moment.Unlocks.choices)
    reached_at = models.DateTimeField(default=timezone.now)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["coach", "threshold"]
        constraints = [
            models.UniqueConstraint(fields=["coach", "threshold"], name="unlock_once_per_threshold"),
            models.CheckConstraint(condition=Q(threshold__lte=MAX_CP_TOTAL), name="unlock_threshold_bounded"),
        ]

    def __str__(self) -> str:
        return f"{self.coach}: {self.name} ({self.threshold} CP)"


class OwnedCard(models.Model):
    """A Guild or Rare card in a coach's pool beyond the base pool (GB-15): picked at
    a Moment, bought or swapped. ``gone_at`` is set when it leaves by sale or swap."""

    class Source(models.TextChoices):
        START = "start", "starting pick"
        MOMENT = "moment", "Moment unlock"
        BOUGHT = "bought", "bought"
        SWAPPED = "swapped", "swapped"

    coach = models.ForeignKey(CampaignCoach, on_delete=models.CASCADE, related_name="owned_cards")
    card = models.ForeignKey(PlotCard, on_delete=models.PROTECT, related_name="+")
    source = models.CharField(max_length=8, choices=Source.choices)
    unlock = models.OneToOneField(
        MomentUnlock, null=True, blank=True, on_delete=models.PROTECT, related_name="picked"
    )
    acquired_at = models.DateTimeField(default=timezone.now)
    gone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["card__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["coach", "card"], condition=Q(gone_at__isnull=True), name="owned_card_once_in_pool"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.card} ({self.coach})"

    @property
    def is_locked(self) -> bool:
        """GB-14: the starting pick can never change hands."""
        return self.source == self.Source.START


class Deck(models.Model):
    """GB-16: the 12 distinct pool cards a coach registers for one fixture."""

    coach = models.ForeignKey(CampaignCoach, on_delete=models.CASCADE, related_name="decks")
    fixture = models.ForeignKey("league.Fixture", on_delete=models.CASCADE, related_name="campaign_decks")
    cards = models.ManyToManyField(PlotCard, related_name="+")
    registered_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-fixture__round__number"]
        constraints = [models.UniqueConstraint(fields=["coach", "fixture"], name="deck_one_per_coach_per_fixture")]

    def __str__(self) -> str:
        return f"{self.coach}'s deck for {self.fixture}"


class Achievement(models.Model):
    """GB-17: a campaign plot card a coach achieved in a fixture (from their deck)."""

    fixture = models.ForeignKey("league.Fixture", on_delete=models.CASCADE, related_name="campaign_achievements")
    coach = models.ForeignKey(CampaignCoach, on_delete=models.CASCADE, related_name="achievements")
    card = models.ForeignKey(PlotCard, on_delete=models.PROTECT, related_name="+")
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["fixture", "coach", "card__name"]
        constraints = [
            models.UniqueConstraint(fields=["fixture", "coach", "card"], name="achievement_once_per_card_per_match")
        ]

    def __str__(self) -> str:
        return f"{self.coach}: {self.card} in {self.fixture}"


# Wheeling & Dealing -----------------------------------------------------------


class SponsorshipPurchase(models.Model):
    """GB-21: bought for the coach's next fixture, returned when that match ends.
    LG-5: cancelled when a withdrawal or a re-generation of fixtures removes that
    fixture: it then has none, and says why."""

    coach = models.ForeignKey(CampaignCoach, on_delete=models.CASCADE, related_name="sponsorships")
    sponsorship = models.ForeignKey(Sponsorship, on_delete=models.PROTECT, related_name="+")
    fixture = models.ForeignKey(
        "league.Fixture", null=True, blank=True, on_delete=models.CASCADE, related_name="campaign_sponsorships"
    )
    bought_at = models.DateTimeField(default=timezone.now)
    cancelled_reason = models.CharField(max_length=300, blank=True, help_text="Why it was cancelled (LG-5).")

    class Meta:
        ordering = ["fixture", "sponsorship__order"]
        constraints = [
            models.UniqueConstraint(
                fields=["coach", "sponsorship", "fixture"], name="sponsorship_one_copy_per_match"
            ),
            # For a match, or cancelled with the reason (LG-5).
            models.CheckConstraint(
                condition=Q(fixture__isnull=False, cancelled_reason="")
                | (Q(fixture__isnull=True) & ~Q(cancelled_reason="")),
                name="sponsorship_for_a_match_or_cancelled",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.sponsorship} for {self.coach}"


class ModelType(models.TextChoices):
    CAPTAIN = "captain", "Captain"
    MASCOT = "mascot", "Mascot"
    SQUADDIE = "squaddie", "Squaddie"


class Status(models.TextChoices):
    PENDING = "pending", "pending"
    ACCEPTED = "accepted", "accepted"
    REFUSED = "refused", "refused"
    WITHDRAWN = "withdrawn", "withdrawn"
    CLOSED = "closed", "closed by the rules"  # GB-20: accepted, but it could no longer go through


class Loan(models.Model):
    """GB-22: a model borrowed for the borrower's next League Match."""

    borrower = models.ForeignKey(CampaignCoach, on_delete=models.CASCADE, related_name="loans_in")
    lender = models.ForeignKey(CampaignCoach, on_delete=models.CASCADE, related_name="loans_out")
    model_name = models.CharField(max_length=80)
    model_type = models.CharField(max_length=10, choices=ModelType.choices, default=ModelType.SQUADDIE)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    fixture = models.ForeignKey(
        "league.Fixture", null=True, blank=True, on_delete=models.CASCADE, related_name="campaign_loans",
        help_text="The borrower's match the model is loaned for (set when the lender accepts).",
    )
    requested_at = models.DateTimeField(default=timezone.now)
    answered_at = models.DateTimeField(null=True, blank=True)
    closed_reason = models.CharField(max_length=300, blank=True, help_text="Why the rules closed it (GB-20).")

    class Meta:
        ordering = ["-requested_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=~Q(borrower=models.F("lender")), name="loan_between_two_coaches"),
            models.CheckConstraint(
                condition=~Q(model_type__in=["captain", "mascot"]), name="loan_no_captain_or_mascot"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.model_name}: {self.lender} to {self.borrower} ({self.status})"


class CardOffer(models.Model):
    """GB-23: an offer of Favours for, or a swap of, another coach's unlocked card."""

    class Kind(models.TextChoices):
        PURCHASE = "purchase", "purchase"
        SWAP = "swap", "swap"

    kind = models.CharField(max_length=8, choices=Kind.choices)
    proposer = models.ForeignKey(CampaignCoach, on_delete=models.CASCADE, related_name="offers_made")
    recipient = models.ForeignKey(CampaignCoach, on_delete=models.CASCADE, related_name="offers_received")
    wanted = models.ForeignKey(OwnedCard, on_delete=models.CASCADE, related_name="+")
    offered = models.ForeignKey(OwnedCard, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    favours = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(default=timezone.now)
    answered_at = models.DateTimeField(null=True, blank=True)
    closed_reason = models.CharField(max_length=300, blank=True, help_text="Why the rules closed it (GB-20).")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=~Q(proposer=models.F("recipient")), name="offer_between_two_coaches"),
            models.CheckConstraint(
                condition=Q(kind="purchase", favours__gte=1, favours__lte=5, offered__isnull=True)
                | Q(kind="swap", favours=0, offered__isnull=False),
                name="offer_purchase_1_to_5_or_swap_free",
            ),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.PURCHASE:
            return f"{self.proposer} offers {self.favours} Favour{'s' if self.favours != 1 else ''} for {self.wanted.card}"
        return f"{self.proposer} offers {self.offered.card} for {self.wanted.card}"


class Notice(models.Model):
    """Something a coach is told on their campaign page (and by email where they
    have an address): a deal the rules closed, a card that could not change hands
    (GB-20, GB-23). Append-only, newest first."""

    coach = models.ForeignKey(CampaignCoach, on_delete=models.CASCADE, related_name="notices")
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.coach}: {self.text}"


# Final Day ------------------------------------------------------------------------


class Title(models.Model):
    """GB-3/GB-26: a title fixed on Final Day (shared titles have several rows)."""

    class Name(models.TextChoices):
        LEAGUE_CHAMPION = "league_champion", "League Champion"
        MASTER_STRATEGOS = "master_strategos", "Master Strategos"
        MASTER_OF_SHADOWS = "master_of_shadows", "Master of Shadows"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="titles")
    title = models.CharField(max_length=20, choices=Name.choices)
    coach = models.ForeignKey(CampaignCoach, on_delete=models.CASCADE, related_name="titles")
    figure = models.IntegerField(help_text="LP, CP gained or Favours spent when it was declared.")

    class Meta:
        ordering = ["campaign", "title", "coach__entry__coach__name"]
        constraints = [models.UniqueConstraint(fields=["campaign", "title", "coach"], name="title_once_per_coach")]

    def __str__(self) -> str:
        return f"{self.get_title_display()}: {self.coach}"

"""Wheeling & Dealing between coaches: sponsorships bought for a fixture (GB-21), loans
of models (GB-22) and card offers (GB-23)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone

from campaigns.models.campaign import CampaignCoach
from campaigns.models.catalogue import Sponsorship
from campaigns.models.holdings import OwnedCard


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

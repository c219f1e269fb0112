"""The CP and Favour ledgers (GB-11, GB-18 to GB-20, GB-24): append-only lines whose
sums are the balances (STYLE.md habit 5)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from campaigns.models.campaign import Campaign, CampaignCoach
from campaigns.models.catalogue import PlotCard
from campaigns.rules import MAX_ADJUSTMENT


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

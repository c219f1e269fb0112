"""How people come into a league's seasons and become one: join links, the
requests a join link sends the organiser, and the requests to merge two coach rows
that wait for the account holder (league/people/joining.py, join_requests.py,
merges.py)."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from league.datebounds import validate_match_date
from league.models.coaches import Coach
from league.models.leagues import Season, _date_within_bounds


class MergeRequest(models.Model):
    """An organiser's request to make two coach rows of their leagues one person,
    when one of them has an account: it waits for that account to accept or
    refuse on their own page (a coach with an account is never merged without it:
    league/people/merges.py). A merge decides every open request about the row
    it absorbs (they go with it)."""

    keep = models.ForeignKey(Coach, on_delete=models.CASCADE, related_name="+")
    # Kept, emptied, once the merge it asked for is done: the record says who asked and when.
    absorb = models.ForeignKey(Coach, null=True, on_delete=models.SET_NULL, related_name="+")
    asked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    decided_at = models.DateTimeField(null=True, blank=True)
    accepted = models.BooleanField(default=False)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=~Q(keep=models.F("absorb")), name="merge_request_two_coaches"),
            models.UniqueConstraint(fields=["keep", "absorb"], condition=Q(decided_at__isnull=True),
                                    name="merge_request_one_open_per_pair"),
            models.CheckConstraint(condition=Q(accepted=False) | Q(decided_at__isnull=False),
                                   name="merge_request_accepted_when_decided"),
        ]

    def __str__(self) -> str:
        return f"{self.absorb} into {self.keep}"


MAX_JOIN_USES = 500  # far above any league's size: a bound, not a quota
DEFAULT_JOIN_SIGNUPS_PER_HOUR = 40  # a club's launch night: everyone in the room, within the hour
MAX_JOIN_SIGNUPS_PER_HOUR = MAX_JOIN_USES


class JoinLink(models.Model):
    """A link the organiser shares (Discord, a club's chat) through which
    people enter a season themselves. The address carries a signed token naming the
    link and its random key (league/people/joining.py); the organiser revokes it, and it
    may close on a date or after a number of uses. A season may have several."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="join_links")
    key = models.CharField(max_length=32, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    max_uses = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(MAX_JOIN_USES)],
        help_text="How many people may join through it; empty for no limit.",
    )
    closes_on = models.DateField(
        null=True, blank=True, validators=[validate_match_date],
        help_text="The last day it works; empty to keep it open until you revoke it.",
    )
    signups_per_hour = models.PositiveSmallIntegerField(
        default=DEFAULT_JOIN_SIGNUPS_PER_HOUR,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_JOIN_SIGNUPS_PER_HOUR)],
        help_text="How many new accounts may sign up through it within an hour, whatever their network "
                  "(a club's first evening on one shop's Wi-Fi counts against the link, not the Wi-Fi).",
    )
    uses = models.PositiveSmallIntegerField(default=0, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["season", "-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(max_uses__isnull=True) | Q(max_uses__gte=1, max_uses__lte=MAX_JOIN_USES),
                name="joinlink_max_uses_bounded",
            ),
            models.CheckConstraint(
                condition=Q(max_uses__isnull=True) | Q(uses__lte=F("max_uses")), name="joinlink_uses_within_limit"
            ),
            models.CheckConstraint(
                condition=Q(closes_on__isnull=True) | _date_within_bounds("closes_on"), name="joinlink_closes_on_bounded"
            ),
            models.CheckConstraint(
                condition=Q(signups_per_hour__gte=1, signups_per_hour__lte=MAX_JOIN_SIGNUPS_PER_HOUR),
                name="joinlink_signups_per_hour_bounded",
            ),
        ]

    def __str__(self) -> str:
        return f"Join link for {self.season}"

    def refusal(self, today: datetime.date | None = None) -> str | None:
        """Why nobody can join through it now, or None while it works."""
        today = today or timezone.localdate()
        if self.revoked_at is not None:
            return "The organiser has withdrawn this join link. Ask them for a new one."
        if self.closes_on is not None and today > self.closes_on:
            return f"This join link closed on {self.closes_on:%d %B %Y}. Ask the organiser for a new one."
        if self.max_uses is not None and self.uses >= self.max_uses:
            return "This join link has been used as many times as the organiser allowed. Ask them for a new one."
        return None


class JoinRequest(models.Model):
    """Someone who opened a join link and waits on the organiser (LG-1): a newcomer
    once the season's fixtures exist (``NEW``: the organiser puts them in the next
    season or generates the fixtures again with them in), or a person saying "I am
    this coach" of one of the season's coaches without an account (``CLAIM``: the
    organiser confirms and the account takes the coach's place). Nothing is entered
    until the organiser decides (league/people/join_requests.py); the row keeps
    what they decided."""

    class Kind(models.TextChoices):
        NEW = "new", "Join as a new coach"
        CLAIM = "claim", "I am this coach"

    class Outcome(models.TextChoices):
        PENDING = "pending", "Waiting for the organiser"
        ACCEPTED = "accepted", "Confirmed"
        NEXT_SEASON = "next", "Put in the next season"
        REGENERATED = "regenerate", "Entered, the fixtures generated again"
        REFUSED = "refused", "Refused"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="join_requests")
    link = models.ForeignKey(JoinLink, null=True, blank=True, on_delete=models.SET_NULL, related_name="requests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="join_requests")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    coach = models.ForeignKey(
        Coach, null=True, blank=True, on_delete=models.CASCADE, related_name="claims",
        help_text="The coach the person says they are (a claim only).",
    )
    name = models.CharField(max_length=100, blank=True)
    team = models.CharField(max_length=100, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    outcome = models.CharField(max_length=10, choices=Outcome.choices, default=Outcome.PENDING)
    # Where a newcomer put in the next season went (that season may later be renamed).
    placed_in = models.ForeignKey(Season, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "user"], condition=Q(outcome="pending"), name="joinrequest_one_pending_per_user",
            ),
            models.CheckConstraint(
                condition=Q(kind="claim", coach__isnull=False) | Q(kind="new", coach__isnull=True),
                name="joinrequest_claim_names_a_coach",
            ),
            models.CheckConstraint(
                condition=Q(outcome="pending", decided_at__isnull=True)
                | (~Q(outcome="pending") & Q(decided_at__isnull=False)),
                name="joinrequest_decided_when_not_pending",
            ),
            models.CheckConstraint(
                condition=Q(outcome="pending") | Q(outcome="refused") | Q(kind="claim", outcome="accepted")
                | Q(kind="new", outcome__in=["next", "regenerate"]),
                name="joinrequest_outcome_fits_kind",
            ),
        ]

    def __str__(self) -> str:
        who = self.coach.name if self.kind == self.Kind.CLAIM and self.coach_id else self.name
        return f"{who} asks to join {self.season}"

    @property
    def is_pending(self) -> bool:
        return self.outcome == self.Outcome.PENDING

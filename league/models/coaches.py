"""A coach: a person who plays in leagues, one row per person across every league
(league/people/merges.py merges two rows that turn out to be one)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Coach(models.Model):
    """A person who plays in leagues. The account link is optional: an organiser can
    run a league for coaches who never log in."""

    # Not unique: two organisers can each have a "Sam Smith", one organiser two in
    # different seasons. Names differ within a season's entrants, however written
    # (league/people/entrants.py ``_enter``, the one place that checks).
    name = models.CharField(max_length=100, db_index=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="coach"
    )
    email = models.EmailField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The open invitation's random part (league/people/invitations.py): a token must carry
    # a digest of it, so none can be made without the email, and sending a new
    # invitation replaces it, which retires the old link. Empty: no invitation open.
    invitation_nonce = models.CharField(max_length=32, blank=True, default="", editable=False)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "coaches"

    def __str__(self) -> str:
        return self.name

    @property
    def contact_email(self) -> str:
        return self.email or (self.user.email if self.user_id else "")

"""A personal API token: only the SHA-256 of its secret is kept, beside a visible
prefix to find it by; the whole token is shown once, when it is made."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Scope(models.TextChoices):
    """What a token may do beyond what anyone may read. Each write also needs what
    the site needs: reporting needs the token's user to coach the fixture, approving
    needs them to organise its league."""

    READ = "read", "Read (counted against this token's limit rather than your address's)"
    REPORT = "report", "Report, confirm and dispute results as your coach"
    ORGANISE = "organise", "Organiser actions on the leagues you organise (approve results)"


class ApiToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60, help_text="What the token is for (a bot, a script), for its owner.")
    prefix = models.CharField(max_length=16, unique=True, help_text="The visible start of the token, to find it by.")
    digest = models.CharField(max_length=64, help_text="The SHA-256 of the whole token, in hex: the token is not kept.")
    may_read = models.BooleanField(default=True)
    may_report = models.BooleanField(default=False)
    may_organise = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(may_read=True) | Q(may_report=True) | Q(may_organise=True),
                name="apitoken_has_a_scope",
            ),
            models.CheckConstraint(condition=~Q(name=""), name="apitoken_has_a_name"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    @property
    def scopes(self) -> list[str]:
        """The scopes held, in Scope's order."""
        held = {Scope.READ: self.may_read, Scope.REPORT: self.may_report, Scope.ORGANISE: self.may_organise}
        return [scope.value for scope, on in held.items() if on]

    def allows(self, scope: str) -> bool:
        return scope in self.scopes

    @property
    def scope_labels(self) -> list[str]:
        return [Scope(value).label for value in self.scopes]

"""The Longshanks' cockpit for The Big League (GB-1): ledgers filtered by coach and
kind, adjustments, Moment confirmations, pending loans and card deals, the Final Day.

Everything that belongs to a league is scoped with ``league.admin.scoping.OrganiserScopedAdmin``
(an organiser sees only their own leagues' campaigns). Ledgers are append-only:
their lines are never added, changed or deleted here; adjustments go through
``campaigns.ledgers.adjust`` as an action on the campaign coaches. The catalogue
is shared by every league, so organisers may view it and only a superuser edits it.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils.html import format_html

from campaigns.ledgers import services as ledgers
from campaigns.moments import services as moments
from campaigns.finalday import services as titles
from campaigns.ledgers.forms import AdjustForm
from campaigns.models import (
    Achievement,
    Campaign,
    CampaignCoach,
    CampaignPointLine,
    CardOffer,
    Deck,
    FavourLine,
    Guild,
    Loan,
    Moment,
    MomentUnlock,
    PlotCard,
    Sponsorship,
    SponsorshipPurchase,
    Title,
)
from league.admin.scoping import (
    BoundedSelectionMixin,
    CheckedModelForm,
    OrganiserScopedAdmin,
    ScopedRelatedFilter,
    error_text,
)
from league.text.plaintext import PlainTextField
from league import admin_site as cockpit

# Catalogue -------------------------------------------------------------------------


class CatalogueAdmin(BoundedSelectionMixin, admin.ModelAdmin):
    """Shared by every league: a superuser edits it, organisers read it."""

    form = CheckedModelForm

    def has_add_permission(self, request):
        return request.user.is_superuser

    def has_change_permission(self, request, obj=None):
        return request.user.is_superuser

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return request.user.is_staff


@admin.register(Guild)
class GuildAdmin(CatalogueAdmin):
    list_display = ["name"]
    search_fields = ["name"]


@admin.register(PlotCard)
class PlotCardAdmin(CatalogueAdmin):
    list_display = ["name", "kind", "guild", "is_rare", "cp_reward", "favour_reward", "summary"]
    list_filter = ["kind", "guild", "is_rare"]
    list_select_related = ["guild"]
    search_fields = ["name", "summary"]


@admin.register(Sponsorship)
class SponsorshipAdmin(CatalogueAdmin):
    list_display = ["name", "order"]


@admin.register(Moment)
class MomentAdmin(CatalogueAdmin):
    list_display = ["threshold", "name", "unlocks", "repeat_every"]


# Scoped, read-only records -----------------------------------------------------------


class ReadOnlyScopedAdmin(OrganiserScopedAdmin):
    """Rows written only by the services: the admin lists them (and runs the
    workflow actions on them) but never edits them."""

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields] + [f.name for f in self.model._meta.many_to_many]


def _report(modeladmin, request, queryset, act, done: str) -> None:
    """Run a service per selected object; refusals become messages."""
    ok = 0
    for obj in queryset:
        try:
            act(obj)
        except (ValidationError, PermissionDenied) as exc:
            modeladmin.message_user(request, f"{obj}: {error_text(exc)}", messages.ERROR)
        else:
            ok += 1
    if ok:
        modeladmin.message_user(request, done.format(count=ok), messages.SUCCESS)


@admin.register(Campaign)
class CampaignAdmin(ReadOnlyScopedAdmin):
    league_lookup = "season__league"
    list_display = ["season", "final_day_declared_at", "page"]
    list_select_related = ["season__league"]
    actions = ["final_day"]

    @admin.display(description="Campaign table")
    def page(self, obj: Campaign) -> str:
        return format_html('<a href="{}">view</a>', reverse("campaigns:campaign_table", args=[obj.season.league.slug]))

    @admin.action(description="Declare the Final Day (fix titles, carry-over)", permissions=["change"])
    def final_day(self, request, queryset):
        _report(
            self, request, queryset, lambda c: titles.declare_final_day(campaign=c, by=request.user),
            "Final Day declared for {count} campaign(s).",
        )


class AdminAdjustForm(AdjustForm):
    reason = PlainTextField(max_length=300, widget=forms.Textarea(attrs={"rows": 3}), help_text="The coach sees it.")


@admin.register(CampaignCoach)
class CampaignCoachAdmin(ReadOnlyScopedAdmin):
    league_lookup = "campaign__season__league"
    list_display = ["__str__", "campaign", "guild", "page"]
    list_select_related = ["entry__coach", "campaign__season__league", "guild"]
    list_filter = [("campaign", ScopedRelatedFilter)]
    search_fields = ["entry__coach__name"]
    actions = ["adjust"]

    @admin.display(description="Campaign page")
    def page(self, obj: CampaignCoach) -> str:
        url = reverse("campaigns:coach_page", args=[obj.campaign.season.league.slug, obj.entry.coach_id])
        return format_html('<a href="{}">view</a>', url)

    @admin.action(description="Adjust CP or Favours (with a reason)", permissions=["change"])
    def adjust(self, request, queryset):
        return self.run_form_action(
            request,
            queryset,
            form_class=AdminAdjustForm,
            title="Adjust Campaign Points or Favours",
            intro="GB-1/GB-11: the adjustment is added to each selected coach's ledger with your reason.",
            apply=lambda cc, data: ledgers.adjust(
                coach=cc, ledger=data["ledger"], amount=data["amount"], reason=data["reason"], by=request.user
            ),
            done_message="Adjustment recorded for {count} coach(es).",
        )


class LedgerAdmin(ReadOnlyScopedAdmin):
    cockpit_group = cockpit.LEDGERS
    league_lookup = "coach__campaign__season__league"
    list_display = ["created_at", "coach", "kind", "amount", "reason", "created_by"]
    list_filter = ["kind", ("coach", ScopedRelatedFilter), ("coach__campaign", ScopedRelatedFilter)]
    list_select_related = ["coach__entry__coach", "created_by"]
    search_fields = ["coach__entry__coach__name", "reason"]
    date_hierarchy = "created_at"


@admin.register(CampaignPointLine)
class CampaignPointLineAdmin(LedgerAdmin):
    pass


@admin.register(FavourLine)
class FavourLineAdmin(LedgerAdmin):
    list_display = [*LedgerAdmin.list_display, "phase"]


@admin.register(MomentUnlock)
class MomentUnlockAdmin(ReadOnlyScopedAdmin):
    league_lookup = "coach__campaign__season__league"
    list_display = ["coach", "threshold", "name", "unlocks", "confirmed_at", "picked_card"]
    list_filter = [("confirmed_at", admin.EmptyFieldListFilter), "unlocks", ("coach", ScopedRelatedFilter)]
    list_select_related = ["coach__entry__coach", "picked__card"]
    actions = ["confirm"]

    @admin.display(description="Picked")
    def picked_card(self, obj: MomentUnlock) -> str:
        picked = getattr(obj, "picked", None)
        return picked.card.name if picked else "–"

    @admin.action(description="Confirm selected Moments (GB-13)", permissions=["change"])
    def confirm(self, request, queryset):
        _report(
            self, request, queryset, lambda u: moments.confirm_unlock(unlock=u, by=request.user),
            "{count} Moment(s) confirmed.",
        )


@admin.register(Loan)
class LoanAdmin(ReadOnlyScopedAdmin):
    league_lookup = "borrower__campaign__season__league"
    list_display = ["model_name", "model_type", "lender", "borrower", "status", "fixture", "requested_at"]
    list_filter = ["status"]
    list_select_related = ["lender__entry__coach", "borrower__entry__coach", "fixture__round", "fixture__home__coach", "fixture__away__coach"]


@admin.register(CardOffer)
class CardOfferAdmin(ReadOnlyScopedAdmin):
    """GB-23: every card offer, whatever became of it. An accepted one also reaches
    the Longshanks on the dashboard, in the coaches' histories and by mail
    (campaigns/notices.py)."""

    league_lookup = "proposer__campaign__season__league"
    list_display = ["__str__", "recipient", "kind", "status", "created_at", "answered_at"]
    list_filter = ["status", "kind"]
    list_select_related = ["proposer__entry__coach", "recipient__entry__coach", "wanted__card", "offered__card"]


@admin.register(SponsorshipPurchase)
class SponsorshipPurchaseAdmin(ReadOnlyScopedAdmin):
    league_lookup = "coach__campaign__season__league"
    list_display = ["sponsorship", "coach", "fixture", "bought_at"]
    list_select_related = ["sponsorship", "coach__entry__coach", "fixture__round", "fixture__home__coach", "fixture__away__coach"]


@admin.register(Deck)
class DeckAdmin(ReadOnlyScopedAdmin):
    league_lookup = "coach__campaign__season__league"
    list_display = ["coach", "fixture", "registered_at"]
    list_select_related = ["coach__entry__coach", "fixture__round", "fixture__home__coach", "fixture__away__coach"]


@admin.register(Achievement)
class AchievementAdmin(ReadOnlyScopedAdmin):
    league_lookup = "coach__campaign__season__league"
    list_display = ["card", "coach", "fixture", "recorded_at"]
    list_select_related = ["card", "coach__entry__coach", "fixture__round", "fixture__home__coach", "fixture__away__coach"]


@admin.register(Title)
class TitleAdmin(ReadOnlyScopedAdmin):
    league_lookup = "campaign__season__league"
    list_display = ["title", "coach", "figure", "campaign"]
    list_select_related = ["coach__entry__coach", "campaign__season__league"]

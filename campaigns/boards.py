"""The Big League's leaderboard and titles (league/records): Campaign Points gained
(GB-11), Favours earned and spent (GB-18 to GB-26), Moments reached (GB-12), and
the Master Strategos and Master of Shadows fixed on Final Day (GB-3, GB-26). Every
figure is a sum of the ledgers, so a correction's reversing line counts too."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Count, F, IntegerField, OuterRef, Q, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from campaigns.models import CampaignPointLine, FavourLine, LineKind, MomentUnlock, Title
from league.records import titles
from league.records.boards import Board, Column, Scope, coaches_in


def _per_coach(rows, total) -> Coalesce:
    """``total`` (an aggregate) of ``rows`` (rows of campaign coaches in scope)
    whose coach is the outer row's coach, as one correlated sub-select."""
    grouped = (
        rows.filter(coach__entry__coach=OuterRef("pk")).order_by().values("coach__entry__coach")
        .annotate(total=Coalesce(total, Value(0))).values("total")
    )
    return Coalesce(Subquery(grouped, output_field=IntegerField()), Value(0))


def _rows(scope: Scope):
    mine = scope.seasons("coach__campaign__season")
    cp = CampaignPointLine.objects.filter(mine)
    favours = FavourLine.objects.filter(mine)
    # GB-12: a Moment counts while its campaign's CP total is at or above its
    # threshold (a correction that takes the total back below leaves the row).
    campaign_cp = Coalesce(Subquery(
        CampaignPointLine.objects.filter(coach=OuterRef("coach")).order_by().values("coach")
        .annotate(total=Sum("amount")).values("total"), output_field=IntegerField()), Value(0))
    reached = MomentUnlock.objects.filter(mine).annotate(campaign_cp=campaign_cp).filter(threshold__lte=F("campaign_cp"))
    in_campaign = Q(pk__in=cp.values("coach__entry__coach")) | Q(pk__in=favours.values("coach__entry__coach"))
    return coaches_in(scope).filter(in_campaign).annotate(
        cp=_per_coach(cp, Sum("amount")),
        favours_earned=_per_coach(favours, Sum("amount", filter=Q(phase__isnull=True) & ~Q(kind=LineKind.CARRY_OVER))),
        favours_spent=_per_coach(favours, -Sum("amount", filter=Q(phase__isnull=False))),
        moments=_per_coach(reached, Count("pk")),
    )


BIG_LEAGUE = Board(
    key="campaign", title="The Big League", game="guildball", named="Coach",
    columns=(Column("cp", "CP gained"), Column("favours_earned", "Favours earned"),
             Column("favours_spent", "Favours spent"), Column("moments", "Moments reached")),
    rows=_rows, order="cp",
    about="Campaign Points and Favours are the sums of their ledgers (corrections included); Favours earned leave "
          "out those carried over from an earlier campaign; a Moment counts while the CP total still reaches it.",
)


def final_day_titles(season_ids: list[int]) -> Iterable[titles.Honour]:
    """GB-3, GB-26: the Master Strategos and the Master of Shadows of each campaign
    whose Final Day was declared (the League Champion is the engine's)."""
    found = (
        Title.objects.filter(campaign__season_id__in=season_ids)
        .exclude(title=Title.Name.LEAGUE_CHAMPION)
        .values_list("campaign__season_id", "title", "coach__entry__coach_id", "coach__entry__coach__name", "figure")
        .order_by("campaign__season_id", "title", "coach__entry__coach__name")
    )
    unit = {Title.Name.MASTER_STRATEGOS: "CP gained", Title.Name.MASTER_OF_SHADOWS: "Favours spent"}
    order = list(Title.Name.values)  # GB-3's order, not the alphabet's
    for season_id, title, coach_id, coach, figure in sorted(found, key=lambda t: (t[0], order.index(t[1]), t[3])):
        yield titles.Honour(season_id, Title.Name(title).label, coach_id, coach, f"{figure} {unit[title]}")

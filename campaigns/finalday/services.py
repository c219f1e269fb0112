"""The Final Day (GB-26): the three titles (GB-3) fixed once every League Match has
its approved result, and the carry-over for coaches without one."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaigns.guards import require_organiser
from campaigns.models import Campaign, CampaignCoach, Title
from campaigns.selectors import campaign_rows, title_race
from campaigns.setup import carry_over, ensure_campaign
from league.models import Fixture
from league.records.titles import Won


def final_day_refusal(campaign: Campaign) -> str | None:
    """GB-26: why the Final Day cannot be declared now (reads only); the page asks
    for confirmation only when it can."""
    if campaign.is_over:
        return "The Final Day has already been declared."
    unplayed = Fixture.objects.filter(round__season=campaign.season).unplayed().count()
    if unplayed:
        return (
            f"{unplayed} League Match{'es' if unplayed != 1 else ''} still without an approved result: "
            "record or abandon them before the Final Day."
        )
    return None


@transaction.atomic
def declare_final_day(*, campaign: Campaign, by) -> list[Title]:
    """GB-26: once every League Match has its approved result, the Longshanks fixes
    the three titles (GB-3) and every coach without one who finished the campaign
    (LG-4: not who withdrew) gets 5 Favours in their next campaign in this league
    (now if it exists, otherwise when they join it)."""
    campaign = Campaign.objects.select_for_update(of=("self",)).select_related("season__league").get(pk=campaign.pk)
    require_organiser(campaign, by)
    refusal = final_day_refusal(campaign)
    if refusal:
        raise ValidationError(refusal)
    season = campaign.season
    ensure_campaign(season)
    rows = campaign_rows(campaign)
    race = title_race(rows)
    by_name = {row.name: row for row in rows}
    titles = Title.objects.bulk_create(
        [
            Title(campaign=campaign, title=title, coach_id=by_name[name].cc_id, figure=figure)
            for title, (names, figure) in race.items()
            for name in names
        ]
    )
    campaign.final_day_declared_at = timezone.now()
    campaign.final_day_declared_by = by
    campaign.save(update_fields=["final_day_declared_at", "final_day_declared_by"])
    titled = {t.coach_id for t in titles}
    withdrew = set(season.entries.filter(withdrawn_at__isnull=False).values_list("coach_id", flat=True))
    for row in rows:
        if row.cc_id in titled or row.coach_id in withdrew:
            continue
        later = (
            CampaignCoach.objects.filter(
                entry__coach_id=row.coach_id,
                campaign__season__league_id=season.league_id,
                campaign__season__start_date__gt=season.start_date,
            )
            .order_by("campaign__season__start_date")
            .first()
        )
        if later is not None:
            carry_over(target=later, source=campaign, by=by)
    return titles


def titles_won(coach_id: int) -> list[Won]:
    """GB-3: the titles the coach was given on a Final Day (GB-26), shared ones
    included: one query, for the profile (league/records/titles.py)."""
    rows = Title.objects.filter(coach__entry__coach_id=coach_id).select_related("campaign__season__league")
    return [
        Won(row.get_title_display(), row.campaign.season_id, row.campaign.season.name,
            row.campaign.season.league.name, row.campaign.season.league.slug, "guildball",
            row.campaign.season.start_date, rule="GB-3")
        for row in rows
    ]

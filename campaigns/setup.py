"""A season's campaign rows: the Campaign, a ``CampaignCoach`` per entry with its
Plotting Moment (GB-14) and any carry-over from the coach's previous campaign in
the league (GB-26). Created when the season starts (``layers.season_started``) or
by the first write that needs them, never by a page (STYLE habit 14)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from campaigns import rules
from campaigns.models import Campaign, CampaignCoach, FavourLine, Guild, LineKind, MomentUnlock, Title
from campaigns.moments.services import moment_table
from league.caching import writes as season_writes
from league.models import Entry, Season


def _guild_key(text: str) -> str:
    """What a Guild's name and the ways people type it share: "Fishermen",
    "fishermans guild" and "Fisherman's" are "fisherman"; "Brewers" is "brewer"."""
    text = text.lower().replace("\u2019", "'").replace("\u2018", "'")
    text = re.sub(r"men\b", "man", text)  # the plural of the Fishermen
    return re.sub(r"\b(the|guild)\b|'s\b|s\b|[^a-z]", "", text)


MIN_GUILD_PREFIX = 4  # "Fishers", "Brew": the start of one Guild's name, long enough to be only its


def guess_guild(team: str, guilds: Iterable[Guild]) -> Guild | None:
    """The Guild ``team`` names: the same name typed another way, else the one
    Guild whose name starts with it."""
    wanted = _guild_key(team)
    if not wanted:
        return None
    keyed = [(_guild_key(guild.name), guild) for guild in guilds]
    for key, guild in keyed:
        if key == wanted:
            return guild
    starting = [guild for key, guild in keyed if len(wanted) >= MIN_GUILD_PREFIX and key.startswith(wanted)]
    return starting[0] if len(starting) == 1 else None


def guild_name(team: str) -> str:
    """A Guild typed any way (a coach's team in a Big League) as its catalogue entry,
    or refused with the list of Guilds; empty stays empty (chosen with the starting
    Guild card later, GB-14)."""
    if not team.strip():
        return ""
    guilds = list(Guild.objects.order_by("name"))
    guild = guess_guild(team, guilds)
    if guild is None:
        names = ", ".join(g.name for g in guilds)
        raise ValidationError({"team": f"\u201c{team.strip()}\u201d is not a Guild. Write one of {names}, "
                                       "or leave it empty and choose the Guild with the starting Guild card."})
    return guild.name


@dataclass
class NewCoach:
    """What a coach joining the campaign starts with: their (unsaved) row, the
    Moments reached at 0 CP (GB-14: Plotting, confirmed from the start) and the
    campaign a carry-over comes from (GB-26), if any. ``ensure_campaign`` writes
    it; a page shows it as it is when the rows do not exist yet (a GET never
    writes, STYLE habit 14)."""

    coach: CampaignCoach
    start: list[MomentUnlock]
    carried_from: Campaign | None

    def carry_over_line(self) -> FavourLine | None:
        if self.carried_from is None:
            return None
        return carry_over_line(target=self.coach, source=self.carried_from)


def new_coaches(campaign: Campaign, entries: list[Entry]) -> list[NewCoach]:
    """The rows the entries would get on joining ``campaign`` (saved or not), in
    four queries whatever their number: guilds, Moments, earlier campaigns, titles.
    Entries need their ``coach`` loaded."""
    if not entries:
        return []
    guilds = list(Guild.objects.all())
    start = rules.moments_reached(0, moment_table())
    sources = carry_over_sources([e.coach_id for e in entries], campaign.season)
    now = timezone.now()
    out = []
    for entry in entries:
        coach = CampaignCoach(campaign=campaign, entry=entry, guild=guess_guild(entry.team, guilds))
        unlocks = [
            MomentUnlock(coach=coach, threshold=m.threshold, name=m.name, unlocks=m.unlocks, confirmed_at=now)
            for m in start
        ]
        out.append(NewCoach(coach, unlocks, sources.get(entry.coach_id)))
    return out


@transaction.atomic
def ensure_campaign(season: Season) -> Campaign:
    """The season's campaign with a row per entry. Called when the season's fixtures
    are generated (``layers.season_started``) and by every write that needs the rows,
    so an entry added later, or a season made without generating fixtures (an
    import), is never a problem. New coaches get their Plotting Moment (GB-14) and
    any carry-over (GB-26)."""
    campaign, _ = Campaign.objects.get_or_create(season=season)
    campaign.season = season
    missing = list(Entry.objects.filter(season=season, campaign_coach__isnull=True).select_related("coach"))
    if not missing:
        return campaign
    joining = new_coaches(campaign, missing)
    CampaignCoach.objects.bulk_create([n.coach for n in joining], ignore_conflicts=True)
    saved = {cc.entry_id: cc for cc in CampaignCoach.objects.filter(entry__in=missing).select_related("entry__coach")}
    unlocks, carried = [], []
    for n in joining:
        coach = saved[n.coach.entry_id]
        for u in n.start:
            u.coach = coach
        unlocks.extend(n.start)
        if n.carried_from is not None:
            carried.append(carry_over_line(target=coach, source=n.carried_from))
    MomentUnlock.objects.bulk_create(unlocks, ignore_conflicts=True)
    FavourLine.objects.bulk_create(carried, ignore_conflicts=True)
    season_writes.changed(season)  # bulk inserts send no signals
    return campaign


def carry_over_sources(coach_ids: list[int], season: Season) -> dict[int, Campaign]:
    """GB-26: by coach, their previous campaign in this league if it ended (Final
    Day declared) without a title for them: joining ``season`` earns 5 Favours.
    LG-4: not when they withdrew from it (the carry-over is for finishing it)."""
    earlier = (
        CampaignCoach.objects.filter(
            entry__coach_id__in=coach_ids,
            campaign__season__league_id=season.league_id,
            campaign__season__start_date__lt=season.start_date,
        )
        .select_related("campaign__season", "entry")
        .order_by("campaign__season__start_date", "campaign__season_id")
    )
    latest: dict[int, CampaignCoach] = {}
    for cc in earlier:
        latest[cc.entry.coach_id] = cc
    if not latest:
        return {}
    titled = set(Title.objects.filter(coach__in=latest.values()).values_list("coach_id", flat=True))
    return {
        coach_id: cc.campaign
        for coach_id, cc in latest.items()
        if cc.campaign.is_over and cc.pk not in titled and cc.entry.withdrawn_at is None
    }


def carry_over_line(*, target: CampaignCoach, source: Campaign, by=None) -> FavourLine:
    return FavourLine(
        coach=target,
        amount=rules.CARRY_OVER_FAVOURS,
        kind=LineKind.CARRY_OVER,
        reason=f"carried over from {source.season.name}: competed without winning a title",
        carried_from=source,
        created_by=by,
        created_at=timezone.now(),
    )


def carry_over(*, target: CampaignCoach, source: Campaign, by=None) -> None:
    """GB-26: credit the carry-over once (the database refuses a second)."""
    FavourLine.objects.bulk_create([carry_over_line(target=target, source=source, by=by)], ignore_conflicts=True)
    season_writes.changed(Q(campaign__coaches__pk=target.pk))  # bulk writes send no signals

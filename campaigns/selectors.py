"""Reads for the campaign pages and feed, each in a fixed number of queries whatever
the number of coaches: aggregates per coach, never a query per row."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q, Sum

from campaigns import rules
from campaigns.models import Campaign, CampaignCoach, CampaignPointEntry, FavourEntry, Title
from campaigns.services import moment_table
from league.standings import standings_for


@dataclass
class CoachRow:
    cc_id: int
    coach_id: int
    name: str
    guild: str | None
    position: str = ""
    rank: int = 0  # the standings position as a number, for sorting
    lp: int = 0
    cp: int = 0
    moments: int = 0
    next_moment: str = ""
    next_threshold: int | None = None
    cp_needed: int = 0
    percent: int = 0
    favours_balance: int = 0
    favours_spent: int = 0
    titles: list[str] = field(default_factory=list)

    @property
    def favours_gained(self) -> int:
        """Everything credited (match, cards, sales, loans to others, adjustments,
        carry-over): balance plus what was spent."""
        return self.favours_balance + self.favours_spent


def campaign_rows(campaign: Campaign, table=None, standings=None) -> list[CoachRow]:
    """One row per coach in standings order (GB-9). Six queries, four when the
    caller already has the season's ``standings``."""
    season = campaign.season
    if standings is None:
        standings = standings_for(season)
    moments = table if table is not None else moment_table()
    coaches = {
        cc.entry_id: cc
        for cc in CampaignCoach.objects.filter(campaign=campaign).select_related("entry__coach", "guild")
    }
    cp = dict(
        CampaignPointEntry.objects.filter(coach__campaign=campaign)
        .values("coach").annotate(total=Sum("amount")).values_list("coach", "total")
    )
    favours = {
        r["coach"]: r
        for r in FavourEntry.objects.filter(coach__campaign=campaign)
        .values("coach")
        .annotate(balance=Sum("amount"), spent=Sum("amount", filter=Q(phase__isnull=False)))
    }
    rows = []
    for standing in standings:
        cc = coaches.get(standing.entry_id)
        if cc is None:
            continue
        total = cp.get(cc.pk) or 0
        nxt = rules.next_moment(total, moments)
        needed, threshold, percent = rules.progress(total, moments)
        f = favours.get(cc.pk, {})
        rows.append(
            CoachRow(
                cc_id=cc.pk,
                coach_id=cc.entry.coach_id,
                name=cc.entry.coach.name,
                guild=cc.guild.name if cc.guild_id else None,
                position=standing.position_label,
                rank=standing.position,
                lp=standing.lp,
                cp=total,
                moments=len(rules.moments_reached(total, moments)),
                next_moment=nxt.name if nxt else "",
                next_threshold=threshold,
                cp_needed=needed,
                percent=percent,
                favours_balance=f.get("balance") or 0,
                favours_spent=-(f.get("spent") or 0),
            )
        )
    # Standings ranks by LP and GB-9 tiebreakers; position 1 (shared) is the leader.
    return rows


def title_race(rows: list[CoachRow]) -> dict[str, tuple[list[str], int]]:
    """GB-3: who would hold each title if the campaign ended now, and the figure."""
    champions = rules.champion_holders({r.name: (r.rank, r.lp) for r in rows})
    strategos = rules.top_holders({r.name: r.cp for r in rows})
    shadows = rules.top_holders({r.name: r.favours_spent for r in rows})
    return {
        Title.Name.LEAGUE_CHAMPION: (champions, max((r.lp for r in rows), default=0)),
        Title.Name.MASTER_STRATEGOS: (strategos, max((r.cp for r in rows), default=0)),
        Title.Name.MASTER_OF_SHADOWS: (shadows, max((r.favours_spent for r in rows), default=0)),
    }


def fixed_titles(campaign: Campaign) -> dict[str, list[str]]:
    """The titles declared on Final Day (GB-26)."""
    out: dict[str, list[str]] = {t.value: [] for t in Title.Name}
    for t in Title.objects.filter(campaign=campaign).select_related("coach__entry__coach"):
        out[t.title].append(t.coach.entry.coach.name)
    return out


def leaders(campaign: Campaign, rows: list[CoachRow]) -> dict[str, list[str]]:
    """Fixed titles once the Final Day is declared, otherwise the live race."""
    if campaign.is_over:
        return fixed_titles(campaign)
    return {title: names for title, (names, _) in title_race(rows).items()}


def campaign_feed(campaign: Campaign) -> dict:
    """The shape of ``GET /leagues/<slug>/campaign.json`` (issue 3)."""
    rows = campaign_rows(campaign)
    lead = leaders(campaign, rows)
    return {
        "league": campaign.season.league.slug,
        "season": campaign.season.name,
        "coaches": [
            {
                "coach": r.name,
                "guild": r.guild,
                "lp": r.lp,
                "cp": r.cp,
                "moments": r.moments,
                "favours_gained": r.favours_gained,
                "favours_spent": r.favours_spent,
                "favours_balance": r.favours_balance,
            }
            for r in rows
        ],
        "leaders": {
            "league_champion": lead[Title.Name.LEAGUE_CHAMPION],
            "master_strategos": lead[Title.Name.MASTER_STRATEGOS],
            "master_of_shadows": lead[Title.Name.MASTER_OF_SHADOWS],
        },
    }

"""Reads for the campaign pages and feed, each in a fixed number of queries whatever
the number of coaches: aggregates per coach, never a query per row.

Reads never write (STYLE habit 14). A season whose campaign rows are not written
yet (no Campaign, or an entry without its ``CampaignCoach``) is shown as it will be
when they are: the rows ``setup.new_coaches`` derives, unsaved."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, F, IntegerField, OuterRef, Q, Subquery, Sum, Value, Window
from django.db.models.functions import Coalesce

from campaigns import rules
from campaigns.ledgers import pictures
from campaigns.dealing.services import acceptance_refusals, spending_refusal
from campaigns.decks.services import base_pool, deck_visible_to_opponent
from campaigns.models import (
    Achievement,
    Campaign,
    CampaignCoach,
    CampaignPointLine,
    CardOffer,
    Deck,
    FavourLine,
    Loan,
    MomentUnlock,
    Notice,
    SponsorshipPurchase,
    Status,
    Title,
)
from campaigns.moments.services import moment_table
from campaigns.dealing.phases import phase_for
from campaigns.setup import NewCoach, new_coaches
from league.models import Entry, Fixture, Season
from league.standings.season import standings_for


NOTICES_SHOWN = 10


def campaign_of(season: Season) -> Campaign:
    """The season's campaign, or an unsaved one shown as new (one query)."""
    campaign = Campaign.objects.filter(season=season).first() or Campaign(season=season)
    campaign.season = season
    return campaign


def _unsaved(entry_id: int) -> str:
    """The key of a coach without a campaign row in the per-coach sums."""
    return f"entry-{entry_id}"


def _joining(campaign: Campaign, entries) -> dict[int, NewCoach]:
    """By entry id: what the entries without a campaign row yet would start with."""
    return {n.coach.entry_id: n for n in new_coaches(campaign, list(entries))}


@dataclass
class CoachRow:
    cc_id: int | None  # None while the coach's row is not written yet
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
    coaches: dict[int, CampaignCoach] = {}
    cp: dict[int, int] = {}
    favours: dict[int, dict] = {}
    if campaign.pk is not None:
        coaches = {
            cc.entry_id: cc
            for cc in CampaignCoach.objects.filter(campaign=campaign).select_related("entry__coach", "guild")
        }
        cp = dict(
            CampaignPointLine.objects.filter(coach__campaign=campaign)
            .values("coach").annotate(total=Sum("amount")).values_list("coach", "total")
        )
        favours = {
            r["coach"]: r
            for r in FavourLine.objects.filter(coach__campaign=campaign)
            .values("coach")
            .annotate(balance=Sum("amount"), spent=Sum("amount", filter=Q(phase__isnull=False)))
        }
    missing = [s.entry_id for s in standings if s.entry_id not in coaches]
    if missing:
        for entry_id, n in _joining(campaign, Entry.objects.filter(pk__in=missing).select_related("coach")).items():
            coaches[entry_id] = n.coach
            line = n.carry_over_line()
            favours[_unsaved(entry_id)] = {"balance": line.amount if line else 0}
    rows = []
    for standing in standings:
        cc = coaches.get(standing.entry_id)
        if cc is None:
            continue
        total = cp.get(cc.pk) or 0
        nxt = rules.next_moment(total, moments)
        needed, threshold, percent = rules.progress(total, moments)
        f = favours.get(cc.pk if cc.pk is not None else _unsaved(cc.entry_id), {})
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
                moments=rules.count_reached(total, moments),
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


def title_race_of(campaign: Campaign, standings) -> dict[str, tuple[list[str], int]]:
    """``title_race`` (GB-3) for the league page's panel, from what the three titles read
    (each coach's standing, CP total and Favours spent), not every coach's campaign
    row: two sums whatever the number of coaches, a third of the cost of
    ``campaign_rows`` at 400 coaches. A coach whose campaign row is not
    written yet has no CP and has spent nothing, as ``campaign_rows`` shows them."""
    cp: dict[int, int] = {}
    spent: dict[int, int] = {}
    if campaign.pk is not None:
        mine = {"coach__campaign": campaign}
        cp = dict(
            CampaignPointLine.objects.filter(**mine)
            .values("coach__entry_id").annotate(total=Sum("amount")).values_list("coach__entry_id", "total")
        )
        spent = dict(
            FavourLine.objects.filter(**mine, phase__isnull=False)
            .values("coach__entry_id").annotate(spent=Sum("amount")).values_list("coach__entry_id", "spent")
        )
    return title_race([
        CoachRow(cc_id=None, coach_id=s.coach_id, name=s.coach, guild=None, rank=s.position, lp=s.lp,
                 cp=cp.get(s.entry_id) or 0, favours_spent=-(spent.get(s.entry_id) or 0))
        for s in standings
    ])


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
    """The shape of ``GET /leagues/<slug>/campaign.json``."""
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


# A coach's campaign page -------------------------------------------------------------


def find_coach(campaign: Campaign, coach_id: int) -> tuple[CampaignCoach, NewCoach | None] | None:
    """The coach's row in the campaign, or (for an entry without one yet) the unsaved
    row it will get with what it starts with; None when they are not in it."""
    cc = (
        CampaignCoach.objects.select_related("entry__coach", "guild")
        .filter(campaign__season_id=campaign.season_id, entry__coach_id=coach_id)
        .first()
    )
    if cc is not None:
        cc.campaign = campaign
        return cc, None
    entry = Entry.objects.filter(season_id=campaign.season_id, coach_id=coach_id).select_related("coach").first()
    if entry is None:
        return None
    joining = _joining(campaign, [entry])[entry.pk]
    return joining.coach, joining


def coach_page(campaign: Campaign, cc: CampaignCoach, joining: NewCoach | None = None) -> dict:
    """Everything the coach's page shows (GB-11 to GB-25), in a fixed number of
    queries: the table row, the phase, Moments, pool, decks, deals and ledgers."""
    table = moment_table()
    row = next(r for r in campaign_rows(campaign, table) if r.coach_id == cc.entry.coach_id)
    phase = phase_for(cc, campaign_over=campaign.is_over)
    if joining is not None:
        unlocks = joining.start
        carried = joining.carry_over_line()
        owned, decks, offers, loans, sponsorships, cp_lines, notices = [], [], [], [], [], [], []
        favour_lines = [carried] if carried else []
    else:
        unlocks = list(cc.unlocks.select_related("picked__card").order_by("threshold"))
        owned = list(cc.owned_cards.filter(gone_at__isnull=True).select_related("card"))
        decks = list(
            cc.decks.select_related("fixture__round", "fixture__home__coach", "fixture__away__coach")
            .prefetch_related("cards")
        )
        offers = list(
            CardOffer.objects.filter(Q(proposer=cc) | Q(recipient=cc)).select_related(
                "proposer__entry__coach", "recipient__entry__coach", "wanted__card", "offered__card"
            )
        )
        loans = list(
            Loan.objects.filter(Q(borrower=cc) | Q(lender=cc)).select_related(
                "borrower__entry__coach", "lender__entry__coach", "fixture__round", "fixture__result"
            )
        )
        sponsorships = list(cc.sponsorships.select_related("sponsorship", "fixture__round", "fixture__result"))
        # The match each line came from, to date it by its round (not the moment it was written).
        cp_lines = list(CampaignPointLine.objects.filter(coach=cc).select_related("created_by__coach", "result__fixture__round"))
        favour_lines = list(FavourLine.objects.filter(coach=cc).select_related("created_by__coach", "result__fixture__round"))
        notices = list(Notice.objects.filter(coach=cc)[:NOTICES_SHOWN])
    # An action that cannot go through now is shown disabled, with why.
    pending_loans = [x for x in loans if x.status == Status.PENDING]
    pending_offers = [x for x in offers if x.status == Status.PENDING]
    blocked, _ = acceptance_refusals(loans=pending_loans, offers=pending_offers, campaign_over=campaign.is_over)
    for x in pending_loans:
        x.blocked = blocked.get(("loan", x.pk))
    for x in pending_offers:
        x.blocked = blocked.get(("offer", x.pk))
    for u in unlocks:
        u.is_reached = u.threshold <= row.cp  # GB-12: still reached after any correction
        u.picked_card = getattr(u, "picked", None) if u.pk else None
    return {
        "row": row,
        "phase": phase,
        "unlocks": unlocks,
        "start_unlock": next((u for u in unlocks if u.threshold == 0), None),
        # GB-13: Moments confirmed and still reached whose card is not picked yet.
        "pending": [u for u in unlocks if u.threshold > 0 and u.picked_card is None and u.confirmed_at and u.is_reached],
        "to_confirm": [u for u in unlocks if u.confirmed_at is None and u.is_reached],
        "base_pool": list(base_pool()),
        "owned": owned,
        "decks": decks,
        "offers": offers,
        # GB-23: the cards that changed hands, for the history (a swap moves no Favour).
        "trades": sorted((x for x in offers if x.status == Status.ACCEPTED), key=lambda x: (x.answered_at, x.pk),
                         reverse=True),
        "loans": loans,
        "sponsorships": sponsorships,
        "cp_lines": cp_lines,
        "favour_lines": favour_lines,
        "cp_chart": pictures.cp_chart(cp_lines, table),
        "favours_chart": pictures.favours_chart(favour_lines),
        "notices": notices,
        "spend_refusals": {
            action: spending_refusal(action, phase=phase, lines=favour_lines)
            for action in ("sponsorship", "advancement", "loan")
        },
        **debt(row.favours_balance, favour_lines),
    }


def debt(balance: int, favour_lines: list) -> dict:
    """GB-20 Decision: a correction that takes back Favours already spent leaves a
    debt; the page shows it with the lines that caused it (the reversals that took
    Favours back). The coach can spend again once the balance covers the cost."""
    if balance >= 0:
        return {"debt": 0, "debt_causes": []}
    causes = [e for e in favour_lines if e.reverses_id is not None and e.amount < 0]
    return {"debt": -balance, "debt_causes": causes}


# A fixture's campaign page ----------------------------------------------------------


def fixture_coaches(campaign: Campaign, fixture: Fixture) -> dict[str, CampaignCoach]:
    """The two sides' campaign rows by side ("home", "away"); unsaved for a coach
    whose row is not written yet."""
    entry_ids = [fixture.home_id, fixture.away_id]
    by_entry = {
        cc.entry_id: cc
        for cc in CampaignCoach.objects.filter(entry_id__in=entry_ids).select_related("entry__coach", "campaign")
    }
    missing = [e for e in (fixture.home, fixture.away) if e.pk not in by_entry]
    if missing:
        by_entry.update({entry_id: n.coach for entry_id, n in _joining(campaign, missing).items()})
    return {"home": by_entry[fixture.home_id], "away": by_entry[fixture.away_id]}


def fixture_page(campaign: Campaign, fixture: Fixture, side: str | None, is_organiser: bool) -> dict:
    """Both sides of a League Match for the Big League (GB-16, GB-17, GB-21, GB-22):
    decks (face down for the opponent until match day), achieved cards,
    sponsorships and loans. Each side says what forms it may show: ``deck_open``
    (a coach's own deck until the match is reported) and ``achievements_open``."""
    coaches = fixture_coaches(campaign, fixture)
    decks = {d.coach_id: d for d in Deck.objects.filter(fixture=fixture).prefetch_related("cards")}
    achieved: dict[int, list] = {}
    for a in Achievement.objects.filter(fixture=fixture).select_related("card"):
        achieved.setdefault(a.coach_id, []).append(a.card)
    sponsorships: dict[int, list] = {}
    for s in SponsorshipPurchase.objects.filter(fixture=fixture).select_related("sponsorship"):
        sponsorships.setdefault(s.coach_id, []).append(s.sponsorship)
    loans = list(
        Loan.objects.filter(fixture=fixture, status=Status.ACCEPTED).select_related(
            "borrower__entry__coach", "lender__entry__coach"
        )
    )
    visible = deck_visible_to_opponent(fixture)
    result = fixture.result_or_none
    # GB-17: cards are recorded once the match is played (reported), until approval.
    open_for_achievements = result is not None and not result.is_approved
    sides = []
    for this_side in ("home", "away"):
        cc = coaches[this_side]
        own = this_side == side
        deck = decks.get(cc.pk) if cc.pk else None
        sides.append({
            "side": this_side,
            "cc": cc,
            "own": own,
            "deck": deck,
            "deck_cards": list(deck.cards.all()) if deck else [],
            "show_deck": own or is_organiser or visible,
            "achieved": achieved.get(cc.pk, []) if cc.pk else [],
            "sponsorships": sponsorships.get(cc.pk, []) if cc.pk else [],
            # GB-16: the form is offered only where registering can go through.
            # LG-2: nor for a match a withdrawal cancelled.
            "deck_open": own and result is None and not fixture.is_cancelled and not campaign.is_over
            and (deck is None or not visible),
            "achievements_open": (own or is_organiser) and open_for_achievements and deck is not None,
        })
    return {"result": result, "sides": sides, "loans": loans, "decks_visible": visible}


@dataclass(frozen=True)
class DeckPrefill:
    """The cards a deck form starts ticked with, and where they come from, which
    the page says (a form ticked from another match's deck while the
    page says "No deck registered" misled a coach into ticking 24)."""

    card_ids: list[int]
    source: str  # "your deck for this match", "your deck for Round 3"


def deck_prefill(cc: CampaignCoach, deck: Deck | None) -> DeckPrefill | None:
    """This match's deck, else the coach's latest one (two queries at most); None
    when the coach has registered no deck yet."""
    if deck is not None:
        return DeckPrefill([c.pk for c in deck.cards.all()], "your deck for this match")
    if cc.pk is None:
        return None
    last = Deck.objects.filter(coach=cc).select_related("fixture__round").order_by("-fixture__round__number").first()
    if last is None:
        return None
    return DeckPrefill([c.pk for c in last.cards.all()], f"your deck for {last.fixture.round}")


# The organiser's dashboard ----------------------------------------------------------


def moments_waiting(season_ids):
    """GB-13: the Moments waiting for the Longshanks in these seasons, in the
    order they were reached: not confirmed yet, and still reached (GB-12: a
    correction may since have taken the coach's CP below the threshold). The CP
    total is summed in the database beside each unlock, so counting or showing a
    page of them is one query whatever the campaign's size."""
    cp = (
        CampaignPointLine.objects.filter(coach=OuterRef("coach")).order_by().values("coach")
        .annotate(total=Sum("amount")).values("total")
    )
    return (
        MomentUnlock.objects.filter(coach__campaign__season__in=season_ids, confirmed_at__isnull=True)
        .annotate(cp=Coalesce(Subquery(cp, output_field=IntegerField()), Value(0)))
        .filter(threshold__lte=F("cp"))
        .order_by("reached_at", "pk")
    )



def card_trades(season_ids, *, first: int, size: int) -> tuple[int, list[CardOffer]]:
    """GB-1, GB-23: the accepted card sales and swaps of these seasons, newest
    first, ``size`` of them from the ``first`` (0-based), with how many there are
    in all: one query whatever the campaign's size (the total rides on each line)."""
    lines = list(
        CardOffer.objects.filter(proposer__campaign__season__in=season_ids, status=Status.ACCEPTED)
        .select_related("proposer__entry__coach", "recipient__entry__coach", "wanted__card", "offered__card")
        .annotate(total=Window(Count("pk")))
        .order_by("-answered_at", "-pk")[first:first + size]
    )
    if lines:
        return lines[0].total, lines
    if first:  # past the last page: how many there are still answers which page is last
        return CardOffer.objects.filter(proposer__campaign__season__in=season_ids, status=Status.ACCEPTED).count(), []
    return 0, []

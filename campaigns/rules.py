"""The Big League's rules as plain functions over plain values (no ORM), so every
edge can be tested without a database. The services (``moments``, ``dealing``, ``ledgers``) feed them.

Spending checks return ``None`` when allowed or a refusal message that names the
rule and the numbers (the services turn it into a ValidationError).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

SPEND_LIMIT_PER_PHASE = 5  # GB-19
SPONSORSHIP_COST = 1  # GB-21
LOAN_COST = 3  # GB-22
LOAN_TO_LENDER = 2  # GB-22: the third Favour goes back to the bank
MAX_CARD_OFFER = 5  # GB-23
ADVANCEMENT_COST = 1  # GB-24
ADVANCEMENT_CP = 5  # GB-24
DECK_SIZE = 12  # GB-16
CARRY_OVER_FAVOURS = 5  # GB-26
UNLOANABLE_TYPES = {"captain": "Captain", "mascot": "Mascot"}  # GB-22
# STYLE habit 15: the bounds of what a person or a file can enter. One
# Longshanks adjustment (GB-1, GB-11) or imported match CP moves a ledger by at most
# MAX_ADJUSTMENT; every ledger line (a reversal too) stays within it (a database
# check); a coach's CP total never passes MAX_CP_TOTAL, so the Moments reached
# (one per 20 CP past 200) stay a few thousand at the very most. Real campaigns end
# with a few hundred CP.
MAX_ADJUSTMENT = 1000
MAX_CP_TOTAL = 100_000

GUILD = "guild"
RARE = "rare"


# Moments (GB-12, GB-13) --------------------------------------------------------


@dataclass(frozen=True)
class MomentDef:
    threshold: int
    name: str
    unlocks: str  # GUILD or RARE
    repeat_every: int | None = None


@dataclass(frozen=True)
class ReachedMoment:
    threshold: int
    name: str
    unlocks: str


def _expand(table: Sequence[MomentDef], up_to: int, *, above: int = -1) -> list[ReachedMoment]:
    """Every Moment with ``above`` < threshold <= ``up_to``, repeating rows unrolled:
    the cost is the number of Moments in that range, never the CP total itself."""
    out: list[ReachedMoment] = []
    for m in sorted(table, key=lambda m: m.threshold):
        if m.threshold > up_to:
            break
        if m.repeat_every:
            first = m.threshold
            if first <= above:  # skip the repeats at or below ``above`` arithmetically
                first += ((above - m.threshold) // m.repeat_every + 1) * m.repeat_every
            out.extend(ReachedMoment(t, m.name, m.unlocks) for t in range(first, up_to + 1, m.repeat_every))
        elif m.threshold > above:
            out.append(ReachedMoment(m.threshold, m.name, m.unlocks))
    out.sort(key=lambda r: r.threshold)
    # Where two rows share a threshold, the one listed first in threshold order wins.
    seen: dict[int, ReachedMoment] = {}
    for r in out:
        seen.setdefault(r.threshold, r)
    return [seen[t] for t in sorted(seen)]


def moments_reached(cp_total: int, table: Sequence[MomentDef], *, above: int = -1) -> list[ReachedMoment]:
    """GB-12: every Moment whose threshold the CP total has reached (Plotting at 0
    is always reached); with ``above``, only those past that threshold (the ones a
    coach who already holds every unlock up to ``above`` has newly reached)."""
    return _expand(table, max(cp_total, 0), above=above)


def count_reached(cp_total: int, table: Sequence[MomentDef]) -> int:
    """How many Moments the total has reached (``len(moments_reached(...))``) in
    O(table rows²), whatever the total. A fixed row on a threshold a repeating row
    also reaches counts once; the catalogue has one repeating row."""
    cp = max(cp_total, 0)
    repeating = [m for m in table if m.repeat_every and m.threshold <= cp]
    count = sum((cp - m.threshold) // m.repeat_every + 1 for m in repeating)
    for m in table:
        if m.repeat_every or m.threshold > cp:
            continue
        if not any(m.threshold >= r.threshold and (m.threshold - r.threshold) % r.repeat_every == 0 for r in repeating):
            count += 1
    return count


def _last_at_or_below(m: MomentDef, cp: int) -> int | None:
    if m.threshold > cp:
        return None
    if not m.repeat_every:
        return m.threshold
    return m.threshold + (cp - m.threshold) // m.repeat_every * m.repeat_every


def _first_above(m: MomentDef, cp: int) -> int:
    if m.threshold > cp or not m.repeat_every:
        return m.threshold
    return m.threshold + ((cp - m.threshold) // m.repeat_every + 1) * m.repeat_every


def _named(table: Sequence[MomentDef], threshold: int) -> ReachedMoment:
    """The Moment at ``threshold`` (the row listed first in threshold order, as in _expand)."""
    for m in sorted(table, key=lambda m: m.threshold):
        if _last_at_or_below(m, threshold) == threshold:
            return ReachedMoment(threshold, m.name, m.unlocks)
    raise ValueError(threshold)


def last_reached(cp_total: int, table: Sequence[MomentDef]) -> ReachedMoment | None:
    """The highest Moment the total has reached, in O(table rows)."""
    candidates = [t for m in table if (t := _last_at_or_below(m, max(cp_total, 0))) is not None]
    return _named(table, max(candidates)) if candidates else None


def next_moment(cp_total: int, table: Sequence[MomentDef]) -> ReachedMoment | None:
    """The first Moment not yet reached (None only for an empty table), in
    O(table rows) whatever the total."""
    candidates = [t for m in table if (t := _first_above(m, cp_total)) > cp_total]
    return _named(table, min(candidates)) if candidates else None


def progress(cp_total: int, table: Sequence[MomentDef]) -> tuple[int, int | None, int]:
    """(CP still needed for the next Moment, its threshold, percent of the way from
    the last Moment reached to the next)."""
    nxt = next_moment(cp_total, table)
    if nxt is None:
        return 0, None, 100
    last = last_reached(cp_total, table)
    start = last.threshold if last else 0
    span = max(nxt.threshold - start, 1)
    return nxt.threshold - cp_total, nxt.threshold, max(0, min(100, (cp_total - start) * 100 // span))


def check_adjustment(*, ledger: str, amount: int, cp_total: int) -> str | None:
    """GB-1/GB-11 with STYLE habit 15's bounds: a refusal message, or None."""
    if not -MAX_ADJUSTMENT <= amount <= MAX_ADJUSTMENT:
        return f"An adjustment is between -{MAX_ADJUSTMENT} and {MAX_ADJUSTMENT}; {amount} is not."
    if ledger == "cp" and cp_total + amount > MAX_CP_TOTAL:
        return f"That would take the CP total to {cp_total + amount}; a coach's total stays at most {MAX_CP_TOTAL}."
    return None


# Favours gained (GB-18) ----------------------------------------------------------


@dataclass(frozen=True)
class Award:
    amount: int
    reason: str


def favour_awards(*, won: bool, my_lp: int, opponent_lp: int, opponent: str, abandoned: bool = False) -> list[Award]:
    """GB-18: every line that applies, each with its reason. ``my_lp`` and
    ``opponent_lp`` are both coaches' LP from the results of all earlier rounds
    (GB-18 Decision). An abandoned match is a loss for both (GB-6)."""
    if abandoned:
        won = False
    awards: list[Award] = []
    if won:
        awards.append(Award(1, f"won against {opponent}"))
    elif abandoned:
        awards.append(Award(3, f"abandoned match against {opponent} counts as a loss"))
    else:
        awards.append(Award(3, f"lost to {opponent}"))
    if opponent_lp > my_lp:
        awards.append(Award(1, f"played {opponent}, who had more LP ({opponent_lp} to {my_lp})"))
        if won:
            awards.append(Award(2, f"beat {opponent}, who had more LP ({opponent_lp} to {my_lp})"))
    return awards


# Spending (GB-19 to GB-24) ---------------------------------------------------------


def check_spend(*, balance: int, spent_in_phase: int, cost: int, what: str, who: str = "") -> str | None:
    """GB-20: never below zero; GB-19: at most 5 spent per Wheeling & Dealing phase.
    ``who`` names the payer when it is not the person reading the message."""
    has = f"{who} has" if who else "you have"
    if cost > balance:
        return (
            f"{what} costs {cost} Favour{'s' if cost != 1 else ''} and {has} {balance} "
            f"(a balance can never go below zero)."
        )
    if spent_in_phase + cost > SPEND_LIMIT_PER_PHASE:
        return (
            f"{what} costs {cost} and {has} already spent {spent_in_phase} of the {SPEND_LIMIT_PER_PHASE} "
            f"Favours allowed this Wheeling & Dealing phase."
        )
    return None


def check_sponsorship(*, name: str, held: Iterable[str]) -> str | None:
    """GB-21: no two copies of the same sponsorship."""
    if name in set(held):
        return f"You already hold {name} for your next match (one copy of each sponsorship)."
    return None


def check_loanable(model_type: str) -> str | None:
    """GB-22: Captains and Mascots cannot be loaned."""
    label = UNLOANABLE_TYPES.get(model_type)
    if label:
        return f"A {label} cannot be loaned (models of type Captain or Mascot stay with their team)."
    return None


def check_advancement(*, advancements_in_phase: int) -> str | None:
    """GB-24: at most one Campaign Advancement per Wheeling & Dealing phase."""
    if advancements_in_phase >= 1:
        return (
            f"You have already bought {advancements_in_phase} Campaign Advancement this Wheeling & Dealing phase "
            f"(at most {ADVANCEMENT_COST} Favour per phase for +{ADVANCEMENT_CP} CP)."
        )
    return None


def check_deck_size(*, chosen: int, prefilled: int = 0, prefilled_from: str = "") -> str | None:
    """GB-16: a deck is exactly 12 distinct cards. ``prefilled`` of the ``chosen``
    cards were ticked already when the form was shown, so the count a
    coach did not expect is explained."""
    if chosen == DECK_SIZE:
        return None
    message = f"A deck is exactly {DECK_SIZE} distinct cards; you chose {chosen}."
    if prefilled:
        message += (
            f" {prefilled} of them {'were' if prefilled != 1 else 'was'} ticked already, pre-filled from "
            f"{prefilled_from}: untick the cards you leave out."
        )
    return message


def check_card_offer(favours: int) -> str | None:
    """GB-23: 1 to 5 Favours for one card."""
    if not 1 <= favours <= MAX_CARD_OFFER:
        return f"An offer for a card is 1 to {MAX_CARD_OFFER} Favours; you offered {favours}."
    return None


# Titles (GB-3) ----------------------------------------------------------------------


def top_holders(figures: Mapping[str, int]) -> list[str]:
    """GB-3 Decision: everyone level on the top figure shares the title; nobody
    holds it when the top figure is 0."""
    if not figures:
        return []
    top = max(figures.values())
    if top <= 0:
        return []
    return sorted((name for name, value in figures.items() if value == top), key=str.casefold)


def champion_holders(positions: Mapping[str, tuple[int, int]]) -> list[str]:
    """GB-3: the League Champion is first in the standings (GB-9 tiebreakers already
    applied; coaches sharing first place share the title). ``positions`` maps a
    coach to (position, LP). Nobody holds it while the leaders have 0 LP."""
    leaders = {name: lp for name, (position, lp) in positions.items() if position == 1}
    if not leaders or max(leaders.values()) <= 0:
        return []
    return sorted(leaders, key=str.casefold)

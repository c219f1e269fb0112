"""Dungeon Bowl league rules (RULES.md section 2) as plain functions over plain values.

No ORM here: the services feed these from the database and store what they return,
so every number a coach sees can be checked by hand against a test. Gold is an
``int`` in gold pieces. Dice rolls are inputs (DB-16): the caller rolls, logs the
roll, then passes the values in.

Characteristics follow the rosters: MA and ST are plain numbers (higher is better);
AG, PA and AV are stored as the target number printed on the roster ("3+" is 3).
For AG and PA a lower target is better; for AV a higher one is (armour is broken on
that roll or more). PA may be ``None`` (the roster's "-": the player cannot pass).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum


def gp(amount: int) -> str:
    """15000 -> "15,000 gp"."""
    return f"{amount:,} gp"


def _check_die(value: int, sides: int = 6) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
        raise ValueError(f"A D{sides} roll is a whole number from 1 to {sides}, not {value!r}.")


# Drafts (DB-6, DB-7) ---------------------------------------------------------------

MAX_PLAYERS = 16  # DB-6
MAX_REROLLS = 8  # DB-6
DEFAULT_DRAFT_BUDGET = 1_000_000  # DB-6, a league setting
DEFAULT_REROLL_COST = 50_000  # DB-6; the seed prices both colleges' re-rolls at this


@dataclass(frozen=True)
class RosterPosition:
    name: str
    cost: int
    group: str  # "Linemen", "Special": positions of a group share its limit
    group_max: int


@dataclass(frozen=True)
class Roster:
    """A college's roster (DB-7)."""

    college: str
    positions: tuple[RosterPosition, ...]
    reroll_cost: int = DEFAULT_REROLL_COST

    def position(self, name: str) -> RosterPosition | None:
        return next((p for p in self.positions if p.name == name), None)

    def groups(self) -> dict[str, tuple[int, list[str]]]:
        """group -> (max, position names), in roster order."""
        out: dict[str, tuple[int, list[str]]] = {}
        for p in self.positions:
            out.setdefault(p.group, (p.group_max, []))[1].append(p.name)
        return out


@dataclass(frozen=True)
class Pick:
    """One line of a draft list. ``cost`` overrides the roster price: a returning
    player re-hired at current value plus the fee (DB-15)."""

    position: str
    cost: int | None = None
    label: str = ""


@dataclass(frozen=True)
class Limit:
    """One limit of the draft and how much of it the draft uses."""

    label: str  # "0-2 Special: Troll Slayer and Chaos Dwarf Flamesmith together"
    used: int
    maximum: int

    @property
    def reached(self) -> bool:
        return self.used >= self.maximum

    @property
    def over(self) -> int:
        return max(0, self.used - self.maximum)


@dataclass(frozen=True)
class DraftCheck:
    players_cost: int
    rerolls_cost: int
    budget: int
    players: int
    rerolls: int
    limits: tuple[Limit, ...]
    refusals: tuple[str, ...]

    @property
    def cost(self) -> int:
        return self.players_cost + self.rerolls_cost

    @property
    def remaining(self) -> int:
        """Negative when over budget."""
        return self.budget - self.cost

    @property
    def ok(self) -> bool:
        return not self.refusals

    @property
    def treasury(self) -> int:
        """DB-6 Decision: what the draft leaves unspent opens the Treasury."""
        if not self.ok:
            raise ValueError("A refused draft opens no Treasury.")
        return self.remaining

    @property
    def reached(self) -> tuple[Limit, ...]:
        return tuple(limit for limit in self.limits if limit.reached)


class DraftRefused(ValueError):
    def __init__(self, check: DraftCheck):
        self.check = check
        super().__init__(" ".join(check.refusals))


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def check_draft(roster: Roster, picks: Sequence[str | Pick], rerolls: int, budget: int) -> DraftCheck:
    """DB-6/DB-7: cost, remaining budget, every limit and every reason to refuse.

    A draft is refused over budget, over 16 players, outside 0-8 re-rolls, over a
    group's limit (positions of a group share it: "0-2 Special"), or with a
    position the college does not have. Each refusal says which limit and by how
    much; the caller shows all of them at once.
    """
    refusals: list[str] = []
    if budget < 0:
        refusals.append(f"The budget cannot be negative ({gp(budget)}).")
    lines = [p if isinstance(p, Pick) else Pick(p) for p in picks]
    players_cost = 0
    per_group: Counter[str] = Counter()
    for line in lines:
        position = roster.position(line.position)
        if position is None:
            refusals.append(f"{line.position} is not a position of the {roster.college}.")
            continue
        if line.cost is not None and line.cost < 0:
            refusals.append(f"{line.label or line.position}: a cost cannot be negative.")
            continue
        players_cost += position.cost if line.cost is None else line.cost
        per_group[position.group] += 1

    limits = [Limit(f"Up to {MAX_PLAYERS} players", len(lines), MAX_PLAYERS)]
    for group, (maximum, names) in roster.groups().items():
        together = " together" if len(names) > 1 else ""
        limits.append(Limit(f"0-{maximum} {group}: {_names(names)}{together}", per_group[group], maximum))
    limits.append(Limit(f"0-{MAX_REROLLS} team re-rolls", rerolls, MAX_REROLLS))
    for limit in limits:
        if limit.over:
            refusals.append(f"{limit.label}, you have {limit.used} ({limit.over} too many).")
    if rerolls < 0:
        refusals.append("Team re-rolls cannot be fewer than 0.")

    rerolls_cost = max(rerolls, 0) * roster.reroll_cost
    check = DraftCheck(players_cost, rerolls_cost, budget, len(lines), rerolls, tuple(limits), ())
    if check.remaining < 0:
        refusals.append(f"Over budget by {gp(-check.remaining)}.")
    return replace(check, refusals=tuple(refusals))


def require_draft(roster: Roster, picks: Sequence[str | Pick], rerolls: int, budget: int) -> DraftCheck:
    """``check_draft`` that raises ``DraftRefused`` (a ``ValueError``) when refused."""
    check = check_draft(roster, picks, rerolls, budget)
    if not check.ok:
        raise DraftRefused(check)
    return check


# Outcomes, League points, winnings (DB-4, DB-5a, DB-10) ---------------------------------


class Outcome(StrEnum):
    HOME_WIN = "home_win"
    AWAY_WIN = "away_win"
    DRAW = "draw"  # DB-5: a time limit with equal distances
    HOME_CONCEDED = "home_conceded"  # DB-5a: a 1-0 win for the away team
    AWAY_CONCEDED = "away_conceded"
    UNPLAYED = "unplayed"  # DB-5a Decision: a loss for both


def result_for(outcome: Outcome, side: str) -> str:
    """'win', 'draw' or 'loss' for side 'home' or 'away'."""
    if side not in ("home", "away"):
        raise ValueError(f"A side is 'home' or 'away', not {side!r}.")
    if outcome == Outcome.DRAW:
        return "draw"
    if outcome == Outcome.UNPLAYED:
        return "loss"
    home_won = outcome in (Outcome.HOME_WIN, Outcome.AWAY_CONCEDED)
    return "win" if home_won == (side == "home") else "loss"


def league_points(result: str, *, spp_casualties: int = 0, casualty_bonus: bool = False) -> int:
    """DB-4: win 3, draw 1, loss 0; with the league's optional bonus, +1 for causing
    3 or more casualties that earn SPP."""
    base = {"win": 3, "draw": 1, "loss": 0}
    if result not in base:
        raise ValueError(f"A result is win, draw or loss, not {result!r}.")
    if spp_casualties < 0:
        raise ValueError("Casualties cannot be negative.")
    return base[result] + (1 if casualty_bonus and spp_casualties >= 3 else 0)


@dataclass(frozen=True)
class Winnings:
    home: int
    away: int


def winnings_dice(outcome: Outcome) -> int:
    """How many D6 the winnings take (DB-10): the winner's 2D6, one die each on a
    draw (home then away), none for an unplayed fixture."""
    return 0 if outcome == Outcome.UNPLAYED else 2


def winnings(outcome: Outcome, dice: Sequence[int]) -> Winnings:
    """DB-10 and its Decision. Win: the winner's 2D6, the higher die x 10,000 to the
    winner, the lower to the loser. Draw: each team its own D6 (``dice`` = home,
    away). Conceded: the winner still gets the higher die, the conceding team
    nothing. Unplayed: nothing, and no dice."""
    outcome = Outcome(outcome)
    if len(dice) != winnings_dice(outcome):
        raise ValueError(f"{outcome.value} winnings take {winnings_dice(outcome)} dice, not {len(dice)}.")
    for die in dice:
        _check_die(die)
    if outcome == Outcome.UNPLAYED:
        return Winnings(0, 0)
    if outcome == Outcome.DRAW:
        return Winnings(dice[0] * 10_000, dice[1] * 10_000)
    high, low = max(dice) * 10_000, min(dice) * 10_000
    if outcome in (Outcome.HOME_CONCEDED, Outcome.AWAY_CONCEDED):
        low = 0
    home_won = outcome in (Outcome.HOME_WIN, Outcome.AWAY_CONCEDED)
    return Winnings(high, low) if home_won else Winnings(low, high)


MAX_GATHERERS = MAX_PLAYERS


def treasure_room_bonus(players: int) -> int:
    """DB-10: players who used Gather Funds -> 0 / 1-2: 10,000 / 3-4: 20,000 / 5+: 30,000."""
    if not 0 <= players <= MAX_GATHERERS:
        raise ValueError(f"Gather Funds is used by 0 to {MAX_GATHERERS} players, not {players}.")
    if players >= 5:
        return 30_000
    if players >= 3:
        return 20_000
    return 10_000 if players >= 1 else 0


# Star Player Points (DB-11) ----------------------------------------------------------


@dataclass(frozen=True)
class SppValues:
    """DB-11 defaults (Blood Bowl 2020), editable per league."""

    completion: int = 1
    deflection: int = 1
    interception: int = 2
    casualty: int = 2
    touchdown: int = 3
    mvp: int = 4


@dataclass(frozen=True)
class GameEvents:
    """What one player did in one game."""

    completions: int = 0
    deflections: int = 0
    interceptions: int = 0
    casualties: int = 0  # only those that earn SPP
    touchdowns: int = 0
    mvp: bool = False


def spp_earned(events: GameEvents, values: SppValues = SppValues()) -> int:
    """DB-11: the SPP a player earns for one game."""
    counts = {
        "completion": events.completions,
        "deflection": events.deflections,
        "interception": events.interceptions,
        "casualty": events.casualties,
        "touchdown": events.touchdowns,
    }
    for name, count in counts.items():
        if count < 0:
            raise ValueError(f"A player's {name}s cannot be negative.")
    return sum(getattr(values, name) * count for name, count in counts.items()) + (values.mvp if events.mvp else 0)


# Characteristics, injuries (DB-13) --------------------------------------------------

# Blood Bowl 2020's characteristic ranges, which Dungeon Bowl defers to (the seed
# only says "never below its minimum"). (worst, best); AG and PA are targets where
# a higher number is worse, so their worst is 6+; AV's worst is 3+.
RANGES: Mapping[str, tuple[int, int]] = {"ma": (1, 9), "st": (1, 8), "ag": (6, 1), "pa": (6, 1), "av": (3, 11)}
CHARACTERISTICS = ("ma", "st", "ag", "pa", "av")
TARGETS = frozenset({"ag", "pa"})  # lower is better


@dataclass(frozen=True)
class Profile:
    ma: int
    st: int
    ag: int
    pa: int | None
    av: int

    def worsened(self, characteristic: str) -> tuple[Profile, bool]:
        """-1 to one characteristic (+1 to the target of AG/PA), never past its worst
        value. Returns the profile and whether anything changed: a player already at
        the minimum, or without a PA ("-"), keeps the profile."""
        return self._step(characteristic, worse=True)

    def improved(self, characteristic: str) -> tuple[Profile, bool]:
        """+1 (or -1 to an AG/PA target), never past its best value; a PA of "-"
        becomes 6+ (Blood Bowl 2020)."""
        if characteristic == "pa" and self.pa is None:
            return replace(self, pa=RANGES["pa"][0]), True
        return self._step(characteristic, worse=False)

    def _step(self, characteristic: str, *, worse: bool) -> tuple[Profile, bool]:
        if characteristic not in RANGES:
            raise ValueError(f"{characteristic!r} is not one of MA, ST, AG, PA, AV.")
        value = getattr(self, characteristic)
        if value is None:
            return self, False
        worst, best = RANGES[characteristic]
        direction = 1 if characteristic in TARGETS else -1
        if not worse:
            direction = -direction
        new = value + direction
        low, high = min(worst, best), max(worst, best)
        if not low <= new <= high:
            return self, False
        return replace(self, **{characteristic: new}), True


class Injury(StrEnum):
    BADLY_HURT = "badly_hurt"
    SERIOUSLY_HURT = "seriously_hurt"
    SERIOUS_INJURY = "serious_injury"
    LASTING_INJURY = "lasting_injury"
    DEAD = "dead"


def casualty_result(d16: int, niggling_injuries: int = 0) -> Injury:
    """The Casualty table (seed, D16), +1 per Niggling Injury (DB-13), capped at 16."""
    _check_die(d16, 16)
    total = min(16, d16 + max(0, niggling_injuries))
    if total <= 6:
        return Injury.BADLY_HURT
    if total <= 9:
        return Injury.SERIOUSLY_HURT
    if total <= 12:
        return Injury.SERIOUS_INJURY
    return Injury.LASTING_INJURY if total <= 14 else Injury.DEAD


def lasting_injury_characteristic(d6: int) -> str:
    """The Lasting Injury table (seed): 1-2 AV, 3 MA, 4 PA, 5 AG, 6 ST."""
    _check_die(d6)
    return {1: "av", 2: "av", 3: "ma", 4: "pa", 5: "ag", 6: "st"}[d6]


@dataclass(frozen=True)
class PlayerState:
    profile: Profile
    niggling_injuries: int = 0
    miss_next_game: bool = False
    dead: bool = False


@dataclass(frozen=True)
class InjuryOutcome:
    state: PlayerState
    reduced: str | None  # the characteristic that went down, if one did
    note: str


def apply_injury(state: PlayerState, injury: Injury, characteristic: str | None = None) -> InjuryOutcome:
    """DB-13 on plain values. A Lasting Injury names the characteristic (from the
    table roll); one already at its minimum stays there, the player still misses the
    next game. The dead are marked, not removed: the caller keeps their history."""
    injury = Injury(injury)
    if characteristic is not None and injury != Injury.LASTING_INJURY:
        raise ValueError("Only a Lasting Injury reduces a characteristic.")
    if injury == Injury.BADLY_HURT:
        return InjuryOutcome(state, None, "Badly Hurt: no lasting effect.")
    if injury == Injury.SERIOUSLY_HURT:
        return InjuryOutcome(replace(state, miss_next_game=True), None, "Seriously Hurt: misses the next game.")
    if injury == Injury.SERIOUS_INJURY:
        new = replace(state, miss_next_game=True, niggling_injuries=state.niggling_injuries + 1)
        return InjuryOutcome(new, None, "Serious Injury: a Niggling Injury and misses the next game.")
    if injury == Injury.DEAD:
        return InjuryOutcome(replace(state, dead=True), None, "Dead: leaves the draft list.")
    if characteristic is None:
        raise ValueError("A Lasting Injury names the characteristic it reduces.")
    profile, changed = state.profile.worsened(characteristic)
    label = characteristic.upper()
    note = f"Lasting Injury: -1 {label}, misses the next game." if changed else (
        f"Lasting Injury: {label} is already at its minimum (or absent), misses the next game."
    )
    return InjuryOutcome(replace(state, profile=profile, miss_next_game=True), characteristic if changed else None, note)


# Advancement (DB-11 Decision) ----------------------------------------------------------


class Advancement(StrEnum):
    RANDOM_PRIMARY = "random_primary"
    CHOSEN_PRIMARY = "chosen_primary"
    RANDOM_SECONDARY = "random_secondary"
    CHOSEN_SECONDARY = "chosen_secondary"
    CHARACTERISTIC = "characteristic"


MAX_ADVANCEMENTS = 6
ADVANCEMENT_SPP: Mapping[Advancement, tuple[int, ...]] = {
    Advancement.RANDOM_PRIMARY: (3, 4, 6, 8, 10, 15),
    Advancement.CHOSEN_PRIMARY: (6, 8, 12, 16, 20, 30),
    Advancement.RANDOM_SECONDARY: (6, 8, 12, 16, 20, 30),
    Advancement.CHOSEN_SECONDARY: (12, 14, 18, 22, 26, 40),
    Advancement.CHARACTERISTIC: (18, 20, 24, 28, 32, 50),
}
CHARACTERISTIC_VALUE: Mapping[str, int] = {"av": 10_000, "ma": 20_000, "pa": 20_000, "ag": 40_000, "st": 80_000}


def advancement_cost(kind: Advancement, number: int) -> int:
    """DB-11 Decision: the SPP for a player's ``number``-th advancement (1..6)."""
    if not 1 <= number <= MAX_ADVANCEMENTS:
        raise ValueError(f"A player takes advancements 1 to {MAX_ADVANCEMENTS}, not {number}.")
    return ADVANCEMENT_SPP[Advancement(kind)][number - 1]


def value_increase(kind: Advancement, characteristic: str | None = None) -> int:
    """DB-11 Decision: primary skill +20,000, secondary +40,000, a characteristic by
    which one (+1 AV 10,000; MA or PA 20,000; AG 40,000; ST 80,000)."""
    kind = Advancement(kind)
    if kind == Advancement.CHARACTERISTIC:
        if characteristic not in CHARACTERISTIC_VALUE:
            raise ValueError("A characteristic advancement names MA, ST, AG, PA or AV.")
        return CHARACTERISTIC_VALUE[characteristic]
    if characteristic is not None:
        raise ValueError("A skill advancement names no characteristic.")
    return 20_000 if kind in (Advancement.RANDOM_PRIMARY, Advancement.CHOSEN_PRIMARY) else 40_000


def random_skill(table: Sequence[str], first_d6: int, second_d6: int, owned: Iterable[str] = ()) -> str | None:
    """A random skill from a 12-skill category table (Blood Bowl 2020): the first D6
    picks the half (1-3 first six, 4-6 last six), the second the row. ``None`` when
    the player already has it: roll again (each roll is logged, DB-16)."""
    if len(table) != 12:
        raise ValueError("A skill category table has 12 skills.")
    _check_die(first_d6)
    _check_die(second_d6)
    skill = table[(0 if first_d6 <= 3 else 6) + second_d6 - 1]
    return None if skill in set(owned) else skill


# Team Value (DB-8, DB-14) -------------------------------------------------------------


@dataclass(frozen=True)
class PlayerValue:
    value: int
    miss_next_game: bool = False


@dataclass(frozen=True)
class TeamValue:
    team_value: int
    current_team_value: int


def team_value(
    players: Iterable[PlayerValue], *, rerolls: int, reroll_cost: int, staff: int = 0, trophy: bool = False
) -> TeamValue:
    """DB-8: players + re-rolls at the college's price + staff; the current value
    leaves out players who miss the next game. DB-14: the Trophy holder's extra
    re-roll counts at the same price though it cost no gold."""
    players = list(players)
    others = (rerolls + (1 if trophy else 0)) * reroll_cost + staff
    total = sum(p.value for p in players)
    missing = sum(p.value for p in players if p.miss_next_game)
    return TeamValue(total + others, total - missing + others)




# Skill access (DB-11) ----------------------------------------------------------------

SKILL_CATEGORIES: Mapping[str, str] = {"G": "General", "A": "Agility", "S": "Strength", "P": "Passing", "M": "Mutation"}
# Random skills need Blood Bowl 2020's twelve-skill tables per category, which the
# seed does not print and the project does not hold: only chosen skills are offered.
OFFERED_ADVANCEMENTS = (Advancement.CHOSEN_PRIMARY, Advancement.CHOSEN_SECONDARY, Advancement.CHARACTERISTIC)


def skill_categories(access: str) -> tuple[str, ...]:
    """A roster's access letters ("Gs", "Agp") as category letters ("G", "S"), in
    order, without repeats; unknown letters are ignored."""
    out: list[str] = []
    for letter in access.upper():
        if letter in SKILL_CATEGORIES and letter not in out:
            out.append(letter)
    return tuple(out)


@dataclass(frozen=True)
class AdvancementCheck:
    spp_cost: int
    value_increase: int
    number: int  # this is the player's n-th advancement


def check_advancement(
    kind: Advancement, *, advancements_taken: int, spp: int, category: str = "", primary: str = "",
    secondary: str = "", characteristic: str | None = None, profile: Profile | None = None,
) -> AdvancementCheck:
    """DB-11 Decision: what an advancement costs in SPP and adds to the player's value,
    or a ``ValueError`` saying why it cannot be taken (every reason a coach can fix)."""
    kind = Advancement(kind)
    if kind not in OFFERED_ADVANCEMENTS:
        raise ValueError("Random skills need the Blood Bowl skill tables, which this league does not hold: "
                         "choose the skill instead.")
    number = advancements_taken + 1
    if number > MAX_ADVANCEMENTS:
        raise ValueError(f"A player takes at most {MAX_ADVANCEMENTS} advancements; this one has them all.")
    cost = advancement_cost(kind, number)
    if spp < cost:
        raise ValueError(f"Advancement {number} of this kind costs {cost} SPP; the player has {spp} ({cost - spp} short).")
    if kind == Advancement.CHARACTERISTIC:
        if profile is None or characteristic not in CHARACTERISTIC_VALUE:
            raise ValueError("Choose the characteristic to improve: MA, ST, AG, PA or AV.")
        if not profile.improved(characteristic)[1]:
            raise ValueError(f"{characteristic.upper()} is already at its best value.")
        return AdvancementCheck(cost, value_increase(kind, characteristic), number)
    allowed = skill_categories(primary if kind == Advancement.CHOSEN_PRIMARY else secondary)
    which = "primary" if kind == Advancement.CHOSEN_PRIMARY else "secondary"
    if not allowed:
        raise ValueError(f"This position has no {which} skill categories.")
    if category not in allowed:
        names = ", ".join(SKILL_CATEGORIES[c] for c in allowed)
        raise ValueError(f"A {which} skill comes from {names}, not {SKILL_CATEGORIES.get(category, category or 'none')}.")
    return AdvancementCheck(cost, value_increase(kind), number)

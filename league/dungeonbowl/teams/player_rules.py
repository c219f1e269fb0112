"""A Dungeon Bowl player's profile (RULES.md DB-11, DB-13) as plain functions over
plain values: characteristics, injuries, and advancements bought with Star Player
Points. Dice rolls are inputs (DB-16): the caller rolls, logs the roll, then passes
the values in.

Characteristics follow the rosters: MA and ST are plain numbers (higher is better);
AG, PA and AV are stored as the target number printed on the roster ("3+" is 3).
For AG and PA a lower target is better; for AV a higher one is (armour is broken on
that roll or more). PA may be ``None`` (the roster's "-": the player cannot pass).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from league.dungeonbowl.units import check_die

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
    check_die(d16, 16)
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
    check_die(d6)
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
    check_die(first_d6)
    check_die(second_d6)
    skill = table[(0 if first_d6 <= 3 else 6) + second_d6 - 1]
    return None if skill in set(owned) else skill


# Skill access (DB-11) ----------------------------------------------------------------

SKILL_CATEGORIES: Mapping[str, str] = {"G": "General", "A": "Agility", "S": "Strength", "P": "Passing", "M": "Mutation"}
RANDOM_ADVANCEMENTS = (Advancement.RANDOM_PRIMARY, Advancement.RANDOM_SECONDARY)
PRIMARY_ADVANCEMENTS = (Advancement.RANDOM_PRIMARY, Advancement.CHOSEN_PRIMARY)


def skill_dice(count: int) -> str:
    """DB-11, DB-16: what the site rolls for a random skill on a category's list of
    ``count`` skills (the list, in name order, is the table). Blood Bowl 2020's
    tables hold twelve skills and are rolled with 2D6 (``random_skill``); the seed
    prints none, so a list of another length is rolled with one die of as many
    sides as it has skills."""
    if not 1 <= count <= 99:
        raise ValueError("A skill category's list holds 1 to 99 skills to roll on.")
    return "2D6" if count == 12 else f"D{count}"


def skill_on_list(table: Sequence[str], values: Sequence[int]) -> str:
    """The skill a ``skill_dice`` roll lands on, whether or not the player has it
    (``random_skill`` says when to roll again)."""
    if len(table) == 12:
        first, second = values
        return random_skill(table, first, second)
    (value,) = values
    if not 1 <= value <= len(table):
        raise ValueError(f"A D{len(table)} roll is a number from 1 to {len(table)}, not {value}.")
    return table[value - 1]


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
    allowed = skill_categories(primary if kind in PRIMARY_ADVANCEMENTS else secondary)
    which = "primary" if kind in PRIMARY_ADVANCEMENTS else "secondary"
    if not allowed:
        raise ValueError(f"This position has no {which} skill categories.")
    if category not in allowed:
        names = ", ".join(SKILL_CATEGORIES[c] for c in allowed)
        raise ValueError(f"A {which} skill comes from {names}, not {SKILL_CATEGORIES.get(category, category or 'none')}.")
    return AdvancementCheck(cost, value_increase(kind), number)

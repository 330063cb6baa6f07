"""Seyruun (seed 001): a World of Darkness style d10 pool with botches, the chance
die, Willpower and a ten-die cap."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from rpgdice.engine.dice import DiceSource, check_pool, d10_successes
from rpgdice.engine.errors import RulesError

SUCCESS_AT = 6
"""A die showing 6 or more is a success; a 10 counts twice."""
MAX_DICE = 10
"""Pool size caps at 10; the rest is overflow for secondary effects."""
BONUS_CAP = 5
"""No action gains more than +5 dice from external bonuses."""
WILLPOWER_DICE = 3
UNTRAINED_PENALTY = 1
MULTI_ACTION_PENALTY = 2
"""(decision) −2 dice for each action beyond the first; the text says "−2 per action"."""

WOUNDS = {"light": 1, "moderate": 2, "severe": 3, "crippled": 5}
DIFFICULTIES = {"simple": 1, "moderate": 2, "complex": 3, "epic": 4, "legendary": 5}
"""Required successes. (decision) The text's one row "Epic / Legendary: 4 to 5" is split."""

TIERS = ((6, "supernatural"), (4, "heroic"), (2, "solid"), (1, "just"))
"""Margin of success by total successes of a successful roll, highest first."""


def tier_for(successes: int) -> str | None:
    for least, name in TIERS:
        if successes >= least:
            return name
    return None


@dataclass(frozen=True)
class SeyruunPool:
    """How a pool is built (RULES.md, steps 1–5)."""

    attribute: int
    skill: int | None = None
    bonuses: tuple[int, ...] = ()
    penalties: tuple[int, ...] = ()
    wound: str | None = None
    actions: int = 1
    willpower: bool = False
    required: int = 1

    def __post_init__(self) -> None:
        if self.attribute < 0:
            raise RulesError("ATTRIBUTE", f"{self.attribute} is negative")
        if self.skill is not None and self.skill < 0:
            raise RulesError("SKILL", f"{self.skill} is negative")
        if any(b < 0 for b in self.bonuses):
            raise RulesError("--bonus", "a bonus is 0 or more dice")
        if any(p < 0 for p in self.penalties):
            raise RulesError("--penalty", "a penalty is given as 0 or more dice to remove")
        if self.wound is not None and self.wound not in WOUNDS:
            raise RulesError("--wound", f"'{self.wound}' is not one of {', '.join(WOUNDS)}")
        if self.actions < 1:
            raise RulesError("--actions", f"{self.actions} is below 1")
        if self.required < 1:
            raise RulesError("--difficulty", f"{self.required} is below 1")
        check_pool(self.total, "ATTRIBUTE")

    @property
    def untrained(self) -> bool:
        return not self.skill

    @property
    def base(self) -> int:
        if self.untrained:
            return self.attribute - UNTRAINED_PENALTY
        return self.attribute + (self.skill or 0)

    @property
    def bonus_given(self) -> int:
        return sum(self.bonuses)

    @property
    def bonus(self) -> int:
        return min(self.bonus_given, BONUS_CAP)

    @property
    def bonus_capped(self) -> int:
        """External bonus dice lost to the +5 cap."""
        return self.bonus_given - self.bonus

    @property
    def penalty(self) -> int:
        wound = WOUNDS[self.wound] if self.wound else 0
        return wound + sum(self.penalties) + MULTI_ACTION_PENALTY * (self.actions - 1)

    @property
    def total(self) -> int:
        """The pool before the ten-die cap and the chance die."""
        return self.base + self.bonus + (WILLPOWER_DICE if self.willpower else 0) - self.penalty

    @property
    def chance_die(self) -> bool:
        """(decision) Any result of 0 or less rolls one chance die."""
        return self.total <= 0

    @property
    def dice(self) -> int:
        return 1 if self.chance_die else min(self.total, MAX_DICE)

    @property
    def overflow(self) -> int:
        return max(0, self.total - MAX_DICE)


@dataclass(frozen=True)
class SeyruunDie:
    face: int
    successes: int


@dataclass(frozen=True)
class SeyruunResult:
    RULESET: ClassVar[str] = "seyruun"
    COMMAND: ClassVar[str] = "roll"

    outcome: str
    pool: int
    chance_die: bool
    overflow: int
    required: int
    dice: list[SeyruunDie]
    successes: int
    tens: int
    ones: int
    tier: str | None
    willpower_spent: int
    multiple_critical: bool
    pool_total: int
    untrained: bool
    bonus_capped: int
    penalty: int
    rerolled: SeyruunResult | None = None


def evaluate(pool: SeyruunPool, faces: list[int], willpower_spent: int = 0) -> SeyruunResult:
    """Score one roll of ``pool`` whose dice showed ``faces``."""
    if len(faces) != pool.dice:
        raise RulesError("--dice", f"{len(faces)} faces for a pool of {pool.dice}")
    tens = faces.count(10)
    ones = faces.count(1)
    if pool.chance_die:
        # Chance die: a 10 is one success whatever the difficulty, a 1 a dramatic botch.
        dice = [SeyruunDie(face=f, successes=1 if f == 10 else 0) for f in faces]
        successes = dice[0].successes
        outcome = "success" if successes else ("botch" if ones else "failure")
        tier = "just" if successes else None
        multiple = False
    else:
        dice = [SeyruunDie(face=f, successes=d10_successes(f, f, SUCCESS_AT)) for f in faces]
        successes = sum(d.successes for d in dice)
        if successes >= pool.required:
            outcome = "success"
        elif successes == 0 and ones:
            outcome = "botch"
        else:
            outcome = "failure"
        tier = tier_for(successes) if outcome == "success" else None
        multiple = tens >= 2
    return SeyruunResult(
        outcome=outcome,
        pool=pool.dice,
        chance_die=pool.chance_die,
        overflow=pool.overflow,
        required=pool.required,
        dice=dice,
        successes=successes,
        tens=tens,
        ones=ones,
        tier=tier,
        willpower_spent=willpower_spent,
        multiple_critical=multiple,
        pool_total=pool.total,
        untrained=pool.untrained,
        bonus_capped=pool.bonus_capped,
        penalty=pool.penalty,
    )


def roll(pool: SeyruunPool, source: DiceSource, reroll: bool = False) -> SeyruunResult:
    """Roll ``pool``; with ``reroll``, a failed or botched roll is rolled again once
    for 1 Willpower and the re-roll stands (the first is kept under ``rerolled``)."""
    spent = 1 if pool.willpower else 0
    first = evaluate(pool, source.roll(10, pool.dice), spent)
    if not reroll or first.outcome == "success":
        return first
    second = evaluate(pool, source.roll(10, pool.dice), spent + 1)
    return replace(second, rerolled=first)

"""The Cypher System (seed 004, plus the SRD where marked): a d20 against three
times the task's difficulty, eased and hindered in steps."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rpgdice.core.dice import DiceSource, GivenDice
from rpgdice.core.errors import RulesError
from rpgdice.core.record import Tagged, record

if TYPE_CHECKING:
    from fractions import Fraction

DIFFICULTIES = {
    "routine": 0, "simple": 1, "standard": 2, "demanding": 3, "difficult": 4,
    "challenging": 5, "intimidating": 6, "formidable": 7, "heroic": 8,
    "immortal": 9, "impossible": 10,
}
"""(SRD) Names of the difficulty scale."""
DIFFICULTY_NAMES = {v: k for k, v in DIFFICULTIES.items()}
SKILLS = {"trained": 1, "specialized": 2, "inability": -1}
"""(SRD) Steps a skill eases; an inability hinders one step. One level only, so
training and an inability in the same skill cancel by passing neither."""
MAX_ASSET = 2
MAX_EFFORT = 6
EFFORT_FIRST = 3
EFFORT_MORE = 2
"""(SRD) Effort costs 3 Pool points for the first level and 2 for each further level,
minus Edge, never below 0."""
TARGET_STEP = 3
DIE = 20

SPECIAL_ANY = {1: "gm_intrusion", 19: "minor_effect", 20: "major_effect"}
SPECIAL_ATTACK = {17: "plus_1_damage", 18: "plus_2_damage"}
"""(SRD) Special rolls; 17 and 18 count only on attacks."""


def effort_cost(levels: int, edge: int) -> int:
    if levels <= 0:
        return 0
    return max(0, EFFORT_FIRST + EFFORT_MORE * (levels - 1) - edge)


def special_for(roll: int, attack: bool) -> str | None:
    if roll in SPECIAL_ANY:
        return SPECIAL_ANY[roll]
    if attack:
        return SPECIAL_ATTACK.get(roll)
    return None


@record
class CypherTask:
    difficulty: int
    ease: int = 0
    hinder: int = 0
    skill: str | None = None
    asset: int = 0
    effort: int = 0
    edge: int = 0
    bonus: int = 0
    attack: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.difficulty <= 10:
            raise RulesError("--difficulty", f"{self.difficulty} is not from 0 to 10")
        for name in ("ease", "hinder", "edge", "bonus"):
            if getattr(self, name) < 0:
                raise RulesError(f"--{name}", f"{getattr(self, name)} is negative")
        if self.skill is not None and self.skill not in SKILLS:
            raise RulesError("--skill", f"'{self.skill}' is not one of {', '.join(SKILLS)}")
        if not 0 <= self.asset <= MAX_ASSET:
            raise RulesError("--asset", f"{self.asset} is not from 0 to {MAX_ASSET}")
        if not 0 <= self.effort <= MAX_EFFORT:
            raise RulesError("--effort", f"{self.effort} is not from 0 to {MAX_EFFORT}")

    @property
    def easing(self) -> int:
        skill = max(0, SKILLS.get(self.skill or "", 0))
        return self.ease + skill + self.asset + self.effort

    @property
    def hindering(self) -> int:
        return self.hinder + (1 if self.skill == "inability" else 0)

    @property
    def effective_difficulty(self) -> int:
        return self.difficulty - self.easing + self.hindering

    @property
    def routine(self) -> bool:
        return self.effective_difficulty <= 0

    @property
    def target(self) -> int | None:
        return None if self.routine else TARGET_STEP * self.effective_difficulty

    @property
    def impossible(self) -> bool:
        """(decision) A target that even a 20 plus the bonus cannot reach: failure, no roll."""
        target = self.target
        return target is not None and DIE + self.bonus < target


@record
class CypherResult(Tagged, ruleset="cypher", command="task"):
    outcome: str
    difficulty: int
    effective_difficulty: int
    target: int | None
    roll: int | None
    total: int | None
    routine: bool
    impossible: bool
    effort_cost: int
    special: str | None
    easing: int
    hindering: int
    effort: int
    bonus: int
    attack: bool


def evaluate(task: CypherTask, roll: int | None) -> CypherResult:
    """Score ``task``; ``roll`` is the d20, or None when the task needs none. A routine or
    impossible task may still carry a d20 thrown by hand: it is recorded, and the verdict
    stays what the rules give without a roll (CLI.md, "cypher task")."""
    if roll is None and not (task.routine or task.impossible):
        raise RulesError("--dice", "a task neither routine nor impossible needs its d20")
    total = None if roll is None else roll + task.bonus
    if task.routine:
        outcome = "success"
    elif task.impossible or total is None:
        outcome = "failure"
    else:
        outcome = "success" if total >= (task.target or 0) else "failure"
    return CypherResult(
        outcome=outcome,
        difficulty=task.difficulty,
        effective_difficulty=task.effective_difficulty,
        target=task.target,
        roll=roll,
        total=total,
        routine=task.routine,
        impossible=task.impossible,
        effort_cost=effort_cost(task.effort, task.edge),
        special=None if roll is None else special_for(roll, task.attack),
        easing=task.easing,
        hindering=task.hindering,
        effort=task.effort,
        bonus=task.bonus,
        attack=task.attack,
    )


def roll(task: CypherTask, source: DiceSource) -> CypherResult:
    if task.routine or task.impossible:
        # A d20 the player already threw (``--dice 20``) is recorded, not refused.
        given = isinstance(source, GivenDice) and source.used < len(source.faces)
        return evaluate(task, source.roll(DIE, 1)[0] if given else None)
    (face,) = source.roll(DIE, 1)
    return evaluate(task, face)


# Odds: the records of an odds command's answer (odds.py computes them) ------------


@record
class CypherOdds(Tagged, ruleset="cypher", command="odds"):
    outcomes: dict[str, Fraction]
    special: dict[str, Fraction]
    difficulty: int
    effective_difficulty: int
    target: int | None
    routine: bool
    impossible: bool
    effort_cost: int
    bonus: int
    attack: bool

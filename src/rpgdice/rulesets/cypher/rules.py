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
EFFORT_IMPAIRED = 1
"""(SRD) Impaired (or further down the damage track): each level of Effort costs this
many points more, after Edge."""
TARGET_STEP = 3
DIE = 20

SPECIAL_ANY = {1: "gm_intrusion", 19: "minor_effect", 20: "major_effect"}
SPECIAL_ATTACK = {17: "plus_1_damage", 18: "plus_2_damage"}
"""(SRD) Special rolls; 17 and 18 count only on attacks."""


TRACK = ("hale", "impaired", "debilitated", "dead")
"""(SRD) The damage track: as many steps down as Pools at 0 (of the three)."""


def track(pools: list[int]) -> str:
    """The damage track's word for the Pools' values: one step down per Pool at 0."""
    return TRACK[min(3, sum(1 for v in pools if v <= 0))]


POOL_ORDER = ("might", "speed", "intellect")
"""(SRD) Damage comes off Might first, then Speed, then Intellect; recovery fills them in
the same order unless the player splits the points."""
SPECIAL_DAMAGE = {17: 1, 18: 2, 19: 3, 20: 4}
"""(SRD) An attack's extra damage from its special roll (none when the attacker is impaired)."""
RECOVERIES = ("one action", "ten minutes", "one hour", "ten hours")
"""(SRD) The day's four recovery rolls, in order."""
RECOVERY_DIE = 6


def hit(result: CypherResult, damage: int, impaired: bool = False) -> int:
    """The points an attack deals before armor: nothing on a failure; else ``damage``
    plus its special roll's extra damage (17 +1 ... 20 +4), none when impaired."""
    if result.outcome != "success":
        return 0
    extra = 0 if impaired or not result.rolled else SPECIAL_DAMAGE.get(result.roll or 0, 0)
    return damage + extra


def after_armor(points: int, armor: int) -> int:
    """Armor lowers the whole hit by its value, never below 0."""
    return max(0, points - max(0, armor))


def take(pools: dict[str, int], points: int) -> dict[str, int]:
    """The Pools after ``points`` of damage: Might first; when it is 0, Speed, then
    Intellect (a Pool the sheet lacks is skipped). What is left over is lost."""
    out = dict(pools)
    for name in POOL_ORDER:
        if name not in out or points <= 0:
            continue
        took = min(points, max(0, out[name]))
        out[name] -= took
        points -= took
    return out


def recover(pools: dict[str, int], maxima: dict[str, int | None], points: int,
            split: dict[str, int] | None = None) -> tuple[dict[str, int], dict[str, int]]:
    """The Pools after a recovery of ``points``, and what each Pool gained, in the order
    the points went: first ``split`` (``--to``: N to each named Pool, in the order named,
    as far as the roll goes), then what is left in the order Might, Speed, Intellect; each
    Pool up to its maximum (a Pool the sheet lacks takes nothing). What fits nowhere is
    lost: ``points`` less the sum of the gains."""
    out, left = dict(pools), points
    gained: dict[str, int] = {}
    asked: list[tuple[str, int | None]] = [*(split or {}).items()]
    for name, most in [*asked, *((p, None) for p in POOL_ORDER)]:
        if name not in out:
            continue
        top = maxima.get(name)
        room = left if top is None else max(0, top - out[name])
        add = max(0, min(left, room, left if most is None else most))
        out[name] += add
        gained[name] = gained.get(name, 0) + add
        left -= add
    return out, gained


def split_refused(pools: dict[str, int], maxima: dict[str, int | None],
                  split: dict[str, int]) -> str | None:
    """Why a ``--to`` split is wrong whatever the roll (None: it is not): it names a Pool
    the sheet lacks, or a full Pool while no other Pool could take a point."""
    for name in split:
        if name not in pools:
            return f"the sheet has no {name} Pool"

    def full(p: str) -> bool:
        top = maxima.get(p)
        return top is not None and pools[p] >= top

    for name in split:
        if full(name) and all(full(p) for p in pools):
            return (f"{name.title()} is full, and so is every other Pool: no point of the "
                    "roll could go anywhere")
    return None


def effort_cost(levels: int, edge: int, impaired: bool = False) -> int:
    """What ``levels`` of Effort charge the Pool: 3, then 2 a level, less Edge (never below
    0); impaired, 1 more a level (:data:`EFFORT_IMPAIRED`)."""
    if levels <= 0:
        return 0
    return max(0, EFFORT_FIRST + EFFORT_MORE * (levels - 1) - edge) + effort_surcharge(
        levels, impaired)


def effort_surcharge(levels: int, impaired: bool) -> int:
    """(SRD) What being impaired adds to the cost of ``levels`` of Effort."""
    return EFFORT_IMPAIRED * max(0, levels) if impaired else 0


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
    impaired: bool = False
    """The character is impaired or worse (``--as``): Effort costs more (RULES.md)."""

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
    def effort_cost(self) -> int:
        """What the Effort charges the Pool, the impaired surcharge included."""
        return effort_cost(self.effort, self.edge, self.impaired)

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
    effort_surcharge: int = 0
    """What the character's being impaired adds to the Effort (``effort_cost`` includes it)."""

    @property
    def rolled(self) -> bool:
        """Whether the d20 decided the task. A face recorded on a task that needs no roll
        (routine or impossible) changes nothing: no special damage, no Pool points back,
        no intrusion or effect (CLI.md, "cypher task")."""
        return self.roll is not None and not (self.routine or self.impossible)


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
        effort_cost=task.effort_cost,
        special=None if roll is None else special_for(roll, task.attack),
        easing=task.easing,
        hindering=task.hindering,
        effort=task.effort,
        bonus=task.bonus,
        attack=task.attack,
        effort_surcharge=effort_surcharge(task.effort, task.impaired),
    )


def roll(task: CypherTask, source: DiceSource) -> CypherResult:
    if task.routine or task.impossible:
        # A d20 the player already threw (``--dice 20``) is recorded, not refused.
        given = isinstance(source, GivenDice) and source.used < len(source.faces)
        return evaluate(task, source.roll(DIE, 1)[0] if given else None)
    (face,) = source.roll(DIE, 1)
    return evaluate(task, face)


@record
class CypherRecovery:
    """A recovery roll as asked: the sheet's tier, which recovery of the day it is, the
    Pools and their maxima, and how the player splits the points (None: in order)."""

    tier: int
    recovery: int
    pools: dict[str, int]
    maxima: dict[str, int | None]
    split: dict[str, int] | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.recovery < len(RECOVERIES):
            raise RulesError("--as", f"all {len(RECOVERIES)} recoveries of the day are used; "
                             "a new day: --reset")
        if self.tier < 1:
            raise RulesError("--as", f"tier {self.tier} is not at least 1")


@record
class CypherRecoveryResult(Tagged, ruleset="cypher", command="recover"):
    outcome: None
    roll: int
    tier: int
    points: int
    to: dict[str, int]
    recovery: str
    pools: dict[str, int]
    lost: int = 0
    """The points that fit in no Pool (every Pool at its maximum)."""


def roll_recovery(spec: CypherRecovery, source: DiceSource) -> CypherRecoveryResult:
    """1d6 + tier, its points returned to the Pools."""
    (face,) = source.roll(RECOVERY_DIE, 1)
    points = face + spec.tier
    pools, gained = recover(spec.pools, spec.maxima, points, spec.split)
    return CypherRecoveryResult(outcome=None, roll=face, tier=spec.tier, points=points,
                                to=gained, recovery=RECOVERIES[spec.recovery], pools=pools,
                                lost=points - sum(gained.values()))


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
    effort_surcharge: int = 0


@record
class CypherRecoveryOdds(Tagged, ruleset="cypher", command="odds"):
    """The odds of a recovery roll: each total of 1d6 + tier."""

    points: dict[int, Fraction]
    tier: int

    def json_key(self, result: CypherRecoveryResult) -> dict[str, object]:
        """``--odds --json``: the chance of the total rolled, and of each total."""
        from rpgdice.core.data import to_data

        return {"odds": {"outcome": to_data(self.points.get(result.points, 0)),
                         "points": to_data(self.points), "tier": self.tier}}

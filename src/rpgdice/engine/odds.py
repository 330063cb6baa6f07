"""Exact odds of every roll, computed with icepool and never by rolling.

The odds follow the same rules as rolling because they are built from the same
engine code: each ruleset's input dataclass (which builds the pool, the index or
the target), the per-die scoring function (:func:`~rpgdice.engine.dice.d10_successes`)
and, wherever the number of distinct rolls is small, the ruleset's own
``evaluate`` applied to every distinct roll. icepool turns those into exact
distributions (:class:`fractions.Fraction` probabilities).

icepool takes a while to import, so nothing on the rolling path imports this
module: only ``odds`` commands and ``--odds`` do.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

import icepool

from rpgdice.engine.dice import d10_successes
from rpgdice.engine.record import record

if TYPE_CHECKING:  # each function imports its own ruleset: odds for one loads one engine
    from rpgdice.engine import crytures, cypher, reglas, seyruun

D10 = icepool.d10

SEYRUUN_OUTCOMES = ("success", "failure", "botch")
REGLAS_OUTCOMES = ("success", "failure", "fumble")
CYPHER_OUTCOMES = ("success", "failure")


def cypher_specials() -> tuple[str, ...]:
    """Special rolls by face: gm_intrusion (1), plus_1_damage (17) ... major_effect (20)."""
    from rpgdice.engine import cypher

    return tuple(name for _, name in sorted({**cypher.SPECIAL_ANY, **cypher.SPECIAL_ATTACK}.items()))


# Helpers over icepool dice -----------------------------------------------------------


def _sum_of(die: icepool.Die, n: int) -> icepool.Die:
    """The sum of ``n`` rolls of ``die`` (n ≥ 1), as icepool adds dice.

    The copies are added by doubling (die+die, then that plus itself...), which
    is much faster than adding one die at a time for big pools, and keeps the
    recursion of ``n @ die`` (one frame per die) away from the 1000-die limit.
    At most 2·log2(n) additions.
    """
    total = None
    power = die
    while n:
        if n & 1:
            total = power if total is None else total + power
        n >>= 1
        if n:
            power = power + power
    assert total is not None
    return total


def _marginal(die: icepool.Die, part: Callable[[Any], Hashable]) -> dict[Any, Fraction]:
    """Probability of each value of ``part(outcome)`` over the outcomes of ``die``."""
    denominator = die.denominator()
    out: dict[Any, Fraction] = {}
    for outcome, quantity in die.items():
        key = part(outcome)
        out[key] = out.get(key, Fraction(0)) + Fraction(quantity, denominator)
    return out


def _named(probs: dict[Any, Fraction], names: tuple[str, ...]) -> dict[str, Fraction]:
    """``probs`` over every name in ``names``, zeros included, in that order."""
    return {name: probs.get(name, Fraction(0)) for name in names}


def _counts(probs: dict[int, Fraction]) -> tuple[dict[int, Fraction], dict[int, Fraction]]:
    """A count distribution over 0..max, zeros included, and its "at least k" figures."""
    top = max(probs, default=0)
    exactly = {k: probs.get(k, Fraction(0)) for k in range(top + 1)}
    at_least: dict[int, Fraction] = {}
    running = Fraction(0)
    for k in range(top, -1, -1):
        running += exactly[k]
        at_least[k] = running
    return exactly, dict(sorted(at_least.items()))


def _certain(value: Hashable) -> icepool.Die:
    return icepool.Die([value])


# Crytures ----------------------------------------------------------------------------


@record
class CryturesOdds:
    RULESET: ClassVar[str] = "crytures"
    COMMAND: ClassVar[str] = "odds"

    outcomes: dict[str, Fraction]
    successes: dict[int, Fraction]
    """Probability of exactly k successes."""
    at_least: dict[int, Fraction]
    """Probability of k successes or more."""
    critical: Fraction
    """At least one natural 10 (with ``attack``, a critical hit)."""
    mean_successes: Fraction
    pool: int
    difficulty: int
    complexity: int
    roll_mod: int
    attack: bool
    crit_hits: int
    """Successes each critical hit adds (0 outside an attack)."""
    no_dice: bool
    base_pool: int = 0
    die_mod: int = 0


CRYTURES_MAX_WORK = 5 * 10**10
"""Estimated work (:func:`crytures_work`) a Crytures ``odds`` may take: about a minute
here, on a busy two-core machine, at the line (1000 dice whose critical hits add 5
successes each). The largest pool, with or without the default critical hit, is well
inside it; critical hits adding many successes to a big pool are not (README, "Limits")."""


def crytures_work(spec: crytures.CryturesRoll) -> int:
    """The estimated work of :func:`crytures_odds`: the pool's distinct totals, squared
    (the last addition of the doubling pairs two halves of about that many), times the
    dice (the exact fractions grow a digit per die). An upper bound on the distinct
    totals: the pool's range, and the ways to split the dice among the die's values."""
    from math import comb

    from rpgdice.engine import crytures

    n = spec.pool
    values = {crytures.die_successes(spec, f) for f in range(1, 11)}
    totals = min((max(values) - min(values)) * n + 1, comb(n + len(values) - 1, len(values) - 1))
    return totals * totals * max(n, 1)


def check_crytures(spec: crytures.CryturesRoll) -> None:
    """Refuse (a :class:`RulesError`, exit 2) odds whose exact arithmetic would run for
    minutes, rather than start them."""
    work = crytures_work(spec)
    if work > CRYTURES_MAX_WORK:
        from rpgdice.engine.errors import RulesError

        param = "--crit-hits" if spec.hits_per_crit > 1 else "POOL"
        raise RulesError(param, f"the exact odds of {spec.pool} dice whose critical hits add "
                         f"{spec.hits_per_crit} successes each would take too long (estimated "
                         f"work {work:,}, over the budget of {CRYTURES_MAX_WORK:,}); fewer dice "
                         "or a smaller --crit-hits would do, or simulate it with -n 10000 --json")


def crytures_odds(spec: crytures.CryturesRoll) -> CryturesOdds:
    """Exact odds of one Crytures roll: every die scored by
    :func:`rpgdice.engine.crytures.die_successes`, as the roll counts it (its own successes plus
    a critical hit's), summed over the pool."""
    from rpgdice.engine import crytures

    check_crytures(spec)
    mod = spec.roll_mod
    per_die = D10.map(lambda f: crytures.die_successes(spec, f))
    total = _sum_of(per_die, spec.pool) if spec.pool else _certain(0)
    exactly, at_least = _counts(_marginal(total, int))
    success = at_least.get(spec.complexity, Fraction(0))
    no_ten = Fraction(D10.probability("!=", 10)) ** spec.pool
    return CryturesOdds(
        outcomes={"success": success, "failure": 1 - success},
        successes=exactly,
        at_least=at_least,
        critical=1 - no_ten,
        mean_successes=Fraction(total.mean()),
        pool=spec.pool,
        difficulty=spec.difficulty,
        complexity=spec.complexity,
        roll_mod=mod,
        attack=spec.attack,
        crit_hits=spec.hits_per_crit,
        no_dice=spec.pool == 0,
        base_pool=spec.base_pool,
        die_mod=sum(spec.die_mods),
    )


# Seyruun -----------------------------------------------------------------------------


def _seyruun_face_class(face: int) -> tuple[int, bool, bool]:
    """What the engine reads from one die: its successes, whether it is a 1, a 10."""
    from rpgdice.engine import seyruun

    return (d10_successes(face, face, seyruun.SUCCESS_AT), face == 1, face == 10)


@functools.cache
def seyruun_class_die() -> icepool.Die:
    """A d10 with each face replaced by the lowest face the engine scores alike
    (1, 2-5, 6-9, 10 → 1, 2, 6, 10): a 10-die pool has 286 distinct rolls instead
    of 10¹⁰. Built on first use, not when the module is imported."""
    return D10.map(
        lambda f: min(g for g in range(1, 11) if _seyruun_face_class(g) == _seyruun_face_class(f))
    )


@record
class SeyruunOdds:
    RULESET: ClassVar[str] = "seyruun"
    COMMAND: ClassVar[str] = "odds"

    outcomes: dict[str, Fraction]
    successes: dict[int, Fraction]
    at_least: dict[int, Fraction]
    critical: Fraction
    """At least one 10 in the roll that stands."""
    multiple_critical: Fraction
    """Two or more 10s: the heightened critical effects."""
    tiers: dict[str, Fraction]
    """Margin of success tiers (the success chance split by tier)."""
    pool: int
    chance_die: bool
    overflow: int
    required: int
    pool_total: int
    reroll: bool


def seyruun_standing(pool: seyruun.SeyruunPool, reroll: bool = False) -> icepool.Die:
    """The roll that stands, as a die over ``(outcome, successes, tens, tier)``.

    Every distinct roll of the pool (faces grouped as the engine scores them) is
    scored by :func:`rpgdice.engine.seyruun.evaluate` itself. With ``reroll``, a
    roll that did not succeed is replaced by a fresh roll of the same pool, as
    :func:`rpgdice.engine.seyruun.roll` does.
    """
    from rpgdice.engine import seyruun


    def score(faces: tuple[int, ...]) -> tuple[str, int, int, str]:
        r = seyruun.evaluate(pool, list(faces))
        return (r.outcome, r.successes, r.tens, r.tier or "")

    first = seyruun_class_die().pool(pool.dice).expand().map(score, star=False)
    if not reroll:
        return first
    return first.map(lambda s: s if s[0] == "success" else first, star=False)


def seyruun_odds(pool: seyruun.SeyruunPool, reroll: bool = False) -> SeyruunOdds:
    from rpgdice.engine import seyruun

    standing = seyruun_standing(pool, reroll)
    exactly, at_least = _counts(_marginal(standing, lambda s: s[1]))
    tens = _marginal(standing, lambda s: s[2])
    tiers = _marginal(standing, lambda s: s[3])
    return SeyruunOdds(
        outcomes=_named(_marginal(standing, lambda s: s[0]), SEYRUUN_OUTCOMES),
        successes=exactly,
        at_least=at_least,
        critical=sum((p for t, p in tens.items() if t >= 1), Fraction(0)),
        multiple_critical=sum((p for t, p in tens.items() if t >= 2), Fraction(0)),
        tiers=_named(tiers, tuple(name for _, name in reversed(seyruun.TIERS))),
        pool=pool.dice,
        chance_die=pool.chance_die,
        overflow=pool.overflow,
        required=pool.required,
        pool_total=pool.total,
        reroll=reroll,
    )


# Reglas Básicas ----------------------------------------------------------------------


@record
class ReglasOdds:
    RULESET: ClassVar[str] = "reglas"
    COMMAND: ClassVar[str] = "odds"

    outcomes: dict[str, Fraction]
    critical: Fraction
    """A crítico: the die shows 1 and the roll succeeds."""
    fumble_grades: dict[int, Fraction]
    """Probability of each fracaso grade (grades that cannot happen left out)."""
    index: int
    difficulty: int
    base_difficulty: int = 0
    """The difficulty before any raise."""
    raises: int = 0
    """Levels the difficulty was raised (+2 each)."""


def reglas_odds(spec: reglas.ReglasRoll) -> ReglasOdds:
    """Every face of the d10 scored by :func:`rpgdice.engine.reglas.evaluate`."""
    from rpgdice.engine import reglas


    def score(face: int) -> tuple[str, bool, int]:
        r = reglas.evaluate(spec, face)
        return (r.outcome, r.critical, r.fumble_grade or 0)

    die = D10.map(score)
    grades = _marginal(die, lambda s: s[2])
    grades.pop(0, None)
    return ReglasOdds(
        outcomes=_named(_marginal(die, lambda s: s[0]), REGLAS_OUTCOMES),
        critical=_marginal(die, lambda s: s[1]).get(True, Fraction(0)),
        fumble_grades=dict(sorted(grades.items())),
        index=spec.effective_index,
        difficulty=spec.needed,
        base_difficulty=spec.difficulty,
        raises=spec.raises,
    )


# Cypher ------------------------------------------------------------------------------


@record
class CypherOdds:
    RULESET: ClassVar[str] = "cypher"
    COMMAND: ClassVar[str] = "odds"

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


def cypher_odds(task: cypher.CypherTask) -> CypherOdds:
    """Every face of the d20 scored by :func:`rpgdice.engine.cypher.evaluate`; a
    routine or impossible task is certain, with no roll."""
    from rpgdice.engine import cypher


    def score(roll: int | None) -> tuple[str, str]:
        r = cypher.evaluate(task, roll)
        return (r.outcome, r.special or "")

    die = _certain(score(None)) if task.routine or task.impossible else icepool.d(cypher.DIE).map(score)
    return CypherOdds(
        outcomes=_named(_marginal(die, lambda s: s[0]), CYPHER_OUTCOMES),
        special=_named(_marginal(die, lambda s: s[1]), cypher_specials()),
        difficulty=task.difficulty,
        effective_difficulty=task.effective_difficulty,
        target=task.target,
        routine=task.routine,
        impossible=task.impossible,
        effort_cost=cypher.effort_cost(task.effort, task.edge),
        bonus=task.bonus,
        attack=task.attack,
    )


# Seyruun combat: an attack's chance to hit and its damage dealt ------------------------


@record
class SeyruunAttackOdds:
    RULESET: ClassVar[str] = "seyruun"
    COMMAND: ClassVar[str] = "attack-odds"

    hit: Fraction
    outcomes: dict[str, Fraction]
    """``success`` (a hit), ``failure``, ``botch`` (the attack botched)."""
    damage_dealt: dict[int, Fraction] | None
    """Each amount of damage dealt (0 included: a miss, or soaked) to its probability;
    None without a damage pool."""
    mean_damage: Fraction | None

    def json_key(self, result: Any) -> dict[str, Any]:
        """``--odds --json``: the ``odds`` key of an attack's JSON object."""
        return {"odds": {"hit": self.hit, "damage_dealt": self.damage_dealt,
                         "outcome": self.outcomes[result.outcome], "outcomes": self.outcomes}}


def _seyruun_results(pool: Any) -> list[tuple[seyruun.SeyruunResult, Fraction]]:
    """Every distinct result of one roll of ``pool`` (a :class:`SeyruunPool` or a damage
    or soak :class:`PlainPool`) and its probability: each distinct roll (faces grouped
    as the engine scores them) scored by :func:`rpgdice.engine.seyruun.evaluate`,
    results with the same successes and outcome merged (all combat reads of a roll)."""
    from rpgdice.engine import seyruun

    rolls = seyruun_class_die().pool(pool.dice).expand()
    denominator = rolls.denominator()
    found: dict[tuple[int, str], tuple[seyruun.SeyruunResult, Fraction]] = {}
    for faces, quantity in rolls.items():
        r = seyruun.evaluate(pool, list(faces))
        key = (r.successes, r.outcome)
        rep, p = found.get(key, (r, Fraction(0)))
        found[key] = (rep, p + Fraction(quantity, denominator))
    return list(found.values())


def seyruun_attack_odds(spec: seyruun.SeyruunAttack) -> SeyruunAttackOdds:
    """Exact odds of an attack, following :func:`rpgdice.engine.seyruun.roll_attack`
    step by step with the engine's own functions: every distinct attack and defense
    result, :func:`~rpgdice.engine.seyruun.attack_hit` and
    :func:`~rpgdice.engine.seyruun.attack_outcome` on each pair, the damage pool of each
    hit (:func:`~rpgdice.engine.seyruun.damage_pool_of`), every damage and soak result,
    and :func:`~rpgdice.engine.seyruun.damage_dealt`."""
    from rpgdice.engine import seyruun

    @functools.cache
    def plain_results(dice: int) -> list[tuple[seyruun.SeyruunResult, Fraction]]:
        """Damage results of a pool rolling ``dice`` dice (what damage_dealt reads of a
        damage roll, its successes, does not depend on the overflow)."""
        return _seyruun_results(seyruun.PlainPool(dice))

    soak_pool = seyruun.plain_pool(spec.soak_total)
    soaks = _seyruun_results(soak_pool) if soak_pool is not None else [(None, Fraction(1))]
    defenses = _seyruun_results(spec.defense) if spec.defense is not None else [(None, Fraction(1))]
    outcomes: dict[str, Fraction] = {}
    pools: dict[int | None, Fraction] = {}
    """Probability of each damage pool (None: no damage roll, a miss)."""

    def add(table: dict[Any, Fraction], key: Any, p: Fraction) -> None:
        table[key] = table.get(key, Fraction(0)) + p

    for att, p_att in _seyruun_results(spec.attack):
        for dfn, p_dfn in defenses:
            p = p_att * p_dfn
            hit, _, extra = seyruun.attack_hit(spec, att, dfn)
            add(outcomes, seyruun.attack_outcome(att, hit), p)
            add(pools, seyruun.damage_pool_of(spec, att, hit, extra), p)
    dealt: dict[int, Fraction] = {}
    if spec.damage is not None:
        for total, p in pools.items():
            to_roll = seyruun.plain_pool(total)
            if to_roll is None:  # a miss, or a damage pool of 0 or less: nothing rolled
                add(dealt, seyruun.damage_dealt(None, None), p)
                continue
            for dmg, p_dmg in plain_results(to_roll.dice):
                for soak, p_soak in soaks:
                    add(dealt, seyruun.damage_dealt(dmg, soak), p * p_dmg * p_soak)
    named = _named(outcomes, SEYRUUN_OUTCOMES)
    distribution = None
    mean = None
    if spec.damage is not None:
        distribution = {k: dealt.get(k, Fraction(0)) for k in range(max(dealt) + 1)}
        mean = sum((k * p for k, p in distribution.items()), Fraction(0))
    return SeyruunAttackOdds(hit=named["success"], outcomes=named, damage_dealt=distribution,
                             mean_damage=mean)

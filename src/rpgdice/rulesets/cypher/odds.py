"""Cypher System: exact odds, computed with icepool from the rules' own functions, never by
rolling."""

from __future__ import annotations

import icepool

from rpgdice.core.exact import certain, marginal, named
from rpgdice.rulesets.cypher import rules as cypher
from rpgdice.rulesets.cypher.rules import CypherOdds, CypherRecovery, CypherRecoveryOdds

CYPHER_OUTCOMES = ("success", "failure")


def cypher_specials() -> tuple[str, ...]:
    """Special rolls by face: gm_intrusion (1), plus_1_damage (17) ... major_effect (20)."""
    return tuple(name for _, name in sorted({**cypher.SPECIAL_ANY, **cypher.SPECIAL_ATTACK}.items()))


def cypher_odds(task: cypher.CypherTask) -> CypherOdds:
    """Every face of the d20 scored by :func:`rpgdice.rulesets.cypher.rules.evaluate`; a
    routine or impossible task is certain, with no roll."""


    def score(roll: int | None) -> tuple[str, str]:
        r = cypher.evaluate(task, roll)
        return (r.outcome, r.special or "")

    die = certain(score(None)) if task.routine or task.impossible else icepool.d(cypher.DIE).map(score)
    return CypherOdds(
        outcomes=named(marginal(die, lambda s: s[0]), CYPHER_OUTCOMES),
        special=named(marginal(die, lambda s: s[1]), cypher_specials()),
        difficulty=task.difficulty,
        effective_difficulty=task.effective_difficulty,
        target=task.target,
        routine=task.routine,
        impossible=task.impossible,
        effort_cost=task.effort_cost,
        bonus=task.bonus,
        attack=task.attack,
        effort_surcharge=cypher.effort_surcharge(task.effort, task.impaired),
    )


def cypher_recovery_odds(spec: CypherRecovery) -> CypherRecoveryOdds:
    """A recovery roll's points: 1d6 + tier, each total's chance."""
    die = icepool.d(cypher.RECOVERY_DIE) + spec.tier
    total = sum(die.quantities())
    from fractions import Fraction

    return CypherRecoveryOdds(points={int(k): Fraction(q, total) for k, q in die.items()},
                              tier=spec.tier)

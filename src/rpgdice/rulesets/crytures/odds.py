"""Crytures: exact odds, computed with icepool from the rules' own functions, never by
rolling."""

from __future__ import annotations

from fractions import Fraction

from rpgdice.core.exact import D10, certain, counts, marginal, sum_of
from rpgdice.rulesets.crytures import rules as crytures
from rpgdice.rulesets.crytures.rules import CryturesOdds

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


    n = spec.pool
    values = {crytures.die_successes(spec, f) for f in range(1, 11)}
    totals = min((max(values) - min(values)) * n + 1, comb(n + len(values) - 1, len(values) - 1))
    return totals * totals * max(n, 1)


def check_crytures(spec: crytures.CryturesRoll) -> None:
    """Refuse (a :class:`RulesError`, exit 2) odds whose exact arithmetic would run for
    minutes, rather than start them."""
    from rpgdice.core.budget import odds_share

    work, ways = crytures_work(spec), odds_share()
    if work > CRYTURES_MAX_WORK // ways:  # --compare: each alternative is a whole computation
        from rpgdice.core.errors import RulesError

        shared = (f" shared by the {ways} computations --compare asks for: "
                  f"{CRYTURES_MAX_WORK // ways:,} each") if ways > 1 else ""
        param = "--crit-hits" if spec.hits_per_crit > 1 else "POOL"
        raise RulesError(param, f"the exact odds of {spec.pool} dice whose critical hits add "
                         f"{spec.hits_per_crit} successes each would take too long (estimated "
                         f"work {work:,}, over the budget of {CRYTURES_MAX_WORK:,}{shared}); "
                         "fewer dice or a smaller --crit-hits would do, or simulate it with "
                         "-n 10000 --json")


def crytures_odds(spec: crytures.CryturesRoll) -> CryturesOdds:
    """Exact odds of one Crytures roll: every die scored by
    :func:`rpgdice.rulesets.crytures.rules.die_successes`, as the roll counts it (its own successes plus
    a critical hit's), summed over the pool."""

    check_crytures(spec)
    mod = spec.roll_mod
    per_die = D10.map(lambda f: crytures.die_successes(spec, f))
    total = sum_of(per_die, spec.pool) if spec.pool else certain(0)
    exactly, at_least = counts(marginal(total, int))
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

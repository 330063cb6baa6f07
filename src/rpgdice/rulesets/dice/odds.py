"""Exact odds of an ordinary dice expression, with icepool, never by rolling.

Each dice term becomes an icepool die (a keep or drop is icepool's own
``highest``/``lowest``; a comparison counts the dice that satisfy it; an exploding
die is built face by face), identical terms are added by doubling, constants become
one offset, and the terms' dice are added up. Imported only by ``odds`` and
``--odds`` (icepool takes a while to load).

Explosions: the rule itself stops a die after :data:`~rpgdice.rulesets.dice.rules.MAX_EXTRA`
extra rolls, so a depth of 100 is exact; a smaller depth leaves out the chance that
some die needs more extra rolls than that. The depth used is the smallest one whose
left-out probability is at most :data:`LEFT_OUT_GOAL` (a single depth for every
exploding term), and the result states it: ``explode_depth``, ``truncated``,
``left_out`` (``distribution`` plus ``left_out`` is 1).

Work: the time icepool takes is estimated before anything is computed (in units of
about a microsecond each, measured here: additions cost the product of the two dice's
outcome counts, a keep of K of N dS about N·S²·K·max(1, N/40), one of 1 about N·S, a keep's unit about four times an addition's),
and an expression over :data:`MAX_WORK` is refused (exit 2) rather than left to run.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from typing import TYPE_CHECKING, Optional

import icepool

from rpgdice.core.errors import RulesError
from rpgdice.core.exact import sum_of
from rpgdice.rulesets.dice.rules import (
    EXPLODE,
    KEEPS,
    MAX_EXTRA,
    PARAM,
    Expression,
    NotationOdds,
    NotationOddsSet,
    Term,
    compare,
)

if TYPE_CHECKING:
    from rpgdice.rulesets.dice.grammar import Roll

LEFT_OUT_GOAL = Fraction(1, 10**12)
"""Explosions are followed until what is left out is at most one in a trillion."""
MAX_WORK = 2_000_000
"""Estimated work units (about a microsecond each here) an ``odds`` may take: a few
seconds on a small machine. See the README ("Ordinary dice") for where the line falls."""
KEEP_CROWD = 40
"""Above this many dice a keep costs icepool more per die (fitted to measurements)."""
KEEP_UNIT = 4
"""A keep's unit of work costs icepool up to about four additions' (measured)."""


def explode_depth(expression: Expression) -> Optional[int]:
    """The smallest depth (extra rolls followed per die) whose left-out probability is
    at most :data:`LEFT_OUT_GOAL` for every exploding term, by the union bound; None
    without ``!``."""
    exploding = [t for t in expression.terms if t.mode == EXPLODE]
    if not exploding:
        return None
    dice = sum(t.count for t in exploding)
    depth = 0
    for t in exploding:
        d = 0
        while d < MAX_EXTRA and Fraction(dice, t.sides ** (d + 1)) > LEFT_OUT_GOAL:
            d += 1
        depth = max(depth, d)
    return depth


def _exploding_die(sides: int, depth: int) -> icepool.Die:
    """One exploding die followed to ``depth`` extra rolls. At the rule's own bound
    (:data:`MAX_EXTRA`) the last roll adds its face and stops, so nothing is left out;
    below it, the rolls past ``depth`` are left out and the die is conditioned on not
    needing them (the caller scales by the chance of that)."""
    weights: dict[int, int] = {}
    for k in range(depth + 1):
        w = sides ** (depth - k)
        for f in range(1, sides):
            weights[k * sides + f] = w
    if depth == MAX_EXTRA:
        weights[(depth + 1) * sides] = 1
    return icepool.Die(weights)


def _base_die(term: Term, depth: Optional[int]) -> icepool.Die:
    """The die of one die of ``term`` (plain, exploding or counted)."""
    if term.mode == EXPLODE:
        assert depth is not None
        return _exploding_die(term.sides, depth)
    if term.mode and term.mode not in KEEPS:
        hits = sum(1 for f in range(1, term.sides + 1) if compare(term.mode, f, term.k))
        return icepool.Die({1: hits, 0: term.sides - hits}) if 0 < hits < term.sides \
            else icepool.Die([1 if hits else 0])
    return icepool.d(term.sides)


def _keep_die(term: Term) -> icepool.Die:
    n, k = term.count, term.k
    die = icepool.d(term.sides)
    if term.mode == "kh":
        return die.highest(n, k)
    if term.mode == "kl":
        return die.lowest(n, k)
    if term.mode == "dh":
        return die.lowest(n, n - k) if n > k else icepool.Die([0])
    return die.highest(n, n - k) if n > k else icepool.Die([0])


def _kept(term: Term) -> int:
    return term.k if term.mode in ("kh", "kl") else term.count - term.k


def _outcomes(term: Term, depth: Optional[int]) -> int:
    """Outcomes of one die of a plain, exploding or counted term."""
    if term.mode == EXPLODE:
        assert depth is not None
        return (term.sides - 1) * (depth + 1) + 1
    if term.mode and term.mode not in KEEPS:
        return 2
    return term.sides


def _doubling_cost(size: int, n: int) -> tuple[int, int]:
    """Work and outcomes of adding ``n`` copies of a die of ``size`` outcomes by
    doubling (the sum's outcomes grow as its range does)."""
    work, total, power = 0, 0, size
    while n:
        if n & 1:
            if total:
                work += total * power
                total = total + power - 1
            else:
                total = power
        n >>= 1
        if n:
            work += power * power
            power = 2 * power - 1
    return work, total


def _groups(expression: Expression) -> tuple[int, dict[tuple, int]]:
    """The constants' sum, and the dice terms grouped: a plain, exploding or counted
    term by (sign, sides, mode, k) with its dice added up; a keep or drop term whole,
    with how many times it appears."""
    offset = 0
    groups: dict[tuple, int] = {}
    for t in expression.terms:
        if not t.is_dice:
            offset += t.sign * t.constant
        elif t.mode in KEEPS:
            key = (t.sign, t.sides, t.mode, t.k, t.count)
            groups[key] = groups.get(key, 0) + 1
        else:
            key = (t.sign, t.sides, t.mode, t.k, 0)
            groups[key] = groups.get(key, 0) + t.count
    return offset, groups


def _term_of(key: tuple) -> Term:
    sign, sides, mode, k, count = key
    return Term(text="", sign=sign, count=count or 1, sides=sides, constant=0, mode=mode, k=k,
                position=0)


def work(expression: Expression) -> int:
    """The estimated work of :func:`odds`, in :data:`MAX_WORK` units."""
    depth = explode_depth(expression)
    _, groups = _groups(expression)
    total_work, sizes = 0, []
    for key, n in groups.items():
        term = _term_of(key)
        if term.mode in KEEPS:
            kept = _kept(term)
            if kept <= 1:
                base_work, size = term.count * term.sides, term.sides
            else:
                base_work = (KEEP_UNIT * term.count * term.sides ** 2 * kept
                             * max(1, term.count // KEEP_CROWD))
                size = kept * (term.sides - 1) + 1
        else:
            base_work, size = 0, _outcomes(term, depth)
        w, size = _doubling_cost(size, n)
        total_work += base_work + w
        sizes.append(size)
    sizes.sort()
    acc = 0
    for size in sizes:
        if acc:
            total_work += acc * size
            acc = acc + size - 1
        else:
            acc = size
    return total_work


def check(expression: Expression) -> None:
    """Refuse (a :class:`RulesError`) an expression whose exact odds would take too long."""
    cost = work(expression)
    if cost > MAX_WORK:
        raise RulesError(
            PARAM,
            f"{expression.text} — its exact odds would take too long (estimated work {cost:,}, "
            f"the limit is {MAX_WORK:,}); fewer dice or sides would do, or simulate it: "
            "rpgdice roll EXPR -n 10000 --json",
        )


def _total(groups: dict[tuple, int], depth: Optional[int]) -> Optional[icepool.Die]:
    """The sum of the grouped dice terms (None when there is none), smallest first."""
    dice = []
    for key, n in groups.items():
        term = _term_of(key)
        base = _keep_die(term) if term.mode in KEEPS else _base_die(term, depth)
        die = sum_of(base, n)
        dice.append(-die if term.sign < 0 else die)
    dice.sort(key=len)
    total: Optional[icepool.Die] = None
    for die in dice:
        total = die if total is None else total + die
    return total


def odds(expression: str | Expression | Roll) -> NotationOdds:
    """The exact distribution of the expression's total (the wider notation's tree: its
    own module, tree_odds.py)."""
    if isinstance(expression, str):
        from rpgdice.rulesets.dice.grammar import parse_any

        expression = parse_any(expression)
    if not isinstance(expression, Expression):
        from rpgdice.rulesets.dice import tree_odds

        return tree_odds.odds(expression)
    check(expression)
    depth = explode_depth(expression)
    offset, groups = _groups(expression)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))  # icepool's keep recurses once per face
    try:
        total = _total(groups, depth)
    finally:
        sys.setrecursionlimit(limit)
    left_out = Fraction(0)
    if depth is not None and depth < MAX_EXTRA:
        stays = Fraction(1)
        for t in expression.terms:
            if t.mode == EXPLODE:
                stays *= (1 - Fraction(1, t.sides ** (depth + 1))) ** t.count
        left_out = 1 - stays
    kept_mass = 1 - left_out
    if total is None:
        distribution = {offset: Fraction(1)}
    else:
        denominator = total.denominator()
        distribution = {int(outcome) + offset: Fraction(weight, denominator) * kept_mass
                        for outcome, weight in total.items() if weight}
    mean = sum((t * p for t, p in distribution.items()), Fraction(0)) / kept_mass
    return NotationOdds(
        expression=expression.text,
        distribution=dict(sorted(distribution.items())),
        mean=mean,
        min=min(distribution),
        max=max(distribution),
        truncated=bool(left_out),
        explode_depth=depth,
        left_out=left_out,
    )


def odds_set(expressions: list[Expression | Roll]) -> NotationOddsSet:
    """The odds of each expression (each computed once), every one checked first."""
    for e in expressions:
        if isinstance(e, Expression):
            check(e)
    out: dict[str, NotationOdds] = {}
    for e in expressions:
        if e.text not in out:
            out[e.text] = odds(e)
    return NotationOddsSet(by_expression=out)

"""Exact odds, shared by every ruleset: helpers over icepool dice.

Each ruleset's ``odds.py`` builds its distributions from the same rules code that
rolls (the ruleset's input records, its per-die scoring, and, wherever the number of
distinct rolls is small, its own ``evaluate`` applied to every distinct roll); these
helpers turn icepool dice into exact :class:`fractions.Fraction` figures.

icepool takes a while to import, so nothing on the rolling path imports this module:
only ``odds`` commands, ``--odds`` and ``log stats`` do.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any

import icepool

D10 = icepool.d10


def sum_of(die: icepool.Die, n: int) -> icepool.Die:
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


def marginal(die: icepool.Die, part: Callable[[Any], Hashable]) -> dict[Any, Fraction]:
    """Probability of each value of ``part(outcome)`` over the outcomes of ``die``."""
    denominator = die.denominator()
    out: dict[Any, Fraction] = {}
    for outcome, quantity in die.items():
        key = part(outcome)
        out[key] = out.get(key, Fraction(0)) + Fraction(quantity, denominator)
    return out


def named(probs: dict[Any, Fraction], names: tuple[str, ...]) -> dict[str, Fraction]:
    """``probs`` over every name in ``names``, zeros included, in that order."""
    return {name: probs.get(name, Fraction(0)) for name in names}


def counts(probs: dict[int, Fraction]) -> tuple[dict[int, Fraction], dict[int, Fraction]]:
    """A count distribution over 0..max, zeros included, and its "at least k" figures."""
    top = max(probs, default=0)
    exactly = {k: probs.get(k, Fraction(0)) for k in range(top + 1)}
    at_least: dict[int, Fraction] = {}
    running = Fraction(0)
    for k in range(top, -1, -1):
        running += exactly[k]
        at_least[k] = running
    return exactly, dict(sorted(at_least.items()))


def certain(value: Hashable) -> icepool.Die:
    return icepool.Die([value])


Later = tuple[dict[tuple[int, bool], int], int, int]
"""The steps and denominator of the rolls after the first N (the third item)."""


def extended_chain(steps: dict[tuple[int, bool], int], denominator: int, start: int,
                   target: int, max_rolls: int, later: Later | None = None,
                   ) -> tuple[dict[int, Fraction], dict[int, Fraction], Fraction]:
    """An extended action's running total as a chain of rolls (:func:`rpgdice.core.sequence.
    accumulate`; Seyruun's and Reglas Básicas's extended odds): ``steps`` maps each roll's (gain, ends the attempt) to its weight out of
    ``denominator``. Returns the chance to reach ``target`` exactly at each roll, to be
    ended at each roll, and the expected number of rolls; it stops at ``max_rolls`` or
    where nothing is left to roll. With ``later``, the rolls after its first N take its
    steps instead (each roll's weights are out of its own denominator)."""
    alive = {start: 1}  # running total -> weight, out of denominator ** k after k rolls
    reached: dict[int, Fraction] = {}
    ended: dict[int, Fraction] = {}
    expected = Fraction(0)
    scale = 1
    for k in range(1, max_rolls + 1):
        expected += Fraction(sum(alive.values()), scale)  # a roll is made: still going
        if later is not None and k == later[2] + 1:
            steps, denominator = later[0], later[1]
        scale *= denominator
        after: dict[int, int] = {}
        hit = stop = 0
        for total, w in alive.items():
            for (gain, ends), q in steps.items():
                if ends:
                    stop += w * q
                elif total + gain >= target:
                    hit += w * q
                else:
                    after[total + gain] = after.get(total + gain, 0) + w * q
        reached[k] = Fraction(hit, scale)
        if stop:
            ended[k] = Fraction(stop, scale)
        alive = after
        if not alive:
            break
    return reached, ended, expected


def cumulative(by_step: dict[int, Fraction]) -> dict[int, Fraction]:
    """The chance to have reached it by each roll, from the chance at each roll."""
    out: dict[int, Fraction] = {}
    running = Fraction(0)
    for k, p in by_step.items():
        running += p
        out[k] = running
    return out

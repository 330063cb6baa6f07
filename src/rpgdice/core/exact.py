"""Exact odds, shared by every ruleset: helpers over icepool dice.

Each ruleset's ``odds.py`` builds its distributions from the same rules code that
rolls (the ruleset's input records, its per-die scoring, and, wherever the number of
distinct rolls is small, its own ``evaluate`` applied to every distinct roll); these
helpers turn icepool dice into exact :class:`fractions.Fraction` figures.

icepool takes a while to import, so nothing on the rolling path imports this module:
only ``odds`` commands, ``--odds`` and ``log stats`` do.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction
from typing import TypeVar

import icepool

K = TypeVar("K", bound=Hashable)

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


def marginal(die: icepool.Die, part: Callable[..., K]) -> dict[K, Fraction]:
    """Probability of each value of ``part(outcome)`` over the outcomes of ``die``."""
    denominator = die.denominator()
    out: dict[K, Fraction] = {}
    for outcome, quantity in die.items():
        key = part(outcome)
        out[key] = out.get(key, Fraction(0)) + Fraction(quantity, denominator)
    return out


def named(probs: Mapping[str, Fraction], names: tuple[str, ...]) -> dict[str, Fraction]:
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

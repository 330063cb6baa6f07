"""Toy: exact odds, from the rules' own function, never by rolling."""

from __future__ import annotations

from fractions import Fraction

from rpgdice_toy import rules
from rpgdice_toy.rules import ToyOdds


def toy_odds(spec: rules.ToyRoll) -> ToyOdds:
    """The highest of ``pool`` d6 is at most k with chance (k/6)^pool; each outcome adds
    up its faces."""
    n = spec.pool
    highest = {k: Fraction(k, 6) ** n - Fraction(k - 1, 6) ** n for k in range(1, 7)}
    outcomes = {"success": Fraction(0), "partial": Fraction(0), "failure": Fraction(0)}
    for k, p in highest.items():
        outcomes[rules.outcome(k)] += p
    return ToyOdds(outcomes=outcomes, highest=highest, pool=n)

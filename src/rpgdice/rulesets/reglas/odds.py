"""Reglas Básicas: exact odds, computed with icepool from the rules' own functions, never by
rolling."""

from __future__ import annotations

from fractions import Fraction

from rpgdice.core.exact import D10, marginal, named
from rpgdice.rulesets.reglas import rules as reglas
from rpgdice.rulesets.reglas.rules import ReglasOdds

REGLAS_OUTCOMES = ("success", "failure", "fumble")


def reglas_odds(spec: reglas.ReglasRoll) -> ReglasOdds:
    """Every face of the d10 scored by :func:`rpgdice.rulesets.reglas.rules.evaluate`."""


    def score(face: int) -> tuple[str, bool, int]:
        r = reglas.evaluate(spec, face)
        return (r.outcome, r.critical, r.fumble_grade or 0)

    die = D10.map(score)
    grades = marginal(die, lambda s: s[2])
    grades.pop(0, None)
    return ReglasOdds(
        outcomes=named(marginal(die, lambda s: s[0]), REGLAS_OUTCOMES),
        critical=marginal(die, lambda s: s[1]).get(True, Fraction(0)),
        fumble_grades=dict(sorted(grades.items())),
        index=spec.effective_index,
        difficulty=spec.needed,
        base_difficulty=spec.difficulty,
        raises=spec.raises,
    )

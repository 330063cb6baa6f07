"""Every function of the notation: its exact odds equal what the roll computes, face by
face (issue 43: ``round()`` in the odds was the final floor)."""

from __future__ import annotations

import pytest

from conftest import cli_one
from rpgdice.rulesets.dice import grammar
from rpgdice.rulesets.dice import odds as notation_odds
from rpgdice.rulesets.dice.commands import parse_expression
from test_notation_tree import enumerate_totals

ARGUMENTS = ("1d4/4", "1d6*1.5-4", "-1d4/4", "1d5/2-1d3", "(1d4-3)*0.5", "1d3")
"""Arguments whose exact values fall on, between and halfway between whole numbers, of
either sign (so a function that acts on the exact value shows it)."""
TWO = {"min", "max"}
"""The functions of two or more arguments."""


def _calls() -> list[str]:
    out = []
    for name in grammar.FUNCTIONS:
        for i, arg in enumerate(ARGUMENTS):
            other = ARGUMENTS[(i + 1) % len(ARGUMENTS)]
            out.append(f"{name}({arg}, {other})" if name in TWO else f"{name}({arg})")
    return out


def test_every_function_is_called():
    assert {c.split("(")[0] for c in _calls()} == set(grammar.FUNCTIONS)


@pytest.mark.parametrize("expression", _calls())
def test_a_functions_odds_are_its_rolls_face_by_face(expression):
    o = notation_odds.odds(parse_expression(expression))
    totals, _, cut = enumerate_totals(expression)
    assert cut == 0 and o.left_out == 0
    assert {t: p for t, p in o.distribution.items() if p} == totals


def test_round_of_a_constant_and_of_a_die():
    # The issue's own cases: round(2.5) is 3 rolled and in the odds; round(1d4/4) is 1 on
    # a 2, 3 or 4 (0.5, 0.75, 1 round to 1): 0.75.
    assert notation_odds.odds(parse_expression("round(2.5)")).distribution == {3: 1}
    obj = cli_one("roll", "round(1d4/4)", "--dice", "2", "--odds")
    assert obj["total"] == 1 and obj["odds"]["distribution"] == {"0": 0.25, "1": 0.75}

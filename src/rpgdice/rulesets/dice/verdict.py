"""Ordinary dice: a roll's verdict and its tone, as its view says it. A compared total
(``1d20+5 >= 15``) says Success or Failure; a roll that counts successes (``8d10>=6``) its
successes (``3 successes``); any other its total (``17``, tone ``neutral``). A die a
``cs`` or ``cf`` marks adds ``critical success`` or ``critical failure`` (dire). Pure: what
every view of a roll says (its JSON's ``verdict`` and ``tone``)."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from rpgdice.rulesets.dice import RULESET

if TYPE_CHECKING:
    from rpgdice.rulesets.dice.rules import NotationRoll, TreeRoll

MINUS = "−"
"""The views' minus sign (a total is said as the view says it)."""


def _num(n: int) -> str:
    return f"{MINUS}{-n}" if n < 0 else str(n)


@lru_cache(maxsize=256)
def successes_counted(expression: str) -> bool:
    """The wider notation's term counts successes (``8d10>=6``, ``{2d6,3d8}>4``): read
    again from its text (once an expression: ``-n`` repeats it)."""
    from rpgdice.rulesets.dice import grammar

    try:
        node: Any = grammar.parse(expression).tree
    except Exception:  # a term's text alone that does not parse: a plain sum then
        return False
    while hasattr(node, "operand") or hasattr(node, "inner"):  # a sign, or parentheses
        node = getattr(node, "operand", None) or node.inner
    mods = getattr(node, "mods", None)
    return getattr(mods, "success", None) is not None


def _counted(n: int) -> tuple[str, str]:
    return f"{_num(n)} {'success' if abs(n) == 1 else 'successes'}", "good" if n > 0 else "bad"


def notation(r: NotationRoll) -> tuple[str, str]:
    """A roll of the plain notation: one term that counts successes, its successes; else
    its total."""
    if len(r.terms) == 1 and r.terms[0].dice and any(c in r.terms[0].expression for c in "<>="):
        return _counted(r.total)  # the plain notation compares only to count successes
    return _num(r.total), "neutral"


def tree(r: TreeRoll) -> tuple[str, str]:
    """A roll of the wider notation: a compared total's Success or Failure; else one term
    that counts successes, its successes; else its total. Then a critical success or
    failure a kept die was marked with."""
    if r.outcome is not None:
        word, tone = RULESET.outcomes.get(r.outcome, (str(r.outcome), "bad"))
    elif len(r.terms) == 1 and r.terms[0].dice and successes_counted(r.terms[0].expression):
        word, tone = _counted(r.total)
    else:
        word, tone = _num(r.total), "neutral"
    marks = {m for t in r.terms for d in t.dice if "dropped" not in d.marks for m in d.marks}
    if "critical-success" in marks:
        word += " · critical success"
        tone = "good" if tone == "neutral" else tone
    if "critical-failure" in marks:
        word += " · critical failure"
        tone = "dire"
    return word, tone


VERDICTS: dict[str, Callable[..., tuple[str, str]]] = {"NotationRoll": notation, "TreeRoll": tree}
"""Each result class's verdict, by the class's name."""


def verdict(result: object) -> tuple[str, str]:
    """``result``'s verdict and tone (``good``, ``bad``, ``dire`` or ``neutral``)."""
    return VERDICTS[type(result).__name__](result)

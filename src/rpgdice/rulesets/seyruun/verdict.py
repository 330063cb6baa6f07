"""Seyruun: each result's verdict in the rules' words and its tone, as its view says it
(``Success · solid execution · critical``, ``Botch``, ``Attacker wins``, ``Hit``). Pure:
what every view of a roll says (its JSON's ``verdict`` and ``tone``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rpgdice.core import rolltypes
from rpgdice.rulesets.seyruun import RULESET

if TYPE_CHECKING:
    from rpgdice.rulesets.seyruun.rules import (
        SeyruunAttackResult,
        SeyruunInitiativeResult,
        SeyruunResult,
    )

TIERS = {
    "just": "just enough",
    "solid": "solid execution",
    "heroic": "heroic performance",
    "supernatural": "supernatural brilliance",
}
"""A success's tier (rules.TIERS) in words."""


def roll(r: SeyruunResult) -> tuple[str, str]:
    """The outcome's word; a success's tier, and its critical (one 10 counted twice) or
    heightened critical (two or more 10s)."""
    word, tone = RULESET.outcomes[r.outcome]
    if r.outcome != "success":
        return word, tone
    said = [word, TIERS.get(r.tier or "", "")]
    if r.multiple_critical:
        said.append("heightened critical")
    elif r.tens and not r.chance_die:
        said.append("critical")
    return " · ".join(s for s in said if s), tone


TEAM = {"success": ("Team success", "good"), "failure": ("Team failure", "bad"),
        "botch": ("Team botch", "dire")}


def initiative(r: SeyruunInitiativeResult) -> tuple[str, str]:
    """Who acts first: ``Ysolde first``, ``Ysolde and Ghoul first`` (a tie)."""
    first = [e.name for e in r.order if e.rank == 1]
    names = ", ".join(first[:-1]) + f" and {first[-1]}" if len(first) > 1 else "".join(first)
    return (f"{names} first" if names else "Order"), "neutral"


def attack(r: SeyruunAttackResult) -> tuple[str, str]:
    """The exchange's one verdict: Hit, Miss or Botch."""
    return {"success": ("Hit", "good"), "botch": ("Botch", "dire")}.get(r.outcome, ("Miss", "bad"))


VERDICTS: dict[str, Callable[..., tuple[str, str]]] = {
    "SeyruunResult": roll,
    "SeyruunContestResult": lambda r: rolltypes.verdict(r, RULESET.outcomes),
    "SeyruunExtendedResult": lambda r: rolltypes.verdict(r, RULESET.outcomes),
    "SeyruunTeamResult": lambda r: rolltypes.verdict(r, TEAM),
    "SeyruunInitiativeResult": initiative,
    "SeyruunAttackResult": attack,
}
"""Each result class's verdict, by the class's name."""


def verdict(result: object) -> tuple[str, str]:
    """``result``'s verdict and tone (``good``, ``bad``, ``dire`` or ``neutral``)."""
    return VERDICTS[type(result).__name__](result)

"""Crytures: a roll's verdict in the rules' words and its tone, as the roll view says it
(``Success · 2 critical hits``). Pure: what every view of a roll says (its JSON's
``verdict`` and ``tone``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rpgdice.rulesets.crytures import RULESET

if TYPE_CHECKING:
    from rpgdice.rulesets.crytures.rules import CryturesResult


def roll(r: CryturesResult) -> tuple[str, str]:
    """The outcome's word, then an attack's critical hits (each adds successes)."""
    word, tone = RULESET.outcomes[r.outcome]
    if r.attack and r.critical_hits:
        word += f" · {r.critical_hits} critical hit{'' if r.critical_hits == 1 else 's'}"
    return word, tone


VERDICTS: dict[str, Callable[..., tuple[str, str]]] = {"CryturesResult": roll}
"""Each result class's verdict, by the class's name."""


def verdict(result: object) -> tuple[str, str]:
    """``result``'s verdict and tone (``good``, ``bad``, ``dire`` or ``neutral``)."""
    return VERDICTS[type(result).__name__](result)

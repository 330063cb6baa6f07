"""Cypher System: each result's verdict in the rules' words and its tone, as its view says
it (``Failure · GM intrusion``, ``Success · major effect``, ``+7``). Pure: what every view
of a roll says (its JSON's ``verdict`` and ``tone``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rpgdice.rulesets.cypher import RULESET

if TYPE_CHECKING:
    from rpgdice.rulesets.cypher.rules import CypherRecoveryResult, CypherResult

EVENTS = {
    "gm_intrusion": "GM intrusion",
    "plus_1_damage": "+1 damage",
    "plus_2_damage": "+2 damage",
    "minor_effect": "minor effect",
    "major_effect": "major effect",
}
"""A special roll (a natural 1, 17 to 20) as the verdict names it."""


def task(r: CypherResult) -> tuple[str, str]:
    """Success or Failure, then the special roll: a natural 1's GM intrusion (dire),
    17 and 18's damage on an attack, 19's minor and 20's major effect; none from a face
    only recorded on a task that needed no roll."""
    word, tone = RULESET.outcomes[r.outcome]
    event = EVENTS.get(r.special or "") if r.rolled else None
    if event is None:
        return word, tone
    return f"{word} · {event}", "dire" if r.special == "gm_intrusion" else tone


def recover(r: CypherRecoveryResult) -> tuple[str, str]:
    """The points a recovery roll gave back: ``+7``."""
    return f"+{r.points}", "good"


VERDICTS: dict[str, Callable[..., tuple[str, str]]] = {"CypherResult": task, "CypherRecoveryResult": recover}
"""Each result class's verdict, by the class's name."""


def verdict(result: object) -> tuple[str, str]:
    """``result``'s verdict and tone (``good``, ``bad`` or ``dire``)."""
    return VERDICTS[type(result).__name__](result)

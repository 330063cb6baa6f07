"""Reglas Básicas: each result's verdict in the text's Spanish and its tone, as its view
says it (``Crítico``, ``Fracaso de grado 6``, ``Gana el atacante``). Pure: what every view
of a roll says (its JSON's ``verdict`` and ``tone``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rpgdice.core import rolltypes
from rpgdice.rulesets.reglas import RULESET

if TYPE_CHECKING:
    from rpgdice.rulesets.reglas.rules import ReglasResult, ReglasTeamResult

SIDES = ("Gana el atacante", "Gana el defensor")


def roll(r: ReglasResult) -> tuple[str, str]:
    """Éxito, Crítico (a success on a die of 1), Fallo, or Fracaso de grado N."""
    if r.outcome == "success" and r.critical:
        return "Crítico", "good"
    if r.outcome == "fumble" and r.fumble_grade is not None:
        return f"Fracaso de grado {r.fumble_grade}", "dire"
    return RULESET.outcomes[r.outcome]


def team(r: ReglasTeamResult) -> tuple[str, str]:
    """The sum's Éxito or Fallo; a fallo a member's fracaso sank says whose (dire)."""
    word, tone = rolltypes.verdict(r, RULESET.outcomes)
    if r.sunk_by:
        who = ", ".join(str(k) for k in r.sunk_by)
        sunk = (f"el fracaso del miembro {who}" if len(r.sunk_by) == 1
                else f"los fracasos de los miembros {who}")
        return f"{word} · {sunk}", "dire"
    return word, tone


VERDICTS: dict[str, Callable[..., tuple[str, str]]] = {
    "ReglasResult": roll,
    "ReglasMultiResult": lambda r: rolltypes.verdict(r, RULESET.outcomes),
    "ReglasContestResult": lambda r: rolltypes.verdict(r, RULESET.outcomes, SIDES),
    "ReglasTeamResult": team,
    "ReglasExtendedResult": lambda r: rolltypes.verdict(r, RULESET.outcomes),
    "ReglasRetryResult": lambda r: rolltypes.verdict(r, RULESET.outcomes),
}
"""Each result class's verdict, by the class's name."""


def verdict(result: object) -> tuple[str, str]:
    """``result``'s verdict and tone (``good``, ``bad`` or ``dire``)."""
    return VERDICTS[type(result).__name__](result)

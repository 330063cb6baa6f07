"""Toy: the roll view and the odds view (Rich, loaded only when a person reads them)."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from rpgdice.render.common import GOOD, MISS, outcome_chart, plural
from rpgdice.rulesets import Views
from rpgdice_toy import rules


def roll(r: Any) -> list[Text]:
    chips = Text("  dice ")
    for i, face in enumerate(r.dice):
        chips.append(("  " if i else "") + str(face), GOOD if face == r.highest else MISS)
    word = {"success": "Success", "partial": "Partial success", "failure": "Failure"}[r.outcome]
    return [Text.assemble(("Toy roll", "bold"), f" · {plural(r.pool, 'die', 'dice')}"),
            chips, Text(f"  {word} — the highest die is {r.highest}")]


def odds(o: Any) -> list[Any]:
    return [Text.assemble(("Toy odds", "bold"), f" · {plural(o.pool, 'die', 'dice')}"),
            *outcome_chart("toy", o.outcomes)]


TABLE = Views({rules.ToyResult: roll, rules.ToyOdds: odds},
              figures={"roll": lambda r: f"{' '.join(map(str, r.get('dice') or []))} → "
                                         f"{r.get('highest')}"})

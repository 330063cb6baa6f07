"""Seyruun for a character (``--as``): what each command may cost from the sheet's
Willpower, and what each result did cost."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rpgdice.core.data import Loaded
from rpgdice.rulesets import Cost

if TYPE_CHECKING:
    from rpgdice.table.sheets import Sheet


def plan(command: str, params: Loaded, sheet: Sheet, pool: str | None) -> Cost:
    """The Willpower ``command`` may cost (``--willpower`` and ``--reroll`` may cost 2;
    an extended roll pays roll by roll, while the sheet has it) and what a result did cost."""
    p = params
    if command in ("roll", "team"):
        worst = int(bool(p.get("willpower"))) + int(bool(p.get("reroll")))
        if command == "roll":
            return Cost("willpower", worst, lambda r: r.willpower_spent)
        return Cost("willpower", worst, lambda r: r.rolls[0].willpower_spent)
    if command == "extended":  # paid roll by roll while the sheet has it
        worst = p.get("max_rolls", 0) if p.get("willpower") else 0
        return Cost("willpower", worst, lambda r: r.willpower_spent, paced=True)
    if command == "contest":
        return Cost("willpower", int(bool(p.get("attacker_willpower"))),
                    lambda r: r.attacker.willpower_spent)
    if command == "attack":  # --as is the attacker
        return Cost("willpower", int(bool(p.get("attacker_willpower"))),
                    lambda r: r.attack.willpower_spent)
    return Cost()

"""Crytures (seed 000): a d10 pool against a per-die Difficulty, with Complexity.

The folder: ``rules.py`` (the roll), ``odds.py``, ``commands.py`` (the ``crytures``
group), ``view.py``. This module declares the :class:`~rpgdice.rulesets.Ruleset` record.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rpgdice.core.command import Command

from rpgdice.rulesets import Cost, Die, Reserved, Resource, Ruleset, SheetSchema, Words


def _plan(command: str, params: dict[str, Any], sheet: Any, pool: str | None) -> Cost:
    """``--spend stamina=N|mana=N``: a retry paid from the sheet, N a repetition."""
    spend = params.get("spend")
    if command != "roll" or not spend:
        return Cost()
    resource, _, n = str(spend).partition("=")
    return Cost(resource, int(n), lambda r: int(n), why=f" (--spend {spend})")

def _commands(record: Ruleset) -> Sequence[Command]:
    """Its commands' records (its ``commands.py``, imported at the first call)."""
    from rpgdice.rulesets.crytures.commands import COMMANDS

    return COMMANDS


RULESET = Ruleset(
    name="crytures",
    order=10,
    words=Words("Crytures", short="Crytures",
                help="Crytures: d10 pool against a per-die Difficulty.",
                nouns={"success": ("success", "successes"), "failure": ("failure", "failures")}),
    language="en",
    outcomes={"success": ("Success", "good"), "failure": ("Failure", "bad")},
    commands=_commands,
    die=Die(10, "dice", "face"),
    sheet=SheetSchema(
        reserved=(Reserved("stamina"), Reserved("mana"), Reserved("initiative", dice=True)),
        resources=(Resource("stamina", "Stamina", "stamina-max"),
                   Resource("mana", "Mana", "mana-max")),
    ),
    plan=_plan,
)

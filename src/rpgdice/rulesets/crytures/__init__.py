"""Crytures (seed 000): a d10 pool against a per-die Difficulty, with Complexity.

The folder: ``rules.py`` (the roll), ``odds.py``, ``commands.py`` (the ``crytures``
group), ``view.py``. This module declares the :class:`~rpgdice.rulesets.Ruleset` record.
"""

from __future__ import annotations

from typing import Any

from rpgdice.rulesets import Cost, Die, Reserved, Resource, Ruleset, SheetSchema, lazily


def _plan(command: str, params: dict[str, Any], sheet: Any, pool: str | None) -> Cost:
    """``--spend stamina=N|mana=N``: a retry paid from the sheet, N a repetition."""
    spend = params.get("spend")
    if command != "roll" or not spend:
        return Cost()
    resource, _, n = str(spend).partition("=")
    return Cost(resource, int(n), lambda r: int(n), why=f" (--spend {spend})")

# The verdict, imported at its first call.


@lazily
def _verdict() -> Any:
    from rpgdice.rulesets.crytures.verdict import verdict

    return verdict


RULESET = Ruleset(
    name="crytures",
    order=10,
    title="Crytures",
    short="Crytures",
    language="en",
    help="Crytures: d10 pool against a per-die Difficulty.",
    nouns={"success": ("success", "successes"), "failure": ("failure", "failures")},
    outcomes={"success": ("Success", "good"), "failure": ("Failure", "bad")},
    die=Die(10, "dice", "face"),
    sheet=SheetSchema(
        reserved=(Reserved("stamina"), Reserved("mana"), Reserved("initiative", dice=True)),
        resources=(Resource("stamina", "Stamina", "stamina-max"),
                   Resource("mana", "Mana", "mana-max")),
    ),
    plan=_plan,
    takes_as=frozenset({"roll", "odds"}),
    stats_commands=frozenset({"roll"}),
    odds_functions=frozenset({"crytures_odds"}),
    commands="rpgdice.rulesets.crytures.commands",
    verdict=_verdict,
    results={"roll": ("CryturesResult",)},
)

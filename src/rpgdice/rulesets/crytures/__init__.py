"""Crytures (seed 000): a d10 pool against a per-die Difficulty, with Complexity.

The folder: ``rules.py`` (the roll), ``odds.py``, ``commands.py`` (the ``crytures``
group), ``view.py``. This module declares the :class:`~rpgdice.rulesets.Ruleset` record.
"""

from __future__ import annotations

from rpgdice.rulesets import Die, Reserved, Resource, Ruleset, SheetSchema

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
    plan=None,
    takes_as=frozenset({"roll", "odds"}),
    stats_commands=frozenset({"roll"}),
    odds_functions=frozenset({"crytures_odds"}),
    commands="rpgdice.rulesets.crytures.commands",
    results={"roll": ("CryturesResult",)},
)

"""Toy (tests only): a d6 pool whose highest die decides — 6 a success, 4 or 5 a partial
success, 1 to 3 a failure. Built by following docs/adding-a-ruleset.md, step by step, so
the guide stays true: the tests install it as another package would (the entry point of
``rpgdice_toy-1.0.dist-info``) and find it in help, ``--json``, odds, the log and completion.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rpgdice.rulesets import Die, Ruleset, SheetSchema, Words

if TYPE_CHECKING:
    from rpgdice.core.command import Command

def _commands(record: Ruleset) -> Sequence[Command]:
    """Its commands' records (its ``commands.py``, imported at the first call)."""
    from rpgdice_toy.commands import COMMANDS

    return COMMANDS


RULESET = Ruleset(
    name="toy",
    words=Words("Toy", help="Toy: a d6 pool, the highest die decides.",
                nouns={"success": ("success", "successes"), "partial": ("partial", "partials"),
                       "failure": ("failure", "failures")}),
    language="en",
    outcomes={"success": ("Success", "good"), "partial": ("Partial success", "good"),
              "failure": ("Failure", "bad")},
    die=Die(6, "dice", "face"),
    sheet=SheetSchema(),
    commands=_commands,
)

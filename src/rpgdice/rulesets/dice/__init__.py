"""Ordinary dice notation (``rpgdice roll 2d6+3``): not from a seed text (RULES.md,
"Ordinary dice"); JSON calls it the ruleset ``dice``.

The folder: ``rules.py`` (the notation's parser and roll), ``odds.py``, ``commands.py``
(the top-level ``roll`` and ``odds``), ``view.py``. This module declares the
:class:`~rpgdice.rulesets.Ruleset` record.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rpgdice.core.command import Command

from rpgdice.rulesets import Ruleset, Words


def _commands(record: Ruleset) -> Sequence[Command]:
    """Its commands' records (its ``commands.py``, imported at the first call)."""
    from rpgdice.rulesets.dice.commands import COMMANDS

    return COMMANDS


RULESET = Ruleset(
    name="dice",
    order=90,
    words=Words("Dice", short="Dice",
                help="Ordinary dice notation: 2d6+3, d%, 4dF, 4d6kh3, 5d6r1kh3, 3d6!, 8d10>=6f1, 1d20+5 >= 15.",
                nouns={"success": ("success", "successes"), "failure": ("failure", "failures")}),
    language="en",
    outcomes={"success": ("Success", "good"), "failure": ("Failure", "bad")},
    commands=_commands,
    die=None,
    sheet=None,
    plan=None,
    group=False,
)

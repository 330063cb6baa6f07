"""Ordinary dice notation (``rpgdice roll 2d6+3``): not from a seed text (RULES.md,
"Ordinary dice"); JSON calls it the ruleset ``dice``.

The folder: ``rules.py`` (the notation's parser and roll), ``odds.py``, ``commands.py``
(the top-level ``roll`` and ``odds``), ``view.py``. This module declares the
:class:`~rpgdice.rulesets.Ruleset` record.
"""

from __future__ import annotations

from typing import Any

from rpgdice.rulesets import Ruleset, lazily

# The verdict, imported at its first call.


@lazily
def _verdict() -> Any:
    from rpgdice.rulesets.dice.verdict import verdict

    return verdict


RULESET = Ruleset(
    name="dice",
    order=90,
    title="Dice",
    short="Dice",
    language="en",
    help="Ordinary dice notation: 2d6+3, d%, 4dF, 4d6kh3, 5d6r1kh3, 3d6!, 8d10>=6f1, 1d20+5 >= 15.",
    outcomes={"success": ("Success", "good"), "failure": ("Failure", "bad")},
    nouns={"success": ("success", "successes"), "failure": ("failure", "failures")},
    die=None,
    sheet=None,
    plan=None,
    takes_as=frozenset(),
    stats_commands=frozenset({"roll"}),
    outcome_stats=False,
    odds_functions=frozenset({"odds_set"}),
    verdict=_verdict,
    results={"roll": ("NotationRoll", "TreeRoll")},
)

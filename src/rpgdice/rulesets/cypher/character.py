"""The Cypher System for a character (``--as``): Effort paid from the chosen Pool (its
Edge lowers the cost), at most the character's Effort level, given back on a natural 20."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rpgdice.core.data import Loaded
from rpgdice.core.errors import RulesError
from rpgdice.rulesets import Cost

if TYPE_CHECKING:
    from collections.abc import Iterable

    from rpgdice.table.sheets import Sheet
from rpgdice.rulesets.cypher import POOLS


def plan(command: str, params: Loaded, sheet: Sheet, pool: str | None) -> Cost:
    """What ``command`` costs the Pool ``pool`` (``--pool``); ``odds`` checks and pays
    nothing."""
    effort = params.get("effort") or 0
    if command not in ("task", "roll", "odds") or not effort:
        return Cost()
    if not pool:
        raise RulesError("--effort", f"with --as, say which Pool pays the Effort: --pool "
                         f"{'|'.join(POOLS)}")
    level = sheet.effort_level
    if level is not None and effort > level:
        raise RulesError("--effort", f"{effort} levels is more than {sheet.name}'s Effort "
                         f"({level})")
    from rpgdice.rulesets.cypher.rules import effort_cost
    from rpgdice.rulesets.cypher.target import state_of

    impaired = state_of(sheet) in IMPAIRED  # (SRD) impaired: 1 more a level
    cost = effort_cost(effort, params.get("edge") or 0, impaired)
    if command == "odds":
        return Cost()
    more = cost - effort_cost(effort, params.get("edge") or 0)
    why = f" (impaired: Effort costs {more} more)" if more else ""
    # the result's effort_cost is what the sheet is charged, the surcharge included
    return Cost(pool, cost, lambda r: 0 if r.rolled and r.roll == 20 else r.effort_cost, why=why)


IMPAIRED = ("impaired", "debilitated", "dead")
"""The damage track's steps at which Effort costs more and special damage is lost."""


def impaired_in(labels: Iterable[tuple[str, str]]) -> bool:
    """Whether a roll's labels say its character is impaired or worse: the ``state`` label
    (``_labels`` in this package's ``__init__``), which begins with the damage track's word.
    The labels are what ``--as`` read of the sheet when the line was parsed, and the log
    keeps them, so a replay or a ``--compare`` alternative reads the same state."""
    return any(key == "state" and text.split(" ", 1)[0] in IMPAIRED for key, text in labels)

"""The Cypher System for a character (``--as``): Effort paid from the chosen Pool (its
Edge lowers the cost), at most the character's Effort level, given back on a natural 20."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rpgdice.core.data import Loaded
from rpgdice.core.errors import RulesError
from rpgdice.rulesets import Cost

if TYPE_CHECKING:
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

    more = effort if state_of(sheet) in IMPAIRED else 0  # (SRD) impaired: 1 more a level
    cost = effort_cost(effort, params.get("edge") or 0) + more
    if command == "odds":
        return Cost()
    why = f" (impaired: Effort costs {more} more)" if more else ""
    return Cost(pool, cost, lambda r: 0 if r.roll == 20 else r.effort_cost + more, why=why)


IMPAIRED = ("impaired", "debilitated", "dead")
"""The damage track's steps at which Effort costs more and special damage is lost."""

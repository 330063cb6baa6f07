"""A roll-log entry rebuilt from what the log stored: its result records (their class
names and data), what the view showed beside them (the character line, an attack
target's line), and the exact odds spec of its roll. Nothing here runs a command.

:func:`is_roll` is the one rule for the few places that may run a stored command line
again (``log show --replay``; ``again``, with fresh dice; the part of a long entry the
log never kept): only a roll of a known kind, a ruleset group's rolling command or the
top-level ``roll`` — never ``char``, ``alias``, ``log`` or anything else.

The rebuilding itself lives beneath the command line, in :mod:`rpgdice.render.stored`
(the table's page shows entries too); its names are here as ever.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, cast

from rpgdice import rulesets
from rpgdice.core.data import JSONObject
from rpgdice.core.rebuild import BadData
from rpgdice.render import stored as rebuilt
from rpgdice.render.stored import records

if TYPE_CHECKING:
    from rpgdice.render.common import Odds
    from rpgdice.roll.odds import ExactOdds

__all__ = ["BadData", "is_roll", "odds", "records", "spec"]


def is_roll(argv: list[str]) -> bool:
    """Whether ``argv`` (a stored command line) is a roll of a known kind (never one
    asking for help or the version, which print instead of rolling)."""
    if not argv or any(a in ("--help", "-h", "--version") for a in argv):
        return False
    if argv[0] == "roll" or argv[:2] == ["encounter", "start"]:  # an encounter's initiative
        return True
    if argv[0] not in rulesets.SHEET_RULESETS or len(argv) < 2:
        return False
    record = rulesets.get(argv[0]).command(argv[1])
    return record is not None and bool(record.results)


def odds(entry: JSONObject) -> Optional[Odds]:
    """The exact odds the entry showed (``--odds``), computed again from its stored spec
    (None when it showed none); a :class:`BadData` when the spec makes none."""
    return cast("Optional[Odds]", rebuilt.odds(entry, spec))  # a roll's odds: its outcomes


def spec(entry_spec: object) -> ExactOdds:
    """The exact odds spec (an ExactOdds, not computed) that ``log stats`` reads."""
    from rpgdice.roll.odds import ExactOdds

    return ExactOdds.from_data(entry_spec)

"""What the roll types that repeat a roll share: the bounds (extended actions,
retries). The roll types themselves are :mod:`rpgdice.core.rolltypes`.

The rules set no limit on how often an extended action is rolled or a roll is tried
again; rpgdice stops every such loop after a limit so a target that can never be met
still ends. The user may lower the limit or raise it up to the hard maximum.
"""

from __future__ import annotations

from rpgdice.core.errors import RulesError

DEFAULT_MAX_ROLLS = 100
"""Rolls (or attempts) made when the user gives no limit: the loop always ends."""
MAX_ROLLS = 1000
"""The most rolls (or attempts) one sequence may make, whatever the user asks."""


def check_limit(param: str, limit: int) -> None:
    if not 1 <= limit <= MAX_ROLLS:
        raise RulesError(param, f"{limit} is out of range; accepts a whole number from 1 to {MAX_ROLLS}")

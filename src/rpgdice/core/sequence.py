"""What the roll types that repeat a roll share: the bounds (extended actions,
retries) and the accumulation of an extended action.

The rules set no limit on how often an extended action is rolled or a roll is tried
again; rpgdice stops every such loop after a limit so a target that can never be met
still ends. The user may lower the limit or raise it up to the hard maximum.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from rpgdice.core.errors import RulesError

R = TypeVar("R")

DEFAULT_MAX_ROLLS = 100
"""Rolls (or attempts) made when the user gives no limit: the loop always ends."""
MAX_ROLLS = 1000
"""The most rolls (or attempts) one sequence may make, whatever the user asks."""


def check_limit(param: str, limit: int) -> None:
    if not 1 <= limit <= MAX_ROLLS:
        raise RulesError(param, f"{limit} is out of range; accepts a whole number from 1 to {MAX_ROLLS}")


def accumulate(
    roll_once: Callable[[], R],
    gain: Callable[[R], int],
    ends: Callable[[R], bool],
    *,
    start: int,
    target: int,
    max_rolls: int,
) -> tuple[list[R], list[int], int, str]:
    """An extended action: roll until the running total reaches ``target``, a roll
    ``ends`` the attempt (counting nothing), or ``max_rolls`` are used up.

    Returns the rolls, the running total after each, the total, and what ended it:
    ``target``, ``ended`` or ``limit``."""
    rolls: list[R] = []
    totals: list[int] = []
    total = start
    for _ in range(max_rolls):
        r = roll_once()
        rolls.append(r)
        if ends(r):
            totals.append(total)
            return rolls, totals, total, "ended"
        total += gain(r)
        totals.append(total)
        if total >= target:
            return rolls, totals, total, "target"
    return rolls, totals, total, "limit"

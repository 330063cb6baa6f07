"""Toy: the roll. Pure — records and functions, dice from an injected source."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rpgdice.core.dice import DiceSource, check_pool
from rpgdice.core.errors import at_least
from rpgdice.core.record import Tagged, record

if TYPE_CHECKING:
    from fractions import Fraction


@record
class ToyRoll:
    """What one roll is: how many dice."""

    pool: int

    def __post_init__(self) -> None:
        at_least("POOL", self.pool, 1, f"{self.pool} is below 1; a pool is 1 or more dice")
        check_pool(self.pool, "POOL")


def outcome(highest: int) -> str:
    """The highest die's word: 6 a success, 4-5 a partial success, 1-3 a failure."""
    return "success" if highest == 6 else "partial" if highest >= 4 else "failure"


@record
class ToyResult(Tagged, ruleset="toy", command="roll"):
    outcome: str
    pool: int
    dice: list[int]
    highest: int


def evaluate(spec: ToyRoll, faces: list[int]) -> ToyResult:
    highest = max(faces)
    return ToyResult(outcome=outcome(highest), pool=spec.pool, dice=list(faces), highest=highest)


def roll(spec: ToyRoll, source: DiceSource) -> ToyResult:
    return evaluate(spec, source.roll(6, spec.pool))


@record
class ToyOdds(Tagged, ruleset="toy", command="odds"):
    outcomes: dict[str, Fraction]
    highest: dict[int, Fraction]
    """The chance of each highest face."""
    pool: int

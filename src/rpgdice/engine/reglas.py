"""Reglas Básicas (seed 003, in Spanish): índice de éxito minus 1d10, fracasos and
críticos."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rpgdice.engine.dice import DiceSource
from rpgdice.engine.errors import RulesError

DIFFICULTIES = {"none": 0, "normal": 2, "dificil": 4, "muy-dificil": 6, "imposible": 8}
"""Successes needed. "none" is the default: a result of zero or more succeeds.
The text gives imposible as 8–9; the engine takes 8 and a number may be given instead."""
DIFFICULTY_NAMES_ES = {
    "none": "sin dificultad", "normal": "normal", "dificil": "difícil",
    "muy-dificil": "muy difícil", "imposible": "imposible",
}
RAISE_STEP = 2
"""Raising a difficulty one level adds 2; (decision) past imposible it keeps adding 2."""
RETRY_PENALTY = 2
"""Inténtalo de nuevo: −2 to the índice for every earlier failed attempt."""


@dataclass(frozen=True)
class ReglasRoll:
    index: int
    """iE = Atributo + Habilidad, before modifiers."""
    difficulty: int = 0
    raises: int = 0
    mods: tuple[int, ...] = ()
    attempt: int = 1

    def __post_init__(self) -> None:
        if self.index < 0:
            raise RulesError("INDEX", f"{self.index} is negative")
        if self.difficulty < 0:
            raise RulesError("--difficulty", f"{self.difficulty} is negative")
        if self.raises < 0:
            raise RulesError("--raise", f"{self.raises} is negative")
        if self.attempt < 1:
            raise RulesError("--attempt", f"{self.attempt} is below 1 (the first try is 1)")

    @property
    def needed(self) -> int:
        return self.difficulty + RAISE_STEP * self.raises

    @property
    def attempt_penalty(self) -> int:
        return RETRY_PENALTY * (self.attempt - 1)

    @property
    def effective_index(self) -> int:
        return self.index + sum(self.mods) - self.attempt_penalty


@dataclass(frozen=True)
class ReglasResult:
    RULESET: ClassVar[str] = "reglas"
    COMMAND: ClassVar[str] = "roll"

    outcome: str
    index: int
    difficulty: int
    die: int
    result: int
    critical: bool
    fumble_grade: int | None
    base_index: int
    modifier: int
    attempt_penalty: int


def evaluate(spec: ReglasRoll, die: int) -> ReglasResult:
    """resultado = iE − die: éxito at or above the difficulty (crítico on a die of 1),
    fracaso of grade −resultado below zero, fallo in between."""
    index = spec.effective_index
    result = index - die
    if result >= spec.needed:
        outcome = "success"
    elif result < 0:
        outcome = "fumble"
    else:
        outcome = "failure"
    return ReglasResult(
        outcome=outcome,
        index=index,
        difficulty=spec.needed,
        die=die,
        result=result,
        critical=outcome == "success" and die == 1,
        fumble_grade=-result if outcome == "fumble" else None,
        base_index=spec.index,
        modifier=sum(spec.mods),
        attempt_penalty=spec.attempt_penalty,
    )


def roll(spec: ReglasRoll, source: DiceSource) -> ReglasResult:
    (die,) = source.roll(10, 1)
    return evaluate(spec, die)

"""Reglas Básicas (seed 003, in Spanish): índice de éxito minus 1d10, fracasos and
críticos."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rpgdice.core import rolltypes
from rpgdice.core.dice import DiceSource
from rpgdice.core.errors import RulesError, at_least
from rpgdice.core.record import Tagged, record
from rpgdice.core.sequence import DEFAULT_MAX_ROLLS, check_limit

if TYPE_CHECKING:
    from fractions import Fraction

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


def raised(difficulty: int, levels: int) -> int:
    """Successes needed for ``difficulty`` raised ``levels`` levels, +2 each."""
    return difficulty + RAISE_STEP * levels


@record
class ReglasRoll:
    index: int
    """iE = Atributo + Habilidad, before modifiers."""
    difficulty: int = 0
    raises: int = 0
    mods: tuple[int, ...] = ()
    attempt: int = 1

    def __post_init__(self) -> None:
        at_least("ÍNDICE", self.index, 0, f"{self.index} es negativo")
        at_least("--difficulty", self.difficulty, 0, f"{self.difficulty} es negativa")
        at_least("--raise", self.raises, 0, f"{self.raises} es negativo")
        at_least("--attempt", self.attempt, 1,
                 f"{self.attempt} es menor que 1 (el primer intento es el 1)")

    @property
    def needed(self) -> int:
        return raised(self.difficulty, self.raises)

    @property
    def attempt_penalty(self) -> int:
        return RETRY_PENALTY * (self.attempt - 1)

    @property
    def effective_index(self) -> int:
        return self.index + sum(self.mods) - self.attempt_penalty


@record
class ReglasResult(Tagged, ruleset="reglas", command="roll"):
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
    base_difficulty: int = 0
    """The difficulty before any raise."""
    raises: int = 0
    """Levels the difficulty was raised (+2 each): ``difficulty`` = base + 2 × raises."""


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
        base_difficulty=spec.difficulty,
        raises=spec.raises,
    )


def roll(spec: ReglasRoll, source: DiceSource) -> ReglasResult:
    (die,) = source.roll(10, 1)
    return evaluate(spec, die)


# Acciones: múltiples, enfrentadas, trabajo en equipo, extendidas, inténtalo de nuevo ---

MULTI_FUMBLE_STOPS = False
"""(decision) A fracaso in acciones múltiples does not cancel the remaining actions."""
CONTEST_TIE_WINNER = "defender"
"""(decision) In acciones enfrentadas a tie goes to the defender."""
EXTENDED_FUMBLE_ENDS = True
"""(decision) A fracaso ends an acción extendida."""
RETRY_AFTER_FUMBLE = False
"""Inténtalo de nuevo: "un fracaso anula la posibilidad de volver a intentar"."""


MULTI_STEP = 2
"""Acciones múltiples: the penalty grows by 2 with each roll after the first."""


def multi_penalty(actions: int, k: int) -> int:
    """Acciones múltiples: roll ``k`` (1-based) of ``actions`` gets −(N + 2·(k − 1));
    four shots → −4, −6, −8, −10."""
    return actions + MULTI_STEP * (k - 1)


@record
class ReglasMulti:
    actions: int
    spec: ReglasRoll

    def __post_init__(self) -> None:
        at_least("ACCIONES", self.actions, 2,
                 f"{self.actions} es menor que 2 (las acciones múltiples son 2 o más)")
        check_limit("ACCIONES", self.actions)

    def action(self, k: int) -> ReglasRoll:
        return replace(self.spec, mods=self.spec.mods + (-multi_penalty(self.actions, k),))


@record
class ReglasMultiResult(Tagged, ruleset="reglas", command="multi"):
    outcome: str
    rolls: list[ReglasResult]
    penalties: list[int]
    """The penalty each action carried, as a positive number (4 for −4)."""
    actions: int


def roll_multi(spec: ReglasMulti, source: DiceSource) -> ReglasMultiResult:
    rolls, outcome = rolltypes.series(
        (spec.action(k) for k in range(1, spec.actions + 1)), lambda s: roll(s, source),
        _outcome, "fumble", stops=MULTI_FUMBLE_STOPS)
    return ReglasMultiResult(
        outcome=outcome,
        rolls=rolls,
        penalties=[multi_penalty(spec.actions, k) for k in range(1, len(rolls) + 1)],
        actions=spec.actions,
    )


def _outcome(r: ReglasResult) -> str:
    return r.outcome


def contest_winner(attacker: ReglasResult, defender: ReglasResult) -> str:
    """The attacker must pass its own difficulty, then beat the defender's result (a
    fracaso counts as the negative number it is); a tie goes to CONTEST_TIE_WINNER."""
    return rolltypes.contest_winner(attacker.result, defender.result, CONTEST_TIE_WINNER,
                                    attacker_may_win=attacker.outcome == "success")


@record
class ReglasContest:
    attacker: ReglasRoll
    defender: ReglasRoll
    """The defender has no difficulty: its result is compared as it is."""

    def __post_init__(self) -> None:
        if self.defender.needed != 0:
            raise RulesError("ÍNDICE_DEFENSOR", "el defensor tira sin dificultad")


@record
class ReglasContestResult(rolltypes.ContestResult[ReglasResult],
                          ruleset="reglas", command="contest"):
    """An acción enfrentada: ``margin`` is the attacker's result minus the defender's."""


def evaluate_contest(spec: ReglasContest, attacker_die: int, defender_die: int) -> ReglasContestResult:
    att = evaluate(spec.attacker, attacker_die)
    dfn = evaluate(spec.defender, defender_die)
    return rolltypes.contest(ReglasContestResult, att, dfn, (att.result, dfn.result),
                             contest_winner(att, dfn))


def roll_contest(spec: ReglasContest, source: DiceSource) -> ReglasContestResult:
    att, dfn = source.roll(10, 2)  # the attacker's die first (the order --dice faces are used)
    return evaluate_contest(spec, att, dfn)


@record
class ReglasTeam:
    """Trabajo en equipo: every member rolls (against no difficulty of their own); the
    results are summed, negatives included; the group needs ``difficulty``."""

    members: tuple[ReglasRoll, ...]
    difficulty: int = 0
    """Successes the sum needs, raises included."""
    raises: int = 0
    """Levels ``difficulty`` was raised (+2 each), for the output."""

    def __post_init__(self) -> None:
        if len(self.members) < 2:
            raise RulesError("ÍNDICE", "un equipo tiene al menos dos miembros")
        check_limit("ÍNDICE", len(self.members))
        at_least("--difficulty", self.difficulty, 0, f"{self.difficulty} es negativa")


@record
class ReglasTeamResult(rolltypes.TeamResult, ruleset="reglas", command="team"):
    """``total``: the sum of every member's result, fracasos (negative) included."""

    difficulty: int
    rolls: list[ReglasResult]
    sunk_by: list[int]
    """Members (1-based) whose fracaso sank the group: it failed, and would have
    succeeded without the negative results."""
    base_difficulty: int = 0
    """The difficulty before any raise."""
    raises: int = 0


def evaluate_team(spec: ReglasTeam, dice: list[int]) -> ReglasTeamResult:
    rolls = [evaluate(m, d) for m, d in zip(spec.members, dice, strict=True)]
    total, ok, sunk_by = rolltypes.team_sum([r.result for r in rolls], spec.difficulty,
                                            [r.outcome == "fumble" for r in rolls])
    return ReglasTeamResult(
        outcome="success" if ok else "failure",
        total=total,
        difficulty=spec.difficulty,
        rolls=rolls,
        sunk_by=sunk_by,
        base_difficulty=spec.difficulty - RAISE_STEP * spec.raises,
        raises=spec.raises,
    )


def roll_team(spec: ReglasTeam, source: DiceSource) -> ReglasTeamResult:
    return evaluate_team(spec, source.roll(10, len(spec.members)))


@record
class ReglasExtended:
    """Acumulación de éxitos: roll again and again adding non-negative results until
    ``target``, ``max_rolls`` rolls, or a fracaso. ``start`` is the accumulator
    already held (the Director lowers it after a rest)."""

    spec: ReglasRoll
    target: int
    start: int = 0
    max_rolls: int = DEFAULT_MAX_ROLLS

    def __post_init__(self) -> None:
        at_least("--target", self.target, 1, f"{self.target} es menor que 1")
        if not 0 <= self.start < self.target:
            raise RulesError("--start", f"{self.start} debe ir de 0 a menos del objetivo ({self.target})")
        check_limit("--max-rolls", self.max_rolls)


@record
class ReglasExtendedResult(rolltypes.ExtendedResult, ruleset="reglas", command="extended"):
    start: int
    rolls: list[ReglasResult]
    running_totals: list[int]
    max_rolls: int
    ended_by: str
    """``target`` | ``fumble`` | ``limit``."""


def roll_extended(spec: ReglasExtended, source: DiceSource) -> ReglasExtendedResult:
    """Roll again and again, adding the non-negative results, until the target, the
    roll limit, or (EXTENDED_FUMBLE_ENDS) a fracaso."""
    run = rolltypes.extended(
        lambda: roll(spec.spec, source),
        gain=lambda r: max(0, r.result),
        ends=lambda r: EXTENDED_FUMBLE_ENDS and r.outcome == "fumble",
        end="fumble", start=spec.start, target=spec.target, max_rolls=spec.max_rolls,
    )
    return rolltypes.extended_result(ReglasExtendedResult, run, target=spec.target,
                                     max_rolls=spec.max_rolls, start=spec.start)


@record
class ReglasRetry:
    """Inténtalo de nuevo: try until a success, a fracaso (no retry after one), or
    ``max_attempts``; every earlier failed attempt gives −2."""

    spec: ReglasRoll
    max_attempts: int = DEFAULT_MAX_ROLLS

    def __post_init__(self) -> None:
        check_limit("--max-attempts", self.max_attempts)


@record
class ReglasRetryResult(Tagged, ruleset="reglas", command="retry"):
    outcome: str
    rolls: list[ReglasResult]
    attempts: int
    max_attempts: int
    ended_by: str
    """``success`` | ``fumble`` | ``limit``."""


def roll_retry(spec: ReglasRetry, source: DiceSource) -> ReglasRetryResult:
    first = spec.spec.attempt
    rolls, ended_by = rolltypes.retry(
        lambda k: roll(replace(spec.spec, attempt=k), source),
        range(first, first + spec.max_attempts), _outcome, "fumble", RETRY_AFTER_FUMBLE)
    return ReglasRetryResult(
        outcome=rolls[-1].outcome,
        rolls=rolls,
        attempts=len(rolls),
        max_attempts=spec.max_attempts,
        ended_by=ended_by,
    )


# Odds: the records of an odds command's answer (odds.py computes them) ------------


@record
class ReglasOdds(Tagged, ruleset="reglas", command="odds"):
    outcomes: dict[str, Fraction]
    critical: Fraction
    """A crítico: the die shows 1 and the roll succeeds."""
    fumble_grades: dict[int, Fraction]
    """Probability of each fracaso grade (grades that cannot happen left out)."""
    index: int
    difficulty: int
    base_difficulty: int = 0
    """The difficulty before any raise."""
    raises: int = 0
    """Levels the difficulty was raised (+2 each)."""


@record
class ReglasMultiOdds(Tagged, ruleset="reglas", command="odds"):
    """Acciones múltiples: each action's own odds (``each``), and the series'
    ``outcomes`` (``success``: every action succeeds; ``fumble``: any fracaso)."""

    outcomes: dict[str, Fraction]
    each: list[ReglasOdds]
    all_succeed: Fraction
    actions: int
    type: str = "multi"


@record
class ReglasContestOdds(rolltypes.ContestOdds[ReglasOdds], ruleset="reglas", command="odds"):
    """Acciones enfrentadas: ``margin`` each difference of results (the attacker's minus the
    defender's)."""


@record
class ReglasTeamOdds(rolltypes.TeamOdds, ruleset="reglas", command="odds"):
    """Trabajo en equipo: each sum of the members' results (``total``)."""

    difficulty: int
    members: int
    type: str = "team"


@record
class ReglasExtendedOdds(rolltypes.ExtendedOdds, ruleset="reglas", command="odds"):
    """Acumulación de éxitos, from a starting total."""

    start: int
    max_rolls: int
    roll: ReglasOdds
    type: str = "extended"


@record
class ReglasRetryOdds(Tagged, ruleset="reglas", command="odds"):
    """Inténtalo de nuevo: ``by_attempt[k]`` the chance of a success by attempt k
    (cumulative); ``outcomes`` of the last attempt made."""

    outcomes: dict[str, Fraction]
    by_attempt: dict[int, Fraction]
    expected_attempts: Fraction
    max_attempts: int
    first: ReglasOdds
    type: str = "retry"

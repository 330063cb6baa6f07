"""`rpgdice reglas`: Reglas Básicas (tiradas en español): roll, odds, and the acciones
multi, contest, team, extended and retry."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from rpgdice.cli import params
from rpgdice.cli.common import (
    DiceOpt, JsonOpt, OddsOpt, SeedOpt, TimesOpt, exact_odds, ruleset_app, run, show_odds,
)
from rpgdice.engine.reglas import DIFFICULTIES, RAISE_STEP, RETRY_PENALTY
from rpgdice.engine.sequence import DEFAULT_MAX_ROLLS, MAX_ROLLS

app = ruleset_app("Reglas Básicas: índice de éxito menos 1d10.")

IndexArg = Annotated[
    int,
    typer.Argument(parser=params.pool_sum(), metavar="INDEX",
                   help="Índice de éxito: Atributo + Habilidad, a number or a sum such as 5+5.",
                   show_default=False),
]
DifficultyOpt = Annotated[
    int,
    typer.Option("-d", "--difficulty", "--dificultad",
                 parser=params.level(DIFFICULTIES, 0, params.MAX_NUMBER),
                 metavar="|".join(DIFFICULTIES) + "|N",
                 help="Successes needed: " + ", ".join(f"{k} {v}" for k, v in DIFFICULTIES.items())
                 + ", or a number."),
]
RaiseOpt = Annotated[
    int,
    typer.Option("--raise", "--niveles", parser=params.integer(0, params.MAX_NUMBER), metavar="N",
                 help=f"Raise the difficulty N levels, +{RAISE_STEP} each (past imposible too)."),
]
ModOpt = Annotated[
    Optional[list[int]],
    typer.Option("--mod", parser=params.signed(), metavar="N",
                 help="Signed modifier to the índice; repeatable."),
]
AttemptOpt = Annotated[
    int,
    typer.Option("--attempt", "--intento", parser=params.integer(1, params.MAX_NUMBER), metavar="K",
                 help=f"Which try this is (inténtalo de nuevo): −{RETRY_PENALTY} per earlier failed try."),
]


def _spec(index: int, difficulty: int = 0, raises: int = 0, mod: list[int] | None = None,
          attempt: int = 1):
    """The roll the arguments describe (a ReglasRoll): shared by every command."""
    from rpgdice.engine import reglas

    return reglas.ReglasRoll(
        index=index, difficulty=difficulty, raises=raises, mods=tuple(mod or ()), attempt=attempt
    )


@app.command("roll")
def roll_cmd(
    index: IndexArg,
    difficulty: DifficultyOpt = 0,
    raises: RaiseOpt = 0,
    mod: ModOpt = None,
    attempt: AttemptOpt = 1,
    dice: DiceOpt = None,
    seed: SeedOpt = None,
    times: TimesOpt = 1,
    as_json: JsonOpt = False,
    odds: OddsOpt = False,
) -> None:
    """Tirada simple: resultado = iE − 1d10.

    Éxito when the result reaches the difficulty (crítico on a die of 1), fracaso of
    grade N when it is −N, fallo otherwise.

    Example: rpgdice reglas roll 5+5 -d normal
    """
    from rpgdice.engine import reglas

    spec = _spec(index, difficulty, raises, mod, attempt)
    run(lambda source: reglas.roll(spec, source), dice=dice, seed=seed, times=times,
        as_json=as_json, odds=exact_odds("reglas_odds", spec) if odds else None,
        spec=exact_odds("reglas_odds", spec))


@app.command("odds")
def odds_cmd(
    index: IndexArg,
    difficulty: DifficultyOpt = 0,
    raises: RaiseOpt = 0,
    mod: ModOpt = None,
    attempt: AttemptOpt = 1,
    as_json: JsonOpt = False,
) -> None:
    """Probabilidades exactas de una tirada, sin tirar: éxito, fallo y fracaso,
    crítico, and the chance of each fracaso grade.

    Example: rpgdice reglas odds 5+5 -d normal
    """
    spec = _spec(index, difficulty, raises, mod, attempt)
    show_odds(exact_odds("reglas_odds", spec), as_json=as_json)


# Las acciones: multi, contest, team, extended, retry -----------------------------------


ActionsArg = Annotated[
    int,
    typer.Argument(parser=params.integer(2, MAX_ROLLS), metavar="ACTIONS",
                   help=f"Actions this turn, 2 to {MAX_ROLLS}: roll k gets −(N + 2·(k−1)).",
                   show_default=False),
]
AttackerArg = Annotated[
    int,
    typer.Argument(parser=params.pool_sum(), metavar="ATTACKER_INDEX",
                   help="The attacker's índice de éxito (a number or a sum such as 5+5).",
                   show_default=False),
]
DefenderArg = Annotated[
    int,
    typer.Argument(parser=params.pool_sum(), metavar="DEFENDER_INDEX",
                   help="The defender's índice de éxito; the defender has no difficulty.",
                   show_default=False),
]
MembersArg = Annotated[
    list[int],
    typer.Argument(parser=params.pool_sum(), metavar="INDEX INDEX...",
                   help="Each member's índice de éxito (at least two members).",
                   show_default=False),
]
DefenderModOpt = Annotated[
    Optional[list[int]],
    typer.Option("--defender-mod", parser=params.signed(), metavar="N",
                 help="Signed modifier to the defender's índice; repeatable."),
]
TargetOpt = Annotated[
    int,
    typer.Option("--target", parser=params.integer(1, params.MAX_NUMBER), metavar="N",
                 help="Éxitos to accumulate (required).", show_default=False),
]
StartOpt = Annotated[
    int,
    typer.Option("--start", parser=params.integer(0, params.MAX_NUMBER), metavar="N",
                 help="Éxitos already accumulated (the Director may lower them after a rest); "
                 "below the target."),
]
MaxRollsOpt = Annotated[
    int,
    typer.Option("--max-rolls", parser=params.integer(1, MAX_ROLLS), metavar="N",
                 help=f"Stop after N rolls (1 to {MAX_ROLLS}). The rules set no limit; "
                 f"rpgdice stops after {DEFAULT_MAX_ROLLS} unless told, so the roll always ends."),
]
MaxAttemptsOpt = Annotated[
    int,
    typer.Option("--max-attempts", parser=params.integer(1, MAX_ROLLS), metavar="N",
                 help=f"Stop after N attempts (1 to {MAX_ROLLS}); default {DEFAULT_MAX_ROLLS}, "
                 "so the retries always end."),
]


@app.command("multi")
def multi_cmd(
    actions: ActionsArg,
    index: IndexArg,
    difficulty: DifficultyOpt = 0,
    raises: RaiseOpt = 0,
    mod: ModOpt = None,
    dice: DiceOpt = None,
    seed: SeedOpt = None,
    times: TimesOpt = 1,
    as_json: JsonOpt = False,
) -> None:
    """Acciones múltiples: one roll per action, −N, −N−2, … each.

    N actions in one turn; roll k gets −(N + 2·(k − 1)): four shots → −4, −6, −8, −10.

    A fracaso does not cancel the remaining actions (rpgdice's reading).

    Example: rpgdice reglas multi 4 5+5 -d normal
    """
    from rpgdice.engine import reglas

    spec = reglas.ReglasMulti(
        actions=actions,
        spec=_spec(index, difficulty, raises, mod),
    )
    run(lambda source: reglas.roll_multi(spec, source), dice=dice, seed=seed, times=times, as_json=as_json)


@app.command("contest")
def contest_cmd(
    attacker: AttackerArg,
    defender: DefenderArg,
    difficulty: DifficultyOpt = 0,
    raises: RaiseOpt = 0,
    mod: ModOpt = None,
    defender_mod: DefenderModOpt = None,
    dice: DiceOpt = None,
    seed: SeedOpt = None,
    times: TimesOpt = 1,
    as_json: JsonOpt = False,
) -> None:
    """Acciones enfrentadas: both roll; more éxitos wins.

    The attacker must pass its difficulty (-d, --raise, --mod are the attacker's), then beat the defender's result; the defender has no difficulty and a fracaso counts as its negative result. A tie goes to the defender (rpgdice's reading). --dice: the attacker's die, then the defender's.

    Example: rpgdice reglas contest 10 3 -d normal --raise 2
    """
    from rpgdice.engine import reglas

    spec = reglas.ReglasContest(
        attacker=_spec(attacker, difficulty, raises, mod),
        defender=_spec(defender, mod=defender_mod),
    )
    run(lambda source: reglas.roll_contest(spec, source), dice=dice, seed=seed, times=times, as_json=as_json)


@app.command("team")
def team_cmd(
    members: MembersArg,
    difficulty: DifficultyOpt = 0,
    raises: RaiseOpt = 0,
    dice: DiceOpt = None,
    seed: SeedOpt = None,
    times: TimesOpt = 1,
    as_json: JsonOpt = False,
) -> None:
    """Trabajo en equipo: every member rolls; the results are summed.

    All results are summed, fracasos (negative) included, so one member's fracaso can sink the group. The group succeeds when the sum reaches the difficulty. --dice: one die per member, in order.

    Example: rpgdice reglas team 6 5 4 -d dificil
    """
    from rpgdice.engine import reglas

    spec = reglas.ReglasTeam(members=tuple(_spec(i) for i in members),
                             difficulty=reglas.raised(difficulty, raises), raises=raises)
    run(lambda source: reglas.roll_team(spec, source), dice=dice, seed=seed, times=times, as_json=as_json)


@app.command("extended")
def extended_cmd(
    index: IndexArg,
    target: TargetOpt,
    start: StartOpt = 0,
    max_rolls: MaxRollsOpt = DEFAULT_MAX_ROLLS,
    mod: ModOpt = None,
    dice: DiceOpt = None,
    seed: SeedOpt = None,
    times: TimesOpt = 1,
    as_json: JsonOpt = False,
) -> None:
    """Acciones extendidas: accumulate éxitos roll after roll up to a target.

    Roll again and again adding the éxitos (non-negative results) until the target, or the roll limit; a fracaso ends the attempt (rpgdice's reading).

    Example: rpgdice reglas extended 4+3 --target 12 --start 2 --max-rolls 5
    """
    from rpgdice.engine import reglas

    spec = reglas.ReglasExtended(
        spec=_spec(index, mod=mod),
        target=target, start=start, max_rolls=max_rolls,
    )
    run(lambda source: reglas.roll_extended(spec, source), dice=dice, seed=seed, times=times, as_json=as_json)


@app.command("retry")
def retry_cmd(
    index: IndexArg,
    difficulty: DifficultyOpt = 0,
    raises: RaiseOpt = 0,
    mod: ModOpt = None,
    max_attempts: MaxAttemptsOpt = DEFAULT_MAX_ROLLS,
    dice: DiceOpt = None,
    seed: SeedOpt = None,
    times: TimesOpt = 1,
    as_json: JsonOpt = False,
) -> None:
    """Inténtalo de nuevo: try again after a failure, −2 per failed attempt.

    Try until a success; every earlier failed attempt gives −2, cumulative, and after a fracaso there is no retry.

    Example: rpgdice reglas retry 6 -d normal --max-attempts 3
    """
    from rpgdice.engine import reglas

    spec = reglas.ReglasRetry(
        spec=_spec(index, difficulty, raises, mod),
        max_attempts=max_attempts,
    )
    run(lambda source: reglas.roll_retry(spec, source), dice=dice, seed=seed, times=times, as_json=as_json)

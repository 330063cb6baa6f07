"""`rpgdice reglas`: Reglas Básicas (tiradas en español)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from rpgdice.cli import params
from rpgdice.cli.common import (
    DiceOpt, JsonOpt, OddsOpt, SeedOpt, TimesOpt, ruleset_app, run, show_odds,
)
from rpgdice.engine.reglas import DIFFICULTIES, RAISE_STEP, RETRY_PENALTY

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


def _spec(index: int, difficulty: int, raises: int, mod: list[int] | None, attempt: int):
    """The roll the arguments describe (a ReglasRoll): shared by ``roll`` and ``odds``."""
    from rpgdice.engine import reglas

    return reglas.ReglasRoll(
        index=index, difficulty=difficulty, raises=raises, mods=tuple(mod or ()), attempt=attempt
    )


def _odds(spec):  # -> Callable[[], odds.ReglasOdds]
    def compute():
        from rpgdice.engine import odds

        return odds.reglas_odds(spec)

    return compute


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
        as_json=as_json, odds=_odds(spec) if odds else None)


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
    show_odds(_odds(_spec(index, difficulty, raises, mod, attempt)), as_json=as_json)


# The acciones (multi, contest, team, extended, retry) live in their own module and register on `app`.
from rpgdice.cli import reglas_types  # noqa: E402,F401

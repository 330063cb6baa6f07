"""`rpgdice reglas`: Reglas Básicas (tiradas en español): roll, odds, and the acciones
multi, contest, team, extended and retry."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Optional

import typer

from rpgdice.cli import params
from rpgdice.cli.common import (
    PANELS,
    ExactOdds,
    Plan,
    ReglasCommand,
    Work,
    exact_odds,
    rolls,
    ruleset_app,
)
from rpgdice.core.sequence import DEFAULT_MAX_ROLLS, MAX_ROLLS
from rpgdice.rulesets.reglas import RULESET  # its help, said once, in the record
from rpgdice.rulesets.reglas.rules import DIFFICULTIES, RAISE_STEP, RETRY_PENALTY

if TYPE_CHECKING:
    from rpgdice.rulesets.reglas.rules import ReglasRoll

app = ruleset_app(RULESET.help, command_cls=ReglasCommand)

ARGUMENTOS, OPCIONES = PANELS["es"]["arguments"], PANELS["es"]["options"]

DIFFICULTY_NAMES = {
    "ninguna": DIFFICULTIES["none"], "none": DIFFICULTIES["none"],
    "normal": DIFFICULTIES["normal"],
    "dificil": DIFFICULTIES["dificil"], "hard": DIFFICULTIES["dificil"],
    "muy-dificil": DIFFICULTIES["muy-dificil"], "very-hard": DIFFICULTIES["muy-dificil"],
    "imposible": DIFFICULTIES["imposible"], "impossible": DIFFICULTIES["imposible"],
}
"""Every difficulty by its name in Spanish (the text's) or in English (CLI.md)."""
INDEX_ACCEPTS = (f"un número como 5, o una suma como 5+5 o 4+3-1, de 0 a {params.MAX_NUMBER} "
                 "en total (a number or a sum)")

IndexArg = Annotated[
    int,
    typer.Argument(parser=params.pool_sum(accepts=INDEX_ACCEPTS, kind="índice"), metavar="ÍNDICE",
                   rich_help_panel=ARGUMENTOS, show_default=False,
                   help="Índice de éxito: Atributo + Habilidad, un número o una suma (5+5)."),
]
DifficultyOpt = Annotated[
    int,
    typer.Option("-d", "--dificultad", "--difficulty",
                 parser=params.level(
                     DIFFICULTY_NAMES, 0, params.MAX_NUMBER,
                     lambda n: f"{n} éxito{'' if n == 1 else 's'} necesario{'' if n == 1 else 's'}"),
                 metavar="NIVEL", rich_help_panel=OPCIONES, show_default=False,
                 help="Éxitos necesarios: ninguna 0 (por defecto), normal 2, dificil 4, "
                 "muy-dificil 6, imposible 8, o un número; también none, hard, very-hard, "
                 "impossible."),
]
RaiseOpt = Annotated[
    int,
    typer.Option("--niveles", "--raise", parser=params.integer(0, params.MAX_NUMBER), metavar="N",
                 rich_help_panel=OPCIONES, show_default=False,
                 help=f"Sube la dificultad N niveles, +{RAISE_STEP} cada uno."),
]
ModOpt = Annotated[
    Optional[list[int]],
    typer.Option("--mod", parser=params.signed(), metavar="N", rich_help_panel=OPCIONES,
                 help="Modificador al índice (+2, −2); repetible."),
]
AttemptOpt = Annotated[
    int,
    typer.Option("--intento", "--attempt", parser=params.integer(1, params.MAX_NUMBER), metavar="K",
                 rich_help_panel=OPCIONES, show_default=False,
                 help=f"Qué intento es (inténtalo de nuevo): −{RETRY_PENALTY} por intento fallido."),
]


def _spec(index: int, difficulty: int = 0, raises: int = 0, mod: list[int] | None = None,
          attempt: int = 1, mod_param: str = "--mod") -> ReglasRoll:
    """The roll the arguments describe (a ReglasRoll): shared by every command."""
    from rpgdice.rulesets.reglas import rules as reglas

    return reglas.ReglasRoll(
        index=index, difficulty=difficulty, raises=raises, mods=params.summed(mod, mod_param),
        attempt=attempt
    )


@rolls(app, "roll", RULESET.name)
def roll_cmd(
    index: IndexArg,
    difficulty: DifficultyOpt = 0,
    raises: RaiseOpt = 0,
    mod: ModOpt = None,
    attempt: AttemptOpt = 1,
) -> Plan:
    """Tirada simple: resultado = iE − 1d10.

    Éxito si el resultado alcanza la dificultad (crítico si el dado saca un 1), fracaso de
    grado N si es −N, fallo si no.

    Ejemplo: rpgdice reglas roll 5+5 -d normal
    """
    from rpgdice.rulesets.reglas import rules as reglas

    spec = _spec(index, difficulty, raises, mod, attempt)
    return Plan(lambda source: reglas.roll(spec, source), work=Work(1), odds=exact_odds('reglas', 'reglas_odds', spec), stats=exact_odds('reglas', 'reglas_odds', spec))


rolls(app, "odds", RULESET.name, kind="odds", help="""Probabilidades exactas de una tirada, sin tirar: éxito, fallo y fracaso,
    crítico y cada grado de fracaso.

    Ejemplo: rpgdice reglas odds 5+5 -d normal
    """)(roll_cmd)
"""The odds of the roll the same arguments make: its builder, its odds alone."""


# Las acciones: multi, contest, team, extended, retry -----------------------------------


ActionsArg = Annotated[
    int,
    typer.Argument(parser=params.integer(2, MAX_ROLLS), metavar="ACCIONES",
                   rich_help_panel=ARGUMENTOS, show_default=False,
                   help=f"Acciones en el turno, 2 a {MAX_ROLLS}: la k-ésima tiene −(N + 2·(k−1))."),
]
AttackerArg = Annotated[
    int,
    typer.Argument(parser=params.pool_sum(accepts=INDEX_ACCEPTS, kind="índice"), metavar="ÍNDICE_ATACANTE",
                   rich_help_panel=ARGUMENTOS, show_default=False,
                   help="Índice de éxito del atacante (un número o una suma como 5+5)."),
]
DefenderArg = Annotated[
    int,
    typer.Argument(parser=params.pool_sum(accepts=INDEX_ACCEPTS, kind="índice"), metavar="ÍNDICE_DEFENSOR",
                   rich_help_panel=ARGUMENTOS, show_default=False,
                   help="Índice de éxito del defensor, que no tiene dificultad."),
]
MembersArg = Annotated[
    list[int],
    typer.Argument(parser=params.pool_sum(accepts=INDEX_ACCEPTS, kind="índice"), metavar="ÍNDICE ÍNDICE...",
                   rich_help_panel=ARGUMENTOS, show_default=False,
                   help="El índice de éxito de cada miembro (al menos dos)."),
]
DefenderModOpt = Annotated[
    Optional[list[int]],
    typer.Option("--mod-defensor", "--defender-mod", parser=params.signed(), metavar="N",
                 rich_help_panel=OPCIONES,
                 help="Modificador al índice del defensor; repetible."),
]
TargetOpt = Annotated[
    int,
    typer.Option("--objetivo", "--target", parser=params.integer(1, params.MAX_NUMBER),
                 metavar="N", rich_help_panel=OPCIONES, show_default=False,
                 help="Éxitos que acumular (obligatorio)."),
]
StartOpt = Annotated[
    int,
    typer.Option("--inicio", "--start", parser=params.integer(0, params.MAX_NUMBER), metavar="N",
                 rich_help_panel=OPCIONES, show_default=False,
                 help="Éxitos ya acumulados (el Director los baja tras un descanso)."),
]
MaxRollsOpt = Annotated[
    int,
    typer.Option("--max-tiradas", "--max-rolls", parser=params.integer(1, MAX_ROLLS), metavar="N",
                 rich_help_panel=OPCIONES, show_default=False,
                 help=f"Para tras N tiradas (1 a {MAX_ROLLS}; {DEFAULT_MAX_ROLLS} por defecto: "
                 "las reglas no ponen límite)."),
]
MaxAttemptsOpt = Annotated[
    int,
    typer.Option("--max-intentos", "--max-attempts", parser=params.integer(1, MAX_ROLLS),
                 metavar="N", rich_help_panel=OPCIONES, show_default=False,
                 help=f"Para tras N intentos (1 a {MAX_ROLLS}; {DEFAULT_MAX_ROLLS} por defecto)."),
]


@rolls(app, "multi", RULESET.name)
def multi_cmd(
    actions: ActionsArg,
    index: IndexArg,
    difficulty: DifficultyOpt = 0,
    raises: RaiseOpt = 0,
    mod: ModOpt = None,
) -> Plan:
    """Acciones múltiples: una tirada por acción, −N, −N−2, …

    N acciones en un turno; la tirada k tiene −(N + 2·(k − 1)): cuatro disparos → −4, −6, −8, −10. Un fracaso no anula las acciones que quedan (lectura de rpgdice).

    Ejemplo: rpgdice reglas multi 4 5+5 -d normal
    """
    from rpgdice.rulesets.reglas import rules as reglas

    spec = reglas.ReglasMulti(
        actions=actions,
        spec=_spec(index, difficulty, raises, mod),
    )
    return Plan(lambda source: reglas.roll_multi(spec, source), odds=ExactOdds('reglas', 'reglas_multi_odds', spec), work=Work(actions, actions), roll_type=True)


@rolls(app, "contest", RULESET.name)
def contest_cmd(
    attacker: AttackerArg,
    defender: DefenderArg,
    difficulty: DifficultyOpt = 0,
    raises: RaiseOpt = 0,
    mod: ModOpt = None,
    defender_mod: DefenderModOpt = None,
) -> Plan:
    """Acciones enfrentadas: tiran los dos; gana quien saca más éxitos.

    El atacante debe superar su dificultad (-d, --raise y --mod son suyos) y luego el resultado del defensor, que no tiene dificultad (un fracaso cuenta como su número negativo). Un empate gana el defensor (lectura de rpgdice). --dice: el dado del atacante, luego el del defensor.

    Ejemplo: rpgdice reglas contest 10 3 -d normal --raise 2
    """
    from rpgdice.rulesets.reglas import rules as reglas

    spec = reglas.ReglasContest(
        attacker=_spec(attacker, difficulty, raises, mod),
        defender=_spec(defender, mod=defender_mod, mod_param="--defender-mod"),
    )
    return Plan(lambda source: reglas.roll_contest(spec, source), odds=ExactOdds('reglas', 'reglas_contest_odds', spec), work=Work(2, 2), roll_type=True)


@rolls(app, "team", RULESET.name)
def team_cmd(
    members: MembersArg,
    difficulty: DifficultyOpt = 0,
    raises: RaiseOpt = 0,
) -> Plan:
    """Trabajo en equipo: tira cada miembro y se suman los resultados.

    Se suman todos, fracasos (negativos) incluidos, así que el fracaso de uno puede hundir al grupo, que tiene éxito si la suma alcanza la dificultad. --dice: un dado por miembro, en orden.

    Ejemplo: rpgdice reglas team 6 5 4 -d dificil
    """
    from rpgdice.rulesets.reglas import rules as reglas

    spec = reglas.ReglasTeam(members=tuple(_spec(i) for i in members),
                             difficulty=reglas.raised(difficulty, raises), raises=raises)
    return Plan(lambda source: reglas.roll_team(spec, source), odds=ExactOdds('reglas', 'reglas_team_odds', spec), work=Work(len(spec.members), len(spec.members)), roll_type=True)


@rolls(app, "extended", RULESET.name)
def extended_cmd(
    index: IndexArg,
    target: TargetOpt,
    start: StartOpt = 0,
    max_rolls: MaxRollsOpt = DEFAULT_MAX_ROLLS,
    mod: ModOpt = None,
) -> Plan:
    """Acciones extendidas: acumula éxitos tirada tras tirada hasta un objetivo.

    Tira una y otra vez sumando los éxitos (resultados no negativos) hasta el objetivo o el límite de tiradas; un fracaso acaba el intento (lectura de rpgdice).

    Ejemplo: rpgdice reglas extended 4+3 --target 12 --start 2 --max-rolls 5
    """
    from rpgdice.rulesets.reglas import rules as reglas

    spec = reglas.ReglasExtended(
        spec=_spec(index, mod=mod),
        target=target, start=start, max_rolls=max_rolls,
    )
    return Plan(lambda source: reglas.roll_extended(spec, source), odds=ExactOdds('reglas', 'reglas_extended_odds', spec), work=Work(max_rolls, max_rolls), roll_type=True)


@rolls(app, "retry", RULESET.name)
def retry_cmd(
    index: IndexArg,
    difficulty: DifficultyOpt = 0,
    raises: RaiseOpt = 0,
    mod: ModOpt = None,
    max_attempts: MaxAttemptsOpt = DEFAULT_MAX_ROLLS,
) -> Plan:
    """Inténtalo de nuevo: otro intento tras un fallo, −2 por intento fallido.

    Se intenta hasta un éxito; cada intento fallido anterior da −2, acumulable, y tras un fracaso no hay otro intento.

    Ejemplo: rpgdice reglas retry 6 -d normal --max-attempts 3
    """
    from rpgdice.rulesets.reglas import rules as reglas

    spec = reglas.ReglasRetry(
        spec=_spec(index, difficulty, raises, mod),
        max_attempts=max_attempts,
    )
    return Plan(lambda source: reglas.roll_retry(spec, source), odds=ExactOdds('reglas', 'reglas_retry_odds', spec), work=Work(max_attempts, max_attempts), roll_type=True)

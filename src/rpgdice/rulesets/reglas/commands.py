"""`rpgdice reglas`: Reglas Básicas (tiradas en español): roll, odds, and the acciones
multi, contest, team, extended and retry."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rpgdice.cli import params
from rpgdice.cli.common import PANELS
from rpgdice.core.budget import Work
from rpgdice.core.command import REQUIRED, Command, Param, roll_and_odds
from rpgdice.core.sequence import DEFAULT_MAX_ROLLS, MAX_ROLLS
from rpgdice.roll.odds import ExactOdds, exact_odds
from rpgdice.roll.plan import Plan
from rpgdice.rulesets import lazily
from rpgdice.rulesets.reglas import rules as reglas_rules
from rpgdice.rulesets.reglas.rules import DIFFICULTIES, RAISE_STEP, RETRY_PENALTY

if TYPE_CHECKING:
    from rpgdice.rulesets.reglas.rules import ReglasRoll


# The functions of its odds.py its exact odds are computed by, each imported (with icepool)
# at its first call.


@lazily
def reglas_odds() -> Any:
    from rpgdice.rulesets.reglas.odds import reglas_odds

    return reglas_odds


@lazily
def reglas_multi_odds() -> Any:
    from rpgdice.rulesets.reglas.odds import reglas_multi_odds

    return reglas_multi_odds


@lazily
def reglas_contest_odds() -> Any:
    from rpgdice.rulesets.reglas.odds import reglas_contest_odds

    return reglas_contest_odds


@lazily
def reglas_team_odds() -> Any:
    from rpgdice.rulesets.reglas.odds import reglas_team_odds

    return reglas_team_odds


@lazily
def reglas_extended_odds() -> Any:
    from rpgdice.rulesets.reglas.odds import reglas_extended_odds

    return reglas_extended_odds


@lazily
def reglas_retry_odds() -> Any:
    from rpgdice.rulesets.reglas.odds import reglas_retry_odds

    return reglas_retry_odds

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

_INDEX = params.pool_sum(accepts=INDEX_ACCEPTS, kind="índice")
"""A success index: a number or a sum (its errors in Spanish and English)."""

INDEX = Param("index", "traits", parse=_INDEX, metavar="ÍNDICE", default=REQUIRED,
              panel=ARGUMENTOS,
              help="Índice de éxito: Atributo + Habilidad, un número o una suma (5+5).")
DIFFICULTY = Param(
    "difficulty", "number", flags=("-d", "--dificultad", "--difficulty"), default=0, lo=0,
    hi=params.MAX_NUMBER,
    parse=params.level(
        DIFFICULTY_NAMES, 0, params.MAX_NUMBER,
        lambda n: f"{n} éxito{'' if n == 1 else 's'} necesario{'' if n == 1 else 's'}"),
    metavar="NIVEL", panel=OPCIONES,
    help="Éxitos necesarios: ninguna 0 (por defecto), normal 2, dificil 4, "
    "muy-dificil 6, imposible 8, o un número; también none, hard, very-hard, "
    "impossible.")
RAISE = Param("raises", "number", flags=("--niveles", "--raise"),
              parse=params.integer(0, params.MAX_NUMBER), metavar="N", default=0, lo=0,
              hi=params.MAX_NUMBER, panel=OPCIONES,
              help=f"Sube la dificultad N niveles, +{RAISE_STEP} cada uno.")
MOD = Param("mod", "number", flags=("--mod",), parse=params.signed(), metavar="N",
            multiple=True, lo=-params.MAX_NUMBER, hi=params.MAX_NUMBER, panel=OPCIONES,
            help="Modificador al índice (+2, −2); repetible.")
ATTEMPT = Param("attempt", "number", flags=("--intento", "--attempt"),
                parse=params.integer(1, params.MAX_NUMBER), metavar="K", default=1, lo=1,
                hi=params.MAX_NUMBER, panel=OPCIONES,
                help=f"Qué intento es (inténtalo de nuevo): −{RETRY_PENALTY} por intento "
                "fallido.")


def _spec(index: int, difficulty: int = 0, raises: int = 0, mod: list[int] | None = None,
          attempt: int = 1, mod_param: str = "--mod") -> ReglasRoll:
    """The roll the arguments describe (a ReglasRoll): shared by every command."""
    from rpgdice.rulesets.reglas import rules as reglas

    return reglas.ReglasRoll(
        index=index, difficulty=difficulty, raises=raises, mods=params.summed(mod, mod_param),
        attempt=attempt
    )


def roll_cmd(
    index: int,
    difficulty: int = 0,
    raises: int = 0,
    mod: list[int] | None = None,
    attempt: int = 1,
) -> Plan:
    """Tirada simple: resultado = iE − 1d10.

    Éxito si el resultado alcanza la dificultad (crítico si el dado saca un 1), fracaso de
    grado N si es −N, fallo si no.

    Ejemplo: rpgdice reglas roll 5+5 -d normal
    """
    from rpgdice.rulesets.reglas import rules as reglas

    spec = _spec(index, difficulty, raises, mod, attempt)
    return Plan(lambda source: reglas.roll(spec, source), work=Work(1), odds=exact_odds('reglas', reglas_odds, spec), stats=exact_odds('reglas', reglas_odds, spec), reusable=True)


ODDS_HELP = """Probabilidades exactas de una tirada, sin tirar: éxito, fallo y fracaso,
    crítico y cada grado de fracaso.

    Ejemplo: rpgdice reglas odds 5+5 -d normal
    """


# Las acciones: multi, contest, team, extended, retry -----------------------------------


ACTIONS = Param("actions", "number", parse=params.integer(2, MAX_ROLLS), metavar="ACCIONES",
                default=REQUIRED, lo=2, hi=MAX_ROLLS, panel=ARGUMENTOS,
                help=f"Acciones en el turno, 2 a {MAX_ROLLS}: la k-ésima tiene −(N + 2·(k−1)).")
ATTACKER = Param("attacker", "traits", parse=_INDEX, metavar="ÍNDICE_ATACANTE", default=REQUIRED,
                 panel=ARGUMENTOS,
                 help="Índice de éxito del atacante (un número o una suma como 5+5).")
DEFENDER = Param("defender", "traits", parse=_INDEX, metavar="ÍNDICE_DEFENSOR", default=REQUIRED,
                 panel=ARGUMENTOS, help="Índice de éxito del defensor, que no tiene dificultad.")
MEMBERS = Param("members", "traits", parse=_INDEX, metavar="ÍNDICE ÍNDICE...", default=REQUIRED,
                multiple=True, panel=ARGUMENTOS,
                help="El índice de éxito de cada miembro (al menos dos).")
DEFENDER_MOD = Param("defender_mod", "number", flags=("--mod-defensor", "--defender-mod"),
                     parse=params.signed(), metavar="N", multiple=True, lo=-params.MAX_NUMBER,
                     hi=params.MAX_NUMBER, panel=OPCIONES,
                     help="Modificador al índice del defensor; repetible.")
TARGET = Param("target", "number", flags=("--objetivo", "--target"),
               parse=params.integer(1, params.MAX_NUMBER), metavar="N", default=REQUIRED, lo=1,
               hi=params.MAX_NUMBER, panel=OPCIONES, help="Éxitos que acumular (obligatorio).")
START = Param("start", "number", flags=("--inicio", "--start"),
              parse=params.integer(0, params.MAX_NUMBER), metavar="N", default=0, lo=0,
              hi=params.MAX_NUMBER, panel=OPCIONES,
              help="Éxitos ya acumulados (el Director los baja tras un descanso).")
MAX_ROLLS_PARAM = Param(
    "max_rolls", "number", flags=("--max-tiradas", "--max-rolls"),
    parse=params.integer(1, MAX_ROLLS), metavar="N", default=DEFAULT_MAX_ROLLS, lo=1,
    hi=MAX_ROLLS, panel=OPCIONES,
    help=f"Para tras N tiradas (1 a {MAX_ROLLS}; {DEFAULT_MAX_ROLLS} por defecto: "
    "las reglas no ponen límite).")
MAX_ATTEMPTS = Param(
    "max_attempts", "number", flags=("--max-intentos", "--max-attempts"),
    parse=params.integer(1, MAX_ROLLS), metavar="N", default=DEFAULT_MAX_ROLLS, lo=1,
    hi=MAX_ROLLS, panel=OPCIONES,
    help=f"Para tras N intentos (1 a {MAX_ROLLS}; {DEFAULT_MAX_ROLLS} por defecto).")


def multi_cmd(
    actions: int,
    index: int,
    difficulty: int = 0,
    raises: int = 0,
    mod: list[int] | None = None,
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
    return Plan(lambda source: reglas.roll_multi(spec, source), odds=ExactOdds('reglas', reglas_multi_odds, spec), work=Work(actions, actions), roll_type=True)


def contest_cmd(
    attacker: int,
    defender: int,
    difficulty: int = 0,
    raises: int = 0,
    mod: list[int] | None = None,
    defender_mod: list[int] | None = None,
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
    return Plan(lambda source: reglas.roll_contest(spec, source), odds=ExactOdds('reglas', reglas_contest_odds, spec), work=Work(2, 2), roll_type=True)


def team_cmd(
    members: list[int],
    difficulty: int = 0,
    raises: int = 0,
) -> Plan:
    """Trabajo en equipo: tira cada miembro y se suman los resultados.

    Se suman todos, fracasos (negativos) incluidos, así que el fracaso de uno puede hundir al grupo, que tiene éxito si la suma alcanza la dificultad. --dice: un dado por miembro, en orden.

    Ejemplo: rpgdice reglas team 6 5 4 -d dificil
    """
    from rpgdice.rulesets.reglas import rules as reglas

    spec = reglas.ReglasTeam(members=tuple(_spec(i) for i in members),
                             difficulty=reglas.raised(difficulty, raises), raises=raises)
    return Plan(lambda source: reglas.roll_team(spec, source), odds=ExactOdds('reglas', reglas_team_odds, spec), work=Work(len(spec.members), len(spec.members)), roll_type=True)


def extended_cmd(
    index: int,
    target: int,
    start: int = 0,
    max_rolls: int = DEFAULT_MAX_ROLLS,
    mod: list[int] | None = None,
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
    return Plan(lambda source: reglas.roll_extended(spec, source), odds=ExactOdds('reglas', reglas_extended_odds, spec), work=Work(max_rolls, max_rolls), roll_type=True)


def retry_cmd(
    index: int,
    difficulty: int = 0,
    raises: int = 0,
    mod: list[int] | None = None,
    max_attempts: int = DEFAULT_MAX_ROLLS,
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
    return Plan(lambda source: reglas.roll_retry(spec, source), odds=ExactOdds('reglas', reglas_retry_odds, spec), work=Work(max_attempts, max_attempts), roll_type=True)


ROLL_PARAMS = (INDEX, DIFFICULTY, RAISE, MOD, ATTEMPT)
COMMANDS = (
    *roll_and_odds(roll_cmd, ROLL_PARAMS, reglas_rules.ReglasResult, reglas_odds, ODDS_HELP),
    Command("multi", multi_cmd, (ACTIONS, INDEX, DIFFICULTY, RAISE, MOD),
            help=multi_cmd.__doc__ or "", results=(reglas_rules.ReglasMultiResult,), takes_as=True,
            odds_type=True, odds_functions=(reglas_multi_odds,)),
    Command("contest", contest_cmd, (ATTACKER, DEFENDER, DIFFICULTY, RAISE, MOD, DEFENDER_MOD),
            help=contest_cmd.__doc__ or "", results=(reglas_rules.ReglasContestResult,), takes_as=True,
            odds_type=True, odds_functions=(reglas_contest_odds,)),
    Command("team", team_cmd, (MEMBERS, DIFFICULTY, RAISE), help=team_cmd.__doc__ or "",
            results=(reglas_rules.ReglasTeamResult,), takes_as=True, odds_type=True,
            odds_functions=(reglas_team_odds,)),
    Command("extended", extended_cmd, (INDEX, TARGET, START, MAX_ROLLS_PARAM, MOD),
            help=extended_cmd.__doc__ or "", results=(reglas_rules.ReglasExtendedResult,), takes_as=True,
            odds_type=True, odds_functions=(reglas_extended_odds,)),
    Command("retry", retry_cmd, (INDEX, DIFFICULTY, RAISE, MOD, MAX_ATTEMPTS),
            help=retry_cmd.__doc__ or "", results=(reglas_rules.ReglasRetryResult,), takes_as=True,
            odds_type=True, odds_functions=(reglas_retry_odds,)),
)
"""Its commands: ``roll``; ``odds``, the same arguments' odds alone; and the acciones
``multi``, ``contest``, ``team``, ``extended`` and ``retry`` (roll types whose odds
``reglas odds NAME`` gives alone)."""

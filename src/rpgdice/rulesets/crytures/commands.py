"""`rpgdice crytures`: Crytures rolls."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rpgdice.cli import params
from rpgdice.core.budget import Work
from rpgdice.core.command import REQUIRED, Param, roll_and_odds
from rpgdice.core.errors import BadValue
from rpgdice.roll.odds import exact_odds
from rpgdice.roll.plan import Plan
from rpgdice.rulesets import lazily
from rpgdice.rulesets.crytures import rules as crytures_rules
from rpgdice.rulesets.crytures.rules import (
    DEFAULT_COMPLEXITY,
    DEFAULT_CRIT_HITS,
    DEFAULT_DIFFICULTY,
)

if TYPE_CHECKING:
    from rpgdice.roll.run import Turn
    from rpgdice.rulesets.crytures.rules import CryturesRoll


# The functions of its odds.py its exact odds are computed by, each imported (with icepool)
# at its first call.


@lazily
def crytures_odds() -> Any:
    from rpgdice.rulesets.crytures.odds import crytures_odds

    return crytures_odds

POOL = Param(
    "pool", "traits", parse=params.pool_sum(), metavar="POOL", default=REQUIRED,
    help="Base pool: Talent + Skill or Stat + Class, a number or a sum (3+2, 4-2); two words are their sum (brawn fighting).")
DIE_MOD = Param("die_mod", "number", flags=("--die-mod",), parse=params.signed(), metavar="N",
                multiple=True, lo=-params.MAX_NUMBER, hi=params.MAX_NUMBER,
                help="Dice added (or removed, negative) from the pool; repeatable.")
ROLL_MOD = Param("roll_mod", "number", flags=("--roll-mod",), parse=params.signed(), metavar="N",
                 multiple=True, lo=-params.MAX_NUMBER, hi=params.MAX_NUMBER,
                 help="Added to every die's result; repeatable.")
DIFFICULTY = Param("difficulty", "number", flags=("-d", "--difficulty"),
                   parse=params.integer(1, params.MAX_NUMBER), metavar="N",
                   default=DEFAULT_DIFFICULTY, lo=1, hi=params.MAX_NUMBER,
                   help=f"Target number per die, at least 1; default {DEFAULT_DIFFICULTY} "
                   "(the rules set none).")
COMPLEXITY = Param("complexity", "number", flags=("-c", "--complexity"),
                   parse=params.integer(1, params.MAX_NUMBER), metavar="N",
                   default=DEFAULT_COMPLEXITY, lo=1, hi=params.MAX_NUMBER,
                   help="Successes needed, at least 1; default 1.")
ATTACK = Param("attack", "flag", flags=("--attack",), default=False,
               help="An attack: every natural 10 is a critical hit, "
               f"adding --crit-hits successes (default {DEFAULT_CRIT_HITS}).")
CRIT_HITS = Param("crit_hits", "number", flags=("--crit-hits",),
                  parse=params.integer(0, params.MAX_NUMBER), metavar="N", lo=0,
                  hi=params.MAX_NUMBER,
                  help=f"With --attack: successes each critical hit adds before the Complexity "
                  f"check (default {DEFAULT_CRIT_HITS}; 0 when the Crit effect is something else).")

SPENT = ("stamina", "mana")
"""What a retry may be paid with, from the sheet (RULES.md: the text's "Stamina, or Mana")."""


def spend(text: str) -> str:
    """``RESOURCE=N``: ``stamina=2`` or ``mana=1`` (kept as typed, folded)."""
    name, eq, number = str(text).strip().lower().partition("=")
    if name.strip() not in SPENT or not eq or not number.strip().isdigit() \
            or not 1 <= int(number) <= params.MAX_NUMBER:
        raise BadValue(f"{text!r} is not stamina=N or mana=N")
    return f"{name.strip()}={int(number)}"


spend.accepts = "stamina=N or mana=N"  # type: ignore[attr-defined]

SPEND = Param("spend", "choice", flags=("--spend",), parse=spend, metavar="RESOURCE=N",
              help="With --as: pay N Stamina or Mana from the sheet to try again (the text "
              "sets no price: the GM names it); refused when the sheet has less.")


def _spec(pool: int, die_mod: tuple[int, ...] | None, roll_mod: tuple[int, ...] | None,
          difficulty: int, complexity: int, attack: bool,
          crit_hits: int | None) -> CryturesRoll:
    """The roll the arguments describe: shared by ``roll`` and ``odds``."""
    from rpgdice.rulesets.crytures import rules as crytures

    if crit_hits is not None and not attack:
        from rpgdice.core.errors import RulesError

        raise RulesError("--crit-hits", "critical hits happen only in an attack; accepts "
                         "--crit-hits N together with --attack")

    return crytures.CryturesRoll(
        base_pool=pool,
        die_mods=params.summed(die_mod, "--die-mod"),
        roll_mods=params.summed(roll_mod, "--roll-mod"),
        difficulty=difficulty,
        complexity=complexity,
        attack=attack,
        crit_hits=DEFAULT_CRIT_HITS if crit_hits is None else crit_hits,
    )


def roll_cmd(
    pool: int,
    die_mod: tuple[int, ...] | None = None,
    roll_mod: tuple[int, ...] | None = None,
    difficulty: int = DEFAULT_DIFFICULTY,
    complexity: int = DEFAULT_COMPLEXITY,
    attack: bool = False,
    crit_hits: int | None = None,
    spend: str | None = None,
    run: Turn | None = None,
) -> Plan:
    """Roll a Crytures dice pool.

    Each die meeting the Difficulty is a success; a natural 10 is always a success,
    and two when it meets the Difficulty. Success when the successes reach the
    Complexity.

    Example: rpgdice crytures roll 6 --die-mod 3 --roll-mod 2
    """
    from rpgdice.rulesets.crytures import rules as crytures

    spec = _spec(pool, die_mod, roll_mod, difficulty, complexity, attack, crit_hits)
    if spend is not None:
        if run is not None and run.sheet is None and not run.replaying:
            from rpgdice.core.errors import RulesError

            raise RulesError("--spend", "pays from a character's sheet: give --as NAME")
    exact = exact_odds("crytures", crytures_odds, spec)
    return Plan(lambda source: crytures.roll(spec, source), work=Work(spec.pool), odds=exact,
                stats=exact, reusable=True)


ODDS_HELP = """Exact odds of a Crytures roll, without rolling: success and failure, the
    distribution of successes (exactly k, at least k) and natural 10s.

    Example: rpgdice crytures odds 6 --die-mod 3 -c 2
    """

ROLL_PARAMS = (POOL, DIE_MOD, ROLL_MOD, DIFFICULTY, COMPLEXITY, ATTACK, CRIT_HITS, SPEND)
COMMANDS = (
    *roll_and_odds(roll_cmd, ROLL_PARAMS, crytures_rules.CryturesResult, crytures_odds, ODDS_HELP),
)
"""Its commands: ``roll``, and ``odds`` (the same arguments, its odds alone)."""

"""`rpgdice crytures`: Crytures rolls."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Optional

import typer

from rpgdice.cli import params
from rpgdice.cli.common import Plan, Work, exact_odds, rolls, ruleset_app
from rpgdice.rulesets.crytures import RULESET  # its help, said once, in the record
from rpgdice.rulesets.crytures.rules import (
    DEFAULT_COMPLEXITY,
    DEFAULT_CRIT_HITS,
    DEFAULT_DIFFICULTY,
)

if TYPE_CHECKING:
    from rpgdice.rulesets.crytures.rules import CryturesRoll

app = ruleset_app(RULESET.help)

PoolArg = Annotated[
    int,
    typer.Argument(
        parser=params.pool_sum(),
        metavar="POOL",
        help="Base pool: Talent + Skill or Stat + Class, a number or a sum (3+2, 4-2).",
        show_default=False,
    ),
]
DieModOpt = Annotated[
    Optional[list[int]],
    typer.Option("--die-mod", parser=params.signed(), metavar="N",
                 help="Dice added (or removed, negative) from the pool; repeatable."),
]
RollModOpt = Annotated[
    Optional[list[int]],
    typer.Option("--roll-mod", parser=params.signed(), metavar="N",
                 help="Added to every die's result; repeatable."),
]
DifficultyOpt = Annotated[
    int,
    typer.Option("-d", "--difficulty", parser=params.integer(1, params.MAX_NUMBER), metavar="N",
                 show_default=False,
                 help=f"Target number per die, at least 1; default {DEFAULT_DIFFICULTY} "
                 "(the rules set none)."),
]
ComplexityOpt = Annotated[
    int,
    typer.Option("-c", "--complexity", parser=params.integer(1, params.MAX_NUMBER), metavar="N",
                 show_default=False, help="Successes needed, at least 1; default 1."),
]
AttackOpt = Annotated[
    bool, typer.Option("--attack", help="An attack: every natural 10 is a critical hit, "
                       f"adding --crit-hits successes (default {DEFAULT_CRIT_HITS})."),
]
CritHitsOpt = Annotated[
    Optional[int],
    typer.Option("--crit-hits", parser=params.integer(0, params.MAX_NUMBER), metavar="N",
                 help=f"With --attack: successes each critical hit adds before the Complexity "
                 f"check (default {DEFAULT_CRIT_HITS}; 0 when the Crit effect is something else).",
                 show_default=False),
]

SPENT = ("stamina", "mana")
"""What a retry may be paid with, from the sheet (RULES.md: the text's "Stamina, or Mana")."""


def spend(text: str) -> str:
    """``RESOURCE=N``: ``stamina=2`` or ``mana=1`` (kept as typed, folded)."""
    name, eq, number = str(text).strip().lower().partition("=")
    if name.strip() not in SPENT or not eq or not number.strip().isdigit() \
            or not 1 <= int(number) <= params.MAX_NUMBER:
        raise typer.BadParameter(f"{text!r} is not stamina=N or mana=N")
    return f"{name.strip()}={int(number)}"


spend.accepts = "stamina=N or mana=N"  # type: ignore[attr-defined]

SpendOpt = Annotated[
    Optional[str],
    typer.Option("--spend", parser=spend, metavar="RESOURCE=N",
                 help="With --as: pay N Stamina or Mana from the sheet to try again (the text "
                 "sets no price: the GM names it); refused when the sheet has less."),
]


def _spec(pool: int, die_mod: list[int] | None, roll_mod: list[int] | None,
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


@rolls(app, "roll", RULESET.name)
def roll_cmd(
    pool: PoolArg,
    die_mod: DieModOpt = None,
    roll_mod: RollModOpt = None,
    difficulty: DifficultyOpt = DEFAULT_DIFFICULTY,
    complexity: ComplexityOpt = DEFAULT_COMPLEXITY,
    attack: AttackOpt = False,
    crit_hits: CritHitsOpt = None,
    spend: SpendOpt = None,
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
        from rpgdice.roll.execute import turn

        state = turn()
        if state is not None and state.sheet is None and not state.replaying:
            from rpgdice.core.errors import RulesError

            raise RulesError("--spend", "pays from a character's sheet: give --as NAME")
    exact = exact_odds("crytures", "crytures_odds", spec)
    return Plan(lambda source: crytures.roll(spec, source), work=Work(spec.pool), odds=exact,
                stats=exact)


rolls(app, "odds", RULESET.name, kind="odds", help="""Exact odds of a Crytures roll, without rolling: success and failure, the
    distribution of successes (exactly k, at least k) and natural 10s.

    Example: rpgdice crytures odds 6 --die-mod 3 -c 2
    """)(roll_cmd)
"""The odds of the roll the same arguments make: its builder, its odds alone."""

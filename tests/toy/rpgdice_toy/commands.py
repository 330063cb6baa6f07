"""`rpgdice toy`: thin — each command a record: its parameters, its builder (the arguments
made a plan) and its roles; the command line, its help, completion and the seat's panel are
made from them."""

from __future__ import annotations

from typing import Any

from rpgdice.cli import params
from rpgdice.cli.common import Plan, Work, exact_odds
from rpgdice.core.command import REQUIRED, Command, Param
from rpgdice.rulesets import lazily
from rpgdice_toy import rules as toy_rules

# The functions of its odds.py its exact odds are computed by, each imported (with icepool)
# at its first call.


@lazily
def toy_odds() -> Any:
    from rpgdice_toy.odds import toy_odds

    return toy_odds

POOL = Param("pool", "traits", parse=params.pool_sum(), metavar="POOL", default=REQUIRED,
             help="Dice in the pool, a number or a sum (2+1).")


def roll_cmd(pool: int) -> Plan:
    """Roll a toy pool: the highest die decides.

    6 is a success, 4 or 5 a partial success, 1 to 3 a failure.

    Example: rpgdice toy roll 3
    """
    from rpgdice_toy import rules

    spec = rules.ToyRoll(pool=pool)
    exact = exact_odds("toy", toy_odds, spec)
    return Plan(lambda source: rules.roll(spec, source), work=Work(spec.pool), odds=exact,
                stats=exact)


def odds_cmd(pool: int) -> Plan:
    """Exact odds of a toy roll, without rolling.

    Example: rpgdice toy odds 3
    """
    from rpgdice_toy import rules

    return Plan(odds=exact_odds("toy", toy_odds, rules.ToyRoll(pool=pool)))


COMMANDS = (
    Command("roll", roll_cmd, (POOL,), help=roll_cmd.__doc__ or "", results=(toy_rules.ToyResult,),
            takes_as=True, stats=True, odds_functions=(toy_odds,)),
    Command("odds", odds_cmd, (POOL,), help=odds_cmd.__doc__ or "", kind="odds",
            takes_as=True, odds_functions=(toy_odds,)),
)

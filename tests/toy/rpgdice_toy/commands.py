"""`rpgdice toy`: thin — the arguments parsed into a roll value; the builders make its plan."""

from __future__ import annotations

from typing import Annotated

import typer

from rpgdice.cli import params
from rpgdice.cli.common import Plan, Work, exact_odds, rolls, ruleset_app
from rpgdice_toy import RULESET

app = ruleset_app(RULESET.help)

PoolArg = Annotated[int, typer.Argument(
    parser=params.pool_sum(), metavar="POOL", show_default=False,
    help="Dice in the pool, a number or a sum (2+1).")]


@rolls(app, "roll", RULESET.name)
def roll_cmd(pool: PoolArg) -> Plan:
    """Roll a toy pool: the highest die decides.

    6 is a success, 4 or 5 a partial success, 1 to 3 a failure.

    Example: rpgdice toy roll 3
    """
    from rpgdice_toy import rules

    spec = rules.ToyRoll(pool=pool)
    exact = exact_odds("toy", "toy_odds", spec)
    return Plan(lambda source: rules.roll(spec, source), work=Work(spec.pool), odds=exact,
                stats=exact)


@rolls(app, "odds", RULESET.name, kind="odds")
def odds_cmd(pool: PoolArg) -> Plan:
    """Exact odds of a toy roll, without rolling.

    Example: rpgdice toy odds 3
    """
    from rpgdice_toy import rules

    return Plan(odds=exact_odds("toy", "toy_odds", rules.ToyRoll(pool=pool)))

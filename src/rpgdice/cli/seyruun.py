"""`rpgdice seyruun`: Seyruun rolls."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from rpgdice.cli import params
from rpgdice.cli.common import (
    DiceOpt, JsonOpt, OddsOpt, SeedOpt, TimesOpt, ruleset_app, run, show_odds,
)
from rpgdice.engine.seyruun import DIFFICULTIES, MULTI_ACTION_PENALTY, UNTRAINED_PENALTY, WOUNDS

app = ruleset_app("Seyruun: World of Darkness style d10 pool.")

AttributeArg = Annotated[
    int,
    typer.Argument(parser=params.integer(0, params.MAX_NUMBER), metavar="ATTRIBUTE",
                   help="The Attribute's dots.", show_default=False),
]
SkillArg = Annotated[
    Optional[int],
    typer.Argument(parser=params.integer(0, params.MAX_NUMBER), metavar="[SKILL]",
                   help=f"The Skill's dots; none or 0 is untrained (Attribute −{UNTRAINED_PENALTY} die).",
                   show_default=False),
]
BonusOpt = Annotated[
    Optional[list[int]],
    typer.Option("--bonus", parser=params.integer(0, params.MAX_NUMBER), metavar="N",
                 help="External bonus dice (merits, allies, equipment); repeatable; "
                 "at most +5 count."),
]
PenaltyOpt = Annotated[
    Optional[list[int]],
    typer.Option("--penalty", parser=params.integer(0, params.MAX_NUMBER), metavar="N",
                 help="Dice removed (terrain, visibility, distraction, duress); repeatable."),
]
WoundOpt = Annotated[
    Optional[str],
    typer.Option("--wound", parser=params.choice(WOUNDS), metavar="|".join(WOUNDS),
                 help="Wound penalty: " + ", ".join(f"{k} −{v}" for k, v in WOUNDS.items()) + "."),
]
ActionsOpt = Annotated[
    int,
    typer.Option("--actions", parser=params.integer(1, params.MAX_NUMBER), metavar="N",
                 help=f"Actions this turn: −{MULTI_ACTION_PENALTY} dice for each beyond the first."),
]
WillpowerOpt = Annotated[
    bool, typer.Option("--willpower", help="Spend 1 Willpower for +3 dice (not capped)."),
]
RerollOpt = Annotated[
    bool,
    typer.Option("--reroll", help="Spend 1 Willpower to re-roll a failed or botched roll once."),
]
DifficultyOpt = Annotated[
    int,
    typer.Option("-d", "--difficulty", parser=params.level(DIFFICULTIES, 1, params.MAX_NUMBER),
                 metavar="|".join(DIFFICULTIES) + "|N",
                 help="Successes needed: " + ", ".join(f"{k} {v}" for k, v in DIFFICULTIES.items())
                 + ", or a number."),
]


def _pool(attribute: int, skill: int | None, bonus: list[int] | None, penalty: list[int] | None,
          wound: str | None, actions: int, willpower: bool, difficulty: int):  # -> SeyruunPool
    """The pool the arguments build: shared by ``roll``, ``odds``, ``extended`` and ``team``."""
    from rpgdice.engine import seyruun

    return seyruun.SeyruunPool(
        attribute=attribute,
        skill=skill,
        bonuses=tuple(bonus or ()),
        penalties=tuple(penalty or ()),
        wound=wound,
        actions=actions,
        willpower=willpower,
        required=difficulty,
    )


def _odds(pool, reroll: bool):  # -> Callable[[], odds.SeyruunOdds]
    def compute():
        from rpgdice.engine import odds

        return odds.seyruun_odds(pool, reroll=reroll)

    return compute


@app.command("roll")
def roll_cmd(
    attribute: AttributeArg,
    skill: SkillArg = None,
    bonus: BonusOpt = None,
    penalty: PenaltyOpt = None,
    wound: WoundOpt = None,
    actions: ActionsOpt = 1,
    willpower: WillpowerOpt = False,
    reroll: RerollOpt = False,
    difficulty: DifficultyOpt = 1,
    dice: DiceOpt = None,
    seed: SeedOpt = None,
    times: TimesOpt = 1,
    as_json: JsonOpt = False,
    odds: OddsOpt = False,
) -> None:
    """Roll a Seyruun dice pool: Attribute + Skill, bonuses (max +5), Willpower,
    penalties; 10 dice at most, a chance die at 0 or less.

    Each 6-9 is a success, each 10 two; no success and a 1 is a botch.

    Example: rpgdice seyruun roll 3 3 --bonus 1 -d moderate
    """
    from rpgdice.engine import seyruun

    pool = _pool(attribute, skill, bonus, penalty, wound, actions, willpower, difficulty)
    run(lambda source: seyruun.roll(pool, source, reroll=reroll),
        dice=dice, seed=seed, times=times, as_json=as_json,
        odds=_odds(pool, reroll) if odds else None)


@app.command("odds")
def odds_cmd(
    attribute: AttributeArg,
    skill: SkillArg = None,
    bonus: BonusOpt = None,
    penalty: PenaltyOpt = None,
    wound: WoundOpt = None,
    actions: ActionsOpt = 1,
    willpower: WillpowerOpt = False,
    reroll: RerollOpt = False,
    difficulty: DifficultyOpt = 1,
    as_json: JsonOpt = False,
) -> None:
    """Exact odds of a Seyruun roll, without rolling: success, failure and botch,
    the distribution of successes (exactly k, at least k), 10s and tiers. With
    --reroll, the odds of the roll that stands.

    Example: rpgdice seyruun odds 3 3 -d moderate --reroll
    """
    pool = _pool(attribute, skill, bonus, penalty, wound, actions, willpower, difficulty)
    show_odds(_odds(pool, reroll), as_json=as_json)


# The roll types (contest, extended, team) live in their own module and register on `app`.
from rpgdice.cli import seyruun_types  # noqa: E402,F401

"""`rpgdice seyruun`: Seyruun rolls: roll, odds, and the roll types contest (also
resisted), extended and team."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from rpgdice.cli import params
from rpgdice.cli.common import (
    DiceOpt, JsonOpt, OddsOpt, SeedOpt, TimesOpt, exact_odds, ruleset_app, run, show_odds,
)
from rpgdice.engine.errors import RulesError
from rpgdice.engine.record import record
from rpgdice.engine.sequence import DEFAULT_MAX_ROLLS, MAX_ROLLS
from rpgdice.engine.seyruun import DIFFICULTIES, MULTI_ACTION_PENALTY, UNTRAINED_PENALTY, WOUNDS

app = ruleset_app("Seyruun: World of Darkness style d10 pool.")

POOL_ACCEPTS = ("a number, or a sum such as 3+2 (Attribute+Skill) or 3+2+1-2 (then +bonus "
                f"and -penalty dice); each number 0 to {params.MAX_NUMBER}")
"""The one pool syntax, Seyruun's reading: the first term is the Attribute, a second one added
with + the Skill, further terms bonuses (+) and penalties (-)."""


@record
class Terms:
    """A pool as typed, term by term: ``3+2+1-2`` is ``(3, 2, 1, -2)``."""

    values: tuple[int, ...]

    def side(self) -> "SidePool":
        """The terms read as a contest side: Attribute, Skill, then bonuses and penalties."""
        (attribute, *rest) = self.values
        skill = None
        if rest and rest[0] >= 0:
            skill, rest = rest[0], rest[1:]
        return SidePool(attribute=attribute, skill=skill,
                        bonuses=tuple(n for n in rest if n >= 0),
                        penalties=tuple(-n for n in rest if n < 0))

    def total(self, param: str) -> int:
        """The terms added up, as one number of dots (``SKILL`` given as ``2+1``)."""
        total = sum(self.values)
        if total < 0:
            raise RulesError(param, f"{total} is below 0; accepts {POOL_ACCEPTS}")
        return total


def _terms(text: str) -> Terms:
    if isinstance(text, Terms):
        return text
    return Terms(params.terms(text, params.MAX_NUMBER, POOL_ACCEPTS))


_terms.accepts = POOL_ACCEPTS  # type: ignore[attr-defined]
_terms.__name__ = _terms.__qualname__ = "pool"

AttributeArg = Annotated[
    Terms,
    typer.Argument(parser=_terms, metavar="ATTRIBUTE", show_default=False,
                   help="The Attribute's dots; alone, a whole pool such as 3+2+1-2 "
                   "(Attribute, Skill, +bonus, −penalty): 3+3 is the same as 3 3."),
]
SkillArg = Annotated[
    Optional[Terms],
    typer.Argument(parser=_terms, metavar="[SKILL]", show_default=False,
                   help=f"The Skill's dots; none or 0 is untrained (−{UNTRAINED_PENALTY} die)."),
]
BonusOpt = Annotated[
    Optional[list[int]],
    typer.Option("--bonus", parser=params.integer(0, params.MAX_NUMBER), metavar="N",
                 help="External bonus dice, repeatable; at most +5 count."),
]
PenaltyOpt = Annotated[
    Optional[list[int]],
    typer.Option("--penalty", parser=params.integer(0, params.MAX_NUMBER), metavar="N",
                 help="Dice removed (terrain, visibility, ...); repeatable."),
]
WoundOpt = Annotated[
    Optional[str],
    typer.Option("--wound", parser=params.choice(
                     WOUNDS, {k: f"−{v} {'die' if v == 1 else 'dice'}" for k, v in WOUNDS.items()}),
                 metavar="WOUND",
                 help="Wound: " + ", ".join(f"{k} −{v}" for k, v in WOUNDS.items()) + "."),
]
ActionsOpt = Annotated[
    int,
    typer.Option("--actions", parser=params.integer(1, params.MAX_NUMBER), metavar="N",
                 show_default=False,
                 help=f"Actions this turn: −{MULTI_ACTION_PENALTY} dice each beyond the first."),
]
WillpowerOpt = Annotated[
    bool, typer.Option("--willpower", help="Spend 1 Willpower: +3 dice (not capped)."),
]
RerollOpt = Annotated[
    bool,
    typer.Option("--reroll", help="Spend 1 Willpower: re-roll a failure or botch once."),
]
DifficultyOpt = Annotated[
    int,
    typer.Option("-d", "--difficulty", parser=params.level(
                     DIFFICULTIES, 1, params.MAX_NUMBER,
                     lambda n: f"{n} success{'' if n == 1 else 'es'} needed"),
                 metavar="LEVEL", show_default=False,
                 help="Successes needed: " + ", ".join(f"{k} {v}" for k, v in DIFFICULTIES.items())
                 + " or a number; default simple."),
]


def _base(attribute: Terms, skill: Terms | None, bonus: list[int] | None,
          penalty: list[int] | None) -> tuple[int, int | None, tuple[int, ...], tuple[int, ...]]:
    """Attribute, Skill, bonuses and penalties from the pool arguments: a sum given as the
    only one reads as a contest side (``3+3`` is ``3 3``); with a Skill, each is a number
    of dots, sums added up."""
    bonuses, penalties = tuple(bonus or ()), tuple(penalty or ())
    if skill is None:
        side = attribute.side()
        return (side.attribute, side.skill, side.bonuses + bonuses, side.penalties + penalties)
    return attribute.total("ATTRIBUTE"), skill.total("SKILL"), bonuses, penalties


def _pool(attribute: Terms, skill: Terms | None, bonus: list[int] | None,
          penalty: list[int] | None, wound: str | None, actions: int, willpower: bool,
          difficulty: int):  # -> SeyruunPool
    """The pool the arguments build: shared by ``roll``, ``odds``, ``extended`` and ``team``."""
    from rpgdice.engine import seyruun

    attribute_dots, skill_dots, bonuses, penalties = _base(attribute, skill, bonus, penalty)
    return seyruun.SeyruunPool(
        attribute=attribute_dots,
        skill=skill_dots,
        bonuses=bonuses,
        penalties=penalties,
        wound=wound,
        actions=actions,
        willpower=willpower,
        required=difficulty,
    )


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
        odds=exact_odds("seyruun_odds", pool, reroll=reroll) if odds else None)


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
    show_odds(exact_odds("seyruun_odds", pool, reroll=reroll), as_json=as_json)


# Roll types: contest (and resisted), extended, team ------------------------------------


@record
class SidePool:
    """One side of a contest as typed: ``ATTRIBUTE+SKILL[+BONUS...][-PENALTY...]``."""

    attribute: int
    skill: Optional[int]
    bonuses: tuple[int, ...]
    penalties: tuple[int, ...]


SIDE_ACCEPTS = ("a side such as 3+2 (Attribute+Skill) or 3+2+1-2 (then +bonus and -penalty "
                 f"dice), or 3 (untrained); each number 0 to {params.MAX_NUMBER}")


def _side_terms(text: str) -> Terms:
    if isinstance(text, Terms):
        return text
    return Terms(params.terms(text, params.MAX_NUMBER, SIDE_ACCEPTS))


_side_terms.accepts = SIDE_ACCEPTS  # type: ignore[attr-defined]
_side_terms.__name__ = _side_terms.__qualname__ = "pool"

AttackerArg = Annotated[
    Terms,
    typer.Argument(parser=_side_terms, metavar="ATTACKER", show_default=False,
                   help="The attacker's (or power's) pool, e.g. 3+2+1-2: Attribute (it breaks "
                   "ties), Skill, then +bonus and −penalty dice."),
]
DefenderArg = Annotated[
    Terms,
    typer.Argument(parser=_side_terms, metavar="DEFENDER", show_default=False,
                   help="The defender's (or resistance's) pool, the same way."),
]
TargetOpt = Annotated[
    int,
    typer.Option("--target", parser=params.integer(1, params.MAX_NUMBER), metavar="N",
                 help="Successes to accumulate (required).", show_default=False),
]
MaxRollsOpt = Annotated[
    int,
    typer.Option("--max-rolls", parser=params.integer(1, MAX_ROLLS), metavar="N",
                 help=f"Stop after N rolls (1 to {MAX_ROLLS}). The rules set no limit; "
                 f"rpgdice stops after {DEFAULT_MAX_ROLLS} unless told, so the roll always ends."),
]
AssistsOpt = Annotated[
    int,
    typer.Option("--assists", parser=params.integer(1, params.MAX_NUMBER), metavar="N",
                 help="Members helping the leader: +1 die each, an external bonus inside the "
                 "+5 cap (required).", show_default=False),
]


def _side(terms: Terms, param: str, willpower: bool, wound: str | None = None):
    from rpgdice.engine.seyruun import SeyruunPool

    side = terms.side()
    try:
        return SeyruunPool(attribute=side.attribute, skill=side.skill, bonuses=side.bonuses,
                           penalties=side.penalties, willpower=willpower, wound=wound)
    except RulesError as e:
        raise RulesError(param, e.message) from None


def _character_wound() -> str | None:
    """The wound of the character rolling (``--as``), which applies to its side."""
    from typer._click.globals import get_current_context

    ctx = get_current_context(silent=True)
    sheet = None if ctx is None else ctx.meta.get("rpgdice.sheet")
    return None if sheet is None else sheet.wound


@app.command("contest")
def contest_cmd(
    attacker: AttackerArg,
    defender: DefenderArg,
    attacker_willpower: Annotated[bool, typer.Option(
        "--attacker-willpower", help="The attacker spends 1 Willpower for +3 dice.")] = False,
    defender_willpower: Annotated[bool, typer.Option(
        "--defender-willpower", help="The defender spends 1 Willpower for +3 dice.")] = False,
    dice: DiceOpt = None,
    seed: SeedOpt = None,
    times: TimesOpt = 1,
    as_json: JsonOpt = False,
) -> None:
    """Contested or resisted roll: both sides roll; more successes wins.

    A tie goes to the defender unless the attacker has the higher base Attribute. Each pool follows every pool rule. --dice faces go to the attacker first.

    Example: rpgdice seyruun contest 3+2 2+3+1   (attacker: Attribute 3 + Skill 2; defender: Attribute 2 + Skill 3, +1 bonus die)
    """
    from rpgdice.engine import seyruun

    spec = seyruun.SeyruunContest(
        attacker=_side(attacker, "ATTACKER", attacker_willpower, _character_wound()),
        defender=_side(defender, "DEFENDER", defender_willpower),
    )
    run(lambda source: seyruun.roll_contest(spec, source), dice=dice, seed=seed, times=times, as_json=as_json)


@app.command("extended")
def extended_cmd(
    attribute: AttributeArg,
    target: TargetOpt,
    skill: SkillArg = None,
    max_rolls: MaxRollsOpt = DEFAULT_MAX_ROLLS,
    bonus: BonusOpt = None,
    penalty: PenaltyOpt = None,
    wound: WoundOpt = None,
    actions: ActionsOpt = 1,
    willpower: WillpowerOpt = False,
    dice: DiceOpt = None,
    seed: SeedOpt = None,
    times: TimesOpt = 1,
    as_json: JsonOpt = False,
) -> None:
    """Extended roll: accumulate successes roll after roll up to a target.

    Roll the same pool again and again, adding up successes, until the target is reached, the roll limit is used up, or a botch ends it.

    A botch ending the attempt is rpgdice's reading (the rules do not say). With --willpower every roll spends 1 Willpower for +3 dice.

    Example: rpgdice seyruun extended 3 2 --target 10 --max-rolls 5
    """
    from rpgdice.engine import seyruun

    pool = _pool(attribute, skill, bonus, penalty, wound, actions, willpower, difficulty=1)
    spec = seyruun.SeyruunExtended(pool=pool, target=target, max_rolls=max_rolls)
    run(lambda source: seyruun.roll_extended(spec, source), dice=dice, seed=seed, times=times, as_json=as_json)


@app.command("team")
def team_cmd(
    attribute: AttributeArg,
    assists: AssistsOpt,
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
) -> None:
    """Team roll: the leader rolls, +1 die per assisting member.

    The highest pool (the leader's, given here) rolls; every other member adds +1 die, an external bonus, so bonuses and assists together count at most +5.

    Example: rpgdice seyruun team 3 3 --assists 2 -d complex
    """
    from rpgdice.engine import seyruun

    pool = _pool(attribute, skill, bonus, penalty, wound, actions, willpower, difficulty)
    spec = seyruun.SeyruunTeam(leader=pool, assists=assists, reroll=reroll)
    run(lambda source: seyruun.roll_team(spec, source), dice=dice, seed=seed, times=times, as_json=as_json)

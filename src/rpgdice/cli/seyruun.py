"""`rpgdice seyruun`: Seyruun rolls: roll, odds, and the roll types contest (also
resisted), extended and team."""

from __future__ import annotations

import re
from typing import Annotated, Callable, Optional

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
        odds=exact_odds("seyruun_odds", pool, reroll=reroll) if odds else None,
        spec=exact_odds("seyruun_odds", pool, reroll=reroll))


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


MAX_SIDE_TERMS = 20
"""A contest side holds at most this many terms (Attribute, Skill, bonuses, penalties)."""

_SIDE = re.compile(r"\s*[0-9]{1,12}(\s*[+-]\s*[0-9]{1,12})*\s*")
_SIDE_TERM = re.compile(r"([+-]?)\s*([0-9]{1,12})")


@record
class SidePool:
    """One side of a contest as typed: ``ATTRIBUTE+SKILL[+BONUS...][-PENALTY...]``."""

    attribute: int
    skill: Optional[int]
    bonuses: tuple[int, ...]
    penalties: tuple[int, ...]


def side_pool(limit: int = params.MAX_NUMBER) -> Callable[[str], SidePool]:
    """A parser for a contest side. The first term is the base Attribute (it breaks
    ties), a second term added with ``+`` is the Skill (none, or 0, is untrained), and
    further terms are external bonuses (``+``, inside the +5 cap) or penalties (``-``).
    Parsed term by term, never evaluated."""
    accepts = ("a pool such as 3+2 (Attribute+Skill), 3+2+1-2 (then +bonus and -penalty "
               f"dice), or 3 (untrained); each number 0 to {limit}")

    def parse(text: str) -> SidePool:
        if isinstance(text, SidePool):
            return text
        if not _SIDE.fullmatch(text):
            raise typer.BadParameter(f"'{text.strip()}' is not a pool; accepts {accepts}")
        terms = [(sign, int(n)) for sign, n in _SIDE_TERM.findall(text)]
        if len(terms) > MAX_SIDE_TERMS:
            raise typer.BadParameter(f"{len(terms)} terms is more than {MAX_SIDE_TERMS}; accepts {accepts}")
        for _, n in terms:
            if n > limit:
                raise typer.BadParameter(f"{n} is more than {limit}; accepts {accepts}")
        (_, attribute), rest = terms[0], terms[1:]
        skill = None
        if rest and rest[0][0] == "+":
            skill = rest[0][1]
            rest = rest[1:]
        return SidePool(
            attribute=attribute,
            skill=skill,
            bonuses=tuple(n for sign, n in rest if sign == "+"),
            penalties=tuple(n for sign, n in rest if sign == "-"),
        )

    parse.__name__ = parse.__qualname__ = "pool"  # --help shows the argument's type as <pool>
    return parse


def _side_help(who: str) -> str:
    return (f"The {who}'s pool: ATTRIBUTE+SKILL, then +BONUS (external, inside the +5 cap) "
            "or -PENALTY dice, e.g. 3+2+1-2; the first term is the base Attribute, "
            "which breaks ties; a lone Attribute is untrained (−1 die).")


AttackerArg = Annotated[
    SidePool,
    typer.Argument(parser=side_pool(), metavar="ATTACKER", help=_side_help("attacker (or power)"),
                   show_default=False),
]
DefenderArg = Annotated[
    SidePool,
    typer.Argument(parser=side_pool(), metavar="DEFENDER", help=_side_help("defender (or resistance)"),
                   show_default=False),
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


def _side(side: SidePool, param: str, willpower: bool, wound: str | None = None):
    from rpgdice.engine.seyruun import SeyruunPool

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
    """Contested or resisted roll: both sides roll their pools; more successes wins.

    A tie goes to the defender (the resisting side) unless the attacker has the higher base Attribute. Each pool follows every pool rule: the +5 bonus cap, 10 dice at most, a chance die at 0 or less. --dice faces go to the attacker first.

    Example: rpgdice seyruun contest 3+2 2+3+1   (resisted: power 4+3 vs resistance 3+3)
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

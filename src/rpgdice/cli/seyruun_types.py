"""`rpgdice seyruun contest|extended|team`: the Seyruun roll types.

The commands are registered on :data:`rpgdice.cli.seyruun.app`, which imports this
module at its end.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Callable, Optional

import typer

from rpgdice.cli import params
from rpgdice.cli.common import DiceOpt, JsonOpt, SeedOpt, TimesOpt, run
from rpgdice.cli.seyruun import (
    ActionsOpt, AttributeArg, BonusOpt, DifficultyOpt, PenaltyOpt, RerollOpt, SkillArg,
    WillpowerOpt, WoundOpt, _pool, app,
)
from rpgdice.engine.errors import RulesError
from rpgdice.engine.sequence import DEFAULT_MAX_ROLLS, MAX_ROLLS

MAX_SIDE_TERMS = 20
"""A contest side holds at most this many terms (Attribute, Skill, bonuses, penalties)."""

_SIDE = re.compile(r"\s*[0-9]{1,12}(\s*[+-]\s*[0-9]{1,12})*\s*")
_SIDE_TERM = re.compile(r"([+-]?)\s*([0-9]{1,12})")


@dataclass(frozen=True)
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


def _side(side: SidePool, param: str, willpower: bool):
    from rpgdice.engine.seyruun import SeyruunPool

    try:
        return SeyruunPool(attribute=side.attribute, skill=side.skill, bonuses=side.bonuses,
                           penalties=side.penalties, willpower=willpower)
    except RulesError as e:
        raise RulesError(param, e.message) from None


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
        attacker=_side(attacker, "ATTACKER", attacker_willpower),
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

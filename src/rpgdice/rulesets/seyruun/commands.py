"""`rpgdice seyruun`: Seyruun rolls: roll, odds, the roll types contest (also
resisted), extended and team, the Willpower reroll, and combat (initiative, attack).

Each command is a record (:class:`rpgdice.core.command.Command`) in :data:`COMMANDS`,
its arguments and options :class:`~rpgdice.core.command.Param` descriptors; its builder
is a plain function (``build(**arguments) -> Plan``). The group and each command's
Typer command are made from the records (rpgdice.cli.made)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Optional

from rpgdice.cli import params
from rpgdice.core.budget import Work, check_work
from rpgdice.core.command import REQUIRED, Command, Param, roll_and_odds
from rpgdice.core.errors import RulesError
from rpgdice.core.record import record
from rpgdice.core.sequence import DEFAULT_MAX_ROLLS, MAX_ROLLS
from rpgdice.roll.odds import ExactOdds, exact_odds
from rpgdice.roll.plan import Effects, Plan
from rpgdice.rulesets import lazily
from rpgdice.rulesets.seyruun import rules as seyruun_rules
from rpgdice.rulesets.seyruun.initiative import combatant as combatant_of
from rpgdice.rulesets.seyruun.rules import (
    DIFFICULTIES,
    MULTI_ACTION_PENALTY,
    UNTRAINED_PENALTY,
    WOUNDS,
)

if TYPE_CHECKING:
    from rpgdice.roll.run import Turn
    from rpgdice.rulesets.seyruun.rules import SeyruunPool
    from rpgdice.table.sheets import Sheet


# The functions of its odds.py its exact odds are computed by, each imported (with icepool)
# at its first call.


@lazily
def seyruun_odds() -> Any:
    from rpgdice.rulesets.seyruun.odds import seyruun_odds

    return seyruun_odds


@lazily
def seyruun_attack_odds() -> Any:
    from rpgdice.rulesets.seyruun.odds import seyruun_attack_odds

    return seyruun_attack_odds


@lazily
def seyruun_contest_odds() -> Any:
    from rpgdice.rulesets.seyruun.odds import seyruun_contest_odds

    return seyruun_contest_odds


@lazily
def seyruun_extended_odds() -> Any:
    from rpgdice.rulesets.seyruun.odds import seyruun_extended_odds

    return seyruun_extended_odds


@lazily
def seyruun_team_odds() -> Any:
    from rpgdice.rulesets.seyruun.odds import seyruun_team_odds

    return seyruun_team_odds

POOL_ACCEPTS = ("a number, or a sum such as 3+2 (Attribute+Skill) or 3+2+1-2 (then +bonus "
                f"and -penalty dice); each number 0 to {params.MAX_NUMBER}")
"""The one pool syntax, Seyruun's reading: the first term is the Attribute, a second one added
with + the Skill, further terms bonuses (+) and penalties (-)."""


@record
class Terms:
    """A pool as typed, term by term: ``3+2+1-2`` is ``(3, 2, 1, -2)``."""

    values: tuple[int, ...]

    def side(self) -> SidePool:
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


def _terms_parser(accepts: str) -> Callable[[str], Terms]:
    """A pool argument's parser: its terms as typed (``3+2+1-2``), each 0 to
    :data:`params.MAX_NUMBER`; a bad one names what it ``accepts``."""

    def parse(text: str) -> Terms:
        if isinstance(text, Terms):
            return text
        return Terms(params.terms(text, params.MAX_NUMBER, accepts))

    parse.accepts = accepts  # type: ignore[attr-defined]
    parse.__name__ = parse.__qualname__ = "pool"
    return parse


_terms = _terms_parser(POOL_ACCEPTS)

ATTRIBUTE = Param(
    "attribute", "traits", parse=_terms, metavar="ATTRIBUTE", default=REQUIRED,
    help="The Attribute's dots; alone, a whole pool such as 3+2+1-2 "
    "(Attribute, Skill, +bonus, −penalty): 3+3 is the same as 3 3.")
SKILL = Param(
    "skill", "traits", parse=_terms, metavar="[SKILL]",
    help=f"The Skill's dots; none or 0 is untrained (−{UNTRAINED_PENALTY} die).")
BONUS = Param("bonus", "number", flags=("--bonus",), parse=params.integer(0, params.MAX_NUMBER),
              metavar="N", multiple=True, lo=0, hi=params.MAX_NUMBER,
              help="External bonus dice, repeatable; at most +5 count.")
PENALTY = Param("penalty", "number", flags=("--penalty",),
                parse=params.integer(0, params.MAX_NUMBER), metavar="N", multiple=True, lo=0,
                hi=params.MAX_NUMBER, help="Dice removed (terrain, visibility, ...); repeatable.")
NO_WOUND = "none"
"""``--wound none``: no wound, over a character's (``--as``), as a sheet writes it."""
WOUND = Param(
    "wound", "choice", flags=("--wound",), parse=params.choice(
        {NO_WOUND: 0, **WOUNDS},
        {NO_WOUND: "no wound, even with --as NAME",
         **{k: f"−{v} {'die' if v == 1 else 'dice'}" for k, v in WOUNDS.items()}}),
    metavar="WOUND", choices=(NO_WOUND, *WOUNDS),
    help="Wound: " + ", ".join(f"{k} −{v}" for k, v in WOUNDS.items())
    + f"; {NO_WOUND} overrides a character sheet (--as).")
ACTIONS = Param("actions", "number", flags=("--actions",),
                parse=params.integer(1, params.MAX_NUMBER), metavar="N", default=1, lo=1,
                hi=params.MAX_NUMBER,
                help=f"Actions this turn: −{MULTI_ACTION_PENALTY} dice each beyond the first.")
WILLPOWER = Param("willpower", "flag", flags=("--willpower",), default=False,
                  help="Spend 1 Willpower: +3 dice (not capped).")
REROLL = Param("reroll", "flag", flags=("--reroll",), default=False,
               help="Spend 1 Willpower: re-roll a failure or botch once.")
DIFFICULTY = Param(
    "difficulty", "choice", flags=("-d", "--difficulty"), parse=params.level(
        DIFFICULTIES, 1, params.MAX_NUMBER,
        lambda n: f"{n} success{'' if n == 1 else 'es'} needed"),
    metavar="LEVEL", default=1, choices=tuple(DIFFICULTIES), lo=1, hi=params.MAX_NUMBER,
    help="Successes needed: " + ", ".join(f"{k} {v}" for k, v in DIFFICULTIES.items())
    + " or a number; default simple.")

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


def _named(param: str, state: Turn | None) -> tuple[Sheet | None, list[Any]]:
    """With ``--as``: the sheet, and the terms the argument ``param`` named (with ``--vs``,
    a target's pool: the target's sheet and terms)."""
    if state is None:
        return None, []
    if param in TARGET_SIDES:  # --vs: the target's sheet names them
        sheet = state.extras.get("target")
        return (sheet, state.target_terms(param)) if sheet is not None else (None, [])
    if state.sheet is None:
        return None, []
    return state.sheet, state.terms(param)


def _two_skills(sheet: Sheet, param: str, first: str, second: str) -> RulesError:
    from rpgdice.rulesets.seyruun import ATTRIBUTES

    return RulesError(param, f"{first} and {second} are both Skills of {sheet.name}: a pool is "
                      f"Attribute + Skill, and neither is an Attribute ({', '.join(sorted(ATTRIBUTES))}, "
                      "or a trait the sheet's 'attributes' list marks)")


def _roles(sheet: Sheet, first: Any, second: Any, param: str) -> tuple[bool, bool]:
    """RULES.md "Which trait is the Attribute": for two trait terms, whether they are
    the wrong way round (the Skill first) and whether both are attributes (no untrained
    −1); two skills are a usage error naming the missing Attribute."""
    a, s = sheet.is_attribute(first.trait), sheet.is_attribute(second.trait)
    if not a and not s:
        raise _two_skills(sheet, param, first.trait, second.trait)
    return (s and not a), (a and s)


def _relabel(state: Turn | None, param: str, swap: bool, terms: list[Any] | None = None) -> None:
    """The character line in the pool's order: the Attribute first."""
    from rpgdice.table.sheets import describe

    assert state is not None
    labels = state.target_labels if param in TARGET_SIDES else state.labels
    if terms is not None:
        labels[:] = [(p, describe(terms) if p == param else text) for p, text in labels]
    elif swap:
        pool = [x for x in labels if x[0] in ("ATTRIBUTE", "SKILL")]
        labels[:] = pool[::-1] + [x for x in labels if x not in pool]


def _sum_by_role(terms: Terms, param: str, state: Turn | None) -> tuple[Terms, bool]:
    """One sum naming traits (``occult+wits``, a contest side): its first two terms as
    Attribute and Skill by role, and whether both are attributes."""
    sheet, named = _named(param, state)
    if sheet is None or len(named) < 2 or not all(t.trait and t.sign == "+" for t in named[:2]):
        return terms, False
    swap, both = _roles(sheet, named[0], named[1], param)
    if swap:
        v = terms.values
        terms = Terms((v[1], v[0], *v[2:]))
        _relabel(state, param, swap, [named[1], named[0], *named[2:]])
    return terms, both


def _by_role(attribute: Terms, skill: Terms | None, state: Turn | None,
             ) -> tuple[Terms, Terms | None, bool]:
    """The pool arguments with the Attribute first, whatever the order they named the
    traits in (``occult wits --as ysolde`` is Wits + Occult), and whether both are
    attributes. Numbers keep their places."""
    if skill is None:
        attribute, both = _sum_by_role(attribute, "ATTRIBUTE", state)
        return attribute, skill, both
    sheet, named = _named("ATTRIBUTE", state)
    _, other = _named("SKILL", state)
    if sheet is None or not named or not other or not named[0].trait or not other[0].trait:
        return attribute, skill, False
    swap, both = _roles(sheet, named[0], other[0], "ATTRIBUTE")
    if swap:
        _relabel(state, "ATTRIBUTE", swap)
        return skill, attribute, both
    return attribute, skill, both


def _pool(attribute: Terms, skill: Terms | None, bonus: list[int] | None,
          penalty: list[int] | None, wound: str | None, actions: int, willpower: bool,
          difficulty: int, state: Turn | None) -> SeyruunPool:
    """The pool the arguments build: shared by ``roll``, ``odds``, ``extended`` and ``team``."""
    from rpgdice.rulesets.seyruun import rules as seyruun

    attribute, skill, both = _by_role(attribute, skill, state)
    attribute_dots, skill_dots, bonuses, penalties = _base(attribute, skill, bonus, penalty)
    return seyruun.SeyruunPool(
        attribute=attribute_dots,
        skill=skill_dots,
        bonuses=params.summed(list(bonuses), "--bonus"),  # sums keep to one's limit
        penalties=params.summed(list(penalties), "--penalty"),
        wound=None if wound == NO_WOUND else wound,
        actions=actions,
        willpower=willpower,
        required=difficulty,
        attributes_only=both,
    )


def roll_cmd(
    attribute: Terms,
    skill: Terms | None = None,
    bonus: list[int] | None = None,
    penalty: list[int] | None = None,
    wound: str | None = None,
    actions: int = 1,
    willpower: bool = False,
    reroll: bool = False,
    difficulty: int = 1,
    run: Turn | None = None,
) -> Plan:
    """Roll a Seyruun dice pool: Attribute + Skill, bonuses (max +5), Willpower,
    penalties; 10 dice at most, a chance die at 0 or less.

    Each 6-9 is a success, each 10 two; no success and a 1 is a botch.

    Example: rpgdice seyruun roll 3 3 --bonus 1 -d moderate
    """
    from rpgdice.rulesets.seyruun import rules as seyruun

    pool = _pool(attribute, skill, bonus, penalty, wound, actions, willpower, difficulty, run)
    return Plan(lambda source: seyruun.roll(pool, source, reroll=reroll), work=Work(pool.dice * (2 if reroll else 1), 2 if reroll else 1), odds=exact_odds('seyruun', seyruun_odds, pool, reroll=reroll), stats=exact_odds('seyruun', seyruun_odds, pool, reroll=reroll))


ODDS_HELP = """Exact odds of a Seyruun roll, without rolling: success, failure and botch,
    the distribution of successes (exactly k, at least k), 10s and tiers. With
    --reroll, the odds of the roll that stands.

    Example: rpgdice seyruun odds 3 3 -d moderate --reroll
    """
"""``odds``: the odds of the roll the same arguments make (its builder, its odds alone)."""


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


_side_terms = _terms_parser(SIDE_ACCEPTS)

ATTACKER = Param(
    "attacker", "traits", parse=_side_terms, metavar="ATTACKER", default=REQUIRED,
    help="The attacker's (or power's) pool, e.g. 3+2+1-2: Attribute (it breaks "
    "ties), Skill, then +bonus and −penalty dice.")
DEFENDER = Param("defender", "traits", parse=_side_terms, metavar="DEFENDER", default=REQUIRED,
                 help="The defender's (or resistance's) pool, the same way.")
TARGET = Param("target", "number", flags=("--target",),
               parse=params.integer(1, params.MAX_NUMBER), metavar="N", default=REQUIRED,
               lo=1, hi=params.MAX_NUMBER, help="Successes to accumulate (required).")
MAX_ROLLS_PARAM = Param(
    "max_rolls", "number", flags=("--max-rolls",), parse=params.integer(1, MAX_ROLLS),
    metavar="N", default=DEFAULT_MAX_ROLLS, lo=1, hi=MAX_ROLLS, show_default=True,
    help=f"Stop after N rolls (1 to {MAX_ROLLS}). The rules set no limit; "
    f"rpgdice stops after {DEFAULT_MAX_ROLLS} unless told, so the roll always ends.")
ASSISTS = Param("assists", "number", flags=("--assists",),
                parse=params.integer(1, params.MAX_NUMBER), metavar="N", default=REQUIRED,
                lo=1, hi=params.MAX_NUMBER,
                help="Members helping the leader: +1 die each, an external bonus inside the "
                "+5 cap (required).")

def _side(terms: Terms, param: str, willpower: bool, state: Turn | None,
          wound: str | None = None) -> SeyruunPool:
    from rpgdice.rulesets.seyruun.rules import SeyruunPool

    terms, both = _sum_by_role(terms, param, state)
    side = terms.side()
    params.summed(list(side.bonuses), param)  # sums keep to the limit of one number
    params.summed(list(side.penalties), param)
    try:
        return SeyruunPool(attribute=side.attribute, skill=side.skill, bonuses=side.bonuses,
                           penalties=side.penalties, willpower=willpower, wound=wound,
                           attributes_only=both)
    except RulesError as e:
        raise RulesError(param, e.message) from None


def _character_wound(state: Turn | None) -> str | None:
    """The wound of the character rolling (``--as``), which applies to its side."""
    sheet = None if state is None else state.sheet
    return None if sheet is None else sheet.wound


def _character_willpower(state: Turn | None) -> int | None:
    """The Willpower on the sheet of the character rolling (``--as``), or None."""
    from rpgdice.table.sheets import resource

    sheet = None if state is None else state.sheet
    return None if sheet is None else resource(sheet, "willpower")


def contest_cmd(
    attacker: Terms,
    defender: Terms,
    attacker_willpower: bool = False,
    defender_willpower: bool = False,
    run: Turn | None = None,
) -> Plan:
    """Contested or resisted roll: both sides roll; more successes wins.

    A tie goes to the defender unless the attacker has the higher base Attribute. Each pool follows every pool rule. --dice faces go to the attacker first.

    Example: rpgdice seyruun contest 3+2 2+3+1   (attacker: Attribute 3 + Skill 2; defender: Attribute 2 + Skill 3, +1 bonus die)
    """
    from rpgdice.rulesets.seyruun import rules as seyruun

    spec = seyruun.SeyruunContest(
        attacker=_side(attacker, "ATTACKER", attacker_willpower, run, _character_wound(run)),
        defender=_side(defender, "DEFENDER", defender_willpower, run),
    )
    return Plan(lambda source: seyruun.roll_contest(spec, source), odds=ExactOdds('seyruun', seyruun_contest_odds, spec), work=Work(spec.attacker.dice + spec.defender.dice, 2), roll_type=True)


def extended_cmd(
    attribute: Terms,
    target: int,
    skill: Terms | None = None,
    max_rolls: int = DEFAULT_MAX_ROLLS,
    bonus: list[int] | None = None,
    penalty: list[int] | None = None,
    wound: str | None = None,
    actions: int = 1,
    willpower: bool = False,
    run: Turn | None = None,
) -> Plan:
    """Extended roll: accumulate successes roll after roll up to a target.

    Roll the same pool again and again, adding up successes, until the target is reached, the roll limit is used up, or a botch ends it.

    A botch ending the attempt is rpgdice's reading (the rules do not say). With --willpower every roll spends 1 Willpower for +3 dice; a character (--as) pays roll by roll while its sheet has Willpower, and the rolls after go without.

    Example: rpgdice seyruun extended 3 2 --target 10 --max-rolls 5
    """
    from rpgdice.rulesets.seyruun import rules as seyruun

    pool = _pool(attribute, skill, bonus, penalty, wound, actions, willpower, 1, run)
    spec = seyruun.SeyruunExtended(pool=pool, target=target, max_rolls=max_rolls)
    def roll(source: Any, budget: Optional[int] = None) -> Any:  # budget: the sheet's Willpower
        paced = spec if budget is None else dataclasses.replace(spec, willpower_budget=budget)
        return seyruun.roll_extended(paced, source)

    had = _character_willpower(run) if willpower else None  # odds: paid while the sheet has it
    chances = spec if had is None else dataclasses.replace(spec, willpower_budget=had)
    return Plan(roll, odds=ExactOdds('seyruun', seyruun_extended_odds, chances), work=Work(spec.pool.dice * spec.max_rolls, spec.max_rolls), roll_type=True)


def team_cmd(
    attribute: Terms,
    assists: int,
    skill: Terms | None = None,
    bonus: list[int] | None = None,
    penalty: list[int] | None = None,
    wound: str | None = None,
    actions: int = 1,
    willpower: bool = False,
    reroll: bool = False,
    difficulty: int = 1,
    run: Turn | None = None,
) -> Plan:
    """Team roll: the leader rolls, +1 die per assisting member.

    The highest pool (the leader's, given here) rolls; every other member adds +1 die, an external bonus, so bonuses and assists together count at most +5.

    Example: rpgdice seyruun team 3 3 --assists 2 -d complex
    """
    from rpgdice.rulesets.seyruun import rules as seyruun

    pool = _pool(attribute, skill, bonus, penalty, wound, actions, willpower, difficulty, run)
    spec = seyruun.SeyruunTeam(leader=pool, assists=assists, reroll=reroll)
    return Plan(lambda source: seyruun.roll_team(spec, source), odds=ExactOdds('seyruun', seyruun_team_odds, spec), work=Work(seyruun.team_pool(spec.leader, spec.assists).dice * (2 if spec.reroll else 1), 2 if spec.reroll else 1), roll_type=True)


# The Willpower re-roll after the fact (rulesets/seyruun/reroll.py) -----------------------


ENTRY_ID = Param("entry_id", "number", parse=params.integer(1, 2**62), metavar="[ID]", lo=1,
                 hi=2**62, help="The log entry of the roll to re-roll (see rpgdice log); "
                 "default: the last logged seyruun roll.")


def reroll_cmd(entry_id: int | None = None, run: Turn | None = None) -> Plan:
    """Willpower re-roll after the fact: a failed or botched roll, already shown, rolls
    again with the same pool for 1 Willpower (the Storyteller approves), and the re-roll
    stands. Once per roll.

    The roll must be in the roll log; its entry is marked re-rolled before anything is
    rolled (a log that cannot be written refuses the re-roll). The output is that of
    `seyruun roll --reroll`: the first roll under `rerolled`, its entry under `rerolls`.

    Example: rpgdice seyruun reroll   (the last seyruun roll)
    """
    from rpgdice.rulesets.seyruun import reroll

    return reroll.reroll(entry_id, run)


# Combat: initiative and attack (RULES.md "Combat", CLI.md "Seyruun combat") ---------------

_NAME = r"[^\W][\w \-]{0,39}"
"""A combatant's name: letters, digits, spaces, ``-`` and ``_``, at most 40 (like a
character's name)."""
COMBATANT_ACCEPTS = ("NAME=WITS+DEXTERITY, then +BONUS (inside the +5 cap) or -PENALTY dice, "
                     "e.g. Ghoul=3+4+1 (a name of letters, digits, spaces, - and _)")


@record
class CombatantArg:
    """A ``COMBATANT`` as typed: a name and its pool (None: a saved character)."""

    name: str
    pool: Optional[SidePool]


def combatant(text: str) -> CombatantArg:
    """``NAME=POOL``, the pool ``WITS+DEXTERITY[+BONUS...][-PENALTY...]`` (a contest
    side's form; a lone number is Wits + Dexterity together). A name alone names a saved
    Seyruun character (its ``wits``, ``dexterity`` and wound, read when the command runs)."""
    from typer import BadParameter

    from rpgdice.core.errors import shown

    if isinstance(text, CombatantArg):
        return text
    name, eq, pool = text.partition("=")
    name = name.strip()
    if not re.fullmatch(_NAME, name) or "_" == name[:1]:
        raise BadParameter(f"{shown(name)} is not a combatant's name; accepts {COMBATANT_ACCEPTS}")
    if not eq:
        return CombatantArg(name=name, pool=None)  # a saved character, read when the command runs
    try:
        side = Terms(params.terms(pool, params.MAX_NUMBER, COMBATANT_ACCEPTS)).side()
    except BadParameter as e:
        raise BadParameter(f"{name}: {e.message}") from None
    return CombatantArg(name=name, pool=side)


combatant.accepts = COMBATANT_ACCEPTS + ", or the name of a saved Seyruun character"  # type: ignore[attr-defined]
combatant.__name__ = combatant.__qualname__ = "name=pool"
combatant.completes = "characters"  # type: ignore[attr-defined]  # TAB offers the saved characters



def encounter_args(words: list[str]) -> tuple[tuple[str, Any], ...]:
    """An encounter's initiative (its record's ``fight.initiative``): every combatant as
    typed (``NAME=POOL`` or a saved character's name) as the arguments of ``seyruun
    initiative``, which rolls Wits + Dexterity for each; nothing is rolled here."""
    import typer

    try:
        typed = tuple(combatant(w) for w in words)
    except typer.BadParameter as e:
        raise RulesError("COMBATANT", e.message) from None
    return (("combatants", typed),)


@record
class PlainTerms:
    """A damage or soak pool as typed: its signed terms."""

    terms: tuple[int, ...]


def plain_sum(what: str, example: str, limit: int = params.MAX_NUMBER) -> Callable[[str], PlainTerms]:
    """A damage or soak pool: terms added (``+``) or taken away (``-``), a plain sum,
    parsed term by term (the terms are kept to show how the pool was built)."""
    accepts = f"{what} such as {example}; each number 0 to {limit}"

    def parse(text: str) -> PlainTerms:
        if isinstance(text, PlainTerms):
            return text
        return PlainTerms(params.terms(text, limit, accepts))

    parse.accepts = accepts  # type: ignore[attr-defined]
    parse.__name__ = parse.__qualname__ = "pool"
    return parse


COMBATANTS = Param(
    "combatants", "text", parse=combatant, metavar="COMBATANT...", default=REQUIRED,
    multiple=True, completes="characters",
    help="Each combatant as NAME=WITS+DEXTERITY, then +BONUS (Combat Reflexes..., "
    "inside the +5 cap) or -PENALTY dice (a wound: -1 light, -2 moderate, -3 severe, "
    "-5 crippled), e.g. Ysolde=3+4+1. --dice faces go to the combatants in this order.")
ATTACK = Param(
    "attack", "traits", parse=_side_terms, metavar="ATTACK", default=REQUIRED,
    help="The attack pool, a contest side: ATTRIBUTE+SKILL[+BONUS][-PENALTY], e.g. "
    "3+3+1 (with --as, the attacker's traits).")
TARGET_SIDES = ("--defense",)
"""The contest sides the target (``--vs``) rolls: their traits are the target's."""


def _target_named(name: str) -> tuple[Optional[Sheet], Any]:
    """The target ``--vs`` names (rulesets/seyruun/target.py, loaded when one is named)."""
    from rpgdice.rulesets.seyruun.target import target_named

    return target_named(name)


_vs_name = params.target()

VS = Param("vs", "character", flags=("--vs",), parse=_vs_name, metavar="NAME", eager=True,
           target=_target_named, completes="characters",
           help="The target, a saved character: --defense and --soak may name its traits; "
           "its wound applies, it pays --defender-willpower.")
DEFENSE = Param("defense", "text", flags=("--defense",),
                parse=_side_terms, metavar="POOL", target_traits=True,
                help="The defense pool, a contest side: Dodge (Dexterity+Athletics) or Parry "
                "(Dexterity+weapon skill).")
DAMAGE = Param("damage", "traits", flags=("--damage",),
               parse=plain_sum("WEAPON+STRENGTH[+...]", "2+3"),
               metavar="POOL",
               help="Base damage, a plain sum: WEAPON+STRENGTH. Without it, stop at hit or miss.")
SOAK = Param("soak", "text", flags=("--soak",),
             parse=plain_sum("CONSTITUTION+ENDURANCE[+ARMOR]", "3+2+1"),
             metavar="POOL", target_traits=True, help="Soak, a plain sum: CONSTITUTION+ENDURANCE[+ARMOR].")

def initiative_cmd(combatants: list[CombatantArg]) -> Plan:
    """Initiative: every combatant rolls Wits + Dexterity; the order to act in.

    Most successes act first; a botch acts after every non-botch. Ties go to the higher Wits + Dexterity before bonuses and penalties; still tied, the combatants share a rank (1, 1, 3) and the Storyteller decides (rpgdice's reading: the rules give the pool, not the order). No extra dice are rolled for ties. Both are Attributes, so there is no untrained −1 die.

    Example: rpgdice seyruun initiative Ysolde=3+4+1 Thureck=2+3 Ghoul=2+2-1
    """
    from rpgdice.rulesets.seyruun import rules as seyruun

    spec = seyruun.SeyruunInitiative(combatants=tuple(combatant_of(c) for c in combatants))
    return Plan(lambda source: seyruun.roll_initiative(spec, source), work=Work(spec.most_dice, spec.most_rolls))


def _target(sheet: Optional[Sheet], extra: Any, willpower: bool, state: Turn) -> Any:
    """The attack's target (``--vs``): a saved character, which pays
    ``--defender-willpower`` from its sheet, or an extra of the encounter; None without one."""
    if sheet is None and extra is None:
        return None  # and the sheets stay unloaded
    from rpgdice.rulesets.seyruun import target

    made: Any
    if sheet is not None:
        pays = willpower and not state.replaying  # a replay pays nothing
        made = target.TargetPays(sheet, state.spec.times if pays else 0, state.target_labels)
    elif willpower:
        raise RulesError("--defender-willpower", f"{extra.name} is an extra of the encounter, "
                         "with no Willpower to pay (a saved character has it)")
    else:
        made = target.ExtraTarget(extra, state.target_labels)
    made.hurt.replayed = state.replaying  # a replay hurts no one: its line says so
    return made


def attack_cmd(
    attack: Terms,
    defense: Terms | None = None,
    damage: PlainTerms | None = None,
    soak: PlainTerms | None = None,
    vs: str | None = None,
    attacker_willpower: bool = False,
    defender_willpower: bool = False,
    run: Turn | None = None,
) -> Plan:
    """Attack: the attack against a defense (a contest), then damage against soak.

    A hit needs at least 1 success and the contest won (a tie goes to the defender unless the attack's base Attribute is higher); a botch deals no damage. Damage pool = --damage + extra successes (net beyond the first) + the attack's overflow past 10 dice (rpgdice's reading). Damage and soak are plain sums, at most 10 dice, nothing rolled at 0 or less; damage dealt = damage − soak successes, at least 0. --dice faces: attack, defense, damage, soak.

    Example: rpgdice seyruun attack 3+3 --defense 3+2 --damage 2+3 --soak 2+2+1
    """
    from rpgdice.rulesets.seyruun import rules as seyruun

    state = run
    assert state is not None
    # --vs: the target the executor read (rpgdice.roll.target), a replay's too
    target, extra = state.extras.get("target"), state.extras.get("target_extra")
    wound = target.wound if target else extra.wound if extra and extra.wound != "none" else None
    spec = seyruun.SeyruunAttack(
        attack=_side(attack, "ATTACK", attacker_willpower, state, _character_wound(state)),
        defense=_side(defense, "--defense", defender_willpower, state, wound)
        if defense is not None else None,
        damage=damage.terms if damage is not None else None,
        soak=soak.terms if soak is not None else None,
    )
    if defender_willpower and defense is None:
        raise RulesError("--defender-willpower", "needs --defense (the defender's pool)")
    roll: Callable[..., object] = lambda source: seyruun.roll_attack(spec, source)  # noqa: E731
    work = Work(spec.most_dice, spec.most_rolls)
    times = state.spec.times
    check_work(work, times)  # before the target pays anything
    paid = _target(target, extra, defender_willpower, state)
    return Plan(roll, work=work, odds=exact_odds("seyruun", seyruun_attack_odds, spec),
                target=paid.side if paid is not None else None,
                effects=_TargetEffects(paid) if paid is not None and not state.replaying else None)


class _TargetEffects(Effects):
    """What an attack does to its target: applied once the roll is shown and logged;
    what the target paid given back when the roll was not shown."""

    def __init__(self, paid: Any) -> None:
        self.paid = paid

    def finish(self, entry: Optional[int]) -> None:
        self.paid.apply()

    def undo(self) -> None:
        self.paid.refund()


# The commands, as records (rpgdice.core.command) -----------------------------------------

POOL_PARAMS = (ATTRIBUTE, SKILL, BONUS, PENALTY, WOUND, ACTIONS, WILLPOWER)
"""A pool's arguments and options, shared by ``roll``, ``odds``, ``extended`` and ``team``."""
ROLL_PARAMS = (*POOL_PARAMS, REROLL, DIFFICULTY)
CONTEST_PARAMS = (
    ATTACKER, DEFENDER,
    Param("attacker_willpower", "flag", flags=("--attacker-willpower",), default=False,
          help="The attacker spends 1 Willpower for +3 dice."),
    Param("defender_willpower", "flag", flags=("--defender-willpower",), default=False,
          help="The defender spends 1 Willpower for +3 dice."),
)
ATTACK_PARAMS = (
    ATTACK, DEFENSE, DAMAGE, SOAK, VS,
    Param("attacker_willpower", "flag", flags=("--attacker-willpower",), default=False,
          help="+3 attack dice for 1 Willpower."),
    Param("defender_willpower", "flag", flags=("--defender-willpower",), default=False,
          help="+3 defense dice for 1 Willpower."),
)

COMMANDS = (
    *roll_and_odds(roll_cmd, ROLL_PARAMS, seyruun_rules.SeyruunResult, seyruun_odds, ODDS_HELP),
    Command("contest", contest_cmd, CONTEST_PARAMS, help=contest_cmd.__doc__ or "",
            results=(seyruun_rules.SeyruunContestResult,), takes_as=True, odds_type=True,
            odds_functions=(seyruun_contest_odds,)),
    Command("extended", extended_cmd,
            (ATTRIBUTE, TARGET, SKILL, MAX_ROLLS_PARAM, *POOL_PARAMS[2:]),
            help=extended_cmd.__doc__ or "", results=(seyruun_rules.SeyruunExtendedResult,),
            takes_as=True, odds_type=True, odds_functions=(seyruun_extended_odds,)),
    Command("team", team_cmd, (ATTRIBUTE, ASSISTS, *ROLL_PARAMS[1:]),
            help=team_cmd.__doc__ or "", results=(seyruun_rules.SeyruunTeamResult,), takes_as=True,
            odds_type=True, odds_functions=(seyruun_team_odds,)),
    Command("reroll", reroll_cmd, (ENTRY_ID,), help=reroll_cmd.__doc__ or "",
            results=(seyruun_rules.SeyruunResult,), repeated=False, seated=False,
            entry_arg=("entry_id", "rerolls"), without=frozenset({"times", "odds"})),
    Command("initiative", initiative_cmd, (COMBATANTS,), help=initiative_cmd.__doc__ or "",
            results=(seyruun_rules.SeyruunInitiativeResult,), takes_as=True,
            without=frozenset({"odds"})),
    Command("attack", attack_cmd, ATTACK_PARAMS, help=attack_cmd.__doc__ or "",
            results=(seyruun_rules.SeyruunAttackResult,), takes_as=True,
            option_help={"odds": "Add the exact chance to hit and of each damage dealt."},
            odds_functions=(seyruun_attack_odds,)),
)
"""Its commands: ``roll`` and ``odds`` (the same arguments, its odds alone), the roll types
``contest`` (also resisted), ``extended`` and ``team``, the Willpower ``reroll`` after the
fact (rulesets/seyruun/reroll.py), and combat: ``initiative`` and ``attack``."""

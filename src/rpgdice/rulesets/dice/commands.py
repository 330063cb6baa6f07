"""`rpgdice roll EXPR...` and `rpgdice odds EXPR`: ordinary dice notation.

Two top-level commands (cli/__init__.py ``TOP_COMMANDS``), declared as records
(:data:`COMMANDS`, style ``notation``) and each made only when named. An argument that
starts with ``-`` or ``+`` followed by a digit, ``d``, ``(`` or a space is an expression,
not an option (``rpgdice roll -1d4+6``): the command class of the style
(:class:`rpgdice.cli.common.NotationCommand`) sorts the arguments before Click reads
them; then arguments that begin or end with an operator join into one expression
(``rpgdice roll 1d20 +5``, :func:`rules.join_arguments`).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from rpgdice.core.budget import CHECKED, Work, check_work
from rpgdice.core.command import REQUIRED, Command, Param
from rpgdice.core.errors import RulesError
from rpgdice.roll.odds import exact_odds
from rpgdice.roll.plan import Plan
from rpgdice.rulesets import lazily
from rpgdice.rulesets.dice import rules as notation_rules

if TYPE_CHECKING:
    from rpgdice.roll.run import Turn


# The functions of its odds.py its exact odds are computed by, each imported (with icepool)
# at its first call.


@lazily
def odds_set() -> Any:
    from rpgdice.rulesets.dice.odds import odds_set

    return odds_set

ACCEPTS = ("dice notation such as 2d6+3, d%, 4dF, 4d6kh3, 5d6r1kh3, 3d6!, 10d10>=6f1, {4d6, 3d8}kh1, "
           "'1d20+5 >= 15' (1d20 +5 is one roll)")


def _expression(text: str) -> str:
    return text


_expression.accepts = ACCEPTS  # type: ignore[attr-defined]
_expression.__name__ = "notation"

EXPRESSIONS = Param(
    "expressions", "dice", parse=_expression, metavar="EXPR...", default=REQUIRED, multiple=True,
    help="Dice notation: 2d6+3, d% (a d100), 4dF (Fudge), * / ( ), 4d6kh3 (keep or drop: kh kl "
    "dh dl k d), 3d6! (exploding; !>=8, !! compounding, !p penetrating), r1 / ro<3 (re-roll), "
    "min2 / max5, 8d10>=6f1 (count the dice that pass, minus failures), {4d6, 3d8}kh1 (groups), "
    "min() max() abs(), 1d20+5 adv, 1d20+5 >= 15 (a DC check), # label / [label]. One expression per "
    "argument; several are rolled in order. An argument that begins with an operator "
    "(+5, - 2) or follows one that ends with one continues the expression before it: "
    "1d20 +5 is one roll.")
BREAKDOWN = Param(
    "breakdown", "flag", flags=("--breakdown",), default=False, panel="Output",
    help="With -n, show every roll's dice; without it, repeats of rolls of one "
    "dice term (4d6kh3, d20) print only their totals, one line per expression.")
EXPRESSION = Param(
    "expressions", "dice", parse=_expression, metavar="EXPR", default=REQUIRED, multiple=True,
    help="Dice notation, as for roll: 2d6+3, d%, 4dF, 4d6kh3, 5d6r1kh3, 3d6!, "
    "8d10>=6f1, {4d6, 3d8}kh1, 1d20+5 >= 15 (1d20 +5 joins as for roll).")


def roll_cmd(expressions: list[str], breakdown: bool = False, run: Turn | None = None) -> Plan:
    """Roll ordinary dice: damage, random tables, percentiles.

    NdS (2 to 1000 sides, % or F) with + − * / % ^ ( ), exact, the total rounded
    down once; after a dice term, in any order: khK klK dhK dlK keep or drop (several:
    4d10dh1dl2), ! !! !p explode, r ro re-roll, minT maxT, cs cf criticals, s sd
    sorted, a comparison (>=T) counting dice, fT failures. Groups {a, b}kh1, min max
    abs floor ceil round, 1d20+5 >= 15 (success or failure), adv/dis, other tables'
    x xo t7 e6 ra1 mi ma pl ph, labels (# words, [words]). With --dice, faces go to
    the dice in order, re-rolls and explosions right after their die.

    Arguments are rolls; one that begins with an operator (+5, - 2), or follows one
    that ends with one, continues the expression before it: roll 1d20 +5 is one roll.

    Example: rpgdice roll 2d6+3 d20 -1d4+6
    """
    from rpgdice.rulesets.dice.rules import PARAM, Expression, roll

    assert run is not None  # the run it is part of: its repetitions, odds and seed
    times, odds = run.spec.times, run.spec.odds
    joined, warned = _joined(tuple(expressions))
    if warned:
        from rpgdice.render.output import warning

        for message in warned:
            warning(message)
    parsed, work, one_term = _parsed(joined)
    check_work(work, times, "--times" if times > 1 else PARAM)
    seed_shown = run.spec.seed if run.spec.dice is None else None
    turn = iter(range(times * len(parsed)))

    def roll_one(source: Any) -> Any:
        e = parsed[next(turn) % len(parsed)] if len(parsed) > 1 else parsed[0]
        if isinstance(e, Expression):
            return roll(e, source, seed=seed_shown)
        from rpgdice.rulesets.dice import tree

        return tree.roll(e, source, seed=seed_shown)

    exact = exact_odds("dice", odds_set, list(parsed)) if odds else None
    # One expression counts no turns: its plan rolls again as it is (a warning is said at
    # every roll, so a plan that said one is made again)
    return Plan(roll_one, work=CHECKED, times=times * len(parsed), odds=exact,
                compact=times > 1 and not (breakdown or odds) and one_term,
                reusable=len(parsed) == 1 and not warned)


@functools.lru_cache(maxsize=256)
def _joined(expressions: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The expressions the arguments make, and the warnings they call for (each said at
    every roll): worked out once per arguments (a session rolls the same line again and
    again; what they make depends on their text alone)."""
    from rpgdice.rulesets.dice import rules as notation

    joined = tuple(notation.join_arguments(list(expressions), _peers, _takes))
    return joined, tuple(m for text in joined for m in _repeat_label_warnings(text))


@functools.lru_cache(maxsize=256)
def _parsed(joined: tuple[str, ...]) -> tuple[tuple[Any, ...], Work, bool]:
    """The parsed expressions, the work of one repetition and whether each is one dice
    term, once per expressions (the parsed records are never changed)."""
    parsed = tuple(parse_expression(text) for text in joined)
    # One repetition rolls every expression, each at worst (explosions and re-rolls at their
    # bounds); each dice term is a roll to score and show, a constant none (d20+5 is one roll).
    work = Work(*map(sum, zip(*(worst_case(e) for e in parsed))))
    return parsed, work, all(map(is_one_term, parsed))


def _peers(text: str) -> bool:
    """Whether ``text`` is a peer's spelling the wider grammar names (grammar.py, loaded
    only for a roll of several arguments)."""
    from rpgdice.rulesets.dice.grammar import hint, takes

    return not takes(text) and hint(text) is not None


def _takes(text: str) -> bool:
    """Whether ``text`` rolls as written (grammar.py, loaded only for a roll of several
    arguments)."""
    from rpgdice.rulesets.dice.grammar import takes

    return takes(text)


@functools.lru_cache(maxsize=256)
def parse_expression(text: str) -> Any:
    """The first notation's terms (rules.py's records) when the tree grammar.py reads is a
    sum of them, else the tree. Parsed once per text (a session rolls the same expressions
    again and again; the parsed records are never changed)."""
    from rpgdice.rulesets.dice.grammar import parse_any

    try:
        return parse_any(text)
    except RulesError as e:
        raise _joined_hint(text, e) from None


def _repeat_label_warnings(text: str) -> list[str]:
    """``3#1d20`` (the bots' "three times 1d20") rolls the number 3 labelled ``1d20``, as
    CLI.md reads a ``#``, and ``d66`` is a die of 66 sides: the warnings that say so, and
    how to roll what the other tools mean."""
    import re

    said = []
    if re.search(r"(?<![\w)\]])1?[dD]66(?![\d.])", text.split("#", 1)[0]):
        said.append("d66 is one die of 66 sides here; the d66 of Traveller and Year Zero (tens "
                    "and units of two d6) is: rpgdice roll 'd6*10+d6'")
    found = re.fullmatch(r"\s*(\d+)\s*#\s*(\d*[dD](?:\d+|%|F)\S*)\s*", text)
    if found and 1 <= int(found[1]) <= 1000:
        n, dice = found[1], found[2]
        said.append(f"'{n}#{dice}' rolls the number {n} with the label '{dice}' (# starts a "
                    f"label here); {dice} {n} times is: rpgdice roll {dice} -n {n}")
    return said


def _joined_hint(text: str, error: RulesError) -> RulesError:
    """``roll '2d6 3'``: a number after a space inside one argument gets the hint two
    arguments get (``did you mean 2d6+3?``), never read as a d63."""
    import re

    tail = error.message.rsplit(" at ", 1)[-1]
    at = int(tail) - 1 if tail.isdigit() else -1  # error positions count from 1
    number = re.match(r"\d+(?![\w(\[])", text[at:]) if 0 < at < len(text) else None
    before = text[:at].rstrip()
    if number is None or before == text[:at] or not re.search(r"[\w)\]]$", before):
        return error
    mean = f"{before.strip()}+{text[at:].strip()}"
    return RulesError(error.param, f"{error.message}; did you mean {mean}?", echo=error.echo)


def worst_case(e: Any) -> tuple[int, int]:
    """The most dice one roll of ``e`` rolls, and its rolls (the work budget's figures)."""
    if hasattr(e, "terms"):
        return e.worst_case_dice, max(1, sum(t.is_dice for t in e.terms))
    from rpgdice.rulesets.dice import tree

    return tree.worst_case(e)


def is_one_term(expression: Any) -> bool:
    """A roll whose breakdown is one dice term (``4d6kh3``, ``d20``, ``8d10>=6``): its
    repeats (``-n``) print as totals on one line, ``4d6kh3 ×6: 12, 13, 11, 10, 18, 10``
    (``--breakdown`` shows each roll's dice)."""
    if not hasattr(expression, "terms"):
        from rpgdice.rulesets.dice.grammar import Dice

        return isinstance(expression.tree, Dice) and not expression.compare and expression.label is None
    return len(expression.terms) == 1 and expression.terms[0].is_dice


def odds_cmd(expressions: list[str]) -> Plan:
    """Exact odds of an ordinary dice expression: the chance of every total, the
    mean and the range, without rolling.

    Exploding dice are followed until what is left out is below one in a trillion
    (the output says how deep and what was left out); re-rolls are exact. A compared
    total (1d20+5 >= 15) gives the chance of success and failure. An expression
    whose exact odds would take more than a few seconds, or are out of reach
    (dropping among exploded dice), is refused with the reason.

    Example: rpgdice odds 4d6kh3
    """
    from rpgdice.rulesets.dice import rules as notation

    joined = notation.join_arguments(expressions, _peers, _takes)
    if len(joined) > 1:
        raise RulesError(notation.PARAM, f"odds takes one expression, given {len(joined)} "
                         f"({', '.join(repr(e) for e in joined[:3])}); join them with an operator, "
                         "or ask for each in turn (rpgdice roll ... --odds shows each)")
    parsed = parse_expression(joined[0])

    def exact() -> object:
        from rpgdice.rulesets.dice import odds as notation_odds

        return notation_odds.odds(parsed)

    return Plan(odds=exact)


COMMANDS = (
    Command("roll", roll_cmd, (EXPRESSIONS, BREAKDOWN), help=roll_cmd.__doc__ or "",
            results=(notation_rules.NotationRoll, notation_rules.TreeRoll), stats=True, faces_judged=True,
            after=frozenset({"breakdown"}),
            odds_functions=(odds_set,), style="notation"),
    Command("odds", odds_cmd, (EXPRESSION,), help=odds_cmd.__doc__ or "", kind="odds",
            style="notation"),
)
"""The top-level ``rpgdice roll`` and ``rpgdice odds`` (cli/__init__.py loads each from
its record when named)."""

"""Ordinary dice notation's first forms: ``2d6+3``, ``d%``, ``4d6kh3``, ``3d6!``, ``8d10>=6``.

RULES.md ("Ordinary dice") defines the notation. grammar.py is its one parser (never
``eval``); an expression that is a signed sum of the first notation's terms is lowered
from its tree to the records here (:class:`Expression`, :class:`Term`), which this module
rolls with an injected dice source, so that their rolls, views, odds and JSON stay as they
always were. The first notation's terms (letters in any case, whitespace ignored between
the parts of a term and between terms but not inside a number; ``−`` U+2212 and the en
dash ``–`` U+2013 are minus signs, as in every other number rpgdice reads)::

    expression := sign? term (sign term)*
    sign       := "+" | "-" | "−" | "–"
    term       := number | number? "d" sides suffix?
    sides      := number | "%"
    suffix     := ("kh" | "kl" | "dh" | "dl") number | "!" | compare number
    compare    := ">=" | ">" | "<=" | "<" | "="

Why not a library: ``d20`` (the most used) imported in 242 ms here, ``dice`` in
178 ms and ``dyce`` in 193 ms (``python -X importtime``, best of three, on a busy
two-core machine where ``import typer`` took 126 ms): each more than the whole
startup budget of a roll (bench/startup.py). The parser imports nothing heavy.

Errors are :class:`~rpgdice.core.errors.RulesError` naming ``EXPR`` and the
1-based position, in the expression as typed, of the first thing not understood.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Optional

from rpgdice.core.dice import DiceSource
from rpgdice.core.errors import RulesError
from rpgdice.core.record import Tagged, record

if TYPE_CHECKING:
    from fractions import Fraction

PARAM = "EXPR"
MIN_SIDES = 2
MAX_SIDES = 1000
PERCENT = 100
"""``d%`` is a d100."""
MAX_DICE = 1000
"""Dice written in one expression, all terms together (explosions aside)."""
MAX_NUMBER = 1_000_000
"""Largest constant, comparison target or count anywhere in an expression."""
MAX_EXTRA = 100
"""Extra rolls one exploding die may make: the 101st roll adds its face and stops."""

KEEPS = ("kh", "kl", "dh", "dl")
EXPLODE = "!"
MINUS = ("-", "\u2212", "\u2013")
"""Typed minus signs: ASCII, the minus sign and the en dash (cli/params.py MINUS_SIGNS)."""
SUFFIXES = "kh, kl, dh, dl, !, >=, >, <=, <, ="


@record
class Term:
    """One term as written: a constant (``count`` 0) or ``count`` dice of ``sides``
    with at most one suffix (``mode``: ``""``, a keep/drop, ``!`` or a comparison,
    whose number is ``k``)."""

    text: str
    """The term as typed, its sign included, whitespace left out."""
    sign: int
    count: int
    sides: int
    constant: int
    mode: str
    k: int
    position: int
    """1-based position of the term's first character in the expression as typed."""

    @property
    def is_dice(self) -> bool:
        return self.count > 0


@record
class Expression:
    text: str
    terms: list[Term]

    @property
    def dice(self) -> int:
        """Dice written (explosions aside)."""
        return sum(t.count for t in self.terms)

    @property
    def worst_case_dice(self) -> int:
        """Dice rolled at most: each exploding die may roll :data:`MAX_EXTRA` more."""
        return sum(t.count * (1 + MAX_EXTRA) if t.mode == EXPLODE else t.count for t in self.terms)


ECHO_LIMIT = 60
"""Characters of an expression an error line echoes; a longer one is shown as a window
around the position, cut with ``…``."""
_ECHO_AFTER = 10
"""Characters a window shows after the position."""


def _echo(text: str, position: int) -> str:
    """``text`` for an error line, as typed so that ``position`` counts in it: each
    whitespace character one space (a tab or newline counts as one place), any other
    control character escaped (only at or after the position: before it every character
    was understood), quoted when it starts or ends with whitespace (or is blank), and
    cut to a window of :data:`ECHO_LIMIT` characters around the position."""
    window, head, tail = text, "", ""
    if len(text) > ECHO_LIMIT:
        start = max(0, min(position - 1 + _ECHO_AFTER, len(text)) - ECHO_LIMIT)
        window = text[start:start + ECHO_LIMIT]
        head = "…" if start else ""
        tail = "…" if start + ECHO_LIMIT < len(text) else ""
    shown = "".join(" " if c.isspace() else c if c.isprintable() else repr(c)[1:-1] for c in window)
    if not text.strip() or text[:1].isspace() or text[-1:].isspace():
        return f"'{head}{shown}{tail}'"
    return f"{head}{shown}{tail}"


def _error(text: str, what: str, position: int) -> RulesError:
    echo = _echo(text, position)
    return RulesError(PARAM, f"{echo} — {what} at {position}", echo=echo)


def _quote(c: str) -> str:
    if c and not c.isprintable():
        return repr(c)
    return f"'{c}'"


OPERATORS = ("+", *MINUS, "*", "/", "%", "^")
"""What an argument may begin or end with to join the one before or after it
(``roll 1d20 +5``, ``roll 2d6 + 3``): the signs and the wider notation's ``*`` and ``/``."""
JOINING = ("<", ">", "=")
"""A comparison joins its arguments the same way (``roll d20 +5 '>=' 15``): no roll begins
or ends with one."""


def _constant_alone(text: str) -> bool:
    return text.strip().isascii() and text.strip().isdigit()


def _continues(before: str, arg: str, takes: Callable[[str], bool] | None) -> bool:
    """``arg`` is a modifier of the expression ``before`` (``t7``, ``f1``, ``cs``): it rolls
    nothing alone, and the two joined roll."""
    if takes is None or not arg.strip() or _constant_alone(arg) or takes(arg):
        return False
    return takes(f"{before} {arg}")


def join_arguments(args: list[str],
                   peers: Callable[[str], object] | None = None,
                   takes: Callable[[str], bool] | None = None) -> list[str]:
    """The expressions the arguments of ``roll`` make (CLI.md, "Ordinary dice"): an
    argument that begins with an operator, or follows one that ends with one, continues
    the expression before it, joined with a single space (``1d20 +5``, ``2d6 + 3``); any
    other argument is a roll of its own. A number alone after another roll is a usage
    error that suggests the joined form (``2d6 3``: did you mean ``2d6+3``?). ``peers(text)``
    (the wider grammar's hint, given by the caller): the arguments are a peer's spelling,
    kept whole so its hint names all of it (``/r 1d20+5``, ``4d10 ie10``). ``takes(text)``
    (whether a text rolls, given by the caller): an argument that rolls nothing alone but
    rolls with the expression before it continues that expression, as ``adv`` does (Dice
    Maiden's ``4d10 t7 f1``, ``1d20 cs``, ``10d10>=8 f1``)."""
    joined: list[str] = []
    if len(args) > 1 and peers is not None and peers(" ".join(args)):
        return [" ".join(args)]
    labelled = next((i for i, a in enumerate(args) if "#" in a), None)
    if labelled is not None:  # a label: the # and everything after it, in the arguments that follow too
        args = [*args[:labelled], " ".join(args[labelled:])]
    for arg in args:
        if joined and arg.lstrip()[:1] == "#":
            joined[-1] = f"{joined[-1]} {arg}"
            continue
        begins = (arg.lstrip()[:1] in OPERATORS + JOINING
                  or arg.strip().lower() in ("adv", "dis"))
        before = joined[-1].rstrip() if joined else ""
        ends = (before[-1:] in OPERATORS + JOINING
                and not before[-2:].lower() == "d%")  # d% is a die, not a %
        if joined and (begins or ends or _continues(joined[-1], arg, takes)):
            joined[-1] = f"{joined[-1]} {arg}"
            continue
        if joined and _constant_alone(arg):
            before = joined[-1].strip()
            raise RulesError(PARAM, f"'{arg.strip()}' alone after '{before}' would roll a bare number; "
                             f"did you mean {before}+{arg.strip()}? (write '{before} +{arg.strip()}', "
                             "or quote the whole expression)")
        joined.append(arg)
    return joined


# Rolling -------------------------------------------------------------------------------


@record
class Die:
    face: int
    kept: bool
    """The die counts: kept (not dropped), or satisfying the term's comparison."""


@record
class TermRoll:
    expression: str
    dice: list[Die]
    """In the order rolled: an exploding die's extra rolls right after it."""
    value: int
    """Signed: the terms' values add up to the total."""


@record
class NotationRoll(Tagged, ruleset="dice", command="roll"):
    expression: str
    total: int
    terms: list[TermRoll]
    seed: Optional[int]
    outcome: None = None


def compare(op: str, face: int, target: int) -> bool:
    if op == ">=":
        return face >= target
    if op == ">":
        return face > target
    if op == "<=":
        return face <= target
    if op == "<":
        return face < target
    if op == "<>":  # the wider notation's "not equal" (grammar.py)
        return face != target
    return face == target


def kept_flags(faces: list[int], mode: str, k: int) -> list[bool]:
    """Which dice a keep or drop keeps; among equal faces, as rpg-dice-roller does, by
    lowest (``kl``, ``dl``) the earlier die is taken first, by highest (``kh``, ``dh``) the later."""
    n = len(faces)
    order = range(n)
    if mode == "kh":
        chosen = set(sorted(order, key=lambda i: (-faces[i], -i))[:k])
        return [i in chosen for i in order]
    if mode == "kl":
        chosen = set(sorted(order, key=lambda i: (faces[i], i))[:k])
        return [i in chosen for i in order]
    if mode == "dh":
        dropped = set(sorted(order, key=lambda i: (-faces[i], -i))[:k])
    else:  # dl
        dropped = set(sorted(order, key=lambda i: (faces[i], i))[:k])
    return [i not in dropped for i in order]


def exploding_chain(source: DiceSource, sides: int) -> list[int]:
    """One exploding die: it rolls again while it shows ``sides``, at most
    :data:`MAX_EXTRA` extra rolls."""
    chain = source.roll(sides, 1)
    while chain[-1] == sides and len(chain) <= MAX_EXTRA:
        chain += source.roll(sides, 1)
    return chain


def roll_term(term: Term, source: DiceSource) -> TermRoll:
    if not term.is_dice:
        return TermRoll(expression=term.text, dice=[], value=term.sign * term.constant)
    if term.mode == EXPLODE:
        faces = [f for _ in range(term.count) for f in exploding_chain(source, term.sides)]
        dice = [Die(face=f, kept=True) for f in faces]
        value = sum(faces)
    elif term.mode in KEEPS:
        faces = source.roll(term.sides, term.count)
        dice = [Die(face=f, kept=kept) for f, kept in zip(faces, kept_flags(faces, term.mode, term.k))]
        value = sum(d.face for d in dice if d.kept)
    elif term.mode:
        faces = source.roll(term.sides, term.count)
        dice = [Die(face=f, kept=compare(term.mode, f, term.k)) for f in faces]
        value = sum(1 for d in dice if d.kept)
    else:
        faces = source.roll(term.sides, term.count)
        dice = [Die(face=f, kept=True) for f in faces]
        value = sum(faces)
    return TermRoll(expression=term.text, dice=dice, value=term.sign * value)


def roll(expression: Expression, source: DiceSource, seed: Optional[int] = None) -> NotationRoll:
    """Roll every term in the order written; the dice come from ``source``."""
    terms = [roll_term(t, source) for t in expression.terms]
    return NotationRoll(expression=expression.text, total=sum(t.value for t in terms),
                        terms=terms, seed=seed)


# The wider notation's roll (grammar.py parses it, tree.py rolls it) --------------------


@record
class TreeDie:
    face: int
    """The face rolled (for ``!!``, the compounded sum of its rolls)."""
    kept: bool
    """The die counts: kept, not dropped, not re-rolled, or satisfying a comparison."""
    value: int
    """What it counts for: its face, raised or lowered by min/max, less 1 a penetrating roll."""
    marks: list[str]
    """What happened to it, in order: ``rerolled``, ``exploded`` (it rolled again),
    ``explosion`` (an extra roll), ``compounded``, ``penetrated``, ``raised``, ``lowered``,
    ``dropped``, ``success``, ``failure``, ``count``/``sides`` (rolled for a count or sides)."""
    rolls: list[int]
    """``!!``: the rolls added into this die; otherwise []."""


@record
class TreeTerm:
    expression: str
    dice: list[TreeDie]
    value: int
    label: Optional[str] = None


@record
class TreeRoll(Tagged, ruleset="dice", command="roll"):
    expression: str
    total: int
    terms: list[TreeTerm]
    seed: Optional[int]
    outcome: Optional[str]
    """``success`` or ``failure`` when the total is compared (``1d20+5 >= 15``), else null."""
    label: Optional[str]
    compare: Optional[str]
    """The comparison of the total, ``>=`` etc., or null."""
    against: Optional[TreeTerm]
    """The right side of the comparison, rolled after the total's dice."""
    notes: list[str]


# Odds: the records of an odds command's answer (odds.py computes them) ------------


@record
class NotationOdds(Tagged, ruleset="dice", command="odds"):
    expression: str
    distribution: dict[int, Fraction]
    """Each possible total (ascending) to its exact probability."""
    mean: Fraction
    """Mean of the distribution (of the totals it holds, when a depth cut it short)."""
    min: int
    max: int
    truncated: bool
    explode_depth: Optional[int]
    left_out: Fraction


@record
class TreeOdds(NotationOdds):
    """The odds of the wider notation's expression: :class:`NotationOdds`'s keys and
    ``reroll_depth`` (re-rolls followed per roll, null without ``r``; what needs more is in
    ``left_out``)."""

    reroll_depth: Optional[int]


@record
class CompareOdds(TreeOdds):
    """The odds of a compared total (``1d20+5 >= 15``): :class:`TreeOdds`'s keys and
    ``outcomes``."""

    outcomes: dict[str, Fraction]
    """``success`` and ``failure`` to their exact probabilities (with ``left_out``, 1)."""


@record
class NotationOddsSet(Tagged, ruleset="dice", command="odds"):
    """``roll --odds``: the odds of each expression a command rolls, found by a
    result's expression."""

    by_expression: dict[str, NotationOdds]

    def of(self, result: object) -> NotationOdds:
        return self.by_expression[result.expression]  # type: ignore[attr-defined]

    def json_key(self, result: object) -> dict[str, NotationOdds]:
        """``roll --odds --json``: the roll's odds object under ``odds``."""
        return {"odds": self.of(result)}

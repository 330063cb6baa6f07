"""The whole ordinary dice notation (CLI.md's table, RULES.md "Ordinary dice") as a tree.

A recursive-descent parser (never ``eval``) over the expression as typed, making a tree of
immutable nodes; :mod:`rpgdice.rulesets.dice.tree` rolls it and ``tree_odds`` gives its
exact odds. It is the one parser of dice notation: a tree that is a sum of the first
notation's terms (``NdS`` terms, each with at most one suffix, spelled as it spells them) is
lowered to :mod:`rpgdice.rulesets.dice.rules`' records (:func:`lower`), whose rolls, views
and odds stay byte for byte.

Grammar (letters in any case; whitespace ignored between tokens, not inside a number)::

    roll      := sum (compare sum)? label?
    sum       := product (("+" | "-") product)*
    product   := unary (("*" | "/") unary)*
    unary     := ("+" | "-") unary | atom
    atom      := (number | "(" sum ")")? "d" sides mods tag?      a dice term
               | number tag? | "(" sum ")" tag? | "(" sum ("," sum)+ ")" gmods tag?
               | "{" sum ("," sum)* "}" gmods tag? | func "(" sum ("," sum)* ")" tag?
    sides     := number | "%" | "F" | "(" sum ")"
    mods      := (keep | explode | reroll | "min" int | "max" int | compare int ("f" test)?)*
    keep      := ("kh" | "kl" | "dh" | "dl") number? | "k" number | "d" number
    explode   := ("!" | "!!" | "!p" | "!!p") (compare int)?
    reroll    := ("r" | "rr" | "ro") test?
    test      := compare int | int
    compare   := ">=" | ">" | "<=" | "<" | "=" | "=="
    tag       := "[" words "]"            label  := "#" words

Errors are :class:`~rpgdice.core.errors.RulesError` naming ``EXPR``, what was expected, and
the 1-based position in the expression as typed.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Optional, Union

from rpgdice.core.errors import RulesError
from rpgdice.core.record import record
from rpgdice.rulesets.dice.rules import (
    MAX_DICE,
    MAX_EXTRA,
    MAX_NUMBER,
    MAX_SIDES,
    MIN_SIDES,
    MINUS,
    PERCENT,
    SUFFIXES,
    _error,
    _quote,
)

if TYPE_CHECKING:
    from rpgdice.rulesets.dice.rules import Expression

FUDGE = 0
"""``sides`` of a Fudge die (faces −1, 0, +1): ``dF``, ``dF.2``."""
FUDGE_1 = -1
"""``sides`` of ``dF.1``: one face +1, one −1, four 0 (RULES.md)."""


def face_list(sides: int) -> list[int]:
    """A die's faces, one entry a side (``dF.1``: −1, 0, 0, 0, 0, +1)."""
    if sides == FUDGE:
        return [-1, 0, 1]
    if sides == FUDGE_1:
        return [-1, 0, 0, 0, 0, 1]
    return list(range(1, sides + 1))
COMPARES = (">=", "<=", "<>", "==", ">", "<", "=")
"""``<>`` is "not equal" (rpg-dice-roller's); ``==`` is ``=``."""
FUNCTIONS = ("floor", "ceil", "round", "abs", "min", "max")
MAX_REROLL = 100
"""Re-rolls one die may make with ``r`` (re-roll while): the 101st face stands."""
_MOD_FIELDS = ("reroll", "reroll_once", "explode", "explode_kind", "low", "high", "keep", "keep_n",
               "success", "failure", "explode_once", "keeps", "crit_success", "crit_fail", "sort", "unique",
               "unique_once")
MAX_NESTING = 100
"""Brackets, function calls and signs nested in one another, at most."""
MAX_OPERATORS = 2000
"""Operators (+ − * /) in one expression, at most."""
MOD_HELP = "a modifier (kh kl dh dl k d, ! !! !p x xo, r rr ro, min max, >= > <= < =, f, cs cf, s sa sd)"
MAX_POWER = 64
"""The largest exponent ``^`` takes (RULES.md)."""


@record
class Num:
    value: Any
    """A whole number, or a decimal constant (``1.5``) as an exact Fraction."""
    pos: int


@record
class Test:
    """A comparison of a face: ``op`` one of >=, >, <=, <, = and its number."""

    op: str
    target: int

    def __call__(self, face: int) -> bool:
        op, t = self.op, self.target
        return (face >= t if op == ">=" else face > t if op == ">" else face <= t if op == "<="
                else face < t if op == "<" else face != t if op == "<>" else face == t)

    @property
    def text(self) -> str:
        return f"{self.op}{self.target}"


@record
class Mods:
    """A dice term's or a group's modifiers, in the order they apply (RULES.md): re-roll,
    explode, min/max, keep/drop, success counting."""

    reroll: Optional[Test] = None
    reroll_once: bool = False
    explode: Optional[Test] = None
    explode_kind: str = ""
    """``!`` (each extra roll its own die), ``!!`` (compounding), ``!p`` (penetrating) or
    ``!!p`` (compounding, each extra roll one less, as rpg-dice-roller)."""
    low: Optional[int] = None
    """``minT``: a face below T counts as T."""
    high: Optional[int] = None
    """``maxT``: a face above T counts as T."""
    keep: str = ""
    """``kh``, ``kl``, ``dh`` or ``dl``."""
    keep_n: int = 0
    success: Optional[Test] = None
    failure: Optional[Test] = None
    explode_once: bool = False
    """Foundry's ``xo`` (d20's ``ra``): at most one extra roll per die."""
    keeps: tuple[tuple[str, int], ...] = ()
    """Several keep/drop modifiers on one term (``4d10dh1dl2``), in the order written, a
    second of the same kind replacing the first; empty when there is one (``keep``)."""
    crit_success: Optional[Test] = None
    """``cs``: faces marked as critical successes (the total is unchanged)."""
    crit_fail: Optional[Test] = None
    sort: str = ""
    """``sa`` (or ``s``) / ``sd``: the dice shown sorted (the total is unchanged)."""
    unique: Optional[Test] = None
    """``u`` (``uCMP``): a face another die of the term already shows (and that passes the
    test) is re-rolled, while it does or (``uo``) once."""
    unique_once: bool = False


@record
class Dice:
    count: Node
    sides: Union[int, Node]
    """2–1000, :data:`FUDGE`, or an expression rolled first."""
    mods: Mods
    text: str
    pos: int
    label: Optional[str] = None


@record
class Group:
    items: list[Node]
    mods: Mods
    text: str
    pos: int
    label: Optional[str] = None
    across: bool = False
    """A group of one expression whose keep or drop acts on all the dice in it."""


@record
class BinOp:
    op: str
    left: Node
    right: Node
    pos: int


@record
class Neg:
    operand: Node
    pos: int


@record
class Func:
    name: str
    args: list[Node]
    text: str
    pos: int
    label: Optional[str] = None


@record
class Paren:
    inner: Node
    text: str
    pos: int
    label: Optional[str] = None


Node = Union[Num, Dice, Group, BinOp, Neg, Func, Paren]


@record
class Roll:
    """A whole expression: its tree, a comparison of its total, its label."""

    text: str
    tree: Node
    compare: Optional[str] = None
    against: Optional[Node] = None
    label: Optional[str] = None
    end: int = 0
    """Where the compared (left) expression ends in ``text`` (0-based, exclusive)."""


@contextmanager
def deep() -> Iterator[None]:
    """Room for the tree's recursion: an expression may nest :data:`MAX_NESTING` deep and
    chain :data:`MAX_OPERATORS` operators, a few frames each."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 30_000))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


def parse(text: str) -> Roll:
    """The expression as a tree; a :class:`RulesError` naming the position of the first
    thing not understood, or of the first limit passed."""
    with deep():
        p = _Parser(text)
        try:
            roll = p.roll()
        except RulesError:
            if p.excess:
                raise p.too_many() from None
            raise
        if p.excess and lower(roll) is None:
            raise p.too_many()
        return roll


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.written = 0
        self.least_sides: Optional[int] = None
        self.op = ""
        """The operator just read, for an error after it."""
        self.nesting = 0
        self.operators = 0
        self.excess = 0
        """Where the operator past :data:`MAX_OPERATORS` is, when it is a sum's + or − outside
        brackets: refused only if the whole is not the first notation's sum (its terms are
        not counted: a sum of 5000 numbers has always rolled)."""
        self.advantage: Optional[list] = None
        """``adv``/``dis`` as the last word: [the word, whether a 1d20 took it]."""

    # -- reading --

    def skip(self) -> None:
        while self.i < len(self.text) and self.text[self.i].isspace():
            self.i += 1

    def peek(self, n: int = 1) -> str:
        self.skip()
        return self.text[self.i:self.i + n].lower()

    def pos(self) -> int:
        self.skip()
        return self.i + 1

    def fail(self, what: str, position: Optional[int] = None) -> RulesError:
        return _error(self.text, what, self.pos() if position is None else position)

    def unexpected(self, expected: str) -> RulesError:
        c = self.peek()
        if not c:
            return self.fail(f"expected {expected}")
        return self.fail(f"unexpected {_quote(self.text[self.i])}; expected {expected}")

    def take(self, word: str) -> bool:
        if self.peek(len(word)) == word:
            self.i += len(word)
            return True
        return False

    def expect(self, word: str, what: str) -> None:
        if not self.take(word):
            raise self.unexpected(what)

    def number(self, what: str) -> int:
        start = self.pos()
        j = self.i
        while j < len(self.text) and "0" <= self.text[j] <= "9":
            j += 1
        if j == self.i:
            raise self.unexpected(what)
        digits = self.text[self.i:j].lstrip("0") or "0"
        self.i = j
        if len(digits) > len(str(MAX_NUMBER)) or int(digits) > MAX_NUMBER:
            raise self.fail(f"{what} is more than {MAX_NUMBER:,}", start)
        return int(digits)

    def decimal(self, whole: int) -> Any:
        """The digits after a constant's point: the constant as an exact Fraction."""
        from fractions import Fraction

        self.i += 1
        j = self.i
        while j < len(self.text) and "0" <= self.text[j] <= "9" and j - self.i < 15:
            j += 1
        digits = self.text[self.i:j]
        self.i = j
        if self.peek() == "d":
            raise self.fail("a count of dice is a whole number")
        value = whole + Fraction(int(digits), 10 ** len(digits))
        return int(value) if value.denominator == 1 else value

    def signed(self, what: str) -> int:
        sign = -1 if self.peek() in MINUS else 1
        if self.peek() in ("+", *MINUS):
            self.i += 1
        return sign * self.number(what)

    def is_digit(self) -> bool:
        c = self.peek()
        return bool(c) and "0" <= c <= "9"

    def compare_op(self) -> Optional[str]:
        for op in COMPARES:
            if self.take(op):
                return "=" if op == "==" else op
        return None

    def face_test(self, minus: bool = False) -> Optional[Test]:
        """A modifier's test: a comparison and its number (``>=5``), or a number alone for
        the face it names (``r1``; ``minus``: a negative one too, as ``r-1``); None when
        neither follows. ``!=`` is "not equal" here, as ``<>`` (``2d6cs!=3``, ``r!=3``: as
        rpg-dice-roller reads it, never an explosion on 3)."""
        op = "<>" if self.take("!=") else self.compare_op()
        if op:
            return Test(op=op, target=self.signed("a number after " + op))
        if self.is_digit() or (minus and self.peek() in MINUS):
            return Test(op="=", target=self.signed("a number"))
        return None

    def since(self, start: int) -> str:
        return "".join(self.text[start:self.i].split())

    # -- grammar --

    def roll(self) -> Roll:
        if not self.text.strip():
            raise self.fail("expected a number or dice, such as 2d6+3")
        self.advantage = _advantage(self.text)
        tree = self.sum()
        end = self.pos() - 1
        op = "<>" if self.take("!=") else self.compare_op()  # a total's "not equal" may be != too
        against = self.sum() if op else None
        if self.advantage:
            word_at = self.pos()
            self.expect(self.advantage[0], "adv or dis as the last word")
            if not self.advantage[1]:
                raise self.fail(f"{self.advantage[0]} rolls a 1d20 twice: this expression has no 1d20 term",
                                word_at)
            end = min(end, word_at - 1)
        label = None
        if self.peek() == "#":
            label = self.text[self.i + 1:].strip()
            self.i = len(self.text)
        if self.peek():
            raise self.unexpected("an operator (+ − * /)" + ("" if op else ", a comparison (>= > <= < =)")
                                  + " or a label (# words)")
        return Roll(text=self.text, tree=tree, compare=op, against=against, label=label, end=end)

    def sum(self) -> Node:
        left = self.product()
        while self.peek() in ("+", *MINUS):
            at = self.pos()
            op = "+" if self.peek() == "+" else "-"
            self.count_operator(summed=True)
            self.op = self.text[self.i]
            self.i += 1
            left = BinOp(op=op, left=left, right=self.product(), pos=at)
        return left

    def product(self) -> Node:
        left = self.unary()
        while self.peek() in ("*", "/", "%") and self.peek(2) != "**":
            at = self.pos()
            op = self.peek()
            self.count_operator()
            self.op = op
            self.i += 1
            right = self.unary()
            if op in ("/", "%") and bounds(right) == (0, 0):
                raise self.fail("division by zero: the divisor is always 0", at)
            left = BinOp(op=op, left=left, right=right, pos=at)
        return left

    def count_operator(self, summed: bool = False) -> None:
        self.operators += 1
        if self.operators > MAX_OPERATORS:
            self.excess = self.excess or self.pos()
            if not (summed and self.nesting == 0):
                raise self.too_many()

    def too_many(self) -> RulesError:
        return self.fail(f"more than {MAX_OPERATORS} operators in one expression", self.excess)

    def unary(self) -> Node:
        c = self.peek()
        if c in ("+", *MINUS):
            at = self.pos()
            self.op = self.text[self.i]
            self.i += 1
            self.count_operator()
            operand = self.unary()
            return operand if c == "+" else Neg(operand=operand, pos=at)
        return self.power()

    def power(self) -> Node:
        """``a ^ b`` (or ``a ** b``): tighter than ``*`` and the signs, grouping to the right;
        the exponent a whole number from 0 to :data:`MAX_POWER` (RULES.md)."""
        base = self.atom()
        if self.peek() != "^" and self.peek(2) != "**":
            return base
        at = self.pos()
        self.count_operator()
        self.op = "^" if self.peek() == "^" else "**"
        self.i += len(self.op)
        exponent = self.unary()
        lo, hi = bounds(exponent)
        if lo < 0 or hi > MAX_POWER:
            raise self.fail(f"the exponent can be {lo if lo < 0 else hi}: it must always be 0 to {MAX_POWER}", at)
        return BinOp(op="^", left=base, right=exponent, pos=at)

    def atom(self) -> Node:
        start = self.pos() - 1
        c = self.peek()
        if self.is_digit():
            whole = self.number("a number")
            count: Node = Num(value=whole, pos=start + 1)
            if self.text[self.i:self.i + 1] == "." and _digit_after(self):  # 1.5: exact (RULES.md)
                return self.tagged(Num(value=self.decimal(whole), pos=start + 1))
            if self.peek() == "d" and not (self.advantage and self.peek(3) == self.advantage[0]):
                return self.dice(count, start)
            return self.tagged(count)
        if c == "d":
            return self.dice(Num(value=1, pos=start + 1), start)
        if c in ("(", "{"):
            return self.bracket(start)
        for name in FUNCTIONS:
            if self.peek(len(name)) == name:
                return self.function(name, start)
        what = f"a number or dice after {_quote(self.op)}" if self.op else "a number or dice, such as 2d6+3"
        raise self.unexpected(what)

    def bracket(self, start: int) -> Node:
        close = ")" if self.peek() == "(" else "}"
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            raise self.fail(f"brackets nested more than {MAX_NESTING} deep")
        self.i += 1
        self.op = ""
        items = [self.sum()]
        comma = False
        while self.take(","):
            comma = True
            if self.peek() == close:  # a trailing comma: (1,) is a group of one
                break
            self.op = ","
            items.append(self.sum())
        self.expect(close, f"{close}" + (" or ," if len(items) == 1 else ""))
        self.nesting -= 1
        if close == ")" and len(items) == 1 and not comma:
            if self.peek() == "d" and self.peek(2) not in ("dl", "dh"):
                return self.dice(items[0], start)
            if self.peek() == "k" or self.peek(2) in ("dl", "dh"):  # (10d6kh5)kl2: as a group of one
                return self.group_of_one(items[0], start)
            return self.tagged(Paren(inner=items[0], text=self.since(start), pos=start + 1))
        if len(items) == 1:
            return self.group_of_one(items[0], start)
        mods = self.mods(len(items), group=True)
        label = self.tag()
        return Group(items=items, mods=mods, text=self.since(start), pos=start + 1, label=label)

    def group_of_one(self, item: Node, start: int) -> Node:
        """A group of one expression (rpg-dice-roller's): a keep or drop acts on its dice
        (``{4d6}kh3``, ``{4d10*5d6}k2`` keeps the two highest dice of the expression); a
        comparison compares its total (``{4d6}>10`` is 1 or 0)."""
        most = max(1, _dice_in(item))
        term = isinstance(item, Dice) and not item.mods.keep and item.mods.success is None
        mods = self.mods(most, group=True, term=term)
        label = self.tag()
        text = self.since(start)
        count_only = Mods(success=mods.success, failure=mods.failure)
        if not mods.keep:
            return Group(items=[item], mods=mods, text=text, pos=start + 1, label=label)
        if term and isinstance(item, Dice):
            merged = Mods(**{**{k: getattr(item.mods, k) for k in _MOD_FIELDS}, "keep": mods.keep,
                             "keep_n": mods.keep_n, "keeps": mods.keeps})
            dice = Dice(count=item.count, sides=item.sides, mods=merged, text=text, pos=start + 1,
                        label=label if mods.success is None else item.label)
            if mods.success is None:
                return dice
            return Group(items=[dice], mods=count_only, text=text, pos=start + 1, label=label)
        across = Group(items=[item], mods=Mods(keep=mods.keep, keep_n=mods.keep_n), text=text, pos=start + 1,
                       label=None if mods.success is not None else label, across=True)
        if mods.success is None:
            return across
        return Group(items=[across], mods=count_only, text=text, pos=start + 1, label=label)

    def function(self, name: str, start: int) -> Node:
        self.i += len(name)
        self.expect("(", f"( after {name}")
        args = [self.sum()]
        while self.take(","):
            args.append(self.sum())
        self.expect(")", ") or ,")
        wants = 2 if name in ("min", "max") else 1
        if (len(args) < wants) if wants == 2 else len(args) != 1:
            raise self.fail(f"{name}() takes {'two or more expressions' if wants == 2 else 'one expression'}",
                            start + 1)
        label = self.tag()
        return Func(name=name, args=args, text=self.since(start), pos=start + 1, label=label)

    def tag(self) -> Optional[str]:
        if self.peek() != "[":
            return None
        end = self.text.find("]", self.i)
        if end < 0:
            raise self.fail("expected ] to close the label")
        label = self.text[self.i + 1:end].strip()
        self.i = end + 1
        return label

    def tagged(self, node: Node) -> Node:
        label = self.tag()
        if label is None:
            return node
        if isinstance(node, Num):
            return Paren(inner=node, text=str(node.value), pos=node.pos, label=label)
        return Paren(inner=node.inner, text=node.text, pos=node.pos, label=label)  # type: ignore[union-attr]

    def dice(self, count: Node, start: int) -> Dice:
        count_at = start + 1
        self.i += 1  # the d
        sides_at = self.pos()
        sides: Union[int, Node]
        if self.take("%"):
            sides = PERCENT
        elif self.take("f"):
            sides = FUDGE
            if self.text[self.i:self.i + 1] == "." and self.text[self.i + 1:self.i + 2] in ("1", "2"):
                sides = FUDGE_1 if self.text[self.i + 1] == "1" else FUDGE  # dF.1, dF.2 (RULES.md)
                self.i += 2
        elif self.peek() == "(":
            self.i += 1
            sides = self.sum()
            self.expect(")", ")")
            _check_bounds(self, sides, MIN_SIDES, MAX_SIDES, "the sides", sides_at)
        else:
            sides = self.number(f"the sides after 'd' ({MIN_SIDES} to {MAX_SIDES}, %, or F)")
            if not MIN_SIDES <= sides <= MAX_SIDES:
                raise self.fail(f"a d{sides}: a die has {MIN_SIDES} to {MAX_SIDES} sides (or %, or F)", sides_at)
        most = _check_bounds(self, count, 0, MAX_DICE, "the count", count_at)
        if isinstance(count, Num) and count.value < 1:
            raise self.fail("a dice term rolls at least 1 die", count_at)
        if self.written + most > MAX_DICE:
            raise self.fail(f"more than {MAX_DICE} dice in one expression (explosions aside)", count_at)
        self.written += most
        faces = _faces(sides)
        # Sides given by an expression: a test every face of the smallest die they can make
        # satisfies would never stop on that die (RULES.md: a usage error, as for a fixed die).
        self.least_sides = None if isinstance(sides, int) else bounds(sides)[0]
        mods = self.mods(most, group=False, faces=faces)
        text = self.since(start)
        label = self.tag()
        if (self.advantage and not self.advantage[1] and sides == 20 and isinstance(count, Num)
                and count.value == 1 and not any(getattr(mods, f) for f in _MOD_FIELDS)):
            self.advantage[1] = True  # adv / dis: this 1d20 is 2d20kh1 / 2d20kl1 (RULES.md)
            self.written += 1
            count = Num(value=2, pos=count.pos)
            mods = Mods(keep="kh" if self.advantage[0] == "adv" else "kl", keep_n=1)
        return Dice(count=count, sides=sides, mods=mods, text=text, pos=start + 1, label=label)

    def mods(self, most: int, group: bool, faces: Optional[tuple[int, int]] = None,
             term: bool = False) -> Mods:
        """A term's or a group's modifiers; a group takes one keep or drop, unless it is a
        group of one dice ``term`` (``{4d6}dh1dl1``: that term's several keeps)."""
        found: dict[str, object] = {}
        seen: set[str] = set()
        at = self.pos()
        while _modifier(self, found, seen, most, group, faces):
            pass
        if group and found.get("keeps") and not term:
            raise self.fail("a group takes one keep or drop (several on one dice term: 4d10dh1dl2)", at)
        return Mods(**found)  # type: ignore[arg-type]


def _advantage(text: str) -> Optional[list]:
    """``adv`` or ``dis`` as the expression's last word (a label aside)."""
    words = text.split("#", 1)[0].rstrip().lower()
    for word in ("adv", "dis"):
        if words.endswith(word) and not words[:-3].rstrip().endswith(("d", "k")):
            return [word, False]
    return None


def _modifier(p: _Parser, found: dict, seen: set, most: int, group: bool,
              faces: Optional[tuple[int, int]]) -> Optional[str]:
    """Read one modifier into ``found`` and name its kind, or None when none follows."""
    at = p.pos()
    c = p.peek()
    if p.advantage and p.peek(3) == p.advantage[0]:
        return None
    if c in ("k", "d") and (p.peek(2)[1:] in ("h", "l") or _digit_after(p) or _spaced(p, "hl")):
        return _keep(p, found, seen, most, at)
    if c == "p" and p.peek(2) in ("pl", "ph"):  # d20's pl/ph: drop lowest/highest
        p.i += 2
        return _keep(p, found, seen, most, at, "dl" if p.text[p.i - 1].lower() == "l" else "dh")
    if c == "!" and not group:
        return _explode(p, found, seen, faces, at)
    if c == "x" and not group:  # Foundry's x (explode), xo (explode once)
        return _explode(p, found, seen, faces, at, "x")
    if c == "e" and not group:  # d20's eS: explode on the faces S picks
        return _explode(p, found, seen, faces, at, "e")
    if p.peek(2) == "ra" and not group:  # d20's raS: re-roll once and add (explode once on S)
        return _explode(p, found, seen, faces, at, "ra")
    if c == "r" and not group:
        return _reroll(p, found, seen, faces, at)
    if c == "u" and not group:
        return _unique(p, found, seen, most, faces, at)
    for word, key in (("min", "low"), ("max", "high"), ("mi", "low"), ("ma", "high")):
        if c == "m" and p.peek(len(word)) == word and not group:
            p.i += len(word)
            _once(p, seen, "min" if key == "low" else "max", at)
            found[key] = p.signed(f"a number after {word}")
            return word
    if c == "c" and p.peek(2) in ("cs", "cf") and not group:
        return _critical(p, found, seen, faces, at)
    if c == "s":  # a group's too: its parts (a group of one: its dice) shown sorted
        p.i += 1
        kind = "sd" if p.take("d") else "sa"
        p.take("a")
        _once(p, seen, "sort", at)
        found["sort"] = kind
        return "sort"
    if (c == "t" and _digit_after(p)) or c in (">", "<", "="):
        return _counting(p, found, seen, at)
    if c == "f" and not group:
        raise p.fail("a failure test (f) comes after a success test (>=T)")
    return None


def _counting(p: _Parser, found: dict, seen: set, at: int) -> str:
    """A comparison counting the dice that pass (Dice Maiden's ``tN`` is ``>=N``), then ``f``
    and its failure test."""
    if p.peek() == "t":
        p.i += 1
        op: Optional[str] = ">="
    elif p.peek() in ("<", ">") and _spaced(p, "="):
        op = p.peek() + "="
        p.i = p.text.index("=", p.i + 1) + 1
    else:
        op = p.compare_op()
    assert op
    _once(p, seen, "comparison", at)
    found.pop("failure", None)  # a second comparison replaces the first, its f with it
    found["success"] = Test(op=op, target=p.signed(f"a number after {op}"))
    if p.peek() == "f":
        p.i += 1
        fop = "<>" if p.take("!=") else p.compare_op()
        found["failure"] = Test(op=fop or "=", target=p.signed("a number after f"))
    return "comparison"


def _keep(p: _Parser, found: dict, seen: set, most: int, at: int, pair: str = "") -> str:
    if not pair:
        c = p.peek()
        spaced = _spaced(p, "hl")
        if spaced:
            pair = c + spaced
            p.i = p.text.lower().index(spaced, p.i + 1) + 1
        else:
            pair = p.peek(2) if p.peek(2)[1:] in ("h", "l") else ("kh" if c == "k" else "dl")
            p.i += 2 if p.peek(2) == pair else 1
    n_at = p.pos()
    n = p.number("how many") if p.is_digit() else 1
    if not 1 <= n <= most:
        verb = "keeps" if pair[0] == "k" else "drops"
        raise p.fail(f"{pair}{n} {verb} {n} of {most}; accepts 1 to {most}", n_at)
    # Several keep/drop on one term (RULES.md): in the order written, a second of the same
    # kind replacing the first (10d6k1k2k3 is 10d6k3).
    keeps = dict(found.get("keeps") or (((found["keep"], found["keep_n"]),) if "keep" in found else ()))
    keeps.pop(pair, None)
    keeps[pair] = n
    seen.add("keep")
    if len(keeps) == 1:
        found.update(keep=pair, keep_n=n, keeps=())
    else:
        first = next(iter(keeps.items()))
        found.update(keep=first[0], keep_n=first[1], keeps=tuple(keeps.items()))
    return "keep"


def _critical(p: _Parser, found: dict, seen: set, faces: Optional[tuple[int, int]], at: int) -> str:
    """``cs`` / ``cf`` (optionally with a test): mark critical faces; alone, the highest /
    lowest face (RULES.md)."""
    p.i += 1
    kind = "cs" if p.take("s") else (p.take("f") and "cf")
    test = p.face_test()
    if test is None and faces is not None:
        test = Test(op="=", target=faces[1] if kind == "cs" else faces[0])
    elif test is None:
        raise p.fail(f"{kind} on dice whose sides are an expression needs its face: {kind}>=T, {kind}=T", at)
    _once(p, seen, str(kind), at)
    found["crit_success" if kind == "cs" else "crit_fail"] = test
    return str(kind)


def _explode(p: _Parser, found: dict, seen: set, faces: Optional[tuple[int, int]], at: int,
             peer: str = "") -> str:
    once = False
    if peer:  # x / xo (Foundry), e (d20), ra (d20): ! with a face test, or once
        p.i += len(peer)
        once = peer == "ra" or (peer == "x" and p.take("o"))
        kind = "!"
    else:
        p.i += 1
        kind = ("!!p" if p.take("p") else "!!") if p.take("!") else "!p" if p.take("p") else "!"
    test_at = p.pos()
    op = p.compare_op()
    test = Test(op=op, target=p.signed("a number after " + op)) if op else None
    if test is None and peer and p.is_digit():
        test = Test(op="=", target=p.number("a face"))
    if test is None and peer in ("e", "ra"):
        raise p.fail(f"d20's {peer} needs its faces: {peer}6, {peer}>5 or {peer}<2", test_at)
    found["explode_once"] = once
    if faces is not None:
        lo, hi = faces
        test = test or Test(op="=", target=hi)
        if all(test(f) for f in range(lo, hi + 1)) and not once:
            raise p.fail(f"{kind}{test.text if op else ''} explodes on every face: it would never stop", test_at)
    if test is None:
        raise p.fail(f"{kind} on dice whose sides are an expression needs its face: {kind}>=T, {kind}=T", test_at)
    least = p.least_sides if faces is None else None
    if least is not None and all(test(f) for f in range(1, least + 1)) and not once:
        raise p.fail(f"{kind}{test.text} explodes on every face of a d{least}, which these sides can "
                     "make: it would never stop", test_at)
    _once(p, seen, "explode", at)
    found.update(explode=test, explode_kind=kind)
    return "explode"


def _reroll(p: _Parser, found: dict, seen: set, faces: Optional[tuple[int, int]], at: int) -> str:
    p.i += 1
    once = p.take("o")
    if not once:
        p.take("r")
    test = p.face_test(minus=True)
    if faces is not None:
        lo, hi = faces
        test = test or Test(op="=", target=lo)
        if not once and all(test(f) for f in range(lo, hi + 1)):
            raise p.fail(f"r{test.text} re-rolls every face: it would never stop", at)
    if test is None:
        raise p.fail("r on dice whose sides are an expression needs its face: rT, r<=T", at)
    least = p.least_sides if faces is None else None
    if not once and least is not None and all(test(f) for f in range(1, least + 1)):
        raise p.fail(f"r{test.text} re-rolls every face of a d{least}, which these sides can make: "
                     "it would never stop", at)
    _once(p, seen, "re-roll", at)
    found.update(reroll=test, reroll_once=once)
    return "re-roll"


ANY_FACE = Test(op=">=", target=-MAX_NUMBER)
"""The test of a bare ``u``: every face."""


def _unique(p: _Parser, found: dict, seen: set, most: int, faces: Optional[tuple[int, int]], at: int) -> str:
    p.i += 1
    once = p.take("o")
    test = p.face_test() or ANY_FACE
    if faces is not None and not once and test is ANY_FACE and most > faces[1] - faces[0] + 1:
        raise p.fail(f"u: {most} dice cannot all show different faces of {faces[1] - faces[0] + 1}", at)
    _once(p, seen, "unique", at)
    found.update(unique=test, unique_once=once)
    return "unique"


def _spaced(p: _Parser, seconds: str) -> str:
    """The letter of a two-letter modifier after whitespace (``4d6 k h3``, ``1d6> =3``:
    whitespace is ignored between the parts of a term), or ""."""
    j = p.i + 1
    while j < len(p.text) and p.text[j].isspace():
        j += 1
    second = p.text[j:j + 1].lower()
    return second if j > p.i + 1 and second and second in seconds else ""


def _digit_after(p: _Parser) -> bool:
    j = p.i + 1
    return j < len(p.text) and "0" <= p.text[j] <= "9"


def _once(p: _Parser, seen: set, kind: str, at: int) -> None:
    """A modifier of ``kind`` read: a second of the same kind on one term replaces the first
    whole (its test, once, compounding or failure test with it), as rpg-dice-roller does
    (``42d2!=6!!>4!p<5`` is ``42d2!p<5``; docs/rules.md). Each is checked as it is read."""
    seen.add(kind)


def _faces(sides: Union[int, Node]) -> Optional[tuple[int, int]]:
    if isinstance(sides, int):
        return (-1, 1) if sides in (FUDGE, FUDGE_1) else (1, sides)
    return None


def _check_bounds(p: _Parser, node: Node, lo: int, hi: int, what: str, at: int) -> int:
    """The most ``node`` can be; a usage error when it can fall outside ``lo``–``hi``."""
    low, high = bounds(node)
    if low < lo or high > hi:
        raise p.fail(f"{what} can be {low if low < lo else high}: it must always be {lo} to {hi}", at)
    return high


def bounds(node: Node) -> tuple[int, int]:
    """The least and the most ``node`` can be (a safe over-estimate)."""
    if isinstance(node, Num):
        return math.floor(node.value), math.ceil(node.value)
    if isinstance(node, Neg):
        lo, hi = bounds(node.operand)
        return -hi, -lo
    if isinstance(node, Paren):
        return bounds(node.inner)
    if isinstance(node, BinOp):
        a, b = bounds(node.left), bounds(node.right)
        if node.op == "+":
            return a[0] + b[0], a[1] + b[1]
        if node.op == "-":
            return a[0] - b[1], a[1] - b[0]
        if node.op == "*":
            products = [x * y for x in a for y in b]
            return min(products), max(products)
        if node.op == "^":
            e_hi = min(max(b[1], 0), MAX_POWER)
            powers = [x ** e for x in a for e in {max(b[0], 0), e_hi, max(e_hi - 1, 0)}]
            return min(powers), max(powers)
        if node.op == "%":
            if a[0] == a[1] and b[0] == b[1] and b[0]:
                return a[0] % b[0], a[0] % b[0]
            m = max(abs(b[0]), abs(b[1]))
            return (-m if b[0] < 0 else 0), (m if b[1] > 0 else 0)
        divisors = [d for d in (b[0], b[1], 1, -1) if d and b[0] <= d <= b[1]]
        zero = [0] if b[0] <= 0 <= b[1] else []
        floors = [x // d for x in a for d in divisors] + zero  # exact: a fraction between
        ceils = [-(-x // d) for x in a for d in divisors] + zero
        return min(floors), max(ceils)
    if isinstance(node, Func):
        spans = [bounds(a) for a in node.args]
        if node.name == "abs":
            lo, hi = spans[0]
            return (0 if lo <= 0 <= hi else min(abs(lo), abs(hi))), max(abs(lo), abs(hi))
        if node.name in ("floor", "ceil", "round"):
            return spans[0]
        pick = min if node.name == "min" else max
        return pick(s[0] for s in spans), pick(s[1] for s in spans)
    if isinstance(node, Group):
        return _group_bounds(node)
    return _dice_bounds(node)


def die_faces(sides: Union[int, Node]) -> tuple[int, int]:
    if isinstance(sides, int):
        return (-1, 1) if sides in (FUDGE, FUDGE_1) else (1, sides)
    return 1, bounds(sides)[1]


def _dice_bounds(node: Dice) -> tuple[int, int]:
    c_lo, c_hi = bounds(node.count)
    m = node.mods
    rolls = 1 + MAX_EXTRA if m.explode is not None else 1
    if m.success is not None:
        return (-c_hi * rolls if m.failure else 0), c_hi * rolls
    lo, hi = die_faces(node.sides)
    if m.low is not None:
        lo, hi = max(lo, m.low), max(hi, m.low)
    if m.high is not None:
        lo, hi = min(lo, m.high), min(hi, m.high)
    if m.explode is not None:
        lo, hi = min(lo, lo * rolls, lo - rolls), max(hi, hi * rolls)
    if m.keep:
        c_lo = 0
    ends = [lo * c_lo, lo * c_hi, hi * c_lo, hi * c_hi]
    return min(ends), max(ends)


def _group_bounds(node: Group) -> tuple[int, int]:
    spans = [bounds(i) for i in node.items]
    if node.mods.success is not None:
        n = len(spans)
        return (-n if node.mods.failure else 0), n
    return sum(min(0, s[0]) for s in spans), sum(max(0, s[1]) for s in spans)


def _dice_in(node: Union[Node, int]) -> int:
    """The most dice written in ``node`` (its dice terms' counts at their most)."""
    if isinstance(node, int) or isinstance(node, Num):
        return 0
    if isinstance(node, Dice):
        return bounds(node.count)[1]
    if isinstance(node, Group):
        return sum(_dice_in(i) for i in node.items)
    if isinstance(node, BinOp):
        return _dice_in(node.left) + _dice_in(node.right)
    if isinstance(node, Neg):
        return _dice_in(node.operand)
    if isinstance(node, Paren):
        return _dice_in(node.inner)
    return sum(_dice_in(a) for a in node.args)


def _position(error: RulesError) -> int:
    tail = str(error).rsplit(" at ", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def parse_any(text: str) -> Union[Expression, Roll]:
    """The expression, parsed once by this grammar: the first notation's
    :class:`~rpgdice.rulesets.dice.rules.Expression` when the tree is a sum of its terms as it
    spells them (:func:`lower`: their rolls, views and odds stay byte for byte), else the
    tree. A refused text a peer would take gets the peer's hint; one refused at a first
    notation's ``k`` or ``d`` not followed by ``h`` or ``l``, the first notation's words."""
    try:
        tree = parse(text)
    except RulesError as error:
        said = hint(text)
        if said:
            raise RulesError(error.param, f"{text} — {said}") from None
        raise _keep_letter(text, error) from None
    return lower(tree) or tree


def first(text: str) -> Expression:
    """The first notation's terms (an encounter's initiative reads them), without a peer's hint: a
    :class:`RulesError` naming the position of the first thing not understood, or of the
    first thing beyond them in an expression the wider notation takes."""
    try:
        tree = parse(text)
    except RulesError as error:
        raise _keep_letter(text, error) from None
    lowered = lower(tree)
    if lowered is None:
        raise _beyond(tree)
    return lowered


_TERM = None


def _term_spelling() -> Any:
    """The first notation's spelling of a dice term, checked on a term this grammar has read
    (``4d6k3`` reads as ``4d6kh3`` here but was never a first-notation term)."""
    global _TERM
    if _TERM is None:
        import re

        _TERM = re.compile(r"(\d*)d(\d+|%)(?:(kh|kl|dh|dl)(\d+)|(!)|(>=|<=|>|<|=)(\d+))?")
    return _TERM


def _chain(roll: Roll) -> Optional[list[tuple[Node, int, int]]]:
    """The tree as the first notation's signed terms: each atom, its sign and the 1-based
    position where it begins as typed (its sign's); None when the tree is no such sum."""
    chain: list[tuple[Node, int, int]] = []
    node = roll.tree
    while isinstance(node, BinOp) and node.op in ("+", "-"):
        chain.append((node.right, -1 if node.op == "-" else 1, node.pos))
        node = node.left
    lead = roll.text.lstrip()[:1]
    at = len(roll.text) - len(roll.text.lstrip()) + 1
    if lead in MINUS:
        if not isinstance(node, Neg) or node.pos != at:
            return None
        chain.append((node.operand, -1, at))
    else:
        chain.append((node, 1, at))
    chain.reverse()
    return chain


def lower(roll: Roll) -> Optional[Expression]:
    """The first notation's terms (rules.py's records, the roll's data) when ``roll`` is a
    signed sum of its terms, each spelled as it spells them: a number, or ``NdS`` with at
    most one of ``khK klK dhK dlK``, ``!``, ``>=T >T <=T <T =T``; else None."""
    from rpgdice.rulesets.dice.rules import Expression

    if roll.compare or roll.label is not None:
        return None
    chain = _chain(roll)
    if chain is None:
        return None
    terms = []
    ends = [at for _, _, at in chain[1:]] + [len(roll.text) + 1]
    for (node, sign, at), end in zip(chain, ends):
        term = _lowered(node, sign, at, "".join(roll.text[at - 1:end - 1].split()))
        if term is None:
            return None
        terms.append(term)
    return Expression(text=roll.text, terms=terms)


def _lowered(node: Node, sign: int, at: int, text: str) -> Optional[Any]:
    from rpgdice.rulesets.dice.rules import Term

    body = text[1:] if text[:1] in ("+", *MINUS) else text
    if isinstance(node, Num):
        if not (body.isascii() and body.isdigit()) or not isinstance(node.value, int):
            return None
        return Term(text=text, sign=sign, count=0, sides=0, constant=node.value, mode="", k=0, position=at)
    if not isinstance(node, Dice) or node.label is not None or not isinstance(node.count, Num):
        return None
    spelled = _term_spelling().fullmatch(body.lower())
    if spelled is None or not isinstance(node.sides, int) or node.sides < MIN_SIDES:
        return None
    count, _, keep, kept, explode, op, target = spelled.groups()
    mode = keep or explode or op or ""
    k = int(kept or target or 0)
    if keep:
        meant = Mods(keep=keep, keep_n=k)
    elif explode:
        meant = Mods(explode=Test(op="=", target=node.sides), explode_kind="!")
    else:
        meant = Mods(success=Test(op=op, target=k)) if op else Mods()
    if repr(node.mods) != repr(meant) or node.count.value != int(count or 1):
        return None
    return Term(text=text, sign=sign, count=node.count.value, sides=node.sides, constant=0, mode=mode, k=k,
                position=at)


def _beyond(roll: Roll) -> RulesError:
    """The refusal of an expression beyond the first notation, in the first notation's words:
    at the first character of the first term not spelled as it spells them."""
    chain = _chain(roll) or [(roll.tree, 1, len(roll.text) - len(roll.text.lstrip()) + 1)]
    ends = [at for _, _, at in chain[1:]] + [roll.end + 1]
    for index, ((node, sign, start), end) in enumerate(zip(chain, ends)):
        text = "".join(roll.text[start - 1:end - 1].split())
        if _lowered(node, sign, start, text) is None or index == len(chain) - 1:
            return _misspelled(roll.text, start, text, index == 0)
    raise AssertionError("a tree beyond the first notation has a term beyond it")


def _misspelled(typed: str, start: int, text: str, first: bool) -> RulesError:
    """The first notation's refusal of the term ``text`` (as typed from ``start``, whitespace
    left out) at the first character it does not take."""
    signed = text[:1] in ("+", *MINUS)
    body = text[1:] if signed else text
    spelled = _term_spelling().match(body.lower())
    dice, suffix = bool(spelled), bool(spelled and spelled.group(3, 5, 6) != (None, None, None))
    if spelled is None:
        digits = len(body) - len(body.lstrip("0123456789"))
        spelled_len = digits
    else:
        spelled_len = spelled.end()
    at = _typed_position(typed, start, int(signed) + spelled_len)
    c = typed[at - 1:at]
    if not spelled_len:
        after = f"after {_quote(text[0])}" if signed else ""
        what = f"a number or dice {after}" if after else "a number or dice, such as 2d6+3"
        return _error(typed, f"unexpected {_quote(c)}; expected {what}" if c else f"expected {what}", at)
    if dice and not suffix and c.lower() in ("k", "d"):
        return _keep_letter(typed, _error(typed, "unexpected", at))
    if suffix and c.lower() in ("k", "d", "!", ">", "<", "="):
        return _error(typed, "a dice term takes at most one suffix: keep or drop (kh, kl, dh, dl), "
                      "explode (!) or a comparison (>=, >, <=, <, =)", at)
    expected = f"+, − or a suffix ({SUFFIXES})" if dice and not suffix else "+ or −"
    return _error(typed, f"unexpected {_quote(c)}; expected {expected}", at)


def _typed_position(typed: str, start: int, skip: int) -> int:
    """The 1-based position in ``typed`` of the non-space character ``skip`` after the one at
    ``start`` (whitespace as typed counted), or one past the end."""
    at = start
    while at <= len(typed) and (skip or typed[at - 1].isspace()):
        skip -= not typed[at - 1].isspace()
        at += 1
    return at


def _keep_letter(text: str, error: RulesError) -> RulesError:
    """The refusal of a ``k`` or ``d`` after a first notation's dice term without a suffix,
    not followed by ``h`` or ``l`` (``4d6k``, ``2d6d%``): the first notation's words, at the
    character after the letter, as the first notation has always said it; else ``error``."""
    at = _position(error)
    letter = text[at - 1:at].lower() if at else ""
    if letter not in ("k", "d") or "unexpected" not in error.message:
        return error
    try:
        before = lower(parse(text[:at - 1]))
    except RulesError:
        return error
    if before is None or not before.terms[-1].is_dice or before.terms[-1].mode:
        return error
    after = at + 1
    while after <= len(text) and text[after - 1].isspace():
        after += 1
    expected = f"h or l after {_quote(letter)} (kh, kl, dh, dl)"
    if after > len(text):
        return _error(text, f"expected {expected}", after)
    return _error(text, f"unexpected {_quote(text[after - 1])}; expected {expected}", after)


def _failures(found: Any) -> str:
    """Sidekick's ``f1f2f3`` (a failure on any of the faces 1 to 3): one test, ``f<=3``."""
    faces = [int(f) for f in found.group(1).split("f") if f]
    return f"f<={max(faces)}" if sorted(faces) == list(range(1, max(faces) + 1)) else found.group(0)


def _summed(found: Any) -> str:
    """Sidekick's ``repeat (X, N, sum)``: X written N times, added (at most 20)."""
    n = int(found.group(2))
    return " + ".join([f"({found.group(1).strip()})"] * n) if 2 <= n <= 20 else found.group(0)


IS = "is '{form}' here"
NO_TOTAL = "has no rpgdice form (the total is always shown): '{form}' rolls"
UNSORTED = "is how dice are shown here: '{form}' rolls"
SAME_ROLL = (IS, NO_TOTAL, UNSORTED)
"""The ways a hint says its form rolls what the peer's spelling rolls (no option needed)."""
PEERS: tuple[tuple[str, str, str, Any, str], ...] = (
    # (form None: no form to roll, the hint says what to do instead)
    # (pattern, whose spelling, what it means, the rpgdice form: a re.sub template or a function
    # of the match, and how the hint says it: {form} the fixed text, which must itself roll, and
    # an option after "with" that the form rolls with). Dice Maiden's README (Humblemonk/
    # DiceMaiden e2ae45c) and its aliases (src/dice_maiden_logic.rb); Sidekick's README
    # (ArtemGr/Sidekick, its history to 468a334).
    (r"^\s*/(?:r|roll|gmroll|gr)\s+", "Roll20's and Foundry's", "the chat command", "", IS),
    (r"^\s*//\s*roll-dice(\d+)-sides(\d+)\s*$", "Sidekick's AOL", r"\1 dice of \2 sides", r"\1d\2", IS),
    (r"\s*//\s*(.*)$", "rpg-dice-roller's", "a comment", r" # \1", IS),
    (r"^\s*!(?:r|roll)\s+", "the Discord bots'", "the chat command", "", IS),
    (r"^\s*\[\[\s*(.*?)\s*\]\]\s*$", "Roll20's inline roll", "a roll in the text", r"\1", IS),
    # Dice Maiden: its modes (a word before or after the roll), modifiers and aliases.
    (r"^\s*(\d+)\s+(?=[\d(]*d)", "Dice Maiden's", r"\1 sets", "", r"is '{form}' with -n \1 here"),
    (r"^\s*s\s+", "Dice Maiden's", "simplified output", "", "is '{form}' with --short here"),
    (r"(?:^|\s+)p(?:\s+|$)", "Dice Maiden's", "a private roll", " ", "is '{form}' with --secret here"),
    (r"(?:^|\s+)nr(?:\s+|$)", "Dice Maiden's", "no total shown", " ", NO_TOTAL),
    (r"\s*!\s*unsort\s*$|(?:^|\s+)ul(?:\s+|$)", "Dice Maiden's", "unsorted dice", " ", UNSORTED),
    (r"\s*!\s+(\S.*)$", "Dice Maiden's", "a comment", r" # \1", IS),
    (r"\s*\bie\s*(\d+)", "Dice Maiden's", r"explode on \1 or more", r"!>=\1", IS),
    (r"\s*\bie\b", "Dice Maiden's", "explode on the top face", "!", IS),
    (r"\s*\be\s*$", "Dice Maiden's", "explode once on the top face", "xo", IS),
    (r"\s*\bir\s*(\d+)", "Dice Maiden's", r"re-roll \1 or less", r"r<=\1", IS),
    (r"^(?P<term>[^<>=t]*?)\s*(?P<spelled>(?<![a-z])b\s*(\d+))\s*$", "Dice Maiden's",
     r"count the botches, \3 or less", r"\g<term><=\3", IS),
    (r"^\s*(\d+)\s*cod\s*$", "Dice Maiden's", "Chronicles of Darkness", r"\1d10!>=10>=8", IS),
    (r"^\s*(\d+)\s*cod([89])\s*$", "Dice Maiden's", r"Chronicles of Darkness, \2-again", r"\1d10!>=\2>=8", IS),
    (r"^\s*(\d+)\s*codr\s*$", "Dice Maiden's", "Chronicles of Darkness, rote", r"\1d10ro<=7>=8", IS),
    (r"^\s*(\d+)\s*wod(\d+)\s*$", "Dice Maiden's", "World of Darkness", r"\1d10>=\2f1", IS),
    (r"^\s*(\d+)\s*wh(\d+)\+\s*$", "Dice Maiden's", "Warhammer", r"\1d6>=\2", IS),
    (r"^\s*dd(\d)(\d)\s*$", "Dice Maiden's", "double digit", r"1d\1*10+1d\2", IS),
    (r"^\s*age\b", "Dice Maiden's", "an AGE test", "2d6+1d6", IS),
    (r"^\s*d6s(\d+)\b", "Dice Maiden's", "the D6 System", r"\1d6+1d6!", IS),
    (r"^\s*sr(\d+)\s*$", "Dice Maiden's", "Shadowrun", r"\1d6>=5", IS),
    (r"^\s*sp(\d+)\s*$", "Dice Maiden's", "Storypath", r"\1d10!>=10>=8", IS),
    (r"^\s*snm(\d+)\s*$", "Dice Maiden's", "Sunsails: New Millennium", r"\1d6!>=6>=4", IS),
    (r"^\s*(\d+)\s*yz\s*$", "Dice Maiden's", "Year Zero", r"\1d6>=6", IS),
    (r"^\s*dndstats\s*$", "Dice Maiden's", "D&D ability scores", "4d6kh3", "is '{form}' with -n 6 here"),
    (r"^\s*(?:attack|skill|save)\b", "Dice Maiden's", "a d20 roll", "1d20", IS),
    (r"^\s*ex(\d+)(?:t(\d+))?\s*$", "Dice Maiden's", "Exalted, a 10 counting twice", r"\1d10>=7",
     "has no rpgdice form (a 10 counts once here): '{form}' counts the successes"),
    # Sidekick.
    (r"(?<![a-z])f(1(?:f\d+)+)(?!\d)", "Sidekick's", "failure on any of these faces", _failures, IS),
    (r"^\s*repeat\s*\(\s*(.+?)\s*,\s*(\d+)\s*,\s*(?:short\s+)?sum\s*\)\s*$", "Sidekick's", r"\2 rolls summed",
     _summed, IS),
    (r"^\s*repeat\s*\(\s*(.+?)\s*,\s*(\d+)\s*(?:,[^)]*)?\)\s*$", "Sidekick's", r"\2 rolls", r"\1",
     r"is '{form}' with -n \2 here"),
    (r"^\s*ova\s*\(\s*(\d+)\s*\)\s*$", "Sidekick's", "OVA: the best sum of equal faces", r"\1d6",
     "has no rpgdice form: '{form}' rolls the dice"),
    (r"^\s*\$\s*(\w+)\s*=\s*(.+)$", "Sidekick's", "a saved roll", r"\2",
     r"is the command alias \1 'roll \2' here; '{form}' rolls"),
    (r"(?<=\d)!(\d+)", "Sidekick's", r"re-roll on \1", r"r\1", IS),
    (r"^\s*\$\s*(\w+)\s*$", "Sidekick's", "a saved roll", None, r"is the command \1 here, saved with alias"),
    (r"\s*\b(?:dc|vs\.?)\s*(?:(?:ac|dc)\s*)?(\d+)\s*$", "a", "a target number", r">=\1", IS),
    (r"(?<=[\d)])\s+(?!(?:adv|dis)\s*$)([a-z]{2,}[a-z' ]*)$", "Sidekick's", "a comment", r" # \1", IS),
)
"""The peers' spellings that mean nothing here, each with the rpgdice form (CLI.md, "Ordinary
dice"): the one table the hints of ``rpgdice roll`` and ``rpgdice play`` come from."""


def takes(text: str) -> bool:
    """Whether ``text`` rolls as written (either notation)."""
    try:
        parse(text)
    except RulesError:
        return False
    return True


def _fixed(text: str) -> Optional[tuple[str, str]]:
    """The first row of :data:`PEERS` that fixes ``text``: its hint's words (without whose
    spelling it is) and the fixed form ("" for a row without one)."""
    import re

    for pattern, whose, meaning, form, how in PEERS:
        found = re.search(pattern, text, flags=re.IGNORECASE)
        if found is None:
            continue
        fixed = "" if form is None else re.sub(pattern, form, text, count=1, flags=re.IGNORECASE).strip()
        if form is not None and (fixed == text.strip() or not takes(fixed)):
            continue
        spelled = found.group("spelled" if "spelled" in found.groupdict() else 0).strip()
        said = f"'{spelled}' ({found.expand(meaning)}) " + found.expand(how).replace("{form}", fixed)
        return (f"a {said}" if whose == "a" else f"{whose} {said}"), (fixed if how in SAME_ROLL else "")
    return None


HINTED = 400
"""The longest text :func:`hint` reads (Dice Maiden's and Discord's lines are far shorter)."""


def hint(text: str) -> Optional[str]:
    """A refused expression a peer would take: its rpgdice form, named in one line, when that
    form itself rolls; else None. Dice Maiden's ``A; B`` (several rolls): each part as it
    rolls, or its plain rpgdice form, one argument each. Bounded work: a peer's spelling is a
    chat line, so a text over :data:`HINTED` characters gets none, and runs of spaces are read
    as one (the patterns never backtrack over them)."""
    import re

    if len(text) > HINTED:
        return None
    text = re.sub(r"\s+", " ", text)
    parts = [part.strip() for part in text.split(";")]
    if len(parts) > 1 and all(parts):
        forms = [part if takes(part) else (_fixed(part) or ("", ""))[1] for part in parts]
        if all(forms):
            listed = " ".join(f"'{f}'" for f in forms)
            return f"Dice Maiden's ';' (several rolls) is one argument a roll here: roll {listed}"
        return None
    found = _fixed(text)
    return found[0] if found else None

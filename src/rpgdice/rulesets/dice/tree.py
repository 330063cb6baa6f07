"""Rolling the wider notation's tree (:mod:`rpgdice.rulesets.dice.grammar`). Pure: the dice
come from an injected source, in the order written (RULES.md "Ordinary dice"): a count or
sides given by an expression first, then each die with its re-rolls and explosions right
after it.

Each die of a term is a list of entries: re-rolled faces (struck, not kept), the face that
stands, and for ``!`` / ``!p`` each extra roll its own entry; ``!!`` adds them into one entry.
Then min/max raise or lower each entry's value, keep/drop choose among the entries, and a
comparison counts them (minus the failures).
"""

from __future__ import annotations

import math
from typing import Any, Optional, Union

from rpgdice.core.dice import DiceSource
from rpgdice.core.errors import RulesError
from rpgdice.rulesets.dice.grammar import (
    FUDGE,
    FUDGE_1,
    MAX_REROLL,
    BinOp,
    Dice,
    Func,
    Group,
    Mods,
    Neg,
    Node,
    Num,
    Paren,
    Roll,
    bounds,
    deep,
    face_list,
)
from rpgdice.rulesets.dice.rules import (
    MAX_EXTRA,
    PARAM,
    TreeDie,
    TreeRoll,
    TreeTerm,
    compare,
    kept_flags,
)

DIV_ZERO = "a roll made a divisor 0: the total is 0 (RULES.md)"


def _die(face: int, marks: Optional[list[str]] = None, kept: bool = True, value: Optional[int] = None,
         rolls: Optional[list[int]] = None) -> TreeDie:
    return TreeDie(face=face, kept=kept, value=face if value is None else value, marks=marks or [],
                   rolls=rolls or [])


class _Roller:
    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self.notes: list[str] = []
        self.recorded: Optional[dict[int, tuple[Dice, list[TreeDie]]]] = None
        """While a group keeps across its expression's dice: each dice term's dice, rolled."""
        self.replay: Optional[dict[int, tuple[int, list[TreeDie]]]] = None
        """Then each dice term's value and dice, the group's keep applied, evaluated again."""

    def draw(self, sides: int) -> int:
        if sides in (FUDGE, FUDGE_1):
            between = getattr(self.source, "roll_between", None)
            if between is not None:
                return int(between(-1, 1))
            if sides == FUDGE_1:  # dF.1: a d6 read as −1, 0, 0, 0, 0, +1
                return face_list(FUDGE_1)[self.source.roll(6, 1)[0] - 1]
            return self.source.roll(3, 1)[0] - 2
        return self.source.roll(sides, 1)[0]

    def value(self, node: Node, dice: list[TreeDie]) -> int:
        if isinstance(node, Num):
            return node.value
        if isinstance(node, Neg):
            return -self.value(node.operand, dice)
        if isinstance(node, Paren):
            return self.value(node.inner, dice)
        if isinstance(node, BinOp):
            a = self.value(node.left, dice)
            b = self.value(node.right, dice)
            return arith(node.op, a, b, self.notes)
        if isinstance(node, Func):
            return func(node.name, [self.value(a, dice) for a in node.args])
        if isinstance(node, Group):
            return self.group(node, dice)
        return self.dice_term(node, dice)

    def side_value(self, node: Node, dice: list[TreeDie], mark: str) -> int:
        inner: list[TreeDie] = []
        v = math.floor(self.value(node, inner))  # a count or sides: the exact value rounded down
        dice.extend(_die(d.face, [*d.marks, mark], d.kept, d.value, d.rolls) for d in inner)
        return v

    def dice_term(self, node: Dice, dice: list[TreeDie]) -> int:
        if self.replay is not None and id(node) in self.replay:
            value, again = self.replay[id(node)]
            dice.extend(again)
            if self.recorded is not None:  # a group inside a group: the outer one keeps among these
                self.recorded[id(node)] = (node, again)
            return value
        start = len(dice)
        value = self.roll_term(node, dice)
        if self.recorded is not None:
            self.recorded[id(node)] = (node, dice[start:])
        return value

    def roll_term(self, node: Dice, dice: list[TreeDie]) -> int:
        count = self.side_value(node.count, dice, "count") if not isinstance(node.count, Num) else node.count.value
        sides = node.sides if isinstance(node.sides, int) else self.side_value(node.sides, dice, "sides")
        entries: list[TreeDie] = []
        shown: list[int] = []
        for _ in range(max(count, 0)):
            entries.extend(self.one_die(sides, node.mods, shown))
        value, entries = score(entries, node.mods)
        dice.extend(entries)
        return value

    def face(self, sides: int, mods: Mods, out: list[TreeDie], shown: Optional[list[int]] = None) -> int:
        """One roll, re-rolled while (or once) it satisfies the re-roll test; a die's first
        roll, while (or once) another die of the term shows its face (``u``)."""
        f = self.rerolled(sides, mods, out)
        if mods.unique is None or shown is None:
            return f
        times, limit = 0, 1 if mods.unique_once else MAX_REROLL
        while f in shown and mods.unique(f) and times < limit:
            out.append(_die(f, ["rerolled"], kept=False))
            f = self.rerolled(sides, mods, out)
            times += 1
        shown.append(f)
        return f

    def rerolled(self, sides: int, mods: Mods, out: list[TreeDie]) -> int:
        f = self.draw(sides)
        test = mods.reroll
        if test is None:
            return f
        limit = 1 if mods.reroll_once else MAX_REROLL
        times = 0
        while test(f) and times < limit:
            out.append(_die(f, ["rerolled"], kept=False))
            f = self.draw(sides)
            times += 1
        return f

    def one_die(self, sides: int, mods: Mods, shown: Optional[list[int]] = None) -> list[TreeDie]:
        out: list[TreeDie] = []
        f = self.face(sides, mods, out, shown)
        test = mods.explode
        if test is None:
            out.append(_die(f))
            return out
        kind = mods.explode_kind
        raws = [f]
        while test(raws[-1]) and len(raws) <= (1 if mods.explode_once else MAX_EXTRA):
            raws.append(self.face(sides, mods, out if kind[:2] != "!!" else []))
        if kind[:2] == "!!":  # !! and !!p: one entry, the rolls added (each extra one less for !!p)
            marks = (["compounded"] if len(raws) > 1 else []) + (["penetrated"] if kind == "!!p" and len(raws) > 1 else [])
            less = len(raws) - 1 if kind == "!!p" else 0
            out.append(_die(sum(raws), marks, value=sum(raws) - less, rolls=raws if len(raws) > 1 else []))
            return out
        for i, raw in enumerate(raws):
            marks = (["explosion"] if i else []) + (["exploded"] if i + 1 < len(raws) else [])
            if i and kind == "!p":
                out.append(_die(raw, [*marks, "penetrated"], value=raw - 1))
            else:
                out.append(_die(raw, marks))
        return out

    def across(self, node: Group, dice: list[TreeDie]) -> int:
        """``{4d10*5d6}k2``: roll the expression, keep or drop among all its dice (those its
        terms kept), then work it out again with the dice dropped."""
        saved, self.recorded = self.recorded, {}
        self.value(node.items[0], [])
        recorded, self.recorded = self.recorded, saved
        live = [(key, i) for key, (_, ds) in recorded.items() for i, d in enumerate(ds)
                if d.kept and not {"count", "sides", "rerolled"} & set(d.marks)]
        values = [recorded[key][1][i].value for key, i in live]
        n = min(node.mods.keep_n, len(values))
        flags = kept_flags(values, node.mods.keep, n) if n else [node.mods.keep[0] == "d"] * len(values)
        lists = {key: list(ds) for key, (_, ds) in recorded.items()}
        for (key, i), kept in zip(live, flags):
            if not kept:
                lists[key][i] = _drop(lists[key][i])
        replay = {key: (_rescore(recorded[key][0], ds), ds) for key, ds in lists.items()}
        saved_replay, self.replay = self.replay, {**(self.replay or {}), **replay}
        try:
            return self.value(node.items[0], dice)
        finally:
            self.replay = saved_replay

    def group(self, node: Group, dice: list[TreeDie]) -> int:
        if node.across:
            return self.across(node, dice)
        parts: list[list[TreeDie]] = []
        values: list[int] = []
        for item in node.items:
            inner: list[TreeDie] = []
            values.append(self.value(item, inner))
            parts.append(inner)
        m = node.mods
        if m.sort:  # shown sorted, the total unchanged (RULES.md)
            if len(parts) == 1:
                parts[0].sort(key=lambda d: d.value, reverse=m.sort == "sd")
            else:
                order = sorted(range(len(values)), key=lambda i: values[i], reverse=m.sort == "sd")
                parts, values = [parts[i] for i in order], [values[i] for i in order]
        flags = [True] * len(values)
        if m.keep:
            n = min(m.keep_n, len(values))
            flags = kept_flags(values, m.keep, n) if n < len(values) or m.keep[0] == "k" else [False] * len(values)
        for part, kept in zip(parts, flags):
            dice.extend(part if kept else [_drop(d) for d in part])
        kept_values = [v for v, k in zip(values, flags) if k]
        if m.success is not None:
            return sum(1 for v in kept_values if m.success(v)) - (
                sum(1 for v in kept_values if m.failure(v)) if m.failure else 0)
        return sum(kept_values)


def _rescore(node: Dice, dice: list[TreeDie]) -> int:
    """A dice term's value from its dice once a group dropped some of them."""
    own = [d for d in dice if not {"count", "sides", "rerolled"} & set(d.marks)]
    if node.mods.success is not None:
        return sum(1 for d in own if d.kept and "success" in d.marks) - sum(
            1 for d in own if "failure" in d.marks and "dropped" not in d.marks)
    return sum(d.value for d in own if d.kept)


def _drop(d: TreeDie) -> TreeDie:
    return _die(d.face, [*d.marks, "dropped"], False, d.value, d.rolls)


MAX_TOTAL = 10**15
"""The largest value (either sign) the arithmetic of a roll may reach: beyond it a number is
no total a table reads (and JSON's numbers lose their last digits), so it is a usage error."""


def _bits(x: Any) -> int:
    return abs(int(x)).bit_length() + 1


def arith(op: str, a: Any, b: Any, notes: Optional[list[str]] = None) -> Any:
    """``a op b``, exact (RULES.md, revised): ``/`` makes a Fraction when it does not divide."""
    if op == "+":
        out = a + b
    elif op == "-":
        out = a - b
    elif op == "*":
        if a and b and _bits(a) + _bits(b) > 2 * MAX_TOTAL.bit_length():
            raise _too_big()
        out = a * b
    elif op == "^":
        if not 0 <= b <= 64 or b != int(b):
            raise RulesError(PARAM, f"an exponent of {b}: ^ takes a whole number from 0 to 64")
        if a and _bits(a) * int(b) > 2 * MAX_TOTAL.bit_length():
            raise _too_big()
        out = a ** int(b)
    elif b == 0:
        if notes is not None and DIV_ZERO not in notes:
            notes.append(DIV_ZERO)
        return 0
    elif op == "%":
        out = a % b
    elif isinstance(a, int) and isinstance(b, int) and a % b == 0:
        out = a // b
    else:
        from fractions import Fraction

        out = Fraction(a) / Fraction(b)
    if not isinstance(out, int) and out.denominator == 1:
        out = int(out)
    if abs(out) > MAX_TOTAL:
        raise _too_big()
    return out


def _too_big() -> RulesError:
    return RulesError(PARAM, f"the arithmetic reaches a value beyond ±{MAX_TOTAL:,}, the most a "
                             "roll's total may be; use smaller numbers")


def func(name: str, args: list[Any]) -> Any:
    if name == "min":
        return min(args)
    if name == "max":
        return max(args)
    if name == "abs":
        return abs(args[0])
    x = args[0]
    if name == "floor":
        return math.floor(x)
    if name == "ceil":
        return math.ceil(x)
    if name == "round":  # half away from zero
        whole = math.floor(abs(x) * 2 + 1) // 2
        return whole if x >= 0 else -whole
    return x


def score(entries: list[TreeDie], m: Mods) -> tuple[int, list[TreeDie]]:
    """min/max, keep/drop, then success counting over a term's entries (re-rolled ones
    aside); the term's value and its entries marked."""
    out = list(entries)
    live = [i for i, d in enumerate(out) if "rerolled" not in d.marks]
    for i in live:
        d = out[i]
        if m.low is not None and d.value < m.low:
            out[i] = _die(d.face, [*d.marks, "raised"], d.kept, m.low, d.rolls)
        elif m.high is not None and d.value > m.high:
            out[i] = _die(d.face, [*d.marks, "lowered"], d.kept, m.high, d.rolls)
    if m.keep:
        values = [out[i].value for i in live]
        flags = keep_flags(values, m.keeps or ((m.keep, m.keep_n),))
        for i, kept in zip(live, flags):
            if not kept:
                out[i] = _drop(out[i])
        live = [i for i, k in zip(live, flags) if k]
    if m.crit_success is not None or m.crit_fail is not None:
        for i, d in enumerate(out):
            if "rerolled" in d.marks:
                continue
            crit = (["critical-success"] if m.crit_success is not None and m.crit_success(d.face) else []) + (
                ["critical-failure"] if m.crit_fail is not None and m.crit_fail(d.face) else [])
            if crit:
                out[i] = _die(d.face, [*d.marks, *crit], d.kept, d.value, d.rolls)
    if m.sort:
        order = sorted(range(len(out)), key=lambda i: out[i].value, reverse=m.sort == "sd")
        position = {old: new for new, old in enumerate(order)}
        out = [out[i] for i in order]
        live = sorted(position[i] for i in live)
    if m.success is None:
        return sum(out[i].value for i in live), out
    count = 0
    for i in live:
        d = out[i]
        if m.success(d.value):
            count += 1
            out[i] = _die(d.face, [*d.marks, "success"], True, d.value, d.rolls)
        elif m.failure is not None and m.failure(d.value):
            count -= 1
            out[i] = _die(d.face, [*d.marks, "failure"], False, d.value, d.rolls)
        else:
            out[i] = _die(d.face, d.marks, False, d.value, d.rolls)
    return count, out


def keep_flags(values: list[int], keeps: tuple[tuple[str, int], ...]) -> list[bool]:
    """Which dice count under one or several keep/drop modifiers (RULES.md): each picks among
    all the term's dice; a die counts when every keep keeps it and no drop drops it."""
    flags = [True] * len(values)
    for kind, k in keeps:
        n = min(k, len(values))
        picked = kept_flags(values, kind, n) if n else [kind[0] == "d"] * len(values)
        flags = [a and b for a, b in zip(flags, picked)]
    return flags


def terms_of(tree: Node) -> list[tuple[int, Node, int]]:
    """The top-level terms: (sign, node, 0-based start of its text, the sign included)."""
    out: list[tuple[int, Node, int]] = []
    node = tree
    while isinstance(node, BinOp) and node.op in ("+", "-"):
        out.append((1 if node.op == "+" else -1, node.right, node.pos - 1))
        node = node.left
    out.append((1, node, 0))
    return out[::-1]


def roll(expr: Roll, source: DiceSource, seed: Optional[int] = None) -> TreeRoll:
    """Roll the tree; the dice come from ``source`` in the order written."""
    with deep():
        return _roll(expr, source, seed)


def _roll(expr: Roll, source: DiceSource, seed: Optional[int]) -> TreeRoll:
    r = _Roller(source)
    parts = terms_of(expr.tree)
    terms = []
    for i, (sign, node, start) in enumerate(parts):
        end = parts[i + 1][2] if i + 1 < len(parts) else expr.end
        dice: list[TreeDie] = []
        value = sign * r.value(node, dice)
        terms.append(TreeTerm(expression="".join(expr.text[start:end].split()), dice=dice, value=value,
                              label=label_of(node)))
    if DIV_ZERO in r.notes:  # the roll is void: its total, and so every term's value, is 0
        terms = [TreeTerm(expression=t.expression, dice=t.dice, value=0, label=t.label) for t in terms]
    exact = sum(t.value for t in terms)
    total = math.floor(exact)  # rounded down once, at the end (RULES.md)
    if total != exact:
        r.notes.append(f"the exact total {_shown(exact)} is rounded down to {total}")
    against, outcome = None, None
    if expr.compare and expr.against is not None:
        dice = []
        before = len(r.notes)
        target = r.value(expr.against, dice)
        if len(r.notes) > before:
            target = 0
        tail = expr.text[expr.end:].split("#")[0]
        against = TreeTerm(expression="".join(tail.split())[len(expr.compare):] or str(target),
                           dice=dice, value=target, label=None)
        outcome = "success" if compare(expr.compare, exact, target) else "failure"  # the exact value
    return TreeRoll(expression=expr.text, total=total, terms=terms, seed=seed, outcome=outcome,
                    label=expr.label, compare=expr.compare, against=against, notes=r.notes)


def _shown(x: Any) -> str:
    """An exact value as a reader reads it: 3.5, 8.3333 (7/2, 25/3)."""
    text = f"{float(x):.4f}".rstrip("0").rstrip(".")
    return text if float(text) == x else f"{text}… ({x})"


def label_of(node: Node) -> Optional[str]:
    label = getattr(node, "label", None)
    if label is not None:
        return str(label)
    for child in children(node):
        found = label_of(child)
        if found is not None:
            return found
    return None


def children(node: Node) -> list[Node]:
    if isinstance(node, BinOp):
        return [node.left, node.right]
    if isinstance(node, Neg):
        return [node.operand]
    if isinstance(node, Paren):
        return [node.inner]
    if isinstance(node, (Group,)):
        return list(node.items)
    if isinstance(node, Func):
        return list(node.args)
    if isinstance(node, Dice):
        return [n for n in (node.count, node.sides) if not isinstance(n, int)]
    return []


def worst_dice(node: Union[Node, int]) -> tuple[int, int]:
    """The most dice ``node`` can roll (re-rolls and explosions at their bounds), and its
    dice terms (each a roll to score and show): the work budget's figures."""
    if isinstance(node, int):
        return 0, 0
    if isinstance(node, Dice):
        per = (1 + MAX_REROLL) if node.mods.reroll is not None and not node.mods.reroll_once else \
            2 if node.mods.reroll is not None else 1
        if node.mods.unique is not None:
            per *= 2 if node.mods.unique_once else 1 + MAX_REROLL
        if node.mods.explode is not None:
            per *= 1 + MAX_EXTRA
        c, cr = worst_dice(node.count)
        s, sr = worst_dice(node.sides)
        return bounds(node.count)[1] * per + c + s, 1 + cr + sr
    dice, rolls = 0, 0
    for child in children(node):
        d, r = worst_dice(child)
        dice, rolls = dice + d, rolls + r
    return dice, rolls


def worst_case(expr: Roll) -> tuple[int, int]:
    with deep():
        d, r = worst_dice(expr.tree)
    if expr.against is not None:
        with deep():
            d2, r2 = worst_dice(expr.against)
        d, r = d + d2, r + r2
    return d, max(1, r)

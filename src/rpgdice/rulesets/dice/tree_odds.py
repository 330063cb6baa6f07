"""Exact odds of the wider notation's tree (:mod:`rpgdice.rulesets.dice.grammar`), with icepool.

Every node becomes a distribution: an icepool die (normalised) and the probability it
holds (its *mass*: 1 unless an explosion depth cut some of it off). Independent parts are
combined by icepool (``+ − *``, floor division, min/max, a pool's highest or lowest);
a count or sides given by an expression is a mixture, worked out here over its values.

A die's re-rolls are exact (the rule stops them at :data:`~grammar.MAX_REROLL`); an
exploding die is followed to a depth chosen so that what is left out is at most
:data:`LEFT_OUT_GOAL`, and the result states it (``explode_depth``, ``left_out``). What
is out of reach is refused with its reason: keeping or dropping among exploded dice
(``!`` adds dice to the pool, so which are kept depends on how many there are), and
anything whose estimated work is over :data:`WORK_LIMIT`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any, Optional, Union

import icepool

from rpgdice.core.errors import RulesError
from rpgdice.core.exact import sum_of
from rpgdice.rulesets.dice.grammar import (
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
    Test,
    bounds,
    deep,
    face_list,
)
from rpgdice.rulesets.dice.rules import MAX_EXTRA, PARAM, CompareOdds, TreeOdds, compare
from rpgdice.rulesets.dice.tree import _die, arith, children, func, score

LEFT_OUT_GOAL = Fraction(1, 10**12)
WORK_LIMIT = 3_000_000
"""Estimated work units (about a microsecond each on a small machine) the odds may take."""
MAP_UNIT = 8
"""A pair of outcomes worked out by a Python function (icepool.map) costs about eight units
(measured: 1d500*1d500, 250,000 pairs and 125,000 outcomes made, in 2.7 s)."""
FRACTION_UNIT = 40
"""A pair whose result is an exact Fraction (``/``, or a part holding fractions) costs about
forty units (measured: 90,000 pairs of ``3d6!!!!/3d6!!!!`` in 3.9 s)."""
CDF_UNIT = 8
"""An outcome of one part when a group keeps its highest or lowest part, in exact fractions."""
WEIGHT_BITS = 256
"""Weights up to this many bits cost as small ones; each further span of it costs once more
(an exploded die's weights grow with its depth: 2d6r1!! has weights of 1,773 bits)."""
CHAIN_UNIT = 8
"""A step of an exploding die's chain, in exact fractions, costs about eight units."""

VOID = -(10**30)
"""The value of a roll a rolled divisor of 0 made void (its total is 0, RULES.md): carried
through the arithmetic, and counted as 0 at the end."""


def _arith(op: str, a: int, b: int) -> int:
    if a == VOID or b == VOID or (op == "/" and b == 0):
        return VOID
    return arith(op, a, b)


def _func(name: str, args: list[int]) -> int:
    return VOID if VOID in args else func(name, args)


Dist = tuple[dict[int, Fraction], Fraction]
"""Probabilities of each value (adding up to 1) and the mass the distribution holds."""


class OutOfReach(RulesError):
    pass


def _refuse(text: str, why: str) -> OutOfReach:
    return OutOfReach(PARAM, f"{text.strip()} — {why}; simulate it instead: rpgdice roll EXPR -n 10000 --json")


class _Odds:
    def __init__(self, expr: Roll) -> None:
        self.expr = expr
        self.work = 0
        self.depth = explode_depth(expr)
        self.rerolls = reroll_depth(expr)
        self.per_die: dict[tuple[int, int], Dist] = {}
        """Each dice term's one-die distribution, by (sides, the term's modifiers), worked out once."""

    def spend(self, units: int) -> None:
        self.work += units
        if self.work > WORK_LIMIT:
            raise _refuse(self.expr.text, f"its exact odds would take too long (estimated work over "
                          f"{WORK_LIMIT:,})")

    # -- distributions as icepool dice --

    def die(self, probs: dict[int, Fraction]) -> icepool.Die:
        scale = math.lcm(*(p.denominator for p in probs.values())) if probs else 1
        return icepool.Die({v: int(p * scale) for v, p in probs.items() if p})

    def probs(self, die: icepool.Die) -> dict[int, Fraction]:
        d = die.denominator()
        return {_exact(v): Fraction(w, d) for v, w in die.items() if w}

    def combine(self, a: Dist, b: Dist, op: Callable[[int, int], int], native: str = "") -> Dist:
        """Two independent parts combined by ``op`` (icepool's own ``+`` or ``−`` when
        ``native`` names it and no roll can be void)."""
        fast = native in ("+", "-") and VOID not in a[0] and VOID not in b[0]
        unit = 1 if fast else MAP_UNIT
        if native == "/" or not _whole(a[0]) or not _whole(b[0]):
            unit = FRACTION_UNIT  # each pair makes or reads an exact Fraction
        da, db = self.die(a[0]), self.die(b[0])
        self.spend(len(a[0]) * len(b[0]) * unit * _weight_factor([da, db]))
        result = (da + db if native == "+" else da - db) if fast else icepool.map(op, da, db)
        return self.probs(result), a[1] * b[1]

    # -- nodes --

    def dist(self, node: Union[Node, int]) -> Dist:
        if isinstance(node, int):
            return {node: Fraction(1)}, Fraction(1)
        if isinstance(node, Num):
            return {node.value: Fraction(1)}, Fraction(1)
        if isinstance(node, Neg):
            d, m = self.dist(node.operand)
            return {-v: p for v, p in d.items()}, m
        if isinstance(node, Paren):
            return self.dist(node.inner)
        if isinstance(node, BinOp):
            op = node.op
            return self.combine(self.dist(node.left), self.dist(node.right), lambda a, b: _arith(op, a, b), op)
        if isinstance(node, Func):
            return self.function(node)
        if isinstance(node, Group):
            return self.group(node)
        return self.dice(node)

    def function(self, node: Func) -> Dist:
        name = node.name
        acc = self.dist(node.args[0])
        if len(node.args) == 1:  # floor, ceil, round, abs: each exact value, as the roll does
            return _mapped(acc[0], lambda v: _func(name, [v])), acc[1]
        rest = [self.dist(arg) for arg in node.args[1:]]
        parts = [acc, *rest]
        if name in ("max", "min") and not any(VOID in d for d, _ in parts):
            self.spend(len(parts) * len(set().union(*(d for d, _ in parts))) * CDF_UNIT)
            mass = math.prod((m for _, m in parts), start=Fraction(1))
            return _extreme([d for d, _ in parts], name == "max"), mass
        for arg in rest:
            acc = self.combine(acc, arg, lambda a, b: _func(name, [a, b]))
        return acc

    def group(self, node: Group) -> Dist:
        if node.across:
            return self.across(node)
        parts = [self.dist(i) for i in node.items]
        if any(VOID in d for d, _ in parts):
            raise _refuse(self.expr.text, "exact odds of a group whose parts a rolled divisor of 0 can "
                          "make void are out of reach here")
        mass = math.prod((m for _, m in parts), start=Fraction(1))
        dice = [self.die(d) for d, _ in parts]
        m = node.mods
        n = len(dice)
        self.spend(math.prod(len(d) for d, _ in parts))
        if m.keep:
            kept = _kept(m, n)
            high = m.keep in ("kh", "dl")
            if kept == 1:  # the highest or the lowest part: by products of their CDFs
                self.spend(n * len(set().union(*(d for d, _ in parts))) * CDF_UNIT)
                one = _extreme([d for d, _ in parts], high)
                return (one if m.success is None else _mapped(one, lambda v: _count((v,), m))), mass
            # icepool keeps among different dice over the union of their outcomes, in time and
            # memory that grow with its square (measured: 12,000 outcomes of small weights, 4 s
            # and 1 GB) and with the size of the weights (5,500 outcomes of 140-bit weights: 38 s)
            union = len(set().union(*(d for d, _ in parts)))
            self.spend(n * union * max(1, union // 40) * _weight_factor(dice))
            if not kept:
                return {0: Fraction(1)}, mass
            pool = icepool.Pool(dice)
            chosen = pool.highest(kept) if high else pool.lowest(kept)
            if m.success is None:
                return self.probs(chosen.sum()), mass
            return self.probs(chosen.sum(map=lambda v: _count((v,), m))), mass
        if m.success is not None:
            indicators = [d.map(lambda v: _count((v,), m)) for d in dice]
            return self.probs(_add(indicators)), mass
        return self.probs(_add(dice)), mass

    def across(self, node: Group) -> Dist:
        """``{3d6+1d8}kh2``: a keep or drop among all the dice of a sum of plain dice terms
        and numbers, the numbers added to the dice kept."""
        summands = _summands(node.items[0])
        if summands is None:
            raise _refuse(self.expr.text, "exact odds of keeping or dropping among the dice of a whole "
                          "expression are out of reach here, but for a sum of plain dice terms and numbers "
                          "({3d6+1d8}kh2; keep within one dice term: {4d6}kh3)")
        terms = [(int(d.count.value), face_list(int(d.sides)))  # type: ignore[union-attr, arg-type]
                 for d in summands if isinstance(d, Dice)]
        dice = [icepool.Die(faces) for n, faces in terms for _ in range(n)]
        plus = sum(d.value for d in summands if isinstance(d, Num))
        kept = _kept(node.mods, len(dice))
        union = len(set().union(*(faces for _, faces in terms)))
        self.spend(len(dice) * union * max(1, union // 40) * max(1, kept) + 1)
        if not kept:
            return {plus: Fraction(1)}, Fraction(1)
        pool = icepool.Pool(dice)
        chosen = pool.highest(kept) if node.mods.keep in ("kh", "dl") else pool.lowest(kept)
        return {v + plus: p for v, p in self.probs(chosen.sum()).items()}, Fraction(1)

    def dice(self, node: Dice) -> Dist:
        if node.mods.unique is not None:
            return self.unique(node)
        counts = _floored(self.dist(node.count))  # a count or sides: the exact value rounded down
        sides = _floored(self.dist(node.sides))
        if VOID in counts[0] or VOID in sides[0]:
            raise _refuse(self.expr.text, "exact odds of a count or sides a rolled divisor of 0 can make "
                          "void are out of reach here")
        out: dict[int, Fraction] = {}
        mass = Fraction(0)
        for s, ps in sides[0].items():
            for n, (d, m) in self.terms(sorted(counts[0]), s, node.mods):
                w = counts[0][n] * ps * m
                mass += w
                for v, p in d.items():
                    out[v] = out.get(v, Fraction(0)) + w * p
        if len(out) == 0:
            return {0: Fraction(1)}, Fraction(1)
        return {v: p / mass for v, p in out.items()}, mass * counts[1] * sides[1]

    def unique(self, node: Dice) -> Dist:
        """``u`` / ``uo``: the dice rolled in turn, each seeing the faces the earlier ones show,
        followed as the multiset of faces shown so far (each die's value depends on nothing
        else), then scored as the roll scores them (min/max, keep/drop, counting)."""
        m = node.mods
        roll = rerolled(node.sides, m, self.rerolls) if isinstance(node.sides, int) else {}
        if (m.explode is not None or not isinstance(node.count, Num) or not isinstance(node.sides, int)
                or sum(roll.values(), Fraction(0)) != 1):
            raise _refuse(self.expr.text, "exact odds of unique re-rolls (u) are out of reach here with "
                          "explosions, re-rolls while (r), or a count or sides rolled: each die's roll "
                          "depends on the faces the others show")
        states: dict[tuple[int, ...], Fraction] = {(): Fraction(1)}
        limit, test = 1 if m.unique_once else MAX_REROLL, m.unique
        assert test is not None
        for i in range(max(node.count.value, 0)):
            self.spend(len(states) * len(roll) * CHAIN_UNIT * (1 + i))  # a step per state, face and die
            after: dict[tuple[int, ...], Fraction] = {}
            for shown, p in states.items():
                for f, q in _unique_face(roll, {f for f in roll if f in shown and test(f)}, limit).items():
                    key = tuple(sorted((*shown, f)))
                    after[key] = after.get(key, Fraction(0)) + p * q
            states = after
        out: dict[int, Fraction] = {}
        for faces, p in states.items():
            value = score([_die(f) for f in faces], m)[0]
            out[value] = out.get(value, Fraction(0)) + p
        return out, Fraction(1)

    def terms(self, counts: list[int], sides: int, m: Mods) -> list[tuple[int, Dist]]:
        """The term's distribution for each count (ascending): a keep works each out on its
        own; a sum or a count adds one die at a time from one count to the next."""
        counted = m.explode is not None and m.explode_kind[:2] != "!!"
        if counted and m.keep in ("kh", "kl") and not m.keeps and m.success is None:
            return [(n, self.exploded_keep(sides, m, n)) for n in counts]
        if counted and m.keep:
            raise _refuse(self.expr.text, "exact odds of keeping or dropping among exploded dice are "
                          "out of reach here (each explosion adds a die to the pool)")
        key = (sides, id(m))
        if key not in self.per_die:
            self.per_die[key] = self.one_die(sides, m)
        per, mass = self.per_die[key]
        die = self.die(per)
        if m.success is not None and not counted and not m.keep:
            die = die.map(lambda v: _count((v,), m))
        bits = max(1, die.denominator().bit_length())
        out: list[tuple[int, Dist]] = []
        if len(counts) == 1 or m.keep:
            for n in counts:
                if n <= 0:
                    out.append((n, ({0: Fraction(1)}, Fraction(1))))
                    continue
                self.spend((n * len(die)) ** 2 // 4 * max(1, n * bits // 256) + 1)
                found = self.keep(die, n, m) if m.keep else self.probs(sum_of(die, n))
                out.append((n, (found, mass ** n)))
            return out
        acc, have = icepool.Die([0]), 0
        for n in counts:
            while have < n:
                self.spend(len(acc) * len(die) * max(1, have * bits // 256) + 1)
                acc, have = acc + die, have + 1
            out.append((n, (self.probs(acc), mass ** max(n, 0))))
        return out

    def exploded_keep(self, sides: int, m: Mods, n: int) -> Dist:
        """``4d6!kh3``: each explosion its own die in the pool; the K highest (lowest) of the
        pool are the K highest of the dice's own K highest, so each die is followed (to the
        stated depth) as the sorted K best of its rolls, and the dice merged likewise."""
        assert m.explode is not None and self.depth is not None
        if n <= 0:
            return {0: Fraction(1)}, Fraction(1)
        roll, k, high = rerolled(sides, m, self.rerolls), min(m.keep_n, MAX_DICE_KEPT), m.keep == "kh"
        limit = 1 if m.explode_once else MAX_EXTRA
        done: dict[tuple[int, ...], Fraction] = {}
        live: dict[tuple[int, ...], Fraction] = {(): Fraction(1)}
        for i in range(self.depth + 1):
            self.spend(len(live) * len(roll) * CHAIN_UNIT + 1)
            more: dict[tuple[int, ...], Fraction] = {}
            for best, p in live.items():
                for r, q in roll.items():
                    v = r - 1 if i and m.explode_kind == "!p" else r
                    v = max(v, m.low) if m.low is not None else v
                    v = min(v, m.high) if m.high is not None else v
                    key = _best((*best, v), k, high)
                    into = more if m.explode(r) and i < limit else done
                    into[key] = into.get(key, Fraction(0)) + p * q
            live = more
        mass = sum(done.values(), Fraction(0))
        per = {key: p / mass for key, p in done.items()}
        pool: dict[tuple[int, ...], Fraction] = {(): Fraction(1)}
        for _ in range(n):
            self.spend(len(pool) * len(per) * CHAIN_UNIT)
            merged: dict[tuple[int, ...], Fraction] = {}
            for a, p in pool.items():
                for b, q in per.items():
                    key = _best((*a, *b), k, high)
                    merged[key] = merged.get(key, Fraction(0)) + p * q
            pool = merged
        out: dict[int, Fraction] = {}
        for key, p in pool.items():
            out[sum(key)] = out.get(sum(key), Fraction(0)) + p
        return out, mass ** n

    def one_die(self, sides: int, m: Mods) -> Dist:
        """One die of a term: its values (or counts) and the mass a depth left in."""
        roll = rerolled(sides, m, self.rerolls)
        if m.explode is not None and m.explode_kind[:2] != "!!":
            return self.chain(roll, m)
        if m.explode is not None:
            return self.entry(roll, m)
        mass = sum(roll.values(), Fraction(0))
        return _clamped({f: p / mass for f, p in roll.items()}, m), mass

    def keep(self, die: icepool.Die, n: int, m: Mods) -> dict[int, Fraction]:
        if m.keeps:
            return self.keep_mask(die, n, m)
        kept = _kept(m, n)
        if not kept:
            return {0: Fraction(1)}
        self.spend(4 * n * len(die) ** 2 * kept * max(1, n // 40))
        high = m.keep in ("kh", "dl")
        if m.success is None:
            return self.probs(die.highest(n, kept) if high else die.lowest(n, kept))
        self.spend(math.comb(n + len(die) - 1, n) * 4)
        pool = die.pool(n)
        chosen = pool.highest(kept) if high else pool.lowest(kept)
        return self.probs(chosen.expand().map(lambda t: _count(t, m)))

    def keep_mask(self, die: icepool.Die, n: int, m: Mods) -> dict[int, Fraction]:
        """Several keep/drop modifiers: the dice that count, by their place in sorted order."""
        mask = _mask(m.keeps, n)
        if not any(mask):
            return {0: Fraction(1)}
        self.spend(4 * n * len(die) ** 2 * n * max(1, n // 40))
        chosen = die.pool(n)[mask]
        if m.success is None:
            return self.probs(chosen.sum())
        self.spend(math.comb(n + len(die) - 1, n) * 4)
        return self.probs(chosen.expand().map(lambda t: _count(t, m)))

    def entry(self, roll: dict[int, Fraction], m: Mods) -> Dist:
        """``!!``: one die's compounded total (its rolls added while they explode), then
        raised or lowered by min/max."""
        assert m.explode is not None
        less = 1 if m.explode_kind == "!!p" else 0
        dist, mass = self.fold(roll, m.explode, lambda r, extra: r - less if extra else r, m.explode_once)
        return _clamped(dist, m), mass

    def chain(self, roll: dict[int, Fraction], m: Mods) -> Dist:
        """``!`` / ``!p``: what one die's rolls add up to (each extra roll its own die,
        less 1 when penetrating), each raised or lowered, or counted when ``m`` counts."""
        assert m.explode is not None

        def worth(r: int, extra: bool) -> int:
            v = r - 1 if extra and m.explode_kind == "!p" else r
            v = max(v, m.low) if m.low is not None else v
            v = min(v, m.high) if m.high is not None else v
            return _count((v,), m) if m.success is not None else v

        return self.fold(roll, m.explode, worth, m.explode_once)

    def fold(self, roll: dict[int, Fraction], test: Callable[[int], bool],
             worth: Callable[[int, bool], int], once: bool = False) -> Dist:
        """One die's rolls while ``test`` says they explode, to the stated depth: what they
        add up to (each roll counted as ``worth(face, is an extra roll)``), followed from
        the last roll back to the first; the mass is what the depth kept."""
        assert self.depth is not None
        self.spend(self.fold_cost(roll, worth))  # before the work: refused at once
        tail: dict[int, Fraction] = {}
        for i in range(self.depth, -1, -1):
            level: dict[int, Fraction] = {}
            for r, p in roll.items():
                w = worth(r, i > 0)
                if test(r) and i < (1 if once else MAX_EXTRA):
                    for t, q in tail.items():
                        level[w + t] = level.get(w + t, Fraction(0)) + p * q
                else:
                    level[w] = level.get(w, Fraction(0)) + p
            tail = level
        mass = sum(tail.values(), Fraction(0))
        return {v: p / mass for v, p in tail.items()}, mass


    def fold_cost(self, roll: dict[int, Fraction], worth: Callable[[int, bool], int]) -> int:
        """The work of :meth:`fold`, estimated before it is done: at each of its levels, a
        step per roll and value its tail can hold (at most the span of the values a roll is
        worth, once per level followed), each step dearer as the fractions' denominators
        grow (by the roll's own bits a level: long integers are slower to reduce)."""
        assert self.depth is not None
        worths = [worth(r, True) for r in roll] + [worth(r, False) for r in roll]
        span = max(worths) - min(worths) if worths else 0
        bits = max((p.denominator.bit_length() for p in roll.values()), default=1)
        return sum(CHAIN_UNIT * len(roll) * max(1, k * span + 1) * max(1, k * bits // 256)
                   for k in range(self.depth + 1))


def _exact(v: Any) -> Any:
    """An outcome as rpgdice keeps it: a whole number as an int, else its Fraction."""
    f = Fraction(v)
    return int(f) if f.denominator == 1 else f


def _floored(d: Dist) -> Dist:
    out: dict[int, Fraction] = {}
    for v, p in d[0].items():
        k = v if v == VOID else math.floor(v)
        out[k] = out.get(k, Fraction(0)) + p
    return out, d[1]


def _unvoid(dist: dict[int, Fraction]) -> dict[int, Fraction]:
    """A void roll's total is 0."""
    if VOID not in dist:
        return dist
    out = dict(dist)
    p = out.pop(VOID)
    out[0] = out.get(0, Fraction(0)) + p
    return out


def _whole(dist: dict[Any, Fraction]) -> bool:
    return all(type(v) is int for v in dist)


def _weight_factor(dice: list[icepool.Die]) -> int:
    """How many times a pair of these dice's weights costs what a pair of small ones does."""
    bits = max((d.denominator().bit_length() for d in dice), default=0)
    return 1 + bits // WEIGHT_BITS


def _extreme(parts: list[dict[Any, Fraction]], high: bool) -> dict[Any, Fraction]:
    """The distribution of the highest (``high``) or lowest of independent parts, exact:
    P(highest <= x) is the product of each part's P(part <= x)."""
    values = sorted(set().union(*parts), reverse=not high)
    below = [Fraction(0)] * len(parts)  # each part's P(part < x), going from the far end
    out: dict[Any, Fraction] = {}
    was = Fraction(0)
    for v in values:
        below = [b + d.get(v, 0) for b, d in zip(below, parts)]
        now = math.prod(below, start=Fraction(1))
        if now != was:
            out[v] = now - was
        was = now
    return out


def _mapped(dist: dict[Any, Fraction], f: Callable[[Any], Any]) -> dict[Any, Fraction]:
    out: dict[Any, Fraction] = {}
    for v, p in dist.items():
        k = f(v)
        out[k] = out.get(k, Fraction(0)) + p
    return out


def _add(dice: list[icepool.Die]) -> icepool.Die:
    total = dice[0]
    for d in dice[1:]:
        total = total + d
    return total


def _mask(keeps: tuple[tuple[str, int], ...], n: int) -> tuple[int, ...]:
    """For each place in ascending order, 1 when the die there counts under ``keeps``."""
    mask = [1] * n
    for kind, k in keeps:
        k = min(k, n)
        for place in range(n):
            high = place >= n - k
            low = place < k
            picked = high if kind in ("kh", "dh") else low
            if picked == (kind[0] == "d"):
                mask[place] = 0
    return tuple(mask)


def _kept(m: Mods, n: int) -> int:
    k = min(m.keep_n, n)
    return k if m.keep in ("kh", "kl") else n - k


def _count(values: tuple, m: Mods) -> int:
    assert m.success is not None
    return sum(1 if m.success(v) else -1 if m.failure is not None and m.failure(v) else 0 for v in values)


def _clamped(roll: dict[int, Fraction], m: Mods) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for r, p in roll.items():
        v = max(r, m.low) if m.low is not None else r
        v = min(v, m.high) if m.high is not None else v
        out[v] = out.get(v, Fraction(0)) + p
    return out


def rerolled(sides: int, m: Mods, depth: Optional[int] = None) -> dict[int, Fraction]:
    """One roll's faces after the re-roll rule: re-rolled while (at most
    :data:`MAX_REROLL` times) or once; the last roll stands. Followed to ``depth``
    re-rolls (below the rule's own bound, what needs more is left out: the probabilities
    then add up to less than 1)."""
    faces = face_list(sides)
    each = Fraction(1, len(faces))
    test: Optional[Test] = m.reroll
    if test is None:
        return _summed((f, each) for f in faces)
    hit = Fraction(sum(1 for f in faces if test(f)), len(faces))
    limit = 1 if m.reroll_once else MAX_REROLL
    follow = limit if depth is None else min(limit, depth)
    stays = sum((hit ** k for k in range(follow + 1)), Fraction(0))  # a pass on roll k+1
    last = hit ** limit if follow == limit else Fraction(0)
    return _summed((f, each * (last if test(f) else stays)) for f in faces)


def _summands(node: Union[Node, int]) -> Optional[list[Union[Dice, Num]]]:
    """The parts of a sum of plain dice terms (a whole count, no modifier) and whole
    numbers; None for anything else."""
    if isinstance(node, BinOp) and node.op == "+":
        left, right = _summands(node.left), _summands(node.right)
        return None if left is None or right is None else left + right
    if isinstance(node, Num) and isinstance(node.value, int):
        return [node]
    plain = repr(Mods())
    if (isinstance(node, Dice) and isinstance(node.count, Num) and isinstance(node.count.value, int)
            and isinstance(node.sides, int) and repr(node.mods) == plain):
        return [node]
    return None


MAX_DICE_KEPT = 1000
"""A keep's K is at most the dice written (grammar.py): the bound of :func:`_best`'s tuples."""


def _best(values: tuple[int, ...], k: int, high: bool) -> tuple[int, ...]:
    ordered = sorted(values)
    return tuple(ordered[-k:] if high else ordered[:k])


def _unique_face(roll: dict[int, Fraction], shown: set[int], limit: int) -> dict[int, Fraction]:
    """A die's face under ``u``: rolled again while (at most ``limit`` times) it shows a face
    in ``shown``; a face not shown stands at any roll, a shown one only as the last."""
    again = sum((roll[f] for f in shown), Fraction(0))
    stays = sum((again ** k for k in range(limit + 1)), Fraction(0))
    return {f: p * (again ** limit if f in shown else stays) for f, p in roll.items() if p}


def _summed(pairs: Any) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for f, p in pairs:
        out[f] = out.get(f, Fraction(0)) + p
    return out


def _rerollers(node: Union[Node, int]) -> list[tuple[int, Fraction]]:
    """Each term that re-rolls while: its most rolls, and the chance one roll is re-rolled."""
    if isinstance(node, int):
        return []
    out = [e for child in children(node) for e in _rerollers(child)]
    m = getattr(node, "mods", None)
    if isinstance(node, Dice) and m is not None and m.reroll is not None and not m.reroll_once:
        test = m.reroll
        sides = [node.sides] if isinstance(node.sides, int) else list(range(2, bounds(node.sides)[1] + 1))
        worst = max(Fraction(sum(1 for f in _faces_of(s) if test(f)), len(_faces_of(s))) for s in sides)
        rolls = max(1, bounds(node.count)[1]) * (1 + MAX_EXTRA if m.explode is not None else 1)
        out.append((rolls, worst))
    return out


def _faces_of(sides: int) -> list[int]:
    return face_list(sides)


def reroll_depth(expr: Roll) -> Optional[int]:
    """Re-rolls followed per roll: the smallest depth whose left-out probability is at most
    :data:`LEFT_OUT_GOAL` (union bound); None without a re-roll while (``r``)."""
    found = _rerollers(expr.tree) + (_rerollers(expr.against) if expr.against is not None else [])
    if not found:
        return None
    rolls = sum(n for n, _ in found)
    depth = 0
    for _, p in found:
        while depth < MAX_REROLL and rolls * p ** (depth + 1) > LEFT_OUT_GOAL:
            depth += 1
    return depth


def _exploders(node: Union[Node, int]) -> list[tuple[int, Fraction]]:
    """Each exploding dice term: its most dice and its chance to explode on one roll."""
    if isinstance(node, int):
        return []
    out = [e for child in children(node) for e in _exploders(child)]
    if isinstance(node, Dice) and node.mods.explode is not None:
        test = node.mods.explode
        sides = [node.sides] if isinstance(node.sides, int) else list(range(2, bounds(node.sides)[1] + 1))
        worst = Fraction(0)
        for s in sides:
            roll = rerolled(s, node.mods)
            worst = max(worst, sum((p for f, p in roll.items() if test(f)), Fraction(0)))
        out.append((max(1, bounds(node.count)[1]), worst))
    return out


def explode_depth(expr: Roll) -> Optional[int]:
    """The smallest depth (extra rolls followed per die) whose left-out probability is at
    most :data:`LEFT_OUT_GOAL` by the union bound; None without an explosion."""
    found = _exploders(expr.tree) + (_exploders(expr.against) if expr.against is not None else [])
    if not found:
        return None
    dice = sum(n for n, _ in found)
    depth = 0
    for _, p in found:
        d = 0
        while d < MAX_EXTRA and dice * p ** (d + 1) > LEFT_OUT_GOAL:
            d += 1
        depth = max(depth, d)
    return depth


def odds(expr: Roll) -> Union[TreeOdds, CompareOdds]:
    """The exact distribution of the total (and, for a compared total, its outcomes)."""
    with deep():
        return _odds(expr)


def _odds(expr: Roll) -> Union[TreeOdds, CompareOdds]:
    o = _Odds(expr)
    dist, mass = o.dist(expr.tree)
    dist = _unvoid(dist)
    exact = dist
    dist = _floored((dist, mass))[0]  # the total is rounded down once, at the end (RULES.md)
    outcomes = None
    if expr.compare and expr.against is not None:
        op = expr.compare
        against = o.dist(expr.against)
        against = _unvoid(against[0]), against[1]
        hit, m2 = o.combine((exact, Fraction(1)), against, lambda t, a: int(compare(op, t, a)))
        mass *= m2
        p = hit.get(1, Fraction(0)) * mass
        outcomes = {"success": p, "failure": mass - p}
    distribution = {v: p * mass for v, p in sorted(dist.items())}
    left_out = 1 - mass
    fields = dict(expression=expr.text, distribution=distribution,
                  mean=sum((v * p for v, p in dist.items()), Fraction(0)), min=min(dist), max=max(dist),
                  truncated=bool(left_out), explode_depth=o.depth, left_out=left_out, reroll_depth=o.rerolls)
    if outcomes is None:
        return TreeOdds(**fields)  # type: ignore[arg-type]
    return CompareOdds(**fields, outcomes=outcomes)  # type: ignore[arg-type]

"""Exact odds of a ``kind = "custom"`` ruleset file, never by rolling: the dice are folded
one at a time into the running values of the dice functions the outcomes read (a count,
a sum, the highest, the k highest...), never into the product of all the dice.

Each die's faces are taken in classes: faces the outcomes' expressions cannot tell apart
(the same values for every dice function that reads the die, the same rank where the
group keeps some) are one class, weighed by how many faces it holds. Equal running values
are merged after each die, so a pool of twenty dice counted for successes takes twenty
steps of a few states each. An acing die is followed :data:`ACE_DEPTH` extra dice deep;
what lies beyond is ``left_out``. Work over the odds budget is refused in one line.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any, Optional

from rpgdice.core.budget import ODDS_BUDGET, check_odds, odds_share
from rpgdice.core.data import Loaded
from rpgdice.core.errors import RulesError
from rpgdice.rulesets._file import engine as G
from rpgdice.rulesets._file import expr as E

ACE_DEPTH = 10
"""The extra dice an acing die is followed to, exactly."""

Agg = tuple[str, tuple[str, ...], Optional[E.Node], int]
"""A dice function the outcomes read: its name, groups, the value it reads of each die
(None: the face) and its k (``top``)."""


def needed(roll: G.Roll, rows: list[Loaded]) -> dict[E.Node, Agg]:
    """The dice functions the outcomes of ``rows`` read (through the values too)."""
    found: dict[E.Node, Agg] = {}
    todo = [G.tree(str(o["when"]["when"])) for o in rows if "when" in o["when"]]
    todo += [G.tree(str(g["rank"])) for g in roll.rules["dice"] if g.get("keep") is not None]
    seen: set[str] = set()
    while todo:
        for n in E.walk(todo.pop()):
            if n[0] == "name" and n[1] in roll.values and n[1] not in seen:
                seen.add(n[1])
                todo.append(G.tree(roll.values[n[1]]))
            elif n[0] == "call" and n[1] in E.KEY_ONLY:
                raise RulesError("rules", f"the outcomes read {n[1]}(), which has no odds")
            elif n[0] == "call" and n[1] in E.AGGREGATES and n not in found:
                args = n[2]
                k = 0
                if n[1] == "top":
                    k, args = int(roll.eval_node(args[1])), (args[0], *args[2:])
                found[n] = (n[1], E.group_arg(args[0]) or (), args[1] if len(args) > 1
                            else None, k)
                for a in args[1:]:  # the values a die's expression reads
                    todo.append(a)
    return found


def start(a: Agg) -> Any:
    return 0 if a[0] in ("count", "sum") else None if a[0] in ("high", "low") else ()


def step(a: Agg, s: Any, x: Any) -> Any:
    """The running value of the dice function ``a`` with one more die's value ``x``."""
    f = a[0]
    if f == "count":
        return s + (1 if x else 0)
    if f == "sum":
        return s + x
    if f == "high":
        return x if s is None or x > s else s
    if f == "low":
        return x if s is None or x < s else s
    if f == "top":
        return tuple(sorted((*s, x), reverse=True)[:a[3]])
    counts = dict(s)
    counts[x] = counts.get(x, 0) + 1
    return tuple(sorted(counts.items()))


def final(a: Agg, s: Any) -> int:
    f = a[0]
    if f in ("count", "sum"):
        return int(s)
    if f in ("high", "low"):
        return 0 if s is None else int(s)
    if f == "top":
        return int(sum(s))
    return max((c for _, c in s), default=0)


class Snapshot(G.Roll):
    """A roll whose dice functions are read from the fold's running values."""

    def __init__(self, rules: Loaded, args: dict[str, Any], aggs: list[Agg],
                 index: dict[E.Node, int], done: set[str]) -> None:
        super().__init__(rules, args)
        self.aggs, self.index, self.done = aggs, index, done
        self.calls = {(n[1], n[2]): i for n, i in index.items()}
        """Each dice function's running value's place, by its name and arguments: found
        at once, not by a walk of them all for each call."""
        self.state: tuple[Any, ...] = ()

    def call(self, fname: str, args: tuple[E.Node, ...]) -> Any:
        i = self.calls.get((fname, args))
        if i is None:
            raise RulesError("rules", f"{fname}() read where it has no odds")
        if not set(self.aggs[i][1]) <= self.done:
            raise RulesError("rules", f"a die reads {fname}() of dice rolled after it, "
                             "which has no odds (order the groups)")
        return final(self.aggs[i], self.state[i])

    def at(self, state: tuple[Any, ...]) -> Snapshot:
        self.state, self.memo = state, {}
        return self


def die_classes(snap: Snapshot, g: Loaded, sides: int, touching: list[int],
                keep: bool) -> tuple[list[tuple[tuple[Any, ...], int]], int]:
    """One die's classes: ``(values the functions read, rank)`` to its weight (whole
    numbers: exact and fast), and the weights' denominator (what the aces leave out is
    the rest)."""
    faces = G.faces_of(g, sides)
    n = len(faces)
    weights: dict[int, int] = defaultdict(int)
    if g.get("ace"):
        top = max(faces)
        for depth in range(ACE_DEPTH + 1):  # a chain of `depth` aces, then another face
            for f in faces:
                if f != top:
                    weights[top * depth + f] += n ** (ACE_DEPTH - depth)
        denominator = n ** (ACE_DEPTH + 1)
    else:
        for f in faces:
            weights[f] += 1
        denominator = n
    rank = G.tree(str(g.get("rank") or "face"))
    out: dict[tuple[Any, ...], int] = defaultdict(int)
    for value, q in weights.items():
        letters = g["symbols"][value - 1] if g.get("symbols") else ""
        die = G.Die(g["name"], g.get("group"), sides, [value], letters)
        sig = tuple(_read(snap, snap.aggs[i][2], die) for i in touching)
        out[(sig, snap.per_die(rank, die) if keep else 0)] += q
    return list(out.items()), denominator


def _read(snap: Snapshot, node: Optional[E.Node], die: G.Die) -> Any:
    """What a dice function reads of one die: its value expression's, or its face."""
    return die.value if node is None else snap.per_die(node, die)


class Budget:
    """The steps taken, refused past the odds budget's share."""

    def __init__(self, what: str, param: str) -> None:
        self.steps, self.what, self.param = 0, what, param
        self.share = ODDS_BUDGET // odds_share()

    def spend(self, n: int) -> None:
        self.steps += n
        if self.steps > self.share:
            check_odds(self.steps, self.param, self.what)


WEIGHED = 8
"""The dice functions (or an expression's parts) a step handles for the cost of one: a
file's usual few count 1 or 2 a step; a file that reads thousands makes each step cost as
much more (each step's time, not only their number, is bounded)."""


def weight(n: int) -> int:
    """What a step that handles ``n`` dice functions (or parts of expressions) counts."""
    return 1 + n // WEIGHED


State = tuple[tuple[Any, ...], tuple[Any, ...]]
"""The running values of the dice functions, and the dice a group keeps so far."""


def fold_group(snap: Snapshot, g: Loaded, states: dict[State, int], budget: Budget
               ) -> tuple[dict[State, int], int]:
    """The states (by whole-number weights) after every die of the group ``g``; and what
    the weights were multiplied by."""
    aggs = snap.aggs
    touching = [i for i, a in enumerate(aggs) if g["name"] in a[1]]
    keep = g.get("keep") is not None
    if not touching:
        return states, 1
    k, low = (int(snap.eval(g["keep"])), bool(snap.eval(g["low"]))) if keep else (0, False)
    scale = 1
    memo: dict[tuple[Any, ...], Any] = {}
    per_state = weight(len(aggs))  # each step carries every running value
    read = [node for node in (aggs[i][2] for i in touching) if node is not None]
    reading = weight(sum(len(E.walk(node)) for node in read) + len(touching))  # one face's
    outer = outer_reads(snap, g, touching, keep)
    for sides in G.group_sides(snap, g):
        nxt: dict[State, int] = defaultdict(int)
        for (run, kept), p in states.items():
            key = (sides, *(run[j] for j in outer))
            if key not in memo:  # each of its faces (and aces) read by each function
                budget.spend(len(G.faces_of(g, sides)) * (ACE_DEPTH + 1 if g.get("ace") else 1)
                             * reading)
                memo[key] = die_classes(snap.at(run), g, sides, touching, keep)
            classes, denominator = memo[key]
            budget.spend(len(classes) * (per_state + len(kept)))  # the kept dice sorted
            for (sig, rank), q in classes:
                if keep:
                    nxt[(run, _kept(kept, (rank, sig), k, low))] += p * q
                else:
                    nxt[(_apply(aggs, touching, run, sig), kept)] += p * q
        scale *= denominator
        states = nxt
    if keep:
        states = _release(aggs, touching, states)
    return states, scale


def outer_reads(snap: Snapshot, g: Loaded, touching: list[int], keep: bool) -> list[int]:
    """The dice functions (of earlier groups) that what the group's dice are read by
    reads: a die's classes are worked out once for each of their values, not each state."""
    todo = [snap.aggs[i][2] for i in touching if snap.aggs[i][2] is not None]
    if keep:
        todo.append(G.tree(str(g.get("rank") or "face")))
    seen: set[str] = set()
    found: set[int] = set()
    while todo:
        for n in E.walk(todo.pop()):  # type: ignore[arg-type]
            if n[0] == "name" and n[1] in snap.values and n[1] not in seen:
                seen.add(n[1])
                todo.append(G.tree(snap.values[n[1]]))
            elif n[0] == "call" and n in snap.index:
                found.add(snap.index[n])
    return sorted(found)


def _apply(aggs: list[Agg], touching: list[int], run: tuple[Any, ...],
           sig: tuple[Any, ...]) -> tuple[Any, ...]:
    new = list(run)
    for i, x in zip(touching, sig):
        new[i] = step(aggs[i], new[i], x)
    return tuple(new)


def _kept(kept: tuple[Any, ...], item: tuple[Any, Any], k: int, low: bool) -> tuple[Any, ...]:
    """The dice kept so far with one more: the k best by rank (an earlier die stays
    among equal ranks)."""
    if k <= 0:  # keeps none (a keep of 0 or less, as a roll reads it)
        return kept
    items = sorted(kept, key=lambda t: t[0], reverse=not low)
    if len(items) < k:
        return tuple(sorted((*items, item), key=repr))
    worst = items[-1]
    if (item[0] < worst[0]) if low else (item[0] > worst[0]):
        return tuple(sorted((*items[:-1], item), key=repr))
    return kept


def _release(aggs: list[Agg], touching: list[int], states: dict[State, int]
             ) -> dict[State, int]:
    out: dict[State, int] = defaultdict(int)
    for (run, kept), p in states.items():
        for _rank, sig in kept:
            run = _apply(aggs, touching, run, sig)
        out[(run, ())] += p
    return out


def custom_odds(rules: Loaded, args: dict[str, Any], what: str
                ) -> tuple[dict[str, Fraction], Fraction, bool]:
    """Each outcome's exact chance (every outcome of the roll's form, zeros too), the
    chance left out, and whether a die aces."""
    from rpgdice.rulesets._file.schema import fold

    base = G.Roll(rules, args)
    rows = [o for o in rules["outcomes"]
            if "applies" not in o["when"] or base.eval(o["when"]["applies"])]
    found = needed(base, rows)
    aggs = list(found.values())
    index = {n: i for i, n in enumerate(found)}
    first = rules["args"][0] if rules["args"] else None
    budget = Budget(what, G.label(first) if first else "--odds")
    done: set[str] = set()
    snap = Snapshot(rules, args, aggs, index, done)
    states: dict[State, int] = {(tuple(start(a) for a in aggs), ()): 1}
    denominator = 1
    try:  # a die's own expression (face / 0, a number beyond the bound): one line
        for g in rules["dice"]:
            states, scale = fold_group(snap, g, states, budget)
            denominator *= scale
            done.add(g["name"])
    except E.EvalError as e:
        raise RulesError("rules", str(e)) from None
    chances = {fold(o["name"]): Fraction(0) for o in rows}
    deciding = weight(sum(len(E.walk(G.tree(str(t)))) for t in (  # an outcome found
        *(o["when"]["when"] for o in rows if "when" in o["when"]), *snap.values.values())))
    named: dict[tuple[Any, ...], str] = {}
    weights: dict[str, int] = defaultdict(int)
    for (run, _), p in states.items():
        if run not in named:
            budget.spend(deciding)
            named[run] = G.outcome_of(snap.at(run))
        weights[named[run]] += p
    for key, w in weights.items():
        chances[key] = Fraction(w, denominator)
    left = 1 - Fraction(sum(weights.values()), denominator)
    aces = any(g.get("ace") for g in rules["dice"])
    return chances, left, aces


def custom_work(rules: Loaded, args: dict[str, Any]) -> int:
    """A rough bound of the steps :func:`custom_odds` takes: each die meets the running
    values with each of its faces."""
    n = G.work(rules, args)
    return n * n * 12

"""A user's ruleset file: exact odds of a roll, from the rules' own functions (every face
counted with its exact weight, fractions throughout), never by rolling. ``again`` chains
are followed to :data:`AGAIN_DEPTH` extra dice a die; what lies beyond is ``left_out``, as
ordinary dice's exploding terms state it."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any

from rpgdice.core.budget import ODDS_BUDGET, check_odds
from rpgdice.core.data import Loaded
from rpgdice.rulesets._file import rules as R

AGAIN_DEPTH = 10
"""The extra dice one die's ``again`` chain is followed to, exactly."""
STATS_MAX_WORK = ODDS_BUDGET // 4
"""The most work (:func:`file_work`) ``log stats`` spends on the odds of one logged roll
of a user's ruleset (about half a second); a roll over it is left out of the stats."""


def file_work(spec: R.FileRoll) -> int:
    """The steps :func:`file_odds` of ``spec`` takes at most (known before computing)."""
    rules = spec.parsed
    if rules["kind"] == "custom":
        from rpgdice.rulesets._file import engine, folding

        return folding.custom_work(rules, engine.check_args(rules, R.custom_args(spec)))
    if rules["kind"] == "pool":
        return _pool_steps(rules, spec.pool, _per_die(rules)) if spec.pool > 0 else 1
    if rules["kind"] == "total":
        return _total_steps(R.terms(rules))
    return max(1, spec.pool) * rules["die"]


def file_odds(spec: R.FileRoll) -> Any:
    rules, name = spec.parsed, spec.name
    kind = rules["kind"]
    if kind == "custom":
        return _custom(rules, spec)
    left = Fraction(0)
    depth = None
    if kind == "pool":
        outcomes, left = _pool(rules, spec)
        depth = AGAIN_DEPTH if rules.get("again") and spec.pool > 0 else None
    elif kind == "total":
        outcomes = _total(rules, spec)
    else:
        outcomes = _highest(rules, spec)
    ordered = {R.fold(o["name"]): Fraction(0) for o in rules["outcomes"]}
    for key, p in outcomes.items():
        ordered[key] += p
    cls = R.classes(name)["FileOdds"]
    said: Loaded = (
        {"pool": spec.pool, "difficulty": spec.difficulty} if kind == "pool" else
        {"mod": spec.mod, "target": spec.target} if kind == "total" else {"pool": spec.pool})
    return cls(outcomes=ordered, truncated=bool(left), explode_depth=depth,
               left_out=float(left), **said)


def _per_die(rules: Loaded) -> dict[tuple[int, bool, bool], Fraction]:
    """One die of a pool and its ``again`` chain: ``(counts, a success rolled, the die a 1)``
    to its chance (less what chains past :data:`AGAIN_DEPTH`). The faces are taken in
    classes (what a face counts, whether it rolls again) and each depth of the chain is
    worked out once: a few steps a depth, whatever the die."""
    die = rules["die"]
    again, once = rules.get("again"), rules.get("again_once")
    p = Fraction(1, die)
    # (counts, rolls again) -> how many faces
    kinds: dict[tuple[int, bool], int] = defaultdict(int)
    for face in range(1, die + 1):
        kinds[(R.die_counts(rules, face), again is not None and face >= again)] += 1

    # the chain of the extra die at each depth, from the deepest up
    below: dict[tuple[int, bool], Fraction] = {}
    for depth in range(AGAIN_DEPTH, 0, -1):
        out: dict[tuple[int, bool], Fraction] = defaultdict(Fraction)
        for (c, rolls), ways in kinds.items():
            q0 = p * ways
            if rolls and not once:
                if depth >= AGAIN_DEPTH:
                    continue  # left out
                for (c2, s2), q in below.items():
                    out[(c + c2, c > 0 or s2)] += q0 * q
            else:
                out[(c, c > 0)] += q0
        below = out
    extra = below  # the first extra die's chain (with again_once: one plain die)

    # the pool's own die: its face 1 apart (glitches look at it), the other faces by class
    one_kind = (R.die_counts(rules, 1), again is not None and 1 >= again)
    first: dict[tuple[int, bool, bool], Fraction] = defaultdict(Fraction)
    for (c, rolls), ways in kinds.items():
        for is_one, n in ((True, 1), (False, ways - 1)) if (c, rolls) == one_kind else (
                (False, ways),):
            if n <= 0:
                continue
            if rolls:
                for (c2, s2), q in extra.items():
                    first[(c + c2, c > 0 or s2, is_one)] += p * n * q
            else:
                first[(c, c > 0, is_one)] += p * n
    return dict(first)


def _pool_steps(rules: Loaded, n: int, one: dict[tuple[int, bool, bool], Fraction]) -> int:
    """A pool's worst case: each die meets every running count (and glitch track) with each
    result of one die."""
    glitch = rules.get("glitch", "none")
    span = max(abs(c) for c, _, _ in one) + 1
    tracks = n + 1 if glitch == "ones-over-half" else 3 if glitch == "ones-no-success" else 1
    return n * n * span * tracks * len(one)


def _total_steps(terms: list[tuple[int, int, int]]) -> int:
    steps = 0
    width = 1
    for _, count, sides in terms:
        if sides:
            for _ in range(count):
                steps += width * sides
                width += sides
    return steps * 2


def _pool(rules: Loaded, spec: R.FileRoll) -> tuple[dict[str, Fraction], Fraction]:
    n, die = spec.pool, rules["die"]

    def named(net: int, glitch: bool) -> str:
        return R.outcome(rules, {"margin": net - spec.difficulty, "glitch": glitch,
                                 "successes": net})

    out: dict[str, Fraction] = defaultdict(Fraction)
    if n <= 0:
        if rules.get("zero") == "chance":
            out[named(1, False)] += Fraction(1, die)
            out[named(0, True)] += Fraction(1, die)
            out[named(0, False)] += Fraction(die - 2, die)
        else:
            out[named(0, False)] += 1
        return out, Fraction(0)
    one = _per_die(rules)
    glitch = rules.get("glitch", "none")
    check_odds(_pool_steps(rules, n, one), "POOL", f"a pool of {n} dice")
    # state: (counts so far, track) -> chance; track: the 1s of the pool's own dice, or
    # 0 no success and no 1 / 1 no success and a 1 / 2 a success rolled
    states: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}
    for _ in range(n):
        nxt: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
        for (total, track), p in states.items():
            for (c, success, is_one), q in one.items():
                if glitch == "ones-over-half":
                    t = track + is_one
                elif glitch == "ones-no-success":
                    t = 2 if track == 2 or success else 1 if track == 1 or is_one else 0
                else:
                    t = 0
                nxt[(total + c, t)] += p * q
        states = nxt
    kept = Fraction(0)
    for (total, track), p in states.items():
        g = (2 * track > n) if glitch == "ones-over-half" else (
            track == 1 if glitch == "ones-no-success" else False)
        out[named(max(0, total), g)] += p
        kept += p
    return out, 1 - kept


def _sum(sides: int, count: int) -> dict[int, int]:
    """The ways of each sum of ``count`` dice of ``sides``."""
    ways = {0: 1}
    for _ in range(count):
        nxt: dict[int, int] = defaultdict(int)
        for s, w in ways.items():
            for f in range(1, sides + 1):
                nxt[s + f] += w
        ways = nxt
    return ways


def _total(rules: Loaded, spec: R.FileRoll) -> dict[str, Fraction]:
    R.check_target(rules, spec)
    terms = R.terms(rules)
    check_odds(_total_steps(terms), "dice", f"the file's dice {rules['dice']}")
    constant = spec.mod + sum(sign * count for sign, count, sides in terms if not sides)
    dice_terms = [(sign, count, sides) for sign, count, sides in terms if sides]
    # the first die apart (its face is the natural), then the rest summed
    sign0, count0, sides0 = dice_terms[0]
    rest: dict[int, int] = {0: 1}
    rest_dice = [(sign0, count0 - 1, sides0), *dice_terms[1:]]
    denominator = sides0
    for sign, count, sides in rest_dice:
        part = _sum(sides, count)
        denominator *= sides ** count
        nxt: dict[int, int] = defaultdict(int)
        for a, w in rest.items():
            for b, v in part.items():
                nxt[a + sign * b] += w * v
        rest = nxt
    out: dict[str, Fraction] = defaultdict(Fraction)
    for f in range(1, sides0 + 1):
        for s, w in rest.items():
            total = constant + sign0 * f + s
            key = R.outcome(rules, {"total": total, "natural": f}, spec.target)
            out[key] += Fraction(w, denominator)
    return out


def _highest(rules: Loaded, spec: R.FileRoll) -> dict[str, Fraction]:
    die, n = rules["die"], spec.pool
    out: dict[str, Fraction] = defaultdict(Fraction)

    def named(h: int, crit: bool) -> str:
        return R.outcome(rules, {"highest": h, "critical": crit})

    if n <= 0:
        if rules.get("zero") == "lowest-of-2":
            for h in range(1, die + 1):
                out[named(h, False)] += (Fraction(die - h + 1, die) ** 2
                                         - Fraction(die - h, die) ** 2)
        else:
            out[named(0, False)] += 1
        return out
    for h in range(1, die):
        out[named(h, False)] += Fraction(h, die) ** n - Fraction(h - 1, die) ** n
    need = rules.get("critical")
    from math import comb

    top = Fraction(1, die)
    for k in range(1, n + 1):  # k dice show the top face
        p = comb(n, k) * top ** k * (1 - top) ** (n - k)
        out[named(die, need is not None and k >= need)] += p
    return out


def _custom(rules: Loaded, spec: R.FileRoll) -> Any:
    from rpgdice.rulesets._file import engine, folding

    args = engine.check_args(rules, R.custom_args(spec))
    chances, left, aces = folding.custom_odds(rules, args, f"this {rules['title']} roll")
    cls = R.custom_classes(spec.name, rules)["CustomOdds"]
    return cls(outcomes=chances, truncated=bool(left), explode_depth=folding.ACE_DEPTH if aces
               else None, left_out=float(left), args=args)

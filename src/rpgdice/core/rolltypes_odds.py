"""Exact odds of the roll types (:mod:`rpgdice.core.rolltypes`), written once: combinators
over a single roll's distribution, which each ruleset's ``odds.py`` gives as its own
results (or scores) and their weights, computed with its own rules functions.

Loaded on the odds path only (``odds`` commands, ``--odds``), as :mod:`rpgdice.core.exact`
is; it needs no icepool itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import TypeVar

from rpgdice.core.rolltypes import ATTACKER, DEFENDER, FAILURE, SUCCESS

S = TypeVar("S")
R = TypeVar("R")

Steps = dict[tuple[int, bool], int]
"""One roll of an extended action: each (gain, ends the attempt) to its weight."""
Later = tuple[Steps, int, int]
"""The steps and denominator of the rolls after the first N (the third item)."""


# Contest ----------------------------------------------------------------------------------


def contest_odds(attacker: Iterable[tuple[S, Fraction]], defender: Iterable[tuple[S, Fraction]],
                 judge: Callable[[S, S], tuple[str, int]],
                 ) -> tuple[dict[str, Fraction], dict[str, Fraction], dict[int, Fraction]]:
    """Every pair of the two sides' rolls (each with its probability) judged by the ruleset's
    own contest (``judge`` gives the winner and the margin): ``(outcomes, winner, margin)``,
    ``outcomes`` the attacker's."""
    sides = list(defender)
    winner = {ATTACKER: Fraction(0), DEFENDER: Fraction(0)}
    margin: dict[int, Fraction] = {}
    for a, pa in attacker:
        for d, pd in sides:
            p = pa * pd
            side, diff = judge(a, d)
            winner[side] += p
            margin[diff] = margin.get(diff, Fraction(0)) + p
    return ({SUCCESS: winner[ATTACKER], FAILURE: winner[DEFENDER]}, winner,
            dict(sorted(margin.items())))


# Extended ---------------------------------------------------------------------------------


def extended_steps(results: Iterable[tuple[R, int]], gain: Callable[[R], int],
                   ends: Callable[[R], bool]) -> Steps:
    """One roll of an extended action from its results and their weights, read as
    :func:`rpgdice.core.rolltypes.extended` reads a roll: what it adds, whether it ends it."""
    steps: Steps = {}
    for r, q in results:
        stop = ends(r)
        key = (0 if stop else gain(r), stop)
        steps[key] = steps.get(key, 0) + q
    return steps


def extended_odds(steps: Steps, denominator: int, end: str, *, start: int, target: int,
                  max_rolls: int, later: Later | None = None,
                  ) -> tuple[dict[str, Fraction], dict[int, Fraction], dict[int, Fraction], Fraction]:
    """An extended roll's ``(outcomes, within, rolls_needed, expected_rolls)``: ``outcomes``
    success, failure (the roll limit) and ``end`` (the ruleset's word for the roll that
    ends the attempt)."""
    reached, ended, expected = sequence(steps, denominator, start, target, max_rolls, later)
    success = sum(reached.values(), Fraction(0))
    stopped = sum(ended.values(), Fraction(0))
    outcomes = {SUCCESS: success, FAILURE: 1 - success - stopped, end: stopped}
    return outcomes, cumulative(reached), reached, expected


def sequence(steps: Steps, denominator: int, start: int, target: int, max_rolls: int,
             later: Later | None = None,
             ) -> tuple[dict[int, Fraction], dict[int, Fraction], Fraction]:
    """An extended action's running total as a chain of rolls (:func:`rpgdice.core.rolltypes.
    accumulate`): ``steps`` maps each roll's (gain, ends the attempt) to its weight out of
    ``denominator``. Returns the chance to reach ``target`` exactly at each roll, to be
    ended at each roll, and the expected number of rolls; it stops at ``max_rolls`` or
    where nothing is left to roll. With ``later``, the rolls after its first N take its
    steps instead (each roll's weights are out of its own denominator)."""
    alive = {start: 1}  # running total -> weight, out of denominator ** k after k rolls
    reached: dict[int, Fraction] = {}
    ended: dict[int, Fraction] = {}
    expected = Fraction(0)
    scale = 1
    for k in range(1, max_rolls + 1):
        expected += Fraction(sum(alive.values()), scale)  # a roll is made: still going
        if later is not None and k == later[2] + 1:
            steps, denominator = later[0], later[1]
        scale *= denominator
        after: dict[int, int] = {}
        hit = stop = 0
        for total, w in alive.items():
            for (gain, ends), q in steps.items():
                if ends:
                    stop += w * q
                elif total + gain >= target:
                    hit += w * q
                else:
                    after[total + gain] = after.get(total + gain, 0) + w * q
        reached[k] = Fraction(hit, scale)
        if stop:
            ended[k] = Fraction(stop, scale)
        alive = after
        if not alive:
            break
    return reached, ended, expected


def cumulative(by_step: dict[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    running = Fraction(0)
    for k, p in by_step.items():
        running += p
        out[k] = running
    return out


# Team -------------------------------------------------------------------------------------


def team_sum_odds(members: Iterable[list[int]], need: int,
                  ) -> tuple[dict[str, Fraction], dict[int, Fraction]]:
    """The sum of the members' scores, member by member, each member's list of scores equally
    likely (a d10's ten results): ``(outcomes, total)``, success when the sum reaches
    ``need``."""
    sums = {0: 1}
    whole = 1
    for scores in members:
        after: dict[int, int] = {}
        for so_far, w in sums.items():
            for got in scores:
                after[so_far + got] = after.get(so_far + got, 0) + w
        sums = after
        whole *= len(scores)
    total = {k: Fraction(w, whole) for k, w in sorted(sums.items())}
    success = sum((p for k, p in total.items() if k >= need), Fraction(0))
    return {SUCCESS: success, FAILURE: 1 - success}, total


# Series and retry -------------------------------------------------------------------------


def series_odds(each: Iterable[dict[str, Fraction]], dire: str) -> tuple[dict[str, Fraction], Fraction]:
    """Independent actions (:func:`rpgdice.core.rolltypes.series`): every one succeeds with
    the product of their chances, and none is ``dire`` with the product of theirs (whether
    a dire roll stops the rest changes nothing of the series' outcome). ``(outcomes,
    all_succeed)``."""
    all_succeed = Fraction(1)
    no_dire = Fraction(1)
    for o in each:
        all_succeed *= o[SUCCESS]
        no_dire *= 1 - o[dire]
    return {SUCCESS: all_succeed, FAILURE: no_dire - all_succeed, dire: 1 - no_dire}, all_succeed


def retry_odds(attempt: Callable[[int], dict[str, Fraction]], attempts: int, dire: str,
               retry_after_dire: bool,
               ) -> tuple[dict[str, Fraction], dict[int, Fraction], Fraction]:
    """Attempt after attempt (``attempt(k)``: the outcomes of the k-th, from 0), as
    :func:`rpgdice.core.rolltypes.retry` tries: a success or (unless ``retry_after_dire``)
    a ``dire`` roll ends it; the last outcome is the series'. ``(outcomes, by_attempt,
    expected_attempts)``, ``by_attempt[k]`` the chance of a success by attempt k."""
    going = Fraction(1)
    by_attempt: dict[int, Fraction] = {}
    outcomes = {SUCCESS: Fraction(0), FAILURE: Fraction(0), dire: Fraction(0)}
    expected = Fraction(0)
    success = Fraction(0)
    last = attempts - 1
    for k in range(attempts):
        expected += going
        o = attempt(k)
        success += going * o[SUCCESS]
        by_attempt[k + 1] = success
        if not retry_after_dire or k == last:  # a dire roll ends the series
            outcomes[dire] += going * o[dire]
            going *= o[FAILURE]
        else:
            going *= o[FAILURE] + o[dire]
        if not going:
            break
    outcomes[SUCCESS] = success
    outcomes[FAILURE] = 1 - success - outcomes[dire]
    return outcomes, by_attempt, expected

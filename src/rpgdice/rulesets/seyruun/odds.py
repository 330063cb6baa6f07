"""Seyruun: exact odds, computed with icepool from the rules' own functions, never by
rolling."""

from __future__ import annotations

import functools
from dataclasses import replace
from fractions import Fraction
from typing import NamedTuple, TypeVar

import icepool

from rpgdice.core import rolltypes_odds
from rpgdice.core.dice import d10_successes
from rpgdice.core.exact import D10, counts, marginal, named
from rpgdice.rulesets.seyruun import rules as seyruun
from rpgdice.rulesets.seyruun.rules import SeyruunAttackOdds, SeyruunOdds

SEYRUUN_OUTCOMES = ("success", "failure", "botch")


K = TypeVar("K")

def _seyruun_face_class(face: int) -> tuple[int, bool, bool]:
    """What the engine reads from one die: its successes, whether it is a 1, a 10."""

    return (d10_successes(face, face, seyruun.SUCCESS_AT), face == 1, face == 10)


@functools.cache
def seyruun_class_die() -> icepool.Die:
    """A d10 with each face replaced by the lowest face the engine scores alike
    (1, 2-5, 6-9, 10 → 1, 2, 6, 10): a 10-die pool has 286 distinct rolls instead
    of 10¹⁰. Built on first use, not when the module is imported."""
    return D10.map(
        lambda f: min(g for g in range(1, 11) if _seyruun_face_class(g) == _seyruun_face_class(f))
    )


def seyruun_standing(pool: seyruun.SeyruunPool, reroll: bool = False) -> icepool.Die:
    """The roll that stands, as a die over ``(outcome, successes, tens, tier)``.

    Every distinct roll of the pool (faces grouped as the engine scores them) is
    scored by :func:`rpgdice.rulesets.seyruun.rules.evaluate` itself. With ``reroll``, a
    roll that did not succeed is replaced by a fresh roll of the same pool, as
    :func:`rpgdice.rulesets.seyruun.rules.roll` does.
    """


    def score(faces: tuple[int, ...]) -> tuple[str, int, int, str]:
        r = seyruun.evaluate(pool, list(faces))
        return (r.outcome, r.successes, r.tens, r.tier or "")

    first = seyruun_class_die().pool(pool.dice).expand().map(score, star=False)
    if not reroll:
        return first
    return first.map(lambda s: s if s[0] == "success" else first, star=False)


def seyruun_odds(pool: seyruun.SeyruunPool, reroll: bool = False) -> SeyruunOdds:

    standing = seyruun_standing(pool, reroll)
    exactly, at_least = counts(marginal(standing, lambda s: s[1]))
    tens = marginal(standing, lambda s: s[2])
    tiers = marginal(standing, lambda s: s[3])
    return SeyruunOdds(
        outcomes=named(marginal(standing, lambda s: s[0]), SEYRUUN_OUTCOMES),
        successes=exactly,
        at_least=at_least,
        critical=sum((p for t, p in tens.items() if t >= 1), Fraction(0)),
        multiple_critical=sum((p for t, p in tens.items() if t >= 2), Fraction(0)),
        tiers=named(tiers, tuple(name for _, name in reversed(seyruun.TIERS))),
        reroll=reroll,
        **seyruun.pool_fields(pool),
    )


def _seyruun_results(pool: seyruun.SeyruunPool | seyruun.PlainPool) -> list[tuple[seyruun.SeyruunResult, Fraction]]:
    """Every distinct result of one roll of ``pool`` (a :class:`SeyruunPool` or a damage
    or soak :class:`PlainPool`) and its probability: each distinct roll (faces grouped
    as the engine scores them) scored by :func:`rpgdice.rulesets.seyruun.rules.evaluate`,
    results with the same successes and outcome merged (all combat reads of a roll)."""

    rolls = seyruun_class_die().pool(pool.dice).expand()
    denominator = rolls.denominator()
    found: dict[tuple[int, str], tuple[seyruun.SeyruunResult, Fraction]] = {}
    for faces, quantity in rolls.items():
        r = seyruun.evaluate(pool, list(faces))
        key = (r.successes, r.outcome)
        rep, p = found.get(key, (r, Fraction(0)))
        found[key] = (rep, p + Fraction(quantity, denominator))
    return list(found.values())


def seyruun_attack_odds(spec: seyruun.SeyruunAttack) -> SeyruunAttackOdds:
    """Exact odds of an attack, following :func:`rpgdice.rulesets.seyruun.rules.roll_attack`
    step by step with the engine's own functions: every distinct attack and defense
    result, :func:`~rpgdice.rulesets.seyruun.rules.attack_hit` and
    :func:`~rpgdice.rulesets.seyruun.rules.attack_outcome` on each pair, the damage pool of each
    hit (:func:`~rpgdice.rulesets.seyruun.rules.damage_pool_of`), every damage and soak result,
    and :func:`~rpgdice.rulesets.seyruun.rules.damage_dealt`."""

    @functools.cache
    def plain_results(dice: int) -> list[tuple[seyruun.SeyruunResult, Fraction]]:
        """Damage results of a pool rolling ``dice`` dice (what damage_dealt reads of a
        damage roll, its successes, does not depend on the overflow)."""
        return _seyruun_results(seyruun.PlainPool(dice))

    soak_pool = seyruun.plain_pool(spec.soak_total)
    soaks = _seyruun_results(soak_pool) if soak_pool is not None else [(None, Fraction(1))]
    defenses = _seyruun_results(spec.defense) if spec.defense is not None else [(None, Fraction(1))]
    outcomes: dict[str, Fraction] = {}
    pools: dict[int | None, Fraction] = {}
    """Probability of each damage pool (None: no damage roll, a miss)."""

    def add(table: dict[K, Fraction], key: K, p: Fraction) -> None:
        table[key] = table.get(key, Fraction(0)) + p

    for att, p_att in _seyruun_results(spec.attack):
        for dfn, p_dfn in defenses:
            p = p_att * p_dfn
            hit, _, extra = seyruun.attack_hit(spec, att, dfn)
            add(outcomes, seyruun.attack_outcome(att, hit), p)
            add(pools, seyruun.damage_pool_of(spec, att, hit, extra), p)
    dealt: dict[int, Fraction] = {}
    if spec.damage is not None:
        for total, p in pools.items():
            to_roll = seyruun.plain_pool(total)
            if to_roll is None:  # a miss, or a damage pool of 0 or less: nothing rolled
                add(dealt, seyruun.damage_dealt(None, None), p)
                continue
            for dmg, p_dmg in plain_results(to_roll.dice):
                for soak, p_soak in soaks:
                    add(dealt, seyruun.damage_dealt(dmg, soak), p * p_dmg * p_soak)
    by_name = named(outcomes, SEYRUUN_OUTCOMES)
    distribution = None
    mean = None
    if spec.damage is not None:
        distribution = {k: dealt.get(k, Fraction(0)) for k in range(max(dealt) + 1)}
        mean = sum((k * p for k, p in distribution.items()), Fraction(0))
    return SeyruunAttackOdds(hit=by_name["success"], outcomes=by_name, damage_dealt=distribution,
                             mean_damage=mean)


# Roll types: contest, extended, team -----------------------------------------------------


def _weighted(pool: seyruun.SeyruunPool | seyruun.PlainPool) -> tuple[list[tuple[seyruun.SeyruunResult, int]], int]:
    """Every distinct result of one roll of ``pool`` (merged by successes and outcome) with
    its weight, and the denominator the weights are out of: whole numbers, so a sequence
    of rolls multiplies integers, not fractions."""
    rolls = seyruun_class_die().pool(pool.dice).expand()
    found: dict[tuple[int, str], tuple[seyruun.SeyruunResult, int]] = {}
    for faces, quantity in rolls.items():
        r = seyruun.evaluate(pool, list(faces))
        rep, q = found.get((r.successes, r.outcome), (r, 0))
        found[(r.successes, r.outcome)] = (rep, q + quantity)
    return list(found.values()), rolls.denominator()


class _Side(NamedTuple):
    """What a contest reads of a side's roll: its successes."""

    successes: int


def seyruun_contest_odds(spec: seyruun.SeyruunContest) -> seyruun.SeyruunContestOdds:
    """Each side's exact odds (:func:`seyruun_odds`), and every pair of their success counts
    judged by :func:`rpgdice.rulesets.seyruun.rules.contest_winner` as a contest judges them
    (it reads the successes and the base Attributes, nothing else of a roll)."""
    attacker = seyruun_odds(spec.attacker)
    same = repr(spec.defender) == repr(spec.attacker)  # records compare by identity: by value
    defender = attacker if same else seyruun_odds(spec.defender)

    def judge(a: int, d: int) -> tuple[str, int]:
        side = seyruun.contest_winner(_Side(a), _Side(d),
                                      spec.attacker.attribute, spec.defender.attribute)
        return side, a - d

    outcomes, winner, margin = rolltypes_odds.contest_odds(
        attacker.successes.items(), defender.successes.items(), judge)
    return seyruun.SeyruunContestOdds(outcomes=outcomes, winner=winner, margin=margin,
                                      attacker=attacker, defender=defender)


def seyruun_extended_odds(spec: seyruun.SeyruunExtended) -> seyruun.SeyruunExtendedOdds:
    """The running total roll by roll, as :func:`rpgdice.rulesets.seyruun.rules.roll_extended`
    accumulates it: each roll's successes added, a botch ending the attempt
    (``EXTENDED_BOTCH_ENDS``), the target or the roll limit ending it."""
    from rpgdice.core.budget import check_odds, sequence_steps

    steps, denominator = _extended_steps(spec.pool)
    later = None  # a character's Willpower runs out: the rolls after go without the +3 dice
    if spec.willpower_budget is not None and spec.pool.willpower:
        later = (*_extended_steps(replace(spec.pool, willpower=False)), spec.willpower_budget)
    check_odds(sequence_steps(spec.target, spec.max_rolls, len(steps)), "--max-rolls",
               "this extended roll")
    outcomes, within, needed, expected = rolltypes_odds.extended_odds(
        steps, denominator, "botch", start=0, target=spec.target, max_rolls=spec.max_rolls,
        later=later)
    return seyruun.SeyruunExtendedOdds(
        outcomes=outcomes, within=within, rolls_needed=needed, expected_rolls=expected,
        target=spec.target, max_rolls=spec.max_rolls, roll=seyruun_odds(spec.pool),
        willpower_rolls=None if later is None else later[2],
    )


def _extended_steps(pool: seyruun.SeyruunPool) -> tuple[rolltypes_odds.Steps, int]:
    """One roll of an extended action: each (successes gained, ends the attempt) to its
    weight, and the denominator of those weights."""
    results, denominator = _weighted(pool)
    steps = rolltypes_odds.extended_steps(
        results, gain=lambda r: r.successes,
        ends=lambda r: seyruun.EXTENDED_BOTCH_ENDS and r.outcome == "botch")
    return steps, denominator


def seyruun_team_odds(spec: seyruun.SeyruunTeam) -> seyruun.SeyruunTeamOdds:
    """A team roll is one roll of the leader's pool with the assists' dice."""
    pool = seyruun.team_pool(spec.leader, spec.assists)
    one = seyruun_odds(pool, reroll=spec.reroll)
    return seyruun.SeyruunTeamOdds(outcomes=one.outcomes, total=one.successes, roll=one,
                                   assists=spec.assists)

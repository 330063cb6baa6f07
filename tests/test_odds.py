"""Exact odds (engine/odds.py) against the rules: exact sums, closed forms, brute
force over every face with the engine's own ``evaluate``, and seeded simulations."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rpgdice.core.dice import SeededDice
from rpgdice.rulesets.crytures import odds as cry_odds
from rpgdice.rulesets.crytures import rules as crytures
from rpgdice.rulesets.cypher import odds as cyp_odds
from rpgdice.rulesets.cypher import rules as cypher
from rpgdice.rulesets.reglas import odds as reg_odds
from rpgdice.rulesets.reglas import rules as reglas
from rpgdice.rulesets.seyruun import odds as sey_odds
from rpgdice.rulesets.seyruun import rules as seyruun


def all_rolls(n: int, sides: int = 10):
    """Every sequence of n faces, each with probability 1/sides**n."""
    weight = Fraction(1, sides**n)
    for faces in itertools.product(range(1, sides + 1), repeat=n):
        yield list(faces), weight


def tally(pairs) -> dict:
    out: dict = {}
    for key, weight in pairs:
        out[key] = out.get(key, Fraction(0)) + weight
    return out


def nonzero(probs: dict) -> dict:
    return {k: v for k, v in probs.items() if v}


# Every probability map sums to exactly 1 ----------------------------------------------

CRYTURES_SPECS = [
    crytures.CryturesRoll(0),
    crytures.CryturesRoll(3, die_mods=(-5,)),
    crytures.CryturesRoll(1),
    crytures.CryturesRoll(6, roll_mods=(2,)),
    crytures.CryturesRoll(5, difficulty=12, roll_mods=(1,)),  # above 10 + mod: a 10 counts once
    crytures.CryturesRoll(4, difficulty=1, complexity=3, attack=True),
    crytures.CryturesRoll(40),
    crytures.CryturesRoll(200, roll_mods=(-3,), difficulty=9, complexity=30),
]
SEYRUUN_POOLS = [
    seyruun.SeyruunPool(0),  # untrained: −1 → chance die
    seyruun.SeyruunPool(2, 1, wound="crippled"),  # chance die
    seyruun.SeyruunPool(1, 1),
    seyruun.SeyruunPool(3, 3, required=2),
    seyruun.SeyruunPool(5, 5, bonuses=(4, 4), willpower=True, required=5),  # capped, overflow
]


@pytest.mark.parametrize("spec", CRYTURES_SPECS, ids=repr)
def test_crytures_odds_sum_to_one(spec):
    o = cry_odds.crytures_odds(spec)
    assert sum(o.outcomes.values()) == 1
    assert sum(o.successes.values()) == 1
    assert o.at_least[0] == 1
    assert all(isinstance(p, Fraction) for p in o.successes.values())
    assert list(o.successes) == list(range(len(o.successes)))  # every count, zeros included


@pytest.mark.parametrize("reroll", [False, True])
@pytest.mark.parametrize("pool", SEYRUUN_POOLS, ids=repr)
def test_seyruun_odds_sum_to_one(pool, reroll):
    o = sey_odds.seyruun_odds(pool, reroll)
    assert set(o.outcomes) == {"success", "failure", "botch"}
    assert sum(o.outcomes.values()) == 1
    assert sum(o.successes.values()) == 1
    assert sum(o.tiers.values()) == o.outcomes["success"]
    assert o.multiple_critical <= o.critical


@pytest.mark.parametrize("index,difficulty,mods", [(0, 0, ()), (5, 2, ()), (10, 8, (3,)), (3, 0, (-9,))])
def test_reglas_odds_sum_to_one(index, difficulty, mods):
    o = reg_odds.reglas_odds(reglas.ReglasRoll(index, difficulty, mods=mods))
    assert sum(o.outcomes.values()) == 1
    assert sum(o.fumble_grades.values()) == o.outcomes["fumble"]


@pytest.mark.parametrize("difficulty", range(11))
@pytest.mark.parametrize("attack", [False, True])
def test_cypher_odds_sum_to_one(difficulty, attack):
    o = cyp_odds.cypher_odds(cypher.CypherTask(difficulty, bonus=2, attack=attack))
    assert sum(o.outcomes.values()) == 1
    assert set(o.special) == {"gm_intrusion", "plus_1_damage", "plus_2_damage", "minor_effect", "major_effect"}
    assert sum(o.special.values()) <= 1


# Closed forms ------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(1, 11))
def test_seyruun_botch_closed_form(n):
    pool = seyruun.SeyruunPool(n + 1)  # untrained: Attribute − 1 = n dice
    assert pool.dice == n and not pool.chance_die
    o = sey_odds.seyruun_odds(pool)
    # No die shows 6+ (1/2 each), minus the rolls where no die shows a 1 either (2-5: 2/5 each).
    assert o.outcomes["botch"] == Fraction(1, 2) ** n - Fraction(2, 5) ** n
    assert o.critical == 1 - Fraction(9, 10) ** n


@pytest.mark.parametrize("d", range(0, 7))
def test_cypher_unmodified_success_closed_form(d):
    o = cyp_odds.cypher_odds(cypher.CypherTask(d))
    expected = Fraction(1) if d == 0 else Fraction(21 - 3 * d, 20)
    assert o.outcomes["success"] == expected


def test_cypher_beyond_twenty_is_impossible():
    o = cyp_odds.cypher_odds(cypher.CypherTask(7))
    assert o.outcomes == {"success": 0, "failure": 1}
    assert o.impossible and sum(o.special.values()) == 0


@pytest.mark.parametrize("n", range(1, 30, 7))
def test_crytures_default_difficulty_closed_form(n):
    # Difficulty 6, no modifiers: a roll fails only when every die shows 1-5.
    o = cry_odds.crytures_odds(crytures.CryturesRoll(n))
    assert o.outcomes["failure"] == Fraction(1, 2) ** n
    assert o.mean_successes == Fraction(6, 10) * n  # 4/10 one success, 1/10 two


@pytest.mark.slow
def test_crytures_thousand_dice_is_bounded_and_exact():
    # The largest pool the rules allow. Difficulty 11 with +1: only 10s meet it, and a 10 counts twice.
    o = cry_odds.crytures_odds(crytures.CryturesRoll(1000, roll_mods=(1,), difficulty=11))
    assert o.successes[2000] == Fraction(1, 10) ** 1000
    assert sum(o.successes.values()) == 1


# Brute force: every face, scored by the engine's own evaluate --------------------------


@pytest.mark.parametrize(
    "spec",
    [
        crytures.CryturesRoll(0),
        crytures.CryturesRoll(2, die_mods=(1,), complexity=2),
        crytures.CryturesRoll(3, roll_mods=(2,), difficulty=9, attack=True),
        crytures.CryturesRoll(3, roll_mods=(-2,), difficulty=11),
        crytures.CryturesRoll(4, difficulty=4, complexity=5),
        crytures.CryturesRoll(2, roll_mods=(4,), difficulty=1),
        crytures.CryturesRoll(3, difficulty=8, complexity=4, attack=True, crit_hits=3),
        crytures.CryturesRoll(2, complexity=3, attack=True, crit_hits=0),
    ],
    ids=repr,
)
def test_crytures_odds_equal_every_roll_scored(spec):
    results = [(crytures.evaluate(spec, faces), w) for faces, w in all_rolls(spec.pool)]
    o = cry_odds.crytures_odds(spec)
    assert nonzero(o.outcomes) == tally((r.outcome, w) for r, w in results)
    assert nonzero(o.successes) == tally((r.successes, w) for r, w in results)
    assert o.critical == sum(w for r, w in results if r.natural_tens)


def seyruun_standing_by_brute_force(pool, reroll):
    """Every first roll and, where the rules re-roll, every second roll: the roll that stands.

    The second roll is independent of the first, so each first roll that is re-rolled
    is followed by every roll of the pool, weighted by the chance of the first."""
    once = [(seyruun.evaluate(pool, faces), w) for faces, w in all_rolls(pool.dice)]
    if not reroll:
        return once
    rerolled = sum(w for r, w in once if r.outcome != "success")
    return [(r, w) for r, w in once if r.outcome == "success"] + [(r, w * rerolled) for r, w in once]


@pytest.mark.parametrize("reroll", [False, True])
@pytest.mark.parametrize(
    "pool",
    [
        seyruun.SeyruunPool(0),  # chance die
        seyruun.SeyruunPool(2),  # one die
        seyruun.SeyruunPool(1, 1, required=2),
        seyruun.SeyruunPool(2, 1, required=3),
        seyruun.SeyruunPool(2, 2, penalties=(1,), required=2),
    ],
    ids=repr,
)
def test_seyruun_odds_equal_every_roll_scored(pool, reroll):
    results = seyruun_standing_by_brute_force(pool, reroll)
    o = sey_odds.seyruun_odds(pool, reroll)
    assert nonzero(o.outcomes) == tally((r.outcome, w) for r, w in results)
    assert nonzero(o.successes) == tally((r.successes, w) for r, w in results)
    assert nonzero(o.tiers) == tally((r.tier, w) for r, w in results if r.tier)
    assert o.critical == sum(w for r, w in results if r.tens)
    assert o.multiple_critical == sum(w for r, w in results if r.multiple_critical)


@pytest.mark.parametrize("index", [0, 1, 3, 7, 10, 15])
@pytest.mark.parametrize("difficulty,raises,mods,attempt", [(0, 0, (), 1), (2, 1, (1,), 1), (4, 0, (-2,), 3)])
def test_reglas_odds_equal_every_face_scored(index, difficulty, raises, mods, attempt):
    spec = reglas.ReglasRoll(index, difficulty, raises, mods, attempt)
    results = [(reglas.evaluate(spec, f), Fraction(1, 10)) for f in range(1, 11)]
    o = reg_odds.reglas_odds(spec)
    assert nonzero(o.outcomes) == tally((r.outcome, w) for r, w in results)
    assert o.fumble_grades == tally((r.fumble_grade, w) for r, w in results if r.fumble_grade)
    assert o.critical == sum(w for r, w in results if r.critical)


@pytest.mark.parametrize(
    "task",
    [
        cypher.CypherTask(0),
        cypher.CypherTask(3, skill="trained", asset=1, attack=True),
        cypher.CypherTask(5, hinder=2, bonus=3),
        cypher.CypherTask(8, effort=2, skill="inability"),
        cypher.CypherTask(9, bonus=4, attack=True),
    ],
    ids=repr,
)
def test_cypher_odds_equal_every_face_scored(task):
    if task.routine or task.impossible:
        results = [(cypher.evaluate(task, None), Fraction(1))]
    else:
        results = [(cypher.evaluate(task, f), Fraction(1, 20)) for f in range(1, 21)]
    o = cyp_odds.cypher_odds(task)
    assert nonzero(o.outcomes) == tally((r.outcome, w) for r, w in results)
    assert nonzero(o.special) == tally((r.special, w) for r, w in results if r.special)


# Seeded simulations agree within statistical bounds ----------------------------------

ROLLS = 1500
SIGMAS = 5


def assert_close(counts: Counter, exact: dict, rolls: int = ROLLS) -> None:
    """Each observed frequency within SIGMAS standard deviations of the exact chance;
    an impossible (or certain) outcome must never (always) happen."""
    for key, p in exact.items():
        seen = counts.get(key, 0) / rolls
        if p in (0, 1):
            assert seen == p, (key, seen, p)
            continue
        sigma = math.sqrt(p * (1 - p) / rolls)
        assert abs(seen - p) <= SIGMAS * sigma + 1 / rolls, (key, seen, float(p))
    assert set(counts) <= set(exact), (counts, exact)


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(
    pool=st.integers(0, 25),
    die_mod=st.integers(-3, 3),
    roll_mod=st.integers(-4, 4),
    difficulty=st.integers(1, 14),
    complexity=st.integers(1, 8),
    seed=st.integers(0, 2**32),
)
def test_crytures_simulation_agrees(pool, die_mod, roll_mod, difficulty, complexity, seed):
    spec = crytures.CryturesRoll(pool, (die_mod,), (roll_mod,), difficulty, complexity)
    source = SeededDice(seed)
    rolls = [crytures.roll(spec, source) for _ in range(ROLLS)]
    o = cry_odds.crytures_odds(spec)
    assert_close(Counter(r.outcome for r in rolls), o.outcomes)
    assert_close(Counter(r.successes for r in rolls), o.successes)
    assert_close(Counter(r.natural_tens > 0 for r in rolls), {True: o.critical, False: 1 - o.critical})


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(
    attribute=st.integers(0, 8),
    skill=st.one_of(st.none(), st.integers(0, 5)),
    penalty=st.integers(0, 6),
    willpower=st.booleans(),
    required=st.integers(1, 5),
    reroll=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_seyruun_simulation_agrees(attribute, skill, penalty, willpower, required, reroll, seed):
    pool = seyruun.SeyruunPool(attribute, skill, penalties=(penalty,), willpower=willpower,
                               required=required)
    source = SeededDice(seed)
    rolls = [seyruun.roll(pool, source, reroll=reroll) for _ in range(ROLLS)]
    o = sey_odds.seyruun_odds(pool, reroll)
    assert_close(Counter(r.outcome for r in rolls), o.outcomes)
    assert_close(Counter(r.successes for r in rolls), o.successes)
    assert_close(Counter(r.multiple_critical for r in rolls),
                 {True: o.multiple_critical, False: 1 - o.multiple_critical})


@settings(max_examples=15, deadline=None)
@given(index=st.integers(0, 20), difficulty=st.integers(0, 10), mod=st.integers(-5, 5),
       seed=st.integers(0, 2**32))
def test_reglas_simulation_agrees(index, difficulty, mod, seed):
    spec = reglas.ReglasRoll(index, difficulty, mods=(mod,))
    source = SeededDice(seed)
    rolls = [reglas.roll(spec, source) for _ in range(ROLLS)]
    o = reg_odds.reglas_odds(spec)
    assert_close(Counter(r.outcome for r in rolls), o.outcomes)
    assert_close(Counter(r.fumble_grade for r in rolls if r.fumble_grade), o.fumble_grades)


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(difficulty=st.integers(0, 10), ease=st.integers(0, 3), hinder=st.integers(0, 3),
       bonus=st.integers(0, 5), attack=st.booleans(), seed=st.integers(0, 2**32))
def test_cypher_simulation_agrees(difficulty, ease, hinder, bonus, attack, seed):
    task = cypher.CypherTask(difficulty, ease=ease, hinder=hinder, bonus=bonus, attack=attack)
    source = SeededDice(seed)
    rolls = [cypher.roll(task, source) for _ in range(ROLLS)]
    o = cyp_odds.cypher_odds(task)
    assert_close(Counter(r.outcome for r in rolls), o.outcomes)
    assert_close(Counter(r.special for r in rolls if r.special), o.special)

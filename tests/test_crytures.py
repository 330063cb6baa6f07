"""Crytures (seed 000) as RULES.md computes it, with given faces."""

import pytest
from hypothesis import given, strategies as st

from conftest import assert_usage_error, cli, cli_one
from rpgdice.engine.crytures import DEFAULT_DIFFICULTY, CryturesRoll, evaluate, roll
from rpgdice.engine.dice import GivenDice
from rpgdice.engine.errors import RulesError


def test_roll_modifier_example_from_the_text():
    # "a dice pool of 6 with a +2 roll modifier, and roll 4, 7, 2, 6, 9, and 3 ...
    #  resulting in 6, 9, 4, 8, 11, and 5."
    r = evaluate(CryturesRoll(6, roll_mods=(2,)), [4, 7, 2, 6, 9, 3])
    assert [d.value for d in r.dice] == [6, 9, 4, 8, 11, 5]
    # Against the default Difficulty 6: 6, 9, 8, 11 are hits.
    assert [d.successes for d in r.dice] == [1, 1, 0, 1, 1, 0]
    assert r.successes == 4


def test_die_modifier_example_from_the_text():
    # "a dice pool of 6, but get a +3 die modifier ... you'll roll 9d10"
    assert CryturesRoll(6, die_mods=(3,)).pool == 9
    obj = cli_one("crytures", "roll", "6", "--die-mod", "3", "--seed", "1")
    assert obj["pool"] == 9 and len(obj["dice"]) == 9


def test_pool_may_be_a_sum_and_die_mods_repeat():
    obj = cli_one("crytures", "roll", "3+2", "--die-mod", "2", "--die-mod", "-1", "--seed", "7")
    assert obj["pool"] == 6


@pytest.mark.parametrize(
    "face, mod, difficulty, expected",
    [
        (10, 0, 6, 2),   # natural 10 meeting the Difficulty: two successes
        (10, 0, 11, 1),  # above 10 + roll modifier: counts once, always a success
        (10, 2, 12, 2),  # 10 + 2 meets 12
        (10, -5, 6, 1),  # modified below the Difficulty, still a success
        (9, 0, 10, 0),
        (9, 1, 10, 1),   # a 9 with +1 is not a natural 10: one success
        (1, 0, 1, 1),
    ],
)
def test_natural_ten_rule(face, mod, difficulty, expected):
    r = evaluate(CryturesRoll(1, roll_mods=(mod,), difficulty=difficulty), [face])
    assert r.dice[0].successes == expected
    assert r.natural_tens == (1 if face == 10 else 0)


def test_difficulty_default_is_six_and_is_reported():
    assert DEFAULT_DIFFICULTY == 6
    obj = cli_one("crytures", "roll", "2", "--dice", "6,5")
    assert obj["difficulty"] == 6 and obj["successes"] == 1
    assert "Difficulty 6" in cli("crytures", "roll", "2", "--dice", "6,5").stdout


def test_complexity_and_extra_successes():
    spec = CryturesRoll(4, complexity=3)
    ok = evaluate(spec, [6, 7, 10, 1])  # 1 + 1 + 2 = 4
    assert (ok.outcome, ok.successes, ok.extra_successes) == ("success", 4, 1)
    short = evaluate(spec, [6, 7, 1, 1])
    assert (short.outcome, short.successes, short.extra_successes) == ("failure", 2, 0)
    # Complexity 1: the "bonuses for each success beyond the first"
    assert evaluate(CryturesRoll(3), [6, 6, 6]).extra_successes == 2


def test_critical_hits_only_on_attacks():
    faces = [10, 10, 3]
    assert evaluate(CryturesRoll(3, attack=True), faces).critical_hits == 2
    plain = evaluate(CryturesRoll(3), faces)
    assert plain.critical_hits == 0 and plain.natural_tens == 2
    out = cli("crytures", "roll", "3", "--attack", "--dice", "10,10,3").stdout
    assert "2 critical hits" in out and "Crit effect" in out


def test_modifiers_removing_every_die_roll_nothing_and_fail():
    spec = CryturesRoll(2, die_mods=(-3,))
    r = roll(spec, GivenDice([]))
    assert (r.pool, r.successes, r.outcome, r.no_dice, r.dice) == (0, 0, "failure", True, [])
    run = cli("crytures", "roll", "2", "--die-mod", "-2")
    assert run.exit_code == 0 and "removed every die" in run.stdout
    # No die is rolled, so a given face is one too many.
    assert_usage_error(cli("crytures", "roll", "2", "--die-mod", "-2", "--dice", "5"), "--dice", "too many")


def test_json_keys():
    obj = cli_one("crytures", "roll", "6", "--roll-mod", "2", "--dice", "4,7,2,6,9,3")
    for key in ("ruleset", "command", "pool", "difficulty", "complexity", "roll_mod", "dice",
                "successes", "extra_successes", "natural_tens", "critical_hits", "outcome"):
        assert key in obj
    assert obj["ruleset"] == "crytures" and obj["command"] == "roll"
    assert obj["dice"][0] == {"face": 4, "value": 6, "successes": 1}
    assert obj["roll_mod"] == 2 and obj["outcome"] == "success"


@pytest.mark.parametrize(
    "args, fragments",
    [
        (["0", "-d", "0"], ["--difficulty"]),
        (["3", "-c", "0"], ["--complexity"]),
        (["-1"], []),
        (["3", "--die-mod", "2000"], ["--die-mod"]),
        (["900", "--die-mod", "200"], ["1000"]),
        (["3", "--dice", "1,2"], ["--dice", "too few"]),
        (["3", "--dice", "1,2,11"], ["--dice", "11"]),
    ],
)
def test_bad_input(args, fragments):
    assert_usage_error(cli("crytures", "roll", *args), *fragments)


def test_engine_validates_its_inputs():
    with pytest.raises(RulesError):
        CryturesRoll(-1)
    with pytest.raises(RulesError):
        CryturesRoll(1001)


@given(
    st.integers(0, 12),
    st.lists(st.integers(-5, 5), max_size=3),
    st.integers(1, 14),
    st.integers(1, 5),
    st.data(),
)
def test_invariants(pool, mods, difficulty, complexity, data):
    spec = CryturesRoll(pool, roll_mods=tuple(mods), difficulty=difficulty, complexity=complexity)
    faces = data.draw(st.lists(st.integers(1, 10), min_size=pool, max_size=pool))
    r = evaluate(spec, faces)
    assert r.successes == sum(d.successes for d in r.dice)
    for d in r.dice:
        assert d.value == d.face + sum(mods)
        assert d.successes == (d.value >= difficulty) + (d.face == 10)
    assert (r.outcome == "success") == (r.successes >= complexity)
    assert r.extra_successes == (max(0, r.successes - complexity) if r.outcome == "success" else 0)


def test_no_faces_fit_a_roll_that_rolls_nothing():
    obj = cli_one("crytures", "roll", "2", "--die-mod", "-3", "--dice", "")
    assert obj["pool"] == 0 and obj["dice"] == [] and obj["outcome"] == "failure"

"""Crytures (seed 000) as RULES.md computes it, with given faces."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import assert_usage_error, cli, cli_one
from rpgdice.core.dice import GivenDice
from rpgdice.core.errors import RulesError
from rpgdice.rulesets.crytures.rules import DEFAULT_DIFFICULTY, CryturesRoll, evaluate, roll


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
        (["0", "-d", "0"], ["-d:"]),
        (["0", "--difficulty", "0"], ["--difficulty:"]),
        (["3", "-c", "0"], ["-c:"]),
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


# Critical hits (RULES.md, revised): in an attack each natural 10 adds --crit-hits successes
# (default 1) after the dice are counted, before the Complexity check.


def test_a_critical_hit_adds_one_success_by_default_before_the_complexity_check():
    # Faces 10, 2: the 10 meets Difficulty 6 (2 successes) and, in an attack, hits once more.
    r = evaluate(CryturesRoll(2, complexity=3, attack=True), [10, 2])
    assert (r.successes, r.critical_hits, r.crit_hits, r.outcome) == (3, 1, 1, "success")
    assert [d.successes for d in r.dice] == [2, 0]  # the dice keep their own successes
    assert r.extra_successes == 0
    # Outside an attack the same faces give 2: failure against Complexity 3.
    plain = evaluate(CryturesRoll(2, complexity=3), [10, 2])
    assert (plain.successes, plain.critical_hits, plain.crit_hits, plain.outcome) == (2, 0, 0, "failure")


@pytest.mark.parametrize("crit_hits, successes", [(0, 4), (1, 6), (2, 8), (5, 14)])
def test_crit_hits_sets_the_hits_each_critical_hit_adds(crit_hits, successes):
    # Faces 10, 10, 7, 3 against Difficulty 11 with roll mod +1: each 10 (→11) gives 2,
    # the 7 (→8) and the 3 (→4) none; the two critical hits add 2 × crit_hits.
    spec = CryturesRoll(4, roll_mods=(1,), difficulty=11, attack=True, crit_hits=crit_hits)
    r = evaluate(spec, [10, 10, 7, 3])
    assert r.successes == successes
    obj = cli_one("crytures", "roll", "4", "--roll-mod", "1", "-d", "11", "--attack",
                  "--crit-hits", str(crit_hits), "--dice", "10,10,7,3")
    assert obj["crit_hits"] == crit_hits and obj["critical_hits"] == 2
    assert obj["successes"] == 4 + 2 * crit_hits
    assert obj["successes"] == sum(d["successes"] for d in obj["dice"]) + 2 * crit_hits


def test_crit_hits_reach_the_complexity():
    args = ["crytures", "roll", "2", "-c", "5", "--attack", "--dice", "10,10"]
    # Two 10s meeting Difficulty 6: 4 successes from the dice, +1 for each critical hit.
    assert (cli_one(*args)["successes"], cli_one(*args)["outcome"]) == (6, "success")
    assert (cli_one(*args, "--crit-hits", "0")["successes"],
            cli_one(*args, "--crit-hits", "0")["outcome"]) == (4, "failure")
    # Difficulty 11: each 10 counts once (10 < 11), plus 1 hit each: 4 reach Complexity 4.
    obj = cli_one(*args, "-d", "11", "-c", "4")
    assert (obj["successes"], obj["outcome"], obj["extra_successes"]) == (4, "success", 0)
    assert cli_one(*args, "-d", "11", "-c", "4", "--crit-hits", "0")["outcome"] == "failure"


def test_json_crit_hits_defaults():
    assert cli_one("crytures", "roll", "3", "--attack", "--dice", "1,2,3")["crit_hits"] == 1
    assert cli_one("crytures", "roll", "3", "--dice", "1,2,3")["crit_hits"] == 0


def test_crit_hits_needs_an_attack_and_is_not_negative():
    assert_usage_error(cli("crytures", "roll", "3", "--crit-hits", "2", "--dice", "1,2,3"),
                       "--crit-hits", "--attack")
    assert_usage_error(cli("crytures", "roll", "3", "--attack", "--crit-hits", "-1", "--dice", "1,2,3"),
                       "--crit-hits")
    assert_usage_error(cli("crytures", "odds", "3", "--crit-hits", "1"), "--crit-hits")


def test_odds_count_critical_hits():
    # One die in an attack at Difficulty 11: faces 1-9 give 0, a 10 gives 1 + crit_hits.
    for n, top in ((0, 1), (1, 2), (3, 4)):
        obj = cli_one("crytures", "odds", "1", "-d", "11", "--attack", "--crit-hits", str(n))
        assert obj["successes"][str(top)] == pytest.approx(0.1)
        assert obj["crit_hits"] == n

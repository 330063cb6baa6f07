"""Seyruun (seed 001) as RULES.md computes it, with given faces."""

import pytest

from conftest import assert_usage_error, cli, cli_one
from rpgdice.core.dice import GivenDice
from rpgdice.rulesets.seyruun.rules import DIFFICULTIES, SeyruunPool, evaluate, roll, tier_for


def test_stealth_example_builds_seven_dice():
    # "Dexterity ●●● + Stealth ●●● + Silencing Boots (+1) = 7 dice. Roll 7d10."
    assert SeyruunPool(3, 3, bonuses=(1,)).dice == 7
    obj = cli_one("seyruun", "roll", "3", "3", "--bonus", "1", "--dice", "1,2,3,4,5,6,7")
    assert obj["pool"] == 7 and len(obj["dice"]) == 7
    out = cli("seyruun", "roll", "3", "3", "--bonus", "1", "--dice", "1,2,3,4,5,6,7").stdout
    assert "Attribute 3 + Skill 3 + bonus 1 = 7" in out


def test_the_view_shows_how_the_pool_was_built():
    out = cli("seyruun", "roll", "3", "--wound", "moderate", "--bonus", "7", "--willpower",
              "--dice", "1,2,3,4,5,6,7,8", env={"COLUMNS": "200"}).stdout
    assert "Attribute 3 untrained −1 + bonus 5 + Willpower 3 − wound moderate 2 = 8" in out
    assert "capped at +5 (2 lost)" in out


@pytest.mark.parametrize("skill", [None, 0])
def test_untrained_rolls_attribute_minus_one(skill):
    pool = SeyruunPool(3, skill)
    assert pool.untrained and pool.dice == 2


def test_external_bonuses_cap_at_five_but_willpower_does_not():
    pool = SeyruunPool(2, 2, bonuses=(3, 4))
    assert (pool.bonus, pool.bonus_capped, pool.dice) == (5, 2, 9)
    assert SeyruunPool(1, 1, bonuses=(5,), willpower=True).total == 2 + 5 + 3
    out = cli("seyruun", "roll", "2", "2", "--bonus", "3", "--bonus", "4", "--seed", "1").stdout
    assert "capped at +5" in out


@pytest.mark.parametrize("wound, penalty", [("light", 1), ("moderate", 2), ("severe", 3), ("crippled", 5)])
def test_wounds(wound, penalty):
    assert SeyruunPool(5, 5, wound=wound).dice == 10 - penalty


def test_penalties_and_multiple_actions_add_up():
    # (decision) −2 for each action beyond the first.
    pool = SeyruunPool(4, 4, penalties=(1, 2), wound="light", actions=3)
    assert pool.penalty == 1 + 2 + 1 + 4
    assert pool.total == 0 and pool.chance_die and pool.dice == 1


def test_eleven_or_more_rolls_ten_with_overflow():
    pool = SeyruunPool(5, 5, bonuses=(3,))
    assert (pool.total, pool.dice, pool.overflow) == (13, 10, 3)
    obj = cli_one("seyruun", "roll", "5", "5", "--bonus", "3", "--seed", "2")
    assert obj["pool"] == 10 and obj["overflow"] == 3
    assert "overflow 3" in cli("seyruun", "roll", "5", "5", "--bonus", "3", "--seed", "2").stdout


@pytest.mark.parametrize("attribute, skill, penalty", [(1, None, 0), (2, 1, 3), (1, 1, 9)])
def test_zero_or_less_rolls_a_chance_die(attribute, skill, penalty):
    pool = SeyruunPool(attribute, skill, penalties=(penalty,) if penalty else ())
    assert pool.chance_die and pool.dice == 1


@pytest.mark.parametrize(
    "face, outcome, successes, tier",
    [(10, "success", 1, "just"), (1, "botch", 0, None), (5, "failure", 0, None), (9, "failure", 0, None)],
)
def test_chance_die(face, outcome, successes, tier):
    # A 10 succeeds whatever the difficulty; a 1 is a dramatic botch; else failure.
    r = evaluate(SeyruunPool(0, required=4), [face])
    assert (r.outcome, r.successes, r.tier, r.chance_die, r.pool) == (outcome, successes, tier, True, 1)


def test_counting_successes():
    r = evaluate(SeyruunPool(3, 2), [6, 9, 10, 5, 1])
    assert [d.successes for d in r.dice] == [1, 1, 2, 0, 0]
    assert (r.successes, r.tens, r.ones) == (4, 1, 1)


def test_botch_failure_and_success():
    pool = SeyruunPool(2, 1, required=2)
    assert evaluate(pool, [1, 3, 5]).outcome == "botch"      # no successes, a 1
    assert evaluate(pool, [2, 3, 5]).outcome == "failure"    # no successes, no 1
    assert evaluate(pool, [1, 7, 5]).outcome == "failure"    # a success but too few: not a botch
    assert evaluate(pool, [10, 1, 5]).outcome == "success"


def test_difficulty_names_and_numbers():
    assert DIFFICULTIES == {"simple": 1, "moderate": 2, "complex": 3, "epic": 4, "legendary": 5}
    assert cli_one("seyruun", "roll", "2", "1", "-d", "Legendary", "--dice", "6,6,6")["required"] == 5
    assert cli_one("seyruun", "roll", "2", "1", "-d", "7", "--dice", "6,6,6")["required"] == 7
    assert_usage_error(cli("seyruun", "roll", "2", "-d", "0"), "-d:")
    assert_usage_error(cli("seyruun", "roll", "2", "-d", "legend"), "-d:", "legendary")


@pytest.mark.parametrize(
    "margin, tier", [(0, "just"), (1, "solid"), (2, "solid"), (3, "heroic"), (4, "heroic"), (5, "supernatural"),
                     (9, "supernatural"), (-1, None)]
)
def test_margin_tiers(margin, tier):
    # RULES.md (revised): the tier is read from the margin over the successes required.
    assert tier_for(margin) == tier


@pytest.mark.parametrize("required, faces, tier", [
    (1, [6, 2, 3, 4], "just"),            # 1 success, 1 needed: margin 0
    (3, [6, 7, 8, 2], "just"),            # 3 of 3: just enough above a simple task too
    (3, [6, 7, 10, 2], "solid"),          # 4 of 3: margin 1
    (2, [10, 10, 2, 3], "solid"),         # 4 of 2: margin 2
    (2, [10, 10, 6, 3], "heroic"),        # 5 of 2: margin 3
    (1, [10, 10, 6, 3], "heroic"),        # 5 of 1: margin 4
    (1, [10, 10, 6, 7], "supernatural"),  # 6 of 1: margin 5
    (4, [10, 10, 10, 10], "heroic"),      # 8 of 4: margin 4
])
def test_tier_by_margin_over_required(required, faces, tier):
    r = evaluate(SeyruunPool(2, 2, required=required), faces)
    assert r.outcome == "success" and r.tier == tier
    obj = cli_one("seyruun", "roll", "2", "2", "-d", str(required), "--dice", ",".join(map(str, faces)))
    assert obj["tier"] == tier


def test_tier_is_null_unless_a_success():
    r = evaluate(SeyruunPool(2, 1, required=3), [6, 7, 2])
    assert r.outcome == "failure" and r.tier is None


def test_multiple_tens_unlock_heightened_criticals():
    assert evaluate(SeyruunPool(2, 1), [10, 10, 2]).multiple_critical
    assert not evaluate(SeyruunPool(2, 1), [10, 3, 2]).multiple_critical


def test_willpower_reroll_of_a_failed_roll_stands():
    pool = SeyruunPool(2, 1, willpower=True)  # 3 + 3 = 6 dice
    r = roll(pool, GivenDice([1, 2, 3, 4, 5, 1, 6, 2, 3, 4, 5, 2]), reroll=True)
    assert r.rerolled is not None and r.rerolled.outcome == "botch"
    assert r.outcome == "success" and r.willpower_spent == 2
    obj = cli_one("seyruun", "roll", "2", "1", "--willpower", "--reroll",
                  "--dice", "1,2,3,4,5,1,6,2,3,4,5,2")
    assert obj["rerolled"]["outcome"] == "botch" and obj["willpower_spent"] == 2


def test_a_successful_roll_is_not_rerolled():
    r = roll(SeyruunPool(2, 1), GivenDice([6, 2, 3]), reroll=True)
    assert r.rerolled is None and r.willpower_spent == 0
    # ... so faces for a second roll are too many.
    assert_usage_error(cli("seyruun", "roll", "2", "1", "--reroll", "--dice", "6,2,3,1,1,1"), "too many")


def test_json_keys():
    obj = cli_one("seyruun", "roll", "3", "3", "--dice", "1,2,3,4,5,6")
    for key in ("ruleset", "command", "pool", "chance_die", "overflow", "required", "dice", "successes",
                "tens", "ones", "tier", "willpower_spent", "outcome"):
        assert key in obj
    assert obj["dice"][5] == {"face": 6, "successes": 1}


@pytest.mark.parametrize(
    "args, fragments",
    [
        (["3", "--wound", "mortal"], ["--wound", "'mortal' is not one of none, light, moderate, severe, crippled"]),
        (["3", "--actions", "0"], ["--actions"]),
        (["3", "--bonus", "-1"], ["--bonus"]),
        (["-3"], []),
        (["3", "x"], ["SKILL"]),
    ],
)
def test_bad_input(args, fragments):
    assert_usage_error(cli("seyruun", "roll", *args), *fragments)


def test_wound_names_match_loosely():
    assert cli_one("seyruun", "roll", "5", "5", "--wound", "SEVERE", "--seed", "1")["pool"] == 7

"""Seyruun roll types: contested / resisted, extended, team (RULES.md, CLI.md)."""

from __future__ import annotations

import pytest

from conftest import assert_usage_error, cli, cli_json, cli_one
from rpgdice.core.dice import GivenDice
from rpgdice.core.sequence import DEFAULT_MAX_ROLLS, MAX_ROLLS
from rpgdice.rulesets.seyruun import rules as seyruun


def faces(*fs: int) -> str:
    return ",".join(map(str, fs))


# Contest ------------------------------------------------------------------------------


def test_contest_more_successes_wins_and_faces_go_attacker_first():
    # 3+2 rolls 5 dice, 2+3 rolls 5: attacker 6 7 8 2 2 = 3 successes; defender 6 2 2 2 2 = 1.
    obj = cli_one("seyruun", "contest", "3+2", "2+3", "--dice", faces(6, 7, 8, 2, 2, 6, 2, 2, 2, 2))
    assert obj["command"] == "contest"
    assert [d["face"] for d in obj["attacker"]["dice"]] == [6, 7, 8, 2, 2]
    assert [d["face"] for d in obj["defender"]["dice"]] == [6, 2, 2, 2, 2]
    assert obj["attacker"]["successes"] == 3 and obj["defender"]["successes"] == 1
    assert obj["winner"] == "attacker" and obj["outcome"] == "success"
    assert obj["margin"] == 2
    assert obj["rolls"] == [obj["attacker"], obj["defender"]]


def test_contest_defender_with_more_successes_wins():
    obj = cli_one("seyruun", "contest", "3+2", "2+3", "--dice", faces(6, 2, 2, 2, 2, 6, 7, 2, 2, 2))
    assert obj["winner"] == "defender" and obj["outcome"] == "failure"


@pytest.mark.parametrize(
    "attacker, defender, winner",
    [("4+1", "3+2", "attacker"),  # tie, attacker's base Attribute higher
     ("3+2", "3+2", "defender"),  # tie, equal Attributes: the defender
     ("2+3", "3+2", "defender")],  # tie, attacker's lower
)
def test_contest_tie_goes_to_defender_unless_attacker_has_higher_attribute(attacker, defender, winner):
    obj = cli_one("seyruun", "contest", attacker, defender, "--dice", faces(6, 2, 2, 2, 2, 7, 3, 3, 3, 3))
    assert obj["attacker"]["successes"] == obj["defender"]["successes"] == 1
    assert obj["tie"] is True
    assert obj["winner"] == winner
    assert obj["outcome"] == ("success" if winner == "attacker" else "failure")


def test_contest_winner_engine_function_both_ways():
    pool = seyruun.SeyruunPool(attribute=2, skill=1)
    one = seyruun.evaluate(pool, [6, 2, 2])
    assert seyruun.contest_winner(one, one, 3, 2) == "attacker"
    assert seyruun.contest_winner(one, one, 2, 2) == "defender"
    assert seyruun.contest_winner(one, one, 1, 2) == "defender"
    two = seyruun.evaluate(pool, [6, 7, 2])
    assert seyruun.contest_winner(one, two, 5, 1) == "defender"
    assert seyruun.contest_winner(two, one, 1, 5) == "attacker"


def test_contest_sides_follow_every_pool_rule():
    # Attacker 3+2+4+4: 8 bonus dice, capped at +5 -> 10 dice. Defender 1-3: untrained
    # (1 - 1) minus 3 -> a chance die.
    rolled = [6] * 10 + [10]
    obj = cli_one("seyruun", "contest", "3+2+4+4", "1-3", "--dice", faces(*rolled))
    att, dfn = obj["attacker"], obj["defender"]
    assert att["pool"] == 10 and att["bonus_capped"] == 3
    assert dfn["chance_die"] is True and dfn["pool"] == 1
    assert dfn["successes"] == 1 and dfn["tier"] == "just"  # a chance-die 10
    assert obj["winner"] == "attacker"


def test_contest_side_penalties_and_untrained():
    obj = cli_one("seyruun", "contest", "4+3-2-1", "3", "--dice", faces(*[2] * 4, *[2] * 2))
    assert obj["attacker"]["pool"] == 4 + 3 - 2 - 1
    assert obj["defender"]["pool"] == 3 - 1 and obj["defender"]["untrained"] is True


def test_contest_willpower_per_side():
    obj = cli_one("seyruun", "contest", "2+1", "2+1", "--attacker-willpower",
                  "--dice", faces(*[2] * 6, *[2] * 3))
    assert obj["attacker"]["pool"] == 6 and obj["attacker"]["willpower_spent"] == 1
    assert obj["defender"]["pool"] == 3 and obj["defender"]["willpower_spent"] == 0


@pytest.mark.parametrize("side", ["abc", "3++2", "3+2000", "3+", "3*2", "1" + "+1" * 25])
def test_contest_bad_side_is_a_usage_error(side):
    assert_usage_error(cli("seyruun", "contest", side, "2+2", "--seed", "1"), "ATTACKER")


def test_contest_side_over_the_pool_limit_names_the_side():
    assert_usage_error(cli("seyruun", "contest", "2+2", "1000+1000", "--seed", "1"), "DEFENDER", "1000")


def test_contest_dice_count_errors():
    assert_usage_error(cli("seyruun", "contest", "2+1", "2+1", "--dice", faces(6, 6, 6, 6, 6)), "--dice", "too few")
    assert_usage_error(cli("seyruun", "contest", "2+1", "2+1", "--dice", faces(*[6] * 7)), "--dice", "too many")


# Extended -----------------------------------------------------------------------------


def test_extended_accumulates_until_the_target():
    # 2+1 = 3 dice; target 4: 6 2 2 (1), 10 7 2 (3) -> 4.
    obj = cli_one("seyruun", "extended", "2", "1", "--target", "4", "--dice", faces(6, 2, 2, 10, 7, 2))
    assert obj["command"] == "extended"
    assert obj["outcome"] == "success" and obj["ended_by"] == "target"
    assert obj["total"] == 4 and obj["target"] == 4
    assert [r["successes"] for r in obj["rolls"]] == [1, 3]
    assert obj["running_totals"] == [1, 4]


def test_extended_botch_ends_the_attempt():
    assert seyruun.EXTENDED_BOTCH_ENDS
    obj = cli_one("seyruun", "extended", "2", "1", "--target", "10", "--dice", faces(6, 7, 2, 1, 2, 3))
    assert obj["outcome"] == "botch" and obj["ended_by"] == "botch"
    assert obj["total"] == 2 and len(obj["rolls"]) == 2
    assert obj["rolls"][-1]["outcome"] == "botch"


def test_extended_failed_roll_without_a_one_goes_on():
    obj = cli_one("seyruun", "extended", "2", "1", "--target", "1", "--dice", faces(2, 3, 4, 6, 2, 2))
    assert obj["rolls"][0]["outcome"] == "failure"
    assert obj["outcome"] == "success" and len(obj["rolls"]) == 2


def test_extended_stops_at_max_rolls():
    obj = cli_one("seyruun", "extended", "2", "1", "--target", "10", "--max-rolls", "2",
                  "--dice", faces(6, 2, 2, 6, 2, 2))
    assert obj["outcome"] == "failure" and obj["ended_by"] == "limit"
    assert obj["total"] == 2 and len(obj["rolls"]) == 2 and obj["max_rolls"] == 2


def test_extended_default_bound_ends_a_target_that_is_never_met():
    # A chance die showing 5 never succeeds and never botches: only the bound stops it.
    obj = cli_one("seyruun", "extended", "1", "--target", "5", "--dice", faces(*[5] * DEFAULT_MAX_ROLLS))
    assert obj["ended_by"] == "limit" and len(obj["rolls"]) == DEFAULT_MAX_ROLLS
    assert_usage_error(
        cli("seyruun", "extended", "1", "--target", "5", "--dice", faces(*[5] * (DEFAULT_MAX_ROLLS + 1))),
        "--dice", "too many")


def test_extended_random_never_exceeds_the_hard_limit():
    obj = cli_one("seyruun", "extended", "1", "--target", "1000", "--max-rolls", str(MAX_ROLLS), "--seed", "7")
    assert 1 <= len(obj["rolls"]) <= MAX_ROLLS


@pytest.mark.parametrize("args, param", [
    (["--target", "5", "--max-rolls", str(MAX_ROLLS + 1)], "--max-rolls"),
    (["--target", "5", "--max-rolls", "0"], "--max-rolls"),
    (["--target", "0"], "--target"),
    ([], "--target"),
])
def test_extended_bad_limits_are_usage_errors(args, param):
    assert_usage_error(cli("seyruun", "extended", "3", "2", *args, "--seed", "1"), param)


def test_extended_willpower_is_spent_every_roll():
    obj = cli_one("seyruun", "extended", "1", "1", "--target", "2", "--willpower",
                  "--dice", faces(6, 2, 2, 2, 2, 7, 2, 2, 2, 2))
    assert [r["pool"] for r in obj["rolls"]] == [5, 5]
    assert obj["willpower_spent"] == 2


# Team ---------------------------------------------------------------------------------


def test_team_assists_add_one_die_each():
    obj = cli_one("seyruun", "team", "3", "2", "--assists", "2", "--dice", faces(*[6] * 7))
    assert obj["command"] == "team"
    (leader,) = obj["rolls"]
    assert leader["pool"] == 3 + 2 + 2
    assert obj["assists"] == 2 and obj["assist_dice"] == 2
    assert obj["total"] == leader["successes"] == 7
    assert obj["outcome"] == leader["outcome"] == "success"


def test_team_assists_are_inside_the_plus_five_cap():
    # --bonus 3 plus 4 assists = 7 external dice; only +5 count: 2 assists add nothing.
    obj = cli_one("seyruun", "team", "2", "1", "--bonus", "3", "--assists", "4", "--dice", faces(*[2] * 8))
    (leader,) = obj["rolls"]
    assert leader["pool"] == 2 + 1 + seyruun.BONUS_CAP
    assert obj["assist_dice"] == 2 and obj["bonus_capped"] == 2


def test_team_difficulty_and_botch():
    obj = cli_one("seyruun", "team", "2", "1", "--assists", "1", "-d", "complex", "--dice", faces(6, 7, 2, 2))
    assert obj["outcome"] == "failure" and obj["total"] == 2 and obj["rolls"][0]["required"] == 3
    obj = cli_one("seyruun", "team", "2", "1", "--assists", "1", "--dice", faces(1, 2, 3, 4))
    assert obj["outcome"] == "botch"


@pytest.mark.parametrize("args", [[], ["--assists", "0"], ["--assists", "x"]])
def test_team_needs_assists(args):
    assert_usage_error(cli("seyruun", "team", "3", "2", *args, "--seed", "1"), "--assists")


# Shared options and rendering -----------------------------------------------------------


@pytest.mark.parametrize("args", [
    ["contest", "3+2", "2+2"],
    ["extended", "3", "2", "--target", "6"],
    ["team", "3", "2", "--assists", "2"],
])
def test_seed_times_and_json_lines(args):
    first = cli_json("seyruun", *args, "--seed", "42", "-n", "3")
    again = cli_json("seyruun", *args, "--seed", "42", "-n", "3")
    assert len(first) == 3 and first == again
    for obj in first:
        assert obj["ruleset"] == "seyruun" and obj["command"] == args[0]
        assert obj["outcome"] in ("success", "failure", "botch")
        assert obj["rolls"] and all(r["command"] == "roll" for r in obj["rolls"])


def test_engine_contest_evaluates_given_faces():
    spec = seyruun.SeyruunContest(attacker=seyruun.SeyruunPool(2, 1), defender=seyruun.SeyruunPool(1, 1))
    r = seyruun.roll_contest(spec, GivenDice([10, 2, 2, 6, 6]))
    assert r.attacker.successes == 2 and r.defender.successes == 2
    assert r.winner == "attacker"  # tie, base Attribute 2 > 1


@pytest.mark.parametrize("args, words", [
    (["contest", "4+1", "3+2", "--dice", faces(6, 2, 2, 2, 2, 7, 3, 3, 3, 3)], ["Attacker wins", "tie", "Attribute"]),
    (["contest", "3+2", "2+3", "--dice", faces(6, 2, 2, 2, 2, 6, 7, 2, 2, 2)], ["Defender wins", "by 1 success"]),
    (["extended", "2", "1", "--target", "4", "--dice", faces(6, 2, 2, 10, 7, 2)], ["Roll 2", "total 4 of 4", "Success"]),
    (["extended", "2", "1", "--target", "9", "--dice", faces(6, 7, 2, 1, 2, 3)], ["Botch", "roll 2"]),
    (["team", "2", "1", "--bonus", "3", "--assists", "4", "--dice", faces(*[2] * 8)], ["Team failure", "+5"]),
])
def test_terminal_render(args, words):
    run = cli("seyruun", *args)
    assert run.exit_code == 0, run.stderr
    assert "\x1b[" not in run.stdout
    for w in words:
        assert w in run.stdout, (w, run.stdout)

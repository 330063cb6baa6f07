"""`rpgdice roll EXPR...` and `rpgdice odds EXPR` through the command line."""

from __future__ import annotations

import json
import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import cli, cli_json, cli_one, proc


def test_roll_json_keys_and_values_with_given_faces():
    obj = cli_one("roll", "2d6+3", "--dice", "4,5")
    assert obj == {
        "ruleset": "dice", "command": "roll", "expression": "2d6+3", "total": 12,
        "terms": [{"expression": "2d6", "dice": [{"face": 4, "kept": True}, {"face": 5, "kept": True}],
                   "value": 9},
                  {"expression": "+3", "dice": [], "value": 3}],
        "seed": None, "outcome": None,
    } | {k: v for k, v in obj.items() if k not in {
        "ruleset", "command", "expression", "total", "terms", "seed", "outcome"}}


def test_an_expression_starting_with_a_minus_is_not_an_option():
    obj = cli_one("roll", "-1d4+6", "--dice", "3")
    assert (obj["expression"], obj["total"]) == ("-1d4+6", 3)
    obj = cli_one("roll", "--dice", "2", "-d4")
    assert obj["total"] == -2
    obj = cli_one("roll", "+2d4", "--dice", "1,1")
    assert obj["total"] == 2
    # An option's value stays the option's: a negative seed is still refused as a seed.
    run = cli("roll", "d6", "--seed", "-5")
    assert run.exit_code == 2 and run.stderr.startswith("rpgdice: error: --seed:")


def test_an_en_dash_is_a_minus_in_roll_and_odds():
    obj = cli_one("roll", "\u20131d4+6", "--dice", "3")
    assert obj["total"] == 3
    assert cli_one("roll", "2d6\u20131", "--dice", "4,5")["total"] == 8
    odds = cli_one("odds", "1d4\u20131")
    assert (odds["min"], odds["max"]) == (0, 3)


@pytest.mark.process
def test_a_real_process_takes_a_negative_expression():
    run = proc("roll", "-1d4+6", "--json", "--seed", "1")
    assert run.returncode == 0, run.stderr
    total = json.loads(run.stdout)["total"]
    assert 2 <= total <= 5


def test_several_expressions_one_object_each_in_order_and_faces_in_written_order():
    objs = cli_json("roll", "d20", "2d6+3", "4d6kh3", "--dice", "17,1,2,3,1,6,3")
    assert [o["expression"] for o in objs] == ["d20", "2d6+3", "4d6kh3"]
    assert [o["total"] for o in objs] == [17, 6, 12]
    assert [d["kept"] for d in objs[2]["terms"][0]["dice"]] == [True, False, True, True]


def test_times_repeats_the_whole_command():
    objs = cli_json("roll", "d4", "d6", "-n", "3", "--seed", "9")
    assert [o["expression"] for o in objs] == ["d4", "d6"] * 3
    again = cli_json("roll", "d4", "d6", "-n", "3", "--seed", "9")
    assert objs == again
    assert all(o["seed"] == 9 for o in objs)


def test_exploding_faces_follow_the_die_that_exploded():
    obj = cli_one("roll", "2d6!", "--dice", "6,6,3,2")
    assert [d["face"] for d in obj["terms"][0]["dice"]] == [6, 6, 3, 2]
    assert obj["total"] == 17
    run = cli("roll", "2d6!", "--dice", "6,6,3")
    assert run.exit_code == 2 and "too few faces" in run.stderr


def test_counted_successes():
    obj = cli_one("roll", "8d10>=6", "--dice", "1,6,7,8,9,10,2,5")
    assert obj["total"] == 5
    assert [d["kept"] for d in obj["terms"][0]["dice"]] == [False, True, True, True, True, True,
                                                             False, False]


@pytest.mark.parametrize("expression, position", [("2d6+", 5), ("2d6y", 4), ("4d6kh9", 6), ("", 1)])
def test_bad_expressions_exit_2_with_the_position(expression, position):
    run = cli("roll", expression)
    assert run.exit_code == 2 and run.stdout == ""
    assert run.stderr.startswith("rpgdice: error: EXPR: ") and run.stderr.count("\n") == 1
    assert run.stderr.rstrip().endswith(f"at {position}")


def test_the_issue_error_line_exactly():
    run = cli("roll", "2d6+")
    assert run.stderr == "rpgdice: error: EXPR: 2d6+ — expected a number or dice after '+' at 5\n"


def test_missing_expression_says_what_is_accepted():
    run = cli("roll")
    assert run.exit_code == 2 and "EXPR: missing; accepts dice notation" in run.stderr


def test_roll_terminal_view_shows_terms_and_total():
    # -d4+2 comes first: after another argument it would continue that one (CLI.md).
    run = cli("roll", "-d4+2", "4d6kh3", "3d6!", "8d10>=6",
              "--dice", "3,5,1,5,3,6,6,2,3,4,1,6,7,8,9,10,2,6")
    assert run.exit_code == 0, run.stderr
    out = run.stdout
    assert "4d6kh3 5  (1)  5  3  = +13" in out
    assert "6+6+2" in out  # an exploded chain
    assert "6 successes" in out
    assert "Total −1" in out  # -3 + 2, with a true minus sign
    assert "rolls: totals" not in out  # four unrelated expressions: nothing to average


def test_repeats_are_summed_up_per_expression_never_across_them():
    out = cli("roll", "d20", "2d6+1", "-n", "2", "--dice", "5,1,2,9,3,3").stdout
    lines = out.rstrip().splitlines()
    assert lines[-2:] == ["d20 ×2: totals 5 to 9, mean 7", "2d6+1 ×2: totals 4 to 7, mean 5.5"]
    out = cli("roll", "2d6+1", "-n", "3", "--dice", "1,1,6,6,2,3").stdout
    assert out.rstrip().splitlines()[-1] == "3 rolls: totals 3 to 13, mean 7.33"


def test_repeats_of_a_one_term_roll_print_their_totals_on_one_line():
    faces = "3,1,6,3,6,6,6,1,1,1,1,2"
    run = cli("roll", "4d6kh3", "-n", "3", "--dice", faces)
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines() == ["4d6kh3 ×3: 12, 18, 4", "3 rolls: totals 4 to 18, mean 11.33"]
    two = cli("roll", "d20", "8d10>=6", "-n", "2", "--dice", "17,6,7,1,2,3,4,5,10,3,1,1,1,1,1,1,9,9")
    assert two.stdout.splitlines()[:2] == ["d20 ×2: 17, 3", "8d10>=6 ×2: 3, 2"]
    # --breakdown shows each roll's dice; so does any expression of more than one term.
    full = cli("roll", "4d6kh3", "-n", "3", "--dice", faces, "--breakdown").stdout
    assert "#3 Dice · 4d6kh3" in full and "(1)" in full
    assert full.rstrip().splitlines()[-1] == "3 rolls: totals 4 to 18, mean 11.33"
    assert "#2 Dice · 4d6+1" in cli("roll", "4d6+1", "-n", "2", "--dice", "1,1,1,1,2,2,2,2").stdout
    assert "#2 Dice · d20" in cli("roll", "d20", "-n", "2", "--odds", "--dice", "1,2").stdout
    # JSON is never shortened: every die of every roll.
    objs = cli_json("roll", "4d6kh3", "-n", "3", "--dice", faces)
    assert [len(o["terms"][0]["dice"]) for o in objs] == [4, 4, 4]


def test_odds_json_per_cli_md():
    obj = cli_one("odds", "2d6+3")
    assert obj["expression"] == "2d6+3"
    assert obj["distribution"]["10"] == pytest.approx(6 / 36)
    assert (obj["mean"], obj["min"], obj["max"]) == (10, 5, 15)
    assert (obj["truncated"], obj["explode_depth"], obj["left_out"]) == (False, None, 0)
    assert "outcome" not in obj


def test_odds_of_explosions_state_the_depth_and_what_was_left_out():
    obj = cli_one("odds", "2d6!")
    assert obj["truncated"] is True and obj["explode_depth"] >= 1
    assert 0 < obj["left_out"] <= 1e-12
    assert math.isclose(sum(obj["distribution"].values()) + obj["left_out"], 1.0)
    run = cli("odds", "2d6!")
    assert f"followed to {obj['explode_depth']} extra rolls" in run.stdout
    assert "left out" in run.stdout


def test_odds_of_a_negative_expression():
    obj = cli_one("odds", "-1d4+6")
    assert obj["distribution"] == {"2": 0.25, "3": 0.25, "4": 0.25, "5": 0.25}


def test_odds_view_has_the_chart_mean_and_range():
    run = cli("odds", "3d6")
    assert run.exit_code == 0
    assert "mean 10.5 · range 3 to 18" in run.stdout
    assert "█" in run.stdout


def test_odds_refuses_too_much_work():
    run = cli("odds", "1000d6")
    assert run.exit_code == 2 and run.stdout == ""
    assert "would take too long" in run.stderr and run.stderr.count("\n") == 1


def test_odds_takes_no_dice_or_seed():
    run = cli("odds", "2d6", "--seed", "1")
    assert run.exit_code == 2


@pytest.mark.parametrize("env", [{}, {"NO_COLOR": "1"}, {"PYTHONIOENCODING": "ascii"},
                                 {"FORCE_COLOR": "1"}])
@pytest.mark.process
def test_dropped_dice_carry_a_mark_in_plain_text_in_every_color_mode(env):
    """Strike-through is only a style: a piped, NO_COLOR or ASCII view marks a dropped die
    in its text (parentheses), kept dice stay bare."""
    run = proc("roll", "4d6kh3", "2d20kl1", "4d6dh1", "4d6dl2", "--dice", "3,1,6,3,8,19,2,6,6,5,4,1,3,2",
               env=env)
    assert run.returncode == 0, run.stderr
    plain = re.sub(r"\x1b\[[0-9;]*m", "", run.stdout)
    assert "4d6kh3 3  (1)  6  3  = +12" in plain
    assert "2d20kl1 8  (19)  = +8" in plain
    assert "4d6dh1 2  6  (6)  5  = +13" in plain  # equal faces: the earlier is kept
    assert "4d6dl2 4  (1)  3  (2)  = +7" in plain


@pytest.mark.parametrize("env", [{}, {"PYTHONIOENCODING": "ascii"}])
@pytest.mark.process
def test_counted_and_uncounted_dice_differ_in_plain_text(env):
    run = proc("roll", "4d10>=6", "--dice", "3,6,9,5", env=env)
    assert run.returncode == 0, run.stderr
    tick = "v" if env else "✓"
    assert f"4d10>=6 3  6 {tick}  9 {tick}  5  = 2 successes" in run.stdout


def test_roll_with_odds_json_adds_the_odds_object():
    (a, b) = cli_json("roll", "2d6", "d4", "--odds", "--seed", "3")
    assert a["odds"]["expression"] == "2d6" and b["odds"]["expression"] == "d4"
    assert a["odds"]["distribution"]["7"] == pytest.approx(1 / 6)
    assert set(b["odds"]) >= {"distribution", "mean", "min", "max", "truncated", "explode_depth",
                              "left_out"}


def test_roll_with_odds_terminal_line():
    run = cli("roll", "2d6", "--odds", "--dice", "3,4")
    assert run.exit_code == 0
    assert "16.7% of exactly 7, 58.3% of 7 or more" in run.stdout


@settings(max_examples=150)
@given(st.text(alphabet="0123456789dDkhl%!<>=+-− x", max_size=14), st.booleans())
@pytest.mark.slow
def test_no_expression_breaks_roll_or_odds(text, odds):
    run = cli("odds" if odds else "roll", text, "--json")
    assert run.exit_code in (0, 2), (text, run.stderr, run.exception)
    assert run.exception is None
    if run.exit_code == 2:
        assert run.stdout == "" and run.stderr.startswith("rpgdice: error: ")
        assert run.stderr.count("\n") == 1
    elif not (text.startswith("-") and not re.match(r"[+-][0-9dD]", text)):  # -h is help
        assert all(json.loads(line) for line in run.stdout.splitlines())


def test_a_command_over_the_work_budget_is_refused_at_once():
    # 1000 exploding dice may roll 101 dice each at worst: 101 million over 1000 repetitions.
    run = cli("roll", "1000d6!", "-n", "1000", "--json", "--seed", "1")
    assert run.exit_code == 2 and run.stdout == ""
    # The option is named as it was typed (-n, or --times).
    assert run.stderr.startswith("rpgdice: error: -n: ") and "budget" in run.stderr
    run = cli("roll", "1000d6!", "--times", "1000", "--json", "--seed", "1")
    assert run.stderr.startswith("rpgdice: error: --times: ") and "budget" in run.stderr
    run = cli("roll", "1000d6!", "-n", "2", "--json", "--seed", "1")
    assert run.exit_code == 0 and len(run.json()) == 2


def test_an_error_echoes_the_expression_as_typed_so_the_position_lines_up():
    run = cli("roll", "  2d6 +x")
    assert run.stderr == ("rpgdice: error: EXPR: '  2d6 +x' — unexpected 'x'; expected a number "
                          "or dice after '+' at 8\n")
    run = cli("odds", "2d6   +   x")
    assert run.stderr.startswith("rpgdice: error: EXPR: 2d6   +   x — unexpected 'x'")
    assert run.stderr.rstrip().endswith("at 11")
    # A tab is one place, shown as one space; a control character after the position is escaped.
    run = cli("roll", "2d6\t+x\x01")
    assert run.stderr.startswith("rpgdice: error: EXPR: 2d6 +x\\x01 — unexpected 'x'")
    assert run.stderr.rstrip().endswith("at 6")


def test_a_long_expression_is_echoed_as_a_short_window_around_the_position():
    text = "+".join(["1"] * 500) + "+x" + "+1" * 500
    run = cli("roll", text)
    line = run.stderr
    assert line.count("\n") == 1 and len(line) < 200
    assert text[1000] == "x" and f"EXPR: …{text[1000 - 50:1000 + 10]}… — unexpected 'x'" in line
    assert line.rstrip().endswith(f"at {text.index('x') + 1}")


_ECHO = re.compile(r"rpgdice: error: EXPR: (.*) — unexpected '(.)'; .* at (\d+)\n")


@settings(max_examples=200)
@given(st.text(alphabet="0123456789dkh!>=+- \tx", max_size=40))
@pytest.mark.slow
def test_the_unexpected_character_is_at_its_position_in_the_echo(text):
    """The position counts in the expression as typed, and the echo shows it as typed."""
    if text == "--":  # the option terminator: the expression is then the next argument, --json
        return
    run = cli("roll", text, "--json")
    found = _ECHO.fullmatch(run.stderr)
    if found is None:
        return
    echo, char, position = found.group(1), found.group(2), int(found.group(3))
    if echo.startswith("'"):
        echo = echo[1:-1]
    assert echo[position - 1] == char, (text, run.stderr)
    assert text[position - 1] == char


def test_roll_usage_says_it_takes_several_expressions_and_errors_name_one():
    """``roll d20 2d6+3 d%`` rolls three: the usage line says ``EXPR...``; an error still
    names the parameter ``EXPR`` (and an initiative's ``COMBATANT``), without the dots."""
    usage = cli("roll", "--help", env={"COLUMNS": "80"}).stdout
    assert "Usage: rpgdice roll [OPTIONS] EXPR..." in usage
    run = cli("roll", "d20", "2d6+")
    assert run.exit_code == 2 and run.stderr.startswith("rpgdice: error: EXPR: 2d6+ ")
    run = cli("seyruun", "initiative", "x=a")
    assert run.exit_code == 2 and run.stderr.startswith("rpgdice: error: COMBATANT: x: ")


def test_odds_joins_its_arguments_as_roll_does_and_takes_one_expression():
    joined = cli_one("odds", "1d20", "+5")
    assert (joined["expression"], joined["min"], joined["max"]) == ("1d20 +5", 6, 25)
    assert cli_one("odds", "2d6", "+", "3")["min"] == 5
    run = cli("odds", "d20", "d6")
    assert run.exit_code == 2 and run.stdout == ""
    assert run.stderr.startswith("rpgdice: error: EXPR: odds takes one expression, given 2")


@pytest.mark.parametrize("written", ["8d10>=6 # soak", "(8d10>=6) # soak", "8d10>=6 [soak]"])
def test_a_label_never_changes_the_verdicts_words(written):
    # With a label or without, a success count ends in the same words (`= 1 success`).
    plain = cli("roll", "8d10>=6", "--seed", "42")
    labelled = cli("roll", written, "--seed", "42")
    assert labelled.exit_code == 0, labelled.stderr
    term = [line for line in plain.stdout.splitlines() if "✓" in line][0]
    ends = term[term.rindex("="):]
    assert ends == "= 1 success"
    assert any(f"✓  {ends}" in line for line in labelled.stdout.splitlines()), labelled.stdout
    assert "+1" not in labelled.stdout

"""A ruleset file's rough edges (issue 43, item 17): another system's word for a key gets
its name here, a key given twice is named with both its lines, and a ``total`` file's MOD is
the same number in the roll, its JSON and its odds (docs/your-own-system.md: "the roll shows
MOD beside the dice ... JSON ``mod``")."""

from __future__ import annotations

from conftest import cli, home, ok

POOL = """name = "nwod"
title = "New World"
kind = "pool"
die = 10
success = 8
{more}
[[outcomes]]
name = "Success"
tone = "good"
success = true

[[outcomes]]
name = "Failure"
tone = "bad"
"""

FATE = """name = "fate"
title = "Fate"
kind = "total"
dice = "4d3-8"

[[outcomes]]
name = "Succeed"
tone = "good"
at_least = "target"

[[outcomes]]
name = "Fail"
tone = "bad"
"""


def _write(name: str, text: str) -> str:
    folder = home() / "rulesets"
    folder.mkdir(exist_ok=True)
    path = folder / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_explode_is_said_to_be_again():
    path = _write("nwod", POOL.format(more="explode = 10"))
    run = cli("rulesets", "check", path)
    assert run.exit_code == 2
    assert "explode: is no key of a ruleset file (did you mean again?)" in run.stderr


def test_a_key_given_twice_is_named_with_both_its_lines():
    path = _write("nwod", POOL.format(more="success = 7"))
    run = cli("rulesets", "check", path)
    assert run.exit_code == 2 and len(run.stderr.splitlines()) == 1
    assert "line 6, column 12: success is given twice (first at line 5)" in run.stderr
    run = cli("nwod", "roll", "3")
    assert run.exit_code == 2 and "success is given twice (first at line 5)" in run.stderr


def test_a_key_of_an_outcome_given_twice_names_the_outcome():
    text = POOL.format(more="").replace('tone = "bad"', 'tone = "bad"\ntone = "dire"')
    path = _write("nwod", text)
    run = cli("rulesets", "check", path)
    assert run.exit_code == 2
    assert "line 15, column 14: outcomes[2].tone is given twice (first at line 14)" in run.stderr


def test_a_totals_mod_is_the_same_in_the_roll_its_json_and_its_odds():
    _write("fate", FATE)
    dice = ("--dice", "1,3,1,2")  # 7 on the dice, 7 - 8 = -1: the file's dice
    (rolled,) = ok("fate", "roll", "2", "--target", "3", "--json", *dice).json()
    assert rolled["mod"] == 2 and rolled["total"] == 1
    shown = ok("fate", "roll", "2", "--target", "3", "--log", *dice).stdout
    assert "total 1 (dice −1 + 2)" in shown
    assert "total −1" in ok("fate", "roll", "--target", "3", *dice).stdout
    assert "(dice" not in ok("fate", "roll", "--target", "3", *dice).stdout
    odds = ok("fate", "odds", "2", "--target", "3")
    assert odds.stdout.splitlines()[0].endswith("odds · MOD +2 · target 3")
    (o,) = ok("fate", "odds", "2", "--target", "3", "--json").json()
    assert o["mod"] == rolled["mod"]
    # the log shows it as rolled
    assert "total 1 (dice −1 + 2)" in ok("log", "show", "1").stdout

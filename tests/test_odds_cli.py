"""The ``odds`` commands and ``--odds`` through the command line."""

from __future__ import annotations

import json
import sys
from fractions import Fraction

import pytest

from conftest import assert_usage_error, cli, cli_json, cli_one, proc
from rpgdice.render.common import bar, percent
from rpgdice.rulesets.crytures import odds as cry_odds
from rpgdice.rulesets.crytures import rules as crytures
from rpgdice.rulesets.seyruun import odds as sey_odds
from rpgdice.rulesets.seyruun import rules as seyruun

OUTCOMES = {
    "crytures": {"success", "failure"},
    "seyruun": {"success", "failure", "botch"},
    "reglas": {"success", "failure", "fumble"},
    "cypher": {"success", "failure"},
}


# --json: keys per CLI.md, values equal to the exact odds --------------------------------


def test_crytures_odds_json_keys_and_values():
    obj = cli_one("crytures", "odds", "4+2", "--die-mod", "1", "--roll-mod", "2", "-d", "8", "-c", "2")
    exact = cry_odds.crytures_odds(crytures.CryturesRoll(6, (1,), (2,), difficulty=8, complexity=2))
    assert obj["ruleset"] == "crytures" and obj["command"] == "odds"
    assert "outcome" not in obj
    assert obj["outcomes"] == {k: float(v) for k, v in exact.outcomes.items()}
    assert obj["successes"] == {str(k): float(v) for k, v in exact.successes.items()}
    assert list(obj["successes"]) == [str(k) for k in range(15)]  # 7 dice, up to 14 successes
    assert obj["at_least"]["2"] == pytest.approx(obj["outcomes"]["success"])
    assert obj["critical"] == pytest.approx(1 - 0.9**7)
    assert sum(obj["successes"].values()) == pytest.approx(1)


def test_seyruun_odds_json_keys_and_values():
    obj = cli_one("seyruun", "odds", "3", "2", "--bonus", "4", "--bonus", "4", "-d", "moderate", "--reroll")
    pool = seyruun.SeyruunPool(3, 2, bonuses=(4, 4), required=2)
    exact = sey_odds.seyruun_odds(pool, reroll=True)
    assert "outcome" not in obj
    assert set(obj["outcomes"]) == OUTCOMES["seyruun"]
    assert obj["outcomes"] == {k: float(v) for k, v in exact.outcomes.items()}
    assert obj["successes"] == {str(k): float(v) for k, v in exact.successes.items()}
    assert obj["critical"] == float(exact.critical)
    assert obj["multiple_critical"] == float(exact.multiple_critical)
    assert obj["pool"] == 10 and obj["required"] == 2 and obj["reroll"] is True


def test_seyruun_chance_die_odds():
    obj = cli_one("seyruun", "odds", "1", "--wound", "severe")
    assert obj["chance_die"] is True
    assert obj["outcomes"] == {"success": 0.1, "failure": 0.8, "botch": 0.1}
    assert obj["multiple_critical"] == 0.0


def test_reglas_odds_json_keys_and_values():
    obj = cli_one("reglas", "odds", "5+2", "--dificultad", "muy difícil", "--mod", "-1")
    assert "outcome" not in obj
    assert obj["index"] == 6 and obj["difficulty"] == 6
    # resultado = 6 − die: die 1..10 → 5..−4. None reaches 6; fracasos for dice 7..10.
    assert obj["outcomes"] == {"success": 0.0, "failure": 0.6, "fumble": 0.4}
    assert obj["critical"] == 0.0
    assert obj["fumble_grades"] == {"1": 0.1, "2": 0.1, "3": 0.1, "4": 0.1}


@pytest.mark.parametrize("args,success", [
    (("-d", "routine"), 1.0),
    (("-d", "impossible"), 0.0),
    (("-d", "5", "--skill", "trained", "--asset", "1", "--effort", "1"), (21 - 3 * 2) / 20),
    (("-d", "4", "--hinder", "1", "--bonus", "3"), (21 - 15 + 3) / 20),
])
def test_cypher_odds_json(args, success):
    obj = cli_one("cypher", "odds", *args)
    assert "outcome" not in obj
    assert obj["outcomes"]["success"] == pytest.approx(success)
    assert obj["outcomes"]["failure"] == pytest.approx(1 - success)
    assert set(obj["special"]) == {"gm_intrusion", "plus_1_damage", "plus_2_damage", "minor_effect", "major_effect"}


def test_cypher_special_rolls_only_on_attacks():
    plain = cli_one("cypher", "odds", "-d", "3")["special"]
    attack = cli_one("cypher", "odds", "-d", "3", "--attack")["special"]
    assert plain["plus_1_damage"] == plain["plus_2_damage"] == 0.0
    assert attack["plus_1_damage"] == attack["plus_2_damage"] == 0.05
    assert plain["gm_intrusion"] == attack["gm_intrusion"] == 0.05


# The terminal view ------------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ("crytures", "odds", "12", "--roll-mod", "1"),
    ("seyruun", "odds", "4", "3", "-d", "complex"),
    ("reglas", "odds", "6", "-d", "normal"),
    ("cypher", "odds", "-d", "4", "--attack"),
])
def test_odds_view_shows_each_outcome_percentage_with_a_bar(args):
    run = cli(*args)
    assert run.exit_code == 0, run.stderr
    obj = cli_one(*args)
    for outcome, p in obj["outcomes"].items():
        shown = percent(Fraction(p).limit_denominator(10**12))
        assert shown in run.stdout, (outcome, shown)
    assert "█" in run.stdout
    assert "\x1b[" not in run.stdout


def test_crytures_odds_view_lists_successes_exactly_and_at_least():
    run = cli("crytures", "odds", "5")
    exact = cry_odds.crytures_odds(crytures.CryturesRoll(5))
    rows = {line.split()[0]: line.split()[1:3] for line in run.stdout.splitlines()
            if line.strip() and line.split()[0].isdigit()}
    for k in range(11):
        if exact.successes[k] >= Fraction(1, 2000):
            assert rows[str(k)] == [percent(exact.at_least[k]), percent(exact.successes[k])]
    assert "at least one natural 10: " + percent(exact.critical) in run.stdout


def test_a_big_pool_is_shown_in_bins():
    run = cli("crytures", "odds", "300")
    assert run.exit_code == 0
    assert "in range" in run.stdout and "–" in run.stdout
    assert len(run.stdout.splitlines()) < 45


def test_reglas_view_speaks_spanish():
    run = cli("reglas", "odds", "3", "-d", "normal")
    for word in ("Éxito", "Fallo", "Fracaso", "Crítico", "fracaso de grado"):
        assert word in run.stdout


def test_percent_and_bar():
    assert percent(Fraction(1, 3)) == "33.3%"
    assert percent(Fraction(0)) == "0.0%" and percent(Fraction(1)) == "100.0%"
    assert percent(Fraction(1, 10**6)) == "<0.1%"
    assert percent(1 - Fraction(1, 10**6)) == ">99.9%"
    assert len(bar(Fraction(1, 2), Fraction(1, 2), 32).plain) == 32
    assert bar(Fraction(1, 4), Fraction(1, 2), 32).plain == "█" * 16
    assert bar(Fraction(1, 10**9), Fraction(1), 32).plain == "▏"  # possible, so never invisible
    assert bar(Fraction(0), Fraction(1), 32).plain == ""


# --odds on the roll commands -----------------------------------------------------------


@pytest.mark.parametrize("args", [
    ("crytures", "roll", "6", "--roll-mod", "1"),
    ("seyruun", "roll", "3", "3", "--reroll"),
    ("reglas", "roll", "5", "-d", "normal"),
    ("cypher", "task", "-d", "3", "--attack"),
])
def test_roll_with_odds_json_adds_the_chance_of_each_outcome(args):
    ruleset = args[0]
    objs = cli_json(*args, "--odds", "--seed", "7", "-n", "20")
    plain = cli_json(*args, "--seed", "7", "-n", "20")
    odds_cmd = (ruleset, "odds", *args[2:])
    exact = cli_one(*odds_cmd)["outcomes"]
    for obj, before in zip(objs, plain):
        extra = obj.pop("odds")
        assert obj == before  # the same roll; only the odds key is added
        assert extra["outcomes"] == exact
        assert extra["outcome"] == exact[obj["outcome"]]


def test_roll_with_odds_prints_one_line_under_the_breakdown():
    plain = cli("cypher", "task", "-d", "4", "--dice", "14")
    run = cli("cypher", "task", "-d", "4", "--dice", "14", "--odds")
    assert run.exit_code == 0
    extra = run.stdout.splitlines()[len(plain.stdout.splitlines()):]
    assert run.stdout.startswith(plain.stdout)
    assert len(extra) == 1
    assert "45.0% chance of success" in extra[0]  # target 12: 12..20 is 9 faces of 20


def test_reglas_roll_odds_line_in_spanish():
    run = cli("reglas", "roll", "5", "--dice", "9", "--odds")
    assert "probabilidad 50.0% de fracaso" in run.stdout.splitlines()[-1]


# Bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize("args,fragments", [
    (("crytures", "odds", "-1"), ("-1",)),
    (("crytures", "odds", "--", "-1"), ("POOL", "negative")),
    (("crytures", "odds", "1001"), ("POOL",)),
    (("crytures", "odds", "5", "--die-mod", "999"), ("POOL", "1000")),
    (("crytures", "odds", "5", "-d", "0"), ("-d:",)),
    (("seyruun", "odds", "3", "--wound", "mortal"), ("--wound", "'mortal'")),
    (("seyruun", "odds", "3", "-d", "impossible"), ("-d:",)),
    (("reglas", "odds", "x"), ("ÍNDICE",)),
    (("cypher", "odds"), ("--difficulty",)),
    (("cypher", "odds", "-d", "11"), ("-d:",)),
    (("cypher", "odds", "-d", "3", "--effort", "7"), ("--effort",)),
    (("crytures", "odds", "5", "--dice", "1,2,3,4,5"), ("--dice",)),
    (("seyruun", "odds", "3", "--seed", "1"), ("--seed",)),
    (("reglas", "odds", "3", "-n", "2"), ("-n",)),
])
def test_odds_bad_input_is_a_usage_error(args, fragments):
    assert_usage_error(cli(*args), *fragments)


# Real processes: exit status, no color when piped, light imports ---------------------------


@pytest.mark.process
@pytest.mark.slow
def test_odds_process_piped_has_no_color_and_exits_zero():
    p = proc("seyruun", "odds", "5", "3", "--willpower")
    assert p.returncode == 0, p.stderr
    assert "\x1b[" not in p.stdout and "Seyruun odds" in p.stdout
    j = proc("seyruun", "odds", "5", "3", "--json")
    assert j.returncode == 0 and len(j.stdout.splitlines()) == 1
    assert json.loads(j.stdout)["command"] == "odds"


IMPORTS = """
import sys
from rpgdice.cli import main
code = main(sys.argv[1:])
heavy = sorted({m.split('.')[0] for m in sys.modules} & {'rich', 'icepool'})
sys.stderr.write(' '.join(heavy) + '\\n')
"""


@pytest.mark.parametrize("args,expected", [
    (("crytures", "roll", "6", "--json", "--seed", "1"), ""),
    (("seyruun", "roll", "3", "3", "--json", "--seed", "1"), ""),
    (("crytures", "odds", "6", "--json"), "icepool"),
    (("crytures", "roll", "6", "--json", "--odds", "--seed", "1"), "icepool"),
    (("crytures", "roll", "6", "--seed", "1"), "rich"),
])
@pytest.mark.process
def test_rolling_never_imports_icepool(args, expected):
    import subprocess

    p = subprocess.run([sys.executable, "-c", IMPORTS, *args], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stderr.strip() == expected

"""One pool syntax everywhere, the minus sign the output prints, `cypher roll`, and Reglas
names in either language: each form gives exactly what its plain spelling gives."""

from __future__ import annotations

import pytest

from conftest import assert_usage_error, character, cli, cli_json, cli_one
from rpgdice.rulesets.reglas.rules import DIFFICULTIES as REGLAS

MINUS = "\u2212"


def same(a: list[str], b: list[str]) -> None:
    """Two command lines give the same results, seed for seed."""
    one, other = cli_json(*a, "--seed", "5", "-n", "3"), cli_json(*b, "--seed", "5", "-n", "3")
    assert one == other


# ---------------------------------------------------------------- pools ---

@pytest.mark.parametrize("a,b", [
    (["seyruun", "roll", "3+3"], ["seyruun", "roll", "3", "3"]),
    (["seyruun", "roll", "3+2+1-2"], ["seyruun", "roll", "3", "2", "--bonus", "1", "--penalty", "2"]),
    (["seyruun", "roll", "3-1"], ["seyruun", "roll", "3", "--penalty", "1"]),
    (["seyruun", "roll", "3+2+1", "--bonus", "2"], ["seyruun", "roll", "3", "2", "--bonus", "1", "--bonus", "2"]),
    (["seyruun", "roll", "2+1", "3"], ["seyruun", "roll", "3", "3"]),  # with a Skill, sums add up
    (["seyruun", "odds", "3+3"], ["seyruun", "odds", "3", "3"]),
    (["seyruun", "extended", "3+2", "--target", "5"], ["seyruun", "extended", "3", "2", "--target", "5"]),
    (["seyruun", "team", "3+3", "--assists", "2"], ["seyruun", "team", "3", "3", "--assists", "2"]),
    (["crytures", "roll", "4-2"], ["crytures", "roll", "2"]),
    (["crytures", "roll", "4+2-1"], ["crytures", "roll", "5"]),
    (["reglas", "roll", "5+5-2"], ["reglas", "roll", "8"]),
    (["reglas", "contest", "6-1", "4+1"], ["reglas", "contest", "5", "5"]),
])
def test_one_pool_syntax(a, b):
    if a[1] == "odds":
        assert cli_json(*a) == cli_json(*b)
    else:
        same(a, b)


def test_a_contest_side_and_a_roll_read_a_pool_alike():
    (contest,) = cli_json("seyruun", "contest", "3+2+1-2", "2", "--dice", "6,6,6,6,1")
    (roll,) = cli_json("seyruun", "roll", "3+2+1-2", "--dice", "6,6,6,6")
    for key in ("attribute", "skill", "bonus", "penalty", "pool", "successes"):
        assert contest["attacker"][key] == roll[key], key


@pytest.mark.parametrize("args,fragments", [
    (["crytures", "roll", "2-4"], ["POOL: '2-4' is -2, below 0", "or a sum such as 4+2"]),
    (["crytures", "roll", "4*2"], ["POOL: '4*2'", "a sum such as 4+2 or 3+2+1-2"]),
    (["seyruun", "roll", "3x"], ["ATTRIBUTE: '3x'", "3+2 (Attribute+Skill)", "3+2+1-2"]),
    (["seyruun", "roll", "3", "1-4"], ["SKILL: -3 is below 0"]),
    (["reglas", "roll", "5+"], ["ÍNDICE: '5+'", "5+5"]),
    (["seyruun", "contest", "3+2", "3*2"], ["DEFENDER: '3*2'", "3+2+1-2"]),
    (["seyruun", "roll", "+".join(["1"] * 21)], ["more than 20 terms"]),
])
def test_a_bad_pool_is_answered_with_the_forms_that_work(args, fragments):
    assert_usage_error(cli(*args), *fragments)


def test_a_missing_contest_side_says_what_a_side_looks_like():
    run = cli("seyruun", "contest", "3+2")
    assert_usage_error(run, "DEFENDER: missing", "3+2 (Attribute+Skill)", "3+2+1-2", "bonus", "penalty")
    assert "accepts DEFENDER" not in run.stderr


# ---------------------------------------------------------- minus signs ---

@pytest.mark.parametrize("minus", [MINUS, "\u2013"])
@pytest.mark.parametrize("a,b", [
    (["reglas", "roll", "7", "--mod", "{m}2"], ["reglas", "roll", "7", "--mod", "-2"]),
    (["crytures", "roll", "6", "--die-mod", "{m}1", "--roll-mod", "{m}3"],
     ["crytures", "roll", "6", "--die-mod", "-1", "--roll-mod", "-3"]),
    (["crytures", "roll", "4{m}2"], ["crytures", "roll", "2"]),
    (["reglas", "roll", "5+5{m}2"], ["reglas", "roll", "8"]),
    (["seyruun", "roll", "3+2{m}1"], ["seyruun", "roll", "3", "2", "--penalty", "1"]),
    (["seyruun", "contest", "3+2{m}1", "2+2"], ["seyruun", "contest", "3+2-1", "2+2"]),
])
def test_the_minus_sign_the_output_prints_is_accepted(minus, a, b):
    same([w.replace("{m}", minus) for w in a], b)


def test_a_minus_sign_is_still_refused_where_no_negative_is_allowed():
    assert_usage_error(cli("seyruun", "roll", "3", "--bonus", MINUS + "1"), "--bonus:", "out of range")
    assert_usage_error(cli("crytures", "roll", MINUS + "3"), "POOL:", "negative")


# ---------------------------------------------------------- cypher roll ---

def test_cypher_roll_is_cypher_task():
    args = ["-d", "5", "--skill", "trained", "--effort", "1", "--attack"]
    same(["cypher", "roll", *args], ["cypher", "task", *args])
    roll, task = cli("cypher", "roll", "--help"), cli("cypher", "task", "--help")
    assert roll.exit_code == 0
    def options(page):
        return [line.split()[1] for line in page.splitlines() if line.startswith("│ -")]
    assert options(roll.stdout) == options(task.stdout)


def test_cypher_roll_errors_like_task():
    assert_usage_error(cli("cypher", "roll", "5"), "--difficulty: missing", "(did you mean -d 5?)")


# ------------------------------------------------------ reglas in both ---

@pytest.mark.parametrize("spanish,english,number", [
    ("ninguna", "none", REGLAS["none"]), ("normal", "normal", REGLAS["normal"]),
    ("dificil", "hard", REGLAS["dificil"]), ("muy-dificil", "very-hard", REGLAS["muy-dificil"]),
    ("imposible", "impossible", REGLAS["imposible"]),
])
def test_reglas_difficulty_names_in_either_language(spanish, english, number):
    got = {name: cli_one("reglas", "roll", "9", "-d", name, "--dice", "3")["difficulty"]
           for name in (spanish, english, spanish.upper().replace("-", " "), english.title())}
    assert set(got.values()) == {number}, got


@pytest.mark.parametrize("spanish,english,value", [
    ("--dificultad", "--difficulty", "normal"), ("--niveles", "--raise", "1"),
    ("--intento", "--attempt", "2"),
])
def test_reglas_options_in_either_language(spanish, english, value):
    same(["reglas", "roll", "8", spanish, value], ["reglas", "roll", "8", english, value])


@pytest.mark.parametrize("command,spanish,english,value", [
    (["extended", "5", "--target", "3"], "--inicio", "--start", "1"),
    (["extended", "5"], "--objetivo", "--target", "4"),
    (["extended", "5", "--target", "30"], "--max-tiradas", "--max-rolls", "2"),
    (["retry", "5", "-d", "normal"], "--max-intentos", "--max-attempts", "2"),
    (["contest", "5", "4"], "--mod-defensor", "--defender-mod", "2"),
])
def test_reglas_roll_type_options_in_either_language(command, spanish, english, value):
    same(["reglas", *command, spanish, value], ["reglas", *command, english, value])


# The minus sign in a pool read from a sheet (--as) ---------------------------------------


def test_as_reads_an_en_dash_as_a_minus_like_every_pool_argument():
    # README "Numbers": the minus sign may be typed as -, − or an en dash –; a pool
    # without --as takes 3–1, so the same pool by trait name takes dexterity–1.
    character("Ysolde")  # Dexterity 3, Stealth 3
    plain = cli("seyruun", "roll", "3\u20131", "3", "--dice", "1,1,1,1,1", "--json").json()[0]
    for minus in ("-", "\u2212", "\u2013"):
        run = cli("seyruun", "roll", f"dexterity{minus}1", "stealth", "--as", "ysolde",
                  "--dice", "1,1,1,1,1", "--json")
        assert run.exit_code == 0, (minus, run.stderr)
        r = run.json()[0]
        assert r["pool_total"] == plain["pool_total"] == 3 - 1 + 3 - 0

"""Reglas Básicas (seed 003) as RULES.md computes it, with given faces."""

import pytest

from conftest import assert_usage_error, cli, cli_one
from rpgdice.rulesets.reglas.rules import DIFFICULTIES, ReglasRoll, evaluate


def test_la_bestia_fracaso_de_grado_3():
    # Astucia 2 + Estrategia 0, saca un 5: resultado −3, un fracaso de grado 3.
    r = evaluate(ReglasRoll(2 + 0), 5)
    assert (r.result, r.outcome, r.fumble_grade) == (-3, "fumble", 3)
    run = cli("reglas", "roll", "2+0", "--dice", "5")
    assert "Fracaso de grado 3" in run.stdout


def test_thureck_fallo_not_fracaso():
    # iE 10 (Destreza 5 + Armas de Fuego 5), dificultad normal (2), saca un 9: 1 éxito, falla sin fracasar.
    r = evaluate(ReglasRoll(10, difficulty=DIFFICULTIES["normal"]), 9)
    assert (r.result, r.outcome, r.fumble_grade, r.critical) == (1, "failure", None, False)
    obj = cli_one("reglas", "roll", "5+5", "-d", "normal", "--dice", "9")
    assert obj["outcome"] == "failure" and obj["result"] == 1
    assert "Fallo" in cli("reglas", "roll", "5+5", "-d", "normal", "--dice", "9").stdout


def test_werewolf_dodge_critico():
    # iE 3, saca un 1: crítico, 2 éxitos.
    r = evaluate(ReglasRoll(3), 1)
    assert (r.result, r.outcome, r.critical) == (2, "success", True)
    assert "Crítico" in cli("reglas", "roll", "3", "--dice", "1").stdout


def test_head_shot_follows_the_formula():
    # Normal raised two levels is muy difícil (6). iE 10, die 1: the text says 7 éxitos,
    # but 10 − 1 = 9; (decision) the engine follows the formula.
    spec = ReglasRoll(10, difficulty=DIFFICULTIES["normal"], raises=2)
    assert spec.needed == DIFFICULTIES["muy-dificil"] == 6
    r = evaluate(spec, 1)
    assert (r.result, r.outcome, r.critical) == (9, "success", True)
    obj = cli_one("reglas", "roll", "10", "--dificultad", "normal", "--niveles", "2", "--dice", "1")
    assert (obj["difficulty"], obj["result"], obj["critical"]) == (6, 9, True)


def test_raising_past_imposible_keeps_adding_two():
    assert ReglasRoll(10, difficulty=DIFFICULTIES["imposible"], raises=2).needed == 12


def test_zero_inclusive_is_the_default():
    r = evaluate(ReglasRoll(5), 5)
    assert (r.difficulty, r.result, r.outcome) == (0, 0, "success")


def test_critico_needs_a_success():
    r = evaluate(ReglasRoll(3, difficulty=4), 1)  # 2 < 4: fallo, not crítico
    assert (r.outcome, r.critical) == ("failure", False)
    r = evaluate(ReglasRoll(0), 1)  # −1: fracaso de grado 1, even with a 1 on the die
    assert (r.outcome, r.critical, r.fumble_grade) == ("fumble", False, 1)


def test_modifiers_and_attempt_penalty():
    spec = ReglasRoll(8, mods=(2, -1), attempt=3)  # −2 per earlier failed attempt
    assert spec.effective_index == 8 + 1 - 4
    obj = cli_one("reglas", "roll", "8", "--mod", "2", "--mod", "-1", "--intento", "3", "--dice", "4")
    assert (obj["index"], obj["result"]) == (5, 1)


@pytest.mark.parametrize("name", ["muy difícil", "Muy-Dificil", "muy_dificil", "MUY DIFICIL"])
def test_named_levels_match_loosely(name):
    assert cli_one("reglas", "roll", "10", "-d", name, "--dice", "1")["difficulty"] == 6


def test_json_keys():
    obj = cli_one("reglas", "roll", "2", "--dice", "5")
    for key in ("ruleset", "command", "index", "difficulty", "die", "result", "critical", "fumble_grade", "outcome"):
        assert key in obj
    assert obj["ruleset"] == "reglas" and obj["outcome"] == "fumble" and obj["fumble_grade"] == 3


@pytest.mark.parametrize(
    "args, fragments",
    [
        (["3", "-d", "facil"], ["-d:", "normal"]),
        (["3", "--difficulty", "facil"], ["--difficulty:", "normal"]),
        (["3", "--attempt", "0"], ["--attempt"]),
        (["3", "--dice", "0"], ["--dice"]),
        (["3", "--dice", "3,4"], ["--dice", "sobran caras"]),
        (["-2"], ["-2"]),
    ],
)
def test_bad_input(args, fragments):
    assert_usage_error(cli("reglas", "roll", *args), *fragments)

"""Reglas Básicas acciones: múltiples, enfrentadas, en equipo, extendidas, inténtalo de nuevo."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import assert_usage_error, cli, cli_json, cli_one
from rpgdice.core.dice import GivenDice
from rpgdice.core.sequence import DEFAULT_MAX_ROLLS, MAX_ROLLS
from rpgdice.rulesets.reglas import rules as reglas


def faces(*fs: int) -> str:
    return ",".join(map(str, fs))


# Acciones múltiples ---------------------------------------------------------------------


def test_multi_thureck_four_shots_carry_minus_4_6_8_10():
    # Seed 003: "la primera tirada tendría un -4, la segunda -6, la tercera -8 y la cuarta -10".
    seed_penalties = [4, 6, 8, 10]
    obj = cli_one("reglas", "multi", "4", "5+5", "--dice", faces(1, 1, 1, 1))
    assert obj["command"] == "multi"
    assert obj["penalties"] == seed_penalties
    assert [r["index"] for r in obj["rolls"]] == [10 - p for p in seed_penalties]
    assert [r["result"] for r in obj["rolls"]] == [10 - p - 1 for p in seed_penalties]


def test_multi_penalty_function():
    assert [reglas.multi_penalty(4, k) for k in (1, 2, 3, 4)] == [4, 6, 8, 10]
    assert [reglas.multi_penalty(2, k) for k in (1, 2)] == [2, 4]


def test_multi_fumble_does_not_cancel_the_rest():
    assert reglas.MULTI_FUMBLE_STOPS is False
    # iE 6, two actions: −2 → 4 − 10 = −6 (fracaso), −4 → 2 − 1 = 1 (éxito).
    obj = cli_one("reglas", "multi", "2", "6", "--dice", faces(10, 1))
    assert [r["outcome"] for r in obj["rolls"]] == ["fumble", "success"]
    assert obj["outcome"] == "fumble"


def test_multi_outcomes():
    assert cli_one("reglas", "multi", "2", "10", "--dice", faces(1, 1))["outcome"] == "success"
    # −2 then −4 against normal (2): 8 − 5 = 3 éxito, 6 − 5 = 1 fallo.
    assert cli_one("reglas", "multi", "2", "10", "-d", "normal", "--dice", faces(5, 5))["outcome"] == "failure"


@pytest.mark.parametrize("actions", ["1", "0", str(MAX_ROLLS + 1), "x"])
def test_multi_bad_actions(actions):
    assert_usage_error(cli("reglas", "multi", actions, "10", "--seed", "1"), "ACCIONES")


# Acciones enfrentadas -------------------------------------------------------------------


def test_contest_la_bestia_head_shot_against_the_werewolf_dodge():
    # iE 10, normal raised two levels (muy difícil, 6), die 1 → 10 − 1 = 9 by the formula
    # (the text says 7); the werewolf dodges with iE 3, die 1 → 2. La Bestia wins.
    obj = cli_one("reglas", "contest", "10", "3", "-d", "normal", "--raise", "2", "--dice", faces(1, 1))
    att, dfn = obj["attacker"], obj["defender"]
    assert att["difficulty"] == 6
    assert att["result"] == 10 - 1 and att["critical"] is True
    assert dfn["result"] == 3 - 1 and dfn["critical"] is True
    assert obj["winner"] == "attacker" and obj["outcome"] == "success"
    assert obj["margin"] == att["result"] - dfn["result"]
    assert obj["rolls"] == [att, dfn]


def test_contest_tie_goes_to_the_defender():
    assert reglas.CONTEST_TIE_WINNER == "defender"
    obj = cli_one("reglas", "contest", "5", "3", "--dice", faces(3, 1))
    assert obj["attacker"]["result"] == obj["defender"]["result"]
    assert obj["tie"] is True and obj["winner"] == "defender" and obj["outcome"] == "failure"


def test_contest_attacker_must_pass_its_own_difficulty_first():
    # Attacker 7 − 4 = 3 beats the defender's 0, but not its difficulty of 4 (difícil).
    obj = cli_one("reglas", "contest", "7", "3", "-d", "dificil", "--dice", faces(4, 3))
    assert obj["attacker"]["result"] > obj["defender"]["result"]
    assert obj["attacker"]["outcome"] == "failure"
    assert obj["winner"] == "defender"


def test_contest_defender_fumble_counts_as_negative():
    obj = cli_one("reglas", "contest", "5", "2", "--dice", faces(5, 5))
    assert obj["attacker"]["result"] == 0 and obj["defender"]["result"] == -3
    assert obj["defender"]["difficulty"] == 0
    assert obj["winner"] == "attacker" and obj["margin"] == 3


def test_contest_defender_mod():
    obj = cli_one("reglas", "contest", "5", "2", "--defender-mod", "+3", "--dice", faces(1, 1))
    assert obj["defender"]["index"] == 5


def test_contest_dice_count_errors():
    assert_usage_error(cli("reglas", "contest", "5", "3", "--dice", "1"), "--dice", "faltan caras")
    assert_usage_error(cli("reglas", "contest", "5", "3", "--dice", "1,2,3"), "--dice", "sobran caras")


# Trabajo en equipo ----------------------------------------------------------------------


def test_team_results_are_summed_negatives_included():
    obj = cli_one("reglas", "team", "6", "5", "4", "-d", "normal", "--dice", faces(3, 10, 1))
    results = [r["result"] for r in obj["rolls"]]
    assert results == [6 - 3, 5 - 10, 4 - 1]
    assert obj["total"] == sum(results) and obj["difficulty"] == 2
    assert obj["outcome"] == "failure"
    # Without member 2's fracaso the sum (6) would have reached 2: it sank the team.
    assert obj["sunk_by"] == [2]


def test_team_succeeds_when_the_sum_reaches_the_difficulty():
    obj = cli_one("reglas", "team", "6", "5", "-d", "normal", "--dice", faces(5, 4))
    assert obj["total"] == 2 and obj["outcome"] == "success" and obj["sunk_by"] == []


def test_team_failure_not_caused_by_a_fracaso_names_nobody():
    obj = cli_one("reglas", "team", "3", "3", "-d", "dificil", "--dice", faces(2, 2))
    assert obj["outcome"] == "failure" and obj["sunk_by"] == []


def test_team_needs_two_members():
    assert_usage_error(cli("reglas", "team", "5", "--seed", "1"), "ÍNDICE", "dos miembros")


def test_team_one_die_per_member():
    assert_usage_error(cli("reglas", "team", "5", "4", "3", "--dice", "1,2"), "--dice", "faltan caras")


# Acciones extendidas --------------------------------------------------------------------


def test_extended_accumulates_non_negative_results_to_the_target():
    obj = cli_one("reglas", "extended", "4+3", "--target", "8", "--start", "2", "--max-rolls", "3",
                  "--dice", faces(4, 7, 5))
    assert obj["command"] == "extended"
    assert [r["result"] for r in obj["rolls"]] == [3, 0, 2]
    assert obj["running_totals"] == [5, 5, 7] and obj["total"] == 7 and obj["start"] == 2
    assert obj["outcome"] == "failure" and obj["ended_by"] == "limit"
    obj = cli_one("reglas", "extended", "4+3", "--target", "7", "--start", "2", "--dice", faces(4, 7, 5))
    assert obj["outcome"] == "success" and obj["ended_by"] == "target" and obj["total"] == 7


def test_extended_fumble_ends_the_attempt():
    assert reglas.EXTENDED_FUMBLE_ENDS
    obj = cli_one("reglas", "extended", "5", "--target", "20", "--dice", faces(1, 8))
    assert obj["outcome"] == "fumble" and obj["ended_by"] == "fumble"
    assert obj["total"] == 4  # the fracaso takes nothing away
    assert_usage_error(cli("reglas", "extended", "5", "--target", "20", "--dice", faces(1, 8, 1)),
                       "--dice", "sobran caras")


def test_extended_roll_limit():
    obj = cli_one("reglas", "extended", "5", "--target", "20", "--max-rolls", "2", "--dice", faces(1, 1))
    assert obj["outcome"] == "failure" and obj["ended_by"] == "limit" and obj["total"] == 8


def test_extended_default_bound_ends_a_target_that_is_never_met():
    # iE 1 and a die of 1 give 0 éxitos forever: only the bound stops the loop.
    obj = cli_one("reglas", "extended", "1", "--target", "5", "--dice", faces(*[1] * DEFAULT_MAX_ROLLS))
    assert obj["ended_by"] == "limit" and len(obj["rolls"]) == DEFAULT_MAX_ROLLS and obj["total"] == 0
    assert_usage_error(
        cli("reglas", "extended", "1", "--target", "5", "--dice", faces(*[1] * (DEFAULT_MAX_ROLLS + 1))),
        "--dice", "sobran caras")


def test_extended_hard_limit_with_random_dice():
    # iE 10 never fumbles: the target 1000 takes ~220 rolls, the limit 50 stops it.
    obj = cli_one("reglas", "extended", "10", "--target", "1000", "--max-rolls", "50", "--seed", "3")
    assert len(obj["rolls"]) == 50 and obj["outcome"] == "failure"


@pytest.mark.parametrize("args, param", [
    (["--target", "5", "--start", "5"], "--start"),
    (["--target", "5", "--max-rolls", str(MAX_ROLLS + 1)], "--max-rolls"),
    (["--target", "0"], "--target"),
    ([], "--objetivo"),  # the first name in the Spanish help; both work
])
def test_extended_bad_options(args, param):
    assert_usage_error(cli("reglas", "extended", "5", *args, "--seed", "1"), param)


# Inténtalo de nuevo ---------------------------------------------------------------------


def test_retry_minus_two_per_failed_attempt():
    obj = cli_one("reglas", "retry", "8", "-d", "normal", "--dice", faces(7, 5, 1))
    assert [r["index"] for r in obj["rolls"]] == [8, 8 - 2, 8 - 4]
    assert [r["attempt_penalty"] for r in obj["rolls"]] == [0, 2, 4]
    assert obj["outcome"] == "success" and obj["attempts"] == 3 and obj["ended_by"] == "success"


def test_retry_no_retry_after_a_fumble():
    obj = cli_one("reglas", "retry", "3", "-d", "normal", "--dice", "10")
    assert obj["outcome"] == "fumble" and obj["attempts"] == 1 and obj["ended_by"] == "fumble"
    assert_usage_error(cli("reglas", "retry", "3", "-d", "normal", "--dice", "10,1"), "--dice", "sobran caras")


def test_retry_success_first_time_is_not_retried():
    obj = cli_one("reglas", "retry", "8", "--dice", "1")
    assert obj["attempts"] == 1 and obj["outcome"] == "success"


def test_retry_attempt_limit():
    obj = cli_one("reglas", "retry", "20", "-d", "100", "--max-attempts", "3", "--dice", faces(1, 1, 1))
    assert obj["attempts"] == 3 and obj["outcome"] == "failure" and obj["ended_by"] == "limit"
    assert obj["outcome"] == obj["rolls"][-1]["outcome"]


def test_retry_default_bound():
    # iE 1000 against 1000 éxitos fails every time without a fracaso: the default bound stops it.
    obj = cli_one("reglas", "retry", "1000", "-d", "1000", "--dice", faces(*[10] * DEFAULT_MAX_ROLLS))
    assert obj["attempts"] == DEFAULT_MAX_ROLLS and obj["ended_by"] == "limit"
    assert_usage_error(cli("reglas", "retry", "5", "--max-attempts", str(MAX_ROLLS + 1), "--seed", "1"),
                       "--max-attempts")


def test_engine_retry_with_given_faces():
    spec = reglas.ReglasRetry(spec=reglas.ReglasRoll(index=6, difficulty=2), max_attempts=5)
    source = GivenDice([5, 6, 3, 9])
    r = reglas.roll_retry(spec, source)
    # 6 − 5 = 1 fallo; 4 − 6 = −2 fracaso: no retry after it, the rest of the faces unused.
    assert [x.result for x in r.rolls] == [1, -2]
    assert r.ended_by == "fumble" and r.outcome == "fumble" and source.used == 2


# Shared options, JSON and rendering ----------------------------------------------------


@pytest.mark.parametrize("args", [
    ["multi", "3", "8"],
    ["contest", "8", "5", "-d", "normal"],
    ["team", "5", "4", "3"],
    ["extended", "6", "--target", "10"],
    ["retry", "6", "-d", "normal"],
])
def test_seed_times_and_json_keys(args):
    first = cli_json("reglas", *args, "--seed", "9", "-n", "4")
    assert first == cli_json("reglas", *args, "--seed", "9", "-n", "4")
    assert len(first) == 4
    keys = {"multi": set(), "contest": {"attacker", "defender", "winner"}, "team": {"total"},
            "extended": {"total", "target"}, "retry": set()}[args[0]]
    for obj in first:
        assert obj["ruleset"] == "reglas" and obj["command"] == args[0]
        assert {"rolls", "outcome"} | keys <= obj.keys()
        assert all(r["command"] == "roll" for r in obj["rolls"])


@pytest.mark.parametrize("args, words", [
    (["multi", "4", "10", "--dice", faces(1, 1, 1, 1)], ["Acción 1 (−4)", "Acción 4 (−10)"]),
    (["contest", "10", "3", "-d", "normal", "--raise", "2", "--dice", faces(1, 1)], ["Gana el atacante", "por 7"]),
    (["contest", "5", "3", "--dice", faces(3, 1)], ["Gana el defensor", "empate"]),
    (["team", "6", "5", "4", "-d", "normal", "--dice", faces(3, 10, 1)], ["Fallo", "miembro 2", "hundió"]),
    (["extended", "5", "--target", "20", "--dice", faces(1, 8)], ["Fracaso", "acumulado 4 de 20"]),
    (["retry", "8", "-d", "normal", "--dice", faces(7, 5, 1)], ["Intento 3 (−4)", "Éxito en el intento 3"]),
])
def test_terminal_render(args, words):
    run = cli("reglas", *args)
    assert run.exit_code == 0, run.stderr
    for w in words:
        assert w in run.stdout, (w, run.stdout)


@pytest.mark.process
def test_json_path_imports_neither_rich_nor_icepool():
    code = ("import sys; from rpgdice.cli import main; "
            "main(['reglas', 'extended', '6', '--target', '10', '--seed', '1', '--json']); "
            "sys.stderr.write(json.dumps([m for m in ('rich', 'icepool') if m in sys.modules]))")
    out = subprocess.run([sys.executable, "-c", "import json; " + code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stderr) == []
    assert json.loads(out.stdout)["command"] == "extended"

"""Every limit docs/reference.md ("Limits") and the README state, tested as written: the
text says it (the quote below is in it, word for word), the largest allowed is accepted,
and one over is refused at once (exit 2, one line, nothing on stdout). The big ones run
as a process with --json to /dev/null and are marked slow."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import assert_usage_error, cli, proc

ROOT = Path(__file__).resolve().parents[1]
TEXT = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split()
                + (ROOT / "docs" / "reference.md").read_text(encoding="utf-8").split())
"""The README and the reference, their whitespace folded (a quote may wrap)."""

SIDE20 = "+".join(["1"] * 20)
INITIATIVE100 = [f"c{i}=2+2" for i in range(100)]

# (what the text says, the largest allowed, one over)
QUICK = [
    ("dice in one pool, after die modifiers | 1000",
     ["crytures", "roll", "999", "--die-mod", "1"], ["crytures", "roll", "1000", "--die-mod", "1"]),
    ("the 1000-dice limit applies to the pool before that cap",
     ["seyruun", "roll", "1000"], ["seyruun", "roll", "1000", "1"]),
    ("`-n`, `--times` | 1 to 100000",
     ["crytures", "roll", "3", "-n", "1"], ["crytures", "roll", "3", "-n", "0"]),
    ("`-n`, `--times` | 1 to 100000",
     ["crytures", "roll", "3", "-n", "2"], ["roll", "d20", "-n", "100001"]),
    ("a count, level or modifier (`--bonus`, `--die-mod`, `--difficulty N`, …) | 1000 in size",
     ["reglas", "roll", "5", "--mod", "-1000"], ["reglas", "roll", "5", "--mod", "1001"]),
    ("Cypher `--asset` 0–2", ["cypher", "task", "-d", "5", "--asset", "2"],
     ["cypher", "task", "-d", "5", "--asset", "3"]),
    ("`--effort` 0–6", ["cypher", "task", "-d", "5", "--effort", "6"],
     ["cypher", "task", "-d", "5", "--effort", "7"]),
    ("difficulty 0–10", ["cypher", "task", "-d", "10"], ["cypher", "task", "-d", "11"]),
    ("its sum keeps to the limit of one (1000 in size)",
     ["reglas", "roll", "5", "--mod", "600", "--mod", "400"],
     ["reglas", "roll", "5", "--mod", "600", "--mod", "401"]),
    ("1000 dice written in one expression, all terms together",
     ["roll", "500d6+500d6"], ["roll", "500d6+501d6"]),
    ("sides 2–1000 or `%`", ["roll", "3d1000"], ["roll", "3d1001"]),
    ("sides 2–1000 or `%`", ["roll", "3d2"], ["roll", "3d1"]),
    ("constants and comparison targets up to 1,000,000",
     ["roll", "d6+1000000"], ["roll", "d6+1000001"]),
    ("constants and comparison targets up to 1,000,000",
     ["roll", "2d6>=1000000"], ["roll", "2d6>=1000001"]),
    ("K from 1 to N", ["roll", "4d6kh4"], ["roll", "4d6kh5"]),
    ("combatants in one `seyruun initiative` | 100",
     ["seyruun", "initiative", *INITIATIVE100], ["seyruun", "initiative", *INITIATIVE100, "x=1"]),
    ("terms of a contest side, `--damage` or `--soak` | 20, each at most 1000",
     ["seyruun", "contest", SIDE20, "3"], ["seyruun", "contest", SIDE20 + "+1", "3"]),
    ("terms of a contest side, `--damage` or `--soak` | 20, each at most 1000",
     ["seyruun", "contest", "1000", "3"], ["seyruun", "contest", "1001", "3"]),
    ("a pool holds at most 1000 dice", ["crytures", "roll", "1000"], ["crytures", "roll", "1001"]),
    ("`--seed` | 0 to 2^64 − 1", ["crytures", "roll", "3", "--seed", str(2**64 - 1)],
     ["crytures", "roll", "3", "--seed", str(2**64)]),
]

ODDS = [
    # odds commands take no --seed: (what the text says, allowed, refused)
    ("Roughly, the largest sums allowed are 740d4, 440d6, 240d10, 110d20",
     ["odds", "440d6"], ["odds", "480d6"]),
    ("Roughly, the largest sums allowed are 740d4, 440d6, 240d10, 110d20",
     ["odds", "110d20"], ["odds", "125d20"]),
    ("keeping the highest or lowest one is cheap at any size (`1000d6kh1`, `2d1000kh1`)",
     ["odds", "1000d6kh1"], ["odds", "1001d6kh1"]),
    ("1000 dice with `--attack --crit-hits 5` are allowed, `--crit-hits 6` are not (100 dice "
     "take any `--crit-hits`)", ["crytures", "odds", "100", "--attack", "--crit-hits", "1000"],
     ["crytures", "odds", "1000", "--attack", "--crit-hits", "6"]),
]

BIG = [
    # The work budget: the most repetitions of each command, and one more.
    ("`reglas retry 1000 -d 1000 --max-attempts 1000 -n 100`",
     ["reglas", "retry", "1000", "-d", "1000", "--max-attempts", "1000", "-n", "100"],
     ["reglas", "retry", "1000", "-d", "1000", "--max-attempts", "1000", "-n", "101"]),
    ("`seyruun extended 10 1 --target 1000 --max-rolls 1000 -n 55`",
     ["seyruun", "extended", "10", "1", "--target", "1000", "--max-rolls", "1000", "-n", "55"],
     ["seyruun", "extended", "10", "1", "--target", "1000", "--max-rolls", "1000", "-n", "56"]),
    ("any single-die roll (`rpgdice roll d20`, a Reglas roll, a Cypher task) may be repeated "
     "the full 100000 times", ["roll", "d20", "-n", "100000"], ["roll", "d20", "-n", "100001"]),
    ("any single-die roll (`rpgdice roll d20`, a Reglas roll, a Cypher task) may be repeated "
     "the full 100000 times", ["roll", "d20+5", "-n", "100000"], ["roll", "d20+5", "-n", "100001"]),
    ("`reglas roll 5 -n 100000`", ["reglas", "roll", "5", "-n", "100000"],
     ["reglas", "roll", "5", "-n", "100001"]),
    ("`cypher task -d 5 -n 100000`", ["cypher", "task", "-d", "5", "-n", "100000"],
     ["cypher", "task", "-d", "5", "-n", "100001"]),
    ("`crytures roll 1000 -n 1089`", ["crytures", "roll", "1000", "-n", "1089"],
     ["crytures", "roll", "1000", "-n", "1090"]),
    ("`reglas multi 1000 1000 -n 100`", ["reglas", "multi", "1000", "1000", "-n", "100"],
     ["reglas", "multi", "1000", "1000", "-n", "101"]),
    ("(`1000d6 -n 1089` is allowed, `-n 1090` is not", ["roll", "1000d6", "-n", "1089"],
     ["roll", "1000d6", "-n", "1090"]),
    ("`1000d6! -n 10` is, `-n 11` is not)", ["roll", "1000d6!", "-n", "10"],
     ["roll", "1000d6!", "-n", "11"]),
]


def _refused_at_once(args: list[str]) -> None:
    started = time.monotonic()
    run = cli(*args, *([] if "--seed" in args else ["--seed", "1"]))
    assert time.monotonic() - started < 5, args  # before anything is rolled
    assert_usage_error(run)


@pytest.mark.parametrize("quote, largest, over", QUICK, ids=[" ".join(c[2])[:60] for c in QUICK])
def test_a_limit_as_written(quote, largest, over):
    assert quote in TEXT
    run = cli(*largest, *([] if "--seed" in largest else ["--seed", "1"]), "--json")
    assert run.exit_code == 0, (largest, run.stderr)
    assert run.stdout
    _refused_at_once(over)


@pytest.mark.parametrize("quote, largest, over", BIG, ids=[" ".join(c[1]) for c in BIG])
def test_one_over_the_work_budget_is_refused_at_once(quote, largest, over):
    assert quote in TEXT
    _refused_at_once(over)


@pytest.mark.slow
@pytest.mark.parametrize("quote, largest, over", BIG, ids=[" ".join(c[1]) for c in BIG])
@pytest.mark.process
def test_the_largest_command_the_budget_allows_runs(quote, largest, over):
    done = subprocess.run([sys.executable, "-m", "rpgdice", *largest, "--seed", "1", "--json"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          timeout=600, env=_env())
    assert done.returncode == 0 and done.stderr == "", (largest, done.stderr)


@pytest.mark.slow
@pytest.mark.parametrize("quote, allowed, refused", ODDS, ids=[" ".join(c[2]) for c in ODDS])
def test_an_odds_limit_as_written(quote, allowed, refused):
    assert quote in TEXT
    run = cli(*allowed, "--json")
    assert run.exit_code == 0 and run.json(), (allowed, run.stderr)
    started = time.monotonic()
    run = cli(*refused, "--json")
    assert time.monotonic() - started < 5, refused  # refused before any work
    assert_usage_error(run)


def test_the_largest_crytures_odds_the_text_allows_are_within_their_budget():
    # Computing them takes about a minute: their estimate is checked, as the command does.
    from rpgdice.rulesets.crytures import odds as cry_odds
    from rpgdice.rulesets.crytures import rules as crytures

    allowed = crytures.CryturesRoll(base_pool=1000, attack=True, crit_hits=5)
    assert cry_odds.crytures_work(allowed) <= cry_odds.CRYTURES_MAX_WORK


def _env() -> dict[str, str]:
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "RPGDICE_SEED")}
    env["RPGDICE_LOG"] = "never"
    return env


@pytest.mark.process
def test_the_budgets_error_line_is_the_one_the_reference_shows():
    run = proc("crytures", "roll", "1000", "-n", "100000")
    assert_usage_error(run)
    assert run.stderr.strip() in TEXT


# The Crytures odds budget: critical hits that add successes --------------------------------


@pytest.mark.process
def test_crytures_odds_with_huge_critical_hits_are_refused_at_once_not_left_to_run():
    # CLI.md "Errors": a command's work is bounded by a budget the README states, and a
    # command over it is refused at once (exit 2), naming the budget. 1000 dice whose
    # critical hits add 1000 successes each have ~500000 distinct totals: hours of
    # exact arithmetic. (A subprocess with a timeout, so a regression fails, not hangs.)
    for args in (["crytures", "odds", "1000", "--attack", "--crit-hits", "1000"],
                 ["crytures", "roll", "1000", "--attack", "--crit-hits", "1000", "--odds",
                  "--seed", "1"]):
        assert_usage_error(proc(*args, timeout=60), "--crit-hits", "budget")


def test_the_largest_ordinary_crytures_odds_stay_within_the_budget():
    # The budget refuses only what the README says takes too long: a 1000-die pool, an
    # attack whose critical hits add the default 1 success, is allowed.
    from rpgdice.rulesets.crytures import odds as cry_odds
    from rpgdice.rulesets.crytures import rules as crytures

    for spec in (crytures.CryturesRoll(base_pool=1000),
                 crytures.CryturesRoll(base_pool=1000, attack=True),
                 crytures.CryturesRoll(base_pool=1000, attack=True, crit_hits=3),
                 crytures.CryturesRoll(base_pool=100, attack=True, crit_hits=1000)):
        assert cry_odds.crytures_work(spec) <= cry_odds.CRYTURES_MAX_WORK, spec
    huge = crytures.CryturesRoll(base_pool=1000, attack=True, crit_hits=1000)
    assert cry_odds.crytures_work(huge) > cry_odds.CRYTURES_MAX_WORK


@pytest.mark.process
def test_log_stats_leaves_out_a_logged_roll_whose_odds_are_over_the_budget():
    # `log stats` weighs each logged roll against its exact odds; a roll whose odds are
    # refused (over the budget) is left out, like one that no longer parses, and the
    # other rolls are still judged.
    env = {"RPGDICE_LOG": "never"}
    for args in (["crytures", "roll", "1000", "--attack", "--crit-hits", "1000"],
                 ["crytures", "roll", "3"]):
        assert proc(*args, "--seed", "1", "--log", "--json", env=env).returncode == 0
    run = proc("log", "stats", "--json", env=env, timeout=60)
    assert run.returncode == 0, run.stderr
    import json

    (stats,) = [json.loads(line) for line in run.stdout.splitlines()]
    assert stats["ruleset"] == "crytures" and stats["rolls"] == 1 and stats["left_out"] == 1

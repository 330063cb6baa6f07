"""Issue 18 (the budget of the Reglas actions): each action of `multi`, each member of `team`,
each roll of `extended` and each attempt of `retry` is one roll of one d10, and the budget
counts it so (a die and a roll); the command's whole worst case is known before anything is
rolled. One repetition over the budget is refused at once, in Spanish, naming the budget and
the most repetitions it accepts; the most it accepts runs."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time

import pytest

from conftest import cli
from rpgdice.core.budget import ROLL_COST, WORK_BUDGET

TEAM = ["1000"] * 1000
# (the command at -n 1, the dice and rolls it can roll at most, which -n the budget refuses)
WORST = [
    (["reglas", "multi", "1000", "1000"], 1000),
    (["reglas", "team", *TEAM], 1000),
    (["reglas", "extended", "10", "--target", "1000", "--max-rolls", "1000"], 1000),
    (["reglas", "retry", "1000", "-d", "1000", "--max-attempts", "1000"], 1000),
    (["reglas", "multi", "7", "5"], 7),
    (["reglas", "retry", "6", "-d", "9", "--max-attempts", "4"], 4),
]
IDS = [" ".join(args[:2] + args[2:5]) for args, _ in WORST]


def _most(rolls: int) -> int:
    """The most repetitions of a command of ``rolls`` one-die rolls the budget accepts."""
    return WORK_BUDGET // (rolls * (1 + ROLL_COST))


@pytest.mark.parametrize("args, rolls", WORST, ids=IDS)
def test_one_repetition_rolls_no_more_than_the_budget_counts(args, rolls):
    run = cli(*args, "--seed", "7", "--json")
    assert run.exit_code == 0, run.stderr
    rolled = json.loads(run.stdout)["rolls"]
    assert 1 <= len(rolled) <= rolls
    assert all(1 <= r["die"] <= 10 for r in rolled)  # one d10 an action, whatever the index


@pytest.mark.parametrize("args, rolls", WORST, ids=IDS)
def test_one_over_the_budget_is_refused_at_once_in_spanish(args, rolls):
    most = _most(rolls)
    started = time.monotonic()
    run = cli(*args, "-n", str(most + 1), "--seed", "1", env={"RPGDICE_LOG": "never"})
    assert time.monotonic() - started < 5  # before anything is rolled
    assert run.exit_code == 2 and run.stdout == ""
    work = (most + 1) * rolls * (1 + ROLL_COST)
    assert run.stderr == (
        f"rpgdice: error: -n: {most + 1} repeticiones de hasta {rolls} dados en {rolls} tiradas "
        f"son {work:,} dados de trabajo, más que el presupuesto de {WORK_BUDGET:,} por orden "
        f"(un dado cuenta 1, una tirada {ROLL_COST}); acepta como mucho {most} repeticiones de "
        "esta orden\n")
    assert not re.search(r"\b(budget|work|dice|rolls|repetitions|accepts)\b", run.stderr)


@pytest.mark.slow
@pytest.mark.parametrize("args, rolls", WORST[:4], ids=IDS[:4])
@pytest.mark.process
def test_the_most_the_budget_accepts_runs(args, rolls):
    done = subprocess.run(
        [sys.executable, "-m", "rpgdice", *args, "-n", str(_most(rolls)), "--seed", "1", "--json"],
        capture_output=True, text=True, timeout=600,
        env={**os.environ, "RPGDICE_LOG": "never"})
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.count('"command": "roll"') <= _most(rolls) * rolls


def test_the_reference_says_how_an_action_counts():
    from pathlib import Path

    text = " ".join((Path(__file__).resolve().parents[1] / "docs" / "reference.md")
                    .read_text(encoding="utf-8").split())
    assert ("is one roll of one d10 whatever its índice, counted as 1 die and 1 roll" in text)
    assert "`reglas multi 1000 1000 -n 100`" in text and _most(1000) == 100

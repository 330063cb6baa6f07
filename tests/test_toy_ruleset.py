"""The toy ruleset (tests/toy/rpgdice_toy): a fifth system built by following
docs/adding-a-ruleset.md and installed as another package installs one (an entry point of
the group ``rpgdice.rulesets``, in ``rpgdice_toy-1.0.dist-info``). Nothing in rpgdice names
it: if it shows up in help, ``--json``, odds, the log, again, play and completion, the
guide is true and adding a ruleset is its folder and nothing else.

A d6 pool whose highest die decides: 6 a success, 4 or 5 a partial success, 1 to 3 a
failure. Every expected value below is worked out by hand from that rule.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from conftest import cli, ok

TOY = Path(__file__).resolve().parent / "toy"
RULES = TOY / "rules.toml"


LISTING = ("rpgdice.cli.table", "rpgdice.cli.log")
"""Modules whose options list the rulesets when they are imported (``char new --ruleset``,
``log --ruleset``): imported again once the toy is installed, as in a process that starts
with it installed."""


@pytest.fixture
def toy(monkeypatch):
    """The toy installed for this test (its folder on the path, the registry read again)."""
    import importlib

    from rpgdice import rulesets
    from rpgdice.cli import root

    def fresh() -> None:
        rulesets.forget()
        root.cache_clear()
        for module in LISTING:
            importlib.reload(importlib.import_module(module))

    monkeypatch.syspath_prepend(str(TOY))
    fresh()
    yield
    monkeypatch.undo()
    for name in [m for m in sys.modules if m == "rpgdice_toy" or m.startswith("rpgdice_toy.")]:
        del sys.modules[name]
    fresh()


def test_the_toy_is_not_there_unless_installed():
    from rpgdice import rulesets

    assert "toy" not in rulesets.NAMES
    assert cli("toy", "roll", "3").exit_code == 2


def test_the_registry_finds_it_from_its_entry_point(toy):
    from rpgdice import rulesets

    assert rulesets.NAMES[-1] == "toy"  # after the built-in ones (its record's order)
    assert rulesets.known("toy") and rulesets.get("toy").title == "Toy"
    assert "toy" in rulesets.SHEET_RULESETS


def test_help_lists_it(toy):
    top = ok("--help", env={"COLUMNS": "120"}).stdout
    assert "toy" in top and "Toy: a d6 pool, the highest die decides." in top
    assert "the Cypher System and Toy, by the letter" in " ".join(top.split())
    roll = ok("toy", "roll", "--help", env={"COLUMNS": "120"}).stdout
    for option in ("--dice", "--seed", "--times", "--json", "--odds", "--log", "--short",
                   "--secret", "--compare", "--as"):
        assert option in roll, option


@pytest.mark.parametrize(("faces", "outcome", "highest"), [
    ([6, 1, 1], "success", 6), ([5, 4, 2], "partial", 5), ([4], "partial", 4),
    ([3, 3, 1], "failure", 3), ([1, 2], "failure", 2),
])
def test_json_names_the_outcome_of_the_highest_die(toy, faces, outcome, highest):
    dice = ",".join(map(str, faces))
    (obj,) = ok("toy", "roll", str(len(faces)), "--dice", dice, "--json").json()
    assert obj == {"ruleset": "toy", "command": "roll", "outcome": outcome,
                   "pool": len(faces), "dice": faces, "highest": highest, "seed": None}


def _cases() -> list:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    with open(RULES, "rb") as f:
        return [pytest.param(c, id=c["name"]) for c in tomllib.load(f)["case"]]


@pytest.mark.parametrize("case", _cases())
def test_the_rule_cases_of_its_file(toy, case):
    """tests/toy/rules.toml, read as tests/rules/<ruleset>.toml is (test_rules.py)."""
    from test_rules import subset

    argv = [*case["argv"], "--dice", ",".join(map(str, case["dice"]))] if "dice" in case \
        else list(case["argv"])
    run = cli(*argv, "--json")
    if "error" in case:
        assert run.exit_code == 2 and case["error"] in run.stderr, run.stderr
        return
    assert run.exit_code == 0, run.stderr
    (obj,) = [json.loads(line) for line in run.stdout.splitlines()]
    assert subset(case["expect"], obj) == []


def test_its_exact_odds_are_the_counted_ones(toy):
    # Two dice: 36 outcomes. Highest 6: 11 (any pair with a 6). Highest 1-3: 3x3 = 9.
    (odds,) = ok("toy", "odds", "2", "--json").json()
    assert odds["outcomes"] == {"success": 11 / 36, "partial": 16 / 36, "failure": 9 / 36}
    counted = {k: sum(1 for a in range(1, 7) for b in range(1, 7) if max(a, b) == k)
               for k in range(1, 7)}
    assert {int(k): Fraction(v).limit_denominator(36) for k, v in odds["highest"].items()} == {
        k: Fraction(n, 36) for k, n in counted.items()}
    (rolled,) = ok("toy", "roll", "2", "--dice", "6,2", "--json", "--odds").json()
    assert rolled["odds"]["outcome"] == 11 / 36


def test_it_refuses_what_its_rules_refuse(toy):
    run = cli("toy", "roll", "0")
    assert run.exit_code == 2 and run.stderr.startswith("rpgdice: error: POOL: 0 is below 1")
    run = cli("toy", "roll", "2", "--dice", "7,1")
    assert run.exit_code == 2 and "7" in run.stderr
    assert cli("toy", "roll", "2", "--dice", "1,2", "--seed", "3").exit_code == 2


def test_the_log_keeps_it_and_replays_it_from_its_spec(toy):
    ok("toy", "roll", "3", "--seed", "7", "--log")
    (entry,) = ok("log", "--json").json()
    assert entry["ruleset"] == "toy" and entry["command"] == "roll"
    assert entry["argv"] == ["toy", "roll", "3", "--seed", "7", "--log"]
    shown = ok("log").stdout
    assert "toy roll 3" in shown and " → " in shown
    replay = ok("log", "show", "1", "--replay", "--json").json()[0]
    assert replay["replayed"] is True
    (again,) = ok("again", "--json", "--no-log", quiet=False).json()
    assert again["ruleset"] == "toy" and again["pool"] == 3 and again["seed"] != 7
    stats = ok("log", "stats", "--json").json()
    assert any(s.get("ruleset") == "toy" for s in stats), stats


def test_a_character_rolls_it(toy):
    ok("char", "new", "Pip", "--ruleset", "toy", "knack=2")
    (obj,) = ok("toy", "roll", "knack+1", "--as", "pip", "--dice", "1,5,6", "--json").json()
    assert obj["pool"] == 3 and obj["outcome"] == "success" and obj["character"] == "Pip"


def test_play_rolls_it(toy, monkeypatch, capsys):
    from rpgdice.cli.session import Session

    session = Session(as_json=True)
    assert session.line("use toy", 1) == 0
    assert session.line("roll 2 --dice 4,1", 2) == 0
    (obj,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert obj["ruleset"] == "toy" and obj["outcome"] == "partial"


def test_completion_offers_it(toy):
    from rpgdice.cli.completion import SHELLS, generate

    for shell in SHELLS:
        script = generate(shell)
        assert '"toy"' in script or "'toy'" in script or " toy " in script, shell
        assert shell == "bash" or "Toy: a d6 pool" in script, shell  # bash shows no help


@pytest.mark.process
@pytest.mark.slow
def test_installed_for_a_process_it_rolls_and_completes(tmp_path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(TOY), *filter(None, [os.environ.get("PYTHONPATH")])]),
        "RPGDICE_HOME": str(tmp_path)}
    run = [sys.executable, "-m", "rpgdice"]
    done = subprocess.run([*run, "toy", "roll", "2", "--dice", "6,6", "--json"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["outcome"] == "success"
    done = subprocess.run([*run, "completion", "fish"], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and "toy" in done.stdout

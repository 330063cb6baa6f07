"""The rules as data: every case in ``tests/rules/<ruleset>.toml`` runs through the CLI.

The files are those of the registered rulesets (``rpgdice.rulesets.NAMES``): a registered
ruleset that has rolling commands (its record's ``results``) and no file, or a file without
a case, is a failing test, never a silent skip; a ruleset that declares no rolling command
has nothing a case could check and needs none; a file for no registered ruleset fails.

Each case is a table (``[[case]]``) with

* ``name`` — what it shows; the test id is ``<ruleset>:<name>``, so ``pytest -k seyruun`` or
  ``pytest -k 'chance die'`` picks cases;
* ``argv`` — the command line after ``rpgdice``, as a list (``--json`` is added);
* ``dice`` — the faces given, passed as ``--dice`` (left out: the command rolls nothing, or
  the case does not depend on the faces);
* ``expect`` — the expected part of the JSON object (a subset match: every key given must be
  there with that value; a list matches a list of the same length, item by item), or a list of
  them, one per JSON line; TOML has no null, so the string ``"null"`` stands for JSON null;
* ``exit`` — the exit code (default 0) and ``error`` — a fragment of the one stderr line;
* ``setup`` — commands run first, each a list like ``argv`` (a character sheet, a logged roll),
  in the case's own fresh home; each must exit 0;
* ``note`` — the rule the case checks, quoted or cited (RULES.md or the seed text), so a person
  who knows the rules can check the expected values by hand;
* ``xfail`` — a reason, where the program disagrees with the rules (a bug to fix).

The expected values are worked out by hand from RULES.md, never pasted from the program.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import cli
from rpgdice import rulesets

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

RULES = Path(__file__).resolve().parent / "rules"
NULL = "null"
"""JSON null in a case (TOML has none)."""
KEYS = {"name", "setup", "argv", "dice", "expect", "exit", "error", "note", "xfail"}


def load(name: str) -> list[dict[str, Any]]:
    with open(RULES / f"{name}.toml", "rb") as f:
        return tomllib.load(f).get("case", [])


def needs_cases(name: str) -> bool:
    """Whether the registered ruleset ``name`` must have rule cases: it declares rolling
    commands, whose JSON the cases check."""
    return any(c.results for c in rulesets.get(name).records())


def with_files() -> list[str]:
    """The registered rulesets that have a rules file, in the registry's order."""
    return [name for name in rulesets.NAMES if (RULES / f"{name}.toml").is_file()]


def _cases() -> list[Any]:
    params = []
    for name in rulesets.NAMES:
        cases = load(name) if (RULES / f"{name}.toml").is_file() else []
        if not cases and needs_cases(name):
            params.append(pytest.param(name, None, id=f"{name}:no rule cases"))
        for case in cases:
            marks = [pytest.mark.xfail(reason=case["xfail"], strict=True)] if "xfail" in case else []
            params.append(pytest.param(name, case, id=f"{name}:{case['name']}", marks=marks))
    return params


def subset(expected: Any, actual: Any, where: str = "$") -> list[str]:
    """Where ``actual`` differs from the part of it ``expected`` names."""
    if expected == NULL:
        return [] if actual is None else [f"{where}: expected null, got {actual!r}"]
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{where}: expected an object, got {actual!r}"]
        out = []
        for key, value in expected.items():
            if key not in actual:
                out.append(f"{where}.{key}: missing")
            else:
                out += subset(value, actual[key], f"{where}.{key}")
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{where}: expected {len(expected)} items, got {actual!r}"]
        return [d for i, (e, a) in enumerate(zip(expected, actual)) for d in subset(e, a, f"{where}[{i}]")]
    if type(expected) is not type(actual) and not (
        isinstance(expected, (int, float)) and isinstance(actual, (int, float))
        and not isinstance(expected, bool) and not isinstance(actual, bool)
    ):
        return [f"{where}: expected {expected!r}, got {actual!r}"]
    return [] if expected == actual else [f"{where}: expected {expected!r}, got {actual!r}"]


def test_every_rules_file_is_a_registered_rulesets():
    assert sorted(p.stem for p in RULES.glob("*.toml")) == sorted(with_files())
    assert [p for p in RULES.iterdir() if p.suffix != ".toml"] == []


def test_every_case_is_well_formed():
    for name in with_files():
        path = RULES / f"{name}.toml"
        names = set()
        for case in load(name):
            assert set(case) <= KEYS, (path.name, case.get("name"), set(case) - KEYS)
            assert {"name", "argv", "note"} <= set(case), (path.name, case)
            assert case["name"] not in names, (path.name, "duplicate", case["name"])
            names.add(case["name"])
            assert ("expect" in case) != ("error" in case), (path.name, case["name"])
            assert all(isinstance(a, str) for a in case["argv"]), (path.name, case["name"])


def test_the_subset_match_itself():
    assert subset({"a": 1, "b": [{"c": 2}]}, {"a": 1, "b": [{"c": 2, "d": 3}], "e": 0}) == []
    assert subset({"a": 1}, {"a": 2}) and subset({"a": [1]}, {"a": [1, 2]})
    assert subset({"a": "null"}, {"a": None}) == [] and subset({"a": "null"}, {"a": 0})
    assert subset({"a": True}, {"a": 1}) and subset({"a": None}, {"a": 0}) and subset({"a": 1}, {})


@pytest.mark.parametrize(("ruleset", "case"), _cases())
def test_rule(ruleset: str, case: dict[str, Any] | None) -> None:
    if case is None:
        pytest.fail(f"{ruleset} is registered and has rolling commands, but no rule cases: "
                    f"write them in {RULES / f'{ruleset}.toml'}", pytrace=False)
    for step in case.get("setup", []):
        done = cli(*step)
        assert done.exit_code == 0, (step, done.stderr)
    argv = list(case["argv"])
    if "dice" in case:
        argv += ["--dice", ",".join(str(face) for face in case["dice"])]
    run = cli(*argv, "--json")
    assert run.exception is None, run.exception
    expected_exit = case.get("exit", 2 if "error" in case else 0)
    assert run.exit_code == expected_exit, (run.exit_code, run.stdout, run.stderr)
    if "error" in case:
        lines = run.stderr.strip().splitlines()
        assert run.stdout == "" and len(lines) == 1, run.stderr
        assert case["error"] in lines[0], lines[0]
        return
    assert run.stderr == "", run.stderr
    objects = [json.loads(line) for line in run.stdout.splitlines()]
    expect = case["expect"]
    wanted = expect if isinstance(expect, list) else [expect]
    assert len(objects) == len(wanted), (len(objects), run.stdout)
    problems = [p for e, a in zip(wanted, objects) for p in subset(e, a)]
    assert not problems, "\n".join(problems)

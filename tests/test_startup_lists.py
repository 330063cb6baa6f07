"""What a listing loads (issue 44): ``rpgdice log`` and ``rpgdice --help`` list the
rulesets, and read the installed packages' entry points only when one of them may declare
a ruleset (importing importlib.metadata and reading every package's metadata cost a
``log --last 20`` a third of its time). The toy ruleset (tests/test_toy_ruleset.py) is
still found from its entry point."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ok

PROBE = """
import json, sys
from rpgdice.cli import main
code = main(json.loads(sys.argv[1]))
sys.stdout.flush()
sys.stderr.write("\\n" + json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""
TOY = Path(__file__).resolve().parent / "toy"


def _modules_after(args: list[str], path: str = "") -> set[str]:
    env = None
    if path:
        import os

        env = {**os.environ, "PYTHONPATH": path}
    run = subprocess.run([sys.executable, "-c", PROBE, json.dumps(args)],
                         capture_output=True, text=True, timeout=60, env=env)
    probe = json.loads(run.stderr.splitlines()[-1])
    assert probe["code"] == 0, run
    return set(probe["modules"])


@pytest.mark.process
@pytest.mark.parametrize("args", [["log", "--last", "20"], ["--help"], ["log", "--help"]])
@pytest.mark.slow
def test_a_listing_reads_no_entry_points_when_no_package_declares_a_ruleset(args):
    for _ in range(3):
        ok("roll", "3d6", "--log")
    modules = _modules_after(args)
    assert "importlib.metadata" not in modules
    assert "rpgdice.cli.log" in modules or args == ["--help"]


@pytest.mark.process
def test_a_package_that_declares_a_ruleset_is_still_read():
    modules = _modules_after(["--help"], str(TOY))
    assert "importlib.metadata" in modules
    assert "rpgdice_toy" in modules  # its record read, for the list of rulesets

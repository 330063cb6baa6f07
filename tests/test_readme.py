"""The README tells the truth: its set-up commands are the ones CI runs, and every
example command in it works."""

import re
import shlex
from pathlib import Path

import pytest

from conftest import cli

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```sh\n(.*?)```", README, re.S)
TABLE_START = README.index("\n## Your table")
TABLE = README[TABLE_START:README.index("\n## ", TABLE_START + 1)]
"""The "Your table" section: its examples build on each other (a sheet, then rolls for
it), so they run in order in one home."""


def _commands(blocks: list[str]) -> list[str]:
    lines = [re.split(r"\s+#", line)[0].strip() for block in blocks for line in block.splitlines()]
    # Commands that only print; the completion-install lines redirect into $HOME.
    return [line for line in lines if line.startswith("rpgdice ") and not re.search(r"[<>|]", line)]


def _examples() -> list[str]:
    return _commands(re.findall(r"```sh\n(.*?)```", README.replace(TABLE, ""), re.S))


def test_your_table_examples_work_in_order():
    lines = _commands(re.findall(r"```sh\n(.*?)```", TABLE, re.S))
    assert any("--as" in line for line in lines) and any(" alias " in line for line in lines)
    for line in lines:
        run = cli(*shlex.split(line)[1:])
        assert run.exit_code == 0, (line, run.stderr)
        assert run.stdout and run.stderr == "", line


def test_readme_opens_with_the_two_setup_commands_ci_runs():
    first = BLOCKS[0].strip().splitlines()
    assert len(first) == 2
    install, test = first
    assert install.startswith("pip install . && rpgdice ")
    assert test.startswith("pip install -e '.[test]' && ") and "pytest" in test
    assert test in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_readme_has_examples_of_every_group():
    groups = {shlex.split(line)[1] for line in _examples()}
    assert {"crytures", "seyruun", "reglas", "cypher"} <= groups


@pytest.mark.parametrize("line", _examples())
def test_readme_example_works(line):
    run = cli(*shlex.split(line)[1:])
    assert run.exit_code == 0, (line, run.stderr)
    assert run.stdout and run.stderr == ""

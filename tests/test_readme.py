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


def _examples() -> list[str]:
    lines = [re.split(r"\s+#", line)[0].strip() for block in BLOCKS for line in block.splitlines()]
    # Commands that only print; the completion-install lines redirect into $HOME.
    return [line for line in lines if line.startswith("rpgdice ") and not re.search(r"[<>|]", line)]


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

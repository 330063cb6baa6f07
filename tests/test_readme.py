"""The README tells the truth: its two set-up commands work as written on a machine whose
system Python is externally managed (PEP 668), CI runs its test command exactly, and every
example command in it works."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import readme_samples
from conftest import cli, ruleset_groups

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```sh\n(.*?)```", README, re.S)
SETUP = BLOCKS[0].strip().splitlines()
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


def test_readme_opens_with_two_setup_commands_and_ci_runs_the_second_exactly():
    assert len(SETUP) == 2
    install, test = SETUP
    assert "rpgdice crytures roll" in install
    assert "pytest" in test
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert test in ci  # a line of its own, word for word


def test_beside_the_setup_commands_the_readme_says_how_long_the_tests_take_and_the_quick_run():
    # The paragraph under the two commands: the full run's duration, and the quick run.
    after = " ".join(README.split("```", 2)[2].split("\n\n", 2)[1].split())
    assert re.search(r"about \d+ minutes on \d+ cores", after)
    assert '`.venv/bin/python -m pytest -m "not slow"`' in after


# A stand-in for the python3 of a fresh Debian or Ubuntu machine: PEP 668 marks the system
# Python externally managed, so pip refuses to install into it (and Debian ships no `pip` on
# PATH until python3-pip is installed); its venv module works. Inside a virtual environment
# pip works as usual. The PATH of the set-up commands holds this python3 and nothing else.
SYSTEM_PYTHON = """#!/bin/sh
prev=
for arg in "$@"; do
    if [ "$prev" = -m ] && { [ "$arg" = pip ] || [ "$arg" = ensurepip ]; }; then
        echo "error: externally-managed-environment (PEP 668): use a virtual environment" >&2
        exit 1
    fi
    prev=$arg
done
exec {real} "$@"
"""


@pytest.fixture(scope="module")
def fresh_clone(tmp_path_factory):
    """A copy of the repository's files (what a clone holds, no .venv) and an
    environment whose PATH has only an externally-managed python3."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout.decode().split("\0")
    clone = tmp_path_factory.mktemp("clone")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            target = clone / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read_bytes())
    bindir = tmp_path_factory.mktemp("system-bin")
    real = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
    python3 = bindir / "python3"
    python3.write_text(SYSTEM_PYTHON.replace("{real}", shlex.quote(real)), encoding="utf-8")
    python3.chmod(0o755)
    env = {k: v for k, v in os.environ.items()
           if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "RPGDICE_SEED")}
    env["PATH"] = str(bindir)
    return clone, env


def _sh(line: str, clone: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(["/bin/sh", "-c", line], cwd=clone, env=env, capture_output=True,
                          text=True, timeout=600)


@pytest.mark.process
def test_the_stand_in_system_python_refuses_a_bare_pip_install(fresh_clone):
    clone, env = fresh_clone
    for line in ("python3 -m pip install .", "pip install ."):
        assert _sh(line, clone, env).returncode != 0, line


@pytest.mark.slow
@pytest.mark.process
def test_readme_setup_commands_work_on_an_externally_managed_python(fresh_clone):
    clone, env = fresh_clone
    install, test = SETUP
    run = _sh(install, clone, env)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "Crytures" in run.stdout and "Difficulty 6" in run.stdout, run.stdout
    # The README's way of putting rpgdice on PATH.
    run = _sh(". .venv/bin/activate && rpgdice crytures roll 3 --dice 6,6,1 --json", clone, env)
    assert run.returncode == 0, run.stderr
    assert '"successes": 2' in run.stdout
    # The test command, up to pytest itself: collecting the suite shows that the test extras
    # and the editable package are importable (running it here would run this test again).
    steps = test.split(" && ")
    assert steps[-1] == ".venv/bin/python -m pytest"
    run = _sh(" && ".join(steps[:-1]), clone, env)
    assert run.returncode == 0, run.stderr[-2000:]
    run = _sh(steps[-1] + " --collect-only -q", clone, env)
    assert run.returncode == 0, run.stdout[-2000:]
    assert re.search(r"\b\d+ tests collected", run.stdout), run.stdout[-500:]


def test_readme_has_examples_of_every_group():
    groups = {shlex.split(line)[1] for line in _examples()}
    assert set(ruleset_groups()) <= groups


@pytest.mark.parametrize("line", _examples())
def test_readme_example_works(line):
    run = cli(*shlex.split(line)[1:])
    assert run.exit_code == 0, (line, run.stderr)
    assert run.stdout and run.stderr == ""


DOCS = ROOT / "docs"
RULES_DOC = (DOCS / "rules.md").read_text(encoding="utf-8")


def test_readme_cites_the_rules_and_the_reference():
    assert "docs/rules.md" in README and "docs/reference.md" in README
    assert len(README.splitlines()) <= 400


def test_no_page_cites_a_file_the_repository_lacks():
    # RULES.md is the project's brief, not a file of the repository: cite docs/rules.md.
    for page in (ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted(DOCS.glob("*.md"))):
        text = page.read_text(encoding="utf-8")
        assert "RULES.md" not in text and "CLI.md" not in text, page.name
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text):
            assert (page.parent / target).exists(), (page.name, target)


def test_development_lives_in_contributing():
    contributing = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    for what in ("pytest", "nox", "mypy", "ruff check", "bench/", "src/rpgdice/rulesets/",
                 "python -m tests.readme_samples --write"):
        assert what in contributing, what
    assert "## Development" not in REFERENCE and "CONTRIBUTING.md" in README


SAMPLE_FILES = [p for p in readme_samples.FILES if readme_samples.samples(p)]


def test_the_readme_and_the_reference_hold_samples():
    assert len(readme_samples.samples(ROOT / "README.md")) >= 6
    assert ROOT / "docs" / "reference.md" in SAMPLE_FILES


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=[p.name for p in SAMPLE_FILES])
@pytest.mark.process
@pytest.mark.slow
def test_sample_outputs_are_what_the_program_prints(path):
    drift = readme_samples.drifted(path)
    assert not drift, (
        f"{path.name}: sample output drifted from what the program prints at 80 columns: "
        + "; ".join(s.command for s, _ in drift)
        + f" — regenerate with: {readme_samples.REGENERATE}")
    for sample in readme_samples.samples(path):
        assert all(len(line) <= 80 for line in sample.text.splitlines()), sample.name


REFERENCE = (DOCS / "reference.md").read_text(encoding="utf-8")


def _readme_decisions() -> list[str]:
    # The decisions in short live in the reference now (the README is the user's guide).
    start = REFERENCE.index("\n## Decisions")
    end = REFERENCE.find("\n## ", start + 1)
    section = REFERENCE[start:end if end != -1 else len(REFERENCE)]
    return [" ".join(name.split()) for name in re.findall(r"\*\*([^*]+)\*\*", section)]


def test_every_decision_the_readme_names_is_in_docs_rules():
    named = _readme_decisions()
    assert len(named) >= 15, named
    declared = [" ".join(d.split()) for d in re.findall(r"\*\*Decision: ([^*]+?)\.\*\*", RULES_DOC)]
    missing = [name for name in named if name not in declared]
    assert not missing, missing
    # A decision named anywhere else in the README, the old way, is one of them too.
    for line in README.splitlines():
        if "(decision)" in line:
            assert any(name in line for name in declared), line


def test_docs_rules_cites_each_seed_text():
    for seed in ("000_10f2d1ce2310a16f.txt", "001_d649282d48e5b7f3.txt",
                 "003_39b30126a3d53912.txt", "004_44c2c14857f48bf7.txt"):
        assert seed in RULES_DOC, seed


def _doc_examples() -> list[str]:
    return _commands([b for doc in sorted(DOCS.glob("*.md"))
                      for b in re.findall(r"```sh\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)])


@pytest.mark.parametrize("line", _doc_examples())
def test_docs_example_works(line):
    run = cli(*shlex.split(line)[1:])
    assert run.exit_code == 0, (line, run.stderr)
    assert run.stdout and run.stderr == ""

"""The Python versions rpgdice declares are the ones CI tests, and CI runs the checks
a Python project runs on itself (issue 14)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
CI = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _declared() -> list[str]:
    return re.findall(r'"Programming Language :: Python :: (3\.\d+)"', PYPROJECT)


def test_classifiers_run_from_requires_python_to_the_newest_tested():
    versions = _declared()
    assert versions, "pyproject.toml declares no Python version"
    minors = [int(v.split(".")[1]) for v in versions]
    assert minors == list(range(minors[0], minors[-1] + 1)), "a gap in the declared versions"
    (lowest,) = re.findall(r'requires-python = ">=(3\.\d+)"', PYPROJECT)
    assert versions[0] == lowest


def test_this_python_is_declared():
    assert "{}.{}".format(*sys.version_info[:2]) in _declared()


def test_readme_names_the_supported_versions():
    versions = _declared()
    assert f"Python {versions[0]} to {versions[-1]}" in README


@pytest.mark.process
def test_noxfile_names_the_other_declared_versions():
    out = subprocess.run([sys.executable, str(ROOT / "noxfile.py"), "others"],
                         capture_output=True, text=True, timeout=60, check=True).stdout.split()
    mine = "{}.{}".format(*sys.version_info[:2])
    assert out == [v for v in _declared() if v != mine]


def test_nox_runs_the_pure_tests_unless_told_otherwise_and_the_marker_is_registered():
    noxfile = (ROOT / "noxfile.py").read_text(encoding="utf-8")
    assert 'PURE = ["-m", "not process and not slow"]' in noxfile
    assert "*(session.posargs or PURE)" in noxfile
    assert re.search(r'^\s*"process: ', PYPROJECT, re.M)
    # The whole suite runs once, on CI's own python3: the README's command, unfiltered.
    assert re.search(r"^python3 -m venv .* && \.venv/bin/python -m pytest$", CI, re.M)


def test_ci_runs_nox_on_the_other_versions_and_the_checkers():
    assert "noxfile.py others" in CI
    assert re.search(r"^\s*\S*nox .*-s tests -p \$others --install-only", CI, re.M)
    assert re.search(r"^\s*RPGDICE_WHEEL=.*nox .*-s tests", CI, re.M)  # the wheel built once
    assert re.search(r"^\S*mypy$", CI, re.M) and re.search(r"^\S*ruff check", CI, re.M)
    assert "[tool.mypy]" in PYPROJECT and "[tool.ruff" in PYPROJECT


def test_every_declared_version_gets_an_icepool_that_imports_there():
    # icepool 2.x fails to import on 3.10; the dependency is split by environment marker.
    deps = re.findall(r'"icepool[^"]*"', PYPROJECT)
    assert any("python_version < '3.11'" in d and "1.7.2" in d for d in deps), deps
    assert any("python_version >= '3.11'" in d for d in deps), deps


def test_the_completion_templates_are_package_data():
    # Not Python files: installed only because [tool.setuptools.package-data] names them.
    import fnmatch

    (block,) = re.findall(r"^\[tool\.setuptools\.package-data\]\n((?:.+\n)+)", PYPROJECT, re.M)
    (globs,) = re.findall(r'^rpgdice = \[(.*)\]$', block, re.M)
    patterns = re.findall(r'"([^"]+)"', globs)
    package = ROOT / "src" / "rpgdice"
    templates = sorted(p.relative_to(package).as_posix() for p in (package / "templates").iterdir())
    assert templates, "no completion templates"
    assert [t for t in templates if not any(fnmatch.fnmatch(t, g) for g in patterns)] == []


def _description() -> str:
    (said,) = re.findall(r'^description = "(.*)"$', PYPROJECT, flags=re.M)
    return said


def test_the_tagline_is_the_same_in_pyproject_and_the_package():
    import rpgdice

    first = (rpgdice.__doc__ or "").split("\n\n")[0].replace("\n", " ").strip()
    said = _description()
    assert first == f"rpgdice: {said[0].lower()}{said[1:]}."


def test_the_tagline_says_what_rpgdice_is_now():
    from rpgdice import rulesets

    said = _description()
    for name in rulesets.group_names():  # every built-in ruleset, by its title
        record = rulesets.get(name)
        if getattr(record, "file", ""):
            continue
        assert record.title in said, record.title
    for part in ("dice notation", "ruleset files", "encounters", "roll log", "live page"):
        assert part in said, part
    assert not said.rstrip(".").endswith("Cypher System")

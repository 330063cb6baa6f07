"""The source's shape: Typer's and Click's private parts are used in one module
(rpgdice/cli/typer_private.py) and nowhere else; no function is longer than
:data:`LONGEST` lines."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "rpgdice"
FRAMEWORK = SRC / "cli" / "typer_private.py"
PRIVATE = ("typer._click", "typer.main", "typer.rich_utils")
"""Typer's private modules (and the Click it vendors); ``from typer import X`` of their
last parts counts too."""


def _sources() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def _private(name: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in PRIVATE)


def _private_uses(path: Path, root: Path = SRC.parent) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names = [p for p in PRIVATE if p in node.value]  # sys.modules.get("typer.rich_utils")
        if any(_private(n) for n in names):
            found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_only_the_framework_module_uses_typers_private_parts():
    offenders = [use for path in _sources() if path != FRAMEWORK for use in _private_uses(path)]
    assert offenders == [], (
        "import typer._click / typer.main / typer.rich_utils from rpgdice.cli.typer_private "
        "instead:\n  " + "\n  ".join(offenders))


def test_the_check_sees_each_kind_of_use(tmp_path):
    # The check above can fail: each way of reaching the private parts is caught.
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import typer.main\n"
        "from typer._click.core import Context\n"
        "from typer import rich_utils\n"
        "import sys\n"
        "x = sys.modules.get('typer.rich_utils')\n"
        "from typer import Typer\n", encoding="utf-8")
    assert [u.split(":")[1] for u in _private_uses(probe, tmp_path)] == ["1", "2", "3", "5"]
    assert _private_uses(FRAMEWORK)  # the framework module itself does use them


LONGEST = 60
"""Lines a function or method may take, its signature, docstring and nested functions
included (``end_lineno - lineno + 1``; decorators not counted). Generated text lives in
templates (src/rpgdice/templates), not in functions."""


def _long_functions(path: Path, root: Path = SRC.parent) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return [f"{path.relative_to(root)}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
            for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno is not None and node.end_lineno - node.lineno + 1 > LONGEST]


def test_no_function_is_longer_than_60_lines():
    offenders = [f for path in _sources() for f in _long_functions(path)]
    assert offenders == [], (f"{len(offenders)} functions over {LONGEST} lines; split them:\n  "
                             + "\n  ".join(offenders))


def test_the_length_check_counts_the_whole_function(tmp_path):
    # The check above can fail: a method of 61 lines (docstring included) is caught; a
    # function of 60 is not.
    lines = [f"x{i} = {i}" for i in range(58)]
    method = ["class C:", "    def long(self):", '        """Doc."""',
              *[f"        {line}" for line in lines], "        return 1"]
    function = ["def short():", '    """Doc."""', *[f"    {line}" for line in lines]]
    probe = tmp_path / "probe.py"
    probe.write_text("\n".join(method + function) + "\n", encoding="utf-8")
    assert _long_functions(probe, tmp_path) == ["probe.py:2 long (61 lines)"]

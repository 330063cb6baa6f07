"""The source's shape: Typer's and Click's private parts are used in one module
(rpgdice/cli/typer_private.py) and nowhere else; no function is longer than
:data:`LONGEST` lines."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "rpgdice"
FRAMEWORK = SRC / "cli" / "typer_private.py"
PRIVATE = ("typer._click", "typer.main", "typer.rich_utils")
"""Typer's private modules (and the Click it vendors); ``from typer import X`` of their
last parts counts too."""


def _sources() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def _tree(path: Path) -> ast.Module:
    """``path`` parsed: once for all the checks a worker runs (by its path and text, so a
    file a test writes is parsed as written)."""
    return _parsed(str(path), path.read_text(encoding="utf-8"))


@functools.cache
def _parsed(name: str, text: str) -> ast.Module:
    return ast.parse(text, name)


def _private(name: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in PRIVATE)


def _private_uses(path: Path, root: Path = SRC.parent) -> list[str]:
    tree = _tree(path)
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


@pytest.mark.slow
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


# Typer's documented API only (issue 40) ---------------------------------------------------

NEVER = ("typer._click", "click")
"""Modules no source file imports, the framework module included: Typer's vendored Click
(its maintainers ask applications not to: fastapi/typer discussion 1816) and Click itself
(Typer 0.28 does not depend on it)."""

TYPER_MAIN_DOCUMENTED = frozenset({"get_command"})
"""The functions of ``typer.main`` Typer documents ("Using Click"), the only ones rpgdice
uses (in the framework module alone)."""


def _undocumented_uses(path: Path, root: Path = SRC.parent) -> list[str]:
    """Where ``path`` imports Click (vendored or not), or a ``typer.main`` name Typer does
    not document: ``import``, ``from ... import``, ``typer.main.NAME``, and a string naming
    the vendored Click (``sys.modules["typer._click..."]``, ``importlib``)."""
    tree = _tree(path)
    found = []
    prose = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}  # docstrings

    def never(name: str) -> bool:
        return any(name == n or name.startswith(n + ".") for n in NEVER)

    for node in ast.walk(tree):
        bad = False
        if isinstance(node, ast.Import):
            bad = any(never(a.name) or a.name == "typer.main" for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            bad = never(node.module) or (node.module == "typer" and any(
                a.name == "_click" for a in node.names)) or (node.module == "typer.main" and any(
                    a.name not in TYPER_MAIN_DOCUMENTED for a in node.names))
        elif isinstance(node, ast.Attribute) and node.attr not in TYPER_MAIN_DOCUMENTED:
            value = node.value
            bad = (isinstance(value, ast.Attribute) and value.attr == "main"
                   and isinstance(value.value, ast.Name) and value.value.id == "typer")
            bad = bad or (node.attr == "_click" and isinstance(value, ast.Name)
                          and value.id == "typer")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            bad = "typer._click" in node.value and id(node) not in prose
        if bad:
            found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


@pytest.mark.slow
def test_nothing_imports_click_or_undocumented_parts_of_typer_main():
    offenders = [use for path in _sources() for use in _undocumented_uses(path)]
    assert offenders == [], (
        "use Typer's exported names (typer.Context, typer.BadParameter, parser=, callback=; "
        "rpgdice.cli.typer_private for get_command and Click's usage errors):\n  "
        + "\n  ".join(offenders))


def test_the_documented_api_check_sees_each_kind_of_use(tmp_path):
    # The check above can fail: each way of reaching Click or an undocumented function of
    # typer.main is caught; typer.main.get_command and Typer's exported names are not.
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from typer._click import exceptions\n"                    # 1
        "import click\n"                                           # 2
        "from click.core import ParameterSource\n"                 # 3
        "from typer import _click\n"                               # 4
        "from typer.main import get_command, get_group\n"          # 5
        "import typer.main\n"                                      # 6
        "import typer\n"
        "x = typer.main.get_params_convertors_ctx_param_name_from_function\n"  # 8
        "y = typer._click.Context\n"                               # 9
        "import sys\n"
        "z = sys.modules['typer._click.core']\n"                   # 11
        "from typer.main import get_command\n"
        "w = typer.main.get_command\n"
        "v = typer.Context, typer.BadParameter, typer.CallbackParam\n"
        "'A docstring may name typer._click.'\n", encoding="utf-8")
    assert [u.split(":")[1] for u in _undocumented_uses(probe, tmp_path)] == [
        "1", "2", "3", "4", "5", "6", "8", "9", "11"]


RULESET_CLI_IMPORTS: dict[str, str] = {
    "rpgdice.cli.params": "the parsers' library (numbers, sums, levels, choices, a target's "
    "name), which raises typer.BadParameter and is read by the command line's own commands "
    "too; next: move it beneath (core), raising rpgdice.core.errors.BadValue",
    "rpgdice.cli.common.PANELS": "Reglas Básicas' help panels in Spanish (Argumentos, "
    "Opciones), declared once with the command line's panels",
}
"""What the rulesets still import of the command line (each name with why), until it
moves beneath them. A listed one no ruleset imports fails the test, so the list only
shrinks; ``rpgdice.cli.typer_private`` is never one: a ruleset's parser raises rpgdice's
own :class:`rpgdice.core.errors.BadValue`, which the command line makes its usage error."""


def _ruleset_cli_imports(path: Path, root: Path = SRC) -> list[tuple[str, str]]:
    rel = path.relative_to(root).as_posix()
    if not rel.startswith("rulesets/"):
        return []
    return [(f"{rel}:{line}", name) for line, name in _imported(path, root)
            if _under(name, "rpgdice.cli") or name == "rpgdice.cli"]


def test_the_rulesets_import_nothing_of_the_command_line_but_what_is_listed():
    found = [(where, name) for path in _sources() for where, name in _ruleset_cli_imports(path)]
    offences = [f"{where} {name}" for where, name in found if name not in RULESET_CLI_IMPORTS]
    assert offences == [], ("a ruleset imports the command line (raise "
                            "rpgdice.core.errors.BadValue from a parser; import what the "
                            "command line re-exports from where it lives):\n  "
                            + "\n  ".join(offences))
    assert sorted(set(RULESET_CLI_IMPORTS) - {name for _, name in found}) == []


def test_the_ruleset_import_check_sees_each_kind(tmp_path):
    # The check above can fail: a lazy import of the framework module, a from-import of
    # the package and a relative one are seen in a ruleset's folder; elsewhere none counts.
    root = tmp_path / "rpgdice"
    probes = {
        "rulesets/cypher/probe.py": "def f():\n    from rpgdice.cli.typer_private import is_a\n",
        "rulesets/_file/probe.py": "from rpgdice import cli\nfrom ...cli import output\n",
        "rulesets/probe.py": "import rpgdice.cli.common\n",
        "cli/probe.py": "from rpgdice.cli import params\n",
    }
    for rel, text in probes.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    assert {rel: _ruleset_cli_imports(root / rel, root) for rel in probes} == {
        "rulesets/cypher/probe.py": [("rulesets/cypher/probe.py:2",
                                      "rpgdice.cli.typer_private.is_a")],
        "rulesets/_file/probe.py": [("rulesets/_file/probe.py:1", "rpgdice.cli"),
                                    ("rulesets/_file/probe.py:2", "rpgdice.cli.output")],
        "rulesets/probe.py": [("rulesets/probe.py:1", "rpgdice.cli.common")],
        "cli/probe.py": [],
    }


LONGEST = 60
"""Lines a function or method may take, its signature, docstring and nested functions
included (``end_lineno - lineno + 1``; decorators not counted). Generated text lives in
templates (src/rpgdice/templates), not in functions."""


def _long_functions(path: Path, root: Path = SRC.parent) -> list[str]:
    tree = _tree(path)
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


# Layers point down ----------------------------------------------------------------------

RULESET_FOLDERS = frozenset(p.name for p in (SRC / "rulesets").iterdir()
                            if p.is_dir() and (p / "__init__.py").exists())

LAYERS: list[tuple[str, str, tuple[str, ...]]] = [
    ("table/", "the user's files and the roll log: beneath the rulesets and every view",
     ("rpgdice.rulesets", "rpgdice.cli", "rpgdice.serve", "rpgdice.render")),
    ("render/", "the shared render primitives: beneath the command line, the server and "
     "the ruleset registry", ("rpgdice.cli", "rpgdice.serve", "rpgdice.rulesets")),
    ("serve/", "the table's page: beside the command line, never through it, and beneath "
     "the rulesets", ("rpgdice.cli", "rpgdice.rulesets")),
    ("roll/", "the executor: beneath the command line, the server and the rulesets (a "
     "ruleset's builders, costs and fight come through rpgdice.core.registry)",
     ("rpgdice.rulesets", "rpgdice.cli", "rpgdice.serve")),
]
"""Each folder under src/rpgdice, what it is, and what it never imports (through
:mod:`rpgdice.core.registry` the layers beneath the rulesets find a ruleset's record)."""

EXCEPTIONS: dict[tuple[str, str], str] = {}
"""Imports against the layers that stay for now, each (module path, imported name) with the
reason: none today. A listed one that is gone fails the test, so the list only shrinks."""


def _module_of(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path: Path, root: Path = SRC) -> list[tuple[int, str]]:
    """Every rpgdice name ``path`` imports (at the top, inside functions, under
    TYPE_CHECKING alike): ``import a.b`` gives ``a.b``; ``from a import b`` gives ``a.b``;
    relative imports are resolved."""
    tree = _tree(path)
    here = _module_of(path, root)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([module] if module else []))
            found += [(node.lineno, f"{module}.{a.name}") for a in node.names]
    return [(line, name) for line, name in found if name.split(".")[0] == "rpgdice"]


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _rules_may_import(name: str, folder: str) -> bool:
    """A ruleset's rules.py or odds.py: the engine (core), its own folder, and the
    registry's records (``rpgdice.rulesets.Die``), never another ruleset's folder."""
    if _under(name, "rpgdice.core") or _under(name, f"rpgdice.rulesets.{folder}"):
        return True
    parts = name.split(".")
    return parts[:2] == ["rpgdice", "rulesets"] and (len(parts) == 2 or
                                                     parts[2] not in RULESET_FOLDERS)


def _layer_offences(path: Path, root: Path = SRC) -> list[str]:
    rel = path.relative_to(root).as_posix()
    out = []
    for line, name in _imported(path, root):
        if rel.startswith("core/") and not _under(name, "rpgdice.core"):
            out.append(f"{rel}:{line} {name} (core/ imports only core)")
        if rel.startswith("rulesets/") and rel.count("/") == 2 and \
                path.name in ("rules.py", "odds.py") and \
                not _rules_may_import(name, rel.split("/")[1]):
            out.append(f"{rel}:{line} {name} (a ruleset's rules and odds import only core, "
                       "their own folder and the registry's records)")
        for folder, _, never in LAYERS:
            if rel.startswith(folder) and any(_under(name, p) for p in never):
                out.append(f"{rel}:{line} {name} ({folder} never imports {', '.join(never)})")
    return [o for o in out if (o.split(":")[0], o.split()[1]) not in EXCEPTIONS]


def test_layers_point_down():
    offences = [o for path in _sources() for o in _layer_offences(path)]
    assert offences == [], ("imports against the layers (inject what is needed, or find a "
                            "ruleset through rpgdice.core.registry):\n  " + "\n  ".join(offences))


def test_every_listed_layer_exception_is_still_needed():
    found = {(rel, name) for path in _sources()
             for rel in [path.relative_to(SRC).as_posix()] for _, name in _imported(path)}
    assert [e for e in EXCEPTIONS if e not in found] == []


BENEATH = ("core/", "table/", "render/", "roll/", "serve/")
"""The layers beneath the rulesets and the command line: what they need of a ruleset comes
down through :mod:`rpgdice.core.registry` and the records (issue 40, "layers down")."""


def _upward(path: Path, root: Path = SRC) -> list[str]:
    """Imports of the rulesets or the command line in a layer beneath them (at the top,
    inside a function, under TYPE_CHECKING alike)."""
    rel = path.relative_to(root).as_posix()
    if not rel.startswith(BENEATH):
        return []
    return [f"{rel}:{line} {name}" for line, name in _imported(path, root)
            if _under(name, "rpgdice.rulesets") or _under(name, "rpgdice.cli")]


def test_no_layer_beneath_imports_the_rulesets_or_the_command_line():
    offences = [o for path in _sources() for o in _upward(path)]
    assert offences == [], ("core/, table/, render/, roll/ and serve/ import neither "
                            "rpgdice.rulesets nor rpgdice.cli (find a ruleset through "
                            "rpgdice.core.registry):\n  " + "\n  ".join(offences))


def test_the_upward_check_sees_each_layer(tmp_path):
    # The check above can fail: in each layer beneath, a lazy import, a from-import of the
    # package and a relative one are seen; a ruleset's own folder may import them.
    root = tmp_path / "rpgdice"
    probes = {
        "core/probe.py": "from rpgdice.rulesets import Fight\n",
        "table/log/probe.py": "def f():\n    import rpgdice.cli.output\n",
        "render/probe.py": "from ..rulesets.dice import rules\n",
        "roll/probe.py": "def f():\n    from rpgdice import rulesets\n",
        "serve/probe.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                          "    from rpgdice.cli import seated\n",
        "rulesets/dice/probe.py": "from rpgdice.cli import common\n",
    }
    for rel, text in probes.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    assert {rel: _upward(root / rel, root) for rel in probes} == {
        "core/probe.py": ["core/probe.py:1 rpgdice.rulesets.Fight"],
        "table/log/probe.py": ["table/log/probe.py:2 rpgdice.cli.output"],
        "render/probe.py": ["render/probe.py:1 rpgdice.rulesets.dice.rules"],
        "roll/probe.py": ["roll/probe.py:2 rpgdice.rulesets"],
        "serve/probe.py": ["serve/probe.py:3 rpgdice.cli.seated"],
        "rulesets/dice/probe.py": [],
    }


def test_the_layer_check_sees_each_kind_of_import(tmp_path):
    # The check above can fail: an import at the top, inside a function, under
    # TYPE_CHECKING and a relative one are all seen, in each layer.
    root = tmp_path / "rpgdice"
    probes = {
        "core/probe.py": "from rpgdice.table import paths\n",
        "table/probe.py": "def f():\n    from rpgdice import rulesets\n",
        "table/log/probe.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                              "    from rpgdice.render.common import show\n",
        "render/probe.py": "from ..cli import stored\n",
        "serve/probe.py": "import rpgdice.cli.common\n",
        "rulesets/reglas/odds.py": "from rpgdice.rulesets.seyruun.odds import _sequence\n"
                                   "from rpgdice.rulesets.reglas import rules\n"
                                   "from rpgdice.rulesets import Die\nfrom rpgdice.core import exact\n",
        "rulesets/reglas/rules.py": "from rpgdice.table import sheets\n",
        "rulesets/reglas/view.py": "from rpgdice.render import common\n",  # no rule for views
    }
    for rel, text in probes.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    found = {rel: _layer_offences(root / rel, root) for rel in probes}
    assert {rel: [o.split(" (")[0] for o in offences] for rel, offences in found.items()} == {
        "core/probe.py": ["core/probe.py:1 rpgdice.table.paths"],
        "table/probe.py": ["table/probe.py:2 rpgdice.rulesets"],
        "table/log/probe.py": ["table/log/probe.py:3 rpgdice.render.common.show"],
        "render/probe.py": ["render/probe.py:1 rpgdice.cli.stored"],
        "serve/probe.py": ["serve/probe.py:1 rpgdice.cli.common"],
        "rulesets/reglas/odds.py": ["rulesets/reglas/odds.py:1 rpgdice.rulesets.seyruun.odds._sequence"],
        "rulesets/reglas/rules.py": ["rulesets/reglas/rules.py:1 rpgdice.table.sheets"],
        "rulesets/reglas/view.py": [],
    }


def _private_imports(path: Path, root: Path = SRC) -> list[str]:
    """Private names (``_x``) ``path`` imports from a module of another folder."""
    here = _module_of(path, root).rpartition(".")[0] if path.name != "__init__.py" \
        else _module_of(path, root)
    out = []
    for line, name in _imported(path, root):
        module, _, last = name.rpartition(".")
        folder = module.rpartition(".")[0]
        if last.startswith("_") and not last.startswith("__") and not _under(here, folder) \
                and not _under(folder, here):
            out.append(f"{path.relative_to(root).as_posix()}:{line} {name}")
    return out


def test_no_private_name_is_imported_from_another_folder():
    # Another folder's helper is public where it lives (Seyruun's initiative combatants:
    # rulesets/seyruun/initiative.py, not its commands' _combatant).
    offences = [o for path in _sources() for o in _private_imports(path)]
    assert offences == [], "make these public where they live:\n  " + "\n  ".join(offences)


def test_the_private_import_check_sees_one(tmp_path):
    root = tmp_path / "rpgdice"
    (root / "cli").mkdir(parents=True)
    (root / "cli" / "probe.py").write_text(
        "def f():\n    from rpgdice.rulesets.seyruun.commands import _combatant\n"
        "from rpgdice.cli.common import _who_typed_what\n", encoding="utf-8")
    assert _private_imports(root / "cli" / "probe.py", root) == [
        "cli/probe.py:2 rpgdice.rulesets.seyruun.commands._combatant"]


# Values, not long argument lists ------------------------------------------------------

MOST_PARAMETERS = 9
"""The most parameters a function takes (``self`` aside) unless it is a command, whose
parameters are its options: what travels together is a record passed whole."""
MANY_PARAMETERS: dict[str, str] = {}
"""Functions that take more for now, each with the reason; a listed one that is gone fails
the test, so the list only shrinks."""


def _command(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A Typer command: its parameters are its options (``*_cmd``, or decorated as one)."""
    return node.name.endswith("_cmd") or any(
        "command" in ast.unparse(d) or ast.unparse(d).startswith("rolls(")
        for d in node.decorator_list)


def _long_signatures(path: Path, root: Path = SRC) -> list[str]:
    tree = _tree(path)
    rel = path.relative_to(root).as_posix()
    out = []

    def visit(node: ast.AST, owner: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, f"{owner}{child.name}.")
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = child.args
                names = [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
                count = len(names) + bool(a.vararg) + bool(a.kwarg) - (names[:1] in (["self"], ["cls"]))
                if count > MOST_PARAMETERS and not _command(child):
                    out.append(f"{rel}:{owner}{child.name}")
                visit(child, f"{owner}{child.name}.")
            else:
                visit(child, owner)

    visit(tree, "")
    return out


def test_no_function_but_a_command_takes_more_than_nine_parameters():
    found = [f for path in _sources() for f in _long_signatures(path)]
    assert [f for f in found if f not in MANY_PARAMETERS] == [], (
        "pass a record whole instead of more than nine parameters")
    assert [f for f in MANY_PARAMETERS if f not in found] == []


def test_the_parameter_check_counts_every_kind(tmp_path):
    # The check above can fail: positional, keyword-only, *args and **kwargs all count,
    # self does not, and a command's options are its own.
    probe = tmp_path / "probe.py"
    probe.write_text(
        "def ten(a, b, c, d, e, /, f, *g, h, i, **j): pass\n"
        "def nine(a, b, c, d, e, f, g, h, i): pass\n"
        "class C:\n"
        "    def __init__(self, a, b, c, d, e, f, g, h, i): pass\n"
        "    def m(self, a, b, c, d, e, f, g, h, i, j): pass\n"
        "def many_cmd(a, b, c, d, e, f, g, h, i, j): pass\n"
        "@app.command('x')\ndef x(a, b, c, d, e, f, g, h, i, j): pass\n", encoding="utf-8")
    assert _long_signatures(probe, tmp_path) == ["probe.py:ten", "probe.py:C.m"]

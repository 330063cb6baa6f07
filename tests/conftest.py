"""Shared helpers: run the CLI in-process (CliRunner) or as a real process; the table every
test starts from (its own RPGDICE_HOME, the characters defined once as data, its roll log);
and the ``process`` mark, held to what each test does."""

from __future__ import annotations

import itertools
import json
import os
import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import typer.testing
from hypothesis import settings
from typer.testing import CliRunner

from rpgdice.cli import app, root

# In-process commands go through the one root group a process keeps (rpgdice.cli.root), as
# a session's lines and the server's rolls do, rather than a new one built for each: the
# commands built by one test serve the next, so every test also checks that a long-lived
# process sees a ruleset file added, edited or removed between two commands (each test has
# a home of its own). Building the tree again for every command was a fifth of the
# in-process tests' time.
typer.testing._get_command = lambda _app: root()

# Bytecode is cached even where PYTHONDONTWRITEBYTECODE is set: without it every test
# worker rewrote and compiled every test module again (some 9 s of CPU each), and every
# `python -m rpgdice` a test starts compiled rpgdice again (some 0.1 s each, hundreds of
# processes). The caches are __pycache__ folders, which git ignores.
sys.dont_write_bytecode = False

# Property tests are judged by their assertions, not by wall time on a busy machine.
settings.register_profile("rpgdice", deadline=None)
settings.load_profile("rpgdice")


@dataclass
class Run:
    exit_code: int
    stdout: str
    stderr: str
    exception: BaseException | None = None

    def json(self) -> list[dict]:
        return [json.loads(line) for line in self.stdout.splitlines()]


def cli(*args: str, env: dict[str, str] | None = None) -> Run:
    """Invoke ``rpgdice ARGS`` in-process through Typer's CliRunner."""
    result = CliRunner().invoke(app, [str(a) for a in args], env=env)
    exc = result.exception if not isinstance(result.exception, SystemExit) else None
    return Run(result.exit_code, result.stdout, result.stderr, exc)


def cli_json(*args: str) -> list[dict]:
    run = cli(*args, "--json")
    assert run.exit_code == 0, run.stderr
    return run.json()


def cli_one(*args: str) -> dict:
    (obj,) = cli_json(*args)
    return obj


def proc(*args: str, env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    """Run ``python -m rpgdice ARGS`` as a real process (stdout piped, not a terminal)."""
    base = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "RPGDICE_SEED")}
    base.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "rpgdice", *map(str, args)],
        capture_output=True, text=True, env=base, timeout=timeout,
    )


def assert_usage_error(run, *fragments: str) -> None:
    """Exit 2, nothing on stdout, one line on stderr naming what was wrong."""
    stdout = run.stdout
    stderr = run.stderr
    code = run.exit_code if hasattr(run, "exit_code") else run.returncode
    assert code == 2, (code, stdout, stderr)
    assert stdout == ""
    assert "Traceback" not in stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("rpgdice: error: "), stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


def _default_homes() -> dict[str, object]:
    """What the user's own rpgdice folders hold (without RPGDICE_HOME): each file's size
    and modification time, or None for a folder that does not exist."""
    from platformdirs import user_config_path, user_state_path

    out: dict[str, object] = {}
    for where in (user_config_path("rpgdice", appauthor=False),
                  user_state_path("rpgdice", appauthor=False)):
        out[str(where)] = None if not where.exists() else sorted(
            (str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in where.rglob("*")
            if p.is_file())
    return out


@pytest.fixture(autouse=True, scope="session")
def _users_own_files_untouched():
    """No test writes the user's own files: after the run, their rpgdice folders are
    as they were before it (every test's RPGDICE_HOME is a temporary folder)."""
    before = _default_homes()
    yield
    assert _default_homes() == before, "a test wrote the user's own rpgdice folders"


@pytest.fixture(scope="session")
def _homes(tmp_path_factory):
    """The folder every test's home is made in, and a count of them."""
    return tmp_path_factory.mktemp("homes"), itertools.count()


@pytest.fixture(autouse=True)
def _no_ambient_seed(monkeypatch, _homes):
    """Tests decide about seeds, color and characters themselves, and never touch the
    developer's own files: RPGDICE_HOME is a fresh temporary folder (made by a plain
    mkdir: pytest's numbered folders list their parent each time, 1.6 ms a test)."""
    for var in ("RPGDICE_SEED", "NO_COLOR", "FORCE_COLOR", "RPGDICE_AS"):
        monkeypatch.delenv(var, raising=False)
    folder, count = _homes
    home = folder / f"home{next(count)}"
    home.mkdir()
    monkeypatch.setenv("RPGDICE_HOME", str(home))


@pytest.fixture(autouse=True)
def _own_home(monkeypatch):
    """Every test keeps its files (sheets, aliases, the roll log...) in the fresh
    RPGDICE_HOME set above, and starts from the default logging mode."""
    monkeypatch.delenv("RPGDICE_LOG", raising=False)


# The table: the test's home, its characters and its roll log ---------------------------
#
# Every test has a fresh temporary RPGDICE_HOME (above). The characters tests share are
# data, defined once here: ``character("Ysolde")`` saves her as a user would (``rpgdice
# char new``); a test that needs a trait of its own says so, ``character("Ysolde",
# stealth=2)``, and ``make_character`` saves any other character with exactly the traits
# given.

CHARACTERS: dict[str, tuple[str, str, dict[str, object]]] = {
    "ysolde": ("Ysolde", "seyruun",
               {"dexterity": 3, "stealth": 3, "composure": 3, "resolve": 2}),
    "thureck": ("Thureck", "reglas", {"destreza": 4, "armas-de-fuego": 3}),
    "nix": ("Nix", "cypher",
            {"might": 10, "speed": 12, "intellect": 8, "might-edge": 1, "speed-edge": 0,
             "effort": 2, "climbing": "trained", "lore": "inability"}),
}
"""The table's characters by key: their name, ruleset and traits."""


def logged_entry(ident: int) -> dict:
    """The roll log's entry ``ident`` as stored (a secret one whole), read without writing."""
    from rpgdice.table.log import Log

    log = Log.open(write=False)
    assert log is not None
    try:
        found = log.get(ident)
    finally:
        log.release()
    assert found is not None
    return found


def home() -> Path:
    """The test's own RPGDICE_HOME."""
    return Path(os.environ["RPGDICE_HOME"])


def sheet_file(key: str) -> Path:
    """Where the character ``key`` (its lowercased name) is saved."""
    return home() / "characters" / f"{key}.toml"


def hand_sheet(key: str, text: str) -> Path:
    """A sheet written by hand (as a user's editor leaves it), never through rpgdice."""
    path = sheet_file(key)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def ok(*args: str, env: dict[str, str] | None = None, quiet: bool = True) -> Run:
    """``rpgdice ARGS`` in-process, which must succeed and (``quiet``) say nothing on
    stderr."""
    run = cli(*args, env=env)
    assert run.exit_code == 0, (run.stdout, run.stderr, run.exception)
    assert run.stderr == "" or not quiet, run.stderr
    return run


def make_character(name: str, ruleset: str, traits: dict[str, object] | None = None,
                   **more: object) -> Path:
    """Save ``name`` of ``ruleset`` with exactly ``traits`` and ``more`` (``char new``,
    as a user does); its sheet's path. ``traits`` holds names keywords cannot spell
    ("Armas de Fuego", "might-edge")."""
    given = {**(traits or {}), **more}
    ok("char", "new", name, "--ruleset", ruleset, *(f"{k}={v}" for k, v in given.items()))
    return sheet_file(name.lower())


def character(key: str, traits: dict[str, object] | None = None, **more: object) -> Path:
    """Save one of the table's :data:`CHARACTERS` (``"Ysolde"`` or ``"ysolde"``), with
    ``traits`` and ``more`` changing (or, given None, leaving out) its traits."""
    name, ruleset, canonical = CHARACTERS[key.lower()]
    changed = {**canonical, **(traits or {}), **more}
    return make_character(name, ruleset, {k: v for k, v in changed.items() if v is not None})


def ruleset_groups() -> list[str]:
    """The registered rulesets (``rpgdice.rulesets.NAMES``, in order) that have a command
    group of their own, ``rpgdice NAME ...`` (ordinary dice have the top-level ``roll`` and
    ``odds``)."""
    from rpgdice import rulesets

    return [name for name in rulesets.NAMES if rulesets.get(name).group]


def log_path() -> Path:
    """The roll log of the test's own RPGDICE_HOME."""
    return home() / "log.sqlite3"


def drawn(run):
    """The last entry, logged with ``--dice``, made a seeded roll whose dice came out as
    given (``log stats`` leaves out rolls of given faces): re-inserted with its faces gone
    and a seed, so the stats tables' triggers count it as a drawn roll. Returns ``run``."""
    import sqlite3

    assert run.exit_code == 0, run.stderr
    con = sqlite3.connect(log_path(), isolation_level=None)
    con.execute("BEGIN")
    con.execute("CREATE TEMP TABLE drawn AS SELECT * FROM entries WHERE id = "
                "(SELECT max(id) FROM entries)")
    con.execute("DELETE FROM entries WHERE id = (SELECT id FROM drawn)")
    con.execute("UPDATE drawn SET faces = NULL, seed = '1'")
    con.execute("INSERT INTO entries SELECT * FROM drawn")
    con.execute("COMMIT")
    con.close()
    return run


def old_log(version: int):
    """A roll log made by hand at schema ``version`` (its first migrations only), open in
    autocommit: what an older rpgdice left."""
    import sqlite3

    from rpgdice.table.log import MIGRATIONS

    log_path().parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(log_path(), isolation_level=None)
    for steps in MIGRATIONS[:version]:
        for statement in steps:
            con.execute(statement)
    con.execute(f"PRAGMA user_version = {version}")
    return con


# Pure tests and process tests ------------------------------------------------------------
#
# A test not marked ``process`` is pure: it starts no process, pseudo-terminal, real shell,
# server or browser (an in-process CliRunner run is pure). nox runs only the pure tests on
# the other Python versions (``-m "not process"``), so the mark must be right: while a pure
# test runs (its setup, module-scoped fixtures included, its call and its teardown),
# whatever it starts is refused and the test fails naming it. With
# RPGDICE_TEST_RECORD_PROCESSES=FILE, nothing is refused: each pure test that started
# something is written to FILE instead (to find the tests a change made process tests).

_RECORD = "RPGDICE_TEST_RECORD_PROCESSES"
_STARTS = [(subprocess.Popen, "_execute_child", "a process (subprocess)"),
           (socket.socket, "listen", "a server (a listening socket)")]
_STARTS += [(os, name, f"a process (os.{name})")
            for name in ("fork", "forkpty", "posix_spawn", "posix_spawnp", "system")
            if hasattr(os, name)]
_pure_test: dict[str, object] = {"item": None, "started": []}
"""The pure test being run (None: a process test, or none), and what it started."""


def _refused_in_a_pure_test(owner: object, name: str, what: str) -> None:
    real = getattr(owner, name)

    def guarded(*args, **kwargs):
        if _pure_test["item"] is not None:
            started = _pure_test["started"]
            assert isinstance(started, list)
            started.append(what)
            if not os.environ.get(_RECORD):
                raise RuntimeError(f"a test not marked 'process' started {what}")
        return real(*args, **kwargs)

    setattr(owner, name, guarded)


for _owner, _name, _what in _STARTS:
    _refused_in_a_pure_test(_owner, _name, _what)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    pure = item.get_closest_marker("process") is None
    _pure_test.update(item=item if pure else None, started=[])
    yield
    started = _pure_test["started"]
    _pure_test.update(item=None, started=[])
    if started and os.environ.get(_RECORD):
        with open(os.environ[_RECORD], "a", encoding="utf-8") as out:
            out.write(f"{item.nodeid}\t{started[0]}\n")  # type: ignore[index]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    started = _pure_test["started"]
    if (call.when == "teardown" and started and _pure_test["item"] is item
            and not os.environ.get(_RECORD)):
        report.outcome = "failed"
        report.longrepr = (f"{item.nodeid} started {started[0]}"  # type: ignore[index]
                           " but is not marked @pytest.mark.process")


def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (pyproject.toml's addopts): a worker for each core and one more. Many
    tests mostly wait (on a server, a browser, a shell, a deadline of seconds), and a
    third worker on two cores runs beside them: the whole suite took 5 min 10 s with 3
    workers on 2 cores against 6 min 30 s with 2 (measured)."""
    return (os.cpu_count() or 1) + 1

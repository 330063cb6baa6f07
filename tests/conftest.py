"""Shared helpers: run the CLI in-process (CliRunner) or as a real process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass

import pytest
from hypothesis import settings
from typer.testing import CliRunner

from rpgdice.cli import app

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


@pytest.fixture(autouse=True)
def _no_ambient_seed(monkeypatch, tmp_path_factory):
    """Tests decide about seeds, color and characters themselves, and never touch the
    developer's own files: RPGDICE_HOME is a fresh temporary folder."""
    for var in ("RPGDICE_SEED", "NO_COLOR", "FORCE_COLOR", "RPGDICE_AS"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("RPGDICE_HOME", str(tmp_path_factory.mktemp("home")))


@pytest.fixture(autouse=True)
def _own_home(monkeypatch):
    """Every test keeps its files (sheets, aliases, the roll log...) in the fresh
    RPGDICE_HOME set above, and starts from the default logging mode."""
    monkeypatch.delenv("RPGDICE_LOG", raising=False)


def log_path():
    """The roll log of the test's own RPGDICE_HOME."""
    import os
    from pathlib import Path

    return Path(os.environ["RPGDICE_HOME"]) / "log.sqlite3"


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

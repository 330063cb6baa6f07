"""Startup: what a roll imports. Every roll and every TAB starts a process, so the
``--json`` path must not load rich (the terminal view) or icepool (odds), and a
roll loads only its own ruleset. Timings are in bench/startup.py, not here."""

from __future__ import annotations

import functools
import json
import subprocess
import sys

import pytest

from conftest import ruleset_groups

ROLLS = {
    "crytures": ["crytures", "roll", "4+2", "--roll-mod", "1"],
    "seyruun": ["seyruun", "roll", "3", "2", "--wound", "light"],
    "reglas": ["reglas", "roll", "5+5", "-d", "normal"],
    "cypher": ["cypher", "task", "-d", "demanding", "--skill", "trained"],
}
"""A roll of each ruleset with a command group (ordinary dice: DICE_ROLL below)."""
RULESETS = ruleset_groups()
"""Read from the registry: a ruleset registered without a roll above fails, never skips."""

PROBE = """
import json, sys
from rpgdice.cli import main
code = main(json.loads(sys.argv[1]))
sys.stdout.flush()
sys.stderr.write("\\n" + json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def _modules_after(args: list[str]) -> tuple[str, set[str]]:
    run = subprocess.run([sys.executable, "-c", PROBE, json.dumps(args)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run
    probe = json.loads(run.stderr.splitlines()[-1])
    assert probe["code"] == 0, run
    return run.stdout, set(probe["modules"])


BARE_PROBE = """
import sys
from rpgdice.cli import main
code = main(sys.argv[1:])
sys.stdout.flush()
sys.stderr.write("\\n" + repr((code, sorted(sys.modules))))
"""
""":data:`PROBE` without importing json itself (it reads its words as they are)."""


def _bare_modules(args: list[str]) -> tuple[str, set[str]]:
    """:func:`_modules_after`, by :data:`BARE_PROBE`."""
    import ast

    run = subprocess.run([sys.executable, "-c", BARE_PROBE, *args], capture_output=True,
                         text=True, timeout=60)
    code, modules = ast.literal_eval(run.stderr.splitlines()[-1])
    assert code == 0, run
    return run.stdout, set(modules)


@functools.cache
def _seeded_json_roll(*words: str) -> tuple[str, frozenset[str]]:
    """``rpgdice WORDS --json --seed 7`` from an empty home (no sheet, no log, no config),
    probed once for the several tests that read it: the same process each would start."""
    out, modules = _modules_after([*words, "--json", "--seed", "7"])
    return out, frozenset(modules)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.process
def test_json_roll_imports_neither_rich_nor_icepool(ruleset):
    out, modules = _seeded_json_roll(*ROLLS[ruleset])
    assert [json.loads(line)["ruleset"] for line in out.splitlines()] == [ruleset]
    heavy = sorted(m for m in modules if m.split(".")[0] in ("rich", "icepool"))
    assert heavy == []


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.process
def test_a_roll_loads_only_its_own_ruleset(ruleset):
    _, modules = _seeded_json_roll(*ROLLS[ruleset])
    assert f"rpgdice.rulesets.{ruleset}.rules" in modules
    for other in RULESETS:
        if other != ruleset:
            assert not [m for m in modules if m.startswith(f"rpgdice.rulesets.{other}")]


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.process
def test_a_json_roll_that_does_not_log_loads_nothing_of_the_log(ruleset):
    # Piped stdout and RPGDICE_LOG unset (auto): not logged, so neither sqlite3 nor the
    # log module (nor platformdirs, which finds the log) loads.
    out, modules = _modules_after([*ROLLS[ruleset], "--json"])
    assert json.loads(out)["seed"] is not None
    loaded = modules - _baseline()
    assert not {"sqlite3", "_sqlite3", "rpgdice.table.log", "platformdirs"} & loaded


@pytest.mark.process
def test_the_probe_sees_sqlite3_when_the_roll_is_logged():
    _, modules = _modules_after([*ROLLS["seyruun"], "--json", "--log"])
    assert {"sqlite3", "rpgdice.table.log"} <= modules


@pytest.mark.process
def test_the_probe_sees_rich_when_the_terminal_view_is_used():
    # The check above can fail: the colored path does load rich.
    out, modules = _modules_after([*ROLLS["seyruun"], "--seed", "7"])
    assert out.startswith("Seyruun roll")
    assert "rich" in modules


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.process
def test_a_colored_roll_loads_only_its_own_rulesets_view(ruleset):
    out, modules = _modules_after([*ROLLS[ruleset], "--seed", "7"])
    assert out.strip()
    views = {m for m in modules if m.startswith("rpgdice.render.") or m.endswith(".view")}
    # render.output is the one place that writes (the command line's output.py before).
    assert views == {"rpgdice.render.common", "rpgdice.render.output",
                     f"rpgdice.rulesets.{ruleset}.view"}


@pytest.mark.process
def test_completion_command_does_not_import_rich():
    run = subprocess.run([sys.executable, "-c", PROBE, json.dumps(["completion", "bash"])],
                         capture_output=True, text=True, timeout=60)
    probe = json.loads(run.stderr)
    assert probe["code"] == 0
    assert run.stdout.startswith("# bash completion for rpgdice")
    assert not [m for m in probe["modules"] if m.split(".")[0] in ("rich", "icepool")]


@functools.cache
def _baseline() -> frozenset[str]:
    """What the interpreter and Typer import anyway here (a site hook may pull in more):
    the same for every test, asked once."""
    run = subprocess.run([sys.executable, "-c", "import sys, json, typer; print(json.dumps(sorted(sys.modules)))"],
                         capture_output=True, text=True, timeout=60)
    return frozenset(json.loads(run.stdout))


@pytest.mark.process
def test_an_unseeded_roll_does_not_import_random():
    # The operating system's dice come straight from os.urandom.
    out, modules = _modules_after(["cypher", "task", "-d", "5", "--json"])
    assert 1 <= json.loads(out)["roll"] <= 20
    assert "random" not in modules - _baseline()


@pytest.mark.process
def test_a_json_roll_does_not_import_fractions():
    # Exact odds are Fractions; a roll has none, and fractions (with decimal) is slow to load.
    _, modules = _modules_after([*ROLLS["crytures"], "--json", "--seed", "1"])
    assert not {"fractions", "decimal"} & (modules - _baseline())


def test_system_dice_cover_every_face_and_no_other():
    from rpgdice.core.dice import SystemDice

    for sides in (6, 10, 20):
        faces = SystemDice().roll(sides, 3000)
        assert set(faces) == set(range(1, sides + 1))


TABLE_MODULES = ("rpgdice.table", "rpgdice.cli.character", "rpgdice.cli.table", "tomllib", "tomli",
                 "tomlkit", "platformdirs")
"""What the character sheets feature (issue 10) loads: none of it on a roll without --as."""


def _loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.process
def test_a_roll_without_as_loads_nothing_of_the_sheets(ruleset):
    _, modules = _seeded_json_roll(*ROLLS[ruleset])
    assert _loaded(modules, TABLE_MODULES) == []


@pytest.mark.process
def test_a_roll_with_as_reads_the_sheet_without_the_toml_writer(tmp_path, monkeypatch):
    (tmp_path / "characters").mkdir()
    (tmp_path / "characters" / "ysolde.toml").write_text(
        'name = "Ysolde"\nruleset = "seyruun"\n[traits]\ndexterity = 3\nstealth = 2\n', encoding="utf-8")
    monkeypatch.setenv("RPGDICE_HOME", str(tmp_path))
    out, modules = _modules_after(["seyruun", "roll", "dexterity", "stealth", "--as", "ysolde",
                                   "--json", "--seed", "7"])
    assert json.loads(out)["character"] == "Ysolde"
    # The check above can fail: this roll does load the sheets ...
    assert "rpgdice.table.sheets" in modules
    # ... reads a plain sheet without tomllib (issue 44: 3 ms), and pays nothing, so
    # tomlkit (35 ms to import) stays out.
    assert not {"tomllib", "tomli", "tomlkit"} & modules


DICE_ROLL = ["roll", "2d6+3"]


@pytest.mark.process
def test_an_ordinary_dice_json_roll_loads_no_ruleset_rich_icepool_or_fractions():
    out, modules = _seeded_json_roll(*DICE_ROLL)
    assert [json.loads(line)["ruleset"] for line in out.splitlines()] == ["dice"]
    assert "rpgdice.rulesets.dice.rules" in modules
    assert not [m for m in modules if m.split(".")[0] in ("rich", "icepool")]
    assert "rpgdice.rulesets.dice.odds" not in modules
    assert not {"fractions", "decimal"} & (modules - _baseline())
    for ruleset in RULESETS:
        assert not [m for m in modules if m.startswith(f"rpgdice.rulesets.{ruleset}")]


@pytest.mark.process
def test_an_ordinary_dice_colored_roll_loads_its_own_view_only():
    out, modules = _modules_after([*DICE_ROLL, "--seed", "7"])
    assert out.startswith("Dice · 2d6+3")
    assert "rpgdice.rulesets.dice.view" in modules and "icepool" not in modules
    for ruleset in RULESETS:
        assert not [m for m in modules if m.startswith(f"rpgdice.rulesets.{ruleset}")]


@pytest.mark.process
def test_ordinary_dice_odds_load_icepool():
    # The check above can fail: the odds path does load icepool.
    _, modules = _modules_after(["odds", "2d6+3", "--json"])
    assert "icepool" in modules and "rpgdice.rulesets.dice.odds" in modules


@pytest.mark.process
def test_an_ordinary_dice_roll_loads_nothing_of_the_sheets():
    _, modules = _seeded_json_roll(*DICE_ROLL)
    assert _loaded(modules, TABLE_MODULES) == []


SERVER = ("starlette", "uvicorn", "anyio", "h11")


@pytest.mark.parametrize("extra", [["--json", "--log"], ["--short", "--secret"], ["--seed", "3"]],
                         ids=" ".join)
@pytest.mark.process
def test_a_roll_loads_nothing_of_the_server(extra):
    # rpgdice serve's modules and libraries load with that command alone.
    out, modules = _modules_after([*ROLLS["reglas"], *extra])
    assert out.strip()
    loaded = sorted(m for m in modules if m.split(".")[0] in SERVER
                    or m.startswith(("rpgdice.serve", "rpgdice.cli.serve")))
    assert loaded == []


@pytest.mark.process
def test_the_probe_sees_the_server_when_it_is_loaded():
    run = subprocess.run([sys.executable, "-c", "import sys, rpgdice.serve.app; "
                          "print(sorted(m for m in sys.modules if m.startswith('starlette')))"],
                         capture_output=True, text=True, timeout=60)
    assert "starlette" in run.stdout


@pytest.mark.process
def test_help_lists_serve_without_loading_it():
    out, modules = _modules_after(["--help"])
    assert "serve" in out
    assert not [m for m in modules if m.split(".")[0] in SERVER or m.startswith("rpgdice.serve")]


@pytest.mark.process
def test_a_users_ruleset_roll_reads_no_toml_once_the_file_was_read(tmp_path, monkeypatch):
    from pathlib import Path

    (tmp_path / "rulesets").mkdir()
    owod = Path(__file__).resolve().parent.parent / "docs" / "rulesets" / "owod.toml"
    (tmp_path / "rulesets" / "owod.toml").write_text(owod.read_text(encoding="utf-8"),
                                                     encoding="utf-8")
    monkeypatch.setenv("RPGDICE_HOME", str(tmp_path))
    roll = ["owod", "roll", "5", "-d", "2", "--json", "--seed", "7"]
    first, modules = _modules_after(roll)
    assert {"tomllib", "tomli"} & modules  # the first read parses the file ...
    again, modules = _modules_after(roll)
    assert again == first
    assert not {"tomllib", "tomli"} & modules  # ... the next roll takes its parsed copy
    third, modules = _bare_modules(roll)  # read by json's C scanner, not the json package
    assert third == first and "_json" in modules and "json" not in modules


@pytest.mark.process
def test_an_attack_that_writes_its_targets_sheet_imports_neither_tempfile_nor_random(
        tmp_path, monkeypatch):
    (tmp_path / "characters").mkdir()
    sheet = tmp_path / "characters" / "ghoul.toml"
    sheet.write_text('name = "Ghoul"\nruleset = "seyruun"\n[traits]\nhealth = 1000\n',
                     encoding="utf-8")
    monkeypatch.setenv("RPGDICE_HOME", str(tmp_path))
    out, modules = _modules_after(["seyruun", "attack", "3+3", "--damage", "5", "--vs", "ghoul",
                                   "--json"])
    dealt = json.loads(out)["damage_dealt"]
    assert f"damage = {dealt}" in sheet.read_text(encoding="utf-8") or dealt == 0
    assert not {"tempfile", "random"} & (modules - _baseline())
    assert not [p.name for p in (tmp_path / "characters").iterdir() if p.name.endswith(".tmp")]



@pytest.mark.parametrize("words", [ROLLS["seyruun"], ["roll", "2d6+3"]], ids=["seyruun", "dice"])
@pytest.mark.process
def test_a_json_roll_writes_without_the_json_package(words):
    # Its line is written by json's C encoder (rpgdice.core.jsontext): the package's
    # decoder and scanner cost a --json roll 2 ms of its start (issue 44).
    out, modules = _bare_modules([*words, "--json", "--seed", "7"])
    assert json.loads(out)["seed"] == 7
    assert "_json" in modules and not {"json", "json.decoder", "json.scanner"} & modules

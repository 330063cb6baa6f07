"""A line typed again in a session (issue 44: a ``play`` line at the cost of a roll): what a
session keeps of a line it ran before — what the line runs, its roll value, what the dice
expressions make, whether config.toml joins a table — never changes what the line does."""

from __future__ import annotations

import json
import os

import pytest
from typer.testing import CliRunner

from conftest import home
from rpgdice.cli import app, root


def play(text: str, *args: str):
    return CliRunner().invoke(app, ["play", *args], input=text)


def test_a_line_typed_again_warns_again():
    got = play("roll 3#1d20 --seed 1\nroll 3#1d20 --seed 1\nroll d66 --seed 2\nroll d66 --seed 2\n",
               "--json")
    assert got.exit_code == 0, got.stderr
    lines = got.stdout.splitlines()
    assert len(lines) == 4 and lines[0] == lines[1] and lines[2] == lines[3]
    assert got.stderr.count("'3#1d20' rolls the number 3") == 2
    assert got.stderr.count("d66 is one die of 66 sides here") == 2


def test_a_line_typed_again_runs_in_the_ruleset_in_use_now():
    got = play("roll 3 3 --seed 4\nuse seyruun\nroll 3 3 --seed 4\nuse -\nroll 3 3 --seed 4\n",
               "--json")
    objects = [json.loads(line) for line in got.stdout.splitlines()]
    assert [("error" in o, o.get("ruleset")) for o in objects] == [
        (True, None), (False, "seyruun"), (True, None)]
    assert objects[0]["error"] == objects[2]["error"] and "would roll a bare number" in objects[0]["error"]


def test_a_roll_sees_config_toml_change_between_lines(monkeypatch):
    from rpgdice.cli import joined as joined_module

    monkeypatch.setattr(joined_module, "joined", lambda: "the table")
    monkeypatch.setattr(joined_module, "remote", lambda words, table: 0)
    group, words = root(), ["roll", "d20"]
    config = home() / "config.toml"
    config.unlink(missing_ok=True)
    assert group._at_table(words) is None  # no config.toml
    assert group._at_table(words) is None  # still none
    config.write_text('[alias]\nx = "roll d20"\n')
    assert group._at_table(words) is None
    config.write_text('[table]\nurl = "x"\n')
    assert callable(group._at_table(words))  # joined since the last line
    assert callable(group._at_table(words))
    stat = config.stat()
    config.write_text('[tablx]\nurl = "x"\n')  # the same size
    os.utime(config, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert group._at_table(words) is None
    config.write_text('[table]\nurl = "x"\n')
    os.utime(config, ns=(stat.st_atime_ns, stat.st_mtime_ns + 2_000_000))
    assert callable(group._at_table(words))
    config.unlink()
    assert group._at_table(words) is None
    assert group._at_table(["roll", "d20", "--here"]) == ["roll", "d20"]


def _counted_plans(monkeypatch) -> list[str]:
    """The commands whose plan the executor makes, as it makes each (``plan_of``)."""
    from rpgdice.roll import execute

    made: list[str] = []
    real = execute.plan_of

    def counted(spec, run=None):
        made.append(spec.command)
        return real(spec, run)

    monkeypatch.setattr(execute, "plan_of", counted)
    return made


def test_a_line_typed_again_rolls_its_plan_again_with_fresh_dice(monkeypatch):
    made = _counted_plans(monkeypatch)
    got = play("roll 4d6kh3\n" * 4 + "roll 4d6kh3 --odds\n" * 2, "--json")
    assert got.exit_code == 0, got.stderr
    assert made == ["roll", "roll"]  # one plan a line's words, made at its first line
    objects = [json.loads(line) for line in got.stdout.splitlines()]
    assert len({o["seed"] for o in objects}) == 6  # each line rolled anew, with its own seed
    assert objects[4]["odds"] == objects[5]["odds"]
    for o in objects[:4]:  # and each replays from its seed as the one-shot command
        again = CliRunner().invoke(app, ["roll", "4d6kh3", "--seed", str(o["seed"]), "--json"])
        assert json.loads(again.stdout) == o


def test_a_plan_that_counts_its_turns_or_reads_a_sheet_is_made_at_every_line(monkeypatch):
    from conftest import make_character

    make_character("Ysolde", ruleset="seyruun", dexterity=3, stealth=2)
    made = _counted_plans(monkeypatch)
    got = play("roll d20 d6\nroll d20 d6\nseyruun roll dexterity stealth --as ysolde\n"
               "seyruun roll dexterity stealth --as ysolde\n", "--json")
    assert got.exit_code == 0, got.stderr
    assert made == ["roll", "roll", "roll", "roll"]
    objects = [json.loads(line) for line in got.stdout.splitlines()]
    assert [o["expression"] for o in objects[:4]] == ["d20", "d6", "d20", "d6"]
    assert [o["character"] for o in objects[4:]] == ["Ysolde", "Ysolde"]


def test_the_kept_plans_are_let_go_when_full(monkeypatch):
    from rpgdice.roll import execute
    from rpgdice.roll.run import Turn
    from rpgdice.roll.spec import RollSpec

    monkeypatch.setattr(execute, "MAX_KEPT", 3)
    monkeypatch.setattr(execute, "_KEPT", {})
    specs = [RollSpec("dice", "roll", args=(("expressions", (f"d{n}",)),)) for n in range(2, 6)]
    plans = [execute.kept_plan(s, Turn(s)) for s in specs[:3]]
    assert [execute.kept_plan(s, Turn(s)) for s in specs[:3]] == plans  # kept: the same plans
    assert all(a is b for a, b in zip(plans, [execute.kept_plan(s, Turn(s)) for s in specs[:3]]))
    execute.kept_plan(specs[3], Turn(specs[3]))  # a fourth: all let go, then it is kept
    assert list(execute._KEPT) == [id(specs[3])]
    assert execute.kept_plan(specs[0], Turn(specs[0])) is not plans[0]


@pytest.mark.parametrize("line", ["crytures roll 6 --die-mod 1", "reglas roll 5+5 -d normal"])
def test_a_rulesets_plain_roll_typed_again_rolls_its_plan_again(monkeypatch, line):
    made = _counted_plans(monkeypatch)
    got = play(f"{line}\n" * 3, "--json")
    assert got.exit_code == 0, got.stderr
    assert made == ["roll"]
    objects = [json.loads(out) for out in got.stdout.splitlines()]
    assert len({o["seed"] for o in objects}) == 3
    for o in objects:  # each replays from its seed as the one-shot command
        again = CliRunner().invoke(app, [*line.split(), "--seed", str(o["seed"]), "--json"])
        assert json.loads(again.stdout) == o


def test_a_secret_line_typed_again_is_logged_secret_each_time(monkeypatch):
    made = _counted_plans(monkeypatch)
    got = play("roll 4d6kh3 --secret\n" * 2, "--json")
    assert got.exit_code == 0, got.stderr
    assert made == ["roll"]
    seeds = [json.loads(line)["seed"] for line in got.stdout.splitlines()]
    entries = json.loads("[" + ",".join(
        CliRunner().invoke(app, ["log", "--last", "2", "--json"]).stdout.splitlines()) + "]")
    assert [(e["secret"], e["seed"]) for e in entries] == [(True, seeds[0]), (True, seeds[1])]

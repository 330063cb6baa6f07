"""The roll log keeps results as data: ``log show`` rebuilds them from the log (never
running the stored command line), ``--replay`` rolls again and compares, ``log stats``
reads its odds from the stored spec, ``seyruun reroll`` takes the pool from the stored
roll, and a forged entry never runs anything else than a roll. Every test has its own
RPGDICE_HOME (conftest)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from conftest import character, cli, drawn, log_path, make_character, ok, sheet_file
from test_log import split_header


def sheet_exists(name: str) -> bool:
    return sheet_file(name).exists()


def forge(**columns: object) -> None:
    """Overwrite columns of every entry, as a hand with sqlite3 could."""
    con = sqlite3.connect(log_path())
    for name, value in columns.items():
        con.execute(f"UPDATE entries SET {name} = ?", (value,))
    con.commit()
    con.close()


@pytest.fixture
def ysolde():
    # Stealth 2, Composure 2: the tests below read "Dexterity 3 + Stealth 2" and her
    # Willpower (4) from the log.
    character("Ysolde", stealth=2, composure=2)


# Rebuilding records from their data ---------------------------------------------------


def test_from_data_rebuilds_nested_records_tuples_optionals_and_dicts():
    from rpgdice.core.data import to_data
    from rpgdice.core.dice import GivenDice
    from rpgdice.core.rebuild import BadData, from_data
    from rpgdice.rulesets.seyruun import rules as seyruun

    pool = seyruun.SeyruunPool(attribute=2, skill=1, bonuses=(1, 2), wound="light")
    assert to_data(from_data(seyruun.SeyruunPool, to_data(pool))) == to_data(pool)
    assert from_data(seyruun.SeyruunPool, to_data(pool)).bonuses == (1, 2)
    roll = seyruun.roll(seyruun.SeyruunPool(attribute=1, skill=1), GivenDice([2, 3, 9, 1]),
                        reroll=True)
    back = from_data(seyruun.SeyruunResult, to_data(roll))
    assert isinstance(back.rerolled, seyruun.SeyruunResult)
    assert isinstance(back.dice[0], seyruun.SeyruunDie) and to_data(back) == to_data(roll)
    for bad in ({"attribute": "3"}, {"attribute": -1}, [], {"skill": 2}):
        with pytest.raises(BadData):
            from_data(seyruun.SeyruunPool, bad)


def test_every_ruleset_declares_the_result_classes_of_its_rolling_commands():
    from rpgdice import rulesets

    for name in rulesets.NAMES:
        record = rulesets.get(name)
        made = [c.results for c in record.records() if c.results]
        assert made, name
        for classes in made:
            for cls_name in (cls.__name__ for cls in classes):
                assert record.record_class(cls_name).RULESET == name
        with pytest.raises(KeyError):
            record.record_class("import_module")  # only the ruleset's own records


# log show: what the log stored -----------------------------------------------------------


def test_a_sheet_edited_after_a_roll_does_not_change_what_log_show_shows(ysolde):
    rolled = ok("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--willpower",
                "--seed", "4", "--log")
    ok("char", "set", "ysolde", "dexterity=5", "stealth=0")
    shown = ok("log", "show", "1")
    assert split_header(shown.stdout)[1] == rolled.stdout  # the character line too
    assert "Dexterity 3 + Stealth 2" in shown.stdout and "spent 1 Willpower" in shown.stdout
    (obj,) = ok("log", "show", "1", "--json").json()
    (logged,) = ok("log", "--json").json()
    assert obj["results"] == logged["results"] and obj["replayed"] is None
    # The replay rolls the stored roll value (the traits' numbers as they were), not
    # today's sheet: the same dice and the same results.
    replay = cli("log", "show", "1", "--replay", "--json")
    assert replay.exit_code == 0 and replay.json()[0]["replayed"] is True, replay.stderr
    assert "Dexterity 3 + Stealth 2" in ok("log", "show", "1", "--replay").stdout
    # An entry of an older rpgdice (no roll value stored) is read from its words, so it
    # rolls today's sheet: the dice differ, and it says so (exit 1).
    con = sqlite3.connect(log_path())
    con.execute("UPDATE entries SET roll = NULL")
    con.commit()
    con.close()
    replay = cli("log", "show", "1", "--replay", "--json")
    assert replay.exit_code == 1 and replay.json()[0]["replayed"] is False
    assert "does not replay" in replay.stderr


def test_replay_says_same_or_different():
    ok("crytures", "roll", "5", "--seed", "9", "--log")
    same = cli("log", "show", "1", "--replay")
    assert same.exit_code == 0, same.stderr
    con = sqlite3.connect(log_path())
    (results,) = con.execute("SELECT results FROM entries").fetchone()
    con.close()
    forged = json.loads(results)
    forged[0]["successes"] += 1
    forge(results=json.dumps(forged))
    shown = cli("log", "show", "1")  # shown as stored, forged or not
    assert shown.exit_code == 0 and shown.stderr == ""
    differs = cli("log", "show", "1", "--replay")
    assert differs.exit_code == 1 and "does not replay" in differs.stderr


@pytest.mark.parametrize("results", ["not json", "[]", '[{"ruleset": "seyruun"}]',
                                     '[{"ruleset": "nope", "command": "roll"}]', '{"a": 1}',
                                     '[{"ruleset": "seyruun", "command": "roll", "dice": 3}]'])
def test_a_corrupt_entry_is_shown_as_data_with_a_notice(results):
    ok("seyruun", "roll", "3", "--seed", "1", "--log")
    forge(results=results, kinds=None)
    run = cli("log", "show", "1")
    assert run.exit_code == 0, (run.stderr, run.exception)
    assert run.exception is None and "rpgdice: warning:" in run.stderr
    assert len(run.stderr.splitlines()) == 1
    assert cli("log").exit_code == 0 and cli("log", "--json").exit_code == 0
    assert cli("log", "stats").exit_code == 0


def test_forged_kinds_and_envelopes_never_make_other_objects():
    ok("seyruun", "roll", "3", "--seed", "1", "--log")
    forge(kinds='["Path"]')
    run = cli("log", "show", "1")
    assert run.exit_code == 0 and "warning" in run.stderr and run.exception is None
    forge(kinds='["SeyruunResult"]', shown='{"envelopes": [{"table": {"character": 3}}]}')
    run = cli("log", "show", "1")
    assert run.exit_code == 0 and run.exception is None


@pytest.mark.parametrize("argv", [["char", "rm", "ysolde"], ["char", "rm", "ysolde", "--yes"]])
def test_a_forged_non_roll_entry_never_runs(ysolde, argv):
    ok("seyruun", "roll", "3", "--seed", "1", "--log")
    ok("seyruun", "roll", "3", "--seed", "2", "--log")
    forge(argv=json.dumps(argv))
    # The stored roll value is what replays: the forged words are shown, never run.
    replay = cli("log", "show", "1", "--replay", "--json")
    assert replay.exit_code == 0 and replay.json()[0]["replayed"] is True, replay.stderr
    run = ok("again", "--json", "--no-log", quiet=False)
    assert run.stderr == "rpgdice: again: seyruun roll --json --no-log\n"  # not the words
    (again,) = run.json()
    assert again["command"] == "roll" and again["pool"] == 2 and sheet_exists("ysolde")
    con = sqlite3.connect(log_path())  # and as entries of an older rpgdice: no spec, no roll
    con.execute("UPDATE entries SET roll = NULL")
    con.execute("UPDATE entries SET spec = NULL, kinds = NULL WHERE id = 2")
    con.commit()
    con.close()
    for args in (["log", "show", "1"], ["log", "show", "2"], ["log", "stats"],
                 ["log", "stats", "--json"], ["log", "--json"], ["log"]):
        assert ok(*args) and sheet_exists("ysolde"), args
    for args in (["log", "show", "1", "--replay"], ["again"], ["seyruun", "reroll", "1"]):
        run = cli(*args)
        assert run.exit_code == 2 and run.exception is None, (args, run.stderr)
        assert sheet_exists("ysolde"), args
    assert "no roll of a kind" in cli("again").stderr


def test_again_runs_a_stored_roll():
    ok("reglas", "roll", "5", "--seed", "3", "--log")
    (again,) = ok("again", "--json", "--no-log", quiet=False).json()
    assert again["command"] == "roll" and again["index"] == 5


# log stats: odds from the stored spec ------------------------------------------------------


def test_stats_read_the_stored_spec_not_the_sheet(ysolde):
    drawn(ok("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--dice", "2,3,4,5,6",
             "--log"))
    (before,) = ok("log", "stats", "--json").json()
    ok("char", "set", "ysolde", "dexterity=1", "stealth=0")
    (after,) = ok("log", "stats", "--json", "--as", "ysolde").json()
    assert after["rolls"] == 1 and after["left_out"] == 0
    assert after["expected"] == pytest.approx(before["expected"])
    con = sqlite3.connect(log_path())
    (spec,) = con.execute("SELECT spec FROM entries").fetchone()
    con.close()
    assert json.loads(spec)["args"][0]["record"] == "SeyruunPool"


def test_a_forged_spec_is_left_out():
    drawn(ok("cypher", "task", "-d", "3", "--dice", "7", "--log"))
    forge(spec='{"ruleset": "cypher", "function": "__import__", "args": [], "kwargs": {}}')
    con = sqlite3.connect(log_path())  # the stats table follows the entries by trigger
    con.execute("DELETE FROM stats_rolls")
    con.execute("INSERT INTO stats_rolls SELECT ruleset, '', command, spec, outcome, 1 FROM entries")
    con.commit()
    con.close()
    (g,) = ok("log", "stats", "--json").json()
    assert g["rolls"] == 0 and g["left_out"] == 1


# seyruun reroll: the pool the log stored ---------------------------------------------------


def test_reroll_rolls_the_stored_pool_whatever_the_sheet_says_now(ysolde):
    first = ok("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--dice",
               "2,3,4,5,2", "--log", "--json").json()[0]
    assert first["outcome"] == "failure" and first["pool"] == 5
    ok("char", "set", "ysolde", "dexterity=1")
    (r,) = ok("seyruun", "reroll", "--dice", "9,9,1,1,1", "--json", "--no-log").json()
    assert r["pool"] == 5 and r["successes"] == 2 and r["rerolled"]["dice"] == first["dice"]
    assert r["character"] == "Ysolde" and r["left"] == {"willpower": 3}


def test_reroll_of_a_forged_roll_exits_2_with_one_line():
    ok("seyruun", "roll", "1", "1", "--dice", "2,3", "--log")
    con = sqlite3.connect(log_path())
    (results,) = con.execute("SELECT results FROM entries").fetchone()
    forged = json.loads(results)
    forged[0]["pool"] = 10**6
    con.execute("UPDATE entries SET results = ?", (json.dumps(forged),))
    con.commit()
    con.close()
    run = cli("seyruun", "reroll")
    assert run.exit_code == 2 and run.exception is None and len(run.stderr.splitlines()) == 1


# The migration from schema 2 -----------------------------------------------------------------


V2_ARGV = ["seyruun", "roll", "1", "2", "--dice", "2,3,4"]
V2_RESULT = {"ruleset": "seyruun", "command": "roll", "outcome": "failure", "pool": 3,
             "chance_die": False, "overflow": 0, "required": 1,
             "dice": [{"face": 2, "successes": 0}, {"face": 3, "successes": 0},
                      {"face": 4, "successes": 0}],
             "successes": 0, "tens": 0, "ones": 0, "tier": None, "willpower_spent": 0,
             "multiple_critical": False, "pool_total": 3, "untrained": False, "bonus_capped": 0,
             "penalty": 0, "attribute": 1, "skill": 2, "bonus": 0, "willpower_dice": 0,
             "rerolled": None, "seed": None}


def _v2_log() -> None:
    from rpgdice.table.log import MIGRATIONS

    log_path().parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(log_path(), isolation_level=None)
    for steps in MIGRATIONS[:2]:
        for statement in steps:
            con.execute(statement)
    con.execute("PRAGMA user_version = 2")
    for argv in (V2_ARGV, ["char", "rm", "ysolde"]):
        con.execute("INSERT INTO entries (time, argv, ruleset, command, seed, count, outcome,"
                    " results, rolled) VALUES ('2026-01-01T00:00:00Z', ?, 'seyruun', 'roll',"
                    " '7', 1, 'failure', ?, ?)",
                    (json.dumps(argv), json.dumps([V2_RESULT]), json.dumps({"d10": [2, 3, 4]})))
    con.close()


def test_a_schema_2_log_is_migrated_and_its_entries_show_without_running(ysolde):
    from rpgdice.table.log import MIGRATION_NAMES, MIGRATIONS

    assert len(MIGRATION_NAMES) == len(MIGRATIONS) and MIGRATION_NAMES[2] == "results as data"
    _v2_log()
    shown = ok("log", "show", "1")
    assert "Failure" in shown.stdout and "Attribute 1 + Skill 2 = 3" in shown.stdout
    assert ok("log", "show", "2").stdout  # the forged one shows its stored results too
    (g,) = ok("log", "stats", "--json").json()
    # The old roll of a known kind counts (its odds read from its arguments); the forged
    # `char rm` entry is left out and never runs.
    assert g["rolls"] == 1 and g["left_out"] == 1 and g["outcomes"]["failure"] == 1
    assert sheet_exists("ysolde")
    con = sqlite3.connect(log_path())
    assert con.execute("PRAGMA user_version").fetchone()[0] == 7
    assert con.execute("SELECT kinds, spec FROM entries WHERE id = 1").fetchone() == (None, None)
    con.close()
    (r,) = ok("seyruun", "reroll", "1", "--dice", "10,9,1", "--json", "--no-log").json()
    assert r["rerolled"]["dice"] == V2_RESULT["dice"] and r["outcome"] == "success"
    drawn(ok("seyruun", "roll", "3", "1", "--dice", "1,2,3,4", "--log"))
    (g,) = ok("log", "stats", "--json").json()
    assert g["rolls"] == 2
    assert cli("log", "show", "2", "--replay").exit_code == 2 and sheet_exists("ysolde")


def test_the_log_module_imports_neither_the_command_line_nor_the_views():
    import ast

    import rpgdice.table.log as log

    tree = ast.parse(Path(log.__file__).read_text())
    names = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    names += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not [m for m in names if m and m.startswith(("rpgdice.cli", "rpgdice.render"))]
    assert not hasattr(log, "DIE_OF") and not hasattr(log, "STATS_COMMANDS")


@pytest.mark.parametrize("args", [
    ["roll", "2d6+1", "d20", "--odds"],
    ["seyruun", "attack", "3+3", "--vs", "ysolde", "--defense", "dexterity+stealth",
     "--defender-willpower", "--damage", "2", "--soak", "2", "-n", "2"],
    ["seyruun", "roll", "dexterity", "--as", "ysolde", "--reroll", "--odds", "-n", "3"],
])
def test_log_show_rebuilds_the_output_from_the_log_alone(ysolde, args):
    rolled = ok(*args, "--seed", "8", "--log")
    ok("char", "rm", "ysolde", "--yes")  # gone: nothing of it is read to show the entry
    shown = ok("log", "show", "1")
    assert split_header(shown.stdout)[1] == rolled.stdout and shown.stderr == ""


def test_a_run_keeps_its_state_in_the_click_context_not_in_a_class():
    from rpgdice.cli import common

    assert not hasattr(common, "State")
    # A replay inside a run (its own Run) leaves the outer run's --no-log alone.
    ok("seyruun", "roll", "3", "--seed", "1", "--log")
    assert ok("log", "show", "1", "--replay").stderr == ""
    ok("seyruun", "roll", "3", "--no-log")
    assert len(ok("log", "--json").json()) == 1


def test_a_replay_that_cannot_roll_now_differs_and_shows_what_was_logged():
    """--replay of a character's roll whose sheet is gone: its stored roll value replays
    (it needs no sheet); an entry of an older rpgdice, read from its words, cannot: what
    the log stored is shown, one warning says it cannot be rolled again now, exit 1 (it
    differs), not an error."""
    make_character("Ysolde", "seyruun", dexterity=3, stealth=2)
    cli("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--seed", "3", "--log")
    cli("char", "rm", "ysolde", "--yes")
    same = cli("log", "show", "1", "--replay", "--json")
    assert same.exit_code == 0 and same.json()[0]["replayed"] is True, same.stderr
    con = sqlite3.connect(log_path())
    con.execute("UPDATE entries SET roll = NULL")
    con.commit()
    con.close()
    run = cli("log", "show", "1", "--replay")
    assert run.exit_code == 1
    assert "Seyruun roll" in run.stdout
    assert run.stderr.startswith("rpgdice: warning: entry 1 does not replay"), run.stderr
    obj = cli("log", "show", "1", "--replay", "--json")
    assert obj.exit_code == 1 and obj.json()[0]["replayed"] is False


@pytest.mark.parametrize("spec", [
    {"ruleset": "seyruun", "function": "Fraction", "args": ["1e400000000"], "kwargs": {}},
    {"ruleset": "seyruun", "function": "seyruun_class_die", "args": [], "kwargs": {}},
    {"ruleset": "dice", "function": "parse", "args": ["d6"], "kwargs": {}},
    {"ruleset": "seyruun", "function": "seyruun_odds", "args": ["1"], "kwargs": {}},
])
def test_a_forged_odds_spec_names_nothing_but_an_odds_function_of_records(spec):
    """The log stores a roll's odds spec as data; a forged one naming any other name of
    an odds module (Fraction of a huge text: minutes; a class: an internal error), or
    giving it other than records, is left out of log stats and not computed by log show."""
    cli("seyruun", "roll", "3", "2", "--log", "--seed", "1", "--odds")
    con = sqlite3.connect(log_path())
    shown = json.loads(con.execute("SELECT shown FROM entries").fetchone()[0] or "{}")
    shown["odds"] = spec
    columns = ("time, argv, character, ruleset, command, seed, faces, count, outcome, results, "
               "rolled, kinds")
    con.execute(f"INSERT INTO entries ({columns}, spec, shown) SELECT {columns}, ?, ? "
                "FROM entries WHERE id = 1", (json.dumps(spec), json.dumps(shown)))
    con.commit()
    con.close()
    stats = cli("log", "stats", "--json")
    assert stats.exit_code == 0, stats.stderr
    assert (stats.json()[0]["rolls"], stats.json()[0]["left_out"]) == (1, 1)
    show = cli("log", "show", "2")
    assert show.exit_code == 0 and "internal error" not in show.stderr, show.stderr
    assert "Seyruun roll" in show.stdout


def test_roll_type_records_of_generic_bases_rebuild_their_nested_rolls():
    """A roll type's record is a thin subclass of a generic one (core.rolltypes): the log
    rebuilds its nested rolls as the ruleset's own records."""
    from rpgdice.core.data import to_data
    from rpgdice.core.dice import GivenDice
    from rpgdice.core.rebuild import from_data
    from rpgdice.rulesets.reglas import rules as reglas
    from rpgdice.rulesets.seyruun import rules as seyruun

    results = [
        reglas.roll_contest(reglas.ReglasContest(reglas.ReglasRoll(5), reglas.ReglasRoll(4)),
                            GivenDice([3, 2])),
        seyruun.roll_contest(seyruun.SeyruunContest(seyruun.SeyruunPool(3, 2), seyruun.SeyruunPool(2, 2)),
                             GivenDice([6, 7, 8, 2, 2, 6, 2, 2, 2])),
        reglas.roll_extended(reglas.ReglasExtended(reglas.ReglasRoll(8), 9, start=2), GivenDice([2, 1])),
        seyruun.roll_team(seyruun.SeyruunTeam(seyruun.SeyruunPool(3, 2), 2), GivenDice([6] * 7)),
    ]
    for r in results:
        again = from_data(type(r), to_data(r))
        assert to_data(again) == to_data(r)
        assert type(again.rolls[0]) is type(r.rolls[0])
        if hasattr(r, "attacker"):
            assert type(again.attacker) is type(r.attacker) and type(again.defender) is type(r.defender)

"""The roll log keeps each roll's value as data (schema 6, "roll as data"): a JSON object
the command makes, stored compact and bounded; an entry of an older rpgdice, or one
whose cell is forged (huge, nested past any depth, no object), reads as no roll, never
an exception. ``log --json`` does not give it. Every test has its own RPGDICE_HOME."""

from __future__ import annotations

import json
import sqlite3

import pytest

from conftest import cli, log_path, old_log

ROLL = {"ruleset": "dice", "kind": "sum", "terms": [{"n": 2, "sides": 6}], "bonus": 1,
        "label": "épée"}


def _add(log, roll=None, **kw):
    entry = dict(argv=["roll", "2d6+1"], character=None, ruleset="dice", command="roll",
                 seed=1, faces=None, count=1, outcome=None,
                 results=[{"ruleset": "dice", "command": "roll", "total": 7}])
    entry.update(kw)
    from rpgdice.table.log import Entry

    return log.add(Entry(**entry, roll=roll))


def _cell(entry: int):
    con = sqlite3.connect(log_path())
    try:
        return con.execute("SELECT roll FROM entries WHERE id = ?", (entry,)).fetchone()[0]
    finally:
        con.close()


def _forge(entry: int, value) -> None:
    con = sqlite3.connect(log_path(), isolation_level=None)
    con.execute("UPDATE entries SET roll = ? WHERE id = ?", (value, entry))
    con.close()


def test_the_roll_migration_is_the_sixth_step():
    from rpgdice.table.log import COLUMNS, MIGRATION_NAMES, MIGRATIONS, VERSION

    assert VERSION == len(MIGRATIONS) == 7 and MIGRATION_NAMES[5] == "roll as data"
    assert MIGRATIONS[5] == ("ALTER TABLE entries ADD COLUMN roll TEXT",)
    assert COLUMNS[-1] == "roll"


def test_a_schema_5_log_is_migrated_its_entries_reading_no_roll():
    con = old_log(5)
    con.execute("INSERT INTO entries (time, argv, ruleset, command, seed, count, outcome,"
                " results, rolled) VALUES ('2026-01-01T00:00:00Z', ?, 'dice', 'roll', '7', 1,"
                " NULL, ?, '{}')", (json.dumps(["roll", "2d6"]),
                                    json.dumps([{"ruleset": "dice", "command": "roll"}])))
    con.close()
    from rpgdice.table.log import Log

    log = Log.open(write=True)
    assert log is not None
    assert log.con.execute("PRAGMA user_version").fetchone()[0] == 7
    old = log.get(1)
    assert old is not None and old["roll"] is None and old["argv"] == ["roll", "2d6"]
    new = _add(log, ROLL)
    assert log.get(new)["roll"] == ROLL
    log.close()
    (listed,) = [e for e in cli("log", "--json").json() if e["id"] == 1]
    assert "roll" not in listed


def test_a_log_read_before_any_write_is_migrated_too():
    old_log(5).close()
    from rpgdice.table.log import Log

    log = Log.open(write=False)
    assert log is not None and log.con.execute("PRAGMA user_version").fetchone()[0] == 7
    log.close()


def test_a_roll_round_trips_compact_and_stays_out_of_log_json():
    from rpgdice.table.log import Log, public

    log = Log.open(write=True)
    with_roll, without = _add(log, ROLL), _add(log)
    assert _cell(with_roll) == json.dumps(ROLL, ensure_ascii=False, separators=(",", ":"))
    assert _cell(without) is None
    assert log.get(with_roll)["roll"] == ROLL and log.get(without)["roll"] is None
    assert [e["roll"] for e in log.last(n=2)] == [ROLL, None]
    assert [e["roll"] for e in log.listing(n=2)] == [ROLL, None]
    assert [e["roll"] for e in log.listing(n=2, full=False)] == [None, None]  # a line reads none
    assert "roll" not in public(log.get(with_roll))
    log.close()
    assert all("roll" not in e for e in cli("log", "--json").json())
    shown = cli("log", "show", str(with_roll), "--json")
    assert shown.exit_code == 0 and "roll" not in json.loads(shown.stdout)


def test_write_entry_and_the_recorder_store_the_roll():
    from rpgdice.cli.replay import parse
    from rpgdice.roll.execute import replay
    from rpgdice.table.log import Entry, Log, Recorder, write_entry

    entry, aside = write_entry(Entry(argv=["roll", "d6"], character=None, ruleset="dice",
                                     command="roll", seed=2, faces=None, count=1, outcome=None,
                                     results=[{"ruleset": "dice"}], roll={"sides": 6}))
    assert aside is None and _cell(entry) == '{"sides":6}'
    cap = replay(parse(["roll", "2d6", "--seed", "3"]), roll=True)
    recorder = Recorder({"seed": 3}, None)
    list(recorder.watch(cap.results))
    warned: list[str] = []
    saved = recorder.save(["roll", "2d6", "--seed", "3"], None, warned.append, roll=ROLL)
    assert warned == [] and saved == entry + 1
    log = Log.open(write=False)
    assert log.get(saved)["roll"] == ROLL
    log.close()


@pytest.mark.parametrize("roll", [
    {"huge": "x" * 1_000_001},  # over MAX_BYTES
    {"nan": float("nan")},  # no strict JSON
    {"object": object()},  # no JSON at all
    ["not", "an", "object"],
    "a string",
])
def test_a_roll_that_cannot_be_kept_is_stored_as_null_and_costs_no_entry(roll):
    from rpgdice.table.log import Log

    log = Log.open(write=True)
    entry = _add(log, roll)
    assert _cell(entry) is None and log.get(entry)["roll"] is None
    log.close()


def test_a_deeply_nested_roll_is_stored_as_null():
    from rpgdice.table.log import Log

    deep: dict = {}
    inner = deep
    for _ in range(100_000):
        inner["a"] = {}
        inner = inner["a"]
    log = Log.open(write=True)
    entry = _add(log, deep)
    assert _cell(entry) is None
    log.close()


FORGED = {
    "huge": '{"a":"' + "x" * 3_000_000 + '"}',
    "just over": '{"a":"' + "x" * (1_000_000 - 7) + '"}',
    "nested arrays": '{"a":' + "[" * 200_000 + "]" * 200_000 + "}",
    "nested objects": '{"a":' * 200_000 + "1" + "}" * 200_000,
    "a list": "[1, 2, 3]",
    "a number": "42",
    "null": "null",
    "not json": "{roll",
    "a blob": b"\x00\xff{}",
    "an integer cell": 7,
}


@pytest.mark.parametrize("forged", list(FORGED))
def test_a_forged_roll_cell_reads_as_none_never_an_exception(forged):
    from rpgdice.table.log import Log, entry_data

    log = Log.open(write=True)
    entry = _add(log, ROLL)
    log.close()
    _forge(entry, FORGED[forged])
    log = Log.open(write=False)
    assert log.get(entry)["roll"] is None
    assert [e["roll"] for e in log.last(n=1)] == [None]
    assert [e["roll"] for e in log.listing(n=1)] == [None]
    log.close()
    row = sqlite3.connect(log_path()).execute(
        "SELECT * FROM entries WHERE id = ?", (entry,)).fetchone()
    from rpgdice.table.log import COLUMNS

    con = sqlite3.connect(log_path())
    names = [d[1] for d in con.execute("PRAGMA table_info(entries)")]
    con.close()
    raw = dict(zip(names, row))
    assert entry_data(tuple(raw.get(c) for c in COLUMNS))["roll"] is None  # read raw, too
    assert cli("log", "--json").exit_code == 0
    assert cli("log", "show", str(entry)).exit_code == 0


def test_a_roll_cell_just_within_the_cap_is_read():
    from rpgdice.table.log import MAX_BYTES, Log

    log = Log.open(write=True)
    entry = _add(log, ROLL)
    log.close()
    text = '{"a":"' + "x" * (MAX_BYTES - 8) + '"}'
    assert len(text) == MAX_BYTES
    _forge(entry, text)
    log = Log.open(write=False)
    assert log.get(entry)["roll"] == {"a": "x" * (MAX_BYTES - 8)}
    log.close()

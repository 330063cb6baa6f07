"""Bounded under attack (issue 35): a forged log's nested or oversized cells, the server's
reads and ``/events``, the Discord poster, long and undecodable lines in ``play``, the odds
estimate of ordinary dice, and a log far over its window. Each test forges the attack at a
size that still shows the fault."""

from __future__ import annotations

import json
import sqlite3
import time

import pytest

from conftest import cli, log_path, ok

NESTED = "[" * 100_000
"""A JSON cell nested past any parser's stack (forged by hand)."""


def forge(entry: int, **cells: str) -> None:
    con = sqlite3.connect(log_path())
    for column, text in cells.items():
        con.execute(f"UPDATE entries SET {column} = ? WHERE id = ?", (text, entry))
    con.commit()
    con.close()


def logged(n: int = 2) -> None:
    for _ in range(n):
        ok("roll", "2d6", "--log")


# 1. Deeply nested JSON cells --------------------------------------------------------------

JSON_CELLS = ("argv", "faces", "kinds", "spec", "shown", "results", "roll")


@pytest.mark.parametrize("column", JSON_CELLS)
def test_a_cell_nested_past_the_stack_reads_as_nothing(column):
    from rpgdice.table.log import Log

    logged()
    forge(2, **{column: NESTED})
    log = Log.open(write=False)
    assert log is not None
    try:
        assert log.get(2)["id"] == 2
        assert [e["id"] for e in log.listing(n=10)] == [1, 2]
        assert [e["id"] for e in log.listing(n=10, full=False)] == [1, 2]
    finally:
        log.close()
    for args in (("log", "show", "2"), ("log", "show", "2", "--json"), ("log",), ("log", "--json")):
        run = cli(*args)
        said = run.stdout + run.stderr
        assert run.exit_code in (0, 1) and run.exception is None, (said, run.exception)
        assert "internal error" not in said and "Traceback" not in said


def test_a_cell_nested_less_deep_than_the_stack_but_deeper_than_rpgdice_writes_reads_as_nothing():
    from rpgdice.table.log import entry_data
    from rpgdice.table.log.schema import COLUMNS

    row = dict.fromkeys(COLUMNS)
    row.update(id=1, results="[" * 900 + "]" * 900, spec='{"a":' * 900 + "1" + "}" * 900,
               roll='{"a":' * 900 + "1" + "}" * 900, argv='["roll"]')
    entry = entry_data(tuple(row[c] for c in COLUMNS))
    assert entry["results"] == [] and entry["spec"] is None and entry["roll"] is None
    assert entry["argv"] == ["roll"]


def test_the_server_starts_on_and_follows_past_a_nested_row():
    from rpgdice.serve.app import Table

    logged(2)
    forge(2, **dict.fromkeys(JSON_CELLS, NESTED))
    table = Table(log_path(), None, poll=0.01)
    table.open()  # start-up reads the newest rows: the nested one among them
    try:
        assert list(table.hub.recent) == [1, 2] and table.hub.notices["log"] is None
        forge(1, results=NESTED)
        ok("roll", "2d6", "--log")
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and 3 not in table.hub.recent:
            time.sleep(0.02)
        assert 3 in table.hub.recent and table.hub.notices["log"] is None
    finally:
        table.close()


# 2. An oversized cell is never read whole by the server --------------------------------------


def test_the_follower_never_reads_a_cell_over_the_cap():
    from rpgdice.serve.follow import Reader

    logged(1)
    big = json.dumps([{"ruleset": "dice", "command": "roll", "x": "y" * 3_000_000}])
    forge(1, results=big, argv=json.dumps(["roll", "z" * 3_000_000]),
          spec=json.dumps({"z": "z" * 3_000_000}), roll=json.dumps({"z": "z" * 3_000_000}))
    reader = Reader(log_path())
    try:
        (entry,) = reader.after(0)
        assert entry["too_large"] and entry["results"] == [] and entry["argv"] == []
        assert entry["spec"] is None and entry["roll"] is None
        assert reader.newest(5)[0]["too_large"]
    finally:
        reader.close()

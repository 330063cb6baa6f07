"""Issue 24 on the roll log: nothing lost under several writers and a corrupt file,
memory flat whatever the log holds, a full disk said as such; issue 18's log stats
(rolls of given faces left out, too few for a verdict, --since/--until)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from conftest import assert_usage_error, cli, cli_json, log_path, proc


def _seeds_in(db: Path) -> set[int]:
    """The seeds a file holds, when it is a readable log (else none)."""
    try:
        con = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
        try:
            return {int(s) for (s,) in con.execute("SELECT seed FROM entries") if s is not None}
        finally:
            con.close()
    except sqlite3.Error:
        return set()


# A corrupt log, several writers, another program holding the file's lock ------------------

HOLDER = textwrap.dedent("""
    import fcntl, os, sys, time
    fd = os.open(sys.argv[1], os.O_RDWR)
    # SQLite's lock bytes (PENDING, RESERVED, SHARED): held exclusively, as SQLite's own
    # tests hold a database's lock from another process.
    fcntl.lockf(fd, fcntl.LOCK_EX, 512 + 2, 0x40000000)
    print("held", flush=True)
    time.sleep(float(sys.argv[2]))
    os.close(fd)
""")

WORKER = textwrap.dedent("""
    import subprocess, sys
    for seed in sys.argv[2:]:
        run = subprocess.run([sys.executable, "-m", "rpgdice", "crytures", "roll", "3", "--seed",
                              seed, "--json", "--log"], capture_output=True, text=True)
        print(seed, run.returncode, "not logged" in run.stderr, flush=True)
""")


@pytest.mark.slow
@pytest.mark.process
def test_a_corrupt_log_locked_by_another_program_loses_nothing_under_many_writers(tmp_path):
    path = log_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    garbage = os.urandom(8192)
    path.write_bytes(garbage)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path), "1.5"],
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    workers = [subprocess.Popen([sys.executable, "-c", WORKER, "x",
                                 *(str(1000 + 10 * w + i) for i in range(4))],
                                stdout=subprocess.PIPE, text=True) for w in range(12)]
    lines = [ln for p in workers for ln in p.communicate(timeout=300)[0].splitlines()]
    holder.wait(timeout=30)
    assert len(lines) == 48
    logged: set[int] = set()
    for db in path.parent.iterdir():
        logged |= _seeds_in(db)
    for line in lines:
        seed, code, warned = line.split()
        assert code == "0"
        # Every roll is in a readable database, or its command said it was not logged.
        assert int(seed) in logged or warned == "True", line
    kept = [p for p in path.parent.iterdir() if p.name.startswith(path.name + ".corrupt-")
            and not p.name.endswith(("-wal", "-shm"))]
    assert [p.read_bytes() for p in kept].count(garbage) == 1  # the original, kept once
    assert all(not _seeds_in(p) for p in kept)  # no valid database was renamed aside
    assert _seeds_in(path)  # and a new log holds the rolls


def test_a_corrupt_log_is_set_aside_once_under_its_lock(monkeypatch):
    # Two writers found the same corrupt file: the second, taking the lock after the first
    # set it aside and began a new log, finds the new log and renames nothing.
    from rpgdice.table import log

    path = log_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"x" * 8192)
    seen = path.stat().st_ino
    first = log.Log.repaired(path, seen)
    assert first.set_aside is not None and first.set_aside.read_bytes() == b"x" * 8192
    first.close()
    second = log.Log.repaired(path, seen)
    assert second.set_aside is None
    second.close()
    assert len([p for p in path.parent.iterdir() if ".corrupt-" in p.name]) == 1


def test_set_aside_names_never_collide(monkeypatch):
    from rpgdice.table import log

    monkeypatch.setattr(log.time, "strftime", lambda *a: "20260101T000000Z")
    path = log_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    names = set()
    for i in range(5):
        path.write_bytes(bytes([i]) * 100)
        names.add(log.set_aside(path))
    assert len(names) == 5 and sorted(p.read_bytes()[0] for p in names) == [0, 1, 2, 3, 4]


def _corrupt_an_inner_page() -> None:
    con = sqlite3.connect(log_path())
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page = con.execute("PRAGMA page_size").fetchone()[0]
    con.close()
    data = bytearray(log_path().read_bytes())
    for start in range(page, len(data), page):  # every page but the header's
        data[start:start + page] = b"\xff" * page
    log_path().write_bytes(bytes(data))


def test_an_inner_page_corrupt_is_set_aside_like_a_corrupt_header():
    for seed in range(1, 40):
        assert cli("crytures", "roll", "20", "--seed", str(seed), "--log").exit_code == 0
    _corrupt_an_inner_page()
    broken = log_path().read_bytes()
    run = cli("crytures", "roll", "3", "--seed", "77", "--log", "--json")
    assert run.exit_code == 0 and run.json()[0]["seed"] == 77
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "was corrupt: it was set aside as" in lines[0], run.stderr
    (aside,) = [p for p in log_path().parent.iterdir()
                if ".corrupt-" in p.name and not p.name.endswith(("-wal", "-shm"))]
    assert aside.read_bytes() == broken
    assert _seeds_in(log_path()) == {77}
    again = cli("crytures", "roll", "3", "--seed", "78", "--log")
    assert again.exit_code == 0 and again.stderr == ""  # not a warning on every roll
    assert _seeds_in(log_path()) == {77, 78}


TRY_LOCK = textwrap.dedent("""
    import fcntl, os, sys
    fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        print("free")
    except BlockingIOError:
        print("held")
""")


@pytest.mark.process
def test_no_log_is_set_aside_between_sqlite_opening_it_and_its_first_read(monkeypatch):
    # A connection made to a file that is then renamed aside reads and writes the new
    # log's -wal (SQLite finds it by name) through the old file: the new log's pages went
    # into the corrupt original and rolls were lost. Opening holds the lock's shared side.
    from rpgdice.table import log

    assert cli("crytures", "roll", "3", "--seed", "1", "--log").exit_code == 0
    lock = log_path().with_name(log_path().name + ".lock")
    real = log.sqlite3.connect
    seen: list[str] = []

    def connect(*args, **kwargs):
        con = real(*args, **kwargs)
        seen.append(subprocess.run([sys.executable, "-c", TRY_LOCK, str(lock)],
                                   capture_output=True, text=True).stdout.strip())
        return con

    monkeypatch.setattr(log.sqlite3, "connect", connect)
    opened = log.Log.open(write=True)
    assert opened is not None and seen == ["held"]
    opened.close()


def test_a_connection_to_a_log_set_aside_is_never_closed():
    # Closing the last connection checkpoints and deletes the -wal by its name: that of
    # a log set aside since it was opened is now the new log's.
    from rpgdice.table import log

    assert cli("crytures", "roll", "3", "--seed", "1", "--log").exit_code == 0
    old = log.Log.open(write=True)
    assert old is not None
    old.add(log.Entry(argv=[], character=None, ruleset="crytures", command="roll", seed=2,
                      faces=None, count=1, outcome=None, results=[{}]))
    aside = log.set_aside(log_path())
    new = log.Log.repaired(log_path(), None)
    new.add(log.Entry(argv=[], character=None, ruleset="crytures", command="roll", seed=3,
                      faces=None, count=1, outcome=None, results=[{}]))
    new.release()
    old.close()
    assert old.con in log._ORPHANS
    assert _seeds_in(log_path()) == {3} and _seeds_in(aside) == {1, 2}


# What an entry keeps, and memory --------------------------------------------------------


@pytest.mark.slow
def test_an_entry_keeps_at_most_max_bytes_and_the_rest_replays():
    from rpgdice.table.log import MAX_BYTES, Log

    run = cli("crytures", "roll", "1000", "-n", "40", "--seed", "5", "--json", "--log")
    rolled = run.json()
    log = Log.open(write=False)
    (size, count, kept) = log.con.execute(
        "SELECT length(results), count, json_array_length(results) FROM entries").fetchone()
    log.close()
    assert count == 40 and 1 <= kept < 40 and size <= MAX_BYTES
    (entry,) = cli("log", "--json").json()
    assert entry["results"] == rolled[:kept]
    assert cli("log", "show", "1", "--replay", "--json").exit_code == 0
    shown = cli("log", "show", "1")
    assert shown.exit_code == 0 and shown.stderr == ""
    assert shown.stdout.count("Crytures roll") == cli(
        "crytures", "roll", "1000", "-n", "40", "--seed", "5").stdout.count("Crytures roll")


def test_the_recorder_keeps_only_what_it_stores():
    from rpgdice.cli.replay import parse
    from rpgdice.roll.execute import replay
    from rpgdice.table.log import MAX_BYTES, Recorder

    cap = replay(parse(["crytures", "roll", "1000", "-n", "100", "--seed", "1"]), roll=True)
    recorder = Recorder({"seed": 1}, None)
    assert sum(1 for _ in recorder.watch(cap.results)) == 100
    assert recorder.count == 100 and 1 <= len(recorder.kept) < 100
    assert len(recorder.kept) == len(recorder.texts) == len(recorder.kinds)
    assert sum(len(t) + 1 for t in recorder.texts) <= MAX_BYTES


def test_a_line_of_log_reads_only_what_it_shows():
    from rpgdice.table.log import Log

    cli("crytures", "roll", "1000", "-n", "5", "--seed", "2", "--log")
    cli("roll", "2d6", "-n", "3", "--seed", "2", "--log")
    cli("crytures", "roll", "4", "--seed", "2", "--log")
    log = Log.open(write=False)
    brief = list(log.listing(n=10, full=False))
    full = [{**e, "results": json.loads(e["results_text"])} for e in log.listing(n=10)]
    log.close()
    assert brief[0]["results"] == [{"outcome": r["outcome"]} for r in full[0]["results"]]
    assert brief[1]["results"] == [{"outcome": None, "total": r["total"]}
                                   for r in full[1]["results"]]
    assert brief[2]["results"] == full[2]["results"]  # one result: shown whole
    shown = cli("log")
    assert "×5: 5 success" in shown.stdout.replace("failure", "success") or "×5" in shown.stdout
    assert [e["id"] for e in cli("log", "--json", "--last", "2").json()] == [2, 3]


@pytest.mark.slow
@pytest.mark.process
def test_log_memory_stays_flat_whatever_the_entries_hold():
    # Ten 200-result entries as an rpgdice before the byte cap stored them (7 MB each):
    # listing them holds one at a time (all at once was over 700 MB).
    from rpgdice.cli.replay import parse
    from rpgdice.render.jsonl import to_data
    from rpgdice.roll.execute import replay
    from rpgdice.table.log import Log

    cap = replay(parse(["crytures", "roll", "1000", "-n", "200", "--seed", "1"]), roll=True)
    text = json.dumps([{**to_data(r.result), "seed": 1} for r in cap.results])
    log = Log.open(write=True)
    for _ in range(10):
        log.con.execute("INSERT INTO entries (time, argv, ruleset, command, seed, count, results)"
                        " VALUES ('2026-01-01T00:00:00Z', '[\"crytures\"]', 'crytures', 'roll',"
                        " '1', 200, ?)", (text,))
    log.close()
    env = {**os.environ, "RPGDICE_HOME": str(log_path().parent)}
    peak = []
    for argv in (["log"], ["log", "--json"]):
        run = subprocess.run(["/usr/bin/time", "-f", "%M", sys.executable, "-m", "rpgdice", *argv],
                             capture_output=True, text=True, env=env)
        assert run.returncode == 0, run.stderr
        peak.append(int(run.stderr.strip().splitlines()[-1]) // 1024)
    assert peak[0] < 200 and peak[1] < 200, peak


# A full disk ------------------------------------------------------------------------------


class _FullDisk:
    """A connection whose DELETE fails as on a full disk, after SQLite rolled back."""

    def __init__(self, con):
        self._con = con

    def __getattr__(self, name):
        return getattr(self._con, name)

    def execute(self, sql, *args):
        if sql.startswith("DELETE FROM entries"):
            self._con.execute("ROLLBACK")
            raise sqlite3.OperationalError("database or disk is full")
        return self._con.execute(sql, *args)


def test_log_clear_on_a_full_disk_says_so(monkeypatch):
    from rpgdice.table import log

    cli("crytures", "roll", "3", "--seed", "1", "--log")
    real_open = log.Log._open.__func__

    def full(cls, path, write, **kw):
        opened = real_open(cls, path, write, **kw)
        if write:
            opened.con = _FullDisk(opened.con)
        return opened

    monkeypatch.setattr(log.Log, "_open", classmethod(full))
    run = cli("log", "clear", "--yes")
    assert run.exit_code == 2  # a full disk is the environment at fault, as elsewhere
    assert "the disk is full" in run.stderr and "rollback" not in run.stderr, run.stderr
    assert len(cli("log", "--json").json()) == 1  # nothing deleted


# log stats: given faces, too few, the budget -----------------------------------------------


def test_stats_leave_out_rolls_of_given_faces_and_say_how_many():
    for faces in ("10", "1"):
        cli("cypher", "task", "-d", "3", "--dice", faces, "--log")
    cli("cypher", "task", "-d", "3", "--seed", "4", "--log")
    (g,) = cli("log", "stats", "--json").json()
    assert g["rolls"] == 1 and g["left_out"] == 2
    assert sum(g["faces"]["d20"].values()) == 1
    assert g["verdict"] == "too few rolls for a verdict: 1 of the 20 needed"
    assert g["fairness"]["d20"]["verdict"] == "too few faces for a verdict: 1 rolled of the 100 needed"
    shown = cli("log", "stats")
    assert "2 rolls left out" in shown.stdout and "Too few rolls for a verdict" in shown.stdout
    cli("log", "clear", "--yes")
    (g,) = cli("log", "stats", "--json").json() or [{"rolls": 0, "left_out": 0}]
    assert g["rolls"] == 0 and g["left_out"] == 0


def test_stats_leave_out_odds_over_their_budget_at_once():
    cli("crytures", "roll", "1000", "--attack", "--seed", "1", "--log")
    cli("crytures", "roll", "3", "--seed", "1", "--log")
    start = time.monotonic()
    (g,) = cli("log", "stats", "--json").json()
    assert time.monotonic() - start < 10
    assert g["rolls"] == 1 and g["left_out"] == 1


def test_stats_cache_each_odds_as_computed_and_stop_at_their_time(monkeypatch):
    from rpgdice.cli import common
    from rpgdice.cli import log as log_cli
    from rpgdice.table.log import Log

    for pool in ("2", "3", "4"):
        cli("crytures", "roll", pool, "--seed", "1", "--log")
    real = common.ExactOdds.__call__
    calls = []

    def stopped(self):
        calls.append(self.key)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(self)

    monkeypatch.setattr(common.ExactOdds, "__call__", stopped)
    log = Log.open(write=False)
    with pytest.raises(KeyboardInterrupt):
        log_cli.compute_stats(log, None, None)
    assert len(log.cached_odds()) == 1  # the first, kept before the stop
    monkeypatch.setattr(common.ExactOdds, "__call__", real)
    monkeypatch.setattr(log_cli, "STATS_SECONDS", -1.0)  # out of time: only cached odds
    (g,) = log_cli.compute_stats(log, None, None)
    log.close()
    assert g["rolls"] == 1 and g["left_out"] == 2


# --since / --until ------------------------------------------------------------------------


def _at(times: list[str]) -> None:
    for i, _ in enumerate(times):
        cli("cypher", "task", "-d", "3", "--seed", str(i + 1), "--log")
    con = sqlite3.connect(log_path())
    for i, stamp in enumerate(times, 1):
        con.execute("UPDATE entries SET time = ? WHERE id = ?", (stamp, i))
    con.commit()
    con.close()


def _local(text: str) -> str:
    """A local time as the log's UTC stamp."""
    from datetime import datetime, timezone

    return datetime.fromisoformat(text).astimezone().astimezone(timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%SZ")


def test_log_since_and_until_read_dates_times_words_and_ages():
    from datetime import datetime, timedelta

    now = datetime.now()
    _at([_local("2026-01-01T23:59:00"), _local("2026-01-02T00:00:30"),
         _local("2026-01-02T23:59:59"), _local("2026-01-03T00:00:00"),
         (now - timedelta(hours=2)).astimezone().strftime("%Y-%m-%dT%H:%M:%S%z")])
    con = sqlite3.connect(log_path())  # the last one, two hours ago, as a UTC stamp
    con.execute("UPDATE entries SET time = ? WHERE id = 5",
                (_local((now - timedelta(hours=2)).isoformat(timespec="seconds")),))
    con.commit()
    con.close()

    def ids(*args: str) -> list[int]:
        run = cli("log", "--json", *args)
        assert run.exit_code == 0, run.stderr
        return [e["id"] for e in run.json()]

    assert ids("--since", "2026-01-02", "--until", "2026-01-02") == [2, 3]  # the whole day
    assert ids("--until", "2026-01-02T00:00:30") == [1, 2]
    assert ids("--since", "3h") == [5] and ids("--since", "90m") == []
    assert ids("--until", "90m") == [1, 2, 3, 4, 5]
    assert ids("--since", "today") == ([5] if (now - timedelta(hours=2)).date() == now.date()
                                       else [])
    assert ids("--until", "yesterday") == ([1, 2, 3, 4] if (now - timedelta(hours=2)).date()
                                           == now.date() else [1, 2, 3, 4, 5])
    assert ids("--since", "2026-01-02", "--last", "1") == [5]
    (g,) = cli("log", "stats", "--json", "--since", "2026-01-02", "--until", "2026-01-02").json()
    assert g["rolls"] == 2
    assert cli("log", "show", "1", "--since", "2026-01-02").exit_code == 2
    assert cli("log", "show", "2", "--since", "2026-01-02").exit_code == 0


@pytest.mark.parametrize("option", ["--since", "--until"])
@pytest.mark.parametrize("value", ["soon", "2026-13-01", "3y", ""])
def test_a_bad_when_is_one_usage_line_naming_the_option(option, value):
    cli("cypher", "task", "-d", "3", "--seed", "1", "--log")
    for argv in (["log"], ["log", "stats"], ["log", "show", "1"]):
        run = cli(*argv, option, value)
        assert run.exit_code == 2 and run.stdout == ""
        lines = run.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"rpgdice: error: {option}:"), run.stderr


def test_a_missing_log_is_known_without_sqlites_error_code():
    """Python 3.10's sqlite3 errors carry no ``sqlite_errorcode``: a log opened without
    creating it that is not there is still known as missing (so it is made under the
    lock), by SQLite's own message; on 3.10 every roll went unlogged."""
    import sqlite3

    from rpgdice.table import log

    plain = sqlite3.OperationalError("unable to open database file")
    assert not hasattr(plain, "sqlite_errorcode") or plain.sqlite_errorcode is None
    assert log._missing(plain)
    assert not log._missing(sqlite3.OperationalError("database is locked"))


def test_log_stats_says_rolls_by_hand_are_why_they_were_left_out():
    """CLI.md: log stats leaves out rolls made with --dice and says so (it blamed the work
    budget or a changed sheet for them)."""
    for _ in range(2):
        cli("crytures", "roll", "3", "--dice", "1,2,3", "--log")
    cli("crytures", "roll", "3", "--seed", "4", "--log")
    run = cli("log", "stats")
    assert run.exit_code == 0, run.stderr
    text = " ".join(run.stdout.split())
    assert "2 rolls left out: 2 of dice rolled by hand (--dice)" in text, run.stdout
    assert "work budget" not in text
    (group,) = cli_json("log", "stats")
    assert group["left_out"] == 2 and group["left_out_by_hand"] == 2


@pytest.mark.process
@pytest.mark.slow
def test_a_fifo_as_the_log_is_refused_not_waited_on(tmp_path, monkeypatch):
    """mkfifo log.sqlite3: log, again and log stats hung forever; now one line each, exit
    2, and a roll still rolls with one warning (a subprocess: a hang fails by timeout)."""
    home = tmp_path / "home"
    home.mkdir()
    os.mkfifo(home / "log.sqlite3")
    env = {"RPGDICE_HOME": str(home)}
    for argv in (["log"], ["log", "stats"], ["again"]):
        run = proc(*argv, env=env, timeout=20)
        assert run.returncode == 2 and "not a regular file" in run.stderr, (argv, run.stderr)
    roll = proc("roll", "d6", "--log", env=env, timeout=20)
    assert roll.returncode == 0 and "not logged" in roll.stderr


@pytest.mark.process
@pytest.mark.slow
def test_a_log_malformed_inside_is_one_line_for_the_reading_commands():
    """A log whose inner pages are garbage made log, log stats, log show and again an
    "internal error ... please report it": now one line naming the log, exit 2."""
    proc("crytures", "roll", "1000", "-n", "30", "--log", "--seed", "1", "--json")
    proc("roll", "d6", "--log", "--seed", "1")  # processes: no connection held here
    con = sqlite3.connect(log_path())
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.execute("PRAGMA journal_mode=delete")
    con.close()
    with open(log_path(), "r+b") as f:
        f.seek(4096 * 6)
        f.write(b"\xff" * 4096 * 20)
    for argv in (["log", "--last", "3"], ["log", "stats"]):
        run = cli(*argv)
        assert_usage_error(run, "the roll log", "cannot be read")


def test_a_forged_roll_asking_for_help_is_not_replayed():
    """argv ["seyruun", "roll", "--help"] passed for a roll: --replay printed the help.
    Now the stored roll value replays, whatever the words say; an entry with none (an
    older rpgdice's) is read from its words, and words asking for help are no roll."""
    rolled = cli("seyruun", "roll", "3", "2", "--log", "--seed", "1")
    con = sqlite3.connect(log_path())
    con.execute("UPDATE entries SET argv = ?", (json.dumps(["seyruun", "roll", "--help"]),))
    con.commit()
    run = cli("log", "show", "1", "--replay")
    assert run.exit_code == 0 and run.stdout.split("\n", 1)[1] == rolled.stdout
    con.execute("UPDATE entries SET roll = NULL")
    con.commit()
    con.close()
    run = cli("log", "show", "1", "--replay")
    assert_usage_error(run, "cannot be replayed")


def _forge_oversized(size: int) -> int:
    """A forged entry whose results cell is ``size`` bytes (over the cap), of a roll that
    replays from its seed; returns its ID."""
    from rpgdice.table.log import Log

    cli("crytures", "roll", "4", "--seed", "7", "--log")  # the log, and a roll to compare
    log = Log.open(write=True)
    cur = log.con.execute(
        "INSERT INTO entries (time, argv, ruleset, command, seed, count, outcome, results)"
        " SELECT time, argv, ruleset, command, seed, count, outcome, ? FROM entries WHERE id = 1",
        ("[" + " " * (size - 2) + "]",))
    log.close()
    return int(cur.lastrowid)


def test_a_results_cell_over_the_cap_is_never_read_and_replays_from_its_seed():
    from rpgdice.table.log import MAX_CELL

    n = _forge_oversized(MAX_CELL + 10)
    first, forged = cli("log", "--json").json()
    assert forged["id"] == n and forged["results"] == [] and forged["count"] == 1
    listed = " ".join(cli("log").stdout.split())
    assert "results too large to" in listed and f"(log show {n} rolls them again)" in listed
    shown = cli("log", "show", str(n))
    assert shown.exit_code == 0, shown.stderr
    assert "over the log's cap" in shown.stderr and "rolled again from its seed" in shown.stderr
    assert shown.stdout.splitlines()[1:] == cli("log", "show", "1").stdout.splitlines()[1:]


@pytest.mark.slow
@pytest.mark.process
def test_a_forged_200_mb_results_cell_costs_nothing_to_list_or_show():
    from rpgdice.table import log as stored

    size = 200_000_000  # twice the memory any of the four may take: a read of it shows
    n = _forge_oversized(size)
    env = {**os.environ, "RPGDICE_HOME": str(log_path().parent)}
    # Where the size is read without the cell (SQLite 3.43+, or Python 3.11+'s blobopen):
    # nothing of it is read. Python 3.10 with an older SQLite reads it once to measure it.
    most = 100 if "length(CAST" not in stored._OVER else 100 + size * 1.1 // 2**20
    for argv in (["log"], ["log", "--json"], ["log", "show", str(n)], ["log", "show", str(n),
                                                                     "--json"]):
        run = subprocess.run(["/usr/bin/time", "-f", "%M %e", sys.executable, "-m", "rpgdice",
                              *argv], capture_output=True, text=True, env=env)
        assert run.returncode == 0, run.stderr
        peak_kb, seconds = run.stderr.strip().splitlines()[-1].split()
        assert int(peak_kb) // 1024 < most and float(seconds) < 10, (argv, peak_kb, seconds)


def test_log_prints_its_table_a_batch_at_a_time_with_the_same_columns(monkeypatch):
    from rpgdice.render import log as view
    from rpgdice.table.log import Log

    cli("roll", "2d6", "--seed", "1", "--log")
    log = Log.open(write=True)
    log.con.executemany("INSERT INTO entries (time, argv, ruleset, command, seed, count, results)"
                        " SELECT time, argv, ruleset, command, seed, count, results FROM entries"
                        " WHERE id = 1", [()] * 11)
    log.close()
    monkeypatch.setattr(view, "BATCH", 5)
    read, printed = [], []
    listing = Log.listing

    def counted(self, **kwargs):
        for e in listing(self, **kwargs):
            read.append(e["id"])
            yield e

    table = view._print_table

    def noted(out, rows, widths, header):
        printed.append((len(read), len(rows), tuple(widths), header))
        table(out, rows, widths, header)

    monkeypatch.setattr(Log, "listing", counted)
    monkeypatch.setattr(view, "_print_table", noted)
    lines = cli("log").stdout.splitlines()
    # Three tables of 5, 5 and 2 rows, each printed before the next batch is read.
    assert [(n, rows, header) for n, rows, _, header in printed] == [
        (5, 5, True), (10, 5, False), (12, 2, False)]
    assert len({widths for *_, widths, _ in printed}) == 1  # the same columns throughout
    assert lines[0].split()[:2] == ["ID", "when"] and len(lines) == 13
    assert [int(line.split()[0]) for line in lines[1:]] == list(range(1, 13))
    assert len({line.index("roll 2d6") for line in lines[1:]}) == 1  # columns aligned


@pytest.mark.slow
@pytest.mark.process
def test_log_last_n_memory_does_not_grow_with_n():
    # 6,000 entries of 20 results: the whole table at once grew by about 8 kB a line.
    from rpgdice.table.log import Log

    cli("crytures", "roll", "10", "-n", "20", "--seed", "1", "--log")
    log = Log.open(write=True)
    log.con.executemany("INSERT INTO entries (time, argv, ruleset, command, seed, count, results)"
                        " SELECT time, argv, ruleset, command, seed, count, results FROM entries"
                        " WHERE id = 1", [()] * 5999)
    log.close()
    env = {**os.environ, "RPGDICE_HOME": str(log_path().parent)}
    peak = {}
    for n in (500, 6000):
        run = subprocess.run(["/usr/bin/time", "-f", "%M", sys.executable, "-m", "rpgdice", "log",
                              "--last", str(n)], capture_output=True, text=True, env=env)
        assert run.returncode == 0, run.stderr
        assert run.stdout.count("\n") == 2 * n + 1  # a line of command, a line of figures
        peak[n] = int(run.stderr.strip().splitlines()[-1]) // 1024
    assert peak[6000] - peak[500] < 12, peak

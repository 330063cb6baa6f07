"""Bounded under attack (issue 35): a forged log's nested or oversized cells, the server's
reads and ``/events``, the Discord poster, long and undecodable lines in ``play``, the odds
estimate of ordinary dice, and a log far over its window. Each test forges the attack at a
size that still shows the fault."""

from __future__ import annotations

import json
import sqlite3
import time

import pytest

from conftest import cli, cli_json, log_path, ok, proc

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


# 4-5. The Discord poster: bounded answers, every protocol error a failed post ----------------


class RawWebhook:
    """A webhook answering each connection with the raw bytes ``answer`` says (a callable
    writing to the socket), on a free local port."""

    def __init__(self) -> None:
        import socket
        import threading

        self.sock = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/hook"
        self.answer = lambda conn: conn.sendall(b"HTTP/1.1 204 No Content\r\n\r\n")
        self.posts = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            try:
                conn.settimeout(5)
                data = b""
                while b"\r\n\r\n" not in data:
                    data += conn.recv(65536)
                head, _, body = data.partition(b"\r\n\r\n")
                length = int(next((line.split(b":")[1] for line in head.split(b"\r\n")
                                   if line.lower().startswith(b"content-length")), b"0"))
                while len(body) < length:
                    body += conn.recv(65536)
                self.posts += 1
                self.answer(conn)
            except OSError:
                pass
            finally:
                conn.close()


def endless(head: bytes):
    def answer(conn) -> None:
        conn.sendall(head + b"\r\nTransfer-Encoding: chunked\r\n\r\n")
        chunk = b"%x\r\n%s\r\n" % (65536, b"x" * 65536)
        for _ in range(200_000):  # 13 GB, were it all read
            conn.sendall(chunk)
    return answer


PROTOCOL_ERRORS = {
    "IncompleteRead": lambda c: c.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n"
                                          b"\r\nzz\r\nshort"),
    "BadStatusLine": lambda c: c.sendall(b"this is no HTTP\r\n\r\n"),
    "LineTooLong": lambda c: c.sendall(b"HTTP/1.1 200 OK\r\nX-Long: " + b"a" * 70_000 + b"\r\n\r\n"),
    "RemoteDisconnected": lambda c: None,
}


@pytest.mark.process
@pytest.mark.parametrize("error", PROTOCOL_ERRORS)
def test_a_protocol_error_is_a_failed_post_with_a_notice_and_the_next_roll_is_posted(error):
    from rpgdice.serve import discord

    hook = RawWebhook()
    notices: list = []
    poster = discord.Poster(hook.url, notices.append, lambda text: None, backoff=0.001)
    poster.start()
    try:
        hook.answer = PROTOCOL_ERRORS[error]
        poster.queue.put((1, "first"))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not notices:
            time.sleep(0.01)
        assert notices and notices[0].startswith("Discord: roll #1 was not posted: ")
        assert poster.thread.is_alive()
        hook.answer = lambda c: c.sendall(b"HTTP/1.1 204 No Content\r\n\r\n")
        poster.queue.put((2, "second"))
        while time.monotonic() < deadline and notices[-1] is not None:
            time.sleep(0.01)
        assert notices[-1] is None  # posted: the notice is gone
    finally:
        poster.close()
        hook.sock.close()


@pytest.mark.process
@pytest.mark.slow
@pytest.mark.parametrize("head", [b"HTTP/1.1 200 OK", b"HTTP/1.1 429 Too Many Requests"])
def test_an_endless_answer_is_read_at_most_64_kib(head):
    import tracemalloc

    from rpgdice.serve import discord

    hook = RawWebhook()
    hook.answer = endless(head)
    poster = discord.Poster(hook.url, lambda t: None, lambda t: None, backoff=0.001)
    tracemalloc.start()
    started = time.monotonic()
    try:
        if b"429" in head:
            discord.MAX_WAITS, saved = 1, discord.MAX_WAITS
            try:
                problem = poster.post("hello")
            finally:
                discord.MAX_WAITS = saved
            assert problem is not None and "429" in problem
        else:
            assert poster.post("hello") is None
        assert time.monotonic() - started < 5
        assert tracemalloc.get_traced_memory()[1] < 5_000_000
    finally:
        tracemalloc.stop()
        hook.sock.close()


# 7. Bytes that are not UTF-8 ------------------------------------------------------------------


@pytest.mark.process
@pytest.mark.slow
def test_a_roll_with_bytes_that_are_not_utf8_is_logged_with_them_made_visible():
    from rpgdice.table.log import Log

    ok("roll", "2d6 # \udcff", "--log")  # what Python reads of the byte 0xff
    log = Log.open(write=False)
    assert log is not None
    try:
        (entry,) = log.last()
    finally:
        log.close()
    assert entry["argv"] == ["roll", "2d6 # \\xff", "--log"]
    assert entry["results"] and entry["roll"] is not None
    shown = ok("log", "show", "1")
    assert "\\xff" in shown.stdout
    done = proc("roll", "2d6 # \udcff", "--log", "--json")  # a real process: its own stdout
    assert done.returncode == 0 and done.stderr == "" and json.loads(done.stdout)["total"] >= 2

def test_an_alias_with_bytes_that_are_not_utf8_is_refused_in_one_line():
    from conftest import assert_usage_error

    assert_usage_error(cli("alias", "x", "roll 2d6 # \udcff"), "not UTF-8")


@pytest.mark.process
@pytest.mark.slow
def test_play_logs_a_line_with_bytes_that_are_not_utf8():
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    done = subprocess.run([sys.executable, "-m", "rpgdice", "play"], env=env, timeout=60,
                          input=b"roll 2d6 # \xff --log\nroll '2d6 # \xfe' --log\n"
                                b"alias y 'roll # \xff'\n", capture_output=True)
    err = done.stderr.decode("utf-8", "replace")
    assert "internal error" not in err and "Traceback" not in err
    assert done.returncode == 2 and err.count("\n") == 1 and "line 3: COMMAND" in err
    listed = ok("log", "--json").json()
    assert [e["argv"] for e in listed] == [["roll", "2d6", "#", "\\xff", "--log"],
                                           ["roll", "2d6 # \\xfe", "--log"]]


# 6. One long line in `play` ----------------------------------------------------------------


@pytest.mark.parametrize("line", [
    'roll "2d6 # ' + "a" * 200_000 + '"',  # quoted: shlex's work grows with it
    "roll 2d6 # " + "a" * 200_000,  # a label
    "roll " + "+".join(["1"] * 100_000),  # an expression
])
def test_play_refuses_a_line_over_the_bound_in_one_line_without_reading_it_whole(line, capsys):
    import io

    from rpgdice.cli.session import MAX_LINE, Session, _lines

    class Counting(io.StringIO):
        most = 0

        def readline(self, size=-1):
            got = super().readline(size)
            Counting.most = max(Counting.most, len(got))
            return got

    stream = Counting(line + "\n#" + "b" * 100_000 + "\nroll 1d6 --dice 4 --json\n")
    started = time.monotonic()
    code = Session(as_json=True).batch(_lines(stream))
    assert time.monotonic() - started < 2 and code == 2
    assert Counting.most <= 64 * 1024 + 2
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert out[0] == {"error": f"the line is over {MAX_LINE:,} characters; a command is "
                               "shorter (nothing of it was run)", "line": 1}
    assert out[1]["total"] == 4 and len(out) == 2  # the long comment is a comment still


def test_a_line_at_the_bound_is_read():
    import io

    from rpgdice.cli.session import MAX_LINE, TooLong, _lines

    fits = "roll 1d6 # " + "a" * (MAX_LINE - 11)
    got = list(_lines(io.StringIO(fits + "\r\n" + fits + "a\n")))
    assert got[0] == fits and not isinstance(got[0], TooLong) and isinstance(got[1], TooLong)


# 8. Odds past the estimate --------------------------------------------------------------------


def test_the_odds_of_a_product_of_dice_show_in_a_moment():
    """A product's totals span millions: the chart groups the totals there are, never
    every whole number of the range (12 factors: 123 s before)."""
    started = time.monotonic()
    run = ok("odds", "*".join(["1d6"] * 11))
    assert time.monotonic() - started < 3
    assert "range 1 to 362797056" in run.stdout


def test_an_explosion_past_the_estimate_is_refused_before_the_work():
    from conftest import assert_usage_error

    started = time.monotonic()
    assert_usage_error(cli("odds", "10d10!>=2r<2"), "would take too long")
    assert time.monotonic() - started < 1


# 9. Scale ------------------------------------------------------------------------------------


def test_a_log_far_over_its_window_shrinks_a_bounded_step_at_every_write(monkeypatch):
    from rpgdice.table import log

    monkeypatch.setattr(log.store, "MAX_ENTRIES", 10)
    monkeypatch.setattr(log.store, "PRUNE", 30)
    forged(100)
    con = sqlite3.connect(log_path())
    assert con.execute("SELECT count(*) FROM entries").fetchone()[0] == 100
    logged(1)  # 101 entries: 91 out of the window, 30 of them deleted
    assert con.execute("SELECT count(*), min(id) FROM entries").fetchone() == (71, 31)
    shown = ok("log", "--json", "--since", "2000-01-01").json()
    assert [e["id"] for e in shown] == list(range(92, 102))  # the window alone is read
    listed = ok("log", "stats", "--since", "2000-01-01", "--json").json()
    assert listed  # counted from the window
    logged(3)
    assert con.execute("SELECT count(*), min(id) FROM entries").fetchone() == (10, 95)
    stats = {(r, c): n for r, c, n in con.execute(
        "SELECT ruleset, command, sum(n) FROM stats_rolls GROUP BY 1, 2")}
    assert stats == {("dice", "roll"): 10}  # the stats tables follow every delete
    con.close()


def test_log_show_of_many_repeats_shows_them_as_the_roll_did():
    ran = ok("roll", "100d6", "-n", "40", "--log", "--seed", "7")
    shown = ok("log", "show", "1")
    assert shown.stdout.split("\n", 1)[1] == ran.stdout  # the line of totals, not 4,000 dice
    assert len(shown.stdout.splitlines()) < 10


def _styled_pieces(lines) -> int:
    """The styled pieces Rich draws for ``lines`` (its cost is per piece): a time-free
    measure of the work of showing them."""
    return sum(len(line.spans) + 1 for line in lines)


@pytest.mark.parametrize("args", [
    ["crytures", "roll", "1000"], ["crytures", "roll", "600", "--roll-mod", "2"],
    ["roll", "1000d6"], ["roll", "1000d6kh500"], ["roll", "500d6!"], ["roll", "500d6r1+500d6"],
    ["roll", "1000d6!!"],
])
def test_a_huge_pool_is_drawn_in_a_bounded_number_of_pieces(args):
    # issue 35: crytures roll 1000 -n 250 drew 500,000 chips (7 s to show, as many for
    # log show ID); a big pool is now counted by face, each kind of chip once.
    from rpgdice.render.common import render
    from rpgdice.render.stored import records
    from rpgdice.table.log import Log

    ok(*args, "--seed", "3", "--log")
    log = Log.open(write=False)
    assert log is not None
    entry = log.get(1)
    log.release()
    assert entry is not None
    (rolled,) = records(entry)  # as log show rebuilds it
    lines = render(rolled.result, 80)
    assert _styled_pieces(lines) < 80, _styled_pieces(lines)
    assert len(lines) < 12
    assert "counted by face; --json lists each die" in " ".join(" ".join(x.plain.split()) for x in lines)


@pytest.mark.slow
def test_log_show_of_many_huge_pools_is_a_few_lines_a_roll_and_json_keeps_every_die():
    ran = ok("crytures", "roll", "1000", "-n", "20", "--log", "--seed", "7")
    shown = ok("log", "show", "1")
    assert shown.stdout.split("\n", 1)[1] == ran.stdout  # as the roll showed it
    assert len(ran.stdout.splitlines()) <= 20 * 6 + 1  # was 20 * 76: every die's chip
    assert "9 ✓ ×" in ran.stdout
    (entry,) = cli_json("log", "show", "1")
    assert [len(r["dice"]) for r in entry["results"]] == [1000] * 20


def test_a_pool_at_the_bound_still_shows_every_die():
    from rpgdice.render.common import DICE_SHOWN

    shown = ok("crytures", "roll", str(DICE_SHOWN), "--seed", "1").stdout
    assert "counted by face" not in shown and "×" not in shown
    assert shown.count("✓✓") + shown.replace("✓✓", "").count("✓") + shown.count("✗") == DICE_SHOWN
    more = ok("crytures", "roll", str(DICE_SHOWN + 1), "--seed", "1").stdout
    assert f"({DICE_SHOWN + 1} dice counted by face" in more


# 3. /events: a cap on streams, catch-up reads bounded, a fast reader never cut off -----------


def forged(n: int) -> None:
    """A log of ``n`` entries (one logged, the rest its copies)."""
    logged(1)
    con = sqlite3.connect(log_path())
    con.execute("INSERT INTO entries (time, argv, character, ruleset, command, seed, faces,"
                " count, outcome, results, rolled, kinds, spec, shown, secret, roll)"
                " SELECT time, argv, character, ruleset, command, seed, faces, count, outcome,"
                " results, rolled, kinds, spec, shown, secret, roll"
                " FROM entries, (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n"
                f" WHERE i < {n - 1}) SELECT i FROM n)")
    con.commit()
    con.close()


@pytest.mark.slow
def test_a_client_given_a_burst_of_more_rolls_than_its_queue_gets_every_one_in_order():
    import asyncio
    import re

    from rpgdice.serve import app
    from rpgdice.serve.follow import Reader
    from rpgdice.serve.hub import QUEUE

    forged(QUEUE + 100)
    table = app.Table(log_path(), None)
    entries = Reader(log_path()).after(0)

    async def go() -> list[int]:
        queue = table.hub.subscribe()
        assert queue is not None
        stream = app._stream(table, queue, None)
        await stream.__anext__()  # the notices and the encounter
        for entry in entries:  # one poll's burst, before the client reads anything
            table.hub.entry(entry, False)
        seen: list[int] = []
        while len(seen) < len(entries):
            text = await asyncio.wait_for(stream.__anext__(), 5)
            seen += [int(i) for i in re.findall(r"^id: (\d+)$", text, re.M)]
        await stream.aclose()
        assert not table.hub.clients  # gone with its stream
        return seen

    assert asyncio.run(go()) == [e["id"] for e in entries]


def test_no_more_than_max_streams_at_once():
    from rpgdice.serve.hub import MAX_STREAMS, Hub

    hub = Hub(10)
    queues = [hub.subscribe() for _ in range(MAX_STREAMS)]
    assert None not in queues and hub.subscribe() is None
    hub.unsubscribe(queues[0])
    assert hub.subscribe() is not None


def test_catch_up_reads_are_few_at_once_and_none_for_a_client_that_left():
    import asyncio
    import threading

    from rpgdice.serve.hub import CATCH_UP, Hub

    hub = Hub(10)
    calls: list[int] = []
    free = threading.Event()

    def read(after: int) -> list[tuple[int, str]]:
        calls.append(after)
        free.wait(5)
        return []

    async def go() -> None:
        tasks = [asyncio.create_task(hub.catch_up(read, i)) for i in range(50)]
        await asyncio.sleep(0.1)
        assert len(calls) == CATCH_UP  # the others wait their turn
        for task in tasks[CATCH_UP:]:  # their clients left
            task.cancel()
        free.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        assert len(calls) == CATCH_UP  # no read for a client that left

    asyncio.run(go())

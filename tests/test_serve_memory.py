"""What ``rpgdice serve`` holds in memory stays bounded however long it follows the log
(issue 44): its readers' connections let go of the rows they read."""

from __future__ import annotations

import gc
import sqlite3
import weakref

import pytest

from conftest import cli, log_path


def _entries(n: int) -> None:
    """A log of at least ``n`` entries: one roll logged, copied."""
    assert cli("roll", "3d6", "--log").exit_code == 0
    con = sqlite3.connect(log_path())
    cols = "time, argv, character, ruleset, command, seed, faces, count, outcome, results, rolled"
    while con.execute("SELECT count(*) FROM entries").fetchone()[0] < n:
        con.execute(f"INSERT INTO entries ({cols}) SELECT {cols} FROM entries")
    con.commit()
    con.close()


def _references() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if type(o) is weakref.ReferenceType)


@pytest.mark.slow
def test_a_reader_following_the_log_holds_nothing_of_the_rows_it_read():
    from rpgdice.serve import follow

    _entries(3000)
    reader = follow.Reader(log_path())
    reader.last_id()
    assert reader.con is not None
    assert reader.con.execute("PRAGMA cache_size").fetchone()[0] == -follow.CACHE_KIB
    assert follow.CACHE_KIB < 2000  # smaller than SQLite's own 2,000 KiB a connection
    before = _references()
    read = 0
    for _ in range(3):  # a server that followed 9000 rolls
        last = 0
        while batch := reader.after(last):
            last, read = batch[-1]["id"], read + len(batch)
    held = _references() - before
    reader.close()
    assert read >= 9000
    # Each row read opens its capped cells as blobs (Python 3.11 on), and the connection
    # keeps a reference to each until it is closed: a reader that was never closed kept
    # them all (24,618 here, as many again for every 9,000 rolls followed); now those of
    # follow.REOPEN (2,000) rows at most.
    assert held <= 6000, held


def test_the_server_gives_its_free_memory_back_after_rolls_came(monkeypatch, tmp_path):
    from rpgdice.serve import app

    trims: list[int] = []
    monkeypatch.setattr(app, "trim_malloc", lambda: trims.append(table.follower.last))
    table = app.Table(tmp_path / "log.sqlite3", None)
    try:
        for _ in range(2 * app.TRIM_TICKS):  # nothing came: nothing to give back
            table._tick()
        assert trims == []
        table.follower.last = 40  # a burst of rolls came
        for _ in range(2 * app.TRIM_TICKS):
            table._tick()
        assert trims == [40]  # once, after it
    finally:
        table.close()
    app.lean_malloc()  # fewer arenas where the C library is glibc; nothing elsewhere
    app.trim_malloc()


class _Loop:
    """The event loop as the follower's thread sees it: each call made at once."""

    def is_closed(self) -> bool:
        return False

    def call_soon_threadsafe(self, work, *args) -> None:
        work(*args)


def _settled() -> int:
    """Python's heap as tracemalloc counts it, garbage collected and Rich's bounded cache of
    text widths emptied (it fills with each roll's new words up to its size)."""
    import tracemalloc

    import rich.cells

    gc.collect()
    for cache in vars(rich.cells).values():
        if callable(getattr(cache, "cache_clear", None)):
            cache.cache_clear()
    return tracemalloc.get_traced_memory()[0]


@pytest.mark.slow
def test_what_the_server_holds_stays_the_same_over_many_seat_rolls(monkeypatch):
    """Rolls as a table's seats send them (rolled, logged, followed, handed to the hub and
    a page's queue): once its bounded windows are full (made small here: the newest
    entries, the reader's connection), more rolls leave nothing behind in Python's heap.
    (Serve's RSS at 2,000 / 12,000 / 30,000 seat rolls is bench/table_bench.py's: 52-54 MiB
    with or without pages; this is the part of it a test can hold.)"""
    import asyncio
    import tracemalloc

    from rpgdice.cli.seated import roll_line
    from rpgdice.serve import app, follow

    _entries(1)
    monkeypatch.setattr(follow, "REOPEN", 20)
    table = app.Table(log_path(), None, roller=roll_line)
    table.hub.loop = _Loop()  # type: ignore[assignment]
    table.hub.size = 10
    page: asyncio.Queue = asyncio.Queue(maxsize=10 ** 6)
    table.hub.clients[page] = None  # a page listening: every event goes to its queue

    def rolls(n: int) -> None:
        for k in range(n):
            table.rates.wait(f"seat-{k % 6}")  # six seats, counted
            assert roll_line("roll 3d6", None, gm=True).status == 200
            if k % 10 == 9:  # the follower's look at the log, a page reading its queue
                table.follower.step()
                while not page.empty():
                    page.get_nowait()

    tracemalloc.start()
    try:
        rolls(40)  # the windows fill with what is traced
        before = _settled()
        rolls(60)
        grown = _settled() - before
    finally:
        tracemalloc.stop()
        table.follower.reader.close()
        table.secrets.close()
        table.pool.shutdown()
        table.odds_pool.shutdown()
    # A window of entries kept in memory that nothing read again held 4 KiB a roll; what
    # remains is bounded caches filling (Rich's, SQLite's rows): some 250 bytes a roll here.
    assert grown < 60 * 1024, f"{grown} bytes more after 60 more rolls"

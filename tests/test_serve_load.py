"""The table's server under sustained load (issue 44): a poll's batch of rolls wakes the
event loop once and reads what secret rolls changed once, a stream sends what waits in
its queue in one write, and (slow) a real server with three pages listening shows every
roll on every page within 2 s at a modest rate (bench/load_bench.py drives it faster)."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

import pytest

from conftest import log_path, ok


def rolled(n: int) -> None:
    for _ in range(n):
        ok("roll", "1d6", "--log")


class Loop:
    """An event loop as the follower's thread sees it: what it is asked to call."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def is_closed(self) -> bool:
        return False

    def call_soon_threadsafe(self, work, *args) -> None:
        self.calls.append((work, args))


def test_a_polls_batch_wakes_the_event_loop_once_and_reads_the_secrets_once(monkeypatch):
    from rpgdice.serve import app

    rolled(6)
    table = app.Table(log_path(), None)
    loop = Loop()
    table.hub.loop = loop  # type: ignore[assignment]
    looks = []
    real = table.take_back
    monkeypatch.setattr(table, "take_back", lambda: looks.append(1) or real())
    try:
        table.follower.step()  # the follower's one look at the log: six new entries
    finally:
        table.follower.reader.close()
        table.secrets.close()
    assert len(loop.calls) == 1
    assert len(looks) == 1
    for work, args in loop.calls:
        work(*args)
    assert list(table.hub.recent) == [1, 2, 3, 4, 5, 6]


def test_a_stream_sends_the_events_waiting_in_its_queue_in_one_write():
    from rpgdice.serve import app
    from rpgdice.serve.follow import Reader

    rolled(5)
    table = app.Table(log_path(), None)
    reader = Reader(log_path())
    entries = reader.after(0)
    reader.close()

    async def go() -> list[str]:
        queue = table.hub.subscribe()
        assert queue is not None
        stream = app._stream(table, queue, None)
        await stream.__anext__()  # the notices and the encounter
        for entry in entries:  # a burst, before the client reads anything
            table.hub.entry(entry, False)
        first = await asyncio.wait_for(stream.__anext__(), 5)
        await stream.aclose()
        return re.findall(r"^id: (\d+)$", first, re.M)

    try:
        assert asyncio.run(go()) == ["1", "2", "3", "4", "5"]
    finally:
        table.secrets.close()


@pytest.mark.slow
@pytest.mark.process
def test_every_roll_of_six_seats_reaches_three_pages_within_2_s():
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    try:
        import load_bench
    finally:
        sys.path.pop(0)
    result = load_bench.run(rate=20, seconds=6, pages=3, seats=6, limit=2.0)
    assert result.refused == 0, result.report()
    assert len(result.answered) >= 100, result.report()
    assert result.late_count() == 0, result.report()


def test_the_encounter_is_read_about_once_a_second_whatever_the_poll(monkeypatch):
    from rpgdice.serve import app, follow

    assert follow.POLL <= 0.25  # a roll waits at most this for the follower's look
    for poll, reads in ((follow.POLL, 2), (0.5, 2), (1.0, 2), (2.0, 2)):
        table = app.Table(log_path(), None, poll=poll)
        read: list[int] = []
        monkeypatch.setattr(table, "encounter", lambda read=read: read.append(1) or "")
        for _ in range(round(2 / min(poll, 1.0))):  # two seconds of polls (or two polls)
            table._tick()
        table.secrets.close()
        assert len(read) == reads, poll

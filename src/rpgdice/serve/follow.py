"""Following the roll log, read-only: every rpgdice process writes its rolls there, so the
log is the only channel between them and ``rpgdice serve``. The follower polls it by ID
(new entries are those after the last ID seen; reveals are the rows of ``reveals`` after
the last one seen), on a connection opened ``mode=ro``, so that nothing here ever writes.
A log that is missing, locked, replaced (set aside as corrupt, a new one begun) or corrupt
is a notice for the page, never an exception out of here."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Optional, TypeVar

from rpgdice.core.data import Loaded
from rpgdice.table import log as roll_log

POLL = 0.25
"""Seconds between two looks at the log (a roll shows on the page within this and a send;
a look that finds nothing new costs a few small queries)."""
ENCOUNTER_EVERY = 1.0
"""Seconds between two reads of the encounter (a file of its own, read every few polls)."""
BATCH = 1000
"""Entries read at a time (and at most given by one ``/api/rolls`` request)."""
RECENT = 100
"""Entries the page shows when it is opened."""
CACHE_KIB = 512
"""SQLite's page cache of a reader's connection, in KiB (SQLite's default: 2,000 a
connection): a reader reads the newest rows, once."""
REOPEN = 2000
"""Rows a reader's connection reads before it is closed and opened again: each row read
opens its capped cells as blobs (rpgdice.table.log.queries), and a connection (Python's
sqlite3) keeps a reference to every blob it ever opened until it is closed, some 600 bytes
a row: a server that follows the log for days would hold every row it ever read."""


T = TypeVar("T")

class Reader:
    """A read-only connection to the log at ``path`` (opened on first use, reopened when
    the file was replaced). Each method raises :class:`Unreadable` with a user's reason."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.con: Optional[sqlite3.Connection] = None
        self.inode: Optional[int] = None
        self.columns: str = ""
        self.has_reveals = False
        self.version = -1
        self.rows = 0
        """Rows read on this connection (opened again after :data:`REOPEN`)."""
        self.opened = 0
        """Connections opened so far (a stamp of one is no stamp of the next)."""

    def close(self) -> None:
        if self.con is not None:
            self.con.close()
        self.con = None
        self.rows = 0

    def _connect(self) -> sqlite3.Connection:
        if not self.path.exists():
            raise Unreadable(f"no roll log yet at {self.path}: waiting for the first roll")
        if not self.path.is_file():
            raise Unreadable(f"the roll log {self.path} is not a regular file")
        con = sqlite3.connect(self.path.resolve().as_uri() + "?mode=ro", uri=True,
                              timeout=1.0, isolation_level=None, check_same_thread=False)
        try:
            con.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
            have = {row[1] for row in con.execute("PRAGMA table_info(entries)")}
            if not have:
                raise Unreadable(f"the roll log {self.path} holds no entries table yet")
            self.columns = ", ".join(_column(c) if c in have else f"NULL AS {c}"
                                     for c in roll_log.COLUMNS)
            roll_log.size_check(con)
            self.has_reveals = con.execute("SELECT 1 FROM sqlite_master WHERE type = 'table'"
                                           " AND name = 'reveals'").fetchone() is not None
        except BaseException:
            con.close()
            raise
        self.inode = _inode(self.path)
        self.opened += 1
        self.version = int(con.execute("PRAGMA user_version").fetchone()[0])
        return con

    def replaced(self) -> bool:
        """Whether the file is another than the one open (the log was set aside and a new
        one begun, or moved away)."""
        return self.con is not None and _inode(self.path) != self.inode

    def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        try:
            if self.con is not None and int(self.con.execute(
                    "PRAGMA user_version").fetchone()[0]) != self.version:
                self.close()  # migrated meanwhile (a secret column now): read its columns anew
            if self.con is None:
                self.con = self._connect()
            return work(self.con)
        except sqlite3.Error as e:
            self.close()
            raise Unreadable(_why(self.path, e)) from None

    def after(self, entry: int, limit: int = BATCH) -> list[Loaded]:
        """The entries after ID ``entry``, oldest first, at most ``limit``."""
        def read(con: sqlite3.Connection) -> list[Loaded]:
            rows = con.execute(f"SELECT {self.columns} FROM entries WHERE id > ? ORDER BY id"
                               " LIMIT ?", (entry, limit)).fetchall()
            self._read(len(rows))
            return [_entry(row) for row in rows]

        return list(self._run(read))

    def newest(self, n: int) -> list[Loaded]:
        """The newest ``n`` entries, oldest first."""
        def read(con: sqlite3.Connection) -> list[Loaded]:
            rows = con.execute(f"SELECT {self.columns} FROM entries ORDER BY id DESC LIMIT ?",
                               (n,)).fetchall()
            self._read(len(rows))
            return [_entry(row) for row in reversed(rows)]

        return list(self._run(read))

    def _read(self, rows: int) -> None:
        """Count ``rows`` read; past :data:`REOPEN`, the connection is closed (the next
        read opens it again), and what it held of them goes."""
        self.rows += rows
        if self.rows >= REOPEN:
            self.close()

    def stamp(self) -> tuple[int, Optional[int], int]:
        """What changes whenever another connection changed the log (a roll, a reveal, a
        clear) or the file was replaced, read without touching a row: SQLite's
        ``data_version`` on this connection."""
        if self.replaced():
            self.close()
        version = int(self._run(lambda con: con.execute("PRAGMA data_version").fetchone()[0]))
        return self.opened, self.inode, version

    def last_id(self) -> int:
        return int(self._run(lambda con: con.execute(
            "SELECT coalesce(max(id), 0) FROM entries").fetchone()[0]))

    def reveals_after(self, seq: int) -> list[tuple[int, int]]:
        """The reveals after ``seq``: (seq, entry ID), in order."""
        def read(con: sqlite3.Connection) -> list[tuple[int, int]]:
            if not self.has_reveals:
                return []
            return [(int(s), int(e)) for s, e in con.execute(
                "SELECT seq, entry FROM reveals WHERE seq > ? ORDER BY seq LIMIT ?",
                (seq, BATCH))]

        return list(self._run(read))

    def last_reveal(self) -> int:
        return int(self._run(lambda con: con.execute(
            "SELECT coalesce(max(seq), 0) FROM reveals").fetchone()[0]
            if self.has_reveals else 0))

    def get(self, entry: int) -> Optional[Loaded]:
        found = self.after(entry - 1, 1)
        return found[0] if found and found[0]["id"] == entry else None


def _column(name: str) -> str:
    """A column as the follower reads it: a JSON cell over the log's cap (forged: rpgdice
    never writes one) is never read, as ``rpgdice log`` never reads it (its results read
    as none, ``too_large``; any other such cell as NULL)."""
    if name == "results":
        return roll_log.capped_column("results")
    if name in ("argv", "faces", "kinds", "spec", "shown", "roll"):
        return roll_log.capped_column(name)
    return name


class Unreadable(Exception):
    """The log cannot be read now; the message says why, in a user's words."""


def _entry(row: tuple[object, ...]) -> Loaded:
    entry = roll_log.entry_data(row)
    entry["revealed_at"] = entry.get("revealed_at")
    return entry


def _inode(path: Path) -> Optional[int]:
    try:
        return path.stat().st_ino
    except OSError:
        return None


def _why(path: Path, e: sqlite3.Error) -> str:
    text = str(e)
    if "locked" in text or "busy" in text:
        return f"the roll log {path} is locked by another program; trying again"
    if "malformed" in text or "not a database" in text:
        return f"the roll log {path} is corrupt; the next roll sets it aside and begins a new one"
    return f"the roll log {path} cannot be read ({text}); trying again"


class Follower:
    """Polls the log in a thread of its own and hands on what is new: ``on_entry(entry,
    revealed)`` for each entry logged (``revealed`` False) and each one revealed (True),
    in order (or ``on_entries([(entry, revealed), ...])`` for each batch of them, when
    given), and ``on_notice(text or None)`` when the log's state changes (a problem, or
    None once it reads again); ``on_tick()`` after every look (the encounter is read there)."""

    def __init__(self, path: Path, on_entry: Callable[[Loaded, bool], None],
                 on_notice: Callable[[Optional[str]], None], poll: float = POLL,
                 on_tick: Optional[Callable[[], None]] = None,
                 on_entries: Optional[Callable[[list[tuple[Loaded, bool]]], None]] = None
                 ) -> None:
        self.reader = Reader(path)
        self.on_tick = on_tick
        self.on_entry, self.on_notice, self.poll = on_entry, on_notice, poll
        self.on_entries = on_entries or self._each
        self.last = 0
        self.seq = 0
        self.notice: Optional[str] = None
        self.stop = threading.Event()
        self.started = False
        self.thread = threading.Thread(target=self._loop, name="rpgdice-follow", daemon=True)

    def _each(self, given: list[tuple[Loaded, bool]]) -> None:
        for entry, revealed in given:
            self.on_entry(entry, revealed)

    def start(self, last: Optional[int] = None, seq: Optional[int] = None) -> None:
        """Begin after entry ``last`` and reveal ``seq`` (by default, the log as it is now:
        what was logged before is not new)."""
        try:
            self.seq = self.reader.last_reveal() if seq is None else seq
            self.last = self.reader.last_id() if last is None else last
            self.started = True
        except Unreadable as e:
            self._say(str(e))
        self.thread.start()

    def close(self) -> None:
        self.stop.set()
        if self.thread.is_alive():
            self.thread.join(timeout=5)
        self.reader.close()

    def _say(self, notice: Optional[str]) -> None:
        if notice != self.notice:
            self.notice = notice
            self.on_notice(notice)

    def _loop(self) -> None:
        while not self.stop.wait(self.poll):
            try:
                self.step()
                self._say(None)
            except Unreadable as e:
                self._say(str(e))
            except Exception as e:  # never a crash: the page says so and the next poll tries again
                self.reader.close()
                self._say(f"the roll log could not be read ({type(e).__name__}: {e})")
            if self.on_tick is not None:
                try:
                    self.on_tick()
                except Exception:  # pragma: no cover - encounter_html says its own problems
                    pass

    def step(self) -> None:
        """One look at the log: new entries, then new reveals."""
        reader = self.reader
        if reader.replaced():
            reader.close()
            self.last = self.seq = 0  # a new log: every entry in it is new
            self._say("the roll log was replaced (a corrupt log was set aside): following "
                      "the new one")
        if not self.started:  # the log appeared (the first roll): all of it is new
            self.started = True
        newest = reader.last_id()
        if newest < self.last:  # emptied (log clear keeps IDs) or replaced under us
            self.last = newest
        while not self.stop.is_set():
            entries = reader.after(self.last)
            if entries:
                self.last = entries[-1]["id"]
                self.on_entries([(entry, False) for entry in entries])
            if len(entries) < BATCH:
                break
        revealed = []
        for seq, ident in reader.reveals_after(self.seq):
            self.seq = seq
            shown = reader.get(ident)
            if shown is not None and not shown["secret"]:
                revealed.append((shown, True))
        if revealed:
            self.on_entries(revealed)

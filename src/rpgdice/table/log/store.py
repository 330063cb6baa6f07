"""The roll log's file: opening it (and migrating it), its locks, setting a corrupt log
aside and beginning a new one, and every write. :class:`Log` is an open log: its writes
here, its reads in :mod:`rpgdice.table.log.queries`."""

from __future__ import annotations

import os
import re
import sqlite3
import threading
import time
from pathlib import Path
from typing import Optional

from rpgdice.core import jsontext
from rpgdice.table import paths
from rpgdice.table.log.entries import Entry, _dumps, capped, roll_cell, rolled_faces
from rpgdice.table.log.queries import Queries, _size_check
from rpgdice.table.log.schema import MIGRATIONS, VERSION

MAX_ENTRIES = 100_000
"""The log keeps the newest this many entries."""
PRUNE = 1000
"""The most entries one write deletes from beyond the window: a log far over it (forged,
or kept by an older rpgdice) shrinks a little at every roll, each roll's write staying
small (deleting 900,000 at once took 23 s and a 654 MB WAL)."""
BUSY_TIMEOUT = 5.0
"""Seconds a write waits for another process's write to finish before giving up."""

_CORRUPT_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB


class LogUnavailable(Exception):
    """The log cannot be read or written; the message says why, in a user's words."""


def now() -> str:
    """The time, ISO 8601 in UTC."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _is_corrupt(e: sqlite3.Error) -> bool:
    code = getattr(e, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in _CORRUPT_CODES
    text = str(e)
    return "not a database" in text or "malformed" in text


def _missing(e: sqlite3.Error) -> bool:
    """SQLITE_CANTOPEN: a log opened without creating it is not there (yet, or any more).
    Python 3.10's sqlite3 errors carry no code: there, SQLite's own message for it."""
    code = getattr(e, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF == 14
    return str(e) == "unable to open database file"


def reason(e: BaseException) -> str:
    """A log failure in a user's words (the disk is full, it is locked, read-only...)."""
    return _reason(e)


def _reason(e: BaseException) -> str:
    text = str(e) or type(e).__name__
    if "readonly" in text or "read-only" in text:
        return f"it is read-only ({text})"
    if "locked" in text or "busy" in text:
        return f"it is locked by another program ({text})"
    if "full" in text:
        return f"the disk is full ({text})"
    return text


class _Locked:
    """A ``flock`` on ``log.sqlite3.lock`` beside the log: exclusive while a corrupt log
    is set aside and a new one made (SQLite's own locks live in the database file, which
    a corrupt file may not honor); ``shared`` while a log is opened, so that no file is
    renamed between SQLite opening the log and its first read (a connection to a file
    renamed aside then would pair it with the new log's ``-wal`` by name, and write
    the new log's pages into the old file). Waits at most :data:`BUSY_TIMEOUT` seconds.
    ``optional``: a lock file that cannot be made (a read-only folder) is no lock."""

    def __init__(self, path: Path, shared: bool = False, optional: bool = False) -> None:
        self.path = path.with_name(path.name + ".lock")
        self.shared = shared
        self.optional = optional
        self.fd = -1

    def __enter__(self) -> _Locked:
        import fcntl
        import os

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            if self.optional:
                return self
            raise LogUnavailable(f"the roll log's lock {self.path} cannot be made: "
                                 f"{e.strerror or e}") from None
        deadline = time.monotonic() + BUSY_TIMEOUT
        mode = fcntl.LOCK_SH if self.shared else fcntl.LOCK_EX
        while True:
            try:
                fcntl.flock(self.fd, mode | fcntl.LOCK_NB)
                return self
            except BlockingIOError:
                if time.monotonic() > deadline:
                    os.close(self.fd)
                    self.fd = -1
                    raise LogUnavailable(f"the roll log {self.path.with_suffix('')} is "
                                         "being repaired by another program") from None
                time.sleep(0.02)

    def __exit__(self, *exc: object) -> None:
        import os

        if self.fd >= 0:
            os.close(self.fd)  # closing the file releases the lock


def _inode(path: Path) -> Optional[int]:
    try:
        return path.stat().st_ino
    except OSError:
        return None


def set_aside(path: Path) -> Path:
    """Rename a corrupt log (and its WAL files) aside; returns the new name, one made
    exclusively (``O_EXCL``), so that no two processes can pick the same. The caller
    holds :class:`_Locked` and has checked the file is still the corrupt one."""
    import os
    import secrets

    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    while True:
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{os.getpid()}-"
                                f"{secrets.token_hex(2)}")
        try:
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
            break
        except FileExistsError:
            continue
    os.replace(path, target)  # over the empty placeholder this process made
    for suffix in ("-wal", "-shm"):
        extra = path.with_name(path.name + suffix)
        if extra.exists():
            extra.rename(target.with_name(target.name + suffix))
    return target


_HELD: Optional[Log] = None
"""The connection :meth:`Log.release` keeps open until the process exits."""
_ORPHANS: list[sqlite3.Connection] = []
"""Connections to a log another process has since set aside, never closed (see
:func:`_close`)."""


def _close(log: Log) -> None:
    """Close ``log``'s connection, unless its file has been set aside since it was opened:
    the last connection to close checkpoints and deletes the ``-wal`` by its name, which
    is now the new log's. Such a connection stays open until the process exits."""
    if log.inode is not None and _inode(log.path) != log.inode:
        _ORPHANS.append(log.con)
        return
    log.con.close()


class Log(Queries):
    """An open roll log. ``Log.open(write=True)`` creates the file (and folder) when
    needed and migrates it; ``write=False`` opens an existing log read-only, or
    returns None when there is none yet."""

    def kept_entries(self) -> int:
        return MAX_ENTRIES  # read when asked: a test may set it on this module

    def __init__(self, con: sqlite3.Connection, path: Path) -> None:
        self.con = con
        _size_check(con)
        self.path = path
        self.inode = _inode(path)
        """The file's inode when it was opened: the file SQLite opened, as every open
        holds the lock file (:class:`_Locked`) until here."""

    @classmethod
    def open(cls, write: bool = True, path: Optional[Path] = None) -> Optional[Log]:
        if path is None:
            problem = paths.home_problem()  # a file there is no folder, not an empty log
            if problem is not None:
                raise LogUnavailable(f"the roll log cannot be opened: {problem}")
            path = paths.log_file()
        if not write and not path.exists():
            return None
        if path.exists() and not path.is_file():  # a FIFO would hang SQLite's open
            raise LogUnavailable(f"the roll log {path} is not a regular file; move it away")
        with _Locked(path, shared=True, optional=not write):
            seen = _inode(path)  # no file is renamed while this lock is held
            try:
                return cls._open(path, write, create=False)
            except sqlite3.DatabaseError as e:
                if not (write and (_is_corrupt(e) or _missing(e))):
                    raise LogUnavailable(
                        f"the roll log {path} cannot be {'written' if write else 'read'}: "
                        f"{_reason(e)}") from None
        return cls.repaired(path, seen)

    @classmethod
    def repaired(cls, path: Path, seen: Optional[int], inner: bool = False) -> Log:
        """The log at ``path`` found corrupt (``seen``: its inode then; ``inner``: an inner
        page, found while writing) or missing: under the lock, set it aside if it is still
        that file (and, but for an inner page, still corrupt), and open (or make) the log."""
        aside = None
        with _Locked(path):
            if seen is not None and _inode(path) == seen:
                try:  # still the same file: is it still corrupt?
                    if not inner:
                        return cls._open(path, True, create=False)
                except sqlite3.DatabaseError as e:
                    if not _is_corrupt(e):
                        raise LogUnavailable(f"the roll log {path} cannot be written: "
                                             f"{_reason(e)}") from None
                try:
                    aside = set_aside(path)
                except OSError as e:
                    raise LogUnavailable(f"the roll log {path} is corrupt and cannot be set "
                                         f"aside: {e.strerror or e}") from None
            try:
                log = cls._open(path, True)
            except sqlite3.Error as e:
                raise LogUnavailable(f"the roll log {path} cannot be written: "
                                     f"{_reason(e)}") from None
        log.set_aside = aside  # type: ignore[attr-defined]
        return log

    @classmethod
    def _open(cls, path: Path, write: bool, create: bool = True) -> Log:
        """Open (``create``: or make; a missing file is otherwise an error, so a file is
        only ever made under the lock of :meth:`repaired`) and check the schema."""
        if write:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise LogUnavailable(f"the roll log's folder {path.parent} cannot be made: "
                                     f"{e.strerror or e}") from None
            uri = path.resolve().as_uri() + ("" if create else "?mode=rw")
        else:
            uri = path.resolve().as_uri() + "?mode=ro"
        con = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT, isolation_level=None,
                              check_same_thread=False)
        try:
            version = con.execute("PRAGMA user_version").fetchone()[0]
            if version > VERSION:
                raise LogUnavailable(f"the roll log {path} was written by a newer rpgdice "
                                     f"(schema {version}, this one knows {VERSION})")
            if write:
                if version < VERSION:
                    cls._migrate(con)
                con.execute("PRAGMA synchronous=NORMAL")  # WAL: safe, no sync per entry
        except BaseException:
            con.close()
            raise
        if not write and version < VERSION:  # an older log: bring it up to date first
            con.close()
            try:
                cls._open(path, write=True, create=False).close()
            except sqlite3.Error as e:
                raise LogUnavailable(f"the roll log {path} is of an older rpgdice and cannot "
                                     f"be brought up to date: {_reason(e)}") from None
            return cls._open(path, write=False)
        return cls(con, path)

    @staticmethod
    def _migrate(con: sqlite3.Connection) -> None:
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("BEGIN IMMEDIATE")
        try:
            version = con.execute("PRAGMA user_version").fetchone()[0]  # another may have done it
            for steps in MIGRATIONS[version:]:
                for statement in steps:
                    con.execute(statement)
            con.execute(f"PRAGMA user_version = {VERSION}")
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise

    def close(self) -> None:
        """Close now. The last connection to close checkpoints the WAL into the log
        and deletes it, which costs a sync and the next writer a new WAL (tens of ms
        of every roll, measured): the commands call :meth:`release` instead."""
        global _HELD
        if _HELD is self:
            _HELD = None
        _close(self)

    def release(self) -> None:
        """Done with the log: leave the connection open until the process exits (the
        console script leaves with ``os._exit``), so the WAL stays and the next roll
        appends to it. Committed entries are safe in the WAL either way; SQLite
        checkpoints it into the log every 1000 pages. Only one connection is held: an
        earlier one is closed."""
        global _HELD
        if _HELD is not None and _HELD is not self:
            _close(_HELD)
        _HELD = self

    # Writing ---------------------------------------------------------------------------

    def add(self, entry: Entry) -> int:
        """Record one command (:class:`~rpgdice.table.log.entries.Entry`); returns its ID.
        Old entries beyond the bound go. The results are cut to :func:`capped` unless
        the entry gives their JSON (``texts``)."""
        results, texts = entry.results, entry.texts
        if texts is None:
            results, texts = capped(results)
        e = entry
        con = self.con
        con.execute("BEGIN IMMEDIATE")
        values = tuple(visible(v, i in _JSON_CELLS) for i, v in enumerate((
            now(), jsontext.dumps(e.argv, ensure_ascii=False), e.character, e.ruleset,
            e.command, None if e.seed is None else str(e.seed),
            None if e.faces is None else jsontext.dumps(e.faces), e.count, e.outcome,
            "[" + ",".join(texts) + "]", _dumps(rolled_faces(results[:len(texts)])),
            None if e.kinds is None else _dumps(e.kinds),
            None if e.spec is None else _dumps(e.spec),
            _shown_cell(e), int(e.secret),
            roll_cell(e.roll))))
        try:
            cur = con.execute(
                "INSERT INTO entries (time, argv, character, ruleset, command, seed, faces, count,"
                " outcome, results, rolled, kinds, spec, shown, secret, roll)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", values)
            added = int(cur.lastrowid or 0)
            if added > MAX_ENTRIES:  # the oldest out of the window, at most PRUNE of them
                con.execute("DELETE FROM entries WHERE id IN (SELECT id FROM entries"
                            " WHERE id <= ? ORDER BY id LIMIT ?)", (added - MAX_ENTRIES, PRUNE))
            con.execute("COMMIT")
        except BaseException:
            _roll_back(con)
            raise
        _ADDED.last = (str(self.path), added, values[_SHOWN], e.count)
        return added

    def mark_rerolled(self, entry: int) -> bool:
        """Mark ``entry`` re-rolled, unless it already is; True when this call marked it."""
        cur = self.con.execute(
            "UPDATE entries SET rerolled_at = ? WHERE id = ? AND rerolled_at IS NULL",
            (now(), entry))
        return cur.rowcount == 1

    def unmark_rerolled(self, entry: int) -> None:
        """Take back a mark :meth:`mark_rerolled` just made (the re-roll could not be
        paid after all), unless a re-roll was recorded against it."""
        self.con.execute(
            "UPDATE entries SET rerolled_at = NULL WHERE id = ? AND rerolled_by IS NULL", (entry,))

    def reveal(self, entry: int) -> bool:
        """Make a secret entry public; True when this call revealed it (False: already public).
        A seat's roll held back with a secret one (its ``shown``'s ``held_until``) and that
        secret one are revealed together, whichever is named."""
        con = self.con
        con.execute("BEGIN IMMEDIATE")
        try:
            stamp = now()
            cur = con.execute("UPDATE entries SET secret = 0, revealed_at = ? WHERE id = ?"
                              " AND secret != 0", (stamp, entry))
            done = cur.rowcount == 1
            if done:
                con.execute("INSERT INTO reveals (entry, time) VALUES (?, ?)", (entry, stamp))
                for other in self._held_with(entry):
                    if con.execute("UPDATE entries SET secret = 0, revealed_at = ? WHERE id = ?"
                                   " AND secret != 0", (stamp, other)).rowcount == 1:
                        con.execute("INSERT INTO reveals (entry, time) VALUES (?, ?)",
                                    (other, stamp))
            con.execute("COMMIT")
        except BaseException:
            _roll_back(con)
            raise
        return done

    def _held_with(self, entry: int) -> list[int]:
        """The entries revealed with ``entry``: the secret one it was held back with, and
        every seat's roll held back with that one (or with ``entry``)."""
        con = self.con
        try:
            row = con.execute("SELECT json_extract(shown, '$.held_until') FROM entries "
                              "WHERE id = ? AND json_valid(shown)", (entry,)).fetchone()
            until = row[0] if row is not None and isinstance(row[0], int) else entry
            rows = con.execute("SELECT id FROM entries WHERE secret != 0 AND json_valid(shown)"
                               " AND json_extract(shown, '$.held_until') = ? ORDER BY id",
                               (until,)).fetchall()
        except sqlite3.OperationalError:  # an SQLite without JSON: each alone
            return []
        return [i for i in [until, *(int(r[0]) for r in rows)] if i != entry]

    def set_rerolled_by(self, entry: int, by: int) -> None:
        self.con.execute("UPDATE entries SET rerolled_by = ? WHERE id = ?", (by, entry))

    def cache_odds(self, items: dict[str, str]) -> None:
        self.con.execute("BEGIN IMMEDIATE")
        self.con.executemany("INSERT OR REPLACE INTO odds_cache (key, outcomes) VALUES (?, ?)",
                             items.items())
        self.con.execute("COMMIT")

    def clear(self) -> int:
        """Delete every entry; returns how many there were. IDs are never reused. A
        failure (a full disk...) raises its own error, not the ROLLBACK's: SQLite may have
        rolled back already."""
        con = self.con
        con.execute("BEGIN IMMEDIATE")
        try:
            con.execute("DELETE FROM stats_rolls")
            con.execute("DELETE FROM stats_faces")
            con.execute("DELETE FROM stats_hand")
            n = int(con.execute("DELETE FROM entries").rowcount)
            con.execute("COMMIT")
        except BaseException:
            _roll_back(con)
            raise
        return n


_SURROGATE = re.compile(r"[\ud800-\udfff]")
"""A character UTF-8 cannot encode: a byte of a command line that was no UTF-8 (Python
reads it as a lone surrogate, U+DC80 to U+DCFF), which SQLite cannot store as text."""


def _shown_cell(e: Entry) -> Optional[str]:
    """An entry's ``shown`` cell: what its view showed, and ``blind`` for a ``--blind``
    roll (a secret one the GM's screen alone shows)."""
    shown = {**(e.shown or {}), "blind": True} if e.blind else e.shown
    return None if shown is None else _dumps(shown)


def visible(value: object, in_json: bool = False) -> object:
    r"""``value``, a text's bytes that were no UTF-8 made visible (``\xff``, as Python
    writes such a byte; any other lone surrogate ``\udXXX``), so that the entry is logged
    as it was typed, never refused. ``in_json``: ``value`` is JSON, the backslash escaped."""
    if not isinstance(value, str) or _SURROGATE.search(value) is None:
        return value

    def shown(found: re.Match[str]) -> str:
        code = ord(found.group())
        text = f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"
        return text.replace("\\", "\\\\") if in_json else text

    return _SURROGATE.sub(shown, value)


_JSON_CELLS = (1, 6, 9, 10, 11, 12, 13, 15)
"""The places of :meth:`Log.add`'s JSON cells among its values (argv ... roll)."""
_SHOWN = 13
"""The place of the ``shown`` cell among them."""


def _roll_back(con: sqlite3.Connection) -> None:
    """Roll back what is left of a failed transaction (SQLite rolls back some failures,
    a full disk among them, itself): the failure is what the user hears of, never a
    ``cannot rollback``."""
    if con.in_transaction:
        try:
            con.execute("ROLLBACK")
        except sqlite3.Error:
            pass


_WRITTEN: list[object] = []
"""The file this process last added an entry to: its path, device and inode."""


def written_lately(path: Path) -> bool:
    """Whether this process's last entry went into the file at ``path`` as it is now: the
    same file (device and inode), still writable by this process, its folder too (a
    server asks before each seat's roll whether the log can take it)."""
    if not _WRITTEN or _WRITTEN[0] != str(path):
        return False
    try:
        found = path.stat()
    except OSError:
        return False
    return ((found.st_dev, found.st_ino) == (_WRITTEN[1], _WRITTEN[2])
            and os.access(path, os.W_OK) and os.access(path.parent, os.W_OK))


def _wrote(path: Path) -> None:
    try:
        found = path.stat()
    except OSError:
        _WRITTEN.clear()
        return
    _WRITTEN[:] = [str(path), found.st_dev, found.st_ino]


_ADDED = threading.local()
"""The entry this thread last added (:meth:`Log.add`): the log's path, its ID, its ``shown``
cell as stored and its ``count``."""


def added_here(entry: int, path: Path) -> Optional[tuple[object, object]]:
    """The ``shown`` cell (as stored, JSON text or None) and ``count`` of entry ``entry`` of
    the log at ``path``, when this thread added it last (a seat's answer describes the
    roll it has just logged without reading it back); None otherwise."""
    last = getattr(_ADDED, "last", None)
    if last is None or last[0] != str(path) or last[1] != entry:
        return None
    return last[2], last[3]


def write_entry(entry: Entry) -> tuple[int, Optional[Path]]:
    """Open the log, add ``entry`` (:meth:`Log.add`), close; returns its ID and where a corrupt log was
    set aside (None when it was not). A log whose inner page turns out corrupt while
    writing is set aside like a corrupt header, and the entry goes into a new log.
    Raises :class:`LogUnavailable`."""
    log = Log.open(write=True)
    assert log is not None
    try:
        added = log.add(entry), getattr(log, "set_aside", None)
        _wrote(log.path)
        return added
    except sqlite3.DatabaseError as e:
        if not _is_corrupt(e):
            raise LogUnavailable(f"the roll log {log.path} cannot be written: "
                                 f"{_reason(e)}") from None
    except sqlite3.Error as e:
        raise LogUnavailable(f"the roll log {log.path} cannot be written: {_reason(e)}") from None
    finally:
        log.release()
    log.close()
    log = Log.repaired(log.path, log.inode, inner=True)
    try:
        added = log.add(entry), getattr(log, "set_aside", None)
        _wrote(log.path)
        return added
    except sqlite3.Error as e:
        raise LogUnavailable(f"the roll log {log.path} cannot be written: {_reason(e)}") from None
    finally:
        log.release()


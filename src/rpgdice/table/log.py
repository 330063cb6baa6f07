"""The roll log: a SQLite database (``log.sqlite3`` in the state folder, or
``RPGDICE_HOME``) with one entry per logged command.

* The schema has a version (``PRAGMA user_version``) and a list of migrations from
  the first release on: a log written by an older rpgdice is brought up to date the
  first time a newer one writes to it, inside one transaction.
* WAL mode and a busy timeout let several terminals write at once.
* It is bounded: the newest :data:`MAX_ENTRIES` entries are kept; every write deletes
  the entries that fell out of that window (IDs only grow, so that is one range
  delete on the primary key).
* An entry's stored results are bounded: at most :data:`MAX_RESULTS` result objects
  and :data:`MAX_BYTES` of their JSON (the first always); the rest replay from the seed.
* A log that cannot be written never costs a roll: :meth:`Recorder.save` turns every
  failure (locked, read-only, full, corrupt) into one warning line. A corrupt file (a
  bad header, or an inner page ``malformed``) is renamed aside
  (``log.sqlite3.corrupt-YYYYMMDDTHHMMSSZ-PID-XXXX``, a name made exclusively) and a new
  log begins, in one step under an exclusive lock on ``log.sqlite3.lock`` beside it,
  after checking again that the file is still the one found corrupt: the corrupt
  original is always kept, and a log another process has just made is never renamed.

Only the commands that log, and the ``log`` commands, import this module (and sqlite3).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Optional

from rpgdice.table import paths

MAX_ENTRIES = 100_000
"""The log keeps the newest this many entries."""
MAX_RESULTS = 1000
"""An entry keeps at most this many result objects (``count`` says how many there were)."""
MAX_BYTES = 1_000_000
"""An entry keeps at most this many bytes of result JSON (the first result always): a
1000-die Crytures roll is about 35 kB, so ``crytures roll 1000 -n 990`` keeps 28."""
MAX_CELL = 2 * MAX_BYTES
"""The most of an entry's stored results ever read: a cell bigger than this (forged:
rpgdice never writes one, see :func:`capped`) is left unread, found by its size alone,
and reads as no results, ``too_large`` (the rolls replay from the seed)."""
BUSY_TIMEOUT = 5.0
"""Seconds a write waits for another process's write to finish before giving up."""

_COUNTED = "count = 1 AND command IN ('roll', 'task')"
"""What schema 2 counted; from schema 3 on, ``log stats`` keeps every one-result entry
and picks its ruleset's single-roll commands (``Ruleset.stats_commands``) itself."""
_KEY = "coalesce({row}.spec, 'argv ' || {row}.argv)"
"""What ``stats_rolls`` groups an entry's rolls by: its odds spec as stored data (an entry
of an older rpgdice has none: its arguments, which ``log stats`` only ever runs when they
are a roll of a known kind)."""

MIGRATIONS: list[tuple[str, ...]] = [
    # 1: the first release.
    (
        """CREATE TABLE entries (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            time TEXT NOT NULL,
            argv TEXT NOT NULL,
            character TEXT,
            ruleset TEXT NOT NULL,
            command TEXT NOT NULL,
            seed TEXT,
            faces TEXT,
            count INTEGER NOT NULL,
            outcome TEXT,
            results TEXT NOT NULL,
            rolled TEXT,
            rerolled_at TEXT,
            rerolled_by INTEGER
        )""",
        "CREATE INDEX entries_by_ruleset ON entries (ruleset, id)",
        "CREATE INDEX entries_by_character ON entries (character, id)",
    ),
    # 2: what `log stats` reads, kept up to date by triggers as entries come and go (so
    # stats read a few hundred rows, not the whole log), and the exact odds it computed.
    (
        "CREATE TABLE odds_cache (key TEXT PRIMARY KEY, outcomes TEXT NOT NULL) WITHOUT ROWID",
        """CREATE TABLE stats_rolls (ruleset TEXT NOT NULL, who TEXT NOT NULL, argv TEXT NOT NULL,
            outcome TEXT NOT NULL, n INTEGER NOT NULL,
            PRIMARY KEY (ruleset, who, argv, outcome)) WITHOUT ROWID""",
        """CREATE TABLE stats_faces (ruleset TEXT NOT NULL, who TEXT NOT NULL, die TEXT NOT NULL,
            face INTEGER NOT NULL, n INTEGER NOT NULL,
            PRIMARY KEY (ruleset, who, die, face)) WITHOUT ROWID""",
        f"""INSERT INTO stats_rolls (ruleset, who, argv, outcome, n)
            SELECT ruleset, coalesce(character, ''), argv, coalesce(outcome, ''), count(*)
            FROM entries WHERE {_COUNTED} GROUP BY 1, 2, 3, 4""",
        f"""INSERT INTO stats_faces (ruleset, who, die, face, n)
            SELECT e.ruleset, coalesce(e.character, ''), d.key, f.value, count(*)
            FROM entries e, json_each(e.rolled) d, json_each(d.value) f
            WHERE e.{_COUNTED.replace(' AND ', ' AND e.')} GROUP BY 1, 2, 3, 4""",
        f"""CREATE TRIGGER entries_stats_add AFTER INSERT ON entries
            WHEN NEW.{_COUNTED.replace(' AND ', ' AND NEW.')}
            BEGIN
                INSERT INTO stats_rolls (ruleset, who, argv, outcome, n)
                VALUES (NEW.ruleset, coalesce(NEW.character, ''), NEW.argv,
                        coalesce(NEW.outcome, ''), 1)
                ON CONFLICT (ruleset, who, argv, outcome) DO UPDATE SET n = n + 1;
                INSERT INTO stats_faces (ruleset, who, die, face, n)
                SELECT NEW.ruleset, coalesce(NEW.character, ''), d.key, f.value, count(*)
                FROM json_each(NEW.rolled) d, json_each(d.value) f WHERE true
                GROUP BY d.key, f.value
                ON CONFLICT (ruleset, who, die, face) DO UPDATE SET n = n + excluded.n;
            END""",
        f"""CREATE TRIGGER entries_stats_remove AFTER DELETE ON entries
            WHEN OLD.{_COUNTED.replace(' AND ', ' AND OLD.')}
            BEGIN
                UPDATE stats_rolls SET n = n - 1
                WHERE ruleset = OLD.ruleset AND who = coalesce(OLD.character, '')
                  AND argv = OLD.argv AND outcome = coalesce(OLD.outcome, '');
                DELETE FROM stats_rolls
                WHERE ruleset = OLD.ruleset AND who = coalesce(OLD.character, '')
                  AND argv = OLD.argv AND outcome = coalesce(OLD.outcome, '') AND n <= 0;
                UPDATE stats_faces SET n = n - (
                    SELECT count(*) FROM json_each(OLD.rolled) d, json_each(d.value) f
                    WHERE d.key = stats_faces.die AND f.value = stats_faces.face)
                WHERE ruleset = OLD.ruleset AND who = coalesce(OLD.character, '');
            END""",
    ),
    # 3, "results as data": an entry stores which record class each result is (``kinds``),
    # the exact odds spec of its roll as data (``spec``), and what its view showed beside
    # the results (``shown``: the --odds spec, the character envelopes), so that `log show`
    # and `log stats` rebuild from the log and never run a stored command line. The stats
    # tables now group by command and spec.
    (
        "ALTER TABLE entries ADD COLUMN kinds TEXT",
        "ALTER TABLE entries ADD COLUMN spec TEXT",
        "ALTER TABLE entries ADD COLUMN shown TEXT",
        "DROP TRIGGER entries_stats_add",
        "DROP TRIGGER entries_stats_remove",
        "DROP TABLE stats_rolls",
        "DROP TABLE stats_faces",
        """CREATE TABLE stats_rolls (ruleset TEXT NOT NULL, who TEXT NOT NULL,
            command TEXT NOT NULL, spec TEXT NOT NULL, outcome TEXT NOT NULL, n INTEGER NOT NULL,
            PRIMARY KEY (ruleset, who, command, spec, outcome)) WITHOUT ROWID""",
        """CREATE TABLE stats_faces (ruleset TEXT NOT NULL, who TEXT NOT NULL,
            command TEXT NOT NULL, die TEXT NOT NULL, face INTEGER NOT NULL, n INTEGER NOT NULL,
            PRIMARY KEY (ruleset, who, command, die, face)) WITHOUT ROWID""",
        f"""INSERT INTO stats_rolls (ruleset, who, command, spec, outcome, n)
            SELECT ruleset, coalesce(character, ''), command, {_KEY.format(row='entries')},
                   coalesce(outcome, ''), count(*)
            FROM entries WHERE count = 1 GROUP BY 1, 2, 3, 4, 5""",
        """INSERT INTO stats_faces (ruleset, who, command, die, face, n)
            SELECT e.ruleset, coalesce(e.character, ''), e.command, d.key, f.value, count(*)
            FROM entries e, json_each(e.rolled) d, json_each(d.value) f
            WHERE e.count = 1 GROUP BY 1, 2, 3, 4, 5""",
        f"""CREATE TRIGGER entries_stats_add AFTER INSERT ON entries WHEN NEW.count = 1
            BEGIN
                INSERT INTO stats_rolls (ruleset, who, command, spec, outcome, n)
                VALUES (NEW.ruleset, coalesce(NEW.character, ''), NEW.command,
                        {_KEY.format(row='NEW')}, coalesce(NEW.outcome, ''), 1)
                ON CONFLICT (ruleset, who, command, spec, outcome) DO UPDATE SET n = n + 1;
                INSERT INTO stats_faces (ruleset, who, command, die, face, n)
                SELECT NEW.ruleset, coalesce(NEW.character, ''), NEW.command, d.key, f.value,
                       count(*)
                FROM json_each(NEW.rolled) d, json_each(d.value) f WHERE true
                GROUP BY d.key, f.value
                ON CONFLICT (ruleset, who, command, die, face) DO UPDATE SET n = n + excluded.n;
            END""",
        f"""CREATE TRIGGER entries_stats_remove AFTER DELETE ON entries WHEN OLD.count = 1
            BEGIN
                UPDATE stats_rolls SET n = n - 1
                WHERE ruleset = OLD.ruleset AND who = coalesce(OLD.character, '')
                  AND command = OLD.command AND spec = {_KEY.format(row='OLD')}
                  AND outcome = coalesce(OLD.outcome, '');
                DELETE FROM stats_rolls WHERE n <= 0;
                UPDATE stats_faces SET n = n - (
                    SELECT count(*) FROM json_each(OLD.rolled) d, json_each(d.value) f
                    WHERE d.key = stats_faces.die AND f.value = stats_faces.face)
                WHERE ruleset = OLD.ruleset AND who = coalesce(OLD.character, '')
                  AND command = OLD.command;
            END""",
    ),
    # 4, "hand-rolled apart": `log stats` leaves out the rolls made with --dice (dice
    # rolled by hand are no test of the random source), and counts them in stats_hand.
    (
        "DROP TRIGGER entries_stats_add",
        "DROP TRIGGER entries_stats_remove",
        "DELETE FROM stats_rolls",
        "DELETE FROM stats_faces",
        """CREATE TABLE stats_hand (ruleset TEXT NOT NULL, who TEXT NOT NULL,
            command TEXT NOT NULL, n INTEGER NOT NULL,
            PRIMARY KEY (ruleset, who, command)) WITHOUT ROWID""",
        f"""INSERT INTO stats_rolls (ruleset, who, command, spec, outcome, n)
            SELECT ruleset, coalesce(character, ''), command, {_KEY.format(row='entries')},
                   coalesce(outcome, ''), count(*)
            FROM entries WHERE count = 1 AND faces IS NULL GROUP BY 1, 2, 3, 4, 5""",
        """INSERT INTO stats_faces (ruleset, who, command, die, face, n)
            SELECT e.ruleset, coalesce(e.character, ''), e.command, d.key, f.value, count(*)
            FROM entries e, json_each(e.rolled) d, json_each(d.value) f
            WHERE e.count = 1 AND e.faces IS NULL AND json_valid(e.rolled)
            GROUP BY 1, 2, 3, 4, 5""",
        """INSERT INTO stats_hand (ruleset, who, command, n)
            SELECT ruleset, coalesce(character, ''), command, count(*)
            FROM entries WHERE count = 1 AND faces IS NOT NULL GROUP BY 1, 2, 3""",
        f"""CREATE TRIGGER entries_stats_add AFTER INSERT ON entries
            WHEN NEW.count = 1 AND NEW.faces IS NULL
            BEGIN
                INSERT INTO stats_rolls (ruleset, who, command, spec, outcome, n)
                VALUES (NEW.ruleset, coalesce(NEW.character, ''), NEW.command,
                        {_KEY.format(row='NEW')}, coalesce(NEW.outcome, ''), 1)
                ON CONFLICT (ruleset, who, command, spec, outcome) DO UPDATE SET n = n + 1;
                INSERT INTO stats_faces (ruleset, who, command, die, face, n)
                SELECT NEW.ruleset, coalesce(NEW.character, ''), NEW.command, d.key, f.value,
                       count(*)
                FROM json_each(NEW.rolled) d, json_each(d.value) f WHERE true
                GROUP BY d.key, f.value
                ON CONFLICT (ruleset, who, command, die, face) DO UPDATE SET n = n + excluded.n;
            END""",
        """CREATE TRIGGER entries_hand_add AFTER INSERT ON entries
            WHEN NEW.count = 1 AND NEW.faces IS NOT NULL
            BEGIN
                INSERT INTO stats_hand (ruleset, who, command, n)
                VALUES (NEW.ruleset, coalesce(NEW.character, ''), NEW.command, 1)
                ON CONFLICT (ruleset, who, command) DO UPDATE SET n = n + 1;
            END""",
        f"""CREATE TRIGGER entries_stats_remove AFTER DELETE ON entries
            WHEN OLD.count = 1 AND OLD.faces IS NULL
            BEGIN
                UPDATE stats_rolls SET n = n - 1
                WHERE ruleset = OLD.ruleset AND who = coalesce(OLD.character, '')
                  AND command = OLD.command AND spec = {_KEY.format(row='OLD')}
                  AND outcome = coalesce(OLD.outcome, '');
                DELETE FROM stats_rolls WHERE n <= 0;
                UPDATE stats_faces SET n = n - (
                    SELECT count(*) FROM json_each(OLD.rolled) d, json_each(d.value) f
                    WHERE d.key = stats_faces.die AND f.value = stats_faces.face)
                WHERE ruleset = OLD.ruleset AND who = coalesce(OLD.character, '')
                  AND command = OLD.command;
            END""",
        """CREATE TRIGGER entries_hand_remove AFTER DELETE ON entries
            WHEN OLD.count = 1 AND OLD.faces IS NOT NULL
            BEGIN
                UPDATE stats_hand SET n = n - 1 WHERE ruleset = OLD.ruleset
                  AND who = coalesce(OLD.character, '') AND command = OLD.command;
                DELETE FROM stats_hand WHERE n <= 0;
            END""",
    ),
    # 5, "secret rolls": a ``--secret`` roll is kept from the table's page and feed until
    # ``log reveal`` makes it public; each reveal is a row of ``reveals`` (``seq`` only
    # grows), which ``rpgdice serve`` follows as it follows the entries, by ID.
    (
        "ALTER TABLE entries ADD COLUMN secret INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE entries ADD COLUMN revealed_at TEXT",
        """CREATE TABLE reveals (seq INTEGER PRIMARY KEY AUTOINCREMENT,
            entry INTEGER NOT NULL, time TEXT NOT NULL)""",
    ),
]
"""Schema steps: entry ``k`` takes a log from version ``k`` to ``k + 1``. Add, never edit."""
VERSION = len(MIGRATIONS)

MIGRATION_NAMES = ("first release", "stats tables", "results as data", "hand-rolled apart",
                   "secret rolls")
"""Each step of :data:`MIGRATIONS` by name."""

COLUMNS = ("id", "time", "argv", "character", "ruleset", "command", "seed", "faces", "count",
           "outcome", "results", "rerolled_at", "rerolled_by", "kinds", "spec", "shown", "secret",
           "revealed_at")


def _die_of(ruleset: Optional[str]) -> Any:
    """Where a ruleset's results show the faces rolled (its record's ``die``), or None."""
    from rpgdice import rulesets

    try:
        return rulesets.get(ruleset or "").die
    except KeyError:  # no ruleset, or one forged by hand
        return None


def _sides(expression: Any) -> Optional[int]:
    """The die size of an ordinary dice term (``2d6`` -> 6, ``-d%`` -> 100), or None."""
    import re

    found = re.search(r"[dD](%|\d+)", expression) if isinstance(expression, str) else None
    if found is None:
        return None
    return 100 if found.group(1) == "%" else int(found.group(1))


def rolled_faces(results: list[dict[str, Any]]) -> dict[str, list[int]]:
    """Every face the results show, per die size, sorted (``{"d10": [3, 8, ...]}``),
    re-rolls and every roll of a roll type included: ``log stats`` counts them in SQL."""
    out: dict[str, list[int]] = {}

    def walk(obj: Any, ruleset: Optional[str]) -> None:
        if isinstance(obj, list):
            for x in obj:
                walk(x, ruleset)
            return
        if not isinstance(obj, dict):
            return
        ruleset = obj.get("ruleset", ruleset)
        if ruleset == "dice" and "terms" in obj:  # ordinary dice: each term its own size
            for term in obj.get("terms") or ():
                sides = _sides(term.get("expression")) if isinstance(term, dict) else None
                if sides is not None:
                    out.setdefault(f"d{sides}", []).extend(
                        d["face"] for d in term.get("dice") or ()
                        if isinstance(d, dict) and isinstance(d.get("face"), int))
            return
        where = _die_of(ruleset)
        if where is not None and "command" in obj:
            die, list_key, face_key = f"d{where.sides}", where.dice, where.face
            if list_key is None:
                face = obj.get(face_key)
                if isinstance(face, int) and not isinstance(face, bool):
                    out.setdefault(die, []).append(face)
            else:
                out.setdefault(die, []).extend(
                    d[face_key] for d in obj.get(list_key) or () if isinstance(d, dict))
        if "rolls" in obj:  # a roll type: its single rolls (attacker, defender... are among them)
            walk(obj["rolls"], ruleset)
            return
        for key, value in obj.items():
            if isinstance(value, (dict, list)) and key != "dice":
                walk(value, ruleset)

    walk(results, None)
    return {die: sorted(faces) for die, faces in out.items()}  # sorted: fewer distinct values

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


class Log:
    """An open roll log. ``Log.open(write=True)`` creates the file (and folder) when
    needed and migrates it; ``write=False`` opens an existing log read-only, or
    returns None when there is none yet."""

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

    def add(self, *, argv: list[str], character: Optional[str], ruleset: str, command: str,
            seed: Optional[int], faces: Optional[list[int]], count: int,
            outcome: Optional[str], results: list[dict[str, Any]],
            kinds: Optional[list[str]] = None, spec: Optional[dict[str, Any]] = None,
            shown: Optional[dict[str, Any]] = None, texts: Optional[list[str]] = None,
            secret: bool = False) -> int:
        """Record one command; returns its ID. Old entries beyond the bound go. The
        results are cut to :func:`capped` (``texts``: their JSON, when already made).
        ``kinds``: the record class of each result (one name when they share it);
        ``spec``: the exact odds spec of its roll, as data; ``shown``: what the view
        showed beside the results (the ``--odds`` spec, each result's character line)."""
        if texts is None:
            results, texts = capped(results)
        con = self.con
        con.execute("BEGIN IMMEDIATE")
        try:
            cur = con.execute(
                "INSERT INTO entries (time, argv, character, ruleset, command, seed, faces, count,"
                " outcome, results, rolled, kinds, spec, shown, secret)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (now(), json.dumps(argv, ensure_ascii=False), character, ruleset, command,
                 None if seed is None else str(seed),
                 None if faces is None else json.dumps(faces), count, outcome,
                 "[" + ",".join(texts) + "]", _dumps(rolled_faces(results[:len(texts)])),
                 None if kinds is None else _dumps(kinds), None if spec is None else _dumps(spec),
                 None if shown is None else _dumps(shown), int(secret)),
            )
            entry = int(cur.lastrowid or 0)
            if entry > MAX_ENTRIES:
                con.execute("DELETE FROM entries WHERE id <= ?", (entry - MAX_ENTRIES,))
            con.execute("COMMIT")
        except BaseException:
            _roll_back(con)
            raise
        return entry

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
        """Make a secret entry public; True when this call revealed it (False: already public)."""
        con = self.con
        con.execute("BEGIN IMMEDIATE")
        try:
            stamp = now()
            cur = con.execute("UPDATE entries SET secret = 0, revealed_at = ? WHERE id = ?"
                              " AND secret != 0", (stamp, entry))
            done = cur.rowcount == 1
            if done:
                con.execute("INSERT INTO reveals (entry, time) VALUES (?, ?)", (entry, stamp))
            con.execute("COMMIT")
        except BaseException:
            _roll_back(con)
            raise
        return done

    def set_rerolled_by(self, entry: int, by: int) -> None:
        self.con.execute("UPDATE entries SET rerolled_by = ? WHERE id = ?", (by, entry))

    def stats_rows(self, *, ruleset: Optional[str], character: Optional[str],
                   since: Optional[str] = None, before: Optional[str] = None
                   ) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        """What ``log stats`` counts: (ruleset, command, spec key, who, outcome, n) of the
        drawn one-result entries, (ruleset, command, die, face, n) of their faces, and
        (ruleset, command, n) of the one-result entries of given faces. From the stats
        tables, or, within ``since``/``before``, counted from the entries in SQL."""
        if since is None and before is None:
            clause, args = self.where("n > 0", ruleset=ruleset, character=character, who="who")
            return (
                self.con.execute("SELECT ruleset, command, spec, who, outcome, n"
                                 f" FROM stats_rolls{clause}", args).fetchall(),
                self.con.execute(f"SELECT ruleset, command, die, face, sum(n) FROM stats_faces"
                                 f"{clause} GROUP BY ruleset, command, die, face", args).fetchall(),
                self.con.execute(f"SELECT ruleset, command, sum(n) FROM stats_hand{clause}"
                                 " GROUP BY ruleset, command", args).fetchall())
        clause, args = self.where("count = 1", ruleset=ruleset, character=character,
                                  since=since, before=before)
        drawn, given = clause + " AND faces IS NULL", clause + " AND faces IS NOT NULL"
        return (
            self.con.execute(f"SELECT ruleset, command, {_KEY.format(row='entries')},"
                             " coalesce(character, ''), coalesce(outcome, ''), count(*)"
                             f" FROM entries{drawn} GROUP BY 1, 2, 3, 4, 5", args).fetchall(),
            self.con.execute("SELECT ruleset, command, d.key, f.value, count(*) FROM (SELECT"
                             f" ruleset, command, rolled FROM entries{drawn}"
                             " AND json_valid(rolled)) e, json_each(e.rolled) d,"
                             " json_each(d.value) f GROUP BY 1, 2, 3, 4", args).fetchall(),
            self.con.execute(f"SELECT ruleset, command, count(*) FROM entries{given}"
                             " GROUP BY 1, 2", args).fetchall())

    def cached_odds(self) -> dict[str, str]:
        return dict(self.con.execute("SELECT key, outcomes FROM odds_cache"))

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

    # Reading ---------------------------------------------------------------------------

    def get(self, entry: int) -> Optional[dict[str, Any]]:
        row = self.con.execute(f"SELECT {_SELECT} FROM entries WHERE id = ?",
                               (entry,)).fetchone()
        return None if row is None else entry_data(row)

    def last(self, *, ruleset: Optional[str] = None, command: Optional[str] = None,
             n: int = 1, character: Optional[str] = None) -> list[dict[str, Any]]:
        """The last ``n`` entries (oldest first), of a ruleset/command/character."""
        where, args = self.where(ruleset=ruleset, command=command, character=character)
        rows = self.con.execute(
            f"SELECT {_SELECT} FROM entries{where} ORDER BY id DESC LIMIT ?",
            (*args, n)).fetchall()
        return [entry_data(row) for row in reversed(rows)]

    def listing(self, *, n: int, ruleset: Optional[str] = None,
                character: Optional[str] = None, since: Optional[str] = None,
                before: Optional[str] = None, full: bool = True) -> Iterator[dict[str, Any]]:
        """The last ``n`` entries, oldest first, one at a time (memory stays flat however
        many and however large). ``full``: every stored result; otherwise only what a line
        of ``rpgdice log`` shows: the first result of a one-result entry, and the outcome
        (and total) of each result of the others."""
        where, args = self.where(ruleset=ruleset, character=character, since=since,
                                 before=before)
        (first,) = self.con.execute(
            f"SELECT min(id) FROM (SELECT id FROM entries{where} ORDER BY id DESC LIMIT ?)",
            (*args, n)).fetchone()
        if first is None:
            return
        where, args = self.where("id >= ?", ruleset=ruleset, character=character, since=since,
                                 before=before)
        columns = ", ".join(_results(_RAW) if c == "results" else c for c in COLUMNS) if full \
            else ", ".join(_results(_BRIEF) if c == "results"
                           else "NULL" if c in ("kinds", "spec", "shown") else c for c in COLUMNS)
        cur = self.con.execute(f"SELECT {columns} FROM entries{where} ORDER BY id",
                               (first, *args))
        at = COLUMNS.index("results")
        for row in iter_rows(cur):
            if not full:
                yield entry_data(row)
                continue
            entry = entry_data(row[:at] + ("[]" if row[at] != _TOO_LARGE else row[at],)
                               + row[at + 1:])
            entry["results_text"] = "[]" if entry["too_large"] else row[at]  # never parsed here
            yield entry

    def where(self, *terms: str, ruleset: Optional[str] = None, command: Optional[str] = None,
              character: Optional[str] = None, who: str = "character",
              since: Optional[str] = None, before: Optional[str] = None
              ) -> tuple[str, tuple[Any, ...]]:
        """A WHERE clause (empty when nothing is asked) and its arguments: ``terms`` as
        they are (their arguments come first), a ruleset, a command, a character's entries
        (its name matched like every name: case, accents, spaces, hyphens and underscores
        aside; ``who`` the column holding it), entries of ``since`` or later and from
        before ``before`` (ISO 8601 UTC stamps, as the log's times)."""
        clauses, args = list(terms), []
        if since:
            clauses.append("time >= ?")
            args.append(since)
        if before:
            clauses.append("time < ?")
            args.append(before)
        if ruleset:
            clauses.append("ruleset = ?")
            args.append(ruleset)
        if command:
            clauses.append("command = ?")
            args.append(command)
        if character:
            from rpgdice.core.names import fold

            self.con.create_function("fold", 1, lambda s: None if s is None else fold(s),
                                     deterministic=True)
            clauses.append(f"fold({who}) = ?")
            args.append(fold(character))
        return (" WHERE " + " AND ".join(clauses) if clauses else ""), tuple(args)


READ_BATCH = 256
"""Rows fetched from SQLite at a time while listing."""


def iter_rows(cur: sqlite3.Cursor) -> Iterator[tuple[Any, ...]]:
    """The cursor's rows, fetched :data:`READ_BATCH` at a time (never all at once)."""
    while True:
        rows = cur.fetchmany(READ_BATCH)
        if not rows:
            return
        yield from rows


_RAW = "CASE WHEN json_valid(results) AND json_type(results) = 'array' THEN results ELSE '[]' END"
"""An entry's stored results as they are, for ``log --json`` (an entry forged into
anything but a list of them reads as none)."""
_BRIEF = """CASE WHEN NOT json_valid(results) THEN '[]'
    WHEN count = 1 THEN '[' || (results -> '$[0]') || ']'
    ELSE (SELECT json_group_array(CASE WHEN json_type(value, '$.total') IS NULL
                                       THEN json_object('outcome', json_extract(value, '$.outcome'))
                                       ELSE json_object('outcome', json_extract(value, '$.outcome'),
                                                        'total', json_extract(value, '$.total'))
                                  END) FROM json_each(results)) END"""
"""What a line of ``rpgdice log`` reads of an entry's results, worked out by SQLite."""


if sqlite3.sqlite_version_info >= (3, 43):  # octet_length reads a cell's size, not its text
    _OVER = f"octet_length(results) > {MAX_CELL}"
elif hasattr(sqlite3.Connection, "blobopen"):  # Python 3.11 on: the size by incremental I/O
    _OVER = "rpgdice_too_big(id)"
else:  # pragma: no cover - Python 3.10 with an old SQLite: bounded, though read to measure
    _OVER = f"length(CAST(results AS BLOB)) > {MAX_CELL}"
"""True for an entry whose stored results are over :data:`MAX_CELL`, worked out
without reading them (the ``CASE`` that asks it reads ``results`` only when false)."""
_TOO_LARGE = '"rpgdice: results over the cap"'
"""What a query reads for the results of an entry over :data:`MAX_CELL`."""


def _results(expression: str = "results") -> str:
    """``expression`` over an entry's results, or :data:`_TOO_LARGE` for a cell over the
    cap, which SQLite then never reads."""
    return f"CASE WHEN {_OVER} THEN '{_TOO_LARGE}' ELSE {expression} END"


def _size_check(con: sqlite3.Connection) -> None:
    """Give ``con`` the SQL function :data:`_OVER` may call: whether entry ``id``'s results
    cell is over :data:`MAX_CELL`, from its size in the file (``blobopen`` reads nothing
    of it)."""
    if not _OVER.startswith("rpgdice_too_big"):
        return

    open_cell = con.blobopen  # type: ignore[attr-defined]  # Python 3.11 on

    def too_big(entry: Any) -> bool:
        try:
            with open_cell("entries", "results", entry, readonly=True) as cell:
                return len(cell) > MAX_CELL
        except (sqlite3.Error, TypeError, OverflowError):  # not a text: small, read as ever
            return False

    con.create_function("rpgdice_too_big", 1, too_big)


_SELECT = ", ".join(_results() if c == "results" else c for c in COLUMNS)
"""Every column of an entry, its results unread when over the cap."""


def _roll_back(con: sqlite3.Connection) -> None:
    """Roll back what is left of a failed transaction (SQLite rolls back some failures,
    a full disk among them, itself): the failure is what the user hears of, never a
    ``cannot rollback``."""
    if con.in_transaction:
        try:
            con.execute("ROLLBACK")
        except sqlite3.Error:
            pass


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def capped(results: Iterable[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """The first results an entry keeps (at most :data:`MAX_RESULTS`, and
    :data:`MAX_BYTES` of JSON, the first always), and their JSON."""
    kept: list[dict[str, Any]] = []
    texts: list[str] = []
    size = 0
    for r in results:
        text = _dumps(r)
        if len(kept) >= MAX_RESULTS or (kept and size + len(text) + 1 > MAX_BYTES):
            break
        if len(text.encode("utf-8")) + 2 > MAX_CELL:  # never written, as it would not be read
            break
        kept.append(r)
        texts.append(text)
        size += len(text) + 1
    return kept, texts


def _loads(text: Any, default: Any, kind: type) -> Any:
    """A stored JSON column, or ``default`` when it is missing, corrupt or forged into
    another shape than ``kind``."""
    if text is None:
        return default
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return default
    return value if isinstance(value, kind) else default


def entry_data(row: tuple[Any, ...]) -> dict[str, Any]:
    """A row as the ``log --json`` object (and the bookkeeping columns). A column forged
    or corrupt by hand reads as nothing (no arguments, no results), never an exception."""
    d = dict(zip(COLUMNS, row))
    d["argv"] = [str(a) for a in _loads(d["argv"], [], list)]
    try:
        d["seed"] = None if d["seed"] is None else int(d["seed"])
    except (TypeError, ValueError):
        d["seed"] = None
    d["faces"] = _loads(d["faces"], None, list)
    d["too_large"] = d["results"] == _TOO_LARGE
    d["results"] = _loads(d["results"], [], list)
    d["kinds"] = _loads(d.get("kinds"), None, list)
    d["spec"] = _loads(d.get("spec"), None, dict)
    d["shown"] = _loads(d.get("shown"), None, dict)
    d["secret"] = bool(d.get("secret"))
    return d


def public(entry: dict[str, Any]) -> dict[str, Any]:
    """The ``log --json`` object of an entry."""
    return {
        "id": entry["id"], "time": entry["time"], "argv": entry["argv"],
        "character": entry["character"], "ruleset": entry["ruleset"],
        "command": entry["command"], "seed": entry["seed"], "faces": entry["faces"],
        "count": entry["count"], "outcome": entry["outcome"],
        "rerolled": entry["rerolled_at"] is not None, "rerolled_by": entry["rerolled_by"],
        "secret": entry["secret"], "revealed": entry.get("revealed_at"),
        "results": entry["results"],
    }


SECRET_KEYS = ("id", "time", "character", "ruleset", "command", "secret")
"""What the table's page and feed show of a secret entry (CLI.md, "Showing the table")."""


def on_the_table(entry: dict[str, Any]) -> dict[str, Any]:
    """An entry as the table's page and feed give it: its ``log --json`` object, or, for a
    secret one, only :data:`SECRET_KEYS`."""
    if entry["secret"]:
        return {k: entry[k] for k in SECRET_KEYS}
    return public(entry)


def write_entry(**entry: Any) -> tuple[int, Optional[Path]]:
    """Open the log, add ``entry``, close; returns its ID and where a corrupt log was
    set aside (None when it was not). A log whose inner page turns out corrupt while
    writing is set aside like a corrupt header, and the entry goes into a new log.
    Raises :class:`LogUnavailable`."""
    log = Log.open(write=True)
    assert log is not None
    try:
        return log.add(**entry), getattr(log, "set_aside", None)
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
        return log.add(**entry), getattr(log, "set_aside", None)
    except sqlite3.Error as e:
        raise LogUnavailable(f"the roll log {log.path} cannot be written: {_reason(e)}") from None
    finally:
        log.release()


class Recorder:
    """Watches a command's results go by and records the command afterwards: each
    result's data, its record class, and what its view showed beside it (its envelope:
    the character line of ``--as``, an attack target's line and keys)."""

    def __init__(self, keys: dict[str, Any], faces: Optional[list[int]],
                 command: Optional[str] = None) -> None:
        self.keys = keys
        self.faces = faces
        self.command = command
        self.kept: list[dict[str, Any]] = []
        self.texts: list[str] = []
        self.kinds: list[str] = []
        self.envelopes: list[Optional[dict[str, Any]]] = []
        self.count = 0
        self.size = 0
        self.full = False

    def watch(self, results: Iterable[Any]) -> Iterator[Any]:
        """Each result goes by; only what the entry stores is kept (:func:`capped`'s
        bounds, as they come), so memory stays flat however many there are."""
        from rpgdice.core.data import to_data

        kept, keys = self.kept, self.keys
        for item in results:  # each a result and its envelope (rpgdice.core.envelope.Rolled)
            if not self.full:
                data = to_data(item.result)
                data.update(to_data(keys))
                text = _dumps(data)
                if len(kept) >= MAX_RESULTS or (kept and self.size + len(text) + 1 > MAX_BYTES):
                    self.full = True
                else:
                    kept.append(data)
                    self.texts.append(text)
                    self.size += len(text) + 1
                    self.kinds.append(type(item.result).__name__)
                    self.envelopes.append(envelope(item.envelope))
            self.count += 1
            yield item

    def save(self, argv: list[str], character: Optional[str],
             warn: Callable[[str], None], spec: Optional[dict[str, Any]] = None,
             odds: Optional[dict[str, Any]] = None, secret: bool = False) -> Optional[int]:
        """Add the entry (``secret``: a ``--secret`` roll); a log that cannot be written is one warning line (``warn``),
        and None. ``spec``/``odds``: the roll's exact odds spec and the ``--odds`` one,
        as data (None when there is none)."""
        if not self.kept:
            return None
        first = self.kept[0]
        kinds = self.kinds if len(set(self.kinds)) > 1 else self.kinds[:1]
        shown: Optional[dict[str, Any]] = None
        if odds is not None or any(e is not None for e in self.envelopes):
            shown = {"odds": odds, "envelopes": self.envelopes}
        try:
            entry, aside = write_entry(
                argv=argv, character=character, ruleset=first.get("ruleset", ""),
                command=self.command or first.get("command", ""), seed=self.keys.get("seed"),
                faces=self.faces, count=self.count,
                outcome=first.get("outcome") if self.count == 1 else None, results=self.kept,
                kinds=kinds, spec=spec, shown=shown, texts=self.texts, secret=secret)
        except LogUnavailable as e:
            warn(f"the roll was not logged: {e}")
            return None
        except (sqlite3.Error, OSError) as e:
            warn(f"the roll was not logged: the roll log cannot be written: {_reason(e)}")
            return None
        if aside is not None:
            warn(f"the roll log was corrupt: it was set aside as {aside} and a new log begun")
        return entry


ENVELOPE = ("table", "vs_table", "vs_keys")
"""What travels beside a result (rpgdice.core.envelope.Envelope), for its view and JSON:
the character line (``--as``), an attack target's line and keys (``--vs``)."""


def envelope(beside: Any) -> Optional[dict[str, Any]]:
    """A result's envelope as data (None: nothing beside the result)."""
    from rpgdice.core.data import to_data

    found = {k: to_data(getattr(beside, k)) for k in ENVELOPE if getattr(beside, k, None)}
    return found or None

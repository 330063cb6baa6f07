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

The package, one job a module:

* :mod:`~rpgdice.table.log.schema` — the migrations and the columns (plain data);
* :mod:`~rpgdice.table.log.entries` — an entry as data: what it stores, how a stored row
  reads back (bounded, never an exception), what is given out;
* :mod:`~rpgdice.table.log.store` — opening, locking, repairing and writing the file
  (:class:`Log`, :func:`write_entry`);
* :mod:`~rpgdice.table.log.queries` — reading it (the listing, the stats rows);
* :mod:`~rpgdice.table.log.recorder` — :class:`Recorder`, a command's entry as it runs.

Every name other modules use is here (the limits as read-only copies: the code reads
``MAX_ENTRIES`` and ``BUSY_TIMEOUT`` in :mod:`~rpgdice.table.log.store`, where a test
changes them). Only the commands that log, and the ``log`` commands, import this package
(and sqlite3).
"""

from __future__ import annotations

import sqlite3  # noqa: F401  (reached through the package as ever: log.sqlite3.connect,
import time  # noqa: F401  log.time.strftime)

from rpgdice.table.log.entries import (
    ENVELOPE,
    MAX_BYTES,
    MAX_CELL,
    MAX_RESULTS,
    SECRET_KEYS,
    Entry,
    capped,
    entry_data,
    envelope,
    on_the_table,
    public,
    read_roll,
    roll_cell,
    rolled_faces,
    shown_data,
)
from rpgdice.table.log.queries import _OVER, READ_BATCH, capped_column, iter_rows
from rpgdice.table.log.queries import _size_check as size_check
from rpgdice.table.log.recorder import Recorder
from rpgdice.table.log.schema import COLUMNS, MIGRATION_NAMES, MIGRATIONS, VERSION
from rpgdice.table.log.store import (
    _ORPHANS,
    BUSY_TIMEOUT,
    MAX_ENTRIES,
    Log,
    LogUnavailable,
    _missing,
    added_here,
    now,
    reason,
    set_aside,
    write_entry,
    written_lately,
)

__all__ = [
    "BUSY_TIMEOUT", "COLUMNS", "ENVELOPE", "MAX_BYTES", "MAX_CELL", "MAX_ENTRIES",
    "MAX_RESULTS", "MIGRATIONS", "MIGRATION_NAMES", "READ_BATCH", "SECRET_KEYS", "VERSION",
    "_ORPHANS", "_OVER", "Entry", "Log", "LogUnavailable", "Recorder", "_missing", "capped",
    "capped_column", "size_check",
    "entry_data", "envelope", "iter_rows", "now", "on_the_table", "public", "read_roll", "reason",
    "written_lately", "added_here", "shown_data",
    "roll_cell", "rolled_faces", "set_aside", "write_entry",
]

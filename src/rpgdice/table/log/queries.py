"""Reading the roll log: the WHERE clauses, the listing (one row at a time, a results
cell over the cap never read), the stats rows and the cached odds. :class:`Queries` is
the reading half of :class:`rpgdice.table.log.store.Log`."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Optional

from rpgdice.core.data import Loaded
from rpgdice.table.log.entries import _TOO_LARGE, MAX_BYTES, MAX_CELL, entry_data, shown_data
from rpgdice.table.log.schema import _KEY, COLUMNS

StatsRoll = tuple[str, str, str, str, str, int]
"""A counted roll of ``log stats``: ruleset, command, spec key, who, outcome, how many."""
StatsFace = tuple[str, str, str, object, int]
"""A counted face: ruleset, command, die, face (as stored), how many."""
StatsHand = tuple[str, str, int]
"""Rolls of given faces: ruleset, command, how many."""

class Queries:
    """What is read of an open log (its connection ``con``)."""

    con: sqlite3.Connection

    def kept_entries(self) -> int:
        """How many of the newest entries the log keeps (the store says: ``MAX_ENTRIES``)."""
        raise NotImplementedError

    def stats_rows(self, *, ruleset: Optional[str], character: Optional[str],
                   since: Optional[str] = None, before: Optional[str] = None
                   ) -> tuple[list[StatsRoll], list[StatsFace], list[StatsHand]]:
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

    def get(self, entry: int) -> Optional[Loaded]:
        row = self.con.execute(f"SELECT {_SELECT} FROM entries WHERE id = ?",
                               (entry,)).fetchone()
        return None if row is None else entry_data(row)

    def shown_of(self, entry: int) -> Optional[tuple[Optional[Loaded], object]]:
        """An entry's ``shown`` (as :meth:`get` gives it) and ``count``, nothing else read
        (a seat's answer asks them of every roll); None when there is no such entry."""
        row = self.con.execute("SELECT shown, count FROM entries WHERE id = ?",
                               (entry,)).fetchone()
        return None if row is None else (shown_data(row[0]), row[1])

    def last(self, *, ruleset: Optional[str] = None, command: Optional[str] = None,
             n: int = 1, character: Optional[str] = None) -> list[Loaded]:
        """The last ``n`` entries (oldest first), of a ruleset/command/character."""
        where, args = self.where(ruleset=ruleset, command=command, character=character)
        rows = self.con.execute(
            f"SELECT {_SELECT} FROM entries{where} ORDER BY id DESC LIMIT ?",
            (*args, n)).fetchall()
        return [entry_data(row) for row in reversed(rows)]

    def listing(self, *, n: int, ruleset: Optional[str] = None,
                character: Optional[str] = None, since: Optional[str] = None,
                before: Optional[str] = None, full: bool = True) -> Iterator[Loaded]:
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
        columns = ", ".join(_results(_RAW) if c == "results" else _ROLL if c == "roll" else c
                            for c in COLUMNS) if full \
            else ", ".join(_results(_BRIEF) if c == "results" else _ROLL_RULES if c == "roll"
                           else _BLIND if c == "shown"
                           else "NULL" if c in ("kinds", "spec") else c
                           for c in COLUMNS)
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
              ) -> tuple[str, tuple[object, ...]]:
        """A WHERE clause (empty when nothing is asked) and its arguments: ``terms`` as
        they are (their arguments come first), a ruleset, a command, a character's entries
        (its name matched like every name: case, accents, spaces, hyphens and underscores
        aside; ``who`` the column holding it), entries of ``since`` or later and from
        before ``before`` (ISO 8601 UTC stamps, as the log's times)."""
        clauses, args = list(terms), list[object]()
        if since or before:  # a scan by time: only the window the log keeps (a log far over
            # it, forged or not pruned yet, reads fast)
            clauses.append("id > (SELECT coalesce(max(id), 0) FROM entries) - ?")
            args.append(self.kept_entries())
        for clause, value in (("time >= ?", since), ("time < ?", before),
                              ("ruleset = ?", ruleset), ("command = ?", command)):
            if value:
                clauses.append(clause)
                args.append(value)
        if character:
            from rpgdice.core.names import fold

            self.con.create_function("fold", 1, lambda s: None if s is None else fold(s),
                                     deterministic=True)
            clauses.append(f"fold({who}) = ?")
            args.append(fold(character))
        return (" WHERE " + " AND ".join(clauses) if clauses else ""), tuple(args)


READ_BATCH = 256
"""Rows fetched from SQLite at a time while listing."""


def iter_rows(cur: sqlite3.Cursor) -> Iterator[tuple[object, ...]]:
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


def _over(column: str, most: int) -> str:
    """True for an entry whose ``column`` cell is over ``most`` bytes, worked out without
    reading it (the ``CASE`` that asks it reads the cell only when false)."""
    if sqlite3.sqlite_version_info >= (3, 43):  # octet_length reads a cell's size, not its text
        return f"octet_length({column}) > {most}"
    if hasattr(sqlite3.Connection, "blobopen"):  # Python 3.11 on: the size by incremental I/O
        return "rpgdice_too_big(id)" if column == "results" else \
            f"rpgdice_too_big(id, '{column}', {most})"
    return f"length(CAST({column} AS BLOB)) > {most}"  # pragma: no cover - bounded, though read


_OVER = _over("results", MAX_CELL)
"""True for an entry whose stored results are over :data:`MAX_CELL`, worked out
without reading them (the ``CASE`` that asks it reads ``results`` only when false)."""
_ROLL = f"CASE WHEN {_over('roll', MAX_BYTES)} THEN NULL ELSE roll END"
"""An entry's stored roll, or NULL when the cell is over :data:`MAX_BYTES` (forged: rpgdice
never writes one), which SQLite then never reads."""


_ROLL_RULES = f"""CASE WHEN {_over('roll', MAX_BYTES)} OR NOT json_valid(roll)
        OR json_type(roll, '$.args.rules') IS NOT 'text' THEN NULL
    ELSE json_object('ruleset', json_extract(roll, '$.ruleset'),
                     'args', json_object('rules', json_extract(roll, '$.args.rules'))) END"""
"""What a line of ``rpgdice log`` reads of an entry's stored roll: only the rules it carried,
if any (a user's ruleset file's roll, shown in the words it was rolled with)."""


def _results(expression: str = "results") -> str:
    """``expression`` over an entry's results, or :data:`_TOO_LARGE` for a cell over the
    cap, which SQLite then never reads."""
    return f"CASE WHEN {_OVER} THEN '{_TOO_LARGE}' ELSE {expression} END"


def _size_check(con: sqlite3.Connection) -> None:
    """Give ``con`` the SQL function :data:`_OVER` (and :data:`_ROLL`) may call: whether
    entry ``id``'s results cell is over :data:`MAX_CELL` (or its cell ``column`` over
    ``most``), from its size in the file (``blobopen`` reads nothing of it)."""
    if not _OVER.startswith("rpgdice_too_big"):
        return

    open_cell = con.blobopen  # type: ignore[attr-defined]  # Python 3.11 on

    def too_big(entry: int, column: str = "results", most: int = MAX_CELL) -> bool:
        try:
            with open_cell("entries", column, entry, readonly=True) as cell:
                return bool(len(cell) > most)
        except (sqlite3.Error, TypeError, OverflowError):  # not a text: small, read as ever
            return False

    con.create_function("rpgdice_too_big", -1, too_big)


def capped_column(column: str) -> str:
    """A column as an entry's reader selects it: ``results`` (:func:`_results`), else the
    cell, or NULL when over :data:`MAX_BYTES` (``roll``) or :data:`MAX_CELL` (any other),
    worked out without reading it (on a connection given :func:`_size_check`)."""
    if column == "results":
        return _results()
    most = MAX_BYTES if column == "roll" else MAX_CELL
    return f"CASE WHEN {_over(column, most)} THEN NULL ELSE {column} END AS {column}"


_BLIND = ("CASE WHEN json_valid(shown) AND json_extract(shown, '$.blind') = 1"
          " THEN '{\"blind\":true}' END")
"""What a brief read keeps of an entry's ``shown``: whether it is a ``--blind`` roll."""
_SELECT = ", ".join(_results() if c == "results" else _ROLL if c == "roll" else c
                    for c in COLUMNS)
"""Every column of an entry, its results (and roll) unread when over the cap."""


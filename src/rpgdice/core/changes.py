"""Log entries that are changes of the table's state, not rolls: each change of the
encounter (``encounter start`` outside Seyruun, ``next``, ``add``, ``rm``, ``delay``,
``out``, ``back``, ``mark``, ``unmark``, ``end``) is logged like a roll, under the command ``encounter NAME``,
so that ``rpgdice log`` tells the fight's story. Its one result holds ``said`` (the
change in a line: ``Round 2 — Ghoul's turn``) and ``encounter`` (the state after it, as
``encounter --json`` gives it; null after ``end``). Every reader of the log asks here
whether an entry is one: ``again`` skips them, ``log stats`` never counts them,
``log show`` shows them without rebuilding a roll, the page shows a line.

Plain data: importing this costs nothing (``--short`` reaches it through the log's view).
"""

from __future__ import annotations

PREFIX = "encounter"
"""The command of a change's entry: ``encounter`` and the subcommand (``encounter next``;
an entry of an older build of this branch has ``encounter`` alone)."""

NOT_A_CHANGE = (f"(IFNULL(command, '') != '{PREFIX}'"
                f" AND IFNULL(command, '') NOT LIKE '{PREFIX} %')")
"""An SQL condition on the log's ``entries``: the entry is no change (a roll, or what
else a command logged)."""


def command(change: str) -> str:
    """The logged command of a change: ``encounter next``."""
    return f"{PREFIX} {change}"


def is_change(entry: object) -> bool:
    """Whether a log entry (or a result object, or a command name) is a change of the
    encounter rather than a roll."""
    name = entry.get("command") if isinstance(entry, dict) else entry
    return isinstance(name, str) and (name == PREFIX or name.startswith(PREFIX + " "))


def said(entry: object) -> str | None:
    """The line a change's entry (or its result) says, or None (not a change, or forged)."""
    if not is_change(entry):
        return None
    found = entry.get("said") if isinstance(entry, dict) else None
    if found is None and isinstance(entry, dict):
        results = entry.get("results")
        first = results[0] if isinstance(results, list) and results else None
        found = first.get("said") if isinstance(first, dict) else None
    return found if isinstance(found, str) else None

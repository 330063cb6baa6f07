"""Secret rolls being made (CLI.md, "Showing the table"): a secret roll pays from a sheet
and changes the encounter before its log entry exists (its output is shown first, and may
drain slowly: a pager). From before it pays until its entry is logged, its process keeps a
file in ``making/`` beside the roll log; the table's server shows no state read meanwhile
(rpgdice.serve.app), so what the roll changed appears nowhere before the entry that holds
it back. A file whose process is gone (killed) is stale: removed when seen."""

from __future__ import annotations

import os
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from rpgdice.table import paths

FOLDER = "making"


def folder() -> Path:
    return paths.state_dir() / FOLDER


@contextmanager
def secret() -> Iterator[None]:
    """While a secret roll is made: its file is there (when the folder can be written)."""
    mine = folder() / f"{os.getpid()}-{threading.get_ident()}-{secrets.token_hex(4)}"
    try:
        mine.parent.mkdir(parents=True, exist_ok=True)
        mine.touch()
    except OSError:  # a state folder not writable: the log cannot be written either
        mine = None  # type: ignore[assignment]
    try:
        yield
    finally:
        if mine is not None:
            mine.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's: alive
        return True
    return True


def busy() -> bool:
    """Whether a secret roll is being made now (in any process)."""
    try:
        found = list(folder().iterdir())
    except OSError:
        return False
    live = False
    for path in found:
        head = path.name.split("-", 1)[0]
        if head.isascii() and head.isdigit() and not _alive(int(head)):
            path.unlink(missing_ok=True)  # its process was killed
            continue
        live = True
    return live


def settled(within: float, step: float = 0.05) -> bool:
    """Whether no secret roll is being made, waiting up to ``within`` seconds for it."""
    deadline = time.monotonic() + within
    while busy():
        if time.monotonic() >= deadline:
            return False
        time.sleep(step)
    return True

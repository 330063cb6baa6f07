"""Safe reading and writing of the user's TOML files.

* Reading uses the standard library's ``tomllib`` (``tomli`` before Python 3.11): a
  file broken by hand is one :class:`~rpgdice.core.errors.RulesError` naming the
  file, the line and the column, and nothing is ever written over it.
* Writing is whole or not at all: the text goes to a temporary file in the same
  folder, is flushed to disk (``fsync``), then renamed over the old file
  (``os.replace``, atomic on POSIX and Windows), and the folder is synced.
* :func:`locked` holds an exclusive lock (``fcntl.flock``; ``msvcrt.locking`` on
  Windows) on a lock file beside the data around a read–change–write, so several
  terminals spending from one sheet at once lose no update.

``tomlkit`` (which keeps comments and keys a user added by hand) is imported only by
the functions that change a file: it takes about 35 ms to import, which a roll that
pays nothing must not pay.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rpgdice.core.errors import RulesError

LOCK_NAME = ".lock"
"""The lock file, one per folder (``characters/.lock``, ``.config.lock`` beside config.toml)."""


def _toml():  # -> module
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    return tomllib


_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_AT_END = re.compile(r"\s*\(at end of document\)\s*$")


def broken(path: Path, problem: str) -> RulesError:
    """The one error of a file that cannot be used as it is."""
    return RulesError(str(path), f"{problem}; fix it by hand (rpgdice did not change it)")


def parse_error(path: Path, e: Exception, text: str) -> RulesError:
    """A TOML syntax error as ``FILE: line L, column C: what is wrong``."""
    message = str(e)
    line = getattr(e, "lineno", None)
    column = getattr(e, "colno", None)
    msg = getattr(e, "msg", None)
    m = _AT.search(message)
    if m:
        line, column = int(m.group(1)), int(m.group(2))
        message = message[: m.start()]
    elif _AT_END.search(message):
        message = _AT_END.sub("", message)
        lines = text.splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
    if msg and isinstance(msg, str):
        message = msg
    where = f"line {line}, column {column}: " if line is not None else ""
    return broken(path, f"{where}{message[:1].lower()}{message[1:]}")


def read_toml(path: Path) -> dict[str, Any] | None:
    """The table a TOML file holds, or None when there is no such file."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise broken(path, "is a folder, not a file") from None
    except OSError as e:
        raise RulesError(str(path), f"cannot be read: {e.strerror or e}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        column = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise broken(path, f"line {line}, column {column}: not UTF-8 text") from None
    toml = _toml()
    try:
        return toml.loads(text)
    except toml.TOMLDecodeError as e:
        raise parse_error(path, e, text) from None


def read_document(path: Path) -> Any:
    """The file as a ``tomlkit`` document (comments and layout kept), an empty one
    when there is no file. The text is checked with ``tomllib`` first, so a broken
    file is reported the same way whoever reads it."""
    import tomlkit

    if read_toml(path) is None:
        return tomlkit.document()
    return tomlkit.parse(path.read_text(encoding="utf-8"))


def write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: a temporary file in the same
    folder, flushed to disk, then renamed over ``path``."""
    import tempfile  # and with it random: only a command that writes pays for them

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if path.exists():
            try:
                os.chmod(tmp, path.stat().st_mode & 0o7777)
            except OSError:
                pass
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _sync_dir(path.parent)


def write_document(path: Path, doc: Any) -> None:
    import tomlkit

    write_text(path, tomlkit.dumps(doc))


def _sync_dir(folder: Path) -> None:
    """Make the rename itself durable (POSIX; nothing to do elsewhere)."""
    if os.name != "posix":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextmanager
def locked(folder: Path, name: str = LOCK_NAME) -> Iterator[None]:
    """Hold the exclusive lock of ``folder`` (created if need be) for a
    read–change–write; another process waits for it."""
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / name, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        _lock(fd)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _lock(fd: int) -> None:
    if sys.platform == "win32":  # pragma: no cover - Windows
        import msvcrt

        while True:
            try:
                msvcrt.locking(fd, msvcrt.LK_LOCK, 1)  # retries for about 10 s, then raises
                return
            except OSError:
                continue
    else:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX)

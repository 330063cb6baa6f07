"""Safe reading and writing of the user's TOML files.

* Reading uses the standard library's ``tomllib`` (``tomli`` before Python 3.11): a
  file broken by hand is one :class:`~rpgdice.core.errors.RulesError` naming the
  file, the line and the column, and nothing is ever written over it. A plain file (as
  rpgdice writes a sheet) is read by :func:`plain_toml`, the same table without
  importing ``tomllib``.
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

import errno
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from rpgdice.core.data import JSONObject
from rpgdice.core.errors import RulesError

if TYPE_CHECKING:
    from tomlkit import TOMLDocument

LOCK_NAME = ".lock"
"""The lock file, one per folder (``characters/.lock``, ``.config.lock`` beside config.toml)."""


def _toml():  # -> module
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    return tomllib


_AT = r"\s*\(at line (\d+), column (\d+)\)\s*$"
_AT_END = r"\s*\(at end of document\)\s*$"
"""Patterns of an error's message, compiled when a file is refused (not at import)."""


def broken(path: Path, problem: str) -> RulesError:
    """The one error of a file that cannot be used as it is."""
    return RulesError(str(path), f"{problem}; fix it by hand (rpgdice did not change it)")


def parse_error(path: Path, e: Exception, text: str) -> RulesError:
    """A TOML syntax error as ``FILE: line L, column C: what is wrong``."""
    message = str(e)
    line = getattr(e, "lineno", None)
    column = getattr(e, "colno", None)
    msg = getattr(e, "msg", None)
    m = re.search(_AT, message)
    if m:
        line, column = int(m.group(1)), int(m.group(2))
        message = message[: m.start()]
    elif re.search(_AT_END, message):
        message = re.sub(_AT_END, "", message)
        lines = text.splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
    if msg and isinstance(msg, str):
        message = msg
    if line is not None and message.lower().startswith("cannot overwrite a value"):
        message = _twice(text, line) or message
    where = f"line {line}, column {column}: " if line is not None else ""
    return broken(path, f"{where}{message[:1].lower()}{message[1:]}")


_HEADER = r"^\s*(\[\[?)\s*([^\]#]+?)\s*\]"
_KEY = (r"^\s*((?:[A-Za-z0-9_-]+|\"(?:[^\"\\]|\\.)*\"|'[^']*')"
        r"(?:\s*\.\s*(?:[A-Za-z0-9_-]+|\"(?:[^\"\\]|\\.)*\"|'[^']*'))*)\s*=")


def _twice(text: str, line: int) -> str | None:
    """TOML's "cannot overwrite a value" at ``line`` said as the key given twice and the
    line it was first given at (``outcomes[2].name``: a key of the second ``[[outcomes]]``);
    None when the line holds no plain ``key = value`` given before in the same table."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return None
    table, seen, arrays = "", dict[str, int](), dict[str, int]()
    for n, row in enumerate(lines[:line], 1):
        header, key = re.match(_HEADER, row), re.match(_KEY, row)
        if header and not key:
            name = "".join(header.group(2).split())
            if header.group(1) == "[[":
                arrays[name] = arrays.get(name, 0) + 1
                name = f"{name}[{arrays[name]}]"
            table, seen = name, {}
        elif key:
            said = "".join(key.group(1).split())
            if n == line:
                first = seen.get(said)
                whole = f"{table}.{said}" if table else said
                return (None if first is None else
                        f"{whole} is given twice (first at line {first})")
            seen.setdefault(said, n)
    return None


MAX_BYTES = 256 * 1024
"""The largest sheet or ``config.toml`` read (the README states it): a file is a few
hundred bytes; a bigger one is a mistake, and tomlkit takes seconds over megabytes."""


def failed(path: Path, e: OSError, doing: str = "read") -> RulesError:
    """An operating-system error on ``path`` as one usage error naming it (and, for a
    folder in the way, where the folder is set)."""
    import errno

    from rpgdice.table import paths

    home = paths.home_problem()
    if home is not None:
        return home
    why = e.strerror or str(e)
    if e.errno in (errno.ENOTDIR, errno.EEXIST):
        blocker = next((p for p in (path, *path.parents) if is_file(p)), None)
        if blocker is not None:
            return not_a_folder(blocker)
    if doing == "read":
        return RulesError(str(path), f"could not be read: {why}")
    hint = ""
    if e.errno in (errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOENT, errno.ENAMETOOLONG):
        hint = f"; make its folder writable, or set {paths.HOME_ENV} to a folder that is"
    return RulesError(str(path), f"could not be written: {why}; nothing was changed{hint}")


def not_a_folder(path: Path) -> RulesError:
    from rpgdice.table import paths

    return RulesError(str(path), "is a file where rpgdice keeps a folder; move it away, or set "
                      f"{paths.HOME_ENV} to another folder")


def is_file(path: Path) -> bool:
    try:
        return path.exists() and not path.is_dir()
    except OSError:
        return False


def read_text(path: Path) -> str | None:
    """The text of the regular file ``path`` (at most :data:`MAX_BYTES`), or None when
    there is no such file. Anything else (a folder, a FIFO, a device, a file too big,
    not UTF-8) is a usage error naming it; nothing ever blocks on it."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise broken(path, "is a folder, not a file") from None
    except OSError as e:
        raise failed(path, e) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise broken(path, "is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise broken(path, "is not a regular file (a pipe, a device...); rpgdice reads only files")
        if info.st_size > MAX_BYTES:
            raise too_big(path)
        data = os.read(fd, MAX_BYTES + 1)
        while len(data) <= MAX_BYTES:
            more = os.read(fd, MAX_BYTES + 1 - len(data))
            if not more:
                break
            data += more
        if len(data) > MAX_BYTES:
            raise too_big(path)
    except OSError as e:
        raise failed(path, e) from None
    finally:
        os.close(fd)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        column = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise broken(path, f"line {line}, column {column}: not UTF-8 text") from None


def too_big(path: Path) -> RulesError:
    return broken(path, f"is more than {MAX_BYTES // 1024} KiB, the most rpgdice reads of a file")


def read_toml(path: Path) -> JSONObject | None:
    """The table a TOML file holds, or None when there is no such file."""
    text = read_text(path)
    if text is None:
        return None
    return parse(path, text)


MAX_KEY_PARTS = 32
"""The most parts of a dotted key (``a.b.c`` has 3) read: a sheet's keys have one or two,
and the TOML readers take time in the square of a key's parts (one line of 20,000 took
seconds and gigabytes)."""
_QUOTED = r"\"(?:[^\"\\]|\\.)*\"|'[^']*'"


def _check_keys(path: Path, text: str) -> None:
    """A dotted key (or table header) of more than :data:`MAX_KEY_PARTS` parts is refused
    before any TOML reader sees it; quoted parts count as one."""
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        key = line[1:].split("]", 1)[0] if line.startswith("[") else line.split("=", 1)[0]
        if re.sub(_QUOTED, "x", key).count(".") >= MAX_KEY_PARTS:
            raise broken(path, f"line {n}: a key of more than {MAX_KEY_PARTS} dotted parts")


_PLAIN_LINE = (
    r"[ \t]*(?:(?P<key>[A-Za-z0-9_-]+)[ \t]*=[ \t]*(?:(?P<int>[+-]?(?:0|[1-9][0-9]*))"
    r"|\"(?P<basic>[^\"\\]*)\"|'(?P<literal>[^']*)'|(?P<bool>true|false))"
    r"|\[[ \t]*(?P<table>[A-Za-z0-9_-]+)[ \t]*\])?[ \t]*(?:#.*)?")
"""A line of a plain TOML file: blank, a comment, ``[table]``, or ``key = value`` (an
integer, a string without escapes, a boolean), each with an optional comment. This
module's patterns are compiled when first used (re's cache): a roll that reads no TOML
(a user's ruleset file's parsed copy is JSON) paid 0.8 ms for them at its start."""
_CONTROL = r"[\x00-\x08\x0a-\x1f\x7f]"
"""What no line of TOML holds (``\t`` aside): a character TOML refuses, or ``\r``."""


def plain_toml(text: str) -> JSONObject | None:
    """The table a plain TOML text holds (what a sheet, seats.toml or config.toml
    written by rpgdice is: bare keys, whole numbers, strings without escapes, booleans,
    ``[tables]`` of them), read without ``tomllib`` (whose import cost a roll at a sheet
    3 ms); None for any other text, which ``tomllib`` reads (or refuses) instead."""
    root: dict[str, object] = {}
    table = root
    for line in text.split("\n"):
        found = re.fullmatch(_PLAIN_LINE, line)
        if found is None or re.search(_CONTROL, line):
            return None
        key, name = found["key"], found["table"]
        if name is not None:
            if name in root:  # defined twice, or a key's name: tomllib says so
                return None
            table = root[name] = {}
        elif key is not None:
            if key in table:
                return None
            value: object = found["basic"] if found["basic"] is not None else found["literal"]
            if found["int"] is not None:
                value = int(found["int"])
            elif found["bool"] is not None:
                value = found["bool"] == "true"
            table[key] = value
    return root


def parse(path: Path, text: str) -> JSONObject:
    _check_keys(path, text)
    plain = plain_toml(text)
    if plain is not None:
        return plain
    toml = _toml()
    try:
        return toml.loads(text)
    except toml.TOMLDecodeError as e:
        raise parse_error(path, e, text) from None
    except RecursionError:
        raise broken(path, "nested too deeply (tables or arrays within each other)") from None


def read_document(path: Path) -> TOMLDocument:
    """The file as a ``tomlkit`` document (comments and layout kept), an empty one
    when there is no file. The text is checked with ``tomllib`` first, so a broken
    file is reported the same way whoever reads it."""
    import tomlkit

    text = read_text(path)
    if text is None:
        return tomlkit.document()
    return document(path, text)


def document(path: Path, text: str) -> TOMLDocument:
    """``text`` (``path``'s) as a ``tomlkit`` document, checked with ``tomllib`` first."""
    import tomlkit

    parse(path, text)
    try:
        return tomlkit.parse(text)
    except RecursionError:  # pragma: no cover - tomllib refuses it first
        raise broken(path, "nested too deeply (tables or arrays within each other)") from None


def check_writable(path: Path) -> None:
    """Refuse to change a file its owner made read-only (checked on the mode itself, so
    also when rpgdice runs as root, whom the system would let write)."""
    import stat

    try:
        info = os.stat(path)
    except FileNotFoundError:
        return
    except OSError as e:
        raise failed(path, e, "write") from None
    if stat.S_ISREG(info.st_mode) and not info.st_mode & stat.S_IWUSR:
        raise RulesError(str(path), f"is read-only (mode {stat.S_IMODE(info.st_mode):o}), so "
                         "rpgdice leaves it as it is; make it writable (chmod u+w) to change it")


def write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: a temporary file in the same
    folder, flushed to disk, then renamed over ``path``. A symbolic link is written
    through (its target changes; the link stays); a read-only file is refused; the
    temporary files a killed rpgdice left beside it are removed. Any failure (a full
    disk, a read-only file system) is a usage error naming the file, which is as it was."""
    check_writable(path)
    target = path
    try:
        target = Path(os.path.realpath(path)) if path.is_symlink() else path
        _write(target, text)
    except OSError as e:
        raise failed(target, e, "write") from None


def replace_file(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all, as a file of rpgdice's own: whatever
    stands at ``path`` (a link, a FIFO, a device's name) is replaced, never written through.
    An OSError when it cannot be (a folder there, a read-only file system)."""
    _write(path, text, keep_mode=False)


def _write(path: Path, text: str, keep_mode: bool = True) -> None:
    """``text`` in a new file beside ``path``, flushed to disk, renamed over ``path`` (a
    rename replaces a link itself, not its target); ``keep_mode``: with the mode of the
    file it replaces."""
    path.parent.mkdir(parents=True, exist_ok=True)
    _clean(path)
    fd, tmp = _temporary(path)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if keep_mode and path.exists():
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
    if keep_mode:
        _sync_dir(path.parent)


def _temporary(path: Path) -> tuple[int, str]:
    """A new file beside ``path``, ``.NAME.XXXXXXXXXXXX.tmp``, readable by the owner alone,
    as ``tempfile.mkstemp`` makes one (whose import, with ``random``'s, every roll that
    writes a sheet paid)."""
    for _ in range(100):
        tmp = str(path.parent / f".{path.name}.{os.urandom(6).hex()}.tmp")
        try:
            flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
            return os.open(tmp, flags | getattr(os, "O_CLOEXEC", 0), 0o600), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no temporary name free", str(path.parent))


def _clean(path: Path) -> None:
    """Remove the temporary files of ``path`` a killed write left (every write holds the
    folder's lock, so none is another's write in progress)."""
    try:
        for stray in path.parent.glob(f".{glob_escape(path.name)}.*.tmp"):
            try:
                stray.unlink()
            except OSError:
                pass
    except OSError:
        pass


def glob_escape(name: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", name)


def write_document(path: Path, doc: TOMLDocument | str) -> None:
    """Write a ``tomlkit`` document, or the text of one already made (a sheet's values
    changed in place: rpgdice.table.sheets), as :func:`write_text` does."""
    if isinstance(doc, str):
        write_text(path, doc)
        return
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
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise failed(folder, e, "write") from None
    try:
        fd = os.open(folder / name, os.O_RDWR | os.O_CREAT, 0o644)
    except IsADirectoryError:
        raise RulesError(str(folder / name), "is a folder; rpgdice keeps its lock file there: "
                         "remove the folder") from None
    except OSError as e:
        raise failed(folder / name, e, "write") from None
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

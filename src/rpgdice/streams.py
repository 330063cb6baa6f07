"""The standard streams of a run, made safe (see :mod:`rpgdice.entry`).

* A closed stream (``>&-``, ``2>&-``, ``<&-``): its descriptor is held by
  ``/dev/null`` so that no file the run opens can take its number. Writing to a
  closed stdout fails (exit 1, one line); a closed stderr only loses diagnostics, so
  the exit status is the command's own (``--version`` still exits 0).
* Output is written whole or fails: Python's buffered stdout can drop the rest of a
  write that the reader cut short (a pipe closed early) and still report success;
  here every write is looped until all of it is delivered, else it raises
  :class:`UndeliveredOutput`, and the run exits 1 with one line (``could not write
  the output: No space left on device``). A reader that closed the pipe early
  (``rpgdice --help | head``) is no error to report: the run exits 141, as a program
  ended by SIGPIPE does, and says nothing (:class:`ReaderLeft`).
* A character the stream's encoding cannot carry (``LC_ALL=C``, ``PYTHONIOENCODING=
  ascii``) becomes a plain-ASCII look-alike (``·`` -> ``.``, ``−`` -> ``-``, ``é`` ->
  ``e``) or ``?``, never an error.
"""

from __future__ import annotations

import codecs
import errno
import io
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing_extensions import Buffer

EXIT_UNDELIVERED = 1
"""Exit status when the output could not be written (a closed or full stream)."""
EXIT_READER_LEFT = 141
"""Exit status when the reader closed the pipe early (128 + SIGPIPE, as shells report a
program that signal ended): nothing is said on stderr (CLI.md, "Errors and exit status")."""
ERRORS = "rpgdice"
"""The codec error handler of the standard streams: ASCII look-alikes, else '?'."""


class UndeliveredOutput(OSError):
    """Output that could not be written to stdout (the reader left, the disk is full,
    the stream is closed)."""


class ReaderLeft(UndeliveredOutput):
    """The reader of stdout closed the pipe before all was written (EPIPE)."""


def reader_left(e: BaseException) -> bool:
    """Whether ``e`` is a write to a pipe whose reader has gone."""
    return isinstance(e, (ReaderLeft, BrokenPipeError)) or (
        isinstance(e, OSError) and e.errno == errno.EPIPE)


class _WholeWrites(io.RawIOBase):
    """A raw writer on a file descriptor that writes all it is given or raises
    :class:`UndeliveredOutput` (``os.write`` may write part of it)."""

    def __init__(self, fd: int, closed_stream: bool = False) -> None:
        super().__init__()
        self._fd = fd
        self._closed_stream = closed_stream

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return not self._closed_stream and os.isatty(self._fd)

    def write(self, data: Buffer) -> int:
        if self._closed_stream:
            raise UndeliveredOutput(errno.EBADF, "standard output is closed")
        size = data.nbytes if isinstance(data, memoryview) else memoryview(data).nbytes
        done = self._write(data)  # most writes go whole at once (a session's every line)
        if done < size:
            view = memoryview(data).cast("B")
            while done < size:
                done += self._write(view[done:])
        return done

    def _write(self, data: Buffer) -> int:
        """One ``os.write``: the bytes it wrote (none when a signal interrupted it)."""
        try:
            return os.write(self._fd, data)
        except InterruptedError:
            return 0
        except OSError as e:
            kind = ReaderLeft if e.errno == errno.EPIPE else UndeliveredOutput
            raise kind(e.errno, e.strerror) from None


def _closed(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return True
    return False


FALLBACKS = {
    "·": ".", "•": "*", "−": "-", "–": "-", "—": "-", "‐": "-", "…": "...", "×": "x",
    "≥": ">=", "≤": "<=", "→": "->", "←": "<-", "‘": "'", "’": "'", "“": '"', "”": '"',
    "«": '"', "»": '"', "χ": "chi", "α": "alpha", "✓": "v", "✗": "x", "\u00a0": " ",
    "↑": "^", "↓": "v",
}
"""Plain-ASCII look-alikes of the characters rpgdice writes, for streams that cannot
carry them."""


def _fallback(char: str) -> str:
    if char in FALLBACKS:
        return FALLBACKS[char]
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte of the command line
        return "?"
    if 0x2580 <= code <= 0x259F:  # block elements (bars)
        return "#"
    if 0x2500 <= code <= 0x257F:  # box drawing
        import unicodedata

        name = unicodedata.name(char, "")
        return "-" if "HORIZONTAL" in name else "|" if "VERTICAL" in name else "+"
    import unicodedata

    plain = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
    plain = "".join(FALLBACKS.get(c, c) for c in plain)
    return plain if plain.isascii() and plain.isprintable() and plain else "?"


def look_alikes(e: UnicodeError) -> tuple[str, int]:
    """A codec error handler: what cannot be encoded becomes ASCII look-alikes."""
    if not isinstance(e, UnicodeEncodeError):
        raise e
    return "".join(_fallback(c) for c in e.object[e.start:e.end]), e.end


codecs.register_error(ERRORS, look_alikes)


def _text(fd: int, like: object, closed: bool) -> io.TextIOWrapper:
    """A text stream on ``fd`` with ``like``'s encoding (the locale's or
    PYTHONIOENCODING's), writing whole or raising, never failing to encode."""
    encoding = getattr(like, "encoding", None) or "utf-8"
    raw = _WholeWrites(fd, closed_stream=closed)
    stream = io.TextIOWrapper(io.BufferedWriter(raw), encoding=encoding, errors=ERRORS,
                              line_buffering=bool(getattr(like, "line_buffering", False)))
    return stream


def prepare() -> None:
    """Hold every closed standard descriptor with /dev/null, and replace stdout and
    stderr with whole-writing, never-unencodable text streams."""
    closed = {fd: _closed(fd) for fd in (0, 1, 2)}
    for fd in (0, 1, 2):
        if closed[fd]:
            null = os.open(os.devnull, os.O_RDWR)  # the lowest free number: fd itself
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
    sys.stdout = _text(1, sys.stdout, closed[1])
    if closed[2]:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # diagnostics go nowhere
    else:
        err = _text(2, sys.stderr, False)
        err.reconfigure(line_buffering=True)
        sys.stderr = err


def finish(code: int) -> int:
    """Flush what is left; output that cannot be delivered makes the run a failure (a
    reader that left early: exit 141, nothing said)."""
    try:
        sys.stdout.flush()
    except OSError as e:
        if reader_left(e):
            return code if code == EXIT_READER_LEFT else code or EXIT_READER_LEFT
        _say_undelivered(e)
        code = code or EXIT_UNDELIVERED
    try:
        sys.stderr.flush()
    except OSError:
        pass
    return code


def _say_undelivered(e: OSError) -> None:
    try:
        sys.stderr.write(f"rpgdice: error: could not write the output: {e.strerror}\n")
        sys.stderr.flush()
    except OSError:
        pass

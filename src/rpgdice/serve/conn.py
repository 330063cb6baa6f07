"""The server's connections, bounded (#45 point 9, slowloris): a request's headers must
arrive within :data:`HEADER_TIMEOUT` seconds of its first byte (or of the connection), its
body within :data:`BODY_TIMEOUT` of its headers, one client address holds at most
:data:`PER_ADDRESS` connections at once, the process may open as many files as its hard
limit allows, and an error that repeats (a connection refused, ``accept()`` out of files,
an application's exception) is said in one bounded line per kind, never a traceback per
connection. Loaded by ``rpgdice serve`` alone (it needs uvicorn and h11)."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Optional

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIMEOUT = 10.0
"""Seconds a request's headers may take, from its first byte (or the connection's start)."""
BODY_TIMEOUT = 10.0
"""Seconds a request's body may take after its headers (a roll's is at most 8 KiB)."""
PER_ADDRESS = 64
"""Connections one client address may hold open at once (a table's phone holds a stream
and a request or two; a reverse proxy, all its players': see docs/serve.md)."""

OPEN: dict[str, int] = {}
"""Connections open now, by client address (the event loop's thread alone)."""


class Bounded(H11Protocol):
    """uvicorn's h11 protocol with the timeouts and the cap on connections per address."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.address: Optional[str] = None
        self.deadline: Optional[asyncio.TimerHandle] = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else "?"
        if OPEN.get(address, 0) >= PER_ADDRESS:
            said("connections", f"a client ({address}) holds {PER_ADDRESS} connections "
                 "already: more are closed at once")
            transport.abort()
            return
        OPEN[address] = OPEN.get(address, 0) + 1
        self.address = address
        self._arm(HEADER_TIMEOUT, "headers")

    def connection_lost(self, exc: Optional[Exception]) -> None:
        self._disarm()
        if self.address is not None:
            left = OPEN.get(self.address, 1) - 1
            if left > 0:
                OPEN[self.address] = left
            else:
                OPEN.pop(self.address, None)
            self.address = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        before = self.conn.their_state
        super().data_received(data)
        now = self.conn.their_state
        if now is h11.IDLE and self.deadline is None and not self.transport.is_closing():
            self._arm(HEADER_TIMEOUT, "headers")  # a request begun: its headers' deadline
        elif now is h11.SEND_BODY and before is not h11.SEND_BODY:
            self._arm(BODY_TIMEOUT, "body")
        elif now is not h11.IDLE and now is not h11.SEND_BODY:
            self._disarm()  # the request is whole (or the connection is done)

    def on_response_complete(self) -> None:
        if self.conn.their_state is not h11.SEND_BODY:  # answered before its body came
            self._disarm()  # idle now: uvicorn's keep-alive timeout closes it
        super().on_response_complete()

    def _arm(self, seconds: float, what: str) -> None:
        self._disarm()
        self.deadline = self.loop.call_later(seconds, self._late, what)

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _late(self, what: str) -> None:
        self.deadline = None
        if not self.transport.is_closing():
            said(f"slow {what}", f"a client's request {what} took over "
                 f"{HEADER_TIMEOUT if what == 'headers' else BODY_TIMEOUT:g} s: closed")
            self.transport.abort()


AGAIN = 60.0
"""Seconds before a kind of error already said is said again (with how many came since)."""
_said: dict[str, tuple[float, int]] = {}


def said(kind: str, text: str) -> bool:
    """Say ``text`` on stderr (one line, at most 200 characters) unless ``kind`` was said in
    the last :data:`AGAIN` seconds (then it is counted, and the next line says how many came
    meanwhile). Whether it was said."""
    import sys

    now = time.monotonic()
    last, count = _said.get(kind, (-AGAIN, 0))
    if now - last < AGAIN:
        _said[kind] = (last, count + 1)
        return False
    _said[kind] = (now, 0)
    more = f" ({count} more like it since)" if count else ""
    line = " ".join(f"rpgdice serve: {text}{more}".split())
    sys.stderr.write((line if len(line) <= 200 else line[:199] + "…") + "\n")
    sys.stderr.flush()
    return True


class OneLine(logging.Filter):
    """A logger's records (uvicorn's, asyncio's) said as :func:`said` says them: one line
    per kind of error, without its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        message = record.getMessage().splitlines()[0] if record.getMessage() else ""
        kind = f"{record.name}:{message[:60]}:{type(exc).__name__ if exc else ''}"
        said(kind, f"{message}{f' ({type(exc).__name__}: {exc})' if exc else ''}")
        return False


def quiet_logs() -> None:
    """uvicorn's and asyncio's loggers say one bounded line per kind of error."""
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "asyncio"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, OneLine) for f in logger.filters):
            logger.addFilter(OneLine())


def more_files() -> Optional[tuple[int, int]]:
    """Raise the process's limit of open files (``RLIMIT_NOFILE``) to its hard limit: the
    limits now (None where there are none to raise)."""
    try:
        import resource
    except ImportError:  # not on this system (Windows)
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 1 << 20
    for limit in (wanted, 1 << 16, 10240):  # macOS refuses more than its OPEN_MAX
        if soft != resource.RLIM_INFINITY and limit <= soft:
            break
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))
            break
        except (ValueError, OSError):
            continue
    return resource.getrlimit(resource.RLIMIT_NOFILE)

"""``rpgdice serve``'s ASGI app (Starlette): the page (``/``), ``/api/rolls`` and
``/events``, every one read-only (GET and HEAD only: no request changes anything) and, when
a token is set, refused with 403 unless the request carries it (``?token=``, or
``Authorization: Bearer``), compared in constant time."""

from __future__ import annotations

import asyncio
import hmac
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Optional

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from rpgdice.serve import follow
from rpgdice.serve.hub import CATCH_UP_BATCH, OVERFLOW, Hub, roll_event
from rpgdice.table.log import on_the_table

KEEPALIVE = 15.0
"""Seconds between two comment lines on an idle ``/events`` stream (proxies keep it open)."""
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; "
    "script-src 'unsafe-inline'; connect-src 'self'; img-src 'none'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
"""Every answer's: nothing is fetched from elsewhere, nothing framed, nothing cached."""


class Guard:
    """ASGI middleware: a wrong or missing token is 403 on every path; every answer gets
    :data:`HEADERS`."""

    def __init__(self, app: ASGIApp, token: Optional[str]) -> None:
        self.app, self.token = app, token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        if self.token is not None and not self.allowed(Request(scope)):
            return await _secured(PlainTextResponse("403: a token is needed (?token=...)",
                                                    status_code=403))(scope, receive, send)

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [
                    (k.lower().encode(), v.encode()) for k, v in HEADERS.items()
                    if k.lower().encode() not in have]
            await send(message)

        await self.app(scope, receive, with_headers)

    def allowed(self, request: Request) -> bool:
        assert self.token is not None
        given = request.query_params.get("token")
        if given is None:
            auth = request.headers.get("authorization", "")
            given = auth[7:] if auth.lower().startswith("bearer ") else None
        return given is not None and hmac.compare_digest(given.encode("utf-8", "replace"),
                                                         self.token.encode("utf-8"))


def _secured(response: Response) -> Response:
    response.headers.update(HEADERS)
    return response


class Table:
    """The server's state: the log's path, the hub, the follower, the Discord poster."""

    def __init__(self, log: Path, token: Optional[str], poster: Any = None,
                 poll: float = follow.POLL) -> None:
        self.log, self.token, self.poster = log, token, poster
        self.hub = Hub(follow.RECENT)
        self.follower = follow.Follower(log, self._entry, lambda t: self.hub.notice("log", t),
                                        poll=poll, on_tick=self._tick)
        self.ticks = 0

    def _entry(self, entry: dict[str, Any], revealed: bool) -> None:
        self.hub.entry(entry, revealed)
        if self.poster is not None and not entry["secret"]:
            self.poster.offer(entry, revealed)

    def _tick(self) -> None:
        self.ticks += 1
        if self.ticks % 2 == 1:  # the encounter, every other poll
            self.hub.set_encounter(encounter_html())

    def open(self) -> None:
        """Read what the page opens with (the newest rolls, the encounter), then follow."""
        reader = follow.Reader(self.log)
        last = seq = None
        try:
            seq = reader.last_reveal()
            entries = reader.newest(follow.RECENT)  # then followed from the last of them on
            for entry in entries:
                self.hub.entry(entry, False)
            last = entries[-1]["id"] if entries else 0
        except follow.Unreadable as e:
            self.hub.notice("log", str(e))
        finally:
            reader.close()
        self.hub.set_encounter(encounter_html())
        self.follower.start(last, seq)
        if self.poster is not None:
            self.poster.start()

    def close(self) -> None:
        self.follower.close()
        if self.poster is not None:
            self.poster.close()


def encounter_html() -> str:
    """The current encounter's view; a broken or unreadable one says so, never raises."""
    from html import escape

    from rpgdice.serve import views
    from rpgdice.table import encounter

    try:
        found = encounter.load()
        return views.encounter_html(None if found is None else encounter.state(found))
    except Exception as e:
        return f'<p class="notice">the encounter cannot be read: {escape(str(getattr(e, "message", None) or e))}</p>'


def make_app(table: Table) -> Starlette:
    hub = table.hub

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        await asyncio.to_thread(table.open)
        try:
            yield
        finally:
            await asyncio.to_thread(table.close)

    async def index(request: Request) -> Response:
        from rpgdice.serve.page import page

        return HTMLResponse(page(hub, table.token))

    async def rolls(request: Request) -> Response:
        after = _number(request.query_params.get("after", "0"), 0)
        limit = _number(request.query_params.get("limit", str(follow.BATCH)), 1)
        if after is None or limit is None or limit > follow.BATCH:
            return JSONResponse({"error": "after must be a whole number from 0, limit one "
                                 f"from 1 to {follow.BATCH}"}, status_code=400)
        try:
            found = await asyncio.to_thread(_read, table.log, after, limit)
        except follow.Unreadable as e:
            return JSONResponse({"error": str(e)}, status_code=503)
        return JSONResponse([on_the_table(e) for e in found])

    async def events(request: Request) -> Response:
        last = request.headers.get("last-event-id") or request.query_params.get("after")
        after = _number(last, 0) if last is not None else None
        if last is not None and after is None:
            return PlainTextResponse("Last-Event-ID (or after) must be a whole number",
                                     status_code=400)
        queue = hub.subscribe()
        if queue is None:
            return PlainTextResponse("503: too many open streams; try again soon",
                                     status_code=503, headers={"Retry-After": "5"})
        return StreamingResponse(_stream(table, queue, after), media_type="text/event-stream",
                                 headers={"X-Accel-Buffering": "no"})

    routes = [Route("/", index), Route("/api/rolls", rolls), Route("/events", events)]
    return Starlette(routes=routes, lifespan=lifespan)


def _number(text: Optional[str], low: int) -> Optional[int]:
    if text is None or not text.strip().isdigit() or len(text) > 18:
        return None
    value = int(text)
    return value if value >= low else None


def _read(log: Path, after: int, limit: int) -> list[dict[str, Any]]:
    if not log.exists():  # nothing logged yet
        return []
    reader = follow.Reader(log)
    try:
        return reader.after(after, limit)
    finally:
        reader.close()


def _missed(log: Path, after: int) -> list[tuple[int, str]]:
    """The events of the entries after ``after`` (at most a catch-up batch), made here
    in the reading thread."""
    return [roll_event(entry, False)[:2] for entry in _read(log, after, CATCH_UP_BATCH)]


async def _stream(table: Table, queue: asyncio.Queue[Any], after: Optional[int]
                  ) -> AsyncIterator[str]:
    """One client's events: the notices and the encounter, what it missed since ``after``
    (from the log), then whatever comes, until it goes; a client that falls too far behind
    (slow, or a burst of rolls) reads what it missed from the log, then joins again."""
    hub = table.hub
    sent = hub.last if after is None else after  # before the first yield: what comes while
    try:  # it is sent is in the queue
        yield "retry: 2000\n\n" + hub.notice_event() + hub.encounter_event()
        catching_up = after is not None
        while True:
            while catching_up:  # from the log, a batch at a time
                try:
                    missed = await hub.catch_up(lambda s: _missed(table.log, s), sent)
                except follow.Unreadable:  # said by the notice: the stream goes on
                    catching_up = False
                    break
                for ident, text in missed:
                    sent = ident
                    yield text
                catching_up = len(missed) == CATCH_UP_BATCH
            try:
                event = await asyncio.wait_for(queue.get(), KEEPALIVE)
            except asyncio.TimeoutError:
                yield ": keep-alive\n\n"
                continue
            if event is OVERFLOW:  # behind: what it missed is in the log
                rejoined = hub.subscribe()
                if rejoined is None:
                    return
                queue, catching_up = rejoined, True
                yield hub.notice_event() + hub.encounter_event()
                continue
            ident, revealed, text = event
            if ident is not None and not revealed and ident <= sent:
                continue  # already sent while catching up
            if ident is not None and not revealed:
                sent = ident
            yield text
    finally:
        hub.unsubscribe(queue)

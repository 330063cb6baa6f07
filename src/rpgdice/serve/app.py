"""``rpgdice serve``'s ASGI app (Starlette): the page (``/``), ``/api/rolls`` and
``/events``, read-only (GET and HEAD), and ``POST /api/roll``, a seat's (or the GM's) roll
made by the table (rolled in a small pool of worker threads of its own, so reads never wait
behind rolls); when a token is set, refused with 403 unless the request carries it
(``?token=``, or ``Authorization: Bearer``), compared in constant time."""

from __future__ import annotations

import asyncio
import hmac
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Optional, Protocol

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
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rpgdice.core.data import Loaded
from rpgdice.serve import follow, own
from rpgdice.serve.hub import (
    CATCH_UP_BATCH,
    CLOSED,
    OVERFLOW,
    PER_SEAT,
    Event,
    Given,
    Hub,
    roll_event,
    screen_event,
)
from rpgdice.table.log.entries import public

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from rpgdice.serve.discord import Poster
    from rpgdice.serve.secrecy import Held, TakeBack
    from rpgdice.table.seats import Seat, Watched


class Answered(Protocol):
    """A seat's roll as the roller answers it (rpgdice.cli.seated.Answer): an HTTP status
    and the JSON body."""

    @property
    def status(self) -> int: ...
    @property
    def body(self) -> Loaded: ...

ROLL_WORKERS, ODDS_WORKERS, READ_WORKERS = 4, 2, 4
"""Threads rolling the seats' lines (``POST /api/roll``), and computing their odds commands:
one roll and one odds command at a time (rpgdice.cli.seated), the others wait their turn
there, outside the reads' threads (and the rolls outside the odds'); and the reads' own
threads (``asyncio.to_thread``; by default a machine's cores and 4 more): each thread
keeps its stack's deepest pages and an allocator arena of its own."""
MALLOC_ARENAS = 2
"""The C allocator's arenas (glibc's ``M_ARENA_MAX``; by default 8 a core): memory a
thread freed stays in its own arena for that thread alone, so many arenas hold many
times what the server uses."""
TRIM_TICKS = 20
"""Polls of the log (:data:`~rpgdice.serve.follow.POLL` s each) between two returns of
the allocator's free memory to the system (``malloc_trim``), when entries came since."""
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
    """ASGI middleware: a request whose ``Host`` names none of :attr:`hosts` is 403 (DNS
    rebinding); a token that matches nothing is 403 on every path, and so is a missing one
    when reading needs one (a GM's ``--token``, or a host that is not loopback); every
    answer gets :data:`HEADERS`. Who asked (``"gm"``, a seat, or None) is put in the
    request's ``state.who``; the gm token of the GM's screen (``?gm=``, ``[gm] token`` in
    seats.toml), when it was that, in ``state.screen`` (its ``who`` is ``"gm"`` too)."""

    def __init__(self, app: ASGIApp, token: Optional[str], seats: Watched | None = None,
                 hosts: Optional[set[str]] = None, open_reads: Optional[bool] = None) -> None:
        self.app, self.token, self.seats, self.hosts = app, token, seats, hosts
        self.open_reads = token is None if open_reads is None else open_reads

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        request = Request(scope)
        if self.hosts is not None and not self.host_allowed(request):
            return await _secured(PlainTextResponse(
                "403: this server answers only its own addresses and names (Host)",
                status_code=403))(scope, receive, send)
        given = self.given(request)
        screen = given is not None and self.seats is not None and self.seats.is_gm(given)
        who = "gm" if screen else self.who(given) if given is not None else None
        if (given is not None and who is None) or (who is None and not self.open_reads):
            said = ("403: a token is needed (?token=...)" if given is None else
                    "403: this token is not one of this table's (a seat's link or the GM's "
                    "--token)")
            return await _secured(PlainTextResponse(said, status_code=403))(scope, receive,
                                                                             send)
        scope.setdefault("state", {})["who"] = who
        scope["state"]["screen"] = given if screen else None

        own = [] if who is None or who == "gm" else [
            (b"x-rpgdice-seat", who.name.encode("ascii", "replace"))]

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [
                    (k.lower().encode(), v.encode()) for k, v in HEADERS.items()
                    if k.lower().encode() not in have] + own
            await send(message)

        await self.app(scope, receive, with_headers)

    def host_allowed(self, request: Request) -> bool:
        from rpgdice.serve.hosts import host_part

        assert self.hosts is not None
        return host_part(request.headers.get("host", "")) in self.hosts

    @staticmethod
    def given(request: Request) -> Optional[str]:
        """The token a request carries: ``?token=``, ``?seat=``, ``?gm=`` or
        ``Authorization: Bearer``."""
        for key in ("token", "seat", "gm"):
            found = request.query_params.get(key)
            if found is not None:
                return found
        auth = request.headers.get("authorization", "")
        return auth[7:].strip() if auth.lower().startswith("bearer ") else None

    def who(self, given: str) -> Literal["gm"] | Seat | None:
        """``"gm"`` for the GM's token, the seat whose token it is, else None; every
        comparison in constant time."""
        gm = self.token is not None and hmac.compare_digest(
            given.encode("utf-8", "replace"), self.token.encode("utf-8"))
        seat = self.seats.by_token(given) if self.seats is not None else None
        return "gm" if gm else seat

    def allowed(self, request: Request) -> bool:
        given = self.given(request)
        return given is not None and (self.who(given) is not None or (
            self.seats is not None and self.seats.is_gm(given)))


def _said(entry: Loaded) -> bytes:
    """What an entry said again says (its results and envelopes), to compare: a digest,
    so that thousands of entries said again cost a few bytes each."""
    import hashlib
    import json

    said = json.dumps([entry.get("results"), entry.get("shown")], sort_keys=True, default=str)
    return hashlib.blake2b(said.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def _secured(response: Response) -> Response:
    response.headers.update(HEADERS)
    return response


class Table:
    """The server's state: the log's path, the hub, the follower, the Discord poster."""

    def __init__(self, log: Path, token: Optional[str], poster: Poster | None = None,
                 poll: float = follow.POLL, roller: Callable[..., Answered] | None = None,
                 odds_line: Callable[[str], bool] | None = None) -> None:
        self.log, self.token, self.poster = log, token, poster
        self.roller = roller
        """``roller(line, seat, gm=...)``: a seat's roll (rpgdice.cli.seated.roll_line,
        handed over by ``rpgdice serve``); None: the server rolls nothing."""
        self.rates = Rates()
        from concurrent.futures import ThreadPoolExecutor

        self.pool = ThreadPoolExecutor(ROLL_WORKERS, thread_name_prefix="rpgdice-roll")
        """The seats' rolls run here, never in the default executor the reads use: a
        long roll (or many waiting for one) leaves ``/api/rolls`` and ``/events`` free."""
        self.odds_pool = ThreadPoolExecutor(ODDS_WORKERS, thread_name_prefix="rpgdice-odds")
        """The seats' odds commands run here: waiting ones leave the rolls' threads free."""
        self.odds_line = odds_line
        """``odds_line(line)``: whether the line is an odds command (rpgdice.cli.seated)."""
        self.control: Callable[[str, Optional[str], Optional[int]], Answered] | None = None
        """``control(action, name, amount)``: the GM's screen's encounter control
        (rpgdice.cli.encounter.control, handed over by ``rpgdice serve``)."""
        self.hub = Hub(follow.RECENT, max_streams())
        self.seats: Watched | None = None
        """The seats as they are now (``rpgdice serve`` hands its own over): a stream of a
        seat removed or given a new link is ended at the next look at the log."""
        self.follower = follow.Follower(log, self._entry, lambda t: self.hub.notice("log", t),
                                        poll=poll, on_tick=self._tick,
                                        on_entries=self._entries)
        self.ticks = 0
        self.waiting = False
        """The encounter's view waits for a secret roll being made."""
        self.trimmed = self.follower.last
        lean_malloc()
        self.secrets = follow.Reader(log)
        """Reads the unrevealed secret entries, whose effects the page does not show."""
        self.lock = threading.Lock()
        self.held: Held | None = None
        self.held_key: tuple[tuple[int, ...], int] | None = None
        self.played: TakeBack | None = None
        self.stamp: tuple[int, Optional[int], int] | None = None
        """The log's :meth:`~rpgdice.serve.follow.Reader.stamp` when :attr:`held` was read."""
        self.generation = 0
        """Counts the plays begun anew (a reveal, a new secret roll, a log cleared): the
        entries said again are compared only then (a play fed on leaves them as said)."""
        self.resent = 0
        self.own_plays: dict[str, tuple[object, Held, Optional[TakeBack]]] = {}
        """By seat (its name's rpgdice.serve.own.key): what unrevealed secret rolls other
        than its own changed, when :attr:`held_key` was what it is, and the play that found
        it (fed on as the log grows)."""
        self.restated: dict[int, bytes] = {}
        """The public entries the page was sent said again (and what they said) (a secret roll before them is
        unrevealed): sent again as they are once it is revealed."""

    def seat_gone(self, token: Optional[str], screen: Optional[str] = None) -> bool:
        """Whether ``token`` is a seat's no more (removed, or given a new link), or
        ``screen`` the GM screen's token no more (``seat link --gm --new``)."""
        if screen is not None:
            return self.seats is None or not self.seats.is_gm(screen)
        return (token is not None and self.seats is not None
                and self.seats.by_token(token) is None)

    def take_back(self) -> Held:
        """What unrevealed secret rolls changed (serve/secrecy.py), read again only when
        the log changed (SQLite's ``data_version``: a new entry, a reveal, a clear) — an
        idle table reads nothing; from any thread."""
        from rpgdice.serve import secrecy

        with self.lock:
            try:
                stamp = self.secrets.stamp()
                if stamp == self.stamp and self.held is not None:
                    return self.held
                key = (tuple(secrecy.unrevealed(self.secrets)), self.secrets.last_id())
            except follow.Unreadable:
                return self.held or secrecy.NONE
            if key != self.held_key or self.held is None:
                played = self.played
                self.held, self.played = (secrecy.read(self.secrets, self.played) if key[0]
                                          else (secrecy.NONE, None))
                self.held_key = key
                if self.played is not played:  # not fed on: what was said again may differ
                    self.generation += 1
            self.stamp = stamp
            return self.held

    def take_back_for(self, seat: str) -> Held:
        """What unrevealed secret rolls changed that the seat whose name's key is ``seat``
        (rpgdice.serve.own.key) does not see: :meth:`take_back` without its own secret
        rolls (its sheet shows what they changed); from any thread."""
        from rpgdice.serve import secrecy

        held = self.take_back()
        if not held.hidden:
            return held
        with self.lock:
            held, key = self.held or held, self.held_key  # as last read, with its key
            cached = self.own_plays.get(seat)
            if cached is not None and cached[0] == key:
                return cached[1]
            hidden = sorted(held.hidden)
            mine = secrecy.owned(self.secrets, hidden, seat)
            if not mine:
                found, played = held, None
            elif mine >= held.hidden:
                found, played = secrecy.NONE, None
            else:
                before = cached[2] if cached is not None else None
                found, played = secrecy.read(self.secrets, before,
                                             [i for i in hidden if i not in mine])
            if len(self.own_plays) >= OWN_PLAYS and seat not in self.own_plays:
                self.own_plays.clear()  # seats gone or many: played anew when asked
            self.own_plays[seat] = (key, found, played)
            return found

    def public(self, entries: list[Loaded], seat: Optional[str] = None) -> list[Loaded]:
        """The entries as the table may see them (a public one said again while a secret
        roll before it is unrevealed); ``seat`` (a seat's name's rpgdice.serve.own.key):
        its own secret rolls said from the state it saw (:meth:`take_back_for`)."""
        if not entries:
            return entries
        held = self.take_back()
        mine: Held | None = None
        out = []
        for entry in entries:
            if seat is not None and own.owner(entry) == seat:
                mine = mine or self.take_back_for(seat)
                out.append(mine.entry(entry))
            else:
                out.append(held.entry(entry))
        return out

    def answer(self, body: Loaded, seat: Optional[str] = None) -> Loaded:
        """A seat's answer (``{"rolls": [...]}``, each roll's JSON with its entry ``id``,
        and ``shown``, its view's envelopes) as the seat may see it (``seat``: its name's
        rpgdice.serve.own.key): a roll made after an unrevealed secret one said again, its
        JSON and its envelopes alike, from the state the table saw and the seat's own
        secret rolls."""
        rolls = body.get("rolls")
        if not isinstance(rolls, list):
            return body
        held = self.take_back() if seat is None else self.take_back_for(seat)
        out = []
        said: Optional[Loaded] = None
        for n, obj in enumerate(rolls):
            ident = obj.get("id") if isinstance(obj, dict) else None
            found = held.entries.get(ident) if isinstance(ident, int) else None
            said = found if found is not None else said
            results = found.get("results") if found is not None else None
            if isinstance(results, list) and n < len(results) and isinstance(results[n], dict):
                obj = {**obj, **{k: v for k, v in results[n].items() if k in obj}}
            out.append(obj)
        body = {**body, "rolls": out}
        shown, restated = body.get("shown"), said.get("shown") if said is not None else None
        if isinstance(shown, dict) and isinstance(shown.get("envelopes"), list):
            envelopes = (restated.get("envelopes") if isinstance(restated, dict)
                         else shown["envelopes"])
            body["shown"] = {**shown, "envelopes": [  # what it did: the page's, never shown
                {k: v for k, v in e.items() if k != "held"} if isinstance(e, dict) else e
                for e in (envelopes if isinstance(envelopes, list) else [])]}
        return body

    def _entry(self, entry: Loaded, revealed: bool) -> None:
        self._entries([(entry, revealed)])

    def _entries(self, given: list[tuple[Loaded, bool]]) -> None:
        """A poll's batch of entries, handed on as the table may see them: what secret
        rolls changed is read once for the batch (the log is read after the batch was),
        and the batch goes to the hub at once."""
        held = self.take_back()
        shown: list[Given] = []
        for logged, revealed in given:
            shown.append(self._given(held, logged, revealed))
            entry = shown[-1][0]
            if self.poster is not None and not entry["secret"]:
                self.poster.offer(entry, revealed)
            elif self.poster is not None and not revealed:  # who rolled, nothing of what
                name = entry.get("character") or entry.get("seat") or "the GM"
                self.poster.queue.put((int(entry["id"]), f"{name}: a secret roll"))
        self.hub.entries(shown)

    def _given(self, held: Held, logged: Loaded, revealed: bool) -> Given:
        """An entry as the hub gets it: as the table may see it (a public one said again
        kept in :attr:`restated`), as logged (the GM's screen), and a seat's own secret
        roll as that seat saw it (rpgdice.serve.own)."""
        entry = held.entry(logged)
        if int(entry["id"]) in held.entries:
            self.restated[int(entry["id"])] = _said(held.entries[int(entry["id"])])
        seat = own.owner(logged)
        mine = None if seat is None else self.take_back_for(seat).entry(logged)
        return entry, revealed, _whole(logged, entry), mine

    def _tick(self) -> None:
        self.ticks += 1
        if self.seats is not None:  # a seat removed or renewed: its streams end now
            self.hub.close_seats({s.token for s in self.seats.current()}, self.seats.gm)
        if self.ticks % TRIM_TICKS == 0 and self.follower.last != self.trimmed:
            self.trimmed = self.follower.last  # a burst of rolls freed what it made
            trim_malloc()
        self._resend()
        every = max(1, round(follow.ENCOUNTER_EVERY / self.follower.poll))
        if self.ticks % every == 1 % every or self.waiting:  # the encounter, about once a second
            self._set_encounter()

    def _set_encounter(self) -> None:
        """The encounter's view sent, unless a secret roll is being made meanwhile (then
        the last one stays, and the next poll tries again)."""
        view = self.settled_encounter()
        self.waiting = view is None
        if view is not None:
            self.hub.set_encounter(view, screen_encounter_html())

    def settled_encounter(self) -> Optional[str]:
        """The encounter's view as the table may see it, or None while a secret roll is
        being made (it may have paid, its entry not yet logged: table/making.py), or when
        one was logged while the view was read."""
        from rpgdice.table import making

        try:
            if making.busy():
                return None
            with self.lock:
                first = self.secrets.last_id()
            view = self.encounter()
            with self.lock:
                last = self.secrets.last_id()
        except follow.Unreadable:
            return self.encounter()
        return None if making.busy() or first != last else view

    def _resend(self) -> None:
        """The entries sent said again whose secret was since revealed, sent again as the
        table may now see them — as logged, or said again from fewer secret rolls (the
        page replaces their cards; a client of ``/events`` reads them whole, as a
        revealed roll)."""
        if not self.restated:
            return
        held = self.take_back()
        if self.resent == self.generation:  # nothing said again can have changed
            return
        self.resent = self.generation
        for ident, said in sorted(self.restated.items()):
            now = held.entries.get(ident)
            if now is not None and _said(now) == said:
                continue
            try:
                with self.lock:  # the reader is the take-back's too
                    entry = self.secrets.get(ident)
            except follow.Unreadable:
                continue
            if now is None:
                del self.restated[ident]
            else:
                self.restated[ident] = _said(now)
            if entry is not None and not entry["secret"]:
                self.hub.entries([(held.entry(entry), True, entry)])

    def encounter(self) -> str:
        """The encounter's view as the table may see it: without what secret rolls did."""
        return encounter_html(self.take_back())

    def open(self) -> None:
        """Read what the page opens with (the newest rolls, the encounter), then follow."""
        reader = follow.Reader(self.log)
        last = seq = None
        try:
            seq = reader.last_reveal()
            entries = reader.newest(follow.RECENT)  # then followed from the last of them on
            held = self.take_back()
            for entry in entries:
                self.hub.entries([self._given(held, entry, False)])
            last = entries[-1]["id"] if entries else 0
        except follow.Unreadable as e:
            self.hub.notice("log", str(e))
        finally:
            reader.close()
        self._set_encounter()
        self.follower.start(last, seq)
        if self.poster is not None:
            self.poster.start()

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.odds_pool.shutdown(wait=False, cancel_futures=True)
        self.follower.close()
        self.secrets.close()
        if self.poster is not None:
            self.poster.close()


def read_pool() -> Executor:
    """The reads' threads (``asyncio.to_thread``), :data:`READ_WORKERS` of them."""
    from concurrent.futures import ThreadPoolExecutor

    return ThreadPoolExecutor(READ_WORKERS, thread_name_prefix="rpgdice-read")


def _libc() -> object | None:
    """The C library, when it is glibc (mallopt, malloc_trim); None elsewhere."""
    import ctypes
    import sys

    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL("libc.so.6")
        return libc if hasattr(libc, "malloc_trim") and hasattr(libc, "mallopt") else None
    except OSError:
        return None


def lean_malloc() -> None:
    """At most :data:`MALLOC_ARENAS` allocator arenas (glibc), set before the server's
    threads start; nothing elsewhere."""
    libc = _libc()
    if libc is not None:
        libc.mallopt(-8, MALLOC_ARENAS)  # type: ignore[attr-defined]  # M_ARENA_MAX


def trim_malloc() -> None:
    """Give the allocator's free memory back to the system (glibc); nothing elsewhere."""
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)  # type: ignore[attr-defined]


def _whole(logged: Loaded, seen: Loaded) -> Optional[Loaded]:
    """The entry as logged, when the GM's screen sees it otherwise than the table (a
    secret one, or one said again); None: the same."""
    return logged if logged.get("secret") or seen is not logged else None


def screen_encounter_html() -> str:
    """The encounter as the GM's screen shows it: as it truly stands, with its controls."""
    from html import escape

    from rpgdice.serve import gm_page
    from rpgdice.table import encounter

    try:
        found = encounter.load()
        return gm_page.encounter_html(None if found is None else encounter.state(found))
    except Exception as e:
        return f'<p class="notice">the encounter cannot be read: {escape(str(getattr(e, "message", None) or e))}</p>'


def encounter_html(held: Held | None = None) -> str:
    """The current encounter's view (``held``: what unrevealed secret rolls did, taken
    back out, a :class:`~rpgdice.serve.secrecy.Held`); a broken or unreadable one says so,
    never raises."""
    from html import escape

    from rpgdice.serve import secrecy, views
    from rpgdice.table import encounter

    try:
        found = encounter.load()
        if found is None:
            return views.encounter_html(None)
        state = encounter.state(found)
        return views.encounter_html(secrecy.public(state, held or secrecy.NONE, found.ruleset))
    except Exception as e:
        return f'<p class="notice">the encounter cannot be read: {escape(str(getattr(e, "message", None) or e))}</p>'


def make_app(table: Table) -> Starlette:
    hub = table.hub

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        hub.loop.set_default_executor(read_pool())
        await asyncio.to_thread(table.open)
        try:
            yield
        finally:
            await asyncio.to_thread(table.close)

    async def index(request: Request) -> Response:
        from rpgdice.serve.page import page

        who = getattr(request.state, "who", None)
        screen = getattr(request.state, "screen", None)
        given = Guard.given(request)
        key = ("seat" if request.query_params.get("seat") is not None else
               "gm" if screen is not None else "token")
        seat = None if who in (None, "gm") else who
        if screen is not None:
            seat = await asyncio.to_thread(_gm_seat)
        chars = None
        if seat is not None:
            from rpgdice.serve.page import characters

            chars = await asyncio.to_thread(characters, seat)
        return HTMLResponse(page(hub, given if who is not None else None, key=key, seat=seat,
                                 chars=chars, screen=screen is not None))

    async def roll(request: Request) -> Response:
        return await _roll(table, request)

    async def rolls(request: Request) -> Response:
        after = _number(request.query_params.get("after", "0"), 0)
        limit = _number(request.query_params.get("limit", str(follow.BATCH)), 1)
        if after is None or limit is None or limit > follow.BATCH:
            return JSONResponse({"error": "after must be a whole number from 0, limit one "
                                 f"from 1 to {follow.BATCH}"}, status_code=400)
        screen = getattr(request.state, "screen", None) is not None
        who = getattr(request.state, "who", None)
        owner = None if who is None or who == "gm" else own.key(who.name)
        try:
            found = await asyncio.to_thread(
                lambda: _read(table.log, after, limit) if screen
                else table.public(_read(table.log, after, limit), owner))
        except follow.Unreadable as e:
            return JSONResponse({"error": str(e)}, status_code=503)
        return JSONResponse([public(e) if screen else own.seen_by(e, owner) for e in found])

    async def events(request: Request) -> Response:
        return await _events(table, request)

    routes = [Route("/", index), Route("/api/rolls", rolls), Route("/events", events),
              Route("/api/roll", roll, methods=["POST"]), Route("/api/panel", _panel_route(table)),
              Route("/api/reveal", _on(table, _reveal), methods=["POST"]),
              Route("/api/encounter", _on(table, _control), methods=["POST"])]
    return Starlette(routes=routes, lifespan=lifespan)


async def _events(table: Table, request: Request) -> Response:
    """``GET /events``: a stream of the table's events (a seat's, at most
    :data:`~rpgdice.serve.hub.PER_SEAT` at once, ended when the seat goes)."""
    hub = table.hub
    last = request.headers.get("last-event-id") or request.query_params.get("after")
    after = _number(last, 0) if last is not None else None
    if last is not None and after is None:
        return PlainTextResponse("Last-Event-ID (or after) must be a whole number",
                                 status_code=400)
    who = getattr(request.state, "who", None)
    seat = None if who is None or who == "gm" else who.token
    screen = getattr(request.state, "screen", None)
    owner = None if who is None or who == "gm" else own.key(who.name)
    queue = hub.subscribe(seat, screen, owner)
    if queue is None and seat is not None and hub.seat_full(seat):
        return PlainTextResponse(f"429: this seat has {PER_SEAT} streams open (or the "
                                 "seats their share); close one", status_code=429,
                                 headers={"Retry-After": "5"})
    if queue is None:
        return PlainTextResponse("503: too many open streams; try again soon",
                                 status_code=503, headers={"Retry-After": "5"})
    return StreamingResponse(_stream(table, queue, after, seat, screen, owner),
                             media_type="text/event-stream",
                             headers={"X-Accel-Buffering": "no"})


def _on(table: Table, handler: Callable[[Table, Request], Awaitable[Response]]
        ) -> Callable[[Request], Awaitable[Response]]:
    """A route's endpoint: ``handler(table, request)``."""
    async def endpoint(request: Request) -> Response:
        return await handler(table, request)

    return endpoint


def _panel_route(table: Table) -> Callable[[Request], Awaitable[Response]]:
    async def panel(request: Request) -> Response:
        return await _panel(table, request)

    return panel


async def _panel(table: Table, request: Request) -> Response:
    """``GET /api/panel``: what the token may roll, as data (a seat's, its sheets as the
    table saw them, or the GM's)."""
    who = getattr(request.state, "who", None)
    if who is None:
        return JSONResponse({"error": "a seat's token is needed (Authorization: Bearer TOKEN)"},
                            status_code=403)
    from rpgdice.serve.panel import panel
    from rpgdice.table import making

    screen = getattr(request.state, "screen", None) is not None

    def made() -> Optional[Loaded]:  # the GM's screen alone sees the sheets as they are;
        if not screen and not making.settled(SETTLING):  # the --token (the TV's too) and a
            return None  # seat as the table saw them (its sheet may hold what it paid)
        if screen or who == "gm":  # a seat: and what its own secret rolls changed
            return panel(who, None if screen else table.take_back())
        return panel(who, table.take_back_for(own.key(who.name)))

    found = await asyncio.to_thread(made)
    if found is None:
        return JSONResponse({"error": "a secret roll is being made at the table; try again "
                             "in a moment"}, status_code=503, headers={"Retry-After": "1"})
    return JSONResponse(found)


OWN_PLAYS = 64
"""Seats whose own view of the secret rolls is kept at once (:meth:`Table.take_back_for`)."""
SETTLING = 5.0
"""The most seconds a seat's panel waits for a secret roll being made (503 beyond)."""


def max_streams() -> int:
    """The cap on ``/events`` streams: :data:`~rpgdice.serve.hub.MAX_STREAMS`, or a smaller
    one from ``RPGDICE_SERVE_MAX_STREAMS`` (1 or more; anything else is ignored)."""
    import os

    from rpgdice.serve.hub import MAX_STREAMS

    wanted = _number(os.environ.get("RPGDICE_SERVE_MAX_STREAMS"), 1)
    return min(wanted, MAX_STREAMS) if wanted is not None else MAX_STREAMS


def _number(text: Optional[str], low: int) -> Optional[int]:
    """A whole number written in ASCII digits alone (``²`` and ``٣`` are no number)."""
    if text is None or not (text.isascii() and text.isdigit()) or len(text) > 18:
        return None
    value = int(text)
    return value if value >= low else None


MAX_BODY = 8 * 1024
"""The most a ``POST /api/roll`` body may hold (413 beyond)."""
RATE, PER = 10, 10.0
"""A seat may send :data:`RATE` rolls in :data:`PER` seconds (429 beyond)."""


class Rates:
    """The requests each seat sent in the last :data:`PER` seconds (refused ones too)."""

    def __init__(self) -> None:
        self.sent: dict[str, list[float]] = {}

    def wait(self, name: str, now: Optional[float] = None) -> Optional[int]:
        """Seconds ``name`` must wait (None: this request may go, and is counted)."""
        import time

        now = time.monotonic() if now is None else now
        recent = [t for t in self.sent.get(name, []) if now - t < PER]
        if len(recent) >= RATE:
            self.sent[name] = recent
            return max(1, int(recent[0] + PER - now + 0.999))
        recent.append(now)
        self.sent[name] = recent
        if len(self.sent) > 4096:  # seats gone: forget the idle ones
            self.sent = {k: v for k, v in self.sent.items() if v and now - v[-1] < PER}
        return None

    def charge(self, name: str, more: int, now: Optional[float] = None) -> None:
        """Count ``more`` requests of ``name``'s now (what its odds cost)."""
        import time

        now = time.monotonic() if now is None else now
        self.sent.setdefault(name, []).extend([now] * min(more, RATE))


async def _roll(table: Table, request: Request) -> Response:
    """``POST /api/roll``: a seat's (or the GM's) line, rolled by the table."""
    who = getattr(request.state, "who", None)
    if who is None or table.roller is None:
        return JSONResponse({"error": "a seat's token is needed (Authorization: Bearer TOKEN)"},
                            status_code=403)
    gm = who == "gm"
    if not gm:
        wait = table.rates.wait(who.name)
        if wait is not None:
            return JSONResponse({"error": f"more than {RATE} rolls in {PER:g} seconds; "
                                 f"wait {wait} s"}, status_code=429,
                                headers={"Retry-After": str(wait)})
    data = await _json_body(request)
    if isinstance(data, Response):
        return data
    line = data.get("line") if isinstance(data, dict) else None
    if not isinstance(line, str):
        return JSONResponse({"error": 'the body is JSON: {"line": "roll 2d6"}'},
                            status_code=400)
    odds = table.odds_line is not None and table.odds_line(line)
    roller, seen = table.roller, None if gm else table.take_back
    answer = await (_odds(table, request, line, who) if odds else
                    asyncio.get_running_loop().run_in_executor(
                        table.pool, lambda: roller(line, None if gm else who, gm=gm,
                                                   seen=seen)))
    if answer is None:  # its client went away: nothing to answer
        return Response(status_code=499)
    said: Loaded = answer.body
    if not gm and answer.status == 200:  # a seat sees its roll as the table may see it
        said = await asyncio.to_thread(table.answer, said, own.key(who.name))
    return JSONResponse(said, status_code=answer.status)


async def _json_body(request: Request) -> Loaded | None | Response:
    """A POST's JSON body (None: no JSON), or the 413 answer to one over
    :data:`MAX_BODY`."""
    length = request.headers.get("content-length", "")
    if length and (not (length.isascii() and length.isdigit()) or int(length) > MAX_BODY):
        return JSONResponse({"error": f"the body is over {MAX_BODY} bytes"}, status_code=413)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return JSONResponse({"error": f"the body is over {MAX_BODY} bytes"},
                                status_code=413)
    import json

    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def _gm_seat() -> Seat:
    """The GM's screen's roll panel as a seat of every saved character (it rolls as any,
    or as none)."""
    from rpgdice.table import sheets
    from rpgdice.table.seats import Seat

    return Seat("GM", "", tuple(p.stem for p in sheets.names()))


def _screen_only(request: Request) -> Optional[Response]:
    """The 403 answer to a request that is not the GM screen's (``?gm=``/Bearer: the gm
    token), or None."""
    if getattr(request.state, "screen", None) is None:
        return JSONResponse({"error": "the GM's screen's token is needed (rpgdice seat link "
                             "--gm)"}, status_code=403)
    return None


async def _reveal(table: Table, request: Request) -> Response:
    """``POST /api/reveal`` ``{"id": ID}``: the GM's screen makes a secret (or blind)
    roll public, as ``rpgdice log reveal ID`` does."""
    refused = _screen_only(request)
    if refused is not None:
        return refused
    data = await _json_body(request)
    if isinstance(data, Response):
        return data
    ident = data.get("id") if isinstance(data, dict) else None
    if not isinstance(ident, int) or isinstance(ident, bool) or not 1 <= ident <= 2**62:
        return JSONResponse({"error": 'ID: the body is JSON: {"id": ID}, ID a whole number '
                             "from 1"}, status_code=400)
    status, said = await asyncio.to_thread(reveal_entry, table.log, ident)
    return JSONResponse({"id": ident, "said": said} if status == 200 else {"error": said},
                        status_code=status)


def reveal_entry(log: Path, ident: int) -> tuple[int, str]:
    """Reveal the entry ``ident`` of the log at ``log`` (the table's ``Log.reveal``, as
    ``log reveal`` does): an HTTP status and one line."""
    import sqlite3

    from rpgdice.table.log import Log, LogUnavailable, reason

    if not log.exists():
        return 404, f"ID: no entry {ident} in the roll log"
    try:
        opened = Log.open(write=True, path=log)
    except (LogUnavailable, sqlite3.Error, OSError) as e:
        return 503, f"the roll log cannot be written: {reason(e)}"
    assert opened is not None  # opened to write: made when missing
    try:
        if opened.get(ident) is None:
            return 404, f"ID: no entry {ident} in the roll log"
        done = opened.reveal(ident)
    except sqlite3.Error as e:
        return 503, f"the roll log cannot be written: {reason(e)}"
    finally:
        opened.release()
    return 200, (f"Entry {ident} is public now." if done
                 else f"Entry {ident} is already public; nothing changed.")


CONTROLS = ("next", "out", "back", "damage")
"""The encounter's controls on the GM's screen (``POST /api/encounter``)."""
MAX_AMOUNT = 9999
"""The most damage (or healing) one control deals: a number of thousands of digits would
be logged and said whole ("takes 1000…0 damage")."""


async def _control(table: Table, request: Request) -> Response:
    """``POST /api/encounter`` ``{"action": "next"|"out"|"back"|"damage", "name": NAME,
    "amount": N}``: the GM's screen changes the encounter as ``rpgdice encounter
    next|out|back`` do (and deals damage, or heals, an extra's), logged as they log."""
    refused = _screen_only(request)
    if refused is not None:
        return refused
    if table.control is None:
        return JSONResponse({"error": "this server changes no encounter"}, status_code=403)
    data = await _json_body(request)
    if isinstance(data, Response):
        return data
    data = data if isinstance(data, dict) else {}
    action, name, amount = data.get("action"), data.get("name"), data.get("amount")
    if action not in CONTROLS or (action != "next" and not isinstance(name, str)) or (
            action == "damage" and (not isinstance(amount, int) or isinstance(amount, bool)
                                    or not -MAX_AMOUNT <= amount <= MAX_AMOUNT)):
        return JSONResponse({"error": 'the body is JSON: {"action": "next"}, or "out"/"back" '
                             'with "name", or "damage" with "name" and "amount" (a whole '
                             f"number from -{MAX_AMOUNT} to {MAX_AMOUNT}; negative heals)"},
                            status_code=400)
    control = table.control
    answer = await asyncio.get_running_loop().run_in_executor(
        table.pool, lambda: control(action, name if isinstance(name, str) else None,
                                    amount if action == "damage" else None))
    if answer.status == 200:  # every page sees the change now, not at the next look
        await asyncio.to_thread(table._set_encounter)
    return JSONResponse(answer.body, status_code=answer.status)


GONE_CHECK = 0.2
"""Seconds between two looks at whether an odds line's client went away."""
ODDS_COST = 0.25
"""A seat's odds count one more request in its rate for each this many seconds of CPU they
took (``--compare`` and big pools cost what they cost)."""


async def _odds(table: Table, request: Request, line: str,
                who: Literal["gm"] | Seat) -> Optional[Answered]:
    """An odds line (or a roll with ``--odds``) in the odds threads, dropped while it waits
    there once its client went away (None then); its cost counted in the seat's rate."""
    gone = threading.Event()
    assert table.roller is not None
    roller = table.roller
    gm = who == "gm"
    seen = None if gm else table.take_back
    future = asyncio.get_running_loop().run_in_executor(
        table.odds_pool, lambda: roller(line, None if gm else who, gm=gm, seen=seen,
                                        gone=gone.is_set))
    while True:
        done, _ = await asyncio.wait({future}, timeout=GONE_CHECK)
        if done:
            break
        if await request.is_disconnected():
            gone.set()  # waiting for the odds lock: it computes nothing
            future.cancel()  # still in the queue: never runs
            return None
    answer: Answered = future.result()
    cost = float(getattr(answer, "cost", 0.0) or 0.0)
    if who != "gm" and cost >= ODDS_COST:
        table.rates.charge(who.name, int(cost / ODDS_COST))
    return answer


def _read(log: Path, after: int, limit: int) -> list[Loaded]:
    if not log.exists():  # nothing logged yet
        return []
    reader = follow.Reader(log)
    try:
        return reader.after(after, limit)
    finally:
        reader.close()


def _missed(table: Table, after: int, screen: bool = False, owner: Optional[str] = None
            ) -> list[tuple[int, str]]:
    """The events of the entries after ``after`` (at most a catch-up batch), made here
    in the reading thread, as the table may see them (``screen``: as the GM's screen
    does, whole; ``owner``: a seat's name's key, its own secret rolls whole)."""
    from rpgdice.serve.own import own_event
    from rpgdice.serve.own import owner as owner_of

    if screen:
        return [screen_event(entry, False)[:2]
                for entry in _read(table.log, after, CATCH_UP_BATCH)]
    return [(own_event if owner is not None and owner_of(entry) == owner
             else roll_event)(entry, False)[:2]
            for entry in table.public(_read(table.log, after, CATCH_UP_BATCH), owner)]


async def _stream(table: Table, queue: asyncio.Queue[Event], after: Optional[int],
                  seat: Optional[str] = None, screen: Optional[str] = None,
                  owner: Optional[str] = None) -> AsyncIterator[str]:
    """One client's events: the notices and the encounter, what it missed since ``after``
    (from the log), then whatever comes, until it goes; a client that falls too far behind
    (slow, or a burst of rolls) reads what it missed from the log, then joins again (as
    the seat ``seat``, its token, when a seat's; ``owner`` its name's key, its own secret
    rolls whole). A seat's ends when the seat is removed or given a new link; a GM's
    screen's (``screen``: its gm token) when a new one is made."""
    hub = table.hub
    sent = hub.last if after is None else after  # before the first yield: what comes while
    try:  # it is sent is in the queue
        yield ("retry: 2000\n\n" + hub.notice_event()
               + hub.encounter_event(screen=screen is not None))
        catching_up = after is not None
        while True:
            while catching_up:  # from the log, a batch at a time
                if table.seat_gone(seat, screen):
                    return
                try:
                    missed = await hub.catch_up(
                        lambda s: _missed(table, s, screen is not None, owner), sent)
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
            events = _queued(queue, event)
            if events[-1] is CLOSED:  # its seat is gone: not one event more
                return
            if events[-1] is OVERFLOW:  # behind: what it missed is in the log
                rejoined = hub.subscribe(seat, screen, owner)
                if rejoined is None:
                    return
                queue, catching_up = rejoined, True
                yield hub.notice_event() + hub.encounter_event(screen=screen is not None)
                continue
            texts = []
            for entry, revealed, text in events:
                if entry is not None and not revealed and entry <= sent:
                    continue  # already sent while catching up
                if entry is not None and not revealed:
                    sent = entry
                texts.append(text)
            if texts:
                yield "".join(texts)
    finally:
        hub.unsubscribe(queue)


SEND_AT_ONCE = 64
"""Events a stream sends in one write when that many are waiting in its queue."""


def _queued(queue: asyncio.Queue[Event], first: Event) -> list[Event]:
    """``first`` and the events waiting behind it in ``queue`` (at most
    :data:`SEND_AT_ONCE` in all), to be sent in one write: each write is a system call
    that lets go of the interpreter's lock, and taking it back behind a busy thread costs
    up to a switch interval (5 ms), so that a write per event had the streams fall
    seconds behind a burst of rolls. An overflow ends the list (what was queued before it
    is read from the log again), and so does the end of a seat's stream."""
    if first is OVERFLOW or first is CLOSED:
        return [first]
    events = [first]
    while len(events) < SEND_AT_ONCE and not queue.empty():
        event = queue.get_nowait()
        if event is OVERFLOW or event is CLOSED:
            return [event]
        events.append(event)
    return events

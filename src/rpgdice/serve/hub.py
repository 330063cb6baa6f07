"""What the server knows of the table and hands to its clients: the newest rolls as the page
shows them, the encounter, the notices (a log that cannot be read, a Discord post that
failed), and one queue per ``/events`` client. The follower's thread makes each event once
(its JSON, its HTML); the event loop hands it to every client without waiting for any: a
client whose queue is full (slow, or a burst of rolls) is dropped from the hub and reads
what it missed from the log, at its own pace, then joins again."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from typing import Optional

from rpgdice.core.data import Loaded
from rpgdice.serve import views
from rpgdice.serve.sse import dumps, events
from rpgdice.table.log import on_the_table

QUEUE = 256
"""Events a client may fall behind by before it reads the rest from the log instead."""
MAX_STREAMS = 256
"""``/events`` streams at once (more get 503 and try again): each holds a queue. The
environment variable ``RPGDICE_SERVE_MAX_STREAMS`` sets a smaller cap (the tests reach it
with a page or two); no option does."""
PER_SEAT = 4
"""``/events`` streams one seat's token may hold at once (a phone, a tablet, a laptop and
one reconnecting): one seat never takes every slot."""
SEATS_SHARE = 0.75
"""The part of :data:`MAX_STREAMS` the seats' streams may take together: the rest is kept
for the GM's screen and the plain page (the TV), always served."""
CATCH_UP = 2
"""Catch-up reads from the log at once, whoever asks: what they hold stays bounded however
many clients send ``Last-Event-ID`` together (the others wait their turn, and one that
left meanwhile never reads)."""
CATCH_UP_BATCH = 100
"""Entries a catch-up read gives at a time."""
Event = tuple[Optional[int], bool, str]
"""What a client's queue holds: an entry's ID (None: a notice, the encounter), whether it
is a reveal, the SSE text."""
OVERFLOW: Event = (None, True, "")
"""What a cut-off client's queue holds (this very tuple, never published): its stream ends."""
CLOSED: Event = (None, False, "")
"""What the queue of a stream whose seat was removed or given a new link holds (this very
tuple, never published): its stream ends at once, nothing more sent."""


def roll_event(entry: Loaded, revealed: bool) -> tuple[int, str, str]:
    """An entry's SSE events: the ``log --json`` object (a secret one's few keys), with the
    entry's ID as the event ID (not for a reveal, whose ID is older than those already
    sent), then the page's view of it (a ``view`` event)."""
    return events(entry, revealed, on_the_table(entry), views.entry_html(entry))


def screen_event(entry: Loaded, revealed: bool) -> tuple[int, str, str]:
    """An entry's SSE events as the GM's screen gets them: the ``log --json`` object whole
    (``secret`` and ``blind`` said), and its card whole, a hidden one marked
    (rpgdice.serve.gm_page)."""
    from rpgdice.serve import gm_page
    from rpgdice.table.log.entries import public

    return events(entry, revealed, public(entry), gm_page.entry_html(entry))


def _screen_of(logged: Optional[Loaded], revealed: bool) -> Optional[tuple[str, str]]:
    """The GM screen's events and card of an entry it sees whole (None: as the table
    does, or an entry no view reads)."""
    if logged is None:
        return None
    try:
        return screen_event(logged, revealed)[1:]
    except (KeyError, TypeError, ValueError):  # forged or partial: as the table sees it
        return None


def _own_of(entry: Loaded, revealed: bool) -> Optional[tuple[str, str, str]]:
    """The seat that sees ``entry`` whole (rpgdice.serve.own), its events and card of it
    (None: every seat sees it as the table does)."""
    from rpgdice.serve import own

    seat = own.owner(entry)
    if seat is None:
        return None
    try:
        return (seat, *own.own_event(entry, revealed)[1:])
    except (KeyError, TypeError, ValueError):  # forged or partial: as the table sees it
        return None


Given = (tuple[Loaded, bool] | tuple[Loaded, bool, Optional[Loaded]]
         | tuple[Loaded, bool, Optional[Loaded], Optional[Loaded]])
"""An entry handed to the hub: as the table may see it, whether it is a reveal, (when it
differs: a secret one, or one said again) the entry as logged, which the GM's screen
shows, and (a seat's own secret roll) the entry as that seat saw it (rpgdice.serve.own)."""
Own = Optional[tuple[str, str, str]]
"""The seat that sees an entry whole (its name's rpgdice.serve.own.key), its events and
its card (None: none)."""


class Hub:
    def __init__(self, recent: int, max_streams: int = MAX_STREAMS) -> None:
        self.max_streams = max_streams
        self.loop: Optional[asyncio.AbstractEventLoop] = None
        self.clients: dict[asyncio.Queue[Event], Optional[str]] = {}
        """Each client's queue, and the seat's token it was opened with (None: the GM's
        token or the plain page)."""
        self.screens: dict[asyncio.Queue[Event], str] = {}
        """The GM's screens' queues (among :attr:`clients`), and the gm token each was
        opened with: they get every roll whole."""
        self.screen_recent: dict[int, str] = {}
        """The GM screen's HTML of the entries of :attr:`recent` it sees otherwise."""
        self.screen_encounter = ""
        self.owners: dict[asyncio.Queue[Event], str] = {}
        """The seats' streams (among :attr:`clients`), and the seat's name (its
        rpgdice.serve.own.key): each gets its seat's own secret rolls whole."""
        self.own_recent: dict[int, tuple[str, str]] = {}
        """Of the entries of :attr:`recent` a seat sees whole (its own secret rolls), that
        seat and its card."""
        self.recent: OrderedDict[int, str] = OrderedDict()
        """The newest entries' HTML, by ID, oldest first (the page opens with them)."""
        self.size = recent
        self.notices: dict[str, Optional[str]] = {"log": None, "discord": None}
        self.encounter = ""
        self.last = 0
        self.reading: Optional[asyncio.Semaphore] = None

    # From the follower's thread -------------------------------------------------------

    def entry(self, entry: Loaded, revealed: bool) -> None:
        self.entries([(entry, revealed)])

    def entries(self, given: list[Given]) -> None:
        """Entries logged (``revealed`` False) or revealed (True), in order: their events
        made here, handed to the event loop at once (one wake-up of it for a poll's
        batch, not one for each roll). An entry the GM's screen sees otherwise (a secret
        one, one said again) comes with the entry as logged."""
        if given:
            made = []
            for entry, revealed, *more in given:
                ident, text, html = roll_event(entry, revealed)
                screen = _screen_of(more[0] if more else None, revealed)
                mine = more[1] if len(more) > 1 and more[1] is not None else entry
                made.append((ident, text, html, revealed, screen, _own_of(mine, revealed)))
            self._call(self._add_all, made)

    def notice(self, kind: str, text: Optional[str]) -> None:
        self._call(self._notice, kind, text)

    def set_encounter(self, html: str, screen: Optional[str] = None) -> None:
        """The encounter's view, and the GM screen's (None: the same)."""
        self._call(self._encounter, html, html if screen is None else screen)

    def _call(self, work: Callable[..., None], *args: object) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            work(*args)  # no loop yet (start-up): only the state changes
            return
        try:
            loop.call_soon_threadsafe(work, *args)
        except RuntimeError:  # the loop is closing: the server is stopping
            pass

    # On the event loop ---------------------------------------------------------------

    def _add_all(self, made: list[tuple[int, str, str, bool, Optional[tuple[str, str]], Own]]
                 ) -> None:
        for ident, text, html, revealed, screen, own in made:
            self._add(ident, html, text, revealed, screen, own)

    def _add(self, ident: int, html: str, text: str, revealed: bool,
             screen: Optional[tuple[str, str]] = None, own: Own = None) -> None:
        if not revealed or ident in self.recent:  # a reveal replaces its secret roll
            self.recent[ident] = html
            self.screen_recent.pop(ident, None)
            self.own_recent.pop(ident, None)
            if screen is not None:
                self.screen_recent[ident] = screen[1]
            if own is not None:
                self.own_recent[ident] = (own[0], own[2])
            while len(self.recent) > self.size:
                gone, _ = self.recent.popitem(last=False)
                self.screen_recent.pop(gone, None)
                self.own_recent.pop(gone, None)
        if not revealed:
            self.last = max(self.last, ident)
        self.publish((ident, revealed, text),
                     None if screen is None else (ident, revealed, screen[0]),
                     None if own is None else (own[0], (ident, revealed, own[1])))

    def screen_rolls(self) -> list[str]:
        """The newest entries' HTML as the GM's screen shows them, oldest first."""
        return [self.screen_recent.get(i, html) for i, html in self.recent.items()]

    def seat_rolls(self, name: str) -> list[str]:
        """The newest entries' HTML as the page of the seat named ``name`` shows them
        (its own secret rolls whole), oldest first."""
        from rpgdice.serve.own import key

        mine = key(name)
        return [self.own_recent[i][1] if self.own_recent.get(i, ("",))[0] == mine else html
                for i, html in self.recent.items()]

    def _notice(self, kind: str, text: Optional[str]) -> None:
        self.notices[kind] = text
        self.publish((None, True, self.notice_event()))

    def _encounter(self, html: str, screen: str) -> None:
        if html != self.encounter or screen != self.screen_encounter:
            self.encounter, self.screen_encounter = html, screen
            self.publish((None, True, self.encounter_event()),
                         (None, True, self.encounter_event(screen=True)))

    def notice_event(self) -> str:
        return f"event: notice\ndata: {dumps(self.notices)}\n\n"

    def encounter_event(self, screen: bool = False) -> str:
        html = self.screen_encounter if screen else self.encounter
        return f"event: encounter\ndata: {dumps({'html': html})}\n\n"

    def publish(self, event: Event, screen: Optional[Event] = None,
                own: Optional[tuple[str, Event]] = None) -> None:
        """``event`` to every client (``screen``, when given, to the GM's screens; ``own``,
        a seat's name's key and an event, to that seat's streams)."""
        for queue in list(self.clients):
            try:
                queue.put_nowait(screen if screen is not None and queue in self.screens
                                 else own[1] if own is not None
                                 and self.owners.get(queue) == own[0] else event)
            except asyncio.QueueFull:  # too slow: cut off, never waited for
                while not queue.empty():
                    queue.get_nowait()
                queue.put_nowait(OVERFLOW)
                self._drop(queue)  # nothing more goes to it

    def _drop(self, queue: asyncio.Queue[Event]) -> None:
        self.clients.pop(queue, None)
        self.screens.pop(queue, None)
        self.owners.pop(queue, None)

    def subscribe(self, seat: Optional[str] = None, screen: Optional[str] = None,
                  owner: Optional[str] = None) -> Optional[asyncio.Queue[Event]]:
        """A new client's queue, or None when ``max_streams`` (:data:`MAX_STREAMS`) are
        open — or, for a seat's token ``seat``, when :meth:`seat_full` says so. ``screen``:
        the gm token of a GM's screen (it gets every roll whole); ``owner``: the seat's
        name's key (rpgdice.serve.own.key; it gets its own secret rolls whole)."""
        if len(self.clients) >= self.max_streams or (seat is not None and self.seat_full(seat)):
            return None
        queue: asyncio.Queue[Event] = asyncio.Queue(maxsize=QUEUE)
        self.clients[queue] = seat
        if screen is not None:
            self.screens[queue] = screen
        if owner is not None:
            self.owners[queue] = owner
        return queue

    def seat_full(self, seat: str) -> bool:
        """Whether the seat whose token is ``seat`` holds :data:`PER_SEAT` streams, or the
        seats together their share of the slots (:data:`SEATS_SHARE`)."""
        owners = list(self.clients.values())
        return (owners.count(seat) >= PER_SEAT
                or sum(o is not None for o in owners) >= max(1, int(self.max_streams
                                                                    * SEATS_SHARE)))

    def close_seats(self, tokens: set[str], gm: Optional[str] = None) -> None:
        """End at once every stream of a seat whose token is not in ``tokens`` (removed, or
        given a new link), and of a GM's screen whose token is not ``gm``: from any
        thread."""
        self._call(self._close_seats, tokens, gm)

    def _close_seats(self, tokens: set[str], gm: Optional[str] = None) -> None:
        for queue, seat in list(self.clients.items()):
            screen = self.screens.get(queue)
            if (seat is not None and seat not in tokens) or (screen is not None
                                                              and screen != gm):
                while not queue.empty():
                    queue.get_nowait()
                queue.put_nowait(CLOSED)
                self._drop(queue)

    async def catch_up(self, read: Callable[[int], list[tuple[int, str]]], after: int
                       ) -> list[tuple[int, str]]:
        """``read(after)`` in a thread, at most :data:`CATCH_UP` such reads at once: a client
        that leaves while it waits its turn is cancelled before it reads anything."""
        if self.reading is None:
            self.reading = asyncio.Semaphore(CATCH_UP)
        async with self.reading:
            return await asyncio.to_thread(read, after)

    def unsubscribe(self, queue: asyncio.Queue[Event]) -> None:
        self._drop(queue)

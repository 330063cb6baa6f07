"""What the server knows of the table and hands to its clients: the newest rolls as the page
shows them, the encounter, the notices (a log that cannot be read, a Discord post that
failed), and one queue per ``/events`` client. The follower's thread makes each event once
(its JSON, its HTML); the event loop hands it to every client without waiting for any: a
client whose queue is full (slow, or a burst of rolls) is dropped from the hub and reads
what it missed from the log, at its own pace, then joins again."""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Callable
from typing import Optional

from rpgdice.core.data import Loaded
from rpgdice.serve import views
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


def dumps(data: object) -> str:
    """JSON for an SSE data line or a page's script: one line, no ``<`` (so no ``</script>``)."""
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")


def roll_event(entry: Loaded, revealed: bool) -> tuple[int, str, str]:
    """An entry's SSE events: the ``log --json`` object (a secret one's few keys), with the
    entry's ID as the event ID (not for a reveal, whose ID is older than those already
    sent), then the page's view of it (a ``view`` event)."""
    ident = int(entry["id"])
    head = "" if revealed else f"id: {ident}\n"
    html = views.entry_html(entry)
    text = (f"{head}data: {dumps(on_the_table(entry))}\n\n"
            f"event: view\ndata: {dumps({'id': ident, 'html': html})}\n\n")
    return ident, text, html


class Hub:
    def __init__(self, recent: int, max_streams: int = MAX_STREAMS) -> None:
        self.max_streams = max_streams
        self.loop: Optional[asyncio.AbstractEventLoop] = None
        self.clients: dict[asyncio.Queue[Event], Optional[str]] = {}
        """Each client's queue, and the seat's token it was opened with (None: the GM's
        token or the plain page)."""
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

    def entries(self, given: list[tuple[Loaded, bool]]) -> None:
        """Entries logged (``revealed`` False) or revealed (True), in order: their events
        made here, handed to the event loop at once (one wake-up of it for a poll's
        batch, not one for each roll)."""
        if given:
            made = [(*roll_event(entry, revealed), revealed) for entry, revealed in given]
            self._call(self._add_all, made)

    def notice(self, kind: str, text: Optional[str]) -> None:
        self._call(self._notice, kind, text)

    def set_encounter(self, html: str) -> None:
        self._call(self._encounter, html)

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

    def _add_all(self, made: list[tuple[int, str, str, bool]]) -> None:
        for ident, text, html, revealed in made:
            self._add(ident, html, text, revealed)

    def _add(self, ident: int, html: str, text: str, revealed: bool) -> None:
        if not revealed or ident in self.recent:  # a reveal replaces its secret roll
            self.recent[ident] = html
            while len(self.recent) > self.size:
                self.recent.popitem(last=False)
        if not revealed:
            self.last = max(self.last, ident)
        self.publish((ident, revealed, text))

    def _notice(self, kind: str, text: Optional[str]) -> None:
        self.notices[kind] = text
        self.publish((None, True, self.notice_event()))

    def _encounter(self, html: str) -> None:
        if html != self.encounter:
            self.encounter = html
            self.publish((None, True, self.encounter_event()))

    def notice_event(self) -> str:
        return f"event: notice\ndata: {dumps(self.notices)}\n\n"

    def encounter_event(self) -> str:
        return f"event: encounter\ndata: {dumps({'html': self.encounter})}\n\n"

    def publish(self, event: Event) -> None:
        for queue in list(self.clients):
            try:
                queue.put_nowait(event)
            except asyncio.QueueFull:  # too slow: cut off, never waited for
                while not queue.empty():
                    queue.get_nowait()
                queue.put_nowait(OVERFLOW)
                self.clients.pop(queue, None)  # nothing more goes to it

    def subscribe(self, seat: Optional[str] = None) -> Optional[asyncio.Queue[Event]]:
        """A new client's queue, or None when ``max_streams`` (:data:`MAX_STREAMS`) are
        open — or, for a seat's token ``seat``, when :meth:`seat_full` says so."""
        if len(self.clients) >= self.max_streams or (seat is not None and self.seat_full(seat)):
            return None
        queue: asyncio.Queue[Event] = asyncio.Queue(maxsize=QUEUE)
        self.clients[queue] = seat
        return queue

    def seat_full(self, seat: str) -> bool:
        """Whether the seat whose token is ``seat`` holds :data:`PER_SEAT` streams, or the
        seats together their share of the slots (:data:`SEATS_SHARE`)."""
        owners = list(self.clients.values())
        return (owners.count(seat) >= PER_SEAT
                or sum(o is not None for o in owners) >= max(1, int(self.max_streams
                                                                    * SEATS_SHARE)))

    def close_seats(self, tokens: set[str]) -> None:
        """End at once every stream of a seat whose token is not in ``tokens`` (removed, or
        given a new link): from any thread."""
        self._call(self._close_seats, tokens)

    def _close_seats(self, tokens: set[str]) -> None:
        for queue, seat in list(self.clients.items()):
            if seat is not None and seat not in tokens:
                while not queue.empty():
                    queue.get_nowait()
                queue.put_nowait(CLOSED)
                self.clients.pop(queue, None)

    async def catch_up(self, read: Callable[[int], list[tuple[int, str]]], after: int
                       ) -> list[tuple[int, str]]:
        """``read(after)`` in a thread, at most :data:`CATCH_UP` such reads at once: a client
        that leaves while it waits its turn is cancelled before it reads anything."""
        if self.reading is None:
            self.reading = asyncio.Semaphore(CATCH_UP)
        async with self.reading:
            return await asyncio.to_thread(read, after)

    def unsubscribe(self, queue: asyncio.Queue[Event]) -> None:
        self.clients.pop(queue, None)

"""``rpgdice serve --discord URL``: each public roll logged after the server started, and
each roll revealed, posted to a Discord webhook as its ``--short`` line, by a thread of its
own (the page never waits for Discord). Discord's limits are kept: a message's ``content``
is at most 2000 characters; a 429's ``retry_after`` (or ``Retry-After``) is waited out
before the post is tried again; other failures are retried a few times, then said on the
page and on stderr. Mentions are never parsed (a character named ``@everyone`` pings no one)."""

from __future__ import annotations

import http.client
import json
import queue
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import TYPE_CHECKING, Optional

from rpgdice import __version__
from rpgdice.render.short import DISCORD_LIMIT

if TYPE_CHECKING:
    from rpgdice.core.data import Loaded

TRIES = 5
"""Posts of one message before it is given up (429s aside, which wait as told)."""
MAX_WAITS = 20
"""429s one message waits out before it is given up."""
MAX_WAIT = 300.0
"""The longest a 429 is waited out, in seconds."""
TIMEOUT = 10.0
MAX_ANSWER = 64 * 1024
"""The most of an answer's body ever read (CLI.md: 64 KiB): a webhook answering without
end costs no memory."""


def message(entry: Loaded, revealed: bool) -> Optional[str]:
    """An entry's ``--short`` lines (one per result it kept: each says the result's
    verdict, as every view does), within Discord's limit. A
    change of the encounter (rpgdice.core.changes) is posted only when it is ``encounter
    next``, as its line (``Round 2 — Ghoul's turn``); the others are not posted (None)."""
    from rpgdice.core import changes
    from rpgdice.render.log import kind_of
    from rpgdice.render.short import line

    if changes.is_change(entry):
        said = changes.said(entry)
        if entry.get("command") != changes.command("next") or said is None:
            return None
        return said if len(said) <= DISCORD_LIMIT else said[:DISCORD_LIMIT - 1] + "…"

    lines = [line(entry["argv"], entry["character"], r, kind_of(entry, i)).plain
             for i, r in enumerate(entry["results"]) if isinstance(r, dict)]
    if entry["count"] > len(lines):
        lines.append(f"… and {entry['count'] - len(lines)} more")
    text = "\n".join(lines) or " ".join(entry["argv"])
    if revealed:
        text = f"revealed #{entry['id']}: {text}"
    return text if len(text) <= DISCORD_LIMIT else text[:DISCORD_LIMIT - 1] + "…"


class Poster:
    """Posts queued messages to ``url`` one after the other; ``on_notice(text or None)``
    hears of a failure (and of the next success), ``warn(text)`` writes it to stderr."""

    def __init__(self, url: str, on_notice: Callable[[Optional[str]], None],
                 warn: Callable[[str], None], backoff: float = 1.0) -> None:
        self.url, self.on_notice, self.warn, self.backoff = url, on_notice, warn, backoff
        self.queue: queue.Queue[Optional[tuple[int, str]]] = queue.Queue()
        self.stop = threading.Event()
        self.failed = False
        self.thread = threading.Thread(target=self._loop, name="rpgdice-discord", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def close(self) -> None:
        self.stop.set()
        self.queue.put(None)
        if self.thread.is_alive():
            self.thread.join(timeout=5)

    def offer(self, entry: Loaded, revealed: bool = False) -> None:
        text = message(entry, revealed)
        if text is not None:  # None: nothing to post (a change of the encounter)
            self.queue.put((int(entry["id"]), text))

    def _loop(self) -> None:
        while not self.stop.is_set():
            item = self.queue.get()
            if item is None:
                return
            ident, text = item
            try:
                problem = self.post(text)
            except Exception as e:  # never the thread's end: this post fails, the next is tried
                problem = f"{type(e).__name__}: {e}"[:200]
            if problem is None:
                if self.failed:
                    self.failed = False
                    self.on_notice(None)
            elif not self.stop.is_set():
                self.failed = True
                said = f"Discord: roll #{ident} was not posted: {problem}"
                self.on_notice(said)
                self.warn(said)

    def post(self, text: str) -> Optional[str]:
        """Post ``text``; None once posted, else why it was given up."""
        body = json.dumps({"content": text, "allowed_mentions": {"parse": []}}).encode()
        tries = waits = 0
        problem = "not tried"
        while not self.stop.is_set():
            request = urllib.request.Request(self.url, data=body, method="POST", headers={
                "Content-Type": "application/json",
                "User-Agent": f"rpgdice/{__version__} (rpgdice serve --discord)"})
            try:
                with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
                    answer.read(MAX_ANSWER)  # what is left unread is closed with the answer
                return None
            except urllib.error.HTTPError as e:
                if e.code == 429 and waits < MAX_WAITS:
                    waits += 1
                    self.stop.wait(min(MAX_WAIT, retry_after(e)))
                    continue
                problem = f"HTTP {e.code} {e.reason}"
                if 400 <= e.code < 500 and e.code != 429:
                    return problem  # the webhook refuses it: trying again changes nothing
            except (urllib.error.URLError, OSError, ValueError) as e:
                problem = str(getattr(e, "reason", None) or e)
            except http.client.HTTPException as e:  # IncompleteRead, BadStatusLine, LineTooLong
                problem = f"{type(e).__name__}: {e}"[:200]
            tries += 1
            if tries >= TRIES:
                return f"{problem} ({tries} tries)"
            self.stop.wait(self.backoff * 2 ** (tries - 1))
        return problem


def retry_after(e: urllib.error.HTTPError) -> float:
    """How long a 429 asks to wait, in seconds: its JSON's ``retry_after``, else its
    ``Retry-After`` header, else a second."""
    try:
        data = json.loads(e.read(MAX_ANSWER) or b"{}")
        value = float(data["retry_after"])
        if value >= 0:
            return value
    except (ValueError, KeyError, TypeError, OSError, RecursionError,
            http.client.HTTPException):
        pass
    try:
        return max(0.0, float(e.headers.get("Retry-After", "1")))
    except (TypeError, ValueError):
        return 1.0

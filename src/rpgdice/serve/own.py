"""A seat's own secret rolls (CLI.md, "Roll modes"): the exception to "Showing the table".
A seat's page, its ``/events`` and ``/api/rolls`` (with its token) show that seat's own
unrevealed ``--secret`` rolls whole, marked secret; its sheet shows what they changed
(rpgdice.serve.secrecy with those rolls left out of what is hidden). Every other page sees
"NAME: a secret roll" as before. A ``--blind`` roll, and a seat's roll held back with a
secret one (``held until the GM reveals #N``), stay hidden from the seat that rolled it.

A roll is the seat's own when its log entry's ``seat`` is that seat's name (its seat's
names are unique whatever their case). Only those entries differ from what the table sees:
the hub keeps their cards beside the public ones, not a copy of every card per seat."""

from __future__ import annotations

from html import escape
from typing import Optional

from rpgdice.core.data import Loaded

MARK = "secret: you and the GM see it"
"""What a seat's own secret card says beneath its header."""


def key(name: str) -> str:
    """A seat's name as entries are matched by it (seat names are unique whatever their case)."""
    return name.casefold()


def owner(entry: Loaded) -> Optional[str]:
    """The seat (:func:`key` of its name) that may see ``entry`` whole although the table
    may not: an unrevealed ``--secret`` roll of a seat's, neither blind nor held back with
    another secret roll. None: the entry is public, or no seat sees it whole."""
    seat = entry.get("seat")
    if not entry.get("secret") or entry.get("blind") or not isinstance(seat, str) or not seat:
        return None
    shown = entry.get("shown")
    if isinstance(shown, dict) and shown.get("held_until") is not None:
        return None
    return key(seat)


def entry_html(entry: Loaded) -> str:
    """A seat's own secret entry as its page shows it: the card whole, marked secret."""
    from rpgdice.serve import views

    try:
        card = views.entry_html({**entry, "secret": False})
    except Exception:  # stored data no view reads: the card the table sees
        return views.entry_html(entry)
    mark = f'<p class="hidden-mark own-secret">{escape(MARK)}</p>'
    card = card.replace('class="roll', 'class="roll hidden-roll', 1)
    at = card.find("</header>")
    return card[:at + 9] + mark + card[at + 9:] if at >= 0 else card + mark


def own_event(entry: Loaded, revealed: bool) -> tuple[int, str, str]:
    """A seat's own secret entry's SSE events as its streams get them: its ``log --json``
    object whole (``secret`` said), then its card whole, marked."""
    from rpgdice.serve.sse import events
    from rpgdice.table.log.entries import public

    return events(entry, revealed, public(entry), entry_html(entry))


def seen_by(entry: Loaded, seat: Optional[str]) -> Loaded:
    """An entry's ``log --json`` object as the seat whose :func:`key` is ``seat`` gets it
    (None: the table's), on ``/api/rolls``."""
    from rpgdice.table.log.entries import on_the_table, public

    return public(entry) if seat is not None and owner(entry) == seat else on_the_table(entry)

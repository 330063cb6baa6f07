"""Recording a command: :class:`Recorder` watches its results go by, keeps what the
entry stores, and adds the entry afterwards; a log that cannot be written costs a warning
line, never the roll."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING, Optional

from rpgdice.core.data import JSONObject
from rpgdice.table.log.entries import MAX_BYTES, MAX_RESULTS, Entry, _dumps, envelope
from rpgdice.table.log.store import LogUnavailable, _reason, write_entry

if TYPE_CHECKING:
    from rpgdice.core.envelope import Rolled


HELD_UNTIL: ContextVar[Optional[int]] = ContextVar("held_until", default=None)
"""While a seat's roll that depends on what an unrevealed secret roll changed is made
(rpgdice.cli.seated): that secret roll's ID, kept in the entry's ``shown`` as
``held_until`` (its card says "held until the GM reveals #N"; a reveal of either reveals
both: :meth:`rpgdice.table.log.store.Log.reveal`)."""


class Recorder:
    """Watches a command's results go by and records the command afterwards: each
    result's data, its record class, and what its view showed beside it (its envelope:
    the character line of ``--as``, an attack target's line and keys)."""

    def __init__(self, keys: JSONObject, faces: Optional[list[int]],
                 command: Optional[str] = None) -> None:
        self.keys = keys
        self.faces = faces
        self.command = command
        self.kept: list[JSONObject] = []
        self.texts: list[str] = []
        self.kinds: list[str] = []
        self.envelopes: list[Optional[JSONObject]] = []
        self.count = 0
        self.size = 0
        self.full = False

    def watch(self, results: Iterable[Rolled]) -> Iterator[Rolled]:
        """Each result goes by; only what the entry stores is kept (:func:`capped`'s
        bounds, as they come), so memory stays flat however many there are."""
        from rpgdice.core.data import to_data

        kept, keys = self.kept, self.keys
        for item in results:  # each a result and its envelope (rpgdice.core.envelope.Rolled)
            if not self.full:
                data = to_data(item.result)
                data.update(to_data(keys))
                data.update(to_data(item.envelope.json_keys()))  # every key --json printed
                text = _dumps(data)
                if len(kept) >= MAX_RESULTS or (kept and self.size + len(text) + 1 > MAX_BYTES):
                    self.full = True
                else:
                    kept.append(data)
                    self.texts.append(text)
                    self.size += len(text) + 1
                    self.kinds.append(type(item.result).__name__)
                    self.envelopes.append(envelope(item.envelope))
            self.count += 1
            yield item

    def save(self, argv: list[str], character: Optional[str],
             warn: Callable[[str], None], spec: Optional[JSONObject] = None,
             odds: Optional[JSONObject] = None, secret: bool = False,
             roll: Optional[JSONObject] = None, blind: bool = False) -> Optional[int]:
        """Add the entry (``secret``: a ``--secret`` roll); a log that cannot be written is one warning line (``warn``),
        and None. ``spec``/``odds``: the roll's exact odds spec and the ``--odds`` one,
        as data (None when there is none); ``roll``: the roll's value as data (stored
        when it fits, else NULL)."""
        if not self.kept:
            return None
        first = self.kept[0]
        kinds = self.kinds if len(set(self.kinds)) > 1 else self.kinds[:1]
        shown: Optional[JSONObject] = None
        if odds is not None or any(e is not None for e in self.envelopes):
            shown = {"odds": odds, "envelopes": self.envelopes}
        until = HELD_UNTIL.get()
        if until is not None:  # a seat's roll held back with the secret roll it depends on
            shown = {**(shown or {"odds": None, "envelopes": self.envelopes}),
                     "held_until": until}
        try:
            seed, outcome = self.keys.get("seed"), first.get("outcome")
            entry, aside = write_entry(Entry(
                argv=argv, character=character, ruleset=str(first.get("ruleset", "")),
                command=self.command or str(first.get("command", "")),
                seed=seed if isinstance(seed, int) else None,
                faces=self.faces, count=self.count,
                outcome=outcome if self.count == 1 and isinstance(outcome, str) else None,
                results=self.kept,
                kinds=kinds, spec=spec, shown=shown, texts=self.texts, secret=secret,
                roll=roll, blind=blind))
        except LogUnavailable as e:
            warn(f"the roll was not logged: {e}")
            return None
        except (sqlite3.Error, OSError) as e:
            warn(f"the roll was not logged: the roll log cannot be written: {_reason(e)}")
            return None
        if aside is not None:
            warn(f"the roll log was corrupt: it was set aside as {aside} and a new log begun")
        return entry


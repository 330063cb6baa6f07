"""What travels beside a result from the roll to the output and the log: who rolled and
what it paid, the attack target's side. The result records stay the engine's own
(frozen: nothing is set on them after the fact).

Plain slotted classes, not records: this loads with every roll, and a record class
costs more to make than these two do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from rpgdice.core.data import JSONObject

if TYPE_CHECKING:
    from rpgdice.core.record import Tagged

JSON_EXTRA = ("character", "spent", "left", "practiced")
"""Keys of a character's roll (``--as``) that JSON carries (``practiced``: a Cypher
``--skill`` the sheet does not list, so no step)."""


class Envelope:
    """``table``: the character line of ``--as`` (``character``, ``labels``, and where
    something was paid ``spent`` and ``left``); ``vs_table``: an attack target's line
    (``--vs``); ``vs_keys``: the target's JSON keys (``vs``, ``vs_spent``, ``vs_left``);
    ``held``: what the roll did to the table besides what was paid, as steps
    ``{"who": NAME, "before": {KEY: N, ...}, "change": {KEY: N, ...}}`` — the state it
    found and the change it made (an attack's damage, a recovery's points) — kept by the
    log so that the table's page can take a secret roll's effects back (serve/secrecy.py);
    never in JSON. Read-only once made."""

    __slots__ = ("table", "vs_table", "vs_keys", "held")

    table: Optional[JSONObject]
    vs_table: Optional[JSONObject]
    vs_keys: Optional[JSONObject]
    held: Optional[list[JSONObject]]

    def __init__(self, table: Optional[JSONObject] = None,
                 vs_table: Optional[JSONObject] = None,
                 vs_keys: Optional[JSONObject] = None,
                 held: Optional[list[JSONObject]] = None) -> None:
        set_ = object.__setattr__
        set_(self, "table", table)
        set_(self, "vs_table", vs_table)
        set_(self, "vs_keys", vs_keys)
        set_(self, "held", held)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"an envelope is not changed once made ({name})")

    def json_keys(self) -> JSONObject:
        """What a result's JSON gains from its envelope: the character's keys
        (:data:`JSON_EXTRA`) and the attack target's (``vs_keys``). The live ``--json``
        and the log's stored result both carry them."""
        out: JSONObject = {}
        if self.table is not None:
            out.update((k, v) for k, v in self.table.items() if k in JSON_EXTRA)
        if self.vs_keys is not None:
            out.update(self.vs_keys)
        return out

    def __repr__(self) -> str:
        return (f"Envelope(table={self.table!r}, vs_table={self.vs_table!r}, "
                f"vs_keys={self.vs_keys!r}, held={self.held!r})")


EMPTY = Envelope()


class Rolled:
    """One result and its envelope. Read-only once made."""

    __slots__ = ("result", "envelope")

    result: Tagged
    envelope: Envelope

    def __init__(self, result: Tagged, envelope: Envelope = EMPTY) -> None:
        object.__setattr__(self, "result", result)
        object.__setattr__(self, "envelope", envelope)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a rolled result is not changed once made ({name})")

    def __repr__(self) -> str:
        return f"Rolled({self.result!r}, {self.envelope!r})"

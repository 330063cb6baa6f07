"""What travels beside a result from the roll to the output and the log: who rolled and
what it paid, the attack target's side. The result records stay the engine's own
(frozen: nothing is set on them after the fact)."""

from __future__ import annotations

from typing import Any, Optional

from rpgdice.core.record import frozen


@frozen
class Envelope:
    """``table``: the character line of ``--as`` (``character``, ``labels``, and where
    something was paid ``spent`` and ``left``); ``vs_table``: an attack target's line
    (``--vs``); ``vs_keys``: the target's JSON keys (``vs``, ``vs_spent``, ``vs_left``)."""

    table: Optional[dict[str, Any]] = None
    vs_table: Optional[dict[str, Any]] = None
    vs_keys: Optional[dict[str, Any]] = None


EMPTY = Envelope()


@frozen
class Rolled:
    """One result and its envelope."""

    result: Any
    envelope: Envelope = EMPTY

"""JSON Lines: one object per result, keys as CLI.md fixes them."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import IO, TypeVar

from rpgdice.core.data import JSONObject, to_data
from rpgdice.core.jsontext import dumps

__all__ = ["to_data", "write"]

T = TypeVar("T")

CHUNK = 256
"""Lines written at a time: output starts at once and memory stays flat, even for
``--json -n 100000`` of a 1000-die pool."""


def write(
    results: Iterable[T], out: IO[str], extra: Callable[[T], JSONObject] | None = None,
    result: Callable[[T], object] | None = None,
) -> None:
    """One line per result, as they come; ``extra(item)`` adds keys to each object
    (``--odds``); ``result(item)``, when given, is the record of each item written
    (an item of the rolling loop is a result and its envelope)."""
    lines: list[str] = []
    for r in results:
        d = to_data(r if result is None else result(r))
        if extra is not None:
            d.update(to_data(extra(r)))
        lines.append(dumps(d, ensure_ascii=False) + "\n")
        if len(lines) >= CHUNK:
            out.write("".join(lines))
            lines.clear()
    out.write("".join(lines))

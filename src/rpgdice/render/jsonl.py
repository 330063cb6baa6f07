"""JSON Lines: one object per result, keys as CLI.md fixes them."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import IO, TypeVar

from rpgdice.core.data import JSONObject, to_data

__all__ = ["dumps", "to_data", "write"]

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
        lines.append(dumps(d) + "\n")
        if len(lines) >= CHUNK:
            out.write("".join(lines))
            lines.clear()
    out.write("".join(lines))


def dumps(value: object) -> str:
    """``json.dumps(value, ensure_ascii=False)``, written by the C encoder that ``json`` itself
    uses (``_json``), without importing the ``json`` package: its decoder and scanner,
    which a ``--json`` roll never reads with, cost every such roll 2 ms of its start. The
    ``json`` package's own ``dumps`` where the interpreter has no such encoder."""
    if _ENCODER is None:
        import json

        return json.dumps(value, ensure_ascii=False)
    make_encoder, encode_string = _ENCODER
    # The arguments json.encoder passes it (3.6 to 3.13): circular references checked, no
    # indent, ", " and ": ", keys unsorted, none skipped, NaN allowed.
    encode = make_encoder({}, _unknown, encode_string, None, ": ", ", ", False, False, True)
    return "".join(encode(value, 0))


def _unknown(value: object) -> object:
    """What ``json.dumps`` says of a value it cannot write."""
    raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")


def _c_encoder() -> tuple[Callable[..., Callable[[object, int], Iterable[str]]],
                          Callable[[str], str]] | None:
    try:
        from _json import encode_basestring, make_encoder
    except ImportError:  # an interpreter without the C accelerator
        return None
    return make_encoder, encode_basestring


_ENCODER = _c_encoder()

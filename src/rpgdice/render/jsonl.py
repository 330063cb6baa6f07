"""JSON Lines: one object per result, keys as CLI.md fixes them."""

from __future__ import annotations

import json
from dataclasses import fields, is_dataclass
from fractions import Fraction
from typing import IO, Any, Callable, Iterable


def to_data(obj: Any) -> Any:
    """A result dataclass as plain JSON data; a result class's ``RULESET`` and
    ``COMMAND`` become its ``ruleset`` and ``command`` keys; an exact probability
    (a :class:`~fractions.Fraction`) becomes the nearest float."""
    if is_dataclass(obj) and not isinstance(obj, type):
        data: dict[str, Any] = {}
        ruleset = getattr(type(obj), "RULESET", None)
        if ruleset is not None:
            data["ruleset"] = ruleset
            data["command"] = type(obj).COMMAND
        for f in fields(obj):
            data[f.name] = to_data(getattr(obj, f.name))
        return data
    if isinstance(obj, (list, tuple)):
        return [to_data(x) for x in obj]
    if isinstance(obj, dict):
        return {str(k): to_data(v) for k, v in obj.items()}
    if isinstance(obj, Fraction):
        return float(obj)
    return obj


def write(
    results: Iterable[Any], out: IO[str], extra: Callable[[Any], dict[str, Any]] | None = None
) -> None:
    """One line per result; ``extra(result)`` adds keys to each object (``--odds``)."""
    dumps = json.dumps

    def data(r: Any) -> Any:
        d = to_data(r)
        if extra is not None:
            d.update(to_data(extra(r)))
        return d

    out.write("".join(dumps(data(r), ensure_ascii=False) + "\n" for r in results))

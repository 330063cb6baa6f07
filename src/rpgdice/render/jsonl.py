"""JSON Lines: one object per result, keys as CLI.md fixes them."""

from __future__ import annotations

import json
from dataclasses import fields, is_dataclass
from typing import IO, Any, Iterable


def to_data(obj: Any) -> Any:
    """A result dataclass as plain JSON data; a result class's ``RULESET`` and
    ``COMMAND`` become its ``ruleset`` and ``command`` keys."""
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
    return obj


def write(results: Iterable[Any], out: IO[str]) -> None:
    dumps = json.dumps
    out.write("".join(dumps(to_data(r), ensure_ascii=False) + "\n" for r in results))

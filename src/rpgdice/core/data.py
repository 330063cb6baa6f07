"""Records as plain JSON data: what every ``--json`` object and every roll-log entry
is made of. (Back again: :mod:`rpgdice.core.rebuild`, on the log path only.)"""

from __future__ import annotations

import sys
from dataclasses import fields, is_dataclass
from typing import Any, TypeAlias, Union

JSONValue: TypeAlias = Union[None, bool, int, float, str, list["JSONValue"], dict[str, "JSONValue"]]
"""A value as JSON holds it."""
JSONObject: TypeAlias = dict[str, object]
"""A JSON object as built or read: a ``--json`` object, a log entry, a request's body. Its
values are JSON values (:data:`JSONValue`), typed ``object`` so that each read narrows them."""
Loaded: TypeAlias = dict[str, Any]
"""A JSON or TOML object read back as its format promises (a log entry, a stored result, a
ruleset file, a request's body): its readers index into it without narrowing each value."""

_SCALARS = (int, str, float, bool, type(None))
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
"""Field names per dataclass, looked up once: ``--json -n 100000`` of a 1000-die pool
converts 10**8 dice, and ``dataclasses.fields`` per object was most of the time."""


def to_data(obj: Any) -> Any:
    """A result dataclass as plain JSON data; a result class's ``RULESET`` and
    ``COMMAND`` become its ``ruleset`` and ``command`` keys; an exact probability
    (a :class:`~fractions.Fraction`) becomes the nearest float."""
    cls = type(obj)
    if cls in _SCALARS:
        return obj
    names = _FIELD_NAMES.get(cls)
    if names is None and is_dataclass(obj) and not isinstance(obj, type):
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(obj))
    if names is not None:
        data: JSONObject = {}
        ruleset = getattr(cls, "RULESET", None)
        if ruleset is not None:
            data["ruleset"] = ruleset
            data["command"] = cls.COMMAND
        for name in names:
            data[name] = to_data(getattr(obj, name))
        return data
    if isinstance(obj, (list, tuple)):
        return [to_data(x) for x in obj]
    if isinstance(obj, dict):
        return {str(k): to_data(v) for k, v in obj.items()}
    fractions = sys.modules.get("fractions")  # no Fraction exists unless it was imported
    if fractions is not None and isinstance(obj, fractions.Fraction):
        return float(obj)
    return obj

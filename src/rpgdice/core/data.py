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


_JUDGES: dict[type, Any] = {}
"""Per record class, its ruleset's verdict function, or None (no roll result: odds)."""


def judge(cls: type) -> Any:
    """The function giving a roll result of class ``cls`` its verdict and tone (its
    ruleset's :meth:`~rpgdice.rulesets.Ruleset.verdict`), or None: not a roll result (an
    odds record, a part of one) or a ruleset that says none. Looked up once a class."""
    if cls in _JUDGES:
        return _JUDGES[cls]
    from rpgdice.core import registry

    ruleset = getattr(cls, "RULESET", None)
    try:
        record = registry.get(ruleset) if registry.known(ruleset) else None
    except Exception:  # a ruleset file broken since: no verdict, and asked again next time
        return None
    found = None
    if record is not None and cls.__name__ in record.result_names():
        found = record.verdict()
    _JUDGES[cls] = found
    return found


def to_data(obj: Any) -> Any:
    """A result dataclass as plain JSON data; a result class's ``RULESET`` and
    ``COMMAND`` become its ``ruleset`` and ``command`` keys; an exact probability
    (a :class:`~fractions.Fraction`) becomes the nearest float. A roll result gets its
    verdict in its ruleset's words and its tone (:func:`judge`) as its ``verdict`` and
    ``tone`` keys, after its fields: the roll's one verdict (the rolls a roll type holds
    have none of their own, as their view shows none)."""
    data = _plain(obj)
    cls = type(obj)
    if getattr(cls, "RULESET", None) is not None and type(data) is dict:
        said = judge(cls)
        if said is not None:
            try:
                data["verdict"], data["tone"] = said(obj)
            except (LookupError, TypeError, AttributeError, ValueError):
                pass  # a record rebuilt from data forged into a shape no verdict reads
    return data


def _plain(obj: Any) -> Any:
    cls = type(obj)
    if cls in _SCALARS:
        return obj
    names = _FIELD_NAMES.get(cls)
    if names is None:
        if cls is list or cls is tuple:  # the plain containers first: no dataclass is one
            return [_plain(x) for x in obj]
        if cls is dict:
            return {str(k): _plain(v) for k, v in obj.items()}
        if is_dataclass(obj) and not isinstance(obj, type):
            names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(obj))
    if names is not None:
        data: JSONObject = {}
        ruleset = getattr(cls, "RULESET", None)
        if ruleset is not None:
            data["ruleset"] = ruleset
            data["command"] = cls.COMMAND
        for name in names:
            data[name] = _plain(getattr(obj, name))
        return data
    if isinstance(obj, (list, tuple)):
        return [_plain(x) for x in obj]
    if isinstance(obj, dict):
        return {str(k): _plain(v) for k, v in obj.items()}
    fractions = sys.modules.get("fractions")  # no Fraction exists unless it was imported
    if fractions is not None and isinstance(obj, fractions.Fraction):
        return float(obj)
    return obj

"""The process environment read as every roll reads it: :func:`environment`. Its own
module, importing nothing of rpgdice, so that the command line's check of each line (is
a character named, is the home joined to a table) reads it without loading the executor."""

from __future__ import annotations

import os
from typing import Any


def environment(name: str) -> str:
    """``os.environ.get(name, "")``, without a KeyError raised and caught for a name that
    is not set (the usual case, read at every roll: a session's lines read them again),
    and with each name encoded once."""
    data = getattr(os.environ, "_data", None)
    if type(data) is not dict:  # not the os module's own mapping
        return os.environ.get(name, "")
    key = _ENCODED.get(name)
    if key is None:
        key = _ENCODED[name] = os.environ.encodekey(name)
    value = data.get(key)
    return "" if value is None else os.environ.decodevalue(value)


_ENCODED: dict[str, Any] = {}
"""The names :func:`environment` read, as ``os.environ`` keeps them (bytes on POSIX)."""


def environment_key(names: tuple[str, ...]) -> tuple[Any, ...]:
    """The values of ``names`` as ``os.environ`` keeps them (bytes on POSIX, None where
    unset), undecoded: what changes when any of them does (a session's lines ask whether
    a path made of them must be worked out again)."""
    data = getattr(os.environ, "_data", None)
    if type(data) is not dict:
        return tuple(os.environ.get(name) for name in names)
    keys = _ENCODED_KEYS.get(names)
    if keys is None:
        keys = _ENCODED_KEYS[names] = tuple(os.environ.encodekey(name) for name in names)
    return tuple(map(data.get, keys))


_ENCODED_KEYS: dict[tuple[str, ...], tuple[Any, ...]] = {}
"""The names :func:`environment_key` read, each tuple encoded as :data:`_ENCODED`'s are."""

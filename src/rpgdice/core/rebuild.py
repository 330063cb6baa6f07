"""Records rebuilt from the plain data :func:`rpgdice.core.data.to_data` made of them:
the roll log re-shows an entry from what it stored, never by running its command
again. It reads each record's field types with :func:`typing.get_type_hints`, so it
costs a little and loads only on the log path.
"""

from __future__ import annotations

import sys
import types
import typing
from dataclasses import MISSING, fields, is_dataclass
from typing import Any, TypeVar, Union

T = TypeVar("T")


class BadData(ValueError):
    """Stored data that does not make the record it claims to be (a forged or corrupt
    log entry, or one of an older rpgdice): the message says where, in a few words."""


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        from fractions import Fraction  # annotations name it under TYPE_CHECKING only

        module = sys.modules.get(cls.__module__)
        namespace = {"Fraction": Fraction, **vars(module)} if module else {"Fraction": Fraction}
        hints = _HINTS[cls] = typing.get_type_hints(cls, globalns=namespace)
    return hints


def from_data(cls: type[T], data: Any, where: str = "") -> T:
    """The record ``cls`` that :func:`to_data` made ``data`` of: nested records, lists,
    tuples, Optional, unions and dicts rebuilt from the field types. Keys that are no
    field (``ruleset``, ``command``, ``seed``...) are left aside; a missing field takes
    its default. Anything else wrong is a :class:`BadData`, never another exception
    (the record's own checks, a RulesError, count as bad data too)."""
    if not isinstance(data, dict):
        raise BadData(f"{where or cls.__name__}: not an object")
    hints = _hints(cls)
    values: dict[str, Any] = {}
    for f in fields(cls):  # type: ignore[arg-type]
        if not f.init:
            continue
        if f.name not in data:
            if f.default is MISSING and f.default_factory is MISSING:
                raise BadData(f"{where or cls.__name__}: {f.name} is missing")
            continue
        values[f.name] = _value(hints[f.name], data[f.name], f"{where or cls.__name__}.{f.name}")
    try:
        return cls(**values)
    except (ValueError, TypeError, ArithmeticError) as e:  # RulesError is a ValueError
        raise BadData(f"{where or cls.__name__}: {e}") from None


_UNIONS: tuple[Any, ...] = (Union, getattr(types, "UnionType", Union))


def _value(hint: Any, value: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is Any:
        return value
    if origin in _UNIONS:
        return _union(args, value, where)
    if hint is type(None) or hint is None:
        if value is not None:
            raise BadData(f"{where}: not null")
        return None
    if isinstance(hint, type) and is_dataclass(hint):
        return from_data(hint, value, where)
    if origin in (list, tuple, dict) or hint in (list, tuple, dict):
        return _container(origin or hint, args, value, where)
    if hint is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    elif hint in (int, str, bool):
        if type(value) is hint:
            return value
    elif getattr(hint, "__name__", "") == "Fraction":
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            from fractions import Fraction

            return Fraction(value)
    else:
        return value  # a type this module does not know: kept as stored
    raise BadData(f"{where}: not {getattr(hint, '__name__', hint)}")


def _union(args: tuple[Any, ...], value: Any, where: str) -> Any:
    if value is None and type(None) in args:
        return None
    last: BadData | None = None
    for arg in args:
        if arg is type(None):
            continue
        try:
            return _value(arg, value, where)
        except BadData as e:
            last = e
    raise last or BadData(f"{where}: no value fits")


def _container(kind: Any, args: tuple[Any, ...], value: Any, where: str) -> Any:
    if kind is dict:
        if not isinstance(value, dict):
            raise BadData(f"{where}: not an object")
        key, item = args or (Any, Any)
        return {_key(key, k, where): _value(item, v, f"{where}[{k}]") for k, v in value.items()}
    if not isinstance(value, list):
        raise BadData(f"{where}: not a list")
    if kind is list:
        item = args[0] if args else Any
        return [_value(item, v, f"{where}[{i}]") for i, v in enumerate(value)]
    if len(args) == 2 and args[1] is Ellipsis or not args:
        item = args[0] if args else Any
        return tuple(_value(item, v, f"{where}[{i}]") for i, v in enumerate(value))
    if len(args) != len(value):
        raise BadData(f"{where}: {len(value)} items, not {len(args)}")
    return tuple(_value(a, v, f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, value)))


def _key(hint: Any, key: str, where: str) -> Any:
    if hint is int:
        try:
            return int(key)
        except ValueError:
            raise BadData(f"{where}: key {key!r} is not a number") from None
    return key

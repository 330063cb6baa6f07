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


_HINTS: dict[type, dict[str, object]] = {}


def _hints(cls: type) -> dict[str, object]:
    hints = _HINTS.get(cls)
    if hints is None:
        from fractions import Fraction  # annotations name it under TYPE_CHECKING only

        namespace: dict[str, object] = {"Fraction": Fraction}
        for base in reversed(cls.__mro__):  # a generic base's fields name its module's types
            module = sys.modules.get(base.__module__)
            if module is not None:
                namespace.update(vars(module))
        hints = typing.get_type_hints(cls, globalns=namespace)
        bound = _bound(cls)
        hints = _HINTS[cls] = {k: _substitute(v, bound) for k, v in hints.items()} if bound else hints
    return hints


def _bound(cls: type) -> dict[object, object]:
    """The type variables of ``cls``'s generic bases, each to the type the class gives it
    (``ReglasContestResult(ContestResult[ReglasResult])``: ``R`` to ``ReglasResult``)."""
    bound: dict[object, object] = {}
    for klass in cls.__mro__:
        for base in getattr(klass, "__orig_bases__", ()):
            origin = typing.get_origin(base)
            params = getattr(origin, "__parameters__", ())
            for param, arg in zip(params, typing.get_args(base)):
                bound.setdefault(param, arg)
    return bound


def _substitute(hint: object, bound: dict[object, object]) -> object:
    if isinstance(hint, typing.TypeVar):
        return bound.get(hint, Any)
    args = typing.get_args(hint)
    if not args:
        return hint
    new = tuple(_substitute(a, bound) for a in args)
    if all(a is b for a, b in zip(new, args)):
        return hint
    origin = typing.get_origin(hint)
    if origin in _UNIONS:
        return Union[new]
    assert origin is not None  # a hint with arguments has an origin
    return origin[new if len(new) > 1 else new[0]]


def from_data(cls: type[T], data: object, where: str = "") -> T:
    """The record ``cls`` that :func:`to_data` made ``data`` of: nested records, lists,
    tuples, Optional, unions and dicts rebuilt from the field types. Keys that are no
    field (``ruleset``, ``command``, ``seed``...) are left aside; a missing field takes
    its default. Anything else wrong is a :class:`BadData`, never another exception
    (the record's own checks, a RulesError, count as bad data too)."""
    if not isinstance(data, dict):
        raise BadData(f"{where or cls.__name__}: not an object")
    hints = _hints(cls)
    values: dict[str, object] = {}
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


_UNIONS: tuple[object, ...] = (Union, getattr(types, "UnionType", Union))


def _value(hint: object, value: object, where: str) -> object:
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


def _union(args: tuple[object, ...], value: object, where: str) -> object:
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


def _container(kind: object, args: tuple[object, ...], value: object, where: str) -> object:
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


def _key(hint: object, key: str, where: str) -> object:
    if hint is int:
        try:
            return int(key)
        except ValueError:
            raise BadData(f"{where}: key {key!r} is not a number") from None
    return key

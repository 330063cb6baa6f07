"""The exact odds of a roll as a value: :class:`ExactOdds`, a function of a ruleset's
``odds.py`` and its arguments, computed only when called (icepool loads on the odds
path alone), kept by the roll log as data for ``log stats``."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from rpgdice.core.data import JSONObject


class _Records(Protocol):
    """What an odds spec's arguments are rebuilt with: the ruleset's record classes."""

    @property
    def name(self) -> str: ...

    def record_class(self, name: str) -> type: ...


_known = threading.local()
"""Odds computed already, by :attr:`ExactOdds.key`, in this thread (:func:`known`)."""


@contextmanager
def known(results: dict[str, object]) -> Iterator[None]:
    """Within it, in this thread, an :class:`ExactOdds` whose key is in ``results`` gives
    that instead of computing it again (the table's server computes a roll's odds beside
    the rolls, then rolls it with them known)."""
    before = getattr(_known, "results", None)
    _known.results = results
    try:
        yield
    finally:
        _known.results = before


class ExactOdds:
    """The exact odds of a roll (``function(*args, **kwargs)``: one of the odds functions a
    command of ``ruleset`` declares, each its ``odds.py``'s, imported at its first call),
    computed only when called, so the odds engine and icepool load on the odds path
    alone. ``key`` names the computation (``log stats`` computes each distinct one once)."""

    __slots__ = ("ruleset", "call", "args", "kwargs")

    def __init__(self, ruleset: str, function: Callable[..., object], *args: object,
                 **kwargs: object) -> None:
        self.ruleset, self.call, self.args, self.kwargs = ruleset, function, args, kwargs

    @property
    def function(self) -> str:
        """The function's name, as the log stores it."""
        return str(getattr(self.call, "__name__", ""))

    def __call__(self) -> object:
        found = getattr(_known, "results", None)
        if found:
            key = self.key
            if key in found:
                return found[key]
        return self.call(*self.args, **self.kwargs)

    @property
    def key(self) -> str:
        return repr((self.function, self.args, sorted(self.kwargs.items())))

    def data(self) -> JSONObject:
        """The spec as plain data, for the roll log: a record argument as its class name
        and its fields (:func:`from_data` rebuilds it)."""
        return {"ruleset": self.ruleset, "function": self.function,
                "args": [_arg_data(a) for a in self.args],
                "kwargs": {k: _arg_data(v) for k, v in self.kwargs.items()}}

    @classmethod
    def from_data(cls, data: object) -> ExactOdds:
        """The spec :meth:`data` stored; a :class:`~rpgdice.core.data.BadData` when the
        data makes none (forged, or of another rpgdice). Nothing is computed here."""
        from rpgdice.core import registry as rulesets
        from rpgdice.core.rebuild import BadData

        try:
            if not isinstance(data, dict):
                raise TypeError  # as indexing it would
            ruleset = rulesets.get(data["ruleset"])
            function, args, kwargs = data["function"], data["args"], data["kwargs"]
            if not (isinstance(function, str) and function.isidentifier()
                    and isinstance(args, list) and isinstance(kwargs, dict)):
                raise TypeError
        except (KeyError, TypeError):
            raise BadData("the odds spec is not one this rpgdice knows") from None
        declared = ruleset.odds_functions().get(function)  # never any other name
        if declared is None:
            raise BadData(f"the odds spec names no odds function of {ruleset.name}")
        built = [_arg(ruleset, a) for a in args]
        if not built or not all(_is_record(a) or (isinstance(a, list) and a and all(map(
                _is_record, a))) for a in built):
            raise BadData("the odds spec's arguments are not the records of a roll")
        if not all(isinstance(v, bool) for v in kwargs.values()):
            raise BadData("the odds spec's options are not flags")
        return cls(ruleset.name, declared, *built, **{str(k): v for k, v in kwargs.items()})


def _arg_data(value: object) -> object:
    from dataclasses import is_dataclass

    from rpgdice.core.data import to_data

    if is_dataclass(value) and not isinstance(value, type):
        return {"record": type(value).__name__, "data": to_data(value)}
    if isinstance(value, list):
        return [_arg_data(v) for v in value]
    return to_data(value)


def _is_record(value: object) -> bool:
    from dataclasses import is_dataclass

    return is_dataclass(value) and not isinstance(value, type)


def _arg(ruleset: _Records, value: object) -> object:
    from rpgdice.core.rebuild import BadData, from_data

    if isinstance(value, dict) and set(value) == {"record", "data"}:
        try:
            cls = ruleset.record_class(str(value["record"]))
        except KeyError:
            raise BadData(f"the odds spec names no record of {ruleset.name}") from None
        return from_data(cls, value["data"])
    if isinstance(value, list):
        return [_arg(ruleset, v) for v in value]
    return value


exact_odds = ExactOdds

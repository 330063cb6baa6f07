"""The rulesets as the layers beneath them find them: a slot the ruleset registry
(:mod:`rpgdice.rulesets`) fills when it is imported, which is before anything asks (every
command imports it). The roll log (the die a result shows), the character sheets (what a
sheet may hold) and the shared views (a ruleset's words, tones and views) look a ruleset's
record up here by name, and so import nothing above them. Nothing here imports anything.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeGuard

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

_get: Callable[[str], Any] | None = None

_known: Callable[[str], bool] = frozenset().__contains__

_names: Callable[[], tuple[str, ...]] = tuple
_sheet_names: Callable[[], tuple[str, ...]] = tuple
_as_rolled: Callable[[Any], AbstractContextManager[None]] | None = None


def register(get: Callable[[str], Any], names: Callable[[], tuple[str, ...]],
             sheet_names: Callable[[], tuple[str, ...]], known: Callable[[str], bool],
             as_rolled: Callable[[Any], AbstractContextManager[None]] | None = None) -> None:
    """Called once, by :mod:`rpgdice.rulesets`: its ``get``, ``names``, ``group_names``,
    ``known`` and ``as_rolled``."""
    global _get, _names, _sheet_names, _known, _as_rolled
    _get, _names, _sheet_names, _known, _as_rolled = get, names, sheet_names, known, as_rolled


def as_rolled(entry: Any) -> AbstractContextManager[None]:
    """``with as_rolled(entry):`` the rulesets as the logged ``entry``'s roll had them (a
    user's ruleset file: the rules the roll carried, whatever the file says now, or if it is
    gone), for showing the entry."""
    if _as_rolled is None:
        from contextlib import nullcontext

        return nullcontext()
    return _as_rolled(entry)


def known(name: object) -> TypeGuard[str]:
    """Whether ``name`` is a ruleset's (cheap: no record is imported for it)."""
    return isinstance(name, str) and _known(name)


def keeps_sheets(name: object) -> TypeGuard[str]:
    """Whether ``name`` is a ruleset whose characters have sheets."""
    return known(name) and get(str(name)).sheet is not None


def get(name: str) -> Any:
    """The ruleset called ``name`` (its :class:`rpgdice.rulesets.Ruleset` record); a
    KeyError for any other name."""
    if _get is None:
        raise LookupError("no rulesets are registered: rpgdice.rulesets is not imported")
    return _get(name)


def of(result: Any) -> Any:
    """The ruleset a result record belongs to (its class's ``RULESET``)."""
    return get(type(result).RULESET)


def names() -> tuple[str, ...]:
    """Every ruleset's name (``rpgdice.rulesets.NAMES``)."""
    return _names()


def sheet_names() -> tuple[str, ...]:
    """The names of the rulesets that keep character sheets (``SHEET_RULESETS``)."""
    return _sheet_names()

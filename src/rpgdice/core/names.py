"""Named levels (difficulties, wounds, skills) matched the forgiving way CLI.md asks:
ignoring case, accents, spaces, hyphens and underscores."""

from __future__ import annotations

from collections.abc import Mapping
from difflib import get_close_matches
from typing import TypeVar

from rpgdice.core.errors import RulesError, shown

T = TypeVar("T")
_DROPPED = {ord(c): None for c in " -_\t"}


def fold(name: str) -> str:
    """``'Muy Difícil'``, ``'muy-dificil'`` and ``'MUY_DIFICIL'`` all fold to ``'muydificil'``.
    An ASCII name is folded without ``unicodedata`` (its decomposition is itself), which a
    roll then never imports."""
    if name.isascii():
        return name.lower().translate(_DROPPED)
    import unicodedata

    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(
        c for c in decomposed if not unicodedata.combining(c) and c not in " -_\t"
    )


def lookup(param: str, value: str, table: Mapping[str, T]) -> T:
    """The entry of ``table`` named ``value``; a :class:`RulesError` that lists the
    names (and suggests the closest) when there is none."""
    folded = {fold(k): v for k, v in table.items()}
    key = fold(value)
    if key in folded:
        return folded[key]
    names = ", ".join(table)
    close = get_close_matches(key, list(folded), n=1, cutoff=0.7)  # 0.6 took 'facil' for 'dificil'
    hint = ""
    if close:
        original = next(k for k in table if fold(k) == close[0])
        hint = f" (did you mean '{original}'?)"
    raise RulesError(param, f"{shown(value)} is not one of {names}{hint}")

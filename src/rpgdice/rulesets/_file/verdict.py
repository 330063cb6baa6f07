"""A user's ruleset file: a roll's verdict is its outcome's name and the file's tone for
it (the file says which outcomes are dire: ``Critical glitch``), then what the view names
beside it that the name does not say (a glitch, a critical). Pure: what every view of a
roll says (its JSON's ``verdict`` and ``tone``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rpgdice.core import registry

if TYPE_CHECKING:
    from rpgdice.rulesets._file.rules import HighestResult, PoolResult, TotalResult


def _named(r: PoolResult | TotalResult | HighestResult) -> tuple[str, str]:
    """The outcome's name and tone as the file's record says them (the rules the roll was
    made with: a logged roll is read with the rules it carried)."""
    try:
        record = registry.get(type(r).RULESET)
    except Exception:  # a file removed or broken since: the outcome as stored
        return str(r.outcome), "bad"
    return record.word(r.outcome), record.tone(r.outcome) or "bad"


def custom(r: object) -> tuple[str, str]:
    """A custom file's roll: its outcome's name and tone; an outcome its rules do not name
    (a log edited by hand) is shown as stored, neutral."""
    try:
        record = registry.get(getattr(type(r), "RULESET", ""))
    except Exception:  # a file removed or broken since: the outcome as stored
        return str(getattr(r, "outcome", "")), "neutral"
    outcome = str(getattr(r, "outcome", ""))
    return record.word(outcome), record.tone(outcome) or "neutral"


def _with(word: str, event: str) -> str:
    return word if event in word.casefold() else f"{word} · {event}"


def pool(r: PoolResult) -> tuple[str, str]:
    word, tone = _named(r)
    return (_with(word, "glitch"), tone) if r.glitch else (word, tone)


def total(r: TotalResult) -> tuple[str, str]:
    return _named(r)


def highest(r: HighestResult) -> tuple[str, str]:
    word, tone = _named(r)
    return (_with(word, "critical"), tone) if r.critical else (word, tone)


VERDICTS: dict[str, Callable[..., tuple[str, str]]] = {
    "PoolResult": pool, "TotalResult": total, "HighestResult": highest,
    "CustomResult": custom, "PushResult": custom}
"""Each result class's verdict, by the class's name (every file's classes share them)."""


def verdict(result: object) -> tuple[str, str]:
    """``result``'s verdict and tone (``good``, ``bad`` or ``dire``)."""
    return VERDICTS[type(result).__name__](result)

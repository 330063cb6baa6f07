"""A roll-log entry rebuilt from what the log stored: its result records (their class
names and data), what the view showed beside them (the character line, an attack
target's line), and the exact odds spec of its roll. Nothing here runs a command.

:func:`is_roll` is the one rule for the few places that may run a stored command line
again (``log show --replay``; ``again``, with fresh dice; the part of a long entry the
log never kept): only a roll of a known kind, a ruleset group's rolling command or the
top-level ``roll`` — never ``char``, ``alias``, ``log`` or anything else.
"""

from __future__ import annotations

from typing import Any, Optional

from rpgdice import rulesets
from rpgdice.core.envelope import EMPTY, Envelope, Rolled
from rpgdice.core.rebuild import BadData, from_data


def is_roll(argv: list[str]) -> bool:
    """Whether ``argv`` (a stored command line) is a roll of a known kind (never one
    asking for help or the version, which print instead of rolling)."""
    if not argv or any(a in ("--help", "-h", "--version") for a in argv):
        return False
    if argv[0] == "roll" or argv[:2] == ["encounter", "start"]:  # an encounter's initiative
        return True
    if argv[0] not in rulesets.SHEET_RULESETS or len(argv) < 2:
        return False
    return argv[1] in rulesets.get(argv[0]).results


def _classes(entry: dict[str, Any]) -> list[type]:
    """The record class of each stored result: the names the log stored, or, for an
    entry of an older rpgdice, the one class its command makes."""
    try:
        ruleset = rulesets.get(str(entry["ruleset"]))
    except KeyError:
        raise BadData(f"no ruleset {entry['ruleset']!r}") from None
    results, names = entry["results"], entry.get("kinds")
    known = {n for kinds in ruleset.results.values() for n in kinds}
    if names is None:
        found = [ruleset.result_class(str(r.get("command")) if isinstance(r, dict) else "")
                 for r in results]
        if None in found:
            raise BadData("results of a kind this rpgdice does not know")
        return [c for c in found if c is not None]
    if len(names) not in (1, len(results)) or not all(isinstance(n, str) and n in known
                                                        for n in names):
        raise BadData("results of a kind this rpgdice does not know")
    classes = [ruleset.record_class(n) for n in names]
    return classes * len(results) if len(classes) == 1 else classes


def records(entry: dict[str, Any]) -> list[Rolled]:
    """The entry's results as records, each with what its view showed beside it (its
    envelope); a :class:`BadData` when the stored data makes none."""
    results = entry["results"]
    if not results:
        raise BadData("no results")
    out = []
    envelopes = (entry.get("shown") or {}).get("envelopes") or []
    for i, (cls, data) in enumerate(zip(_classes(entry), results)):
        record: Any = from_data(cls, data, f"result {i + 1}")
        stored = envelopes[i] if i < len(envelopes) else None
        out.append(Rolled(record, _envelope(stored) if isinstance(stored, dict) else EMPTY))
    return out


def _envelope(stored: dict[str, Any]) -> Envelope:
    """The stored envelope, each part kept only when it has the shape the views read."""
    from rpgdice.table.log import ENVELOPE

    parts = {key: stored.get(key) for key in ENVELOPE}
    return Envelope(**{key: value for key, value in parts.items()
                       if isinstance(value, dict) and _envelope_ok(value, key)})


def _envelope_ok(value: dict[str, Any], key: str) -> bool:
    if key == "vs_keys":
        return True
    labels = value.get("labels", [])
    spent, left = value.get("spent", {}), value.get("left", {})
    return (isinstance(value.get("character"), str) and isinstance(labels, list)
            and all(isinstance(x, list) and len(x) == 2 and all(isinstance(t, str) for t in x)
                    for x in labels)
            and isinstance(spent, dict) and isinstance(left, dict) and set(spent) <= set(left))


def odds(entry: dict[str, Any]) -> Optional[Any]:
    """The exact odds the entry showed (``--odds``), computed again from its stored spec
    (None when it showed none); a :class:`BadData` when the spec makes none."""
    data = (entry.get("shown") or {}).get("odds")
    if data is None:
        return None
    from rpgdice.cli.common import ExactOdds
    from rpgdice.core.errors import RulesError

    try:
        return ExactOdds.from_data(data)()
    except (RulesError, AttributeError, TypeError, ValueError) as e:
        raise BadData(f"its odds: {e}") from None


def spec(entry_spec: Any) -> Any:
    """The exact odds spec (an ExactOdds, not computed) that ``log stats`` reads."""
    from rpgdice.cli.common import ExactOdds

    return ExactOdds.from_data(entry_spec)

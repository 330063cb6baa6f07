"""A roll-log entry rebuilt from what the log stored, for showing it (``log show``, the
table's page): its result records (their class names and data), what the view showed
beside them (the character line, an attack target's line), and the exact odds it showed.
Nothing here runs a command; the records' classes are found through
:mod:`rpgdice.core.registry` (the render primitives import no registry), and the exact
odds spec is read by the function the caller gives (the command line's ``ExactOdds``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Optional, TypeVar

from rpgdice.core import registry
from rpgdice.core.data import Loaded
from rpgdice.core.envelope import EMPTY, Envelope, Rolled
from rpgdice.core.rebuild import BadData, from_data

if TYPE_CHECKING:
    from rpgdice.core.record import Tagged

T = TypeVar("T")


def _classes(entry: Loaded) -> list[type]:
    """The record class of each stored result: the names the log stored, or, for an
    entry of an older rpgdice, the one class its command makes."""
    try:
        ruleset = registry.get(str(entry["ruleset"]))
    except KeyError:
        raise BadData(f"no ruleset {entry['ruleset']!r}") from None
    results, names = entry["results"], entry.get("kinds")
    known = ruleset.result_names()
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


def records(entry: Loaded) -> list[Rolled]:
    """The entry's results as records, each with what its view showed beside it (its
    envelope); a :class:`BadData` when the stored data makes none."""
    results = entry["results"]
    if not results:
        raise BadData("no results")
    out = []
    envelopes = (entry.get("shown") or {}).get("envelopes") or []
    for i, (cls, data) in enumerate(zip(_classes(entry), results)):
        record: Tagged = from_data(cls, data, f"result {i + 1}")
        stored = envelopes[i] if i < len(envelopes) else None
        out.append(Rolled(record, _envelope(stored) if isinstance(stored, dict) else EMPTY))
    return out


def judged(r: Loaded, kind: Optional[str] = None) -> Optional[tuple[str, str]]:
    """The verdict and tone of a stored result that kept none (an entry of an older
    rpgdice): its record rebuilt (of the class ``kind`` the entry stored, else of each class
    its command makes, the one whose fields its data fills best) and judged by its ruleset
    (:func:`rpgdice.core.data.judge`). None when no record can be rebuilt from it."""
    from dataclasses import fields

    from rpgdice.core.data import judge

    ruleset = r.get("ruleset")
    if not registry.known(ruleset):
        return None
    try:
        record = registry.get(ruleset)
    except Exception:  # a ruleset file broken since
        return None
    command = record.command(str(r.get("command")))
    names = [kind] if isinstance(kind, str) else [c.__name__ for c in (
        command.results if command else ())]
    best: Optional[tuple[int, object]] = None
    for name in names:
        try:
            rebuilt = from_data(record.record_class(name), r)
        except (KeyError, BadData):
            continue
        fit = len(set(r) & {f.name for f in fields(rebuilt)})
        if best is None or fit > best[0]:
            best = (fit, rebuilt)
    said = judge(type(best[1])) if best is not None else None
    if best is None or said is None:
        return None
    try:
        word, tone = said(best[1])
    except (LookupError, TypeError, AttributeError, ValueError):
        return None
    return str(word), str(tone)


def records_envelopes(entry: Loaded) -> list[Envelope]:
    """Each stored result's envelope, in order (EMPTY where none was stored)."""
    envelopes = (entry.get("shown") or {}).get("envelopes") or []
    return [_envelope(e) if isinstance(e, dict) else EMPTY
            for e in [*envelopes, *[None] * (len(entry["results"]) - len(envelopes))]]


def _envelope(stored: Loaded) -> Envelope:
    """The stored envelope, each part kept only when it has the shape the views read."""
    from rpgdice.table.log import ENVELOPE

    parts = {key: stored.get(key) for key in ENVELOPE if key != "held"}  # held: not shown
    kept: Loaded = {key: value for key, value in parts.items()
                            if isinstance(value, dict) and _envelope_ok(value, key)}
    return Envelope(**kept)


def _envelope_ok(value: Loaded, key: str) -> bool:
    if key == "vs_keys":
        return True
    labels = value.get("labels", [])
    spent, left = value.get("spent", {}), value.get("left", {})
    return (isinstance(value.get("character"), str) and isinstance(labels, list)
            and all(isinstance(x, list) and len(x) == 2 and all(isinstance(t, str) for t in x)
                    for x in labels)
            and isinstance(spent, dict) and isinstance(left, dict) and set(spent) <= set(left))


def odds(entry: Loaded, read_spec: Callable[[object], Callable[[], T]]) -> Optional[T]:
    """The exact odds the entry showed (``--odds``), computed again from its stored spec
    (None when it showed none): ``read_spec(data)`` makes the spec (a
    :class:`~rpgdice.core.rebuild.BadData` when the data makes none), calling it computes
    the odds; a :class:`BadData` when the spec makes none."""
    data = (entry.get("shown") or {}).get("odds")
    if data is None:
        return None
    from rpgdice.core.errors import RulesError

    try:
        return read_spec(data)()
    except (RulesError, AttributeError, TypeError, ValueError) as e:
        raise BadData(f"its odds: {e}") from None

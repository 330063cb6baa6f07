"""An entry of the roll log as data: what it stores of a command's results (bounded:
:func:`capped`), the faces they show (:func:`rolled_faces`), and a stored row read back
(:func:`entry_data`, never an exception however the row was forged) and given out
(:func:`public`, :func:`on_the_table`). No sqlite3 here."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Optional, TypeVar

from rpgdice.core import jsontext
from rpgdice.core.data import JSONObject, Loaded
from rpgdice.core.record import record
from rpgdice.table.log.schema import COLUMNS

MAX_RESULTS = 1000
"""An entry keeps at most this many result objects (``count`` says how many there were)."""
MAX_BYTES = 1_000_000
"""An entry keeps at most this many bytes of result JSON (the first result always): a
1000-die Crytures roll is about 35 kB, so ``crytures roll 1000 -n 990`` keeps 28."""
D = TypeVar("D")
K = TypeVar("K")

MAX_CELL = 2 * MAX_BYTES
"""The most of an entry's stored results ever read: a cell bigger than this (forged:
rpgdice never writes one, see :func:`capped`) is left unread, found by its size alone,
and reads as no results, ``too_large`` (the rolls replay from the seed)."""
_TOO_LARGE = '"rpgdice: results over the cap"'
"""What a query reads for the results of an entry over :data:`MAX_CELL`."""


@record
class Entry:
    """One command's entry as it is written (:meth:`~rpgdice.table.log.store.Log.add`,
    :func:`~rpgdice.table.log.store.write_entry`): a value, passed whole."""

    argv: list[str]
    character: Optional[str]
    ruleset: str
    command: str
    seed: Optional[int]
    faces: Optional[list[int]]
    count: int
    outcome: Optional[str]
    results: list[JSONObject]
    kinds: Optional[list[str]] = None
    """The record class of each result (one name when they share it)."""
    spec: Optional[JSONObject] = None
    """The exact odds spec of its roll, as data."""
    shown: Optional[JSONObject] = None
    """What the view showed beside the results (the ``--odds`` spec, each result's
    character line)."""
    texts: Optional[list[str]] = None
    """The results' JSON, when already made (else made and cut to :func:`capped`)."""
    secret: bool = False
    """A ``--secret`` roll."""
    blind: bool = False
    """A ``--blind`` roll (secret too): kept in its ``shown`` as ``blind``."""
    roll: Optional[JSONObject] = None
    """The roll's value as data (stored as :func:`roll_cell` gives it: NULL when there is
    none, or it is too large)."""


def _die_of(ruleset: Optional[str]) -> Any:
    """Where a ruleset's results show the faces rolled (its record's ``die``), or None;
    the record found through :mod:`rpgdice.core.registry` (the log imports nothing of the
    rulesets)."""
    from rpgdice.core import registry

    try:
        return registry.get(ruleset or "").die
    except KeyError:  # no ruleset, or one forged by hand
        return None


def _sides(expression: object) -> Optional[int]:
    """The die size of an ordinary dice term (``2d6`` -> 6, ``-d%`` -> 100), or None."""
    import re

    found = re.search(r"[dD](%|\d+)", expression) if isinstance(expression, str) else None
    if found is None:
        return None
    return 100 if found.group(1) == "%" else int(found.group(1))


def rolled_faces(results: list[JSONObject]) -> dict[str, list[int]]:
    """Every face the results show, per die size, sorted (``{"d10": [3, 8, ...]}``),
    re-rolls and every roll of a roll type included: ``log stats`` counts them in SQL."""
    out: dict[str, list[int]] = {}

    def walk(obj: object, ruleset: Optional[str]) -> None:
        if isinstance(obj, list):
            for x in obj:
                walk(x, ruleset)
            return
        if not isinstance(obj, dict):
            return
        ruleset = obj.get("ruleset", ruleset)
        if ruleset == "dice" and "terms" in obj:  # ordinary dice: each term its own size
            for term in obj.get("terms") or ():
                sides = _sides(term.get("expression")) if isinstance(term, dict) else None
                if sides is not None:
                    out.setdefault(f"d{sides}", []).extend(
                        d["face"] for d in term.get("dice") or ()
                        if isinstance(d, dict) and isinstance(d.get("face"), int))
            return
        where = _die_of(ruleset)
        if where is not None and "command" in obj:
            die, list_key, face_key = f"d{where.sides}", where.dice, where.face
            if list_key is None:
                face = obj.get(face_key)
                if isinstance(face, int) and not isinstance(face, bool):
                    out.setdefault(die, []).append(face)
            else:
                out.setdefault(die, []).extend(
                    d[face_key] for d in obj.get(list_key) or () if isinstance(d, dict))
        if "rolls" in obj:  # a roll type: its single rolls (attacker, defender... are among them)
            walk(obj["rolls"], ruleset)
            return
        for key, value in obj.items():
            if isinstance(value, (dict, list)) and key != "dice":
                walk(value, ruleset)

    walk(results, None)
    return {die: sorted(faces) for die, faces in out.items()}  # sorted: fewer distinct values


def _dumps(data: object) -> str:
    return jsontext.dumps(data, ensure_ascii=False, separators=(",", ":"))


def capped(results: Iterable[JSONObject]) -> tuple[list[JSONObject], list[str]]:
    """The first results an entry keeps (at most :data:`MAX_RESULTS`, and
    :data:`MAX_BYTES` of JSON, the first always), and their JSON."""
    kept: list[JSONObject] = []
    texts: list[str] = []
    size = 0
    for r in results:
        text = _dumps(r)
        if len(kept) >= MAX_RESULTS or (kept and size + len(text) + 1 > MAX_BYTES):
            break
        if len(text.encode("utf-8", "surrogatepass")) + 2 > MAX_CELL:  # never written, as it would not be read
            break
        kept.append(r)
        texts.append(text)
        size += len(text) + 1
    return kept, texts


def shown_data(text: object) -> Optional[Loaded]:
    """An entry's ``shown`` cell as its data: what its view showed (None: nothing, or a
    cell that is no JSON object)."""
    return _loads(text, None, dict)


def _loads(text: object, default: D, kind: type[K]) -> K | D:
    """A stored JSON column, or ``default`` when it is missing, corrupt or forged into
    another shape than ``kind`` (or nested too deep to read: ``[`` × 100,000)."""
    if not isinstance(text, (str, bytes, bytearray)):  # missing (NULL), or forged to a number
        return default
    try:
        value = jsontext.loads(text)
    except (ValueError, RecursionError):
        return default
    return value if isinstance(value, kind) and _shallow(value) else default


MAX_DEPTH = 64
"""The deepest nesting a stored JSON cell may have (rpgdice writes a handful of levels):
a forged deeper one reads as nothing, so that no reader of it recurses out of its stack."""


def _shallow(value: object) -> bool:
    """Whether ``value`` nests at most :data:`MAX_DEPTH` lists and objects deep (walked
    without recursion)."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return False
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values() if isinstance(v, (dict, list)))
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item if isinstance(v, (dict, list)))
    return True


def entry_data(row: tuple[object, ...]) -> Loaded:
    """A row as the ``log --json`` object (and the bookkeeping columns). A column forged
    or corrupt by hand reads as nothing (no arguments, no results), never an exception."""
    d: Loaded = dict(zip(COLUMNS, row))
    d["argv"] = [str(a) for a in _loads(d["argv"], [], list)]
    try:
        d["seed"] = None if d["seed"] is None else int(d["seed"])
    except (TypeError, ValueError):
        d["seed"] = None
    d["faces"] = _loads(d["faces"], None, list)
    d["too_large"] = d["results"] == _TOO_LARGE
    d["results"] = _loads(d["results"], [], list)
    d["kinds"] = _loads(d.get("kinds"), None, list)
    d["spec"] = _loads(d.get("spec"), None, dict)
    d["shown"] = _loads(d.get("shown"), None, dict)
    d["secret"] = bool(d.get("secret"))
    d["blind"] = d["secret"] and isinstance(d["shown"], dict) and d["shown"].get("blind") is True
    d["roll"] = read_roll(d.get("roll"))
    seat = d["roll"].get("seat") if d["roll"] is not None else None
    d["seat"] = seat if isinstance(seat, str) else None  # the seat that rolled it (serve)
    return d


def roll_cell(roll: object) -> Optional[str]:
    """A roll's value (a JSON object the command made) as the log stores it: compact JSON,
    or None (NULL) when there is none, or it is no object, no strict JSON, or over
    :data:`MAX_BYTES` (refused rather than cut: a part of a value is no value)."""
    if not isinstance(roll, dict):
        return None
    try:
        text = jsontext.dumps(roll, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return None
    return None if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES else text


def read_roll(text: object) -> Optional[Loaded]:
    """A stored roll's value, or None when the cell is empty (an entry of an older rpgdice),
    over :data:`MAX_BYTES`, or forged into anything but a JSON object (however deep)."""
    if not isinstance(text, str) or len(text) > MAX_BYTES \
            or len(text.encode("utf-8", "replace")) > MAX_BYTES:
        return None
    return _loads(text, None, dict)


def public(entry: Loaded) -> JSONObject:
    """The ``log --json`` object of an entry."""
    return {
        "id": entry["id"], "time": entry["time"], "argv": entry["argv"],
        "character": entry["character"], "seat": entry.get("seat"),
        "ruleset": entry["ruleset"], "command": entry["command"], "seed": entry["seed"], "faces": entry["faces"],
        "count": entry["count"], "outcome": entry["outcome"],
        "rerolled": entry["rerolled_at"] is not None, "rerolled_by": entry["rerolled_by"],
        "secret": entry["secret"], "blind": bool(entry.get("blind")),
        "revealed": entry.get("revealed_at"),
        "results": entry["results"],
    }


SECRET_KEYS = ("id", "time", "character", "seat", "ruleset", "command", "secret", "blind")
"""What the table's page and feed show of a secret entry (CLI.md, "Showing the table")."""


def on_the_table(entry: Loaded) -> JSONObject:
    """An entry as the table's page and feed give it: its ``log --json`` object, or, for a
    secret one, only :data:`SECRET_KEYS`."""
    if entry["secret"]:
        return {k: bool(entry.get(k)) if k == "blind" else entry.get(k) for k in SECRET_KEYS}
    return public(entry)


ENVELOPE = ("table", "vs_table", "vs_keys", "held")
"""What travels beside a result (rpgdice.core.envelope.Envelope), for its view and JSON:
the character line (``--as``), an attack target's line and keys (``--vs``), and what it
did to the table (``held``: read by the table's page, never shown)."""


def envelope(beside: object) -> Optional[JSONObject]:
    """A result's envelope as data (None: nothing beside the result)."""
    from rpgdice.core.data import to_data

    found = {k: to_data(getattr(beside, k)) for k in ENVELOPE if getattr(beside, k, None)}
    return found or None

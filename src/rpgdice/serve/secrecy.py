"""Secret rolls keep their effects secret (CLI.md, "Showing the table"): what an unrevealed
secret roll did to the table is taken back out of what the page, ``/api/rolls``,
``/events`` and Discord show, until ``rpgdice log reveal``.

What a roll did is in its log entry, step by step (:func:`steps`): what a character paid
(its envelope's ``spent`` and ``left``, an attack target's ``vs_spent`` and ``vs_left``)
and what its envelope's ``held`` says it did besides (an attack's damage, a recovery's
points: the state it found and the change it made). From the first unrevealed secret
entry on, :func:`take_back` plays the steps twice — as they happened, and without the
unrevealed secret ones, each public step made again on the state the table saw (the
ruleset's ``fight.redo``) — and gives

* by combatant, what the table's state differs by (:func:`public` takes it out of the
  encounter, through the ruleset's ``fight.held``), and
* the public entries that said a state the secret rolls had changed, said again from the
  state the table saw (what was paid here; the rest by the ruleset's ``fight.restate``).

Nothing here names a ruleset: each one's record says how its state is made again. An
entry of an older rpgdice, without ``held``, has its secret damage taken back whole."""

from __future__ import annotations

import copy
import json
import zlib
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Optional, TypeGuard

from rpgdice.core import changes
from rpgdice.core.data import Loaded
from rpgdice.core.names import fold

if TYPE_CHECKING:
    import sqlite3

    from rpgdice.core.parts import Fight
    from rpgdice.serve.follow import Reader
    from rpgdice.table.encounter import Encounter
    from rpgdice.table.sheets import Sheet

MOST = 2000
"""The unrevealed secret entries that changed the table read (the newest): a table keeps a
handful; a secret roll that changed nothing does not count."""
SINCE = 10000
"""The entries read from the first unrevealed secret one on (the newest beyond are shown
as they were logged)."""


def _int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _numbers(value: object) -> Optional[dict[str, int]]:
    if not isinstance(value, dict) or not all(isinstance(k, str) and _int(v)
                                              for k, v in value.items()):
        return None
    return dict(value)


def _envelopes(entry: Loaded) -> list[Loaded]:
    shown = entry.get("shown") if isinstance(entry.get("shown"), dict) else {}
    envelopes = shown.get("envelopes") if isinstance(shown, dict) else None
    envelopes = envelopes if isinstance(envelopes, list) else []
    return [e if isinstance(e, dict) else {} for e in envelopes]


def steps(entry: Loaded) -> list[tuple[int, Loaded]]:
    """What an entry did to the table, in order: ``(result index, step)``, a step being
    ``{who, before, change}`` (``paid``: ``"table"`` or ``"vs"`` for what was paid, where
    its ``left`` is said; ``before`` None: an older entry's damage, whose state before is
    not known)."""
    out: list[tuple[int, Loaded]] = []
    envelopes = _envelopes(entry)
    found = entry.get("results")
    results: list[object] = found if isinstance(found, list) else []
    for n, result in enumerate(results):
        env = envelopes[n] if n < len(envelopes) else {}
        table: Loaded = env["table"] if isinstance(env.get("table"), dict) else {}
        keys: Loaded = env["vs_keys"] if isinstance(env.get("vs_keys"), dict) else {}
        for paid, who, spent_data, left_data in (
                ("table", table.get("character"), table.get("spent"), table.get("left")),
                ("vs", keys.get("vs"), keys.get("vs_spent"), keys.get("vs_left"))):
            spent, left = _numbers(spent_data), _numbers(left_data)
            if isinstance(who, str) and spent and left is not None:
                for key, n_spent in spent.items():
                    if key in left and n_spent > 0:
                        out.append((n, {"who": who, "paid": paid, "change": {key: -n_spent},
                                        "before": {key: left[key] + n_spent}}))
        held = env.get("held")
        if isinstance(held, list):
            for step in held:
                if not isinstance(step, dict) or not isinstance(step.get("who"), str):
                    continue
                before, change = _numbers(step.get("before")), _numbers(step.get("change"))
                if before is not None and change:
                    out.append((n, {"who": step["who"], "before": before, "change": change}))
        elif isinstance(result, dict) and _int(result.get("damage_dealt")) \
                and isinstance(keys.get("vs"), str) and result["damage_dealt"] > 0:
            out.append((n, {"who": keys["vs"], "before": None,  # an older entry's damage
                            "change": {"damage": result["damage_dealt"]}}))
    return out


class Said(Mapping[int, Loaded]):
    """The public entries said again, by ID: of each, only what is said again (its
    ``results`` and ``shown``), kept as compressed JSON and read back when asked for. One
    secret roll and then thousands of public rolls against its target keep a few hundred
    bytes each, not each entry whole (some 19 KB each as Python objects)."""

    __slots__ = ("packed",)

    def __init__(self, packed: Optional[dict[int, bytes]] = None) -> None:
        self.packed: dict[int, bytes] = {} if packed is None else packed

    def keep(self, ident: int, entry: Loaded) -> None:
        said = {"results": entry.get("results"), "shown": entry.get("shown")}
        text = json.dumps(said, ensure_ascii=False, separators=(",", ":"), default=str)
        self.packed[ident] = zlib.compress(text.encode("utf-8", "surrogatepass"), 1)

    def __getitem__(self, ident: int) -> Loaded:
        loaded: Loaded = json.loads(zlib.decompress(self.packed[ident]).decode("utf-8",
                                                                             "surrogatepass"))
        return loaded

    def __contains__(self, ident: object) -> bool:
        return ident in self.packed

    def __iter__(self) -> Iterator[int]:
        return iter(self.packed)

    def __len__(self) -> int:
        return len(self.packed)

    def copy(self) -> Said:
        return Said(dict(self.packed))


class Held:
    """What :func:`take_back` found: ``diff`` by combatant (its name folded), what the
    state the table may see differs by from the truth (raw keys: ``damage``, ``willpower``,
    ``might``...); ``entries`` the public entries said again, by ID."""

    def __init__(self, hidden: Optional[set[int]] = None) -> None:
        self.diff: dict[str, dict[str, int]] = {}
        self.entries: Said = Said()
        self.hidden: set[int] = set(hidden or ())
        """The unrevealed secret entries."""
        self.by: dict[str, int] = {}
        """By combatant (its name folded), the newest unrevealed secret entry that changed it."""

    def entry(self, entry: Loaded) -> Loaded:
        """The entry as the table may see it (not re-rolled, when an unrevealed secret roll
        re-rolled it)."""
        said = self.entries.get(int(entry["id"]))
        found = entry if said is None else {**entry, "results": said["results"],
                                            "shown": said["shown"]}
        if found.get("rerolled_by") in self.hidden:
            found = {**found, "rerolled_at": None, "rerolled_by": None}
        return found


NONE = Held()


def _fight(ruleset: object) -> Fight:
    from rpgdice.core import registry
    from rpgdice.core.parts import Fight

    try:
        return registry.get(str(ruleset)).fight
    except (KeyError, Exception):  # an unknown (or broken) ruleset: the common parts
        return Fight()


class TakeBack:
    """The steps of the log's entries played from the first unrevealed secret one on
    (IDs ``hidden``), as they happened and as the table may see them; :meth:`feed` takes
    the next entries (oldest first), so a new roll costs its own steps alone."""

    def __init__(self, hidden: set[int]) -> None:
        self.hidden = set(hidden)
        self.truth: dict[str, dict[str, int]] = {}
        self.seen: dict[str, dict[str, int]] = {}
        self.whole: dict[str, dict[str, int]] = {}  # older entries' secret damage, taken back whole
        self.entries = Said()
        self.by: dict[str, int] = {}
        self.last = 0
        """The last entry fed."""
        self.count = 0
        """The entries fed (at most :data:`SINCE`)."""

    def feed(self, entries: list[Loaded]) -> TakeBack:
        for entry in entries:
            if int(entry["id"]) <= self.last:
                continue
            self.last = int(entry["id"])
            self.count += 1
            changed = self._entry(entry)
            if changed is not None:
                self.entries.keep(int(entry["id"]), changed)
        return self

    def _entry(self, entry: Loaded) -> Optional[Loaded]:
        hide = int(entry["id"]) in self.hidden
        if not hide and changes.is_change(entry):  # the fight's state it logged, as the table saw it
            return self._change(entry)
        fight = _fight(entry.get("ruleset"))
        changed: Optional[Loaded] = None
        truth, seen = self.truth, self.seen
        for n, step in steps(entry):
            who = fold(step["who"])
            if hide:
                self.by[who] = int(entry["id"])
            if step["before"] is None:
                if hide:
                    mine = self.whole.setdefault(who, {})
                    for key, amount in step["change"].items():
                        mine[key] = mine.get(key, 0) - amount
                continue
            if who not in truth:
                if not hide:
                    continue  # no secret has touched it yet
                truth[who], seen[who] = {}, {}
            before = step["before"]
            shown = {k: (v if k.endswith("-max") or k not in seen[who] or not _int(v)
                         else _within(seen[who][k] + v - truth[who].get(k, v), before.get(f"{k}-max")))
                     for k, v in before.items()}  # a change by hand since (char set) counts too
            try:
                after = fight.redo(before, step["change"])
                now = shown if hide else fight.redo(shown, step["change"])
                if not hide and shown != before:
                    changed = changed if changed is not None else copy.deepcopy(entry)
                    _restate(changed, n, step, shown, fight)
            except Exception:  # a step forged into what the ruleset cannot read: as it is
                continue
            truth[who].update({k: v for k, v in after.items() if _int(v)})
            seen[who].update({k: v for k, v in now.items() if _int(v)})
        return changed

    def _change(self, entry: Loaded) -> Optional[Loaded]:
        """A change of the encounter (``encounter next``...) logged while a secret roll's
        effects are held back: the state it holds with them taken back, as the panel."""
        held = self.held()
        results = entry.get("results")
        if not held.diff or not isinstance(results, list):
            return None
        changed = copy.deepcopy(entry)
        for result in changed["results"]:
            state = result.get("encounter") if isinstance(result, dict) else None
            if isinstance(state, dict) and isinstance(state.get("order"), list):
                try:
                    result["encounter"] = public(state, held, str(entry.get("ruleset")))
                except Exception:  # a forged state: not shown at all
                    result["encounter"] = None
        return changed

    def held(self) -> Held:
        """What the table may see, as played so far."""
        found = Held(self.hidden)
        found.entries = self.entries.copy()
        found.by = dict(self.by)
        for who in set(self.truth) | set(self.whole):
            seen = self.seen.get(who, {})
            diff = {k: seen[k] - v for k, v in self.truth.get(who, {}).items()
                    if not k.endswith("-max") and k in seen and seen[k] != v}
            for key, amount in self.whole.get(who, {}).items():
                diff[key] = diff.get(key, 0) + amount
            if diff:
                found.diff[who] = diff
        return found


def _within(value: int, most: object) -> int:
    """``value`` kept within 0 and ``most`` (when it is a number)."""
    return max(0, min(value, most) if _int(most) else value)


def take_back(entries: list[Loaded], hidden: set[int]) -> Held:
    """What the unrevealed secret entries (IDs ``hidden``) changed, from the log's
    ``entries`` (oldest first, from the first of them on)."""
    return TakeBack(hidden).feed(entries).held()


def _restate(entry: Loaded, n: int, step: Loaded, before: dict[str, int],
             fight: Fight) -> None:
    """Result ``n`` of ``entry`` (a copy) said again from ``before``: what was paid, here
    (``left`` and ``vs_left``, in its JSON and its line), the rest by its ruleset."""
    results = entry.get("results")
    result = results[n] if isinstance(results, list) and n < len(results) else None
    if not isinstance(result, dict):
        return
    shown = entry.get("shown")
    envelopes = shown.get("envelopes") if isinstance(shown, dict) else None
    env = envelopes[n] if isinstance(envelopes, list) and n < len(envelopes) else None
    env = env if isinstance(env, dict) else {}
    paid = step.get("paid")
    if paid is not None:
        (key, change), = step["change"].items()
        left = before[key] + change
        part, json_key = ("table", "left") if paid == "table" else ("vs_table", "vs_left")
        if isinstance(result.get(json_key), dict):
            result[json_key] = {**result[json_key], key: left}
        line = env.get(part)
        if isinstance(line, dict) and isinstance(line.get("left"), dict):
            env[part] = {**line, "left": {**line["left"], key: left}}
        keys = env.get("vs_keys")
        if paid == "vs" and isinstance(keys, dict) and isinstance(keys.get("vs_left"), dict):
            env["vs_keys"] = {**keys, "vs_left": {**keys["vs_left"], key: left}}
        return
    if fight.restate is not None:
        fight.restate(result, env, step, before)


def unrevealed(reader: Reader) -> list[int]:
    """The IDs of the newest unrevealed secret entries the log holds, oldest first
    (``[]`` when it cannot tell)."""
    from rpgdice.serve import follow

    def read(con: sqlite3.Connection) -> list[int]:
        have = {row[1] for row in con.execute("PRAGMA table_info(entries)")}
        if not {"secret", "revealed_at"} <= have:
            return []
        effects = ("" if "shown" not in have else  # a secret roll that did nothing to the table
                   "AND (shown LIKE '%\"spent\"%' OR shown LIKE '%\"held\"%' "
                   "OR shown LIKE '%\"vs_keys\"%' OR results LIKE '%damage_dealt%' "
                   "OR command LIKE '%reroll%' OR id IN (SELECT rerolled_by FROM entries "
                   "WHERE rerolled_by IS NOT NULL)) ")  # (is not held back: no flushing)
        rows = con.execute("SELECT id FROM entries WHERE secret = 1 AND revealed_at IS NULL "
                           f"{effects}ORDER BY id DESC LIMIT ?", (MOST,)).fetchall()
        return sorted(int(row[0]) for row in rows)

    try:
        return list(reader._run(read))
    except follow.Unreadable:
        return []


def owned(reader: Reader, hidden: list[int], seat: str) -> set[int]:
    """Of the unrevealed secret entries ``hidden``, those the seat whose name's key is
    ``seat`` (rpgdice.serve.own.key) sees whole: its own ``--secret`` rolls, neither blind
    nor held back (rpgdice.serve.own.owner). Empty when the log cannot tell."""
    from rpgdice.serve import follow, own

    def read(con: sqlite3.Connection) -> list[Loaded]:
        have = {row[1] for row in con.execute("PRAGMA table_info(entries)")}
        if not hidden or "roll" not in have:  # a seat's name is kept in its roll's data
            return []
        marks = ",".join("?" * len(hidden))
        rows = con.execute(f"SELECT {reader.columns} FROM entries WHERE id IN ({marks}) "
                           "AND roll LIKE '%\"seat\"%'", hidden).fetchall()
        return [follow._entry(row) for row in rows]

    try:
        found = list(reader._run(read))
    except follow.Unreadable:
        return set()
    return {int(e["id"]) for e in found if own.owner(e) == seat}


def read(reader: Reader, played: Optional[TakeBack] = None,
         hidden: Optional[list[int]] = None) -> tuple[Held, Optional[TakeBack]]:
    """What the log's unrevealed secret entries changed, read with ``reader``, and the
    play that found it (``played``: the last one, fed on with the entries after it when
    the same entries are unrevealed). ``hidden``: those entries, when already read (a
    seat's own secret rolls left out: what its own sheet shows)."""
    from rpgdice.serve import follow

    hidden = unrevealed(reader) if hidden is None else sorted(hidden)
    if not hidden:
        return NONE, None
    try:
        newest = reader.last_id()
    except follow.Unreadable:
        return NONE, None
    if played is None or played.hidden != set(hidden) or newest < played.last:
        played = TakeBack(set(hidden))
        after = hidden[0] - 1
    else:
        after = played.last
    try:
        while played.count < SINCE:
            entries = reader.after(max(after, played.last), min(follow.BATCH, SINCE - played.count))
            played.feed(entries)
            if len(entries) < follow.BATCH:
                break
    except follow.Unreadable:
        return NONE, None
    return played.held(), played


def seen_sheet(sheet: Sheet, held: Held) -> Sheet:
    """A character's sheet as the table saw it: what unrevealed secret rolls changed of
    its traits (``held.diff``) taken back, within 0 and each one's maximum, and what
    follows from it (Seyruun's wound from its damage) made again. The sheet itself when
    nothing of it is held back."""
    import dataclasses

    from rpgdice.table import sheets

    diff = held.diff.get(fold(sheet.name))
    if not diff:
        return sheet
    traits = dict(sheet.traits)
    changed: set[str] = set()
    for key, amount in diff.items():
        spelled = sheet.spelling(key)
        value = traits.get(spelled) if spelled is not None else None
        if spelled is None or not _int(value):
            continue
        try:
            top = sheet.maximum(key)
        except Exception:  # a ruleset without a sheet's schema: no maximum
            top = None
        traits[spelled] = _within(value + amount, top)
        changed.add(fold(key))
    out = dataclasses.replace(sheet, traits=traits)
    try:
        follows = sheets.schema(sheet.ruleset).follows
        more = dict(follows(out, changed)) if follows is not None and changed else {}
    except Exception:  # a ruleset file gone or broken: what follows stays as it was
        more = {}
    for key, value in more.items():
        traits[out.spelling(key) or key] = value
    return dataclasses.replace(sheet, traits=traits) if more else out


def seen_encounter(found: Encounter, held: Held) -> Encounter:
    """The encounter as the table saw it: each extra's damage and wound without what
    unrevealed secret rolls did (its ruleset's ``fight.held``); a character's state is its
    sheet's (:func:`seen_sheet`)."""
    import dataclasses

    if not held.diff:
        return found
    fight = _fight(found.ruleset)
    order = []
    for side in found.order:
        diff = held.diff.get(fold(side.name))
        if diff and not side.character and side.health is not None:
            state = {"name": side.name, "character": False, "extra": True, "out": side.out,
                     "damage": side.damage, "health": side.health, "wound": side.wound,
                     "state": None, "willpower": None, "pools": None}
            try:
                after = fight.held(state, diff)
                side = dataclasses.replace(side, damage=after.get("damage"),
                                           wound=after.get("wound"))
            except Exception:  # a side the ruleset cannot read: as it is
                pass
        order.append(side)
    return dataclasses.replace(found, order=order)


def public(state: Loaded | None, held: Held, ruleset: str) -> Loaded | None:
    """The encounter's state (``encounter --json``) as the table may see it: each
    combatant's state with what unrevealed secret rolls changed taken back (by the
    encounter's ruleset's ``fight.held``)."""
    if state is None or not held.diff:
        return state
    fight = _fight(ruleset)
    order = []
    for side in state["order"]:
        diff = held.diff.get(fold(str(side.get("name"))))
        if diff:
            try:
                side = fight.held(dict(side), diff)
            except Exception:  # pragma: no cover - a side the ruleset cannot read: as it is
                pass
        order.append(side)
    return {**state, "order": order}

"""The current encounter: ``encounter.toml`` beside ``config.toml``, plain TOML a game
master may read and edit::

    round = 2
    turn = 1          # index into order: whose turn it is

    [[order]]         # the order to act in, from Seyruun initiative
    name = "Ysolde"
    rank = 1
    character = true  # a saved character: its wound, damage and Willpower are its sheet's

    [[order]]
    name = "Ghoul"
    rank = 2
    character = false # an extra (NAME=POOL): its damage and wound are kept here
    health = 7
    damage = 3
    wound = "moderate"

Every change is a read–change–write under the config folder's encounter lock, written
whole or not at all (rpgdice.table.files); a file broken by hand is one error naming it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from rpgdice.core.errors import RulesError, shown
from rpgdice.core.names import fold
from rpgdice.table import files, paths

T = TypeVar("T")

FILE_NAME = "encounter.toml"
LOCK = ".encounter.lock"
WOUNDS = ("none", "light", "moderate", "severe", "crippled")
HEALTH = 7
MAX_SIDES = 100
"""The most combatants an encounter keeps."""


@dataclass
class Side:
    """One combatant of the order. An extra keeps its ``damage``, ``health`` and
    ``wound`` here; a character's are its sheet's (None here)."""

    name: str
    rank: int
    character: bool
    health: int | None = None
    damage: int | None = None
    wound: str | None = None


@dataclass
class Encounter:
    round: int
    turn: int
    order: list[Side] = field(default_factory=list)

    @property
    def current(self) -> Side:
        return self.order[self.turn]

    def extra(self, name: str) -> Side | None:
        """The extra (no sheet) called ``name`` (matched as names are), or None."""
        return next((s for s in self.order if not s.character and fold(s.name) == fold(name)),
                    None)

    def advance(self) -> None:
        """The next turn; after the last of the order, a new round from the first."""
        self.turn += 1
        if self.turn >= len(self.order):
            self.turn, self.round = 0, self.round + 1


def path() -> Path:
    return paths.config_dir() / FILE_NAME


def _problem() -> None:
    problem = paths.home_problem()
    if problem is not None:
        raise problem


def load() -> Encounter | None:
    """The current encounter, or None when there is none."""
    _problem()
    where = path()
    data = files.read_toml(where)
    return None if data is None else from_data(where, data)


def need() -> Encounter:
    """The current encounter; with none, a usage error saying so."""
    found = load()
    if found is None:
        raise RulesError("encounter", f"no encounter ({path()} does not exist); start one "
                         "with rpgdice encounter start COMBATANT...")
    return found


def _int(where: Path, data: dict[str, Any], key: str, low: int, what: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise files.broken(where, f"{what}'{key}' is {shown(value)}, not a whole number from {low}")
    return value


def _side(where: Path, n: int, item: Any) -> Side:
    what = f"order {n}: "
    if not isinstance(item, dict):
        raise files.broken(where, f"{what}is not a table")
    name = item.get("name")
    if not isinstance(name, str) or not name.strip():
        raise files.broken(where, f"{what}'name' is not a text")
    character = item.get("character", False)
    if not isinstance(character, bool):
        raise files.broken(where, f"{what}'character' is not true or false")
    rank = _int(where, item, "rank", 1, what)
    if character:
        return Side(name.strip(), rank, True)
    health = _int(where, {"health": HEALTH, **item}, "health", 0, what)
    damage = _int(where, {"damage": 0, **item}, "damage", 0, what)
    if damage > health:
        raise files.broken(where, f"{what}'damage' {damage} is more than its health {health}")
    wound = item.get("wound", "none")
    if wound not in WOUNDS:
        raise files.broken(where, f"{what}'wound' is {shown(wound)}, not one of {', '.join(WOUNDS)}")
    return Side(name.strip(), rank, False, health, damage, wound)


def from_data(where: Path, data: dict[str, Any]) -> Encounter:
    """Check what the file holds; a hand-made mistake is reported, never fixed."""
    order = data.get("order")
    if not isinstance(order, list) or not order:
        raise files.broken(where, "'order' is not a list of combatants ([[order]] tables)")
    if len(order) > MAX_SIDES:
        raise files.broken(where, f"'order' has more than {MAX_SIDES} combatants")
    sides = [_side(where, n, item) for n, item in enumerate(order, 1)]
    rnd = _int(where, data, "round", 1, "")
    turn = _int(where, data, "turn", 0, "")
    if turn >= len(sides):
        raise files.broken(where, f"'turn' is {turn}, past the order's last ({len(sides) - 1})")
    return Encounter(rnd, turn, sides)


def _text(enc: Encounter) -> str:
    import tomlkit

    doc = tomlkit.document()
    doc.add(tomlkit.comment("The current encounter of rpgdice (rpgdice encounter): round, "
                            "whose turn (an index into order), the order to act in."))
    doc["round"] = enc.round
    doc["turn"] = enc.turn
    tables = tomlkit.aot()
    for s in enc.order:
        item = {"name": s.name, "rank": s.rank, "character": s.character}
        if not s.character:
            item.update(health=s.health, damage=s.damage, wound=s.wound)
        tables.append(tomlkit.item(item))
    doc["order"] = tables
    return tomlkit.dumps(doc)


def start(enc: Encounter) -> Encounter | None:
    """Write ``enc`` as the current encounter; the one it replaced, if one was running
    (a broken file is replaced too: ``encounter start`` is how a table starts over)."""
    _problem()
    where = path()
    with files.locked(where.parent, LOCK):
        try:
            before = load()
        except RulesError:
            before = None
        files.write_text(where, _text(enc))
    return before


def update(change: Callable[[Encounter], T]) -> T:
    """Read the encounter, let ``change`` change it, write it, all under the lock; with no
    encounter, a usage error. ``change`` raises to write nothing."""
    _problem()
    where = path()
    need()  # said before any lock file is made
    with files.locked(where.parent, LOCK):
        enc = need()
        result = change(enc)
        files.write_text(where, _text(enc))
    return result


def end() -> Encounter:
    """Remove the encounter (the file); with none, a usage error."""
    _problem()
    where = path()
    need()
    with files.locked(where.parent, LOCK):
        enc = need()
        try:
            where.unlink()
        except OSError as e:
            raise files.failed(where, e, "write") from None
    return enc


def state(enc: Encounter) -> dict[str, Any]:
    """``encounter --json``: the round, whose turn, and each side's state (a character's
    from its sheet as it is now; null where a side has no such value)."""
    return {"round": enc.round, "turn": enc.turn,
            "order": [_side_state(s) for s in enc.order], "current": enc.current.name}


def _side_state(side: Side) -> dict[str, Any]:
    out: dict[str, Any] = {"name": side.name, "rank": side.rank, "character": side.character,
                           "wound": side.wound, "damage": side.damage, "health": side.health,
                           "willpower": None}
    if side.character:
        from rpgdice.table import sheets

        try:
            sheet = sheets.load(side.name, "encounter")
        except RulesError:
            return out  # its sheet gone or broken: nothing known of it
        out["name"] = sheet.name
        out.update(wound=sheet.wound or "none", damage=sheets.resource(sheet, "damage"),
                   health=sheet.maximum("damage"),
                   willpower=sheet.get("willpower") if isinstance(sheet.get("willpower"), int)
                   else None)
    return out

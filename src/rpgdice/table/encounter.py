"""The current encounter: ``encounter.toml`` beside ``config.toml``, plain TOML a game
master may read and edit::

    round = 2
    turn = 1          # index into order: whose turn it is
    ruleset = "seyruun"

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
    initiative = 1    # the number rolled or given (the place a newcomer takes)
    out = false       # set by `encounter out`: skipped by `next`
    conditions = [{name = "prone", rounds = 2}]   # `encounter mark`: rounds left, or none

The order's rules (who joins, leaves, waits, is out) are here, for every ruleset; each
ruleset declares its own parts (its initiative, its damage track, who is out on its own)
in its record's ``fight`` (rpgdice.rulesets.Fight), found through core/registry.

Every change is a read–change–write under the config folder's encounter lock, written
whole or not at all (rpgdice.table.files); a file broken by hand is one error naming it.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from rpgdice.core import registry
from rpgdice.core.data import JSONObject
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
MAX_CONDITION = 40
"""The longest condition's name (in characters; a control character counts one)."""
MAX_CONDITIONS = 20
"""The most conditions a combatant keeps."""
MAX_ROUNDS = 1000
"""The most rounds a condition lasts."""


@dataclass
class Condition:
    """A condition a combatant has (``encounter mark``): its name as given, and the
    rounds it has left (None: until unmarked)."""

    name: str
    rounds: int | None = None


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
    out: bool = False
    """Put out of the fight by hand (``encounter out``)."""
    initiative: int | None = None
    """The number rolled or given: where a newcomer takes its place."""
    conditions: list[Condition] = field(default_factory=list)
    """Its conditions (``encounter mark``), in the order marked."""


@dataclass
class Encounter:
    round: int
    turn: int
    order: list[Side] = field(default_factory=list)
    ruleset: str = "seyruun"

    @property
    def current(self) -> Side:
        return self.order[self.turn]

    def find(self, name: str, param: str = "NAME") -> int:
        """The index of the combatant called ``name``; a usage error naming the fight's
        combatants when there is none."""
        for i, s in enumerate(self.order):
            if fold(s.name) == fold(name):
                return i
        names = ", ".join(s.name for s in self.order[:12])
        raise RulesError(param, f"{shown(name)} is not in the encounter ({names})")

    def is_out(self, i: int) -> bool:
        """Whether the ``i``-th combatant is out: by hand, or on its own (the ruleset's rule)."""
        side = self.order[i]
        return side.out or bool(_side_state(side, self.ruleset).get("out"))

    def add(self, side: Side) -> None:
        """``side`` joins at the place its initiative gives (after every combatant whose
        initiative is as high); before the current turn, it first acts next round."""
        if any(fold(s.name) == fold(side.name) for s in self.order):
            raise RulesError("COMBATANT", f"{shown(side.name)} is already in the encounter")
        if len(self.order) >= MAX_SIDES:
            raise RulesError("COMBATANT", f"more than {MAX_SIDES} combatants")
        mine = side.initiative if side.initiative is not None else -(10 ** 9)
        at = next((i for i, s in enumerate(self.order)
                   if (s.initiative if s.initiative is not None else -(10 ** 9)) < mine),
                  len(self.order))
        self.order.insert(at, side)
        if at <= self.turn and len(self.order) > 1:
            self.turn += 1
        self._rank()

    def remove(self, name: str) -> Side:
        """The combatant leaves; the order closes up (the current one's turn passes on)."""
        i = self.find(name)
        if len(self.order) == 1:
            raise RulesError("NAME", f"{shown(self.order[0].name)} is the last combatant: "
                             "end the encounter instead (rpgdice encounter end)")
        side = self.order.pop(i)
        if i < self.turn:
            self.turn -= 1
        elif i == self.turn:
            if self.turn >= len(self.order):
                self.turn, self.round = 0, self.round + 1
            self._skip()
        self._rank()
        return side

    def delay(self, after: str | None) -> Side:
        """The current combatant waits: it moves after ``after`` (default: last) in this
        round's order, and keeps that place in later rounds; the turn passes on."""
        t = self.turn
        side = self.order[t]
        j = len(self.order) - 1 if after is None else self.find(after, "--after")
        if after is not None:
            if j == t:
                raise RulesError("--after", f"{shown(side.name)} cannot wait for itself")
            if self.is_out(j):
                raise RulesError("--after", f"{shown(self.order[j].name)} is out of the fight")
        self.order.pop(t)
        if j > t:
            self.order.insert(j, side)
        else:  # after one who has already acted: its place next round
            self.order.insert(j + 1, side)
            self.turn = t + 1
        if self.turn >= len(self.order):
            self.turn, self.round = 0, self.round + 1
        self._skip()
        self._rank()
        return side

    def set_out(self, name: str, out: bool) -> Side:
        """``encounter out`` / ``back``: out of the fight by hand, or back in; an out
        current combatant's turn passes on."""
        i = self.find(name)
        self.order[i].out = out
        if out and i == self.turn:
            self.advance()
        return self.order[i]

    def _skip(self) -> None:
        """Past the out combatants to the next in the fight (none left: stays)."""
        for _ in range(len(self.order)):
            if not self.is_out(self.turn):
                return
            self.turn += 1
            if self.turn >= len(self.order):
                self.turn, self.round = 0, self.round + 1

    def _rank(self) -> None:
        """Ranks after a change of the order: each its place (ties no longer share)."""
        for n, s in enumerate(self.order, 1):
            s.rank = n

    def extra(self, name: str) -> Side | None:
        """The extra (no sheet) called ``name`` (matched as names are), or None."""
        return next((s for s in self.order if not s.character and fold(s.name) == fold(name)),
                    None)

    def next_turn(self) -> list[str]:
        """``encounter next``: the current turn ends — its combatant's conditions with
        rounds count one down (unless it is out: an out turn counts nothing), those at 0
        end — then :meth:`advance`. The conditions that ended, by name."""
        side = self.current
        ended: list[str] = []
        if not self.is_out(self.turn):
            for c in side.conditions:
                if c.rounds is not None:
                    c.rounds -= 1
            ended = [c.name for c in side.conditions if c.rounds is not None and c.rounds <= 0]
            side.conditions = [c for c in side.conditions if c.rounds is None or c.rounds > 0]
        self.advance()
        return ended

    def mark(self, name: str, condition: str, rounds: int | None) -> Side:
        """``encounter mark``: ``name`` has ``condition`` (for ``rounds`` of its turns, or
        until unmarked); marked again, its rounds start over."""
        check_condition(condition)
        side = self.order[self.find(name)]
        for c in side.conditions:
            if fold(c.name) == fold(condition):
                c.name, c.rounds = condition, rounds
                return side
        if len(side.conditions) >= MAX_CONDITIONS:
            raise RulesError("CONDITION", f"{shown(side.name)} has {MAX_CONDITIONS} conditions "
                             "already, the most it keeps")
        side.conditions.append(Condition(condition, rounds))
        return side

    def unmark(self, name: str, condition: str | None) -> tuple[Side, list[str]]:
        """``encounter unmark``: ``condition`` of ``name`` ends, or all of its conditions;
        the side, and the conditions that ended. One it does not have is a usage error."""
        side = self.order[self.find(name)]
        if not side.conditions:
            raise RulesError("NAME", f"{shown(side.name)} has no conditions")
        if condition is None:
            ended = [c.name for c in side.conditions]
            side.conditions = []
            return side, ended
        kept = [c for c in side.conditions if fold(c.name) != fold(condition)]
        if len(kept) == len(side.conditions):
            have = ", ".join(shown(c.name) for c in side.conditions)
            raise RulesError("CONDITION", f"{shown(side.name)} is not {shown(condition)} "
                             f"(its conditions: {have})")
        ended = [c.name for c in side.conditions if fold(c.name) == fold(condition)]
        side.conditions = kept
        return side, ended

    def advance(self) -> None:
        """The next turn, skipping who is out; after the last of the order, a new round
        from the first."""
        self.turn += 1
        if self.turn >= len(self.order):
            self.turn, self.round = 0, self.round + 1
        self._skip()


def check_condition(text: object, param: str = "CONDITION") -> str:
    """A condition's name: 1 to :data:`MAX_CONDITION` characters, not blank."""
    if not isinstance(text, str) or not text.strip():
        raise RulesError(param, "a condition is 1 to 40 characters, not empty")
    if len(text) > MAX_CONDITION:
        raise RulesError(param, f"{shown(text)} is {len(text)} characters; a condition is 1 to "
                         f"{MAX_CONDITION}")
    return text


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
    found = None if data is None else from_data(where, data)
    view = SEEN.get()
    return found if view is None or found is None else view(found)


SEEN: ContextVar[Callable[[Encounter], Encounter] | None] = ContextVar("seen", default=None)
"""While a seat's odds are computed (rpgdice.cli.seated): the encounter :func:`load` reads
is given as the table saw it (its extras without what unrevealed secret rolls did)."""


def need() -> Encounter:
    """The current encounter; with none, a usage error saying so."""
    found = load()
    if found is None:
        raise RulesError("encounter", f"no encounter ({path()} does not exist); start one "
                         "with rpgdice encounter start COMBATANT...")
    return found


def _int(where: Path, data: JSONObject, key: str, low: int, what: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise files.broken(where, f"{what}'{key}' is {shown(value)}, not a whole number from {low}")
    return value


def _side(where: Path, n: int, item: object, ruleset: str = "seyruun") -> Side:
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
    out = item.get("out", False)
    if not isinstance(out, bool):
        raise files.broken(where, f"{what}'out' is not true or false")
    initiative = item.get("initiative")
    if initiative is not None and (isinstance(initiative, bool) or not isinstance(initiative, int)):
        raise files.broken(where, f"{what}'initiative' is {shown(initiative)}, not a whole number")
    conditions = _conditions(where, what, item.get("conditions", []))
    if character:
        return Side(name.strip(), rank, True, out=out, initiative=initiative,
                    conditions=conditions)
    if ruleset == "seyruun" or "health" in item:
        health: int | None = _int(where, {"health": HEALTH, **item}, "health", 0, what)
    else:
        health = None
    damage = _int(where, {"damage": 0, **item}, "damage", 0, what)
    if health is not None and damage > health:
        raise files.broken(where, f"{what}'damage' {damage} is more than its health {health}")
    wound = item.get("wound", "none" if ruleset == "seyruun" else None)
    if wound is not None and wound not in WOUNDS:
        raise files.broken(where, f"{what}'wound' is {shown(wound)}, not one of {', '.join(WOUNDS)}")
    return Side(name.strip(), rank, False, health, damage if health is not None else None,
                wound, out, initiative, conditions)


def _conditions(where: Path, what: str, items: object) -> list[Condition]:
    """A side's ``conditions``: a list of ``{name, rounds}`` tables (rounds left, from 1,
    or none)."""
    if not isinstance(items, list) or len(items) > MAX_CONDITIONS:
        raise files.broken(where, f"{what}'conditions' is not a list of at most "
                           f"{MAX_CONDITIONS} tables")
    found = []
    for item in items:
        name = item.get("name") if isinstance(item, dict) else None
        try:
            check_condition(name)
        except RulesError as e:
            raise files.broken(where, f"{what}a condition's 'name': {e.message}") from None
        assert isinstance(item, dict) and isinstance(name, str)
        rounds = item.get("rounds")
        if rounds is not None:
            rounds = _int(where, item, "rounds", 1, f"{what}condition {shown(name)}: ")
        found.append(Condition(name, rounds))
    return found


def from_data(where: Path, data: JSONObject) -> Encounter:
    """Check what the file holds; a hand-made mistake is reported, never fixed."""
    order = data.get("order")
    if not isinstance(order, list) or not order:
        raise files.broken(where, "'order' is not a list of combatants ([[order]] tables)")
    if len(order) > MAX_SIDES:
        raise files.broken(where, f"'order' has more than {MAX_SIDES} combatants")
    ruleset = data.get("ruleset", "seyruun")
    if not registry.keeps_sheets(ruleset):
        raise files.broken(where, f"'ruleset' is {shown(ruleset)}, not a ruleset with characters")
    sides = [_side(where, n, item, ruleset) for n, item in enumerate(order, 1)]
    rnd = _int(where, data, "round", 1, "")
    turn = _int(where, data, "turn", 0, "")
    if turn >= len(sides):
        raise files.broken(where, f"'turn' is {turn}, past the order's last ({len(sides) - 1})")
    return Encounter(rnd, turn, sides, ruleset)


def _text(enc: Encounter) -> str:
    import tomlkit

    doc = tomlkit.document()
    doc.add(tomlkit.comment("The current encounter of rpgdice (rpgdice encounter): round, "
                            "whose turn (an index into order), the order to act in."))
    doc["round"] = enc.round
    doc["turn"] = enc.turn
    doc["ruleset"] = enc.ruleset
    tables = tomlkit.aot()
    for s in enc.order:
        item: JSONObject = {"name": s.name, "rank": s.rank, "character": s.character}
        if not s.character:
            item.update({k: v for k, v in (("health", s.health), ("damage", s.damage),
                                           ("wound", s.wound)) if v is not None})
        if s.initiative is not None:
            item["initiative"] = s.initiative
        if s.out:
            item["out"] = True
        if s.conditions:
            conditions = tomlkit.array()
            for c in s.conditions:
                cell = tomlkit.inline_table()
                cell.update({"name": c.name} if c.rounds is None
                            else {"name": c.name, "rounds": c.rounds})
                conditions.append(cell)
            item["conditions"] = conditions
        tables.append(tomlkit.item(item))
    doc["order"] = tables
    return tomlkit.dumps(doc)


def start(enc: Encounter, then: Callable[[Encounter], None] | None = None) -> Encounter | None:
    """Write ``enc`` as the current encounter; the one it replaced, if one was running
    (a broken file is replaced too: ``encounter start`` is how a table starts over).
    ``then(enc)`` runs once it is written, still under the lock (the change's log entry:
    the log's order is the changes' order)."""
    _problem()
    where = path()
    with files.locked(where.parent, LOCK):
        try:
            before = load()
        except RulesError:
            before = None
        files.write_text(where, _text(enc))
        if then is not None:
            then(enc)
    return before


def update(change: Callable[[Encounter], T],
           then: Callable[[Encounter], None] | None = None) -> T:
    """Read the encounter, let ``change`` change it, write it, all under the lock; with no
    encounter, a usage error. ``change`` raises to write nothing. ``then(enc)`` runs once
    the change is written, still under the lock (see :func:`start`)."""
    _problem()
    where = path()
    need()  # said before any lock file is made
    with files.locked(where.parent, LOCK):
        enc = need()
        result = change(enc)
        files.write_text(where, _text(enc))
        if then is not None:
            then(enc)
    return result


def end(then: Callable[[Encounter], None] | None = None) -> Encounter:
    """Remove the encounter (the file); with none, a usage error. ``then(enc)``: as for
    :func:`start`, with the encounter that ended."""
    _problem()
    where = path()
    need()
    with files.locked(where.parent, LOCK):
        enc = need()
        try:
            where.unlink()
        except OSError as e:
            raise files.failed(where, e, "write") from None
        if then is not None:
            then(enc)
    return enc


def state(enc: Encounter) -> JSONObject:
    """``encounter --json``: the round, whose turn, and each side's state (a character's
    from its sheet as it is now; null where a side has no such value)."""
    return {"round": enc.round, "turn": enc.turn,
            "order": [_side_state(s, enc.ruleset) for s in enc.order],
            "current": enc.current.name}


def state_of(side: Side, ruleset: str = "seyruun") -> JSONObject:
    """One side's ``order`` entry (``encounter --json``)."""
    return _side_state(side, ruleset)


def _side_state(side: Side, ruleset: str = "seyruun") -> JSONObject:
    """One side's ``order`` entry: its place, and its state in its ruleset's words (a
    character's from its sheet as it is now, through the ruleset's ``fight.side``)."""
    fight = registry.get(ruleset).fight
    out: JSONObject = {"name": side.name, "rank": side.rank, "character": side.character,
                           "wound": side.wound, "damage": side.damage, "health": side.health,
                           "willpower": None, "extra": not side.character,
                           "initiative": side.initiative, "state": None, "pools": None,
                           "out": side.out,
                           "conditions": [{"name": c.name, "rounds": c.rounds}
                                          for c in side.conditions]}
    if side.character:
        from rpgdice.table import sheets

        try:
            sheet = sheets.load(side.name, "encounter")
        except RulesError:
            return out  # its sheet gone or broken: nothing known of it
        out["name"] = sheet.name
        if fight.side is not None:
            found = fight.side(sheet)
            out.update(found, out=side.out or bool(found.get("out")))
    elif side.health is not None:
        if fight.extra_state is not None:
            out["state"] = fight.extra_state(side.health, side.damage or 0, side.wound)
        out["out"] = side.out or (side.damage or 0) >= side.health
    return out

"""The roll as a value: :class:`RollSpec`, and its plain-data form for the roll log.

A spec is what a command line, a line typed at ``rpgdice play`` or a player's roll from
the table's server becomes once parsed and validated: its ruleset and command, the
command's own arguments as typed values (pools, difficulties, options such as Willpower
or Effort), and the choices of the run (given dice or a seed, repetitions, the character
rolling, whether it is logged, secret, short or JSON). Nothing in it is a command line:
executing it (:func:`rpgdice.roll.execute.execute`) never parses anything.

The character's part (:class:`Character`) is what parsing took from the sheet — the
numbers the trait names stood for are already in ``args``; what is kept here is what
the view says of them ("Dexterity 3 + Stealth 3") and the terms as named, so that a
replay shows and builds exactly what the roll did, whatever the sheet says later.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Optional

from rpgdice.core.record import record

if TYPE_CHECKING:
    from rpgdice.core.data import JSONObject

MAX_SPEC_BYTES = 64_000
"""The most a stored spec's JSON may hold (a spec is a few hundred bytes; a forged cell
bigger than this is not read)."""


@record
class Term:
    """One term of an argument that named traits: its sign, the trait (None for a number)
    and its value (``rpgdice.table.sheets.Term`` as data)."""

    sign: str
    trait: Optional[str]
    value: int


@record
class Character:
    """The character a roll is for (``--as``), as parsing found it."""

    name: str
    """The sheet's own spelling of the name."""
    ruleset: str
    labels: tuple[tuple[str, str], ...] = ()
    """What each argument named, ``(PARAM, "Dexterity 3 + Stealth 3")``, in order."""
    terms: tuple[tuple[str, tuple[Term, ...]], ...] = ()
    """Each argument's terms as named: ``(PARAM, terms)``."""
    practiced: Optional[str] = None
    """A Cypher ``--skill`` the sheet does not list (practiced: no step)."""
    pool: Optional[str] = None
    """The Cypher Pool ``--pool`` named."""
    given: tuple[str, ...] = ()
    """The parameters the command line gave (the others came from defaults or the sheet)."""
    resolved: bool = True
    """Whether the arguments hold the sheet's numbers (a stored roll) or may still name its
    traits (a line just parsed: the executor reads the sheet and resolves them)."""
    from_env: bool = False
    """Named by ``RPGDICE_AS`` rather than ``--as`` (a sheet of another ruleset, or none,
    is then passed over with a warning rather than refused)."""

    def terms_of(self, param: str) -> tuple[Term, ...]:
        return next((t for p, t in self.terms if p == param), ())


@record
class RollSpec:
    """What a roll is. Frozen: a changed copy is :meth:`replace`."""

    ruleset: str
    """A registered ruleset's name (``dice`` for ordinary dice)."""
    command: str
    """Its command (``roll``, ``attack``, ``odds`` ...)."""
    args: tuple[tuple[str, Any], ...] = ()
    """The command's own arguments, by parameter name, as parsed (numbers, tuples,
    names, flags; records of the ruleset's commands as their data)."""
    dice: Optional[tuple[int, ...]] = None
    """Faces given by hand (``--dice``); None to roll."""
    seed: Optional[int] = None
    """The seed (``--seed``); None: ``RPGDICE_SEED``, else a fresh one."""
    times: int = 1
    character: Optional[Character] = None
    target: Optional[Character] = None
    """The character a roll targets (an attack's ``--vs``), as parsing found it."""
    log: Optional[bool] = None
    """``--log``/``--no-log``; None: ``RPGDICE_LOG`` decides."""
    secret: bool = False
    blind: bool = False
    """``--blind``: secret (``secret`` is True too), shown to the GM's screen alone."""
    short: bool = False
    json: bool = False
    odds: bool = False
    """``--odds``: the exact chance beside each result."""
    odds_alone: bool = False
    """``rpgdice RULESET odds TYPE ...``: a roll type's odds, nothing rolled."""
    compare: tuple[tuple[str, RollSpec], ...] = ()
    """``--compare ARGS``: each alternative as typed and the spec it makes."""
    argv: tuple[str, ...] = ()
    """The words the roll was typed with, for display only (the log's ``argv``)."""
    seat: Optional[str] = None
    """Who asked for it when it did not come from this machine's command line."""

    @property
    def kwargs(self) -> dict[str, Any]:
        return dict(self.args)

    def arg(self, name: str, default: Any = None) -> Any:
        return next((v for k, v in self.args if k == name), default)

    def replace(self, **changes: Any) -> RollSpec:
        return dataclasses.replace(self, **changes)

    def with_args(self, **changes: object) -> RollSpec:
        args = dict(self.args)
        args.update(changes)
        return self.replace(args=tuple(args.items()))

    # As data -------------------------------------------------------------------------

    def data(self) -> JSONObject:
        """The spec as the roll log stores it (JSON data): what was rolled and the run's
        choices (``again`` repeats them); the alternatives compared are not kept."""
        out: JSONObject = {
            "ruleset": self.ruleset, "command": self.command,
            "args": {k: _value_data(v) for k, v in self.args},
            "dice": None if self.dice is None else list(self.dice),
            "seed": self.seed, "times": self.times,
        }
        for key in ("character", "target"):
            c = getattr(self, key)
            if c is not None:
                out[key] = {
                    "name": c.name, "ruleset": c.ruleset,
                    "labels": [list(x) for x in c.labels],
                    "terms": [[p, [[t.sign, t.trait, t.value] for t in ts]] for p, ts in c.terms],
                    "practiced": c.practiced, "pool": c.pool, "given": list(c.given)}
        for key in ("secret", "blind", "short", "json", "odds"):  # the run's choices, where made
            if getattr(self, key):
                out[key] = True
        if self.log is not None:
            out["log"] = self.log
        if self.seat is not None:
            out["seat"] = self.seat
        return out

    @classmethod
    def from_data(cls, data: object) -> RollSpec:
        """The spec :meth:`data` stored; :class:`BadSpec` when the data makes none (forged,
        or of another rpgdice). Nothing is rolled or looked up here."""
        try:
            return _from_data(data)
        except (KeyError, TypeError, ValueError, AttributeError, RecursionError) as e:
            raise BadSpec(f"the stored roll is not one this rpgdice reads ({type(e).__name__})"
                          ) from None


class BadSpec(ValueError):
    """Stored data that makes no :class:`RollSpec`."""


def _value_data(value: object) -> object:
    from dataclasses import is_dataclass

    from rpgdice.core.data import to_data

    if isinstance(value, StoredRecord):  # read from the log, stored again as it was
        return {"record": value.name, "data": value.data}
    if is_dataclass(value) and not isinstance(value, type):
        return {"record": type(value).__name__, "data": to_data(value)}
    if isinstance(value, (list, tuple)):
        return [_value_data(v) for v in value]
    return to_data(value)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError
    return value


def _from_data(data: object) -> RollSpec:
    if not isinstance(data, Mapping):
        raise TypeError
    args = data["args"]
    if not isinstance(args, Mapping) or not all(isinstance(k, str) and k.isidentifier()
                                                for k in args):
        raise TypeError
    dice = data.get("dice")
    if dice is not None and not (isinstance(dice, list) and all(map(_is_int, dice))):
        raise TypeError
    seed, times = data.get("seed"), data.get("times", 1)
    if (seed is not None and not _is_int(seed)) or not _is_int(times) or times < 1:
        raise ValueError
    character, target = _character(data.get("character")), _character(data.get("target"))
    seat = data.get("seat")
    return RollSpec(
        ruleset=_text(data["ruleset"]), command=_text(data["command"]),
        args=tuple((k, _frozen(v)) for k, v in args.items()),
        dice=None if dice is None else tuple(dice), seed=seed, times=times,
        character=character, target=target, secret=data.get("secret") is True,
        blind=data.get("blind") is True,
        short=data.get("short") is True, json=data.get("json") is True,
        odds=data.get("odds") is True,
        log=data["log"] if isinstance(data.get("log"), bool) else None,
        seat=None if seat is None else _text(seat))


def _character(c: object) -> Optional[Character]:
    if c is None:
        return None
    if not isinstance(c, Mapping):
        raise AttributeError  # as reading it would: it has no keys
    terms = tuple((_text(p), tuple(Term(_text(s), None if t is None else _text(t), int(v))
                                   for s, t, v in ts)) for p, ts in c.get("terms", ()))
    return Character(
        name=_text(c["name"]), ruleset=_text(c["ruleset"]),
        labels=tuple((_text(a), _text(b)) for a, b in c.get("labels", ())),
        terms=terms,
        practiced=None if c.get("practiced") is None else _text(c["practiced"]),
        pool=None if c.get("pool") is None else _text(c["pool"]),
        given=tuple(_text(g) for g in c.get("given", ())))


def _frozen(value: object) -> object:
    """Stored arguments back as values: lists as tuples; a record stays its data (the
    ruleset's builder rebuilds it, :func:`rpgdice.roll.execute.arguments`)."""
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        if set(value) == {"record", "data"} and isinstance(value["record"], str):
            return StoredRecord(value["record"], value["data"])
        raise TypeError
    if value is None or isinstance(value, (int, str, float)):
        return value
    raise TypeError


@record
class StoredRecord:
    """An argument that was a record of a ruleset's commands (a Seyruun combatant), as
    the log stored it: rebuilt by its ruleset (:func:`rpgdice.roll.execute.arguments`)."""

    name: str
    data: object

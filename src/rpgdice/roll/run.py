"""One spec executing: :class:`Turn`, what a builder may read of the run besides its
arguments (it gets it as its ``run`` argument), and :class:`Capture`, an execution that
prints, pays and logs nothing (a replay). Their own module, below the executor, so that
what reads the run (rpgdice.roll.character) need not import the executor."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Optional

from rpgdice.roll.spec import RollSpec


class Capture:
    """An execution that prints, pays and logs nothing (``log show --replay``, ``log stats``,
    ``seyruun reroll`` reading a roll again): what it would roll (with ``roll``) and the
    exact odds spec of its roll."""

    HEAD = 1000
    """Results made at once (as many as a log entry keeps); the rest come in ``rest``."""

    def __init__(self, roll: bool, budgets: Optional[list[Any]] = None,
                 head: int = HEAD) -> None:
        self.roll = roll
        self.head = head
        """Results made at once (at most :data:`HEAD`); ``log show`` asks for none, so that
        an entry of big pools is never held whole (1000 results of 1000 dice: 250 MB)."""
        self.spec: Any = None
        self.results: list[Any] = []
        self.rest: Iterable[Any] = ()
        self.odds: Any = None
        self.total = 0
        self.seed: Optional[int] = None
        self.compact = False
        """Whether the roll showed its repeats in its ruleset's short form (``log show``
        shows them so again)."""
        self.keys: dict[str, Any] = {}
        self.budgets: list[Any] = list(budgets or [])
        """What a roll paid as it went had to spend, per result, as the log stored it
        (an extended roll's Willpower): a replay rolls with the same."""


class Turn:
    """One spec executing: what the builders read of the run besides its arguments.
    ``sheet``: the character's sheet (``--as``), read once; ``labels``: what the arguments
    named, which a builder may correct (Seyruun's roles); ``capture``: set while the log
    replays; ``spent``: what the character paid, in all; ``paid``: what to give back if
    the output cannot be delivered; ``extras``: what the executor read for the ruleset (an
    attack target's sheet, ``target``, or encounter extra, ``target_extra``:
    rpgdice.roll.target)."""

    __slots__ = ("spec", "sheet", "labels", "target_labels", "capture", "spent", "paid",
                 "extras", "entry")

    def __init__(self, spec: RollSpec, sheet: Any = None, capture: Optional[Capture] = None,
                 extras: Optional[dict[str, Any]] = None) -> None:
        self.spec = spec
        self.sheet = sheet
        character = spec.character
        self.labels: list[tuple[str, str]] = list(character.labels) if character else []
        self.target_labels: list[tuple[str, str]] = list(spec.target.labels) if spec.target else []
        self.capture = capture
        self.spent: dict[str, int] = {}
        self.paid: Optional[tuple[Any, str, int]] = None
        self.extras: dict[str, Any] = dict(extras or {})
        self.entry: Optional[int] = None
        """The log entry the roll was recorded as (None: not logged)."""

    @property
    def replaying(self) -> bool:
        return self.capture is not None

    def terms(self, param: str) -> list[Any]:
        """The terms argument ``param`` named (``[]``: it named no trait)."""
        if self.spec.character is None:
            return []
        from rpgdice.table.sheets import Term

        return [Term(t.sign, t.trait, t.value) for t in self.spec.character.terms_of(param)]

    def target_terms(self, param: str) -> list[Any]:
        """The terms the target's pool ``param`` named (``[]``: it named no trait)."""
        if self.spec.target is None:
            return []
        from rpgdice.table.sheets import Term

        return [Term(t.sign, t.trait, t.value) for t in self.spec.target.terms_of(param)]

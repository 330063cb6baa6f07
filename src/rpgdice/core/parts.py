"""The parts of a ruleset's record that the layers beneath the rulesets build and read
(:class:`rpgdice.rulesets.Ruleset` holds them, and the registry hands them out): what a roll
may cost a character (:class:`Cost`, read when a character pays) and a ruleset's parts of an
encounter (:class:`Fight`, read by the table's page). Defined here so that ``roll/`` and
``serve/`` make their defaults without importing the rulesets; :mod:`rpgdice.rulesets`
re-exports them. Imports nothing heavy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rpgdice.core.record import frozen


@frozen
class Cost:
    """What one repetition of a command may cost a character (``worst``, of ``resource``),
    what a result did cost (``cost(result)``), and why the worst case is what it is."""

    resource: str | None = None
    worst: int = 0
    cost: Callable[[Any], int] = lambda r: 0
    why: str = ""
    paced: bool = False
    """Paid as it goes, while the sheet has it (an extended roll's ``--willpower``): no
    worst case is charged up front, and each repetition rolls with what is left,
    ``roll(source, budget)``."""


def add_within(state: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    """A change made again on a state (:attr:`Fight.redo`'s default): each number of
    ``change`` added to the state's, within 0 and the state's ``KEY-max`` when it has one."""
    out = dict(state)
    for key, n in change.items():
        value = out.get(key)
        if isinstance(n, int) and isinstance(value, int):
            top = out.get(f"{key}-max")
            value = max(0, value + n)
            out[key] = min(top, value) if isinstance(top, int) else value
    return out


def shifted(side: dict[str, Any], diff: dict[str, int]) -> dict[str, Any]:
    """An encounter side with ``diff`` added to its numbers (:attr:`Fight.held`'s default:
    a side whose keys are the sheet's own, Willpower)."""
    out = dict(side)
    for key, n in diff.items():
        if isinstance(out.get(key), int) and not isinstance(out.get(key), bool):
            out[key] = max(0, out[key] + n)
    return out


@frozen
class Fight:
    """A ruleset's parts of an encounter (rpgdice.table.encounter keeps the fight itself:
    the order, the turn, who joins, leaves, waits or is out)."""

    initiative: Callable[[list[str]], tuple[tuple[str, Any], ...]] | None = None
    """The function reading the ruleset's own initiative (Seyruun's Wits + Dexterity):
    ``initiative(words)`` gives the arguments of :attr:`command` that roll it
    (rolled through the executor, shown and logged as that command is). None: the text has
    no initiative rule, so every combatant gives its ``@INIT`` or its sheet's
    ``initiative``."""
    command: str = ""
    """The roll command its initiative is (Seyruun's ``initiative``)."""
    order: Callable[[Any, tuple[tuple[str, Any], ...]], list[tuple[str, int, bool, int]]] | None = None
    """``order(result, args)``: the sides :attr:`command`'s result places, first to act
    first, each ``(name, rank, character, initiative)``."""
    side: Callable[[Any], dict[str, Any]] | None = None
    """A character's state in the fight, read from its sheet: any of the keys ``wound``,
    ``damage``, ``health``, ``willpower``, ``state``, ``pools`` and ``out`` (a bool: out
    of the fight on its own); a key left out is null (not out)."""
    extra_state: Callable[[int, int, str | None], str | None] | None = None
    """An extra's ``state`` word from its health, damage and wound (None: no word)."""
    health: int | None = None
    """An extra's health when ``--health`` is not given (Seyruun's 7 boxes; None: none,
    it cannot take damage)."""
    track: str | None = None
    """How the ruleset says a side's hurt, one way everywhere: ``"damage"``, boxes filled
    as damage is taken (Seyruun's wounds); ``"health"``, the health left, counted down
    (Cypher's NPC health); None: no rule of it deals damage (Crytures, Reglas), so an
    encounter shows no such column and ``--health`` is refused."""
    redo: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]] = add_within
    """A step a roll made on the table (an envelope's ``held``, or what it paid) made again
    on another state: ``redo(before, change)`` gives the state after (what the table's page
    shows of a public roll that came after an unrevealed secret one)."""
    restate: Callable[[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any]],
                      None] | None = None
    """``restate(result, envelope, step, before)``: a stored result (its JSON object) and
    its envelope (as stored) changed in place to say the state after ``step`` as it reads
    from ``before`` instead of the state the roll found (its ``vs_wound``, its damage line):
    a public roll as the table's page shows it while a secret one before it is unrevealed.
    What was paid (``left``) is restated for every ruleset alike; None: nothing more."""
    held: Callable[[dict[str, Any], dict[str, int]], dict[str, Any]] = shifted
    """``held(side, diff)``: an encounter ``order`` entry with ``diff`` (raw state keys, as
    in ``held`` steps: what unrevealed secret rolls changed, taken back) undone, and what
    follows from it (a wound, a damage track's word, out) made again."""

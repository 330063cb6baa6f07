"""The Cypher System (seed 004, with the SRD's Pools, Effort and special rolls): a d20
against 3 × the difficulty.

The folder: ``rules.py`` (the task), ``odds.py``, ``commands.py`` (the ``cypher``
group), ``view.py``, ``character.py`` (what Effort costs a character). This module
declares the :class:`~rpgdice.rulesets.Ruleset` record.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rpgdice.core.command import Command

from rpgdice.rulesets import Die, Fight, Reserved, Resource, Ruleset, SheetSchema, Words, lazily

POOLS = ("might", "speed", "intellect")
SKILL_LEVELS = ("trained", "specialized", "inability")
MAX_EFFORT_LEVEL = 6


def _defaults(sheet: Any, pool: str | None) -> dict[str, Any]:
    """The Edge of the Pool that pays the Effort (``--pool``) lowers its cost."""
    return {"edge": sheet.edge(pool)} if pool else {}


def _labels(sheet: Any, command: str, typed: set[str]) -> list[tuple[str, str]]:
    """A roll shows where the character is on the damage track, when it is not hale."""
    from rpgdice.rulesets.cypher.target import state_of

    state = state_of(sheet)
    if state in (None, "hale"):
        return []
    said = {"impaired": "impaired (Effort costs 1 more a level; no 19-20 effects or extra damage)",
            "debilitated": "debilitated (no action but to move: rolled anyway)",
            "dead": "dead"}
    return [("state", said[state])]


def _fight_side(sheet: Any) -> dict[str, Any]:
    """A Cypher character in an encounter: its Pools, its damage track (RULES.md, "Cypher
    damage and recovery"), out when dead."""
    from rpgdice.rulesets.cypher.rules import track

    pools = {p: {"value": sheet.get(p) if isinstance(sheet.get(p), int) else 0,
                 "max": sheet.maximum(p)}
             for p in POOLS if sheet.get(p) is not None}
    if not pools:
        return {}
    state = track([v["value"] for v in pools.values()])
    return {"pools": pools, "state": state, "out": state == "dead"}


def _extra_state(health: int, damage: int, wound: str | None) -> str | None:
    """An extra (an NPC) has health alone: hale, or dead at 0."""
    return "dead" if damage >= health else "hale"


# What the record names of its other modules, each imported at its first call.

@lazily
def _plan() -> Any:
    from rpgdice.rulesets.cypher.character import plan

    return plan


@lazily
def _redo() -> Any:
    from rpgdice.rulesets.cypher.target import redo

    return redo


@lazily
def _restate() -> Any:
    from rpgdice.rulesets.cypher.target import restate

    return restate


@lazily
def _held() -> Any:
    from rpgdice.rulesets.cypher.target import held

    return held


def _commands(record: Ruleset) -> Sequence[Command]:
    """Its commands' records (its ``commands.py``, imported at the first call)."""
    from rpgdice.rulesets.cypher.commands import COMMANDS

    return COMMANDS


RULESET = Ruleset(
    name="cypher",
    order=40,
    words=Words("Cypher System", short="Cypher", called="the Cypher System",
                help="Cypher System: d20 against 3 × difficulty.",
                nouns={"success": ("success", "successes"), "failure": ("failure", "failures")}),
    language="en",
    outcomes={"success": ("Success", "good"), "failure": ("Failure", "bad")},
    commands=_commands,
    die=Die(20, None, "roll"),
    sheet=SheetSchema(
        reserved=(*(Reserved(p) for p in POOLS), *(Reserved(f"{p}-edge") for p in POOLS),
                  Reserved("effort", most=MAX_EFFORT_LEVEL), Reserved("initiative", dice=True),
                  Reserved("tier"), Reserved("armor"), Reserved("recoveries", most=4)),
        skill_words=SKILL_LEVELS,
        resources=tuple(Resource(p, p.title(), f"{p}-max") for p in POOLS),
        effort_pools=POOLS,
        defaults=_defaults,
        labels=_labels,
        headings=("Traits", "Skills"),
    ),
    plan=_plan,
    fight=Fight(side=_fight_side, extra_state=_extra_state, redo=_redo, restate=_restate,
                held=_held, track="health"),
)

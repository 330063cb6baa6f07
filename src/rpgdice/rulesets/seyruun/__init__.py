"""Seyruun (seed 001): a World of Darkness style d10 pool, with botches, the chance
die, Willpower, roll types and combat.

The folder: ``rules.py`` (pools, rolls, roll types, combat), ``odds.py``,
``commands.py`` (the ``seyruun`` group), ``view.py``, and what touches the user's state:
``character.py`` (what a roll costs a character), ``target.py`` (an attack's target paying
from its sheet) and ``reroll.py`` (the Willpower re-roll after the fact, from the roll
log). This module declares the :class:`~rpgdice.rulesets.Ruleset` record.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rpgdice.core.command import Command

from rpgdice.rulesets import Die, Fight, Reserved, Resource, Ruleset, SheetSchema, Words, lazily

WOUND_LEVELS = ("none", "light", "moderate", "severe", "crippled")
"""A sheet's ``wound``: none, or a level whose penalty every pool but damage and soak takes."""
ATTRIBUTES = frozenset({
    "strength", "dexterity", "constitution", "wits", "resolve", "composure", "charisma",
    "intelligence", "stamina", "presence", "manipulation",
})
"""The traits that are Attributes (RULES.md, "Which trait is the Attribute"): those the text
names, and the other World of Darkness attributes."""


def _willpower_max(sheet: Any) -> int | None:
    """Characters begin with Willpower equal to Composure + Resolve."""
    composure, resolve = sheet.get("composure"), sheet.get("resolve")
    if isinstance(composure, int) and isinstance(resolve, int):
        return composure + resolve
    return None


HEALTH = 7
"""Health boxes unless the sheet's ``health`` says otherwise (RULES.md, "Damage and wounds")."""


def _health(sheet: Any) -> int:
    return HEALTH


def _follows(sheet: Any, changed: set[str]) -> dict[str, Any]:
    """The wound follows the damage (unless the same change sets the wound by hand)."""
    if "damage" not in changed or "wound" in changed:
        return {}
    from rpgdice.rulesets.seyruun.rules import wound_for

    damage, health = sheet.get("damage", 0), sheet.get("health", HEALTH)
    if not isinstance(damage, int) or not isinstance(health, int):
        return {}
    return {"wound": wound_for(damage, health)}


def _defaults(sheet: Any, pool: str | None) -> dict[str, Any]:
    """The sheet's wound applies unless ``--wound`` is given."""
    return {"wound": sheet.wound} if sheet.wound else {}


def _labels(sheet: Any, command: str, typed: set[str]) -> list[tuple[str, str]]:
    """A roll shows the sheet's wound where it applied (a contest and an attack apply it
    to the character's side; the other commands unless ``--wound`` was typed)."""
    if sheet.wound and ("wound" not in typed or command in ("contest", "attack")):
        return [("wound", f"{sheet.wound} (the sheet's)")]
    return []


def _extra_state(health: int, damage: int, wound: str | None) -> str | None:
    return wound


# What the record names of its other modules, each imported at its first call.

@lazily
def _plan() -> Any:
    from rpgdice.rulesets.seyruun.character import plan

    return plan


@lazily
def _initiative() -> Any:
    from rpgdice.rulesets.seyruun.commands import encounter_args

    return encounter_args


@lazily
def _order() -> Any:
    from rpgdice.rulesets.seyruun.initiative import encounter_order

    return encounter_order


@lazily
def _side() -> Any:
    from rpgdice.rulesets.seyruun.initiative import fight_side

    return fight_side


@lazily
def _restate() -> Any:
    from rpgdice.rulesets.seyruun.target import restate

    return restate


@lazily
def _held() -> Any:
    from rpgdice.rulesets.seyruun.target import held

    return held


def _commands(record: Ruleset) -> Sequence[Command]:
    """Its commands' records (its ``commands.py``, imported at the first call)."""
    from rpgdice.rulesets.seyruun.commands import COMMANDS

    return COMMANDS


RULESET = Ruleset(
    name="seyruun",
    order=20,
    words=Words("Seyruun", short="Seyruun",
                help="Seyruun: World of Darkness style d10 pool.",
                nouns={"success": ("success", "successes"), "failure": ("failure", "failures"),
           "botch": ("botch", "botches")}),
    language="en",
    outcomes={"success": ("Success", "good"), "failure": ("Failure", "bad"),
              "botch": ("Botch", "dire")},
    commands=_commands,
    die=Die(10, "dice", "face"),
    sheet=SheetSchema(
        reserved=(Reserved("willpower"), Reserved("wound", words=WOUND_LEVELS),
                  Reserved("health"), Reserved("damage")),
        resources=(Resource("willpower", "Willpower", "willpower-max", _willpower_max,
                            derived="composure + resolve", shown=True),
                   Resource("damage", "Damage", "health", _health, derived="health, 7 by default",
                            listed=False)),
        follows=_follows,
        attributes=ATTRIBUTES,
        defaults=_defaults,
        labels=_labels,
        headings=("Attributes", "Skills"),
    ),
    plan=_plan,
    fight=Fight(initiative=_initiative, order=_order, command="initiative", side=_side,
                extra_state=_extra_state, health=HEALTH, restate=_restate, held=_held,
                track="damage"),
)

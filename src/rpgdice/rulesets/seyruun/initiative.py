"""Seyruun's initiative combatants: a ``COMBATANT`` as typed (a name and its pool, or the
name of a saved Seyruun character) made the rules' :class:`~rpgdice.rulesets.seyruun.rules.
Combatant`, a saved character's Wits, Dexterity and wound read from its sheet. ``seyruun
initiative`` and ``encounter start`` both take them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rpgdice.core.data import JSONObject
from rpgdice.core.errors import RulesError

if TYPE_CHECKING:
    from typing import Protocol

    from rpgdice.rulesets.seyruun.rules import Combatant

    class CombatantArg(Protocol):
        """A ``COMBATANT`` as typed (its record is the commands' own)."""

        @property
        def name(self) -> str: ...
        @property
        def pool(self) -> Any: ...  # the commands' SidePool, or None: a saved character
    from rpgdice.table.sheets import Sheet


def seyruun_sheet(name: str, param: str) -> Sheet:
    """The saved character ``name``, which must be a Seyruun one (``param``: the option or
    argument that named it, for the error)."""
    from rpgdice.table import sheets

    sheet = sheets.load(name, param)
    if sheet.ruleset != "seyruun":
        raise RulesError(param, f"{sheet.name} is a {sheet.ruleset} character, and Seyruun "
                         "combat rolls seyruun")
    return sheet


def trait_number(sheet: Sheet, trait: str, param: str) -> int:
    """A trait of the sheet that must be a number."""
    value = sheet.get(trait)
    if not isinstance(value, int):
        raise sheet.missing(param, trait)
    return value


def combatant(arg: CombatantArg) -> Combatant:
    """The rules' ``Combatant`` of a ``COMBATANT`` as typed (its ``name`` and ``pool``, a
    contest side's pool; None: a saved character, whose Wits, Dexterity and wound it takes)."""
    from rpgdice.rulesets.seyruun import rules as seyruun

    if arg.pool is None:  # a saved character: its wits and dexterity, with its wound
        try:
            sheet = seyruun_sheet(arg.name, "COMBATANT")
        except RulesError as e:
            if "no character" not in e.message:
                raise
            raise RulesError("COMBATANT", f"{e.message}, or give a pool: {arg.name}=WITS+DEXTERITY") from None
        wits, dexterity = (trait_number(sheet, t, "COMBATANT") for t in ("wits", "dexterity"))
        return seyruun.Combatant(name=sheet.name, wits=wits, dexterity=dexterity, wound=sheet.wound)
    side = arg.pool
    return seyruun.Combatant(name=arg.name, wits=side.attribute, dexterity=side.skill or 0,
                             bonuses=side.bonuses, penalties=side.penalties)


def fight_side(sheet: Sheet) -> JSONObject:
    """A Seyruun character in an encounter: its wound, damage of health and Willpower;
    out when its damage reaches its health (RULES.md, "Encounters in every ruleset")."""
    from rpgdice.table import sheets

    damage, health = sheets.resource(sheet, "damage"), sheet.maximum("damage")
    willpower = sheet.get("willpower")
    wound = sheet.wound or "none"
    return {"wound": wound, "damage": damage, "health": health, "state": wound,
            "willpower": willpower if isinstance(willpower, int) else None,
            "out": bool(health) and damage >= (health or 0)}



# The encounter's initiative (the record's fight.initiative and fight.order) ---------------


def encounter_order(result: Any, args: tuple[tuple[str, Any], ...]) -> list[tuple[str, int, bool, int]]:
    """The sides of an encounter's initiative roll (its record's ``fight.order``), first to
    act first: each ``(name, rank, character, initiative)``, its initiative its successes
    (a botch −1)."""
    typed = dict(args)["combatants"]
    characters = {i + 1 for i, c in enumerate(typed) if c.pool is None}
    return [(e.name, e.rank, e.named in characters, -1 if e.botch else e.successes)
            for e in result.order]

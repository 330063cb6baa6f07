"""Seyruun's attack target (``seyruun attack --vs NAME``), the one operation of the
ruleset that touches a sheet other than the roller's: the target pays
``--defender-willpower`` from its own sheet, under the sheets' lock, before anything is
rolled, and each result carries the target's side in its envelope."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Optional, Protocol

from rpgdice.core.data import Loaded
from rpgdice.table import sheets
from rpgdice.table.sheets import Sheet

if TYPE_CHECKING:
    from rpgdice.rulesets.seyruun.rules import SeyruunAttackResult
    from rpgdice.table.encounter import Encounter, Side


class Wounded(Protocol):
    """A target as its line names it: a sheet, or an extra of the encounter."""

    @property
    def name(self) -> str: ...
    @property
    def wound(self) -> str | None: ...


class _Shown(NamedTuple):
    """An extra as its line names it (its wound None for none)."""

    name: str
    wound: str | None


class TargetPays:
    """``--vs``: the target's side of an attack. It pays ``--defender-willpower`` from its
    sheet (1 a repetition: a declared defense always rolls) before anything is rolled,
    so a target that cannot pay leaves nothing rolled; what was paid is given back if
    the command then fails (given faces that do not fit). Each result gains the
    target's keys (``vs``, ``vs_spent``, ``vs_left``) and what the view shows of it."""

    def __init__(self, sheet: Sheet, cost: int, labels: list[tuple[str, str]]) -> None:
        self.sheet, self.cost, self.labels = sheet, cost, labels
        self.left = sheets.resource(sheet, "willpower")
        if cost:
            _, left = sheets.spend(sheet, "seyruun", {"willpower": cost}, param="--vs")
            self.left = left["willpower"] + cost  # counted down as the repetitions pay
        self.paid = cost
        self.rolled = 0
        self.hurt = Hurt(sheets.resource(sheet, "damage"), sheet.maximum("damage") or 0,
                         sheet.wound or "none")

    def side(self, result: SeyruunAttackResult) -> Loaded:
        """The target's side of the next result (called once a result, in order)."""
        self.rolled += 1
        spent = 1 if self.cost else 0
        self.left -= spent
        out = target_side(result, self.sheet, self.labels,
                          {"willpower": spent} if self.cost else None,
                          {"willpower": self.left} if self.cost else None)
        self.hurt.take(result.damage_dealt, self.sheet.name, out)
        return out

    def apply(self) -> None:
        """Write the damage dealt into the target's sheet, under the lock (what another
        command changed meanwhile, Willpower spent, is kept), the wound following it."""
        dealt = self.hurt.dealt
        if not dealt:
            return

        def hurt(sheet: Sheet) -> tuple[Loaded, None]:
            from rpgdice.rulesets.seyruun.rules import wound_for

            health = sheet.maximum("damage") or 0
            damage = min(health, sheets.resource(sheet, "damage") + dealt)
            return {"damage": damage, "wound": wound_for(damage, health)}, None

        sheets.settle(self.sheet, "seyruun", hurt, "--vs")
        self.hurt.dealt = 0

    def refund(self) -> None:
        if self.paid:
            def give_back(sheet: Sheet) -> tuple[dict[str, int], None]:
                return {"willpower": sheets.resource(sheet, "willpower") + self.paid}, None

            sheets.settle(self.sheet, "seyruun", give_back, "--vs")
            self.paid = 0


def target_side(result: SeyruunAttackResult, sheet: Wounded, labels: list[tuple[str, str]], spent: Optional[dict[str, int]],
                 left: Optional[dict[str, int]], whose: str = "the sheet's") -> Loaded:
    """The target's side of ``result``, for its envelope: what JSON adds for the target
    (``vs_keys``: ``vs``, and ``vs_spent`` and ``vs_left`` where it paid) and what the
    view shows of it (``vs_table``). Not fields of the engine's record."""
    keys = {"vs": sheet.name, **({"vs_spent": spent, "vs_left": left} if spent else {})}
    wound = [("wound", f"{sheet.wound} ({whose})")] if sheet.wound and result.defense is not None else []
    table = {"character": sheet.name, "labels": [*labels, *wound],
             **({"spent": spent, "left": left} if spent else {})}
    return {"vs_keys": keys, "vs_table": table}


class Hurt:
    """The damage a target takes, repetition by repetition (``-n``): each result's dealt
    damage fills its boxes, at most its health, and its wound follows (RULES.md, "Damage
    and wounds"); ``dealt`` is what is still to be written."""

    def __init__(self, damage: int, health: int, wound: str) -> None:
        self.damage, self.health, self.wound, self.dealt = damage, health, wound, 0
        self.replayed = False
        """A replay (``log show --replay``): its line says it changed nothing."""

    def take(self, damage_dealt: int | None, name: str, side: Loaded) -> None:
        """Add a result's damage dealt to the target's ``side`` (its JSON keys and its line)."""
        from rpgdice.rulesets.seyruun.rules import WOUNDS, wound_for

        dealt = damage_dealt or 0
        if not self.replayed:  # the state it found and the damage: the page's take-back
            side["held"] = [{"who": name, "before": {"damage": self.damage,
                                                     "damage-max": self.health},
                             "change": {"damage": dealt}}]
        if dealt:
            self.damage = min(self.health, self.damage + dealt)
            self.wound = wound_for(self.damage, self.health)
            self.dealt += dealt
        side["vs_keys"].update(vs_damage=self.damage, vs_wound=self.wound)
        if damage_dealt is not None and self.replayed:
            side["vs_table"]["hurt"] = f"{name}: +{dealt} damage, replayed: not hurt again"
        elif damage_dealt is not None:
            now = "unhurt" if self.wound == "none" else f"{WORDS[self.wound]} (−{WOUNDS[self.wound]})"
            # What this attack dealt, then where it leaves the target (not a total).
            side["vs_table"]["hurt"] = f"{name}: +{dealt} damage → {self.damage}/{self.health}, {now}"


WORDS = {"light": "lightly wounded", "moderate": "moderately wounded",
         "severe": "severely wounded", "crippled": "crippled"}
"""A wound level as the view line says it: "now severely wounded (−3)"."""


def restate(result: Loaded, envelope: Loaded, step: Loaded,
            before: Loaded) -> None:
    """A stored attack's target side said again from ``before`` (its damage of health), as
    :meth:`Hurt.take` said it: ``vs_damage``, ``vs_wound``, the damage line, the wound its
    defense was shown with (serve/secrecy.py: a public roll while a secret one before it is
    unrevealed)."""

    from rpgdice.rulesets.seyruun.rules import wound_for

    damage, health = before.get("damage"), before.get("damage-max")
    if "damage" not in step.get("change", {}) or not isinstance(damage, int) \
            or not isinstance(health, int):
        return
    wound = wound_for(damage, health)
    keys, table = envelope.get("vs_keys"), envelope.get("vs_table")
    side = {"vs_keys": dict(keys) if isinstance(keys, dict) else {},
            "vs_table": dict(table) if isinstance(table, dict) else {}}
    labels = side["vs_table"].get("labels")
    if isinstance(labels, list):  # the wound the target's defense was shown with
        whose = next((str(x[1]).partition(" ")[2] for x in labels
                      if isinstance(x, list) and len(x) == 2 and x[0] == "wound"), "")
        side["vs_table"]["labels"] = [x for x in labels if not (isinstance(x, list) and x
                                                               and x[0] == "wound")]
        if whose and wound != "none":
            side["vs_table"]["labels"].append(["wound", f"{wound} {whose}"])
    hurt = Hurt(damage, health, wound)
    dealt = result.get("damage_dealt")
    hurt.take(dealt if isinstance(dealt, int) else None, str(step.get("who")), side)
    side.pop("held", None)
    envelope.update(side)
    result.update(vs_damage=hurt.damage, vs_wound=hurt.wound)


def held(side: Loaded, diff: dict[str, int]) -> Loaded:
    """An encounter side with the damage and Willpower ``diff`` undone: its wound, its
    state and whether it is out (by damage) following."""
    from rpgdice.rulesets import shifted
    from rpgdice.rulesets.seyruun.rules import wound_for

    out = shifted(side, {k: n for k, n in diff.items() if k != "damage"})
    if diff.get("willpower", 0) > 0 and isinstance(out.get("willpower"), int):
        top = _maximum(str(side.get("name")), "willpower")  # never above it (a sheet set by hand)
        if top is not None:
            out["willpower"] = min(top, out["willpower"])
    damage, health = side.get("damage"), side.get("health")
    if diff.get("damage") and isinstance(damage, int) and isinstance(health, int):
        by_hand = bool(side.get("out")) and not (health and damage >= health)
        now = min(health, max(0, damage + diff["damage"]))
        wound = wound_for(now, health)
        out.update(damage=now, wound=wound, out=by_hand or (bool(health) and now >= health))
        if side.get("state") is not None:
            out["state"] = wound
    return out


def _maximum(name: str, resource: str) -> Optional[int]:
    """The maximum of a character's resource (None: none, or no such sheet)."""
    from rpgdice.core.errors import RulesError

    try:
        top = sheets.load(name, "encounter").maximum(resource)
    except (RulesError, OSError):
        return None
    return top if isinstance(top, int) else None


class ExtraTarget:
    """``--vs NAME`` naming an extra of the current encounter (a ``NAME=POOL`` combatant,
    no sheet): its wound applies to its defense, and the damage dealt is kept in the
    encounter (rpgdice.table.encounter), under its lock. An extra has no Willpower."""

    def __init__(self, side: Side, labels: list[tuple[str, str]]) -> None:
        self.name, self.labels = side.name, labels
        self.shown = _Shown(side.name, None if side.wound == "none" else side.wound)
        self.hurt = Hurt(side.damage or 0, side.health or 0, side.wound or "none")

    def side(self, result: SeyruunAttackResult) -> Loaded:
        out = target_side(result, self.shown, self.labels, None, None, "the encounter's")
        self.hurt.take(result.damage_dealt, self.name, out)
        return out

    def apply(self) -> None:
        """Add the damage dealt to the extra in the encounter, its wound following."""
        dealt = self.hurt.dealt
        if not dealt:
            return
        from rpgdice.core.errors import RulesError
        from rpgdice.rulesets.seyruun.rules import wound_for
        from rpgdice.table import encounter

        def hurt(enc: Encounter) -> None:
            side = enc.extra(self.name)
            if side is None:
                raise RulesError("--vs", f"{self.name} is no longer in the encounter; its "
                                 "damage was not kept")
            assert side.damage is not None and side.health is not None  # an extra's, set when added
            side.damage = min(side.health, side.damage + dealt)
            side.wound = wound_for(side.damage, side.health)

        encounter.update(hurt)
        self.hurt.dealt = 0

    def refund(self) -> None:
        """An extra pays nothing, so there is nothing to give back."""


def encounter_extra(name: str) -> Side | None:
    """The extra of the current encounter called ``name``, or None."""
    from rpgdice.table import encounter

    found = encounter.load()
    return None if found is None else found.extra(name)


def target_named(name: str) -> tuple[Optional[Sheet], Optional[Side]]:
    """``--vs NAME``: a saved Seyruun character's sheet, else an extra of the encounter
    (its damage kept there)."""
    from rpgdice.core.errors import RulesError
    from rpgdice.rulesets.seyruun.initiative import seyruun_sheet

    try:
        return seyruun_sheet(name, "--vs"), None
    except RulesError as e:
        extra = encounter_extra(name) if "no character" in e.message else None
        if extra is None:
            raise
        return None, extra

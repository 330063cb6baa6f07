"""The Cypher System's attack target (``cypher task --attack --damage N --vs NAME``) and
recovery (``cypher recover``): what touches a sheet, or the encounter, for the rules of
RULES.md "Cypher damage and recovery" (the arithmetic is rules.py's)."""

from __future__ import annotations

from typing import Any

from rpgdice.core.errors import RulesError, shown
from rpgdice.rulesets.cypher import POOLS


def pools_of(sheet: Any) -> dict[str, int]:
    """The Pools a sheet has (a Pool it lacks is no Pool: never hurt nor counted)."""
    return {p: v for p in POOLS if isinstance(v := sheet.get(p), int)}


def state_of(sheet: Any) -> str | None:
    """A character's place on the damage track (None: a sheet with no Pools)."""
    from rpgdice.rulesets.cypher.rules import track

    pools = pools_of(sheet)
    return track(list(pools.values())) if pools else None


def target_named(name: str) -> tuple[Any, Any]:
    """``--vs NAME``: a saved Cypher character's sheet, else an extra of the encounter
    with health (one without cannot take damage: a usage error with the hint)."""
    from rpgdice.table import encounter, sheets

    try:
        sheet = sheets.load(name, "--vs")
    except RulesError as e:
        if "no character" not in e.message:
            raise
        found = encounter.load()
        extra = None if found is None else found.extra(name)
        if extra is None:
            raise
        if extra.health is None:
            raise RulesError("--vs", f"{shown(extra.name)} is an extra with no health: give it "
                             "some (rpgdice encounter add NAME@INIT --health N)") from None
        return None, extra
    if sheet.ruleset != "cypher":
        raise RulesError("--vs", f"{sheet.name} is a {sheet.ruleset} character, and this "
                         "attack is a Cypher one")
    return sheet, None


class Hurt:
    """The damage an attack deals its target, repetition by repetition (``-n``): a
    character's Pools (Might, then Speed, then Intellect, its armor first), or an extra's
    health; :meth:`apply` writes what was dealt once the roll was shown."""

    def __init__(self, sheet: Any, extra: Any, damage: int, impaired: bool) -> None:
        self.sheet, self.extra, self.damage, self.impaired = sheet, extra, damage, impaired
        self.name = sheet.name if sheet is not None else extra.name
        armor = sheet.get("armor", 0) if sheet is not None else 0
        self.armor = armor if isinstance(armor, int) else 0
        self.pools = pools_of(sheet) if sheet is not None else {}
        self.taken = 0 if sheet is not None else (extra.damage or 0)
        self.dealt = 0
        self.replaying = False

    def state(self) -> str:
        from rpgdice.rulesets.cypher.rules import track

        if self.sheet is not None:
            return track(list(self.pools.values())) if self.pools else "hale"
        return "dead" if self.taken >= self.extra.health else "hale"

    def side(self, result: Any) -> dict[str, Any]:
        """The target's side of the next result: its JSON keys and its line."""
        from rpgdice.rulesets.cypher.rules import after_armor, hit, take

        points = after_armor(hit(result, self.damage, self.impaired), self.armor)
        if points:
            if self.sheet is not None:
                self.pools = take(self.pools, points)
            else:
                self.taken = min(self.extra.health, self.taken + points)
            self.dealt += points
        now = self.state()
        keys = {"vs": self.name, "vs_damage": points, "vs_state": now}
        armor = f" (armor {self.armor})" if self.armor and result.outcome == "success" else ""
        table = {"character": self.name, "labels": [],
                 "hurt": f"{self.name}: {points} damage{armor}, now {now}"}
        return {"vs_keys": keys, "vs_table": table}

    def apply(self) -> None:
        """Write the damage into the target's sheet (its Pools as they are now, under the
        lock) or the encounter's extra."""
        dealt, self.dealt = self.dealt, 0
        if not dealt:
            return
        if self.sheet is not None:
            from rpgdice.rulesets.cypher.rules import take
            from rpgdice.table import sheets

            def hurt(fresh: Any) -> tuple[dict[str, int], None]:
                return take(pools_of(fresh), dealt), None

            sheets.settle(self.sheet, "cypher", hurt, "--vs")
            return
        from rpgdice.table import encounter

        def hurt_extra(enc: Any) -> None:
            side = enc.extra(self.name)
            if side is None or side.health is None:
                raise RulesError("--vs", f"{shown(self.name)} is no longer in the encounter; "
                                 "its damage was not kept")
            side.damage = min(side.health, (side.damage or 0) + dealt)

        encounter.update(hurt_extra)


def recovered(sheet: Any, result: Any, reset: bool) -> None:
    """Write a recovery into the sheet: the points it gave, on the Pools as they are now
    (within their maxima), and the recovery of the day used."""
    from rpgdice.table import sheets

    def heal(fresh: Any) -> tuple[dict[str, int], None]:
        out: dict[str, int] = {}
        for name, n in result.to.items():
            value = sheets.resource(fresh, name) + n
            top = fresh.maximum(name)
            out[name] = value if top is None else min(top, value)
        used = 0 if reset else sheets.resource(fresh, "recoveries")
        out["recoveries"] = min(4, used + 1)
        return out, None

    sheets.settle(sheet, "cypher", heal, "--as")

"""The Cypher System's attack target (``cypher task --attack --damage N --vs NAME``) and
recovery (``cypher recover``): what touches a sheet, or the encounter, for the rules of
RULES.md "Cypher damage and recovery" (the arithmetic is rules.py's)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rpgdice.core.data import JSONObject, Loaded
from rpgdice.core.errors import RulesError, shown
from rpgdice.rulesets.cypher import POOLS

if TYPE_CHECKING:
    from rpgdice.rulesets.cypher.rules import CypherRecoveryResult, CypherResult
    from rpgdice.table.encounter import Encounter, Side
    from rpgdice.table.sheets import Sheet


def pools_of(sheet: Sheet) -> dict[str, int]:
    """The Pools a sheet has (a Pool it lacks is no Pool: never hurt nor counted)."""
    return {p: v for p in POOLS if isinstance(v := sheet.get(p), int)}


def state_of(sheet: Sheet) -> str | None:
    """A character's place on the damage track (None: a sheet with no Pools)."""
    from rpgdice.rulesets.cypher.rules import track

    pools = pools_of(sheet)
    return track(list(pools.values())) if pools else None


def target_named(name: str) -> tuple[Sheet | None, Side | None]:
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

    def __init__(self, sheet: Sheet | None, extra: Side | None, damage: int, impaired: bool) -> None:
        self.sheet, self.extra, self.damage, self.impaired = sheet, extra, damage, impaired
        self.health = 0
        """An extra's health (a character's Pools are its track)."""
        if sheet is not None:
            self.name, self.taken = sheet.name, 0
        else:
            assert extra is not None and extra.health is not None  # target_named's extra
            self.name, self.taken, self.health = extra.name, extra.damage or 0, extra.health
        armor = sheet.get("armor", 0) if sheet is not None else 0
        self.armor = armor if isinstance(armor, int) else 0
        self.pools = pools_of(sheet) if sheet is not None else {}
        self.dealt = 0
        self.replaying = False

    def state(self) -> str:
        from rpgdice.rulesets.cypher.rules import track

        if self.sheet is not None:
            return track(list(self.pools.values())) if self.pools else "hale"
        return "dead" if self.taken >= self.health else "hale"

    def side(self, result: CypherResult) -> Loaded:
        """The target's side of the next result: its JSON keys and its line."""
        from rpgdice.rulesets.cypher.rules import after_armor, hit, take

        points = after_armor(hit(result, self.damage, self.impaired), self.armor)
        held = None
        if not self.replaying:  # the state it found and the hit: the page's take-back
            held = [{"who": self.name, "change": {"hit": points}, "before": dict(self.pools)}
                    if self.sheet is not None else
                    {"who": self.name, "change": {"damage": points},
                     "before": {"damage": self.taken, "damage-max": self.health}}]
        was = dict(self.pools) if self.sheet is not None else {
            "damage": self.taken, "damage-max": self.health}
        if points:
            if self.sheet is not None:
                self.pools = take(self.pools, points)
            else:
                self.taken = min(self.health, self.taken + points)
            self.dealt += points
        now = self.state()
        keys = {"vs": self.name, "vs_damage": points, "vs_state": now}
        armor = self.armor if self.armor and result.outcome == "success" else 0
        is_ = dict(self.pools) if self.sheet is not None else {
            "damage": self.taken, "damage-max": self.health}
        table: JSONObject = {"character": self.name, "labels": [],
                 "hurt": hurt_line(self.name, points, armor, was, is_, now)}
        return {"vs_keys": keys, "vs_table": table, **({"held": held} if held else {})}

    def apply(self) -> None:
        """Write the damage into the target's sheet (its Pools as they are now, under the
        lock) or the encounter's extra."""
        dealt, self.dealt = self.dealt, 0
        if not dealt:
            return
        if self.sheet is not None:
            from rpgdice.rulesets.cypher.rules import take
            from rpgdice.table import sheets

            def hurt(fresh: Sheet) -> tuple[dict[str, int], None]:
                return take(pools_of(fresh), dealt), None

            sheets.settle(self.sheet, "cypher", hurt, "--vs")
            return
        from rpgdice.table import encounter

        def hurt_extra(enc: Encounter) -> None:
            side = enc.extra(self.name)
            if side is None or side.health is None:
                raise RulesError("--vs", f"{shown(self.name)} is no longer in the encounter; "
                                 "its damage was not kept")
            side.damage = min(side.health, (side.damage or 0) + dealt)

        encounter.update(hurt_extra)


def recovered(sheet: Sheet, result: CypherRecoveryResult, reset: bool) -> None:
    """Write a recovery into the sheet: the points it gave, on the Pools as they are now
    (within their maxima), and the recovery of the day used."""
    from rpgdice.table import sheets

    def heal(fresh: Sheet) -> tuple[dict[str, int], None]:
        out: dict[str, int] = {}
        for name, n in result.to.items():
            value = sheets.resource(fresh, name) + n
            top = fresh.maximum(name)
            out[name] = value if top is None else min(top, value)
        used = 0 if reset else sheets.resource(fresh, "recoveries")
        out["recoveries"] = min(4, used + 1)
        return out, None

    sheets.settle(sheet, "cypher", heal, "--as")


def redo(state: Loaded, change: Loaded) -> Loaded:
    """A step made again on another state: a hit (``hit``) off the Pools in their order, a
    recovery's points (``recover``, split by ``to-POOL`` when the player split them) back
    into them within their maxima, anything else added within 0 and its maximum (an
    extra's damage, the day's recoveries)."""
    from rpgdice.rulesets import add_within
    from rpgdice.rulesets.cypher.rules import recover, take

    out = add_within(state, {k: v for k, v in change.items()
                             if k not in ("hit", "recover") and not k.startswith("to-")})
    pools = {p: v for p in POOLS if isinstance(v := out.get(p), int)}
    points = change.get("hit")
    if isinstance(points, int):
        out.update(take(pools, points))
    points = change.get("recover")
    if isinstance(points, int):
        split = {k[3:]: v for k, v in change.items() if k.startswith("to-")} or None
        maxima = {p: m if isinstance(m := state.get(f"{p}-max"), int) else None for p in pools}
        out.update(recover(pools, maxima, points, split)[0])
    return out


def hurt_line(name: str, points: int, armor: int, before: Loaded,
              after: Loaded, now: str) -> str:
    """A hit's line: ``Nix: 5 damage (armor 1; Might 6 → 2), now impaired`` — the Pools it
    lowered (an extra's ``health 8 → 3``) and the damage track's word after it."""
    moved = []
    if "damage-max" in before:
        most, was, got = before.get("damage-max"), before.get("damage"), after.get("damage")
        if isinstance(most, int) and isinstance(was, int) and isinstance(got, int) and was != got:
            moved.append(f"health {most - was} → {most - got}")
    else:
        moved = [f"{p.capitalize()} {before[p]} → {after[p]}" for p in POOLS
                 if isinstance(before.get(p), int) and isinstance(after.get(p), int)
                 and before[p] != after[p]]
    said = "; ".join([*([f"armor {armor}"] if armor else []), *moved])
    return f"{name}: {points} damage{f' ({said})' if said else ''}, now {now}"


def restate(result: Loaded, envelope: Loaded, step: Loaded,
            before: Loaded) -> None:
    """A stored result said again from ``before`` (serve/secrecy.py: a public roll while a
    secret one before it is unrevealed): an attack's ``vs_state`` and damage line, a
    recovery's ``pools`` and which recovery of the day it was."""
    import re

    from rpgdice.rulesets.cypher.rules import RECOVERIES, track

    change = step.get("change") or {}
    after = redo(before, change)
    if "hit" in change or "damage" in change:
        if "hit" in change:
            now = track([v for p in POOLS if isinstance(v := after.get(p), int)])
        else:
            health = after.get("damage-max")
            now = "dead" if isinstance(health, int) and after.get("damage", 0) >= health else "hale"
        keys, table = envelope.get("vs_keys"), envelope.get("vs_table")
        if isinstance(keys, dict):
            envelope["vs_keys"] = {**keys, "vs_state": now}
        if isinstance(table, dict) and isinstance(table.get("hurt"), str):
            found = re.match(r"(.*): (\d+) damage(?: \(armor (\d+))?", table["hurt"])
            if found:
                envelope["vs_table"] = {**table, "hurt": hurt_line(
                    found[1], int(found[2]), int(found[3] or 0), before, after, now)}
        result["vs_state"] = now
    if "recover" in change and isinstance(result.get("pools"), dict):
        result["pools"] = {p: after.get(p, v) for p, v in result["pools"].items()}
        if isinstance(result.get("to"), dict):
            result["to"] = {p: after.get(p, 0) - before.get(p, 0) for p in result["to"]}
        used = before.get("recoveries")
        if isinstance(used, int) and 0 <= used < len(RECOVERIES):
            result["recovery"] = RECOVERIES[used]


def held(side: Loaded, diff: dict[str, int]) -> Loaded:
    """An encounter side with what secret rolls changed undone: a character's Pools (its
    damage track and out following), an extra's damage (its state and out following)."""
    from rpgdice.rulesets.cypher.rules import track

    out = dict(side)
    pools = side.get("pools")
    by_hand = bool(side.get("out")) and side.get("state") != "dead"
    if isinstance(pools, dict):
        moved = {p: dict(v) for p, v in pools.items() if isinstance(v, dict)}
        for p, n in diff.items():
            slot = moved.get(p)
            if slot is not None and isinstance(slot.get("value"), int):
                value = max(0, slot["value"] + n)
                top = slot.get("max")
                slot["value"] = min(top, value) if isinstance(top, int) else value
        state = track([v["value"] for v in moved.values() if isinstance(v.get("value"), int)])
        out.update(pools=moved, state=state, out=by_hand or state == "dead")
    damage, health = side.get("damage"), side.get("health")
    if diff.get("damage") and isinstance(damage, int) and isinstance(health, int):
        now = min(health, max(0, damage + diff["damage"]))
        out.update(damage=now, state="dead" if now >= health else "hale",
                   out=by_hand or now >= health)
    return out

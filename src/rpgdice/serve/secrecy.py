"""Secret rolls keep their effects secret (CLI.md, "Showing the table"): what an unrevealed
secret roll did to the table — the damage an attack dealt its target, the Willpower its
character or its target paid — is taken back out of the encounter the page shows, until
``rpgdice log reveal``. The log entry of a secret roll keeps what it did (its results'
``damage_dealt``, its envelopes' ``spent`` and ``vs_spent``), so nothing else is needed."""

from __future__ import annotations

from typing import Any

from rpgdice.core.names import fold

MOST = 500
"""The unrevealed secret entries read (the newest): a table keeps a handful."""


def unrevealed(reader: Any) -> list[dict[str, Any]]:
    """The newest unrevealed secret entries the log holds (``[]`` when it cannot tell)."""
    from rpgdice.serve import follow

    def read(con: Any) -> list[dict[str, Any]]:
        have = {row[1] for row in con.execute("PRAGMA table_info(entries)")}
        if not {"secret", "revealed_at"} <= have:
            return []
        rows = con.execute(f"SELECT {reader.columns} FROM entries WHERE secret = 1 AND "
                           "revealed_at IS NULL ORDER BY id DESC LIMIT ?", (MOST,)).fetchall()
        return [follow._entry(row) for row in rows]

    try:
        return list(reader._run(read))
    except follow.Unreadable:
        return []


def _willpower(spent: Any) -> int:
    value = spent.get("willpower") if isinstance(spent, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def hidden(entries: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """What the entries did, by combatant (its name folded): ``damage`` dealt to it and
    ``willpower`` it paid."""
    out: dict[str, dict[str, int]] = {}

    def add(name: Any, key: str, amount: int) -> None:
        if isinstance(name, str) and amount > 0:
            slot = out.setdefault(fold(name), {"damage": 0, "willpower": 0})
            slot[key] += amount

    for entry in entries:
        shown = entry.get("shown") if isinstance(entry.get("shown"), dict) else {}
        envelopes = shown.get("envelopes") if isinstance(shown, dict) else None
        envelopes = envelopes if isinstance(envelopes, list) else []
        for n, result in enumerate(entry.get("results") or []):
            env: dict[str, Any] = envelopes[n] if n < len(envelopes) and isinstance(
                envelopes[n], dict) else {}
            table = env.get("table")
            table = table if isinstance(table, dict) else {}
            add(entry.get("character"), "willpower", _willpower(table.get("spent")))
            keys = env.get("vs_keys")
            keys = keys if isinstance(keys, dict) else {}
            target = keys.get("vs")
            add(target, "willpower", _willpower(keys.get("vs_spent")))
            dealt = result.get("damage_dealt") if isinstance(result, dict) else None
            if isinstance(dealt, int) and not isinstance(dealt, bool):
                add(target, "damage", dealt)
    return out


def public(state: Any, effects: dict[str, dict[str, int]]) -> Any:
    """The encounter's state (``encounter --json``) as it was before the hidden effects:
    each combatant's damage less what secret rolls dealt it (its wound following), its
    Willpower with what it paid in secret given back."""
    if state is None or not effects:
        return state
    from rpgdice.rulesets.seyruun.rules import wound_for

    order = []
    for side in state["order"]:
        undo = effects.get(fold(str(side.get("name"))))
        if undo is not None:
            side = dict(side)
            if undo["damage"] and isinstance(side.get("damage"), int):
                side["damage"] = max(0, side["damage"] - undo["damage"])
                if isinstance(side.get("health"), int):
                    side["wound"] = wound_for(side["damage"], side["health"])
            if undo["willpower"] and isinstance(side.get("willpower"), int):
                side["willpower"] += undo["willpower"]
        order.append(side)
    return {**state, "order": order}

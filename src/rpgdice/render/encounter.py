"""The terminal view of an encounter (``rpgdice encounter``): the one a game master
glances at between turns — the round, the order with whose turn it is marked, each side's
initiative, wound, damage of health and Willpower, and its conditions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table
from rich.text import Text

from rpgdice.core.data import Loaded
from rpgdice.core.errors import visible
from rpgdice.render.common import wrap

if TYPE_CHECKING:
    from rich.console import RenderableType

WOUND_STYLE = {"none": "green", "light": "yellow", "moderate": "yellow", "severe": "bold red",
               "crippled": "bold red"}
PENALTY = {"light": 1, "moderate": 2, "severe": 3, "crippled": 5}


def _wound(wound: str | None) -> Text:
    if wound is None:
        return Text("—", style="dim")
    if wound == "none":
        return Text("unhurt", style="green")
    return Text(f"{wound} (−{PENALTY.get(wound, 0)})", style=WOUND_STYLE.get(wound, ""))


def _damage(side: Loaded) -> Text:
    """Seyruun's track: a box filled for each point of damage taken, ``■■□□□ 2/5``."""
    damage, health = side.get("damage"), side.get("health")
    if damage is None:
        return Text("—", style="dim")
    if isinstance(health, int) and 0 < health <= 20:
        return Text.assemble(("■" * damage, "red"), ("□" * max(0, health - damage), "dim"),
                             (f" {damage}/{health}", "dim"))
    return Text(f"{damage}/{health}")


def _health(side: Loaded) -> Text:
    """Cypher's NPC health: what is left of it, counted down as damage lowers it, a box
    filled for each point left, ``■■■□□ 3/5`` (as its lines say ``health 5 → 3``)."""
    damage, health = side.get("damage"), side.get("health")
    if not isinstance(health, int):
        return Text("—", style="dim")
    left = max(0, health - (damage or 0))
    if 0 < health <= 20:
        return Text.assemble(("■" * left, "green"), ("□" * (health - left), "dim"),
                             (f" {left}/{health}", "dim"))
    return Text(f"{left}/{health}")


HURT = {"damage": _damage, "health": _health}
"""Each way a ruleset says a side's hurt (its ``fight.track``): the column's cell."""


def track_of(ruleset: str | None) -> str | None:
    """The way ``ruleset`` says a side's hurt (``damage``, ``health``, or None: no
    column); an encounter whose ruleset is not known, damage, as before it was said."""
    from rpgdice.core import registry

    if ruleset is None or not registry.known(ruleset):
        return "damage"
    return registry.get(ruleset).fight.track


INIT_COLUMN = 60
"""The narrowest terminal the initiative has a column of its own on (narrower, it follows
the name: the names' words stay whole)."""


def encounter_view(state: Loaded, width: int = 80, ruleset: str | None = None) -> Group:
    """The encounter ``state`` (its JSON object) of ``ruleset``: its header (wrapped
    between words, a long name too) above a table of the order, the current side marked
    ▶; a side's hurt in the ruleset's one way (:func:`track_of`)."""
    current = state["turn"]
    title = Text.assemble(("Encounter · round ", "bold"), (str(state["round"]), "bold cyan"),
                          ("  ·  turn: ", "dim"), (visible(state["current"]), "bold"))
    table = Table(box=None, pad_edge=False, padding=(0, 1), show_edge=False, header_style="dim")
    table.add_column("", width=1)
    table.add_column("#", justify="right")
    apart = width >= INIT_COLUMN  # narrower: the initiative follows the name
    if apart:
        table.add_column("init", justify="right")
    table.add_column("name", style="bold", overflow="fold")
    wounds = any(side.get("wound") is not None for side in state["order"])
    pools = any(side.get("pools") for side in state["order"])
    states = wounds or any(side.get("state") for side in state["order"])
    willpower = any(side.get("willpower") is not None for side in state["order"])
    if states:  # a column no side has a word for says nothing (Crytures, Reglas)
        table.add_column("wound" if wounds else "state")
    track = track_of(ruleset)
    if track is not None:
        table.add_column(track)
    if pools:
        table.add_column("pools")
    if willpower:  # Seyruun's alone
        table.add_column("WP", justify="right")
    conditions = any(side.get("conditions") for side in state["order"])
    if conditions:
        table.add_column("conditions", overflow="fold")
    for i, side in enumerate(state["order"]):
        here = i == current
        name = Text(visible(side["name"]), style="bold reverse" if here else "bold")
        if not side["character"]:
            name.append(" (extra)", style="dim")
        if side.get("out"):
            name.append(" out", style="bold red")
        wp = side.get("willpower")
        word = _wound(side.get("wound")) if wounds and side.get("wound") is not None else (
            Text(side["state"], style=STATE_STYLE.get(side["state"], ""))
            if side.get("state") else Text("—", style="dim"))
        init = side.get("initiative")
        if not apart and init is not None:
            name.append(f" init {init}", style="dim")
        cells: list[RenderableType] = [Text("▶", style="bold cyan") if here else "", str(side["rank"]),
                            *([Text("—", style="dim") if init is None else str(init)] if apart else []),
                            name,
                            *([word] if states else []),
                            *([HURT[track](side)] if track is not None else [])]
        if pools:
            cells.append(_pools(side.get("pools")))
        if willpower:
            cells.append(Text("—", style="dim") if wp is None else str(wp))
        if conditions:
            cells.append(_conditions(side.get("conditions")))
        table.add_row(*cells, style="dim" if side.get("out") and not here else None)
    return Group(Text("\n").join(wrap(title, width)), table)


STATE_STYLE = {"hale": "green", "impaired": "yellow", "debilitated": "bold red", "dead": "bold red"}


def _pools(pools: Loaded | None) -> Text:
    """Cypher's Pools: ``M 5/10 S 3/8 I 9/9``."""
    if not pools:
        return Text("—", style="dim")
    return Text(" ".join(f"{k[0].upper()} {v['value']}/{v['max'] if v['max'] is not None else '?'}"
                         for k, v in pools.items()))


def _conditions(conditions: list[Loaded] | None) -> Text:
    """A side's conditions, each with the rounds it has left: ``prone (2), blessed +1``."""
    if not conditions:
        return Text("—", style="dim")
    return Text(", ".join(condition_words(c) for c in conditions), style="magenta")


def condition_words(condition: Loaded) -> str:
    """One condition as shown (control characters made visible), its rounds left after it."""
    rounds = condition.get("rounds")
    return visible(condition.get("name")) + ("" if rounds is None else f" ({rounds})")

"""The terminal view of a character sheet (``rpgdice char show``): attributes and
skills with their dots, Willpower as dots and points, the wound, and Cypher's Pools
with their Edge and the Effort level."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from rpgdice.core.names import fold

ATTRIBUTES = {
    "seyruun": {
        "intelligence", "wits", "resolve", "strength", "dexterity", "stamina", "constitution",
        "presence", "manipulation", "composure", "charisma",
    },
    "reglas": {
        "fuerza", "destreza", "agilidad", "constitucion", "resistencia", "inteligencia",
        "percepcion", "voluntad", "carisma", "presencia", "poder", "astucia",
    },
}
"""Trait names the view files under the ruleset's attributes; the rest are skills."""
HEADINGS = {
    "seyruun": ("Attributes", "Skills"),
    "reglas": ("Atributos", "Habilidades"),
    "crytures": ("Traits", "Traits"),
    "cypher": ("Traits", "Skills"),
}
RULESET_NAMES = {"crytures": "Crytures", "seyruun": "Seyruun", "reglas": "Reglas Básicas",
                 "cypher": "Cypher System"}
WOUND_PENALTY = {"light": 1, "moderate": 2, "severe": 3, "crippled": 5}
DOTS_UP_TO = 10
"""Ratings up to this show as dots; larger ones as a number."""


def dots(value: int, top: int = 5) -> Text:
    if value > DOTS_UP_TO or top > DOTS_UP_TO:
        return Text(str(value), style="bold")
    top = max(top, value)
    return Text.assemble(("●" * value, "bold green"), ("○" * (top - value), "dim"),
                         (f"  {value}", "dim"))


def _label(name: str) -> str:
    return name[:1].upper() + name[1:]


def _column(title: str, rows: list[tuple[str, Any]]) -> Table:
    table = Table(title=title, title_style="bold cyan", title_justify="left", show_header=False,
                  box=None, pad_edge=False, padding=(0, 2, 0, 0))
    table.add_column(style="bold")
    table.add_column()
    for name, value in rows:
        table.add_row(_label(name), value if isinstance(value, Text) else dots(value))
    return table


def sheet_view(sheet: Any) -> Panel:
    from rpgdice.table.sheets import CYPHER_POOLS, CYPHER_SKILLS, RESERVED

    reserved = {fold(r) for r in RESERVED.get(sheet.ruleset, ())}
    attributes = ATTRIBUTES.get(sheet.ruleset, set())
    attr_rows, skill_rows, skill_levels = [], [], []
    for name, value in sheet.traits.items():
        folded = fold(name)
        if folded in reserved:
            continue
        if isinstance(value, str):
            if value in CYPHER_SKILLS:
                skill_levels.append((name, Text(value, style="red" if value == "inability" else "green")))
            continue
        if sheet.ruleset in ("seyruun", "reglas") and folded in attributes:
            attr_rows.append((name, value))
        else:
            skill_rows.append((name, value))
    first, second = HEADINGS[sheet.ruleset]
    parts: list[Any] = []
    columns = Table.grid(padding=(0, 4))
    cells = []
    if attr_rows:
        cells.append(_column(first, attr_rows))
    if skill_rows:
        cells.append(_column(second if attr_rows else first, skill_rows))
    if skill_levels:
        cells.append(_column("Skills", skill_levels))
    if cells:
        for _ in cells:
            columns.add_column(vertical="top")
        columns.add_row(*cells)
        parts.append(columns)
    if sheet.ruleset == "seyruun":
        state = _seyruun_state(sheet)
        parts.append(state if parts else state[1:])
    if sheet.ruleset == "cypher":
        parts.append(_cypher_pools(sheet, CYPHER_POOLS))
    if not parts:
        parts.append(Text("no traits yet: rpgdice char set NAME TRAIT=VALUE", style="dim italic"))
    title = Text.assemble((sheet.name, "bold"), (f" · {RULESET_NAMES[sheet.ruleset]}", "dim"))
    parts.append(Text(f"\n{sheet.path}", style="dim"))
    return Panel(Group(*parts), title=title, title_align="left", expand=False)


def _seyruun_state(sheet: Any) -> Text:
    top = sheet.willpower_max
    points = sheet.willpower
    line = Text.assemble(("\nWillpower ", "bold cyan"))
    if top is not None:
        line.append_text(dots(points, top) if top <= DOTS_UP_TO else Text(str(points)))
        line.append(f"  ({points} of {top})", style="dim")
    else:
        line.append(f"{points} points", style="bold")
        line.append("  (maximum: composure + resolve, when both are set)", style="dim")
    line.append("\nWound     ", style="bold cyan")
    wound = sheet.wound
    if wound is None:
        line.append("none", style="green")
    else:
        n = WOUND_PENALTY[wound]
        line.append(f"{wound} (−{n} {'die' if n == 1 else 'dice'})", style="bold red")
    return line


def _cypher_pools(sheet: Any, pools: tuple[str, ...]) -> Table:
    table = Table(title="Pools", title_style="bold cyan", title_justify="left", box=None,
                  pad_edge=False, padding=(0, 2, 0, 0))
    table.add_column("", style="bold")
    table.add_column("Pool", justify="right")
    table.add_column("Edge", justify="right")
    for pool in pools:
        value = sheet.get(pool)
        table.add_row(_label(pool), "—" if value is None else str(value), str(sheet.edge(pool)))
    level = sheet.effort_level
    table.caption = f"Effort {level}" if level is not None else "Effort level not set"
    table.caption_justify = "left"
    return table

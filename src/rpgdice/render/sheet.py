"""The terminal view of a character sheet (``rpgdice char show``): attributes and
skills with their dots, Willpower as dots and points, the wound, and Cypher's Pools
with their Edge and the Effort level."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from rpgdice.core.errors import visible
from rpgdice.core.names import fold

DOTS_UP_TO = 10
"""Ratings up to this show as dots; larger ones as a number."""


def dots(value: int, top: int = 5) -> Text:
    if value > DOTS_UP_TO or top > DOTS_UP_TO:
        return Text(str(value), style="bold")
    top = max(top, value)
    return Text.assemble(("●" * value, "bold green"), ("○" * (top - value), "dim"),
                         (f"  {value}", "dim"))


def _label(name: str) -> str:
    return visible(name[:1].upper() + name[1:])  # a trait's name as the file spells it


def _column(title: str, rows: list[tuple[str, Any]]) -> Table:
    table = Table(title=title, title_style="bold cyan", title_justify="left", show_header=False,
                  box=None, pad_edge=False, padding=(0, 2, 0, 0))
    table.add_column(style="bold")
    table.add_column()
    for name, value in rows:
        table.add_row(_label(name), value if isinstance(value, Text) else dots(value))
    return table


def sheet_view(sheet: Any) -> Panel:
    """A sheet as its ruleset's record describes it: attributes and other traits under its
    headings, skill levels, then the ruleset's own part (Willpower and the wound, the
    Pools), its view's ``sheet_part``."""
    from rpgdice import rulesets

    record = rulesets.get(sheet.ruleset)
    schema = record.sheet
    assert schema is not None  # a sheet's ruleset keeps sheets (table.sheets checks)
    parts: list[Any] = []
    columns = _trait_columns(sheet, schema)
    if columns is not None:
        parts.append(columns)
    own = record.views().sheet_part
    if own is not None:
        part = own(sheet)
        parts.append(part if parts or not isinstance(part, Text) else part[1:])
    if not parts:
        parts.append(Text("no traits yet: rpgdice char set NAME TRAIT=VALUE", style="dim italic"))
    title = Text.assemble((visible(sheet.name), "bold"), (f" · {record.title}", "dim"))
    parts.append(Text(f"\n{visible(sheet.path)}", style="dim"))
    return Panel(Group(*parts), title=title, title_align="left", expand=False)


def _trait_columns(sheet: Any, schema: Any) -> Table | None:
    """The sheet's rated traits, attributes apart where the ruleset names them, and its
    skill levels (Cypher); None when it has none."""
    reserved = {fold(r.name) for r in schema.reserved}
    attr_rows, skill_rows, skill_levels = [], [], []
    for name, value in sheet.traits.items():
        folded = fold(name)
        if folded in reserved:
            continue
        if isinstance(value, str):
            if value in schema.skill_words:
                skill_levels.append((name, Text(value, style="red" if value == "inability" else "green")))
            continue
        if folded in schema.attributes or fold(name) in {fold(m) for m in sheet.marked}:
            attr_rows.append((name, value))
        else:
            skill_rows.append((name, value))
    first, second = schema.headings
    cells = []
    if attr_rows:
        cells.append(_column(first, attr_rows))
    if skill_rows:
        cells.append(_column(second if attr_rows else first, skill_rows))
    if skill_levels:
        cells.append(_column("Skills", skill_levels))
    if not cells:
        return None
    columns = Table.grid(padding=(0, 4))
    for _ in cells:
        columns.add_column(vertical="top")
    columns.add_row(*cells)
    return columns

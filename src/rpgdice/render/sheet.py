"""The terminal view of a character sheet (``rpgdice char show``): attributes and
skills with their dots, Willpower as dots and points, the wound, and Cypher's Pools
with their Edge and the Effort level."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from rpgdice.core.errors import visible
from rpgdice.core.names import fold

if TYPE_CHECKING:
    from rich.console import RenderableType

    from rpgdice.table.sheets import Sheet, SheetSchema

GAP = 4
"""Cells between trait columns side by side."""
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


def _column(title: str, rows: Sequence[tuple[str, Text | int]]) -> Table:
    table = Table(title=title, title_style="bold cyan", title_justify="left", show_header=False,
                  box=None, pad_edge=False, padding=(0, 2, 0, 0))
    table.add_column(style="bold")
    table.add_column()
    for name, value in rows:
        table.add_row(Text(_label(name)), value if isinstance(value, Text) else dots(value))  # text, never markup
    return table


PANEL_EDGES = 4
"""Cells a panel's borders and padding take from the width."""


def sheet_view(sheet: Sheet, width: int = 80) -> Panel:
    """A sheet as its ruleset's record describes it: attributes and other traits under its
    headings, skill levels, then the ruleset's own part (Willpower and the wound, the
    Pools), its view's ``sheet_part``; laid out for ``width`` columns (the trait columns
    one under another where they do not fit side by side, the path broken after a
    ``/``)."""
    from rpgdice.core import registry

    record = registry.get(sheet.ruleset)
    schema = record.sheet
    assert schema is not None  # a sheet's ruleset keeps sheets (table.sheets checks)
    parts: list[RenderableType] = []
    columns = _trait_columns(sheet, schema, width - PANEL_EDGES)
    if columns is not None:
        parts.append(columns)
    own = record.views().sheet_part or _resources_part
    part = own(sheet)
    if part is not None:
        parts.append(part if parts or not isinstance(part, Text) else part[1:])
    if not parts:
        parts.append(Text("no traits yet: rpgdice char set NAME TRAIT=VALUE", style="dim italic"))
    title = Text.assemble((visible(sheet.name), "bold"), (f" · {record.title}", "dim"))
    parts.append(Text("\n" + _path_lines(visible(str(sheet.path)), width - PANEL_EDGES), style="dim"))
    return Panel(Group(*parts), title=title, title_align="left", expand=False)


def _resources_part(sheet: Sheet) -> Text | None:
    """The sheet's resources, each as its value of its maximum (Crytures Stamina and Mana),
    for a ruleset whose view shows them no other way; None when it has none."""
    from rpgdice.table import sheets

    rows = [(found.label, value_of_max(sheets.resource(sheet, found.name),
                                       sheet.maximum(found.name)))
            for found in sheets.schema(sheet.ruleset).resources
            if found.listed and sheet.spelling(found.name) is not None]
    resources = {fold(found.name) for found in sheets.schema(sheet.ruleset).resources}
    rows += [(label, Text(str(value), style="bold")) for label, value in held(sheet)
             if fold(label) not in resources]
    line = Text()
    dotted = [len(shown.plain.split("  ", 1)[0]) for _, shown in rows
              if shown.plain[:1] in "●○"]
    wide = max([10, *(len(label) + 2 for label, _ in rows)])
    for label, shown in rows:
        line.append(f"\n{label:<{wide}}", style="bold cyan")
        if shown.plain[:1] in "●○" and dotted:  # dots lined up: "●●●○○  3" under "●●●●●  5"
            shown = Text.assemble(shown[:shown.plain.index("  ")],
                                  " " * (max(dotted) - shown.plain.index("  ")),
                                  shown[shown.plain.index("  "):])
        line.append_text(shown)
    return line if line.plain else None


def held(sheet: Sheet, names: Sequence[str] | None = None) -> list[tuple[str, object]]:
    """The sheet's reserved traits that are no resource (``initiative``; Cypher's ``tier``,
    ``armor``, ``recoveries``...), or those of ``names``, each the sheet holds: its label
    and value, so that ``char show`` leaves out nothing the sheet holds."""
    from rpgdice.table import sheets

    schema = sheets.schema(sheet.ruleset)
    resources = {fold(r.name) for r in schema.resources}
    wanted = names if names is not None else [r.name for r in schema.reserved
                                              if fold(r.name) not in resources]
    return [(_label(sheet.spelling(name) or name), sheet.get(name)) for name in wanted
            if sheet.get(name) is not None]


def value_of_max(value: int, top: int | None) -> Text:
    """A resource as dots and ``(3 of 5)``, or its points when it has no maximum."""
    if top is None:
        return Text.assemble((f"{value} points", "bold"), ("  (no maximum set)", "dim"))
    line = dots(value, top) if top <= DOTS_UP_TO else Text(str(value), style="bold")
    line.append(f"  ({value} of {top})", style="dim")
    return line


def _path_lines(path: str, width: int) -> str:
    """``path`` in lines of at most ``width`` cells, broken only after a ``/`` (a part
    longer than that stands alone)."""
    lines = [""]
    for part in path.replace("/", "/\0").split("\0"):
        if lines[-1] and len(lines[-1]) + len(part) > width:
            lines.append("")
        lines[-1] += part
    return "\n".join(lines)


def _fits(cells: list[Table], width: int, gap: int) -> bool:
    """Whether ``cells`` fit side by side, ``gap`` cells apart, in ``width`` cells."""
    from rich.console import Console
    from rich.measure import Measurement

    console = Console(width=max(width, 1))
    need = sum(Measurement.get(console, console.options, c).maximum for c in cells)
    return need + gap * (len(cells) - 1) <= width


def _trait_columns(sheet: Sheet, schema: SheetSchema, width: int = 76) -> Table | None:
    """The sheet's rated traits, attributes apart where the ruleset names them, and its
    skill levels (Cypher), side by side where they fit in ``width``, else one under
    another; None when it has none."""
    from rpgdice.table import sheets

    reserved = sheets.reserved_names(sheet.ruleset)
    reserved |= {fold(r.max_trait) for r in schema.resources if r.listed}  # shown with their value
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
    if not _fits(cells, width, GAP):
        stacked = Table.grid(padding=(0, 0, 1, 0))  # a blank line between columns
        stacked.add_column()
        for cell in cells:
            stacked.add_row(cell)
        return stacked
    columns = Table.grid(padding=(0, GAP))
    for _ in cells:
        columns.add_column(vertical="top")
    columns.add_row(*cells)
    return columns

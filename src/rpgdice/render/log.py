"""Views of the roll log: the entries table, an entry's header, and luck stats."""

from __future__ import annotations

import calendar
import shlex
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Optional, TypeAlias

from rich.text import Text

from rpgdice.core import changes, registry
from rpgdice.core.data import Loaded
from rpgdice.core.errors import visible
from rpgdice.render.common import (
    BAD,
    GOOD,
    LABEL,
    MIN_BAR,
    NOTE,
    console,
    layout,
    num,
    outcome_word,
    unit,
    words,
    wrap,
)

if TYPE_CHECKING:
    from rich.console import Console

PROG = "rpgdice"


def when(stamp: str) -> str:
    """An entry's UTC time in local time: ``14:05:09`` today, else ``2026-11-30 14:05``."""
    try:
        local = time.localtime(calendar.timegm(time.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ")))
    except (ValueError, OverflowError):
        return stamp
    if time.strftime("%Y-%m-%d", local) == time.strftime("%Y-%m-%d"):
        return time.strftime("%H:%M:%S", local)
    return time.strftime("%Y-%m-%d %H:%M", local)


def command_text(argv: list[str]) -> str:
    return visible(" ".join(shlex.quote(a) for a in argv))  # the log's text never drives the terminal


def outcome_text(ruleset: str, outcome: Optional[str]) -> Text:
    if outcome is None:
        return Text("—", style=NOTE)
    word, style = outcome_word(ruleset, outcome) if outcome else (outcome, "")
    return Text(word, style=style)


def figures(r: Loaded) -> str:
    """The key figures of one result object, in a few words: its ruleset's own
    (``Views.figures``, by command), else its total or how many rolls it made."""
    ruleset, command = r.get("ruleset"), r.get("command")
    if registry.known(ruleset):
        own = registry.get(ruleset).views().figures.get(str(command))
        if own is not None:
            return own(r)
    line = changes.said(r)
    if line is not None:  # a change of the fight: its line
        return visible(line)
    if "total" in r:
        return f"total {r.get('total')}"
    if "rolls" in r:
        said = words(ruleset) if registry.known(ruleset) else {}
        return f"{len(r['rolls'])} {said.get('rolls', 'rolls')}"
    return ""


def verdict(r: Loaded, kind: Optional[str] = None) -> tuple[str, str] | None:
    """A stored result's verdict in its ruleset's words and the style of its tone: the
    ``verdict`` and ``tone`` it stored, else (an entry of an older rpgdice) worked out from
    the record rebuilt from it (``kind``: its class's name, as the entry stored it); None
    when neither can be read."""
    from rpgdice.render.common import TONE

    word, tone = r.get("verdict"), r.get("tone")
    if not (isinstance(word, str) and isinstance(tone, str)):
        from rpgdice.render import stored

        found = stored.judged(r, kind)
        if found is None:
            return None
        word, tone = found
    return visible(word), TONE.get(tone, "")


def kind_of(entry: Loaded, i: int) -> Optional[str]:
    """The class name the entry stored for its ``i``-th result (None: an older entry's)."""
    kinds = entry.get("kinds")
    if not isinstance(kinds, list) or not kinds:
        return None
    kind = kinds[i] if i < len(kinds) else kinds[0] if len(kinds) == 1 else None
    return kind if isinstance(kind, str) else None


def entry_outcome(entry: Loaded) -> Text:
    """The outcome column: a one-result entry's verdict (``Failure · GM intrusion``,
    ``Hit``, ``17``), else the outcome."""
    results = entry["results"]
    if entry["count"] == 1 and results and isinstance(results[0], dict):
        try:
            own = verdict(results[0], kind_of(entry, 0))
        except Exception:  # a result forged into a shape the verdict cannot read
            own = None
        if own is not None:
            return Text(own[0], style=own[1])
    return outcome_text(entry["ruleset"], entry["outcome"])


def entry_figures(entry: Loaded) -> str:
    results = entry["results"]
    if entry["count"] == 1 and results:
        return figures(results[0])
    if all(r.get("outcome") is None and "total" in r for r in results):  # ordinary dice
        shown = ", ".join(num(r["total"]) for r in results[:10]) + (", …" if len(results) > 10 else "")
    else:
        counts = Counter(str(r.get("outcome")) for r in results)
        shown = ", ".join(f"{n} {o}" for o, n in counts.most_common())
    if entry["count"] > len(results):
        return f"×{entry['count']} (first {len(results)}: {shown})"
    return f"×{entry['count']}: {shown}"


def safe_figures(entry: Loaded) -> str:
    """:func:`entry_figures`, or nothing for results forged into shapes it cannot read."""
    try:
        return entry_figures(entry)
    except Exception:
        return ""


def show_data(entry: Loaded) -> None:
    """An entry's results as the data the log stored: its key figures where they can be
    read, else the JSON object itself (an entry this rpgdice cannot rebuild)."""
    import json

    out = console()
    results = entry["results"]
    for i, r in enumerate(results, 1):
        try:
            text = figures(r) if isinstance(r, dict) else ""
            own = verdict(r, kind_of(entry, i - 1)) if isinstance(r, dict) else None
            if own is not None and text:
                text = f"{own[0]}, {text}"
        except Exception:
            text = ""
        if not text:
            text = json.dumps(r, ensure_ascii=False)
        lead = f"#{i} " if len(results) > 1 else ""
        out.print(Text(f"{lead}{text}"))


def show_change(entry: Loaded) -> None:
    """A change of the encounter as it was logged (rpgdice.core.changes): its line, then
    the encounter as the change left it, from the stored state (nothing is read or
    written now). Stored data of another shape is shown as data."""
    from rpgdice.render.encounter import encounter_view

    said = changes.said(entry)
    results = entry.get("results") or []
    state = results[0].get("encounter") if results and isinstance(results[0], dict) else None
    if said is None:
        return show_data(entry)
    out = console()
    out.print(Text("\n").join(wrap(Text(visible(said), style="bold"), out.width)))
    if state is None:
        return
    try:
        ruleset = results[0].get("ruleset")
        view = encounter_view(state, out.width, ruleset if isinstance(ruleset, str) else None)
    except Exception:  # a state forged into a shape the view cannot read: its data
        import json

        out.print(Text(json.dumps(state, ensure_ascii=False)))
        return
    out.print(view)


Row: TypeAlias = "tuple[str, str, str, str, Text, str]"
"""A line of the entries table: id, when, who, what, the outcome, the figures."""

COLUMNS: tuple[tuple[str, dict[str, str | bool]], ...] = (
    ("ID", {"justify": "right", "no_wrap": True}), ("when", {"no_wrap": True}),
    ("who", {}), ("what", {}), ("outcome", {}), ("figures", {}))
"""The entries table's columns; a line breaks between the words of a cell, never inside one."""


BATCH = 500
"""The entries table is printed this many rows at a time: memory stays flat however
many entries are listed (``log --last 100000``)."""


def show_entries(entries: Iterable[Loaded]) -> None:
    """The entries as a table where its columns fit the width with every word whole;
    else (a narrow terminal, a long word) one block an entry: who, when and what came
    of it, then the command, each wrapped between words. The entries are read, laid out
    and written :data:`BATCH` at a time, as consecutive tables of the first one's column
    widths (a batch whose words do not fit them sets new ones from there on)."""
    out = console()
    widths: list[int] | None = None
    shown = False
    for batch in _batches(entries):
        rows = [_entry_row(e) for e in batch]
        if widths is None or not _fit(rows, widths):
            widths = _column_widths(rows, out.width)
        cells = _cells(rows, widths) if widths is not None else None
        if widths is not None and cells is not None:
            _print_table(out, cells, widths, header=not shown)
        else:  # too narrow, or figures squeezed taller than MAX_CELL_LINES: blocks
            widths = None
            _print_blocks(out, rows)
        shown = True
    if not shown:
        out.print("No entries.", style=NOTE)


def _batches(entries: Iterable[Loaded]) -> Iterator[list[Loaded]]:
    batch: list[Loaded] = []
    for e in entries:
        batch.append(e)
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _fit(rows: list[Row], widths: list[int]) -> bool:
    """Whether ``rows`` fit ``widths`` with every word whole (and the unwrapped cells whole)."""
    from rich.cells import cell_len

    for i, (name, _) in enumerate(COLUMNS):
        for row in rows:
            cell = str(row[i])
            if (_least(cell) if name in WRAPPED else cell_len(cell)) > widths[i]:
                return False
    return True


def _least(cell: str) -> int:
    """The narrowest a wrapping cell may be with every word whole: its first word, and
    each other word after a continuation line's indent of two (:func:`wrap`'s). A word is
    what :func:`wrap` keeps whole: the text between plain spaces once the spaces it never
    breaks at are glued (``→ 32``, ``− 3 = 5``, a unit's no-break spaces)."""
    from rich.cells import cell_len

    from rpgdice.render.common import _glued

    words = [w for w in _glued(cell).split(" ") if w]
    return max([cell_len(w) + (2 if k else 0) for k, w in enumerate(words)], default=0)


MAX_CELL_LINES = 3
SQUEEZED = ("outcome", "figures")
"""The most lines an outcome or a roll's figures wrap into in the entries table: a table
whose columns would squeeze them narrower (a roll's figures in four lines of two dice) is
shown as blocks (the command, a line of words, may take more)."""


def _cells(rows: list[Row], widths: list[int]) -> list[list[list[Text]]] | None:
    """Each row's cells as the lines they wrap into (the views' own rule) at ``widths``;
    None when an outcome or figures cell would take more than :data:`MAX_CELL_LINES`."""
    laid = []
    for row in rows:
        cells = []
        for (name, _), cell, width in zip(COLUMNS, row, widths):
            text = cell if isinstance(cell, Text) else Text(str(cell))  # never markup
            cells.append(wrap(text, width) if name in WRAPPED else [text])
            if len(cells[-1]) > MAX_CELL_LINES and name in SQUEEZED:
                return None
        laid.append(cells)
    return laid


def _print_table(out: Console, rows: list[list[list[Text]]], widths: list[int],
                 header: bool) -> None:
    """The rows (their cells' lines, :func:`_cells`) as table lines, each cell padded to
    its column's width, two cells between columns: laid out here, line by line (a Rich
    ``Table`` took milliseconds a row, minutes for ``log --last 100000``)."""
    lines: list[Text] = []
    if header:
        lines.append(_table_line([[Text(name)] for name, _ in COLUMNS], widths, style=LABEL))
    lines += [_table_line(cells, widths) for cells in rows]
    out.print(Text("\n").join(lines))


def _table_line(cells: list[list[Text]], widths: list[int], style: str = "") -> Text:
    """One row of the table: its cells side by side, as many lines as its tallest cell."""
    from rich.cells import cell_len

    height = max(len(c) for c in cells)
    rows = []
    for k in range(height):
        line = Text(style=style)
        for i, (cell, width) in enumerate(zip(cells, widths)):
            piece = cell[k] if k < len(cell) else Text("")
            pad = " " * max(0, width - cell_len(piece.plain))
            if i:
                line.append("  ")
            if COLUMNS[i][1].get("justify") == "right":
                line.append(pad)
                line.append_text(piece)
            else:
                line.append_text(piece)
                if i < len(cells) - 1:
                    line.append(pad)
        line.rstrip()
        rows.append(line)
    return Text("\n").join(rows)


def _print_blocks(out: Console, rows: list[Row]) -> None:
    lines = []
    for ident, stamp, who, what, outcome, figures in rows:
        head = Text.assemble((f"#{ident}", LABEL), f" · {unit(stamp)}")
        if who != "—":
            head.append(f" · {who}")
        head.append(" · ")
        head.append_text(outcome)
        if figures:
            head.append(f" · {figures}")
        lines += [head, Text(f"  {what}")]
    out.print(Text("\n").join(layout(lines, out.width)))


WRAPPED = ("what", "outcome", "figures")
"""The entries table's columns that may wrap (between words) to fit the width."""


def _column_widths(rows: list[Row], width: int) -> list[int] | None:
    """Each column's width for the entries table to fit ``width`` with every word whole:
    the widest wrapping column gives up a cell at a time, never below its longest word;
    None when even that does not fit."""
    from rich.cells import cell_len

    natural, least = [], []
    for i, (name, _) in enumerate(COLUMNS):
        cells = [name, *(str(row[i]) for row in rows)]
        natural.append(max(cell_len(c) for c in cells))
        least.append(max((_least(c) if name in WRAPPED else cell_len(c) for c in cells), default=0))
    widths = list(natural)
    room = width - 2 * (len(widths) - 1)  # two cells between columns
    while sum(widths) > room:
        slack = [(widths[i] - least[i], i) for i, (name, _) in enumerate(COLUMNS)
                 if name in WRAPPED and widths[i] > least[i]]
        if not slack:
            return None
        widths[max(slack)[1]] -= 1
    return widths


def _entry_row(e: Loaded) -> Row:
    outcome = e["verdict"] if "verdict" in e else entry_outcome(e)  # worked out as it was read
    if e.get("rerolled_at"):
        by = e.get("rerolled_by")
        outcome.append(f" → re-rolled{f' #{by}' if by else ''}", style=NOTE)
    if e.get("secret"):
        outcome.append(" (blind)" if e.get("blind") else " (secret)", style=NOTE)
    return (str(e["id"]), when(e["time"]), visible(e["character"] or "—"), command_text(e["argv"]),
            outcome, visible(e["figures"] if "figures" in e else safe_figures(e)))


def show_header(entry: Loaded) -> None:
    dice = (f"faces {','.join(map(str, entry['faces']))}" if entry["faces"] is not None
            else "" if changes.is_change(entry) else f"seed {entry['seed']}")  # no dice
    who = f" · {unit(visible(entry['character']))}" if entry["character"] else ""
    secret = (" · blind" if entry.get("blind") else " · secret") if entry.get("secret") else ""
    out = console()
    header = Text(f"#{entry['id']} · {unit(when(entry['time']))}{who} · "
                  f"{PROG} {command_text(entry['argv'])}{' · ' + unit(dice) if dice else ''}"
                  f"{secret}", style=NOTE)
    out.print(Text("\n").join(layout([header], out.width)))  # wrapped between words


BAR = 30


def _bar(value: float, mark: Optional[float], top: float, style: str, cells: int = BAR) -> Text:
    """A bar of ``cells`` cells for ``value`` on a scale up to ``top``, with a ``│`` where
    ``mark`` falls."""
    top = top or 1
    filled = round(value / top * cells)
    at = None if mark is None else min(cells - 1, round(mark / top * cells))
    text = Text()
    for i in range(cells):
        if i == at:
            text.append("│", style="bold yellow")
        elif i < filled:
            text.append("█", style=style)
        else:
            text.append(" ")
    return text


MAX_FACE_BARS = 20
"""A die with more faces (an ordinary d100...) shows its χ² line without a bar per face."""


def _left_out(n: int, by_hand: int) -> str:
    """Why ``n`` rolls were left out: ``by_hand`` of them rolled with ``--dice`` (no test
    of the random source), the rest whose exact odds are over the work budget."""
    why = []
    if by_hand:
        why.append(f"{by_hand} of dice rolled by hand (--dice), no test of the random source")
    if n - by_hand:
        why.append(f"{n - by_hand} whose exact odds are over the work budget or cannot be "
                   "rebuilt")
    return f"{n} {'roll' if n == 1 else 'rolls'} left out: " + "; ".join(why)


def show_stats(groups: list[Loaded], character: Optional[str]) -> None:
    out = console()
    if not groups:
        out.print("No single rolls in the roll log yet.", style=NOTE)
        return
    lines: list[Text] = []
    # The bars shrink to the width (down to MIN_BAR cells): the outcomes' label (11 cells)
    # and figures ("12 seen, 10.5 expected"), the faces' label and count beside them.
    cells = max(MIN_BAR, min(BAR, out.width - 11 - 1 - 24))
    for g in groups:
        ruleset = g["ruleset"]
        who = f" · {visible(g['character'])}" if character else ""
        n = g["rolls"]
        lines.append(Text(f"{ruleset.capitalize()}{who} · {n} {'roll' if n == 1 else 'rolls'}", style=LABEL))
        top = max([*g["outcomes"].values(), *g["expected"].values(), 1])
        for name, expected in g["expected"].items():
            seen = g["outcomes"].get(name, 0)
            word, style = outcome_word(ruleset, name)
            line = Text("  ")
            line.append(f"{word:<9}", style=style)
            line.append(_bar(seen, expected, top, style or "cyan", cells))
            line.append(" " + unit(f"{seen} seen, {expected:.1f} expected"))
            lines.append(line)
        if g.get("verdict"):
            z = g["z"].get("success")
            style = NOTE if z is None or abs(z) < 2 else (GOOD if z > 0 else BAD)
            lines.append(Text("  " + g["verdict"][0].upper() + g["verdict"][1:], style=style))
        if g.get("left_out"):
            lines.append(Text(f"  {_left_out(g['left_out'], g.get('left_out_by_hand', 0))}",
                              style=NOTE))
        for die, counts in g["faces"].items():
            fair = g["fairness"][die]
            lines.append(Text(f"  {die} faces ({fair['rolled']} rolled)", style=LABEL))
            expected = fair["rolled"] / len(counts) if counts else 0
            peak = max([*counts.values(), expected, 1])
            width = len(max(counts, key=len))
            count_width = len(str(max([*counts.values(), 0])))
            face_cells = max(MIN_BAR, min(BAR, out.width - 2 - width - 1 - 1 - count_width))
            for face, n in counts.items() if len(counts) <= MAX_FACE_BARS else ():
                line = Text(f"  {face:>{width}} ")
                line.append(_bar(n, expected, peak, "cyan", face_cells))
                line.append(f" {n}")
                lines.append(line)
            p = fair["p"]
            style = NOTE if p >= 0.01 else BAD
            lines.append(Text(f"  χ² = {fair['chi2']:.1f} on {fair['df']} degrees of freedom, "
                              f"p = {p:.3g}: {fair['verdict']}", style=style))
        lines.append(Text(""))
    lines.pop()
    lines += [Text("│ marks what the exact odds expected.", style=NOTE)]
    out.print(Text("\n").join(layout(lines, out.width)))

"""Views of the roll log: the entries table, an entry's header, and luck stats."""

from __future__ import annotations

import calendar
import shlex
import time
from collections import Counter
from typing import Any, Optional

from rich.table import Table
from rich.text import Text

from rpgdice import rulesets
from rpgdice.render.common import BAD, GOOD, LABEL, NOTE, console, layout, num, outcome_word, unit

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
    return " ".join(shlex.quote(a) for a in argv)


def outcome_text(ruleset: str, outcome: Optional[str]) -> Text:
    if outcome is None:
        return Text("—", style=NOTE)
    word, style = outcome_word(ruleset, outcome) if outcome else (outcome, "")
    return Text(word, style=style)


def figures(r: dict[str, Any]) -> str:
    """The key figures of one result object, in a few words: its ruleset's own
    (``Views.figures``, by command), else its total or how many rolls it made."""
    ruleset, command = r.get("ruleset"), r.get("command")
    if isinstance(ruleset, str) and ruleset in rulesets.NAMES:
        own = rulesets.get(ruleset).views().figures.get(str(command))
        if own is not None:
            return own(r)
    if "total" in r:
        return f"total {r.get('total')}"
    if "rolls" in r:
        return f"{len(r['rolls'])} rolls"
    return ""


def entry_figures(entry: dict[str, Any]) -> str:
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


def safe_figures(entry: dict[str, Any]) -> str:
    """:func:`entry_figures`, or nothing for results forged into shapes it cannot read."""
    try:
        return entry_figures(entry)
    except Exception:
        return ""


def show_data(entry: dict[str, Any]) -> None:
    """An entry's results as the data the log stored: its key figures where they can be
    read, else the JSON object itself (an entry this rpgdice cannot rebuild)."""
    import json

    out = console()
    results = entry["results"]
    for i, r in enumerate(results, 1):
        try:
            text = figures(r) if isinstance(r, dict) else ""
        except Exception:
            text = ""
        if not text:
            text = json.dumps(r, ensure_ascii=False)
        lead = f"#{i} " if len(results) > 1 else ""
        out.print(Text(f"{lead}{text}"))


def show_entries(entries: list[dict[str, Any]]) -> None:
    out = console()
    if not entries:
        out.print("No entries.", style=NOTE)
        return
    table = Table(box=None, header_style=LABEL, pad_edge=False, show_edge=False)
    for name, kw in (("ID", {"justify": "right"}), ("when", {"no_wrap": True}), ("who", {}),
                     ("what", {"overflow": "fold"}), ("outcome", {}), ("figures", {"overflow": "fold"})):
        table.add_column(name, **kw)
    for e in entries:
        outcome = outcome_text(e["ruleset"], e["outcome"])
        if e.get("rerolled_at"):
            by = e.get("rerolled_by")
            outcome.append(f" → re-rolled{f' #{by}' if by else ''}", style=NOTE)
        table.add_row(str(e["id"]), when(e["time"]), e["character"] or "—",
                      command_text(e["argv"]), outcome,
                      e["figures"] if "figures" in e else safe_figures(e))
    out.print(table)


def show_header(entry: dict[str, Any]) -> None:
    dice = (f"faces {','.join(map(str, entry['faces']))}" if entry["faces"] is not None
            else f"seed {entry['seed']}")
    who = f" · {entry['character']}" if entry["character"] else ""
    console().print(Text(f"#{entry['id']} · {when(entry['time'])}{who} · "
                         f"{PROG} {command_text(entry['argv'])} · {dice}", style=NOTE))


BAR = 30


def _bar(value: float, mark: Optional[float], top: float, style: str) -> Text:
    """A bar of ``value`` on a scale up to ``top``, with a ``│`` where ``mark`` falls."""
    top = top or 1
    filled = round(value / top * BAR)
    at = None if mark is None else min(BAR - 1, round(mark / top * BAR))
    text = Text()
    for i in range(BAR):
        if i == at:
            text.append("│", style="bold yellow")
        elif i < filled:
            text.append("█", style=style)
        else:
            text.append(" ")
    return text


MAX_FACE_BARS = 20
"""A die with more faces (an ordinary d100...) shows its χ² line without a bar per face."""


def show_stats(groups: list[dict[str, Any]], character: Optional[str]) -> None:
    out = console()
    if not groups:
        out.print("No single rolls in the roll log yet.", style=NOTE)
        return
    lines: list[Text] = []
    for g in groups:
        ruleset = g["ruleset"]
        who = f" · {g['character']}" if character else ""
        n = g["rolls"]
        lines.append(Text(f"{ruleset.capitalize()}{who} · {n} {'roll' if n == 1 else 'rolls'}", style=LABEL))
        top = max([*g["outcomes"].values(), *g["expected"].values(), 1])
        for name, expected in g["expected"].items():
            seen = g["outcomes"].get(name, 0)
            word, style = outcome_word(ruleset, name)
            line = Text("  ")
            line.append(f"{word:<9}", style=style)
            line.append(_bar(seen, expected, top, style or "cyan"))
            line.append(" " + unit(f"{seen} seen, {expected:.1f} expected"))
            lines.append(line)
        if g.get("verdict"):
            z = g["z"].get("success")
            style = NOTE if z is None or abs(z) < 2 else (GOOD if z > 0 else BAD)
            lines.append(Text("  " + g["verdict"][0].upper() + g["verdict"][1:], style=style))
        if g.get("left_out"):
            lines.append(Text(f"  {g['left_out']} rolls left out: their exact odds are over the "
                              "work budget, or their commands no longer parse (a character "
                              "sheet changed?)", style=NOTE))
        for die, counts in g["faces"].items():
            fair = g["fairness"][die]
            lines.append(Text(f"  {die} faces ({fair['rolled']} rolled)", style=LABEL))
            expected = fair["rolled"] / len(counts) if counts else 0
            peak = max([*counts.values(), expected, 1])
            width = len(max(counts, key=len))
            for face, n in counts.items() if len(counts) <= MAX_FACE_BARS else ():
                line = Text(f"  {face:>{width}} ")
                line.append(_bar(n, expected, peak, "cyan"))
                line.append(f" {n}")
                lines.append(line)
            p = fair["p"]
            style = NOTE if p >= 0.01 else BAD
            lines.append(Text(f"  χ² = {fair['chi2']:.1f} on {fair['df']} degrees of freedom, "
                              f"p = {p:.3g}: {fair['verdict']}", style=style))
        lines.append(Text(""))
    lines.pop()
    out.print(Text("\n").join(layout(lines, out.width)))
    out.print(Text("│ marks what the exact odds expected.", style=NOTE))

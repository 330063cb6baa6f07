"""What every terminal view shares: the console, styles, words, number formats,
dice chips, notes, charts and bars, and the ``show`` loop.

A result finds its view by its ruleset's name: :func:`view` imports
``rpgdice.render.<RULESET>`` and looks the result's ``COMMAND`` up in that module's
``VIEWS``. This module imports no ruleset's view; each ruleset module imports this
one. Rich decides about color: none when piped, on with ``FORCE_COLOR``, and
``NO_COLOR`` wins over both.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections import Counter
from typing import Any, Callable, Iterable

from rich.console import Console
from rich.text import Text

# What a die did -> its style.
HIT = "green"
DOUBLE = "bold magenta"  # a die that counts twice (natural 10 meeting the Difficulty, a Seyruun 10)
CRIT = "bold yellow"  # a natural 10 / critical that counts once
MISS = "dim"
BOTCH_ONE = "bold red"  # a 1 in a botched roll
ONE = "red"
NOTE = "dim italic"
GOOD = "bold green"
BAD = "bold red"
DIRE = "bold white on red"
LABEL = "bold cyan"

MINUS = "−"
"""The one minus sign of every human view (U+2212); JSON keeps plain numbers."""


def console() -> Console:
    """A stdout console. Colored in a terminal, plain when piped. FORCE_COLOR (non-empty)
    colors piped output too, even where TERM says the terminal is dumb. NO_COLOR
    (non-empty) wins over FORCE_COLOR: color off, and escape codes only when stdout
    really is a terminal."""
    if os.environ.get("NO_COLOR"):
        return Console(highlight=False, soft_wrap=True, no_color=True, force_terminal=sys.stdout.isatty())
    if os.environ.get("FORCE_COLOR") and os.environ.get("TERM", "") in ("dumb", "unknown"):
        return Console(highlight=False, soft_wrap=True, force_terminal=True, color_system="standard")
    return Console(highlight=False, soft_wrap=True)


OUTCOME_WORDS = {
    "crytures": {"success": ("Success", GOOD), "failure": ("Failure", BAD)},
    "seyruun": {"success": ("Success", GOOD), "failure": ("Failure", BAD), "botch": ("Botch", DIRE)},
    "reglas": {"success": ("Éxito", GOOD), "failure": ("Fallo", BAD), "fumble": ("Fracaso", DIRE)},
    "cypher": {"success": ("Success", GOOD), "failure": ("Failure", BAD)},
}
"""Each outcome value in the ruleset's own words, and its style."""
VOCABULARY = {
    "en": {"rolls": "rolls", "outcome": "outcome", "chance": "chance", "odds": "odds", "of": "chance of"},
    "es": {"rolls": "tiradas", "outcome": "resultado", "chance": "probabilidad", "odds": "probabilidad",
           "of": "de"},
}
LANGUAGE = {"reglas": "es"}
"""The language of a ruleset's view (its text's): Reglas Básicas is Spanish, the rest English."""


def words(ruleset: str) -> dict[str, str]:
    """The view's own words (headers, summaries) in the ruleset's language."""
    return VOCABULARY[LANGUAGE.get(ruleset, "en")]


# Finding a result's view ---------------------------------------------------------------

View = Callable[[Any], list[Text]]


def view(result: Any) -> View:
    """The view of ``result``: ``VIEWS[COMMAND]`` of the module named after its ruleset."""
    cls = type(result)
    module = importlib.import_module(f"rpgdice.render.{cls.RULESET}")
    return module.VIEWS[cls.COMMAND]


def render(result: Any) -> list[Text]:
    """The lines for one result."""
    return view(result)(result)


def summary(ruleset: str, counts: Counter[str]) -> Text:
    """The closing line over repeated results: how many of each outcome."""
    named = OUTCOME_WORDS.get(ruleset, {})
    parts = ", ".join(f"{n} {named.get(outcome, (outcome,))[0]}" for outcome, n in counts.most_common())
    return Text(f"{sum(counts.values())} {words(ruleset)['rolls']}: {parts}", style="bold")


def show(results: Iterable[Any], after: Callable[[Any], list[Text]] | None = None,
         total: int = 1) -> None:
    """Print each result's lines as it comes; ``after(result)`` adds lines under each
    (``--odds``). Over several results (``total`` > 1) each is numbered and a summary
    of the outcomes closes the list (a ruleset module's ``SUMMARIES[COMMAND]`` sums a
    roll type up in its own terms)."""
    out = console()
    counts: Counter[str] = Counter()
    first = None
    for i, result in enumerate(results, 1):
        if first is None:
            first = result
        counts[result.outcome] += 1
        lines = render(result)
        if after is not None:
            lines += after(result)
        if total > 1:
            lines[0] = Text.assemble((f"#{i} ", "bold"), lines[0])
        out.print(Text("\n").join(lines))  # one print a result: Rich's per-call cost adds up
    if total > 1 and first is not None:
        out.print(summary(type(first).RULESET, counts))


def show_odds(results: Iterable[Any]) -> None:
    """Print exact odds (``odds`` commands): their views are ``VIEWS["odds"]``."""
    out = console()
    for result in results:
        out.print(Text("\n").join(render(result)))


# Words and numbers ---------------------------------------------------------------------


def num(n: int) -> str:
    """A whole number with the view's minus sign."""
    return f"{MINUS}{-n}" if n < 0 else str(n)


def signed(n: int) -> str:
    """A whole number with its sign always written: ``+2``, ``−1``."""
    return f"+{n}" if n >= 0 else f"{MINUS}{-n}"


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{num(n)} {one if abs(n) == 1 else (many or one + 's')}"


def notes(lines: list[str]) -> list[Text]:
    return [Text(f"  · {line}", style=NOTE) for line in lines]


def dice_line(label: str, chips: list[tuple[str, str]]) -> Text:
    """``label`` then each die's chip, two spaces apart."""
    text = Text.assemble((f"  {label} ", LABEL))
    for i, (chip, style) in enumerate(chips):
        if i:
            text.append("  ")
        text.append(chip, style=style)
    return text


def nested(label: str, lines: list[Text]) -> list[Text]:
    """A single roll's lines, indented under ``label`` (a roll type's step)."""
    head = Text.assemble(("  " + label + " ", "bold"), lines[0])
    return [head] + [Text.assemble("  ", line) for line in lines[1:]]


# Odds: percentages, bars and charts -----------------------------------------------------

BAR_WIDTH = 32
"""Cells of the longest bar; every bar in a chart is scaled to the chart's largest value."""
MAX_ROWS = 30
"""A success distribution with more rows than this is shown in bins of equal width."""
SHOWN = 2000
"""Rows of a count distribution below 1/SHOWN (0.05%, "0.0%" to one decimal) are left
out at either end; a note gives what they add up to."""
EIGHTHS = " ▏▎▍▌▋▊▉"


def percent(p: Any) -> str:
    """To one decimal; a chance that is neither 0 nor 1 never shows as 0.0% or 100.0%."""
    if 0 < p and p * 2000 < 1:
        return "<0.1%"
    if p < 1 and p * 2000 >= 1999:
        return ">99.9%"
    return f"{float(p) * 100:.1f}%"


def bar(p: Any, top: Any, style: str = "cyan") -> Text:
    """A horizontal bar of ``p`` against the chart's largest value ``top``, in eighths of a cell."""
    eighths = round(p / top * BAR_WIDTH * 8) if top else 0
    if p and not eighths:
        eighths = 1  # a possible result is never drawn as nothing
    full, part = divmod(eighths, 8)
    return Text("█" * full + (EIGHTHS[part] if part else ""), style=style)


INDENT = "  "
"""Tables sit indented like the notes under them."""
GAP = "  "

Row = tuple[str, str, list[str], Any, str]
"""A chart row: label, its style, the figures (right-aligned), the value the bar draws, its style."""


def chart(rows: list[Row], *headers: str) -> list[Text]:
    """A table with a header line; the first column left-aligned, the figures
    right-aligned, and a bar for each row scaled to the largest value."""
    widths = [len(h) for h in headers]
    for label, _, figures, _, _ in rows:
        for i, cell in enumerate([label, *figures]):
            widths[i] = max(widths[i], len(cell))
    top = max((value for *_, value, _ in rows), default=0)
    head = [headers[0].ljust(widths[0])] + [h.rjust(w) for h, w in zip(headers[1:], widths[1:])]
    lines = [Text(INDENT + GAP.join(head), style=LABEL)]
    for label, style, figures, value, bar_style in rows:
        line = Text(INDENT)
        line.append(label.ljust(widths[0]), style=style)
        for cell, width in zip(figures, widths[1:]):
            line.append(GAP + cell.rjust(width))
        drawn = bar(value, top, bar_style)
        if drawn.plain:
            line.append(GAP)
            line.append_text(drawn)
        lines.append(line)
    return lines


def outcome_chart(ruleset: str, outcomes: dict[str, Any]) -> list[Text]:
    named = OUTCOME_WORDS[ruleset]
    rows = []
    for outcome, p in outcomes.items():
        word, style = named[outcome]
        rows.append((word, style, [percent(p)], p, style))
    vocabulary = words(ruleset)
    return chart(rows, vocabulary["outcome"], vocabulary["chance"])


def _bins(exactly: dict[int, Any]) -> tuple[int, int, int]:
    """The shown range lo..hi of a count distribution, and the bin width."""
    shown = [k for k, p in exactly.items() if p * SHOWN >= 1] or list(exactly)
    lo, hi = min(shown), max(shown)
    width = -(-(hi - lo + 1) // MAX_ROWS)
    return lo, hi, width


def count_chart(exactly: dict[int, Any], at_least: dict[int, Any],
                label: str = "successes") -> tuple[list[Text], str | None]:
    """The table of a count distribution (exactly k, at least k) with its bar chart,
    and a note on the tails left out."""
    lo, hi, width = _bins(exactly)
    rows = []
    for start in range(lo, hi + 1, width):
        end = min(start + width - 1, hi)
        p = sum((exactly[k] for k in range(start, end + 1)), 0)
        name = str(start) if start == end else f"{start}–{end}"
        rows.append((name, "", [percent(p), percent(at_least[start])], p, "cyan"))
    table = chart(rows, label, "exactly" if width == 1 else "in range", "at least")
    hidden = 1 - sum((exactly[k] for k in range(lo, hi + 1)), 0)
    note = None
    if hidden:
        note = f"{label} outside {lo}–{hi} (not shown): {percent(hidden)} together"
    return table, note


def outcome_line(odds: Any, result: Any) -> Text:
    """``--odds``: one line under a roll's breakdown with the chance of its outcome."""
    ruleset = type(odds).RULESET
    named, vocabulary = OUTCOME_WORDS[ruleset], words(ruleset)
    word, style = named[result.outcome]
    others = ", ".join(f"{named[o][0].lower()} {percent(p)}" for o, p in odds.outcomes.items())
    return Text.assemble(
        (f"  {vocabulary['odds']} ", LABEL),
        (percent(odds.outcomes[result.outcome]), "bold"),
        f" {vocabulary['of']} ",
        (word.lower(), style),
        f" ({others})",
    )

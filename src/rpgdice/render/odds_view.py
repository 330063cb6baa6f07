"""The terminal view of exact odds: a table per distribution with a horizontal bar
chart beside it, percentages to one decimal, drawn as Rich text.

The tables are aligned columns of :class:`rich.text.Text` rather than
:class:`rich.table.Table`: the same look for these fixed-width figures, without
loading and laying out Rich's table machinery on every ``odds`` command.

Imported only by ``odds`` commands and ``--odds``; reads the engine's odds
dataclasses (exact fractions) and never imports icepool itself.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Sequence

from rich.text import Text

from rpgdice.render import terminal
from rpgdice.render.terminal import (
    CRIT, DIRE, LABEL, NOTE, OUTCOME_WORDS, _plural, _signed, words,
)

BAR_WIDTH = 32
"""Cells of the longest bar; every bar in a chart is scaled to the chart's largest value."""
MAX_ROWS = 30
"""A success distribution with more rows than this is shown in bins of equal width."""
SHOWN = Fraction(1, 2000)
"""Rows of a count distribution below this (0.05%, "0.0%" to one decimal) are left out
at either end; a note gives what they add up to."""
EIGHTHS = " ▏▎▍▌▋▊▉"

CYPHER_SPECIAL = {
    "gm_intrusion": "1: GM intrusion",
    "plus_1_damage": "17: +1 damage",
    "plus_2_damage": "18: +2 damage",
    "minor_effect": "19: minor effect",
    "major_effect": "20: major effect",
}
"""Short names of the special rolls for the chart (the roll view says more)."""

def percent(p: Fraction) -> str:
    """To one decimal; a chance that is neither 0 nor 1 never shows as 0.0% or 100.0%."""
    if 0 < p < Fraction(1, 2000):
        return "<0.1%"
    if Fraction(1999, 2000) <= p < 1:
        return ">99.9%"
    return f"{float(p) * 100:.1f}%"


def bar(p: Fraction, top: Fraction, style: str = "cyan") -> Text:
    """A horizontal bar of ``p`` against the chart's largest value ``top``, in eighths of a cell."""
    eighths = round(p / top * BAR_WIDTH * 8) if top else 0
    if p and not eighths:
        eighths = 1  # a possible result is never drawn as nothing
    full, part = divmod(eighths, 8)
    return Text("█" * full + (EIGHTHS[part] if part else ""), style=style)


INDENT = "  "
"""Tables sit indented like the notes under them."""
GAP = "  "

Row = tuple[str, str, list[str], Fraction, str]
"""A chart row: label, its style, the figures (right-aligned), the value the bar draws, its style."""


def _chart(rows: list[Row], *headers: str) -> list[Text]:
    """A table with a header line; the first column left-aligned, the figures
    right-aligned, and a bar for each row scaled to the largest value."""
    widths = [len(h) for h in headers]
    for label, _, figures, _, _ in rows:
        for i, cell in enumerate([label, *figures]):
            widths[i] = max(widths[i], len(cell))
    top = max((value for *_, value, _ in rows), default=Fraction(0))
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


def outcome_chart(ruleset: str, outcomes: dict[str, Fraction]) -> list[Text]:
    named = OUTCOME_WORDS[ruleset]
    rows = []
    for outcome, p in outcomes.items():
        word, style = named[outcome]
        rows.append((word, style, [percent(p)], p, style))
    vocabulary = words(ruleset)
    return _chart(rows, vocabulary["outcome"], vocabulary["chance"])


def _bins(exactly: dict[int, Fraction]) -> tuple[int, int, int]:
    """The shown range lo..hi of a count distribution, and the bin width."""
    shown = [k for k, p in exactly.items() if p >= SHOWN] or list(exactly)
    lo, hi = min(shown), max(shown)
    width = -(-(hi - lo + 1) // MAX_ROWS)
    return lo, hi, width


def count_chart(exactly: dict[int, Fraction], at_least: dict[int, Fraction],
                label: str = "successes") -> tuple[list[Text], str | None]:
    """The table of a count distribution (exactly k, at least k) with its bar chart,
    and a note on the tails left out."""
    lo, hi, width = _bins(exactly)
    rows = []
    for start in range(lo, hi + 1, width):
        end = min(start + width - 1, hi)
        p = sum((exactly[k] for k in range(start, end + 1)), Fraction(0))
        name = str(start) if start == end else f"{start}–{end}"
        rows.append((name, "", [percent(p), percent(at_least[start])], p, "cyan"))
    table = _chart(rows, label, "exactly" if width == 1 else "in range", "at least")
    hidden = 1 - sum((exactly[k] for k in range(lo, hi + 1)), Fraction(0))
    note = None
    if hidden:
        note = f"{label} outside {lo}–{hi} (not shown): {percent(hidden)} together"
    return table, note


def _notes(lines: list[str]) -> list[Text]:
    return [Text(f"  · {line}", style=NOTE) for line in lines]


# Per ruleset -------------------------------------------------------------------------


def crytures_odds(o: Any) -> list[Text]:
    header = Text.assemble(
        ("Crytures odds", "bold"),
        f" · {_plural(o.pool, 'die', 'dice')}",
        f" · roll mod {_signed(o.roll_mod)}" if o.roll_mod else "",
        f" · Difficulty {o.difficulty} · Complexity {o.complexity}",
        " · attack" if o.attack else "",
    )
    out = [header, *outcome_chart("crytures", o.outcomes)]
    notes = []
    if o.no_dice:
        notes.append("no dice: the die modifiers removed every die (0 successes, failure)")
    else:
        table, hidden = count_chart(o.successes, o.at_least)
        out += table
        if hidden:
            notes.append(hidden)
        notes.append(f"mean {float(o.mean_successes):.2f} successes")
        what = "a critical hit (at least one natural 10)" if o.attack else "at least one natural 10"
        notes.append(f"{what}: {percent(o.critical)}")
    return out + _notes(notes)


def seyruun_odds(o: Any) -> list[Text]:
    size = "chance die" if o.chance_die else _plural(o.pool, "die", "dice")
    header = Text.assemble(
        ("Seyruun odds", "bold"),
        f" · {size} (pool {o.pool_total})",
        f" · {_plural(o.required, 'success', 'successes')} needed",
        " · with a Willpower re-roll of a failure or botch" if o.reroll else "",
    )
    out = [header, *outcome_chart("seyruun", o.outcomes)]
    table, hidden = count_chart(o.successes, o.at_least)
    out += table
    notes = [hidden] if hidden else []
    if o.chance_die:
        notes.append("chance die: the pool fell to 0 or less; a 10 succeeds, a 1 is a dramatic botch")
    if o.overflow:
        notes.append(f"10 dice at most: overflow {o.overflow} for secondary effects")
    if o.reroll:
        notes.append("the figures are of the roll that stands (a success is not re-rolled)")
    notes.append(f"at least one 10 (critical): {percent(o.critical)}")
    if not o.chance_die:
        notes.append(f"two or more 10s (heightened critical): {percent(o.multiple_critical)}")
    tiers = " · ".join(f"{terminal.SEYRUUN_TIERS[t]} {percent(p)}" for t, p in o.tiers.items())
    notes.append(f"success by tier: {tiers}")
    return out + _notes(notes)


def reglas_odds(o: Any) -> list[Text]:
    header = Text.assemble(
        ("Reglas Básicas: probabilidades", "bold"),
        f" · iE {o.index} · {terminal._reglas_difficulty(o.difficulty)}",
    )
    out = [header, *outcome_chart("reglas", o.outcomes)]
    notes = [f"Crítico (dado 1 y éxito): {percent(o.critical)}"]
    if o.fumble_grades:
        rows = [(str(g), "", [percent(p)], p, DIRE) for g, p in o.fumble_grades.items()]
        out += _chart(rows, "fracaso de grado", words("reglas")["chance"])
    return out + _notes(notes)


def cypher_odds(o: Any) -> list[Text]:
    from rpgdice.engine.cypher import DIFFICULTY_NAMES

    header = Text.assemble(
        ("Cypher odds", "bold"),
        f" · difficulty {o.difficulty} ({DIFFICULTY_NAMES[o.difficulty]})",
        f" → {o.effective_difficulty}" if o.effective_difficulty != o.difficulty else "",
        f" · target {o.target}" if o.target is not None else "",
        f" · bonus +{o.bonus}" if o.bonus else "",
        " · attack" if o.attack else "",
    )
    out = [header, *outcome_chart("cypher", o.outcomes)]
    notes = []
    if o.routine:
        notes.append("routine task: it succeeds with no roll")
    elif o.impossible:
        notes.append("impossible: not even a 20 plus the bonus reaches the target; no roll")
    else:
        rows = [(CYPHER_SPECIAL[name], "", [percent(p)], p, CRIT)
                for name, p in o.special.items() if o.attack or p]
        out += _chart(rows, "special roll", "chance")
    if o.effort_cost:
        notes.append(f"Effort costs {o.effort_cost} Pool points (after Edge)")
    return out + _notes(notes)


RENDERERS: dict[str, Callable[[Any], list[Text]]] = {
    "crytures": crytures_odds,
    "seyruun": seyruun_odds,
    "reglas": reglas_odds,
    "cypher": cypher_odds,
}


def show(results: Sequence[Any]) -> None:
    out = terminal.console()
    for result in results:
        out.print(Text("\n").join(RENDERERS[type(result).RULESET](result)))


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

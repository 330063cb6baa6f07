"""Crytures: the roll view and the odds view."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from rpgdice.render.common import (
    BAD, CRIT, DOUBLE, GOOD, HIT, MISS, count_chart, dice_line, notes, outcome_chart, percent,
    plural, signed,
)


def roll(r: Any) -> list[Text]:
    header = Text.assemble(
        ("Crytures roll", "bold"),
        f" · {plural(r.pool, 'die', 'dice')}",
        f" ({r.base_pool} {signed(r.die_mod)} die mod)" if r.die_mod else "",
        f" · roll mod {signed(r.roll_mod)}" if r.roll_mod else "",
        f" · Difficulty {r.difficulty} · Complexity {r.complexity}",
        " · attack" if r.attack else "",
    )
    chips = []
    for d in r.dice:
        face = f"{d.face}→{d.value}" if r.roll_mod else f"{d.face}"
        marks = "✓" * d.successes if d.successes else "✗"
        if d.face == 10:
            style = DOUBLE if d.successes == 2 else CRIT
        else:
            style = HIT if d.successes else MISS
        chips.append((f"{face} {marks}", style))
    lines = [header]
    if r.no_dice:
        lines.append(Text("  no dice: the die modifiers removed every die", style=MISS))
    else:
        lines.append(dice_line("dice", chips))
    ok = r.outcome == "success"
    verdict = Text.assemble(
        ("  Success" if ok else "  Failure", GOOD if ok else BAD),
        f" — {plural(r.successes, 'success', 'successes')} against Complexity {r.complexity}",
    )
    if ok:
        verdict.append(f": {plural(r.extra_successes, 'extra success', 'extra successes')}")
    lines.append(verdict)
    said = []
    if r.natural_tens:
        said.append(f"{plural(r.natural_tens, 'natural 10')} (always a success; two when it meets the Difficulty)")
    if r.critical_hits:
        said.append(f"{plural(r.critical_hits, 'critical hit')}: trigger the attack's Crit effect")
    return lines + notes(said)


def odds(o: Any) -> list[Text]:
    header = Text.assemble(
        ("Crytures odds", "bold"),
        f" · {plural(o.pool, 'die', 'dice')}",
        f" · roll mod {signed(o.roll_mod)}" if o.roll_mod else "",
        f" · Difficulty {o.difficulty} · Complexity {o.complexity}",
        " · attack" if o.attack else "",
    )
    out = [header, *outcome_chart("crytures", o.outcomes)]
    said = []
    if o.no_dice:
        said.append("no dice: the die modifiers removed every die (0 successes, failure)")
    else:
        table, hidden = count_chart(o.successes, o.at_least)
        out += table
        if hidden:
            said.append(hidden)
        said.append(f"mean {float(o.mean_successes):.2f} successes")
        what = "a critical hit (at least one natural 10)" if o.attack else "at least one natural 10"
        said.append(f"{what}: {percent(o.critical)}")
    return out + notes(said)


VIEWS = {"roll": roll, "odds": odds}
"""Each command's view, by the result's ``COMMAND``."""

"""Crytures: the roll view and the odds view."""

from __future__ import annotations

from rich.text import Text

from rpgdice.core.data import Loaded
from rpgdice.render.common import (
    BAD,
    CRIT,
    DOUBLE,
    GOOD,
    HIT,
    MISS,
    Line,
    View,
    count_chart,
    dice_line,
    faces_text,
    notes,
    num,
    outcome_chart,
    percent,
    plural,
    signed,
    unit,
)
from rpgdice.rulesets import Views
from rpgdice.rulesets.crytures import rules


def no_dice(base_pool: int, die_mod: int) -> str:
    """Why no die was rolled (RULES.md: an empty pool, or modifiers that removed every die)."""
    if base_pool == 0:
        return "no dice: the pool is empty (POOL 0), so no die is rolled"
    return (f"no dice: the die modifiers removed every die ({base_pool} {signed(die_mod)} die mod "
            f"= {num(base_pool + die_mod)})")


def _attack(attack: bool, crit_hits: int) -> str:
    if not attack:
        return ""
    return f" · attack, a critical hit adds {plural(crit_hits, 'success', 'successes')}"


def roll(r: rules.CryturesResult) -> list[Text]:
    header = Text.assemble(
        ("Crytures roll", "bold"),
        f" · {plural(r.pool, 'die', 'dice')}",
        f" ({r.base_pool} {signed(r.die_mod)} die mod)" if r.die_mod else "",
        f" · {unit(f'roll mod {signed(r.roll_mod)}')}" if r.roll_mod else "",
        f" · {unit(f'Difficulty {r.difficulty}')} · {unit(f'Complexity {r.complexity}')}",
        _attack(r.attack, r.crit_hits),
    )
    chips = []
    for d in r.dice:
        face = f"{d.face}→{num(d.value)}" if r.roll_mod else f"{d.face}"
        marks = "✓" * d.successes if d.successes else "✗"
        if d.face == 10:
            style = DOUBLE if d.successes == 2 else CRIT
        else:
            style = HIT if d.successes else MISS
        chips.append((f"{face} {marks}", style))
    lines = [header]
    if r.no_dice:
        lines.append(Text(f"  {no_dice(r.base_pool, r.die_mod)}", style=MISS))
    else:
        lines.append(dice_line("dice", chips))
    ok = r.outcome == "success"
    added = r.critical_hits * r.crit_hits
    source = (f" ({r.successes - added} from the dice + {added} from critical hits)"
              if added else "")
    verdict = Text.assemble(
        ("  Success" if ok else "  Failure", GOOD if ok else BAD),
        f" — {plural(r.successes, 'success', 'successes')}{source} against Complexity {r.complexity}",
    )
    if ok:
        verdict.append(f": {plural(r.extra_successes, 'extra success', 'extra successes')}")
    lines.append(verdict)
    said = []
    if r.natural_tens:
        said.append(f"{plural(r.natural_tens, 'natural 10')} (always a success; two when it meets the Difficulty)")
    if r.critical_hits:
        each = plural(r.crit_hits, "success", "successes")
        said.append(f"{plural(r.critical_hits, 'critical hit')}: the attack's Crit effect, "
                    f"{each} each (--crit-hits)")
    return lines + notes(said)


def odds(o: rules.CryturesOdds) -> list[Line]:
    header = Text.assemble(
        ("Crytures odds", "bold"),
        f" · {plural(o.pool, 'die', 'dice')}",
        f" · {unit(f'roll mod {signed(o.roll_mod)}')}" if o.roll_mod else "",
        f" · {unit(f'Difficulty {o.difficulty}')} · {unit(f'Complexity {o.complexity}')}",
        _attack(o.attack, o.crit_hits),
    )
    out = [header, *outcome_chart("crytures", o.outcomes)]
    said = []
    if o.no_dice:
        said.append(f"{no_dice(o.base_pool, o.die_mod)} (0 successes, failure)")
    else:
        table, hidden = count_chart(o.successes, o.at_least)
        out += table
        if hidden:
            said.append(hidden)
        said.append(f"mean {float(o.mean_successes):.2f} successes")
        what = "a critical hit (at least one natural 10)" if o.attack else "at least one natural 10"
        said.append(f"{what}: {percent(o.critical)}")
    return out + notes(said)


VIEWS: dict[type, View] = {rules.CryturesResult: roll, rules.CryturesOdds: odds}
"""Each command's view, by the result's ``COMMAND``."""


def _roll_figures(r: Loaded) -> str:
    return f"{faces_text(r.get('dice') or []) or 'no dice'} → {r.get('successes')} succ."


FIGURES = {"roll": _roll_figures}
"""The roll log's few words on a stored result, by command."""

TABLE = Views(VIEWS, figures=FIGURES)
"""What the ruleset's record hands out (:attr:`rpgdice.rulesets.Ruleset.views`)."""

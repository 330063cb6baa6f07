"""Ordinary dice (ruleset ``dice``): the roll view and the odds view.

A roll shows each dice term on its own line: kept dice bright and dropped ones in
parentheses, dim and struck through (``4d6kh3 5  (1)  5  3``: the parentheses are the
mark that survives plain text, NO_COLOR and an ASCII stream), an exploding die's chain
as ``6+6+2``, a comparison's dice with a tick for each that counts; then the constants
and the total. The odds view is the
chart the rulesets' odds use, over the totals, with the mean and the range.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Union

from rich.text import Text

from rpgdice.core.data import Loaded
from rpgdice.core.errors import visible
from rpgdice.render.common import (
    BAD,
    CRIT,
    DICE_SHOWN,
    GOOD,
    HIT,
    LABEL,
    MISS,
    NOTE,
    Chance,
    Line,
    View,
    chart,
    dice_line,
    faces_text,
    notes,
    num,
    percent,
    plural,
    signed,
    unit,
)
from rpgdice.rulesets import Views
from rpgdice.rulesets.dice import rules

DROPPED = "dim strike"
MAX_TERM_LINES = 40
"""Dice terms shown one to a line; the rest of a very long expression is summed in one line."""
MAX_CONSTANTS = 12
"""Constants written out one by one on the constants line; more are only summed."""
MAX_ROWS = 30
"""Totals shown one to a row; a wider distribution is shown in bins of equal width."""
SHOWN = Fraction(1, 2000)
"""Totals below this chance (0.05%) at either end are left out of the chart, and a note
gives what they add up to."""


def _chains(faces: list[int], sides: int) -> list[list[int]]:
    """An exploding term's rolls cut into one chain per die: a die rolls again while
    it shows ``sides``, at most ``MAX_EXTRA`` extra rolls."""
    from rpgdice.rulesets.dice.rules import MAX_EXTRA

    chains: list[list[int]] = []
    for face in faces:
        if chains and chains[-1][-1] == sides and len(chains[-1]) <= MAX_EXTRA:
            chains[-1].append(face)
        else:
            chains.append([face])
    return chains


def _chips(term: rules.Term, rolled: rules.TermRoll) -> list[tuple[str, str]]:
    faces = [d.face for d in rolled.dice]
    if term.mode == "!":
        return [("+".join(map(str, chain)), CRIT if len(chain) > 1 else HIT)
                for chain in _chains(faces, term.sides)]
    if term.mode and term.mode[0] in "kd":
        return [(str(d.face), HIT) if d.kept else (f"({d.face})", DROPPED) for d in rolled.dice]
    if term.mode:
        return [(f"{d.face} ✓" if d.kept else str(d.face), HIT if d.kept else MISS)
                for d in rolled.dice]
    return [(str(f), HIT) for f in faces]


def _value(term: rules.Term, rolled: rules.TermRoll) -> str:
    if term.mode and term.mode[0] in "<>=":
        count = rolled.value * term.sign
        what = plural(count, "success", "successes")
        return f"= {what}" if term.sign > 0 else f"= {MINUS_SIGN}{what}"
    return f"= {signed(rolled.value)}"


Tallied = Union[tuple[str, int], tuple[str, int, "str | None"]]
"""What repeated rolls are counted by: the expression, the total, a compared total's outcome."""

MINUS_SIGN = "−"


def roll(r: rules.NotationRoll) -> list[Text]:
    from rpgdice.rulesets.dice.grammar import first as parse

    terms = parse(r.expression).terms  # the term kinds, read again from the expression
    header = Text.assemble(("Dice", "bold"), f" · {visible(r.expression.strip())}")
    lines = [header]
    constants: list[int] = []
    folded, folded_value = 0, 0
    shown = 0
    for term, rolled in zip(terms, r.terms):
        if not term.is_dice:
            constants.append(rolled.value)
            continue
        if shown >= MAX_TERM_LINES:
            folded += 1
            folded_value += rolled.value
            continue
        shown += 1
        line = dice_line(term.text, _chips(term, rolled))
        line.append(f"  {unit(_value(term, rolled))}")
        lines.append(line)
    if folded:
        lines.append(Text(f"  … {plural(folded, 'more dice term')}  = {signed(folded_value)}", style=MISS))
    if constants:
        written = " ".join(signed(c) for c in constants[:MAX_CONSTANTS])
        if len(constants) > MAX_CONSTANTS:
            written += f" … ({len(constants)} constants)"
        line = Text.assemble(("  ", ""), (written, LABEL))
        if len(constants) > 1:
            line.append(f"  = {signed(sum(constants))}")
        lines.append(line)
    lines.append(Text.assemble(("  Total ", GOOD), (num(r.total), "bold")))
    return lines


def _distribution_rows(o: rules.NotationOdds) -> tuple[list[Line], str | None]:
    dist: dict[int, Fraction] = o.distribution
    shown = [t for t, p in dist.items() if p >= SHOWN] or list(dist)
    lo, hi = min(shown), max(shown)
    width = -(-(hi - lo + 1) // MAX_ROWS)
    at_least: dict[int, Fraction] = {}
    running = Fraction(o.left_out)  # what a depth left out lies above every total shown
    for t in sorted(dist, reverse=True):
        running += dist[t]
        at_least[t] = running
    bins: dict[int, Fraction] = {}  # each row's sum and its first total, in one pass over
    firsts: dict[int, int] = {}  # the totals (never over the range: a product's spans millions)
    for t in sorted(dist):
        if lo <= t <= hi:
            at = lo + (t - lo) // width * width
            bins[at] = bins.get(at, Fraction(0)) + dist[t]
            firsts.setdefault(at, t)
    rows = []
    for start in range(lo, hi + 1, width):
        end = min(start + width - 1, hi)
        p = bins.get(start, Fraction(0))
        if width > 1 and not p:
            continue
        first = firsts.get(start, min((t for t in dist if t >= start), default=start))
        name = num(start) if start == end else f"{num(start)}–{num(end)}"
        rows.append((name, "", [percent(p), percent(at_least.get(first, Fraction(0)))], p, "cyan"))
    table = chart(rows, "total", "exactly" if width == 1 else "in range", "at least")
    hidden = 1 - o.left_out - sum((p for t, p in dist.items() if lo <= t <= hi), Fraction(0))
    note = f"totals outside {num(lo)}–{num(hi)} (not shown): {percent(hidden)} together" if hidden else None
    return table, note


def odds(o: rules.NotationOdds) -> list[Line]:
    header = Text.assemble(("Dice odds", "bold"), f" · {visible(o.expression.strip())}")
    table, hidden = _distribution_rows(o)
    said = [f"mean {_decimal(o.mean)} · range {num(o.min)} to {num(o.max)}"]
    if hidden:
        said.append(hidden)
    if o.explode_depth is not None:
        if o.truncated:
            said.append(f"explosions followed to {o.explode_depth} extra rolls a die: exact up to there; "
                        f"left out (a die exploding further): {_tiny(o.left_out)}")
        else:
            said.append(f"explosions followed to {o.explode_depth} extra rolls a die, the rule's own bound: exact")
    depth = getattr(o, "reroll_depth", None)
    if depth is not None:
        said.append(f"re-rolls followed to {depth} a roll" + (
            f"; left out (with any explosion cut): {_tiny(o.left_out)}" if o.truncated else ": exact"))
    return [header, *table, *notes(said)]


def compare_odds(o: rules.CompareOdds) -> list[Line]:
    """A compared total's odds: the chance of success and of failure, then the totals."""
    lines = odds(o)
    verdict = Text.assemble(("  success ", GOOD), (percent(o.outcomes["success"]), "bold"),
                            ("  failure ", BAD), (percent(o.outcomes["failure"]), "bold"))
    return [lines[0], verdict, *lines[1:]]


def _decimal(x: Chance) -> str:
    text = f"{float(x):.2f}".rstrip("0").rstrip(".")
    return text.replace("-", MINUS_SIGN)


def _tiny(p: Chance) -> str:
    return percent(p) if p * 1000 >= 1 else f"{float(p):.1e}"


def odds_line(odds_set: rules.NotationOddsSet, r: rules.NotationRoll | rules.TreeRoll) -> Text:
    """``--odds``: under a roll, the chance of its total, and of that or more."""
    o = odds_set.of(r)
    exactly = o.distribution.get(r.total, Fraction(0))
    at_least = o.left_out + sum((p for t, p in o.distribution.items() if t >= r.total), Fraction(0))
    line = Text.assemble(
        ("  odds ", LABEL),
        (percent(exactly), "bold"),
        f" of exactly {num(r.total)}, {percent(at_least)} of {num(r.total)} or more",
        f" (mean {_decimal(o.mean)}, range {num(o.min)} to {num(o.max)})",
    )
    outcomes = getattr(o, "outcomes", None)
    if outcomes:
        line.append(f"; success {percent(outcomes['success'])}, failure {percent(outcomes['failure'])}")
    return line


def _range_and_mean(totals: Counter[int]) -> str:
    n = sum(totals.values())
    mean = sum(t * c for t, c in totals.items()) / n
    return f"totals {num(min(totals))} to {num(max(totals))}, mean {_decimal(mean)}"


def closing(tally: Counter[Tallied]) -> Text | None:
    """The closing line over repeated rolls: the range and mean of the totals of each
    expression rolled more than once (``-n``), never averaged across expressions; none
    when no expression was repeated (``roll d20 2d6``)."""
    by_expression: dict[str, Counter[int]] = {}
    outcomes: dict[str, Counter[str]] = {}
    for key, n in tally.items():
        expression, total = key[0], key[1]
        by_expression.setdefault(expression, Counter())[total] += n
        if len(key) > 2 and key[2] is not None:  # a compared total: how many succeeded
            outcomes.setdefault(expression, Counter())[key[2]] += n
    repeated = {e: t for e, t in by_expression.items() if sum(t.values()) > 1}
    if not repeated:
        return None

    def said(e: str, totals: Counter[int]) -> str:
        verdicts = outcomes.get(e)
        if not verdicts:
            return _range_and_mean(totals)
        wins, losses = verdicts["success"], verdicts["failure"]
        return (f"{plural(wins, 'success', 'successes')}, {plural(losses, 'failure', 'failures')}; "
                f"{_range_and_mean(totals)}")

    if len(by_expression) == 1:
        ((e, totals),) = repeated.items()
        return Text(f"{sum(totals.values())} rolls: {said(e, totals)}", style="bold")
    return Text("\n").join(Text(f"{visible(e.strip())} ×{sum(t.values())}: {said(e, t)}", style="bold")
                           for e, t in repeated.items())


def repeats(results: Iterable[rules.NotationRoll | rules.TreeRoll]) -> list[Text]:
    """``-n`` of one-term rolls (``roll 4d6kh3 -n 6``, commands.py decides): each
    expression's totals on one line, in the order rolled (``4d6kh3 ×6: 12, 13, 11, 10,
    18, 10``), then the closing line. ``--breakdown`` shows each roll's dice instead."""
    by_expression: dict[str, list[int]] = {}
    for r in results:
        by_expression.setdefault(r.expression, []).append(r.total)
    lines = [Text.assemble((f"{visible(e.strip())} ×{len(t)}", "bold"), ": ", ", ".join(num(x) for x in t))
             for e, t in by_expression.items()]
    tally: Counter[Tallied] = Counter((e, x) for e, t in by_expression.items() for x in t)
    line = closing(tally)
    return [*lines, *(line.split() if line is not None else [])]


STRUCK = "dim strike"
FAILED = "red"


def _entry(d: rules.TreeDie) -> tuple[str, str]:
    """One entry of a die in the wider notation's breakdown, as text that keeps every mark
    in plain text (RULES.md: no meaning carried by color or strike-through alone)."""
    marks = d.marks
    if "rerolled" in marks:
        return f"{d.face}→", STRUCK
    face = "+".join(map(str, d.rolls)) + f"={d.face}" if d.rolls else str(d.face)
    face = face.replace("-", MINUS_SIGN)
    if "exploded" in marks:
        face += "!"
    if "penetrated" in marks:
        face = f"{face}{MINUS_SIGN}{d.face - d.value if d.rolls else 1}"
    if "raised" in marks:
        face = f"{face}↑{d.value}"
    elif "lowered" in marks:
        face = f"{face}↓{d.value}"
    if "count" in marks or "sides" in marks:
        face = f"{'count' if 'count' in marks else 'sides'} {face}"
    style = CRIT if "explosion" in marks or "exploded" in marks or d.rolls else HIT
    if "critical-success" in marks:  # cs: marked, the total unchanged (RULES.md)
        face, style = f"{face}**", CRIT
    if "critical-failure" in marks:  # cf
        face, style = f"{face}__", FAILED
    if "dropped" in marks:
        return f"({face})", DROPPED
    if "success" in marks:
        return f"{face} ✓", HIT
    if "failure" in marks:
        return f"{face} ✗", FAILED
    if not d.kept:
        return face, MISS
    return face, style


def _tree_chips(dice: list[rules.TreeDie]) -> Text:
    """A term's dice, one chip a die: re-rolls joined to what replaced them by →, an
    exploding die's rolls by +. More than :data:`DICE_SHOWN` chips are counted by face, as
    :func:`dice_line` counts them (each chip in the style of its last die)."""
    chips: list[list[tuple[str, str]]] = []  # each chip: its joined parts
    before: rules.TreeDie | None = None
    for d in dice:
        face, look = _entry(d)
        if before is not None and ("rerolled" in before.marks or "explosion" in d.marks or (
                "exploded" in before.marks and "rerolled" in d.marks)):
            chips[-1].append((face if "rerolled" in before.marks else "+" + face, look))
        else:
            chips.append([(face, look)])
        before = d
    if len(chips) > DICE_SHOWN:
        line = dice_line("", [("".join(p for p, _ in chip), chip[-1][1]) for chip in chips])
        return line[len("   "):]  # the chips alone, without dice_line's label
    text = Text()
    for i, chip in enumerate(chips):
        if i:
            text.append("  ")
        for part, style in chip:
            text.append(unit(part), style=style)
    return text


def _successes_counted(expression: str) -> bool:
    """The term counts successes (``8d10>=6``, ``{2d6,3d8}>4``): the verdict's reading."""
    from rpgdice.rulesets.dice.verdict import successes_counted

    return successes_counted(expression)


def _tree_term(t: rules.TreeTerm) -> Text:
    line = Text.assemble((f"  {visible(t.expression)} ", LABEL))
    if t.dice:
        line.append_text(_tree_chips(t.dice))
        if _successes_counted(t.expression):  # the same words a term without a label gets
            what = plural(abs(t.value), "success", "successes")
            line.append(f"  = {what}" if t.value >= 0 else f"  = {MINUS_SIGN}{what}")
        else:
            line.append(f"  = {signed(t.value)}")
    if t.label:
        line.append(f"  · {visible(t.label)}", style=NOTE)
    return line


def tree_roll(r: rules.TreeRoll) -> list[Text]:
    """The wider notation's roll: each term's dice with every modifier's work marked,
    labels beside their terms, and a compared total's verdict."""
    lines = [Text.assemble(("Dice", "bold"), f" · {visible(r.expression.strip())}")]
    lines += [_tree_term(t) for t in r.terms[:MAX_TERM_LINES] if t.dice or t.label]
    constants = [t.value for t in r.terms if not t.dice and not t.label]
    if len(r.terms) > MAX_TERM_LINES:
        lines.append(Text(f"  … {plural(len(r.terms) - MAX_TERM_LINES, 'more term')}", style=MISS))
    if constants:
        lines.append(Text.assemble(("  ", ""), (" ".join(signed(c) for c in constants[:MAX_CONSTANTS]), LABEL)))
    total = Text.assemble(("  Total ", GOOD), (num(r.total), "bold"))
    if r.compare and r.against is not None:
        against = Text.assemble(f" {visible(r.compare)} ")
        if r.against.dice:
            against.append(f"{visible(r.against.expression)} ")
            against.append_text(_tree_chips(r.against.dice))
            against.append(" = ")
        against.append(num(r.against.value), style="bold")
        total.append_text(against)
        good = r.outcome == "success"
        total.append(f" → {'success' if good else 'failure'}", style=GOOD if good else BAD)
    if r.label:
        total.append(f"  · {visible(r.label)}", style=LABEL)
    lines.append(total)
    lines += notes(r.notes) if r.notes else []
    return lines


VIEWS: dict[type, View] = {rules.NotationRoll: roll, rules.TreeRoll: tree_roll, rules.NotationOdds: odds,
         rules.CompareOdds: compare_odds, rules.TreeOdds: odds}
"""Each command's view, by the result's ``COMMAND``."""
SUMMARIES = {rules.NotationRoll: (lambda r: (r.expression, r.total), "rolls"),
             rules.TreeRoll: (lambda r: (r.expression, r.total, r.outcome), "rolls")}
"""What repeated rolls tally (ordinary dice have no outcome): each expression's totals..."""
CLOSINGS = {rules.NotationRoll: closing, rules.TreeRoll: closing}
"""...summed up as their range and mean, per expression."""
REPEATS = {rules.NotationRoll: repeats, rules.TreeRoll: repeats}
"""``-n`` of one-term rolls: the totals in one line."""

AFTER: dict[type, Callable[..., Sequence[Line]]] = {rules.NotationOddsSet: lambda odds_set, r: [odds_line(odds_set, r)]}
"""``--odds``: under a roll, the chance of its total (the odds of each expression rolled)."""


def _term_faces(term: Loaded) -> str:
    """A stored term's faces in a few words, as the terminal marks them: a dropped die in
    parentheses (``(9) 12``), a counted one ticked (``6✓``)."""
    dice = term.get("dice") or []
    if len(dice) > 10 or all(d.get("kept", True) for d in dice if isinstance(d, dict)):
        return faces_text(dice)
    counting = any(c in str(term.get("expression")) for c in "<>=")
    shown = []
    for d in dice:
        face, kept = d.get("face") if isinstance(d, dict) else d, isinstance(d, dict) and d.get("kept")
        shown.append(f"{face}✓" if counting and kept else str(face) if kept or counting
                     else f"({face})")
    return " ".join(shown)


def _roll_figures(r: Loaded) -> str:
    faces = " ".join(_term_faces(t) for t in r.get("terms") or [] if t.get("dice"))
    return f"{r.get('expression')}: {faces + ' → ' if faces else ''}{num(r.get('total', 0))}"


FIGURES = {"roll": _roll_figures}
"""The roll log's few words on a stored result, by command."""

TABLE = Views(VIEWS, figures=FIGURES, summaries=SUMMARIES, closings=CLOSINGS, after=AFTER,
              repeats=REPEATS)
"""What the ruleset's record hands out (:attr:`rpgdice.rulesets.Ruleset.views`)."""

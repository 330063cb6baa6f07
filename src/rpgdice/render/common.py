"""What every terminal view shares: the console, styles, words, number formats,
dice chips, notes, charts and bars, and the ``show`` loop.

A result finds its view through its ruleset's record: :func:`view` asks the registry
(through :mod:`rpgdice.core.registry`, which rpgdice.rulesets fills: the render
primitives import no registry) for the ruleset of the result's class, whose ``views()`` imports that
ruleset's ``view.py`` and keys its views by result class. This module imports no
ruleset's view; each ruleset's view imports this one. Rich decides about color: none when piped, on with ``FORCE_COLOR``, and
``NO_COLOR`` wins over both.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from itertools import chain
from typing import TYPE_CHECKING, ClassVar, Protocol, TypeAlias

from rich.console import Console
from rich.text import Text

from rpgdice.core import registry
from rpgdice.core.data import Loaded
from rpgdice.core.errors import visible

if TYPE_CHECKING:
    import re
    from fractions import Fraction

    from rpgdice.core.envelope import Rolled
    from rpgdice.core.record import Tagged

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


CAPTURE: ContextVar[Console | None] = ContextVar("rpgdice_capture", default=None)
"""A console the views print to instead of stdout, in this thread alone (``rpgdice serve``
records a roll's view, colors and all, to show it on the table's page)."""


def console() -> Console:
    """A stdout console. Colored in a terminal, plain when piped. FORCE_COLOR (non-empty)
    colors piped output too, even where TERM says the terminal is dumb. NO_COLOR
    (non-empty) wins over FORCE_COLOR: color off, and escape codes only when stdout
    really is a terminal. :data:`CAPTURE`, when set, is the console."""
    captured = CAPTURE.get()
    if captured is not None:
        return captured
    if os.environ.get("NO_COLOR"):
        return Console(highlight=False, soft_wrap=True, no_color=True, force_terminal=sys.stdout.isatty())
    if os.environ.get("FORCE_COLOR") and os.environ.get("TERM", "") in ("dumb", "unknown"):
        return Console(highlight=False, soft_wrap=True, force_terminal=True, color_system="standard")
    return Console(highlight=False, soft_wrap=True)


TONE = {"good": GOOD, "bad": BAD, "dire": DIRE}
"""The style of each outcome tone a ruleset's record gives (rpgdice.rulesets.TONES)."""
VOCABULARY = {
    "en": {"rolls": "rolls", "outcome": "outcome", "chance": "chance", "odds": "odds", "of": "chance of",
           "bars": "bars on one scale: a full bar ({cells} cells) is {top}",
           "spent": "spent {spent} {label}, {left} left"},
    "es": {"rolls": "tiradas", "outcome": "resultado", "chance": "probabilidad", "odds": "probabilidad",
           "of": "de", "bars": "barras a una misma escala: una barra entera ({cells} celdas) es {top}",
           "spent": "gasta {spent} de {label}, le quedan {left}",
           "ATTACKER": "atacante", "DEFENDER": "defensor", "MEMBERS": "miembros",
           "MEMBERS_ONE": "miembro", "ACTIONS": "acciones"},
}
"""The views' own words (headers, summaries), by the ruleset's language."""


def words(ruleset: str) -> dict[str, str]:
    """The view's own words (headers, summaries) in the ruleset's language."""
    return VOCABULARY[registry.get(ruleset).language]


def outcome_word(ruleset: str, outcome: str | None) -> tuple[str, str]:
    """An outcome in the ruleset's words, and its style: ``("Fracaso", DIRE)``."""
    if not registry.known(ruleset):  # a log entry forged by hand
        return str(outcome or "rolled"), ""
    record = registry.get(ruleset)
    return record.word(outcome), TONE.get(record.tone(outcome), "")


# Finding a result's view ---------------------------------------------------------------

Line: TypeAlias = "Text | Chart"
"""A view's line: a line of text, or a chart :func:`layout` draws on the command's one scale."""
Chance: TypeAlias = "Fraction | float"
"""A probability as odds records hold it: exact (a Fraction), or a float (a ruleset file's)."""
View = Callable[..., "list[Text] | list[Line]"]
"""A result's view: the result (of the class it is kept under) to its lines."""
Tally: TypeAlias = "tuple[Callable[[Tagged], Hashable], Callable[[Counter[Hashable]], Text | None]]"
"""How repeated results are summed up: a label per result, and the closing line over the tally."""


class ResultViews(Protocol):
    """What this module reads of a ruleset's views (:class:`rpgdice.rulesets.Views`)."""

    @property
    def show(self) -> Mapping[type, View]: ...
    @property
    def summaries(self) -> Mapping[type, tuple[Callable[..., Hashable], str]]: ...
    @property
    def closings(self) -> Mapping[type, Callable[[Counter[Hashable]], Text | None]]: ...
    @property
    def after(self) -> Mapping[type, Callable[..., Sequence[Line]]]: ...
    @property
    def repeats(self) -> Mapping[type, Callable[..., list[Text]]]: ...


class Odds(Protocol):
    """Odds records as ``--odds`` reads them: their ruleset, each outcome's chance."""

    RULESET: ClassVar[str]

    @property
    def outcomes(self) -> Mapping[str, Chance]: ...


class Outcome(Protocol):
    """A result as ``--odds`` reads it: its outcome."""

    @property
    def outcome(self) -> str: ...


def views_of(result: object) -> ResultViews:
    """The views of ``result``'s ruleset (its :class:`rpgdice.rulesets.Views`), from its
    record (found through :mod:`rpgdice.core.registry`)."""
    return registry.of(result).views()


def view(result: Tagged) -> View:
    """The view of ``result``, by its class."""
    return views_of(result).show[type(result)]


def render(result: Tagged, width: int = 80) -> list[Text]:
    """The lines for one result, laid out for ``width`` columns."""
    return layout(view(result)(result), width, registry.of(result).language)


def summary(tally: Counter[Hashable], noun: str,
            counted: Callable[[Hashable, int], str] = lambda what, n: f"{n} {what}") -> Text:
    """The closing line over repeated results: how many of each kind (``counted(kind,
    n)`` says it: "3 successes"), ``noun`` in all."""
    parts = ", ".join(counted(what, n) for what, n in tally.most_common())
    return Text(f"{sum(tally.values())} {noun}: {parts}", style="bold")


def _tally(result: Tagged) -> Tally:
    """How repeated results of this kind are summed up: a label per result, and the
    closing line over the tally of labels. A ruleset module's ``SUMMARIES[COMMAND]``
    sums a roll type up in its own terms (who won, targets reached; its
    ``CLOSINGS[COMMAND]`` may write the line itself); otherwise each outcome is counted
    in the ruleset's nouns ("3 successes, 1 botch", "3 éxitos, 1 fracaso")."""
    views = views_of(result)
    own = views.summaries.get(type(result))
    if own is not None:
        label, noun = own
        closing = views.closings.get(type(result))
        return label, closing if closing is not None else (lambda tally: summary(tally, noun))
    record = registry.of(result)
    noun = VOCABULARY[record.language]["rolls"]
    return (lambda r: r.outcome), (lambda tally: summary(tally, noun, record.counted))


def show(results: Iterable[Rolled], after: Callable[..., Sequence[Line]] | None = None,
         total: int = 1, compact: bool = False) -> None:
    """Print each result's lines (``results``: each a result and its envelope,
    :class:`~rpgdice.core.envelope.Rolled`, whose character and target lines go under
    the result's header) as it comes, fitted to the console's width; ``after(result)``
    adds lines under each (``--odds``). Over several results (``total`` > 1) each is
    numbered and a summary closes the list (:func:`_tally`; a ruleset module's
    ``CLOSINGS[COMMAND]`` may write it from the tally its ``SUMMARIES`` label made, or
    write none: ordinary dice sum each repeated expression's totals up as a range and a
    mean). ``compact``: the command asked for its ruleset's short form of repeats
    (``Views.repeats``) instead of each result's lines."""
    out = console()
    width = out.width
    if compact:
        _show_repeats(iter(results), out, width)
        return
    tally: Counter[Hashable] = Counter()
    pending: list[Text] = []
    label_closing: list[Tally] = []
    try:
        _show_each(results, out, width, after, total, tally, pending, label_closing)
    finally:  # what was rolled before a roll failed is shown, as it was rolled
        if pending:
            _flush(out, pending)
    closing = label_closing[0][1] if label_closing else None
    line = closing(tally) if total > 1 and closing is not None else None
    if line is not None:
        out.print(Text("\n").join(piece for part in line.split() for piece in wrap(part, width)))


BATCH = 200
"""Lines printed at once (a few dozen results): Rich's cost per call adds up over
thousands of results (``reglas roll 5 -n 100000``: 49 s measured, a third less batched),
and a terminal sees no difference."""


def _show_each(results: Iterable[Rolled], out: Console, width: int,
               after: Callable[..., Sequence[Line]] | None, total: int, tally: Counter[Hashable],
               pending: list[Text], label_closing: list[Tally]) -> None:
    """:func:`show`'s loop: each result laid out into ``pending``, printed a batch at a
    time; ``tally`` counts the labels, ``label_closing`` gets the tally's label and closing."""
    label: Callable[[Tagged], Hashable] | None = None
    for i, item in enumerate(results, 1):
        result, envelope = item.result, item.envelope
        if label is None:
            label, closing = _tally(result)
            label_closing[:] = [(label, closing)]
        tally[label(result)] += 1
        lines: list[Line] = list(view(result)(result))
        if envelope.vs_table is not None:  # an attack's target (--vs): under the header
            lines[1:1] = [target_line(envelope.vs_table, type(result).RULESET)]
            if isinstance(envelope.vs_table.get("hurt"), str):  # the damage it took, last
                lines.append(Text(visible(envelope.vs_table["hurt"]), style="bold"))
        if envelope.table is not None:  # a character's roll (--as)
            lines[1:1] = [character_line(envelope.table, type(result).RULESET)]
        if after is not None:
            lines += after(result)
        if total > 1:
            head = lines[0]
            assert isinstance(head, Text)  # a view's first line is its header
            lines[0] = Text.assemble((f"#{i} ", "bold"), head)
        pending += layout(lines, width, registry.of(result).language)
        if len(pending) >= BATCH:
            _flush(out, pending)


def _flush(out: Console, pending: list[Text]) -> None:
    """Print the lines laid out so far at once (fitted to the width already: Rich wraps
    nothing again), emptied first so that a failed write is never tried twice."""
    batch = Text("\n").join(pending)
    pending.clear()
    out.print(batch, soft_wrap=True)


def _show_repeats(items: Iterator[Rolled], out: Console, width: int) -> None:
    """All the results in their ruleset's short form of repeats (``Views.repeats``)."""
    first = next(items, None)
    if first is None:
        return
    repeats = views_of(first.result).repeats[type(first.result)]
    lines = repeats(item.result for item in chain([first], items))
    out.print(Text("\n").join(piece for line in lines for piece in wrap(line, width)))


POOL_PARAMS = ("ATTRIBUTE", "SKILL", "POOL", "INDEX")
"""Arguments that together make one pool: their names join with " + "."""


def _resource_label(ruleset: str, name: str) -> str:
    """A resource as the ruleset's record labels it ("Willpower", "Might")."""
    schema = registry.get(ruleset).sheet if registry.known(ruleset) else None
    found = [r.label for r in schema.resources if r.name == name] if schema is not None else []
    return found[0] if found else name


def character_line(table: Loaded, ruleset: str) -> Text:
    """Who rolled (``--as``), the traits the arguments named, and what the roll paid:
    ``  Ysolde · Dexterity 3 + Stealth 3 · spent 1 Willpower, 4 left``."""
    from rpgdice.core.errors import visible  # names and traits come from the user's sheet

    line = Text.assemble(INDENT, (visible(table["character"]), LABEL))
    said = VOCABULARY[registry.get(ruleset).language if registry.known(ruleset) else "en"]
    labels = [(param, visible(text)) for param, text in table.get("labels", ())]
    pool = [text for param, text in labels if param in POOL_PARAMS]
    if pool:
        line.append(" · " + " + ".join(_trait_units(text) for text in pool))
    for param, text in labels:
        if param not in POOL_PARAMS:
            # "attacker Dexterity 3 + Stealth 3": breaks between traits, a rating kept with its name
            # "wound light (the sheet's)" whole; "attacker Dexterity 3 + ..." breaks between traits
            # a label is one member of a variadic argument: "miembro Sigilo 3", not "miembros"
            label = said.get(param + "_ONE") or said.get(param, param.lower().lstrip('-'))
            join = " " if " + " in text else NBSP
            line.append(" · " + _trait_units(f"{label}{join}{_grouped(text)}"))
    for resource, spent in table.get("spent", {}).items():
        left = table["left"][resource]
        label = _resource_label(ruleset, resource)
        line.append(" · " + unit(said["spent"].format(spent=spent, label=label, left=left)))
    return line


def target_line(table: Loaded, ruleset: str) -> Text:
    """An attack target's line (``--vs``): ``  vs Ghoul · ...``, as a character line."""
    return Text.assemble(("  vs ", "bold"), character_line(table, ruleset)[len(INDENT):])


GROUPED = 24
"""The longest parenthesis kept on one line whole (``(the sheet's)``); a longer one breaks
between its words, as a sentence does."""


def _grouped(text: str) -> str:
    """``light (the sheet's)`` kept whole: a parenthesis never starts a line, and a short
    one never breaks (a long one breaks between words: one unit wider than the line would
    be cut inside a word)."""
    import re

    def kept(m: re.Match[str]) -> str:
        inner = m.group(1)
        return f"{NBSP}({inner.replace(' ', NBSP) if len(inner) <= GROUPED else inner})"

    return re.sub(r" \(([^()]*)\)", kept, text)


def _trait_units(text: str) -> str:
    """``Endurance 1`` kept on one line: a rating or a sign never starts a line."""
    import re

    return re.sub(r" (?=[−+\-]?\d|[−+\-] )", NBSP, text)


# Fitting the width ---------------------------------------------------------------------

NBSP = "\u00a0"
"""Joins the parts of one unit (a die chip such as ``4→6 ✓``): lines break at plain
spaces only, never inside a unit; printed as a plain space."""


MIN_WIDTH = 40
"""The narrowest terminal rpgdice lays out for in full: from this width up no line is
longer than the width and no word, die chip or figure ("2 extra successes") is broken.
Below it lines still break between words, a unit's words too, so that only a single word
wider than the terminal (a long argument, a path) passes the edge."""


def unit(text: str) -> str:
    """``text`` as one unit that a line never breaks inside."""
    return text.replace(" ", NBSP)


def _hang(line: Text, lead: int, width: int) -> int:
    """Where a line's continuation starts: under the first chip after a label
    (``  dice 4 ✓ ...``), else two columns in from the line's own indent."""
    for span in line.spans:
        if span.style == LABEL and span.start <= lead < span.end:
            if span.end <= width // 2:
                return span.end
            break
    return min(lead + 2, width // 2)


def _glued(plain: str) -> str:
    """``plain`` with the spaces no line breaks at made unbreakable: after a lone sign or
    arrow (``− penalties``, ``→ 4 successes``), around an ``=`` (``1 = 6``) and before a
    separator ``·`` after a word, so a sum never ends a line on its operator nor starts one
    with ``= 6``, and a header's next line never starts with ``·`` (it would read as a note)."""
    import re

    return re.sub(r"(?<=[ \u00a0][+−=→×]) | +(?==[ \u00a0])|(?<=[^ \u00a0]) (?=·[ \u00a0])",
                  lambda m: NBSP * len(m.group()), plain)


def wrap(line: Text, width: int) -> list[Text]:
    """``line`` broken at spaces into lines of at most ``width`` cells, continuation lines
    indented; units stay whole, but from :data:`MIN_WIDTH` on a word wider than a whole line
    is cut where it is full (never a line wider than the terminal)."""
    from rich.cells import cell_len

    plain = line.plain
    if len(plain) <= width and cell_len(plain) <= width:
        return [_plain_spaces(line)]
    if width < MIN_WIDTH and NBSP in plain:  # too narrow to keep units whole: words are
        line = _plain_spaces(line.copy())
        plain = line.plain
    else:
        plain = _glued(plain)  # breaks only where this line may break: same length
    lead = len(plain) - len(plain.lstrip(" "))
    hang = _hang(line, lead, width)
    cuts: list[tuple[int, int]] = []  # (start, end) of each output line in ``plain``
    start = end = 0
    used = 0  # cells used on the current line, up to ``end``
    pos = 0
    for word in plain.split(" "):
        w_start, w_end = pos, pos + len(word)
        pos = w_end + 1
        if not word:
            continue
        gap = w_start - end  # plain spaces (the leading indent, on the first line)
        size = cell_len(word)
        if end and used + gap + size > width:
            cuts.append((start, end))
            start, end, used = w_start, w_end, hang + size
        else:
            end = w_end
            used += gap + size
        on_line = cell_len(plain[start:end]) if used > width >= MIN_WIDTH else 0
        while used > width >= MIN_WIDTH:  # a word wider than a line: cut where it is full
            room = width - (used - on_line)
            cut, cells = start, 0
            while cut < end and (cut == start or cells + cell_len(plain[cut]) <= room):
                cells += cell_len(plain[cut])
                cut += 1
            if cut >= end:
                break
            cuts.append((start, cut))
            on_line -= cells
            start, used = cut, hang + on_line
    cuts.append((start, end))
    return [_plain_spaces(piece) for piece in _cut(line, cuts, hang)]


def _cut(line: Text, cuts: list[tuple[int, int]], hang: int) -> list[Text]:
    """The pieces ``line.plain[a:b]`` for each cut, with their styles, every piece after
    the first indented by ``hang``: one pass over the spans (``Text.divide`` is
    quadratic in spans for a 1000-die line)."""
    from bisect import bisect_right

    from rich.text import Span

    starts = [a for a, _ in cuts]
    spans: list[list[Span]] = [[] for _ in cuts]
    for span in line.spans:
        k = max(0, bisect_right(starts, span.start) - 1)
        while k < len(cuts) and cuts[k][0] < span.end:
            a, b = cuts[k]
            lo, hi = max(span.start, a), min(span.end, b)
            if lo < hi:
                shift = (hang if k else 0) - a
                spans[k].append(Span(lo + shift, hi + shift, span.style))
            k += 1
    plain = line.plain
    pieces = []
    for k, (a, b) in enumerate(cuts):
        lead = " " * hang if k else ""
        pieces.append(Text(lead + plain[a:b], style=line.style, spans=spans[k], end=""))
    return pieces


def _plain_spaces(line: Text) -> Text:
    if NBSP in line.plain:
        line.plain = line.plain.replace(NBSP, " ")
    return line


def layout(lines: Sequence[Line], width: int, language: str = "en") -> list[Text]:
    """A view's lines fitted to ``width``: its charts drawn on one scale (:class:`Chart`),
    every line wrapped between units; the scale's note in ``language``."""
    charts = [x for x in lines if isinstance(x, Chart)]
    for c in charts:
        if c.text_width() + len(GAP) + MIN_BAR > width:  # its headers on two lines
            c.fold()
    cells = 0
    if charts:
        text = max(c.text_width() for c in charts)
        cells = max(MIN_BAR, min(BAR_WIDTH, width - text - len(GAP)))
        top = max((row[3] for c in charts for row in c.rows), default=0)
        if top:
            said = VOCABULARY[language]["bars"].format(cells=cells, top=percent(top))
            lines = [*lines, *notes([said])]
    out: list[Text] = []
    for line in lines:
        if isinstance(line, Chart):
            out += [piece for row in line.lines(cells, top, width) for piece in wrap(row, width)]
        else:
            out += wrap(line, width)
    return out


# Words and numbers ---------------------------------------------------------------------


FACES_SHOWN = 12
"""A one-line summary names at most this many faces; a bigger pool gives its first ten and
how many dice it rolled (``log show ID`` shows every die)."""


def faces_text(dice: list[Loaded]) -> str:
    """The faces of stored dice objects (``{"face": 4, ...}``), for a one-line summary:
    ``4 10 9``; ``4 10 9 3 6 10 8 7 2 5 … (40 dice)`` for a big pool."""
    if len(dice) <= FACES_SHOWN:
        return " ".join(str(d.get("face")) for d in dice)
    return " ".join(str(d.get("face")) for d in dice[:10]) + f" … ({len(dice)} dice)"


def contest_figures(r: Loaded, key: str) -> str:
    """A stored contest in a few words: each side's ``key`` (who won is its verdict)."""
    a, d = r.get("attacker") or {}, r.get("defender") or {}
    return f"{a.get(key)} vs {d.get(key)}"


def extended_figures(r: Loaded) -> str:
    """A stored extended roll in a few words: its total of the target, in how many rolls."""
    return f"{r.get('total')} of {r.get('target')} in {len(r.get('rolls') or [])} rolls"


def num(n: int) -> str:
    """A whole number with the view's minus sign."""
    return f"{MINUS}{-n}" if n < 0 else str(n)


def signed(n: int) -> str:
    """A whole number with its sign always written: ``+2``, ``−1``."""
    return f"+{n}" if n >= 0 else f"{MINUS}{-n}"


def plural(n: int, one: str, many: str | None = None) -> str:
    """``3 dice``, ``1 success``: one unit, never broken across lines."""
    return unit(f"{num(n)} {one if abs(n) == 1 else (many or one + 's')}")


def notes(lines: list[str]) -> list[Text]:
    """The notes under a roll, control characters made visible: a note may come from the
    log or a table's answer (a forged entry's escapes never drive the terminal)."""
    return [Text(f"  · {_note(line)}", style=NOTE) for line in lines]


def _note(line: str) -> str:
    """A note with its control characters made visible (``\\x1b``); its spaces, the
    no-break ones the rulesets' notes keep words together with too, kept as they are."""
    if line.isprintable():
        return line
    import unicodedata

    from rpgdice.core.errors import visible

    return "".join(c if c.isprintable() or unicodedata.category(c) == "Zs" else visible(c)
                   for c in line)


DICE_SHOWN = 100
"""A roll of more dice than this shows its dice counted by face (``4 ✗ ×97``), each kind of
chip once, not each die: a few lines a roll however big the pool, so that a command of
many big pools (``crytures roll 1000 -n 1000``, its ``log show``) stays readable and quick
(Rich's cost is per styled chip). ``--json`` (and ``log show ID --json``) lists every die."""


def _face_order(chip: str) -> tuple[int, int, str]:
    """A chip's place among the counted faces: by its leading number (``10 ✓✓``,
    ``4→6 ✓``, ``(3)``), then as written."""
    import re

    m = re.match(r"\(?([−-]?)(\d+)", chip)
    if m is None:
        return (1, 0, chip)
    return (0, int(m.group(2)) * (-1 if m.group(1) else 1), chip)


def counted_chips(chips: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``chips`` counted: each kind (its text and style) once, ``×N`` the dice showing it,
    in the order of the faces."""
    tally: Counter[tuple[str, str]] = Counter(chips)
    return [(f"{chip} ×{n}", style)
            for (chip, style), n in sorted(tally.items(), key=lambda kv: _face_order(kv[0][0]))]


def dice_line(label: str, chips: list[tuple[str, str]]) -> Text:
    """``label`` then each die's chip, two spaces apart; a line breaks between chips only.
    More than :data:`DICE_SHOWN` dice are counted by face (:func:`counted_chips`), with a
    note saying so and where every die is."""
    text = Text.assemble((f"  {label} ", LABEL))
    many = len(chips) > DICE_SHOWN
    for i, (chip, style) in enumerate(counted_chips(chips) if many else chips):
        if i:
            text.append("  ")
        text.append(unit(chip), style=style)
    if many:
        text.append(f"  ({len(chips)} dice counted by face; --json lists each die)", style=NOTE)
    return text


def nested(label: str, lines: list[Text]) -> list[Text]:
    """A single roll's lines, indented under ``label`` (a roll type's step)."""
    head = Text.assemble(("  " + label + " ", "bold"), lines[0])
    return [head] + [Text.assemble("  ", line) for line in lines[1:]]


# Odds: percentages, bars and charts -----------------------------------------------------

BAR_WIDTH = 40
"""Cells of a full bar (100%) where the terminal has room."""
MIN_BAR = 5
"""Cells of a full bar however narrow the terminal."""
MAX_ROWS = 30
"""A success distribution with more rows than this is shown in bins of equal width."""
SHOWN = 2000
"""Rows of a count distribution below 1/SHOWN (0.05%, "0.0%" to one decimal) are left
out at either end; a note gives what they add up to."""
EIGHTHS = " ▏▎▍▌▋▊▉"


def percent(p: Chance) -> str:
    """To one decimal; a chance that is neither 0 nor 1 never shows as 0.0% or 100.0%."""
    if 0 < p and p * 2000 < 1:
        return "<0.1%"
    if p < 1 and p * 2000 >= 1999:
        return ">99.9%"
    return f"{float(p) * 100:.1f}%"


def bar(p: Chance, top: Chance = 1, cells: int = BAR_WIDTH, style: str = "cyan") -> Text:
    """A horizontal bar of the chance ``p``, a full bar (``cells`` cells) being the
    chance ``top``, in eighths of a cell. :func:`layout` gives every chart of a command
    the same ``top`` (the largest chance in any of them) and ``cells``: one scale."""
    eighths = round(p / top * cells * 8) if top else 0
    if p and not eighths:
        eighths = 1  # a possible result is never drawn as nothing
    full, part = divmod(eighths, 8)
    return Text("█" * full + (EIGHTHS[part] if part else ""), style=style)


INDENT = "  "
"""Tables sit indented like the notes under them."""
GAP = "  "

Row = tuple[str, str, list[str], "Chance", str]
"""A chart row: label, its style, the figures (right-aligned), the chance the bar draws, its style."""


class Chart:
    """A table with a header line, the first column left-aligned, the figures
    right-aligned, and a bar for each row; the bar's length is drawn when the view is
    laid out, on the scale shared by every chart of the command (:func:`layout`)."""

    __slots__ = ("rows", "headers", "bar_header", "widths", "tops")

    def __init__(self, rows: Sequence[Row], headers: tuple[str, ...], bar_header: str = "") -> None:
        self.rows, self.headers, self.bar_header = rows, headers, bar_header
        self.tops: tuple[str, ...] = ()
        self.widths = self._widths(headers)

    def _widths(self, headers: Sequence[str]) -> list[int]:
        widths = [len(h) for h in headers]
        for label, _, figures, _, _ in self.rows:
            for i, cell in enumerate([label, *figures]):
                widths[i] = max(widths[i], len(cell))
        return widths

    def text_width(self) -> int:
        return len(INDENT) + sum(self.widths) + len(GAP) * (len(self.widths) - 1)

    def fold(self) -> None:
        """Each header of several words on two lines, split near its middle: a table of
        many outcomes (``messy critical``, ``bestial failure``) narrower than its line."""
        def halves(h: str) -> tuple[str, str]:
            spaces = [i for i, c in enumerate(h) if c == " "]
            if not spaces:
                return "", h
            at = min(spaces, key=lambda i: max(i, len(h) - i - 1))
            return h[:at], h[at + 1:]

        split = [halves(h) for h in self.headers]
        if any(top for top, _ in split):
            self.tops, self.headers = tuple(t for t, _ in split), tuple(b for _, b in split)
            self.widths = [max(w, len(t)) for w, t in zip(self._widths(self.headers), self.tops)]

    def _head(self, headers: Sequence[str]) -> Text:
        widths = self.widths
        head = [headers[0].ljust(widths[0])] + [h.rjust(w) for h, w in zip(headers[1:], widths[1:])]
        return Text(INDENT + GAP.join(head), style=LABEL)

    def lines(self, cells: int, top: Chance, width: int) -> list[Text]:
        head_line = self._head(self.headers)
        if self.bar_header and self.text_width() + len(GAP + self.bar_header) <= width:
            head_line.append(GAP + self.bar_header, style=LABEL)
        lines = [head_line]
        if self.tops:  # the headers' first words above them
            tops = self._head(self.tops)
            tops.rstrip()
            lines.insert(0, tops)
        widths = self.widths
        for label, style, figures, value, bar_style in self.rows:
            line = Text(INDENT)
            line.append(label.ljust(widths[0]), style=style)
            for cell, width in zip(figures, widths[1:]):
                line.append(GAP + cell.rjust(width))
            drawn = bar(value, top, cells, bar_style)
            if drawn.plain:
                line.append(GAP)
                line.append_text(drawn)
            lines.append(line)
        return lines


def chart(rows: Sequence[Row], *headers: str, bar_header: str = "") -> list[Line]:
    """A :class:`Chart`, as a view's line."""
    return [Chart(rows, headers, bar_header)]


def outcome_chart(ruleset: str, outcomes: Mapping[str, Chance]) -> list[Line]:
    rows = []
    for outcome, p in outcomes.items():
        word, style = outcome_word(ruleset, outcome)
        rows.append((word, style, [percent(p)], p, style))
    vocabulary = words(ruleset)
    return chart(rows, vocabulary["outcome"], vocabulary["chance"])


def _bins(exactly: Mapping[int, Chance]) -> tuple[int, int, int]:
    """The shown range lo..hi of a count distribution, and the bin width."""
    shown = [k for k, p in exactly.items() if p * SHOWN >= 1] or list(exactly)
    lo, hi = min(shown), max(shown)
    width = -(-(hi - lo + 1) // MAX_ROWS)
    return lo, hi, width


COUNT_WORDS = {
    "en": ("at least", "exactly", "in range", "{label} outside {lo}–{hi} (not shown): {p} together"),
    "es": ("al menos", "exactamente", "en el tramo",
           "{label} fuera de {lo}–{hi} (no mostrado): {p} en total"),
}


def count_chart(exactly: Mapping[int, Chance], at_least: Mapping[int, Chance],
                label: str = "successes", language: str = "en") -> tuple[list[Line], str | None]:
    """The table of a count distribution (exactly k, at least k) with its bar chart,
    and a note on the tails left out."""
    least, exactly_word, in_range, outside = COUNT_WORDS[language]
    lo, hi, width = _bins(exactly)
    rows = []
    for start in range(lo, hi + 1, width):
        end = min(start + width - 1, hi)
        p = sum((exactly[k] for k in range(start, end + 1)), 0)
        name = num(start) if start == end else f"{num(start)}–{num(end)}"
        rows.append((name, "", [percent(at_least[start]), percent(p)], p, "cyan"))
    # "at least" first, then "exactly" beside the bar, which measures it (and says so)
    exact = exactly_word if width == 1 else in_range
    table = chart(rows, label, least, exact, bar_header=f"█ = {exact}")
    hidden = 1 - sum((exactly[k] for k in range(lo, hi + 1)), 0)
    note = None
    if hidden:
        note = outside.format(label=label, lo=num(lo), hi=num(hi), p=percent(hidden))
    return table, note


def odds_lines(odds: Odds, result: Outcome) -> Sequence[Line]:
    """``--odds``: the lines under a roll's breakdown. A ruleset's ``Views.after`` says
    more where its odds do (an attack's damage chart); otherwise the chance of the roll's
    outcome (:func:`outcome_line`)."""
    own = views_of(odds).after.get(type(odds))
    return own(odds, result) if own is not None else [outcome_line(odds, result)]


def outcome_line(odds: Odds, result: Outcome) -> Text:
    """``--odds``: one line under a roll's breakdown with the chance of its outcome."""
    ruleset = type(odds).RULESET
    record, vocabulary = registry.get(ruleset), words(ruleset)
    word, style = outcome_word(ruleset, result.outcome)
    others = ", ".join(f"{record.word(o).lower()} {percent(p)}" for o, p in odds.outcomes.items())
    return Text.assemble(
        (f"  {vocabulary['odds']} ", LABEL),
        (percent(odds.outcomes[result.outcome]), "bold"),
        f" {vocabulary['of']} ",
        (word.lower(), style),
        f" ({others})",
    )


def at_least_of(exactly: Mapping[int, Chance]) -> dict[int, Chance]:
    """``exactly`` summed from the top: the chance of each value or more."""
    out: dict[int, Chance] = {}
    running: Chance = 0
    for k in sorted(exactly, reverse=True):
        running += exactly[k]
        out[k] = running
    return dict(sorted(out.items()))


def spread_chart(exactly: Mapping[int, Chance], label: str,
                 language: str = "en") -> tuple[list[Line], str | None]:
    """:func:`count_chart` of a distribution whose values may be negative (a margin, a
    team's sum), its missing values counted as 0."""
    lo, hi = min(exactly), max(exactly)
    full = {k: exactly.get(k, 0) for k in range(lo, hi + 1)}
    return count_chart(full, at_least_of(full), label, language)


def step_chart(by_step: Mapping[int, Chance], cumulative: Mapping[int, Chance], label: str,
               cumulative_header: str, step_header: str) -> list[Line]:
    """A sequence's chance at each roll or attempt (``by_step``) and by then
    (``cumulative``), in at most :data:`MAX_ROWS` rows (consecutive steps binned)."""
    steps = [k for k, p in by_step.items() if p * SHOWN >= 1] or list(by_step)
    lo, hi = min(steps), max(steps)
    width = -(-(hi - lo + 1) // MAX_ROWS)
    rows = []
    for start in range(lo, hi + 1, width):
        end = min(start + width - 1, hi)
        p = sum((by_step.get(k, 0) for k in range(start, end + 1)), 0)
        name = str(start) if start == end else f"{start}–{end}"
        upto = cumulative.get(end, cumulative[max(k for k in cumulative if k <= end)])
        rows.append((name, "", [percent(upto), percent(p)], p, "cyan"))
    return chart(rows, label, cumulative_header, step_header, bar_header=f"█ = {step_header}")

"""``--short``: one line per roll, the form a chat message takes: who (the character, if
any), what (the command as typed, without its output options), the dice and the verdict.
Made from a result's JSON object (as the log stores it), so the same line is written by
``--short`` on a terminal and posted to Discord by ``rpgdice serve --discord``."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Optional, cast

from rich.text import Text

from rpgdice.core import registry
from rpgdice.core.data import Loaded

if TYPE_CHECKING:
    from rpgdice.core.envelope import Rolled

OUTPUT_FLAGS = frozenset({"--short", "--secret", "--blind", "--json", "--odds", "--log", "--no-log"})
"""Options of a rolling command that change how it is shown or kept, not what is rolled:
left out of a short line's command."""
OUTPUT_VALUED = frozenset({"--compare"})
"""Output options that take a value (left out with it)."""


def what(argv: list[str], quoted: bool = True) -> str:
    """The command as typed, without its output options (``--short``, ``--json``, ...):
    quoted for a shell (a line to paste into one), or (``quoted=False``, the page's card)
    its words as typed, joined by spaces."""
    from rpgdice.render.log import command_text

    kept: list[str] = []
    skip = False
    for word in argv:
        if skip:
            skip = False
            continue
        if word in OUTPUT_FLAGS:
            continue
        if word in OUTPUT_VALUED:
            skip = True
            continue
        if word.split("=", 1)[0] in OUTPUT_VALUED:
            continue
        kept.append(word)
    if not quoted:
        from rpgdice.core.errors import visible

        return visible(" ".join(kept))
    return command_text(kept)


def told(figures: str, word: str) -> tuple[str, bool]:
    """The figures to show before the verdict ``word``, and whether the verdict goes
    right after them: an ordinary roll's figures end with its total (``2d6: 3 5 → 8``),
    which its verdict says (``8``, ``2 successes``): the verdict takes that place."""
    head, arrow, tail = figures.rpartition(" → ")
    if arrow and tail and word.split(" ", 1)[0] == tail.strip():
        return head + " →", True
    return figures, False


def line(argv: list[str], character: Optional[str], r: Loaded,
         kind: Optional[str] = None) -> Text:
    """The short line of one result (its JSON object; ``kind``, its class's name as a log
    entry stored it): ``Ysolde · seyruun roll dexterity stealth --as ysolde · 4 5 2 7 8 →
    2 succ. · Success · solid execution``. Its verdict is the result's ``verdict``, colored
    by its ``tone``; a roll type's line adds how many rolls it made; an ordinary roll's
    verdict is its total or its successes, in place of the total its figures end with."""
    from rpgdice.core.errors import visible
    from rpgdice.render import log as view

    out = Text()
    if character:
        out.append(visible(character), style="bold")
        out.append(" · ")
    out.append(what(argv))
    try:
        figures = view.figures(r)
        own = view.verdict(r, kind)
    except Exception:  # a stored result forged into a shape the views cannot read
        figures, own = "", None
    joined = False
    if own is not None:
        figures, joined = told(figures, own[0])
    if figures:
        out.append(f" · {visible(figures)}")
    if own is not None:
        out.append(" " if joined else " · ")
        out.append(own[0], style=own[1])
    elif r.get("outcome") is not None:
        out.append(" · ")
        out.append_text(view.outcome_text(str(r.get("ruleset")), str(r["outcome"])))
    rolls = r.get("rolls")
    said = view.words(r["ruleset"]) if registry.known(r.get("ruleset")) else {}
    word = said.get("rolls", "rolls")
    if isinstance(rolls, list) and word not in figures:
        out.append(f" ({len(rolls)} {word})")
    return out


def show(items: Iterable[Rolled], keys: Mapping[str, object], argv: list[str],
         character: Optional[str]) -> None:
    """Print one short line per item (each a result and its envelope) as it comes."""
    from rpgdice.core.data import to_data
    from rpgdice.render.common import console

    out = console()
    for item in items:
        data = to_data(item.result)
        data.update(to_data(keys))
        who = character
        table = item.envelope.table
        if who is None and isinstance(table, dict):
            who = cast(Optional[str], table.get("character"))  # the --as line's name
        out.print(line(argv, who, data), crop=False, overflow="ignore")
    sys.stdout.flush()


DISCORD_LIMIT = 2000
"""Discord's limit on a message's ``content``, in characters."""


def chat(argv: list[str], character: Optional[str], r: Loaded) -> str:
    """The short line as plain text within Discord's limit (cut with ``…``)."""
    text = line(argv, character, r).plain
    return text if len(text) <= DISCORD_LIMIT else text[:DISCORD_LIMIT - 1] + "…"

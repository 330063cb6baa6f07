"""The table's page in pieces of HTML: a roll as the terminal shows it (recorded from its
Rich view, colors and all, and exported with every text escaped), a secret roll as no more
than that, and the encounter. Nothing of a user's text (a character's name, an alias, a
label) reaches the page unescaped: Rich's export escapes what it records, and every other
text goes through :func:`html.escape`."""

from __future__ import annotations

import io
from html import escape
from typing import Any

from rich.console import Console
from rich.terminal_theme import MONOKAI

MAX_SHOWN = 12
"""Results of one entry the page shows (an entry of ``-n 1000`` says how many more there are)."""
WIDTH = 58
"""Columns a roll is laid out in: the page scales its font so that they fit a phone's width
and fill a TV's."""



def read_odds_spec(data: Any) -> Any:
    """An entry's stored exact odds spec, read as ``log show`` reads it (the roll value's
    :class:`~rpgdice.roll.odds.ExactOdds`, not computed)."""
    from rpgdice.roll.odds import ExactOdds

    return ExactOdds.from_data(data)


def _recorder() -> Console:
    return Console(record=True, file=io.StringIO(), width=WIDTH, force_terminal=True,
                   color_system="truecolor", highlight=False, soft_wrap=False, emoji=False,
                   markup=False)


def _exported(out: Console) -> str:
    return out.export_html(theme=MONOKAI, inline_styles=True, code_format="{code}").rstrip("\n")


def recorded(show: Any) -> str:
    """What ``show()`` prints with the views' console, as escaped, styled HTML."""
    from rpgdice.render import common

    out = _recorder()
    token = common.CAPTURE.set(out)
    try:
        show()
    finally:
        common.CAPTURE.reset(token)
    return _exported(out)


def entry_html(entry: dict[str, Any]) -> str:
    """One log entry as the page shows it: a secret one as "a secret roll" with no results;
    a public one as ``log show`` shows it (its header, then its views); an entry this
    rpgdice cannot rebuild as its stored figures."""
    ident = int(entry["id"])
    who = entry.get("character")
    head = (f'<span class="id">#{ident}</span> <span class="when">'
            f'{escape(str(entry.get("time") or ""))}</span>')
    if who:
        head += f' <span class="who">{escape(str(who))}</span>'
    if entry.get("secret"):
        return (f'<article class="roll secret" id="roll-{ident}" data-id="{ident}">'
                f'<header>{head}</header><p>a secret roll</p></article>')
    try:
        body = recorded(lambda: _show(entry))
    except Exception as e:  # a view that cannot show this stored data: its figures
        body = escape(f"{' '.join(entry.get('argv') or [])}: {type(e).__name__}")
    return f'<article class="roll" id="roll-{ident}" data-id="{ident}"><pre>{body}</pre></article>'


def _show(entry: dict[str, Any]) -> None:
    """``log show``'s view of an entry, from the stored results only (nothing is rolled
    again, no warning is printed)."""
    from rpgdice.core.rebuild import BadData
    from rpgdice.render import common, stored
    from rpgdice.render import log as view

    view.show_header(entry)
    try:
        records = [] if entry.get("too_large") else stored.records(entry)
    except BadData:
        view.show_data(entry)
        return
    try:
        odds = stored.odds(entry, read_odds_spec)
    except BadData:
        odds = None
    after = None
    if odds is not None:
        after = lambda r: common.odds_lines(odds, r)  # noqa: E731
    common.show(records[:MAX_SHOWN], after=after, total=min(len(records), MAX_SHOWN))
    more = int(entry.get("count") or 0) - min(len(records), MAX_SHOWN)
    if more > 0:
        from rich.text import Text

        common.console().print(Text(f"… and {more} more (rpgdice log show {entry['id']})",
                                    style=common.NOTE))


def encounter_html(state: dict[str, Any] | None) -> str:
    """The current encounter (its ``encounter --json`` state) as the terminal shows it, or
    nothing when there is none."""
    if state is None:
        return ""
    from rpgdice.render.encounter import encounter_view

    out = _recorder()
    out.print(encounter_view(state, WIDTH))
    return f'<pre>{_exported(out)}</pre>'

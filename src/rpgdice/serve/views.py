"""The table's page in pieces of HTML: a roll as the terminal shows it (recorded from its
Rich view, colors and all, and exported with every text escaped), a secret roll as no more
than that, and the encounter. Nothing of a user's text (a character's name, an alias, a
label) reaches the page unescaped: Rich's export escapes what it records, and every other
text goes through :func:`html.escape`."""

from __future__ import annotations

import io
from collections.abc import Callable
from html import escape
from typing import TYPE_CHECKING, cast

from rich.console import Console
from rich.terminal_theme import TerminalTheme

from rpgdice.core.data import Loaded
from rpgdice.render.encounter import condition_words

if TYPE_CHECKING:
    from rpgdice.roll.odds import ExactOdds

MAX_SHOWN = 12
"""Results of one entry the page shows (an entry of ``-n 1000`` says how many more there are)."""
WIDTH = 58
"""Columns a roll is laid out in: the page scales its font so that they fit a phone's width
and fill a TV's."""



def read_odds_spec(data: object) -> ExactOdds:
    """An entry's stored exact odds spec, read as ``log show`` reads it (the roll value's
    :class:`~rpgdice.roll.odds.ExactOdds`, not computed)."""
    from rpgdice.roll.odds import ExactOdds

    return ExactOdds.from_data(data)


VIEW_BACKGROUND = "#1e1f1a"
"""The folded view's background (the page's ``details.view pre``), darker than the card."""
_CHOSEN = [(0x1e, 0x1f, 0x1a), (0xff, 0x6e, 0x9c), (0xa6, 0xe2, 0x2e), (0xe6, 0xdb, 0x74),
           (0x66, 0xd9, 0xef), (0xae, 0x81, 0xff), (0x66, 0xd9, 0xef), (0x1e, 0x1f, 0x1a)]
THEME = TerminalTheme((0x1e, 0x1f, 0x1a), (0xf8, 0xf8, 0xf2), _CHOSEN, _CHOSEN)
"""The terminal's colors on the page: Monokai's hues, each readable on
:data:`VIEW_BACKGROUND` (WCAG AA, 4.5:1; ``dim`` is half way to it: 4.8:1). Its white is
dark: the views write white only on red (``DIRE``, "bold white on red"), where the dark
text reads (6.3:1) and a light one did not (Monokai's, 2.4:1)."""


def _recorder() -> Console:
    return Console(record=True, file=io.StringIO(), width=WIDTH, force_terminal=True,
                   color_system="truecolor", highlight=False, soft_wrap=False, emoji=False,
                   markup=False)


def _exported(out: Console) -> str:
    return out.export_html(theme=THEME, inline_styles=True, code_format="{code}").rstrip("\n")


def recorded(show: Callable[[], object]) -> str:
    """What ``show()`` prints with the views' console, as escaped, styled HTML."""
    from rpgdice.render import common

    out = _recorder()
    token = common.CAPTURE.set(out)
    try:
        show()
    finally:
        common.CAPTURE.reset(token)
    return _exported(out)


def entry_html(entry: Loaded) -> str:
    """One log entry as the page shows it, a card: who (character and seat) and when, what
    was rolled, each result's dice and its verdict (large, in the ruleset's words), then
    the terminal's view of it (``log show``'s, colors and all) folded beneath. A secret one
    is who, when and "a secret roll", nothing else; a change of the encounter
    (rpgdice.core.changes) a small line saying it (the encounter panel shows the state). A
    roll of a user's ruleset file is shown by the rules it carried
    (:func:`rpgdice.core.registry.as_rolled`)."""
    from rpgdice.core import registry

    with registry.as_rolled(entry):
        return _entry_html(entry)


def _entry_html(entry: Loaded) -> str:
    from rpgdice.core import changes

    ident = int(entry["id"])
    head = _head(entry)
    if entry.get("secret"):
        return (f'<article class="roll secret" id="roll-{ident}" data-id="{ident}">'
                f'<header>{head}</header><p>{_secret_words(entry)}</p></article>')
    if changes.is_change(entry):  # a change of the encounter: a small line, no card
        from rpgdice.core.errors import visible

        said = changes.said(entry) or " ".join(str(a) for a in entry.get("argv") or [])
        return (f'<article class="roll change" id="roll-{ident}" data-id="{ident}">'
                f'<header>{head}</header><p class="change">{escape(visible(said))}</p>'
                '</article>')
    try:
        body = recorded(lambda: _show(entry))
    except Exception as e:  # a view that cannot show this stored data: its figures
        body = escape(f"{' '.join(entry.get('argv') or [])}: {type(e).__name__}")
    return (f'<article class="roll" id="roll-{ident}" data-id="{ident}"><header>{head}</header>'
            f'{_card(entry)}<details class="view"><summary>as the terminal shows it</summary>'
            f'<pre>{body}</pre></details></article>')


def _head(entry: Loaded) -> str:
    ident = int(entry["id"])
    when = escape(str(entry.get("time") or ""))
    out = f'<span class="id">#{ident}</span> '
    who, seat = entry.get("character"), entry.get("seat")
    if who:
        out += f'<span class="who">{escape(str(who))}</span> '
    if seat:
        out += f'<span class="seat">{escape(str(seat))}</span> '
    return out + f'<time class="when" datetime="{when}">{when}</time>'


NOWRAP = 24
"""A word of a card's command (``--defense``, ``armas-de-fuego``) up to this long is never
broken at its hyphens; a longer one may break, so that it fits a phone."""


def _card(entry: Loaded) -> str:
    """What was rolled and each result's figures and verdict, as text (escaped)."""
    from rpgdice.core.errors import visible
    from rpgdice.render import log as view
    from rpgdice.render.common import TONE
    from rpgdice.render.short import told, what

    lines: list[str] = []
    for i, r in enumerate(entry.get("results") or []):
        if len(lines) >= MAX_SHOWN:
            break
        if not isinstance(r, dict):
            continue
        try:
            figures = view.figures(r)
            own = view.verdict(r, view.kind_of(entry, i))
        except Exception:  # a stored result forged into a shape the views cannot read
            figures, own = "", None
        if own is not None:
            word, tone = own[0], r.get("tone") if isinstance(r.get("tone"), str) else None
            figures = told(figures, word)[0]  # an ordinary roll's total: its headline
            if tone is None:  # an older entry's: the tone worked out with its verdict
                tone = next((t for t, style in TONE.items() if style == own[1]), "neutral")
        elif r.get("outcome") is not None:
            word = view.outcome_text(str(r.get("ruleset")), str(r["outcome"])).plain
            tone = _tone_of(r)
        else:
            word, tone = "", "neutral"
        # a class name: one of the tones (a log's tone may be forged)
        tone = tone if tone in TONES else "neutral"
        dice = (_terms_html(r) or _groups_html(r, figures)
                or f'<span class="dice">{escape(visible(figures.strip()))}</span>')
        lines.append(f'<li>{dice} '
                     f'<strong class="verdict {tone}">{escape(visible(word.strip()))}</strong></li>')
    command = " ".join(  # a browser breaks a line after a hyphen: --vs / --defense kept whole
        f'<span class="w">{escape(word)}</span>' if len(word) <= NOWRAP else escape(word)
        for word in visible(what([str(a) for a in entry.get("argv") or []], quoted=False)).split(" "))
    return f'<p class="what">{command}</p><ul class="results">{"".join(lines)}</ul>'


MAX_TERMS = 8
"""Terms of one result a card shows by term (the folded terminal view has them all)."""
MAX_DICE = 30
"""Dice of one term a card shows one by one; beyond them it says how many more."""
FUDGE = {1: "+", 0: "0", -1: "\u2212"}
"""A Fudge die's faces by their names (``4dF``: plus, blank, minus)."""


def _terms_html(r: Loaded) -> str:
    """An ordinary roll's dice by term, as the terminal groups them (its stored ``terms``):
    each term its own group, an exploding die's rolls joined to the die they came from
    (``6+3``), a dropped die marked (``(9)``, struck), a counted one ticked, a Fudge die by
    its face's name, a constant as its signed number (``1d20+5 adv``: two d20s, one kept,
    then +5). Empty when the result has no terms (a ruleset's pool: its figures instead)."""
    terms = r.get("terms")
    if not isinstance(terms, list) or not terms or not any(
            isinstance(t, dict) and t.get("dice") for t in terms):
        return ""
    from rpgdice.core.errors import visible

    groups = []
    for t in terms[:MAX_TERMS]:
        if not isinstance(t, dict):
            continue
        expr = escape(visible(str(t.get("expression") or "")))
        dice = [d for d in t.get("dice") or [] if isinstance(d, dict)]
        if not dice:
            groups.append(f'<span class="term const"><span class="expr">{expr}</span></span>')
            continue
        made = _term_dice(str(t.get("expression") or ""), dice)
        chips = "".join(f'<span class="die{" " + look if look else ""}">{escape(face)}</span>'
                        for face, look in made[:MAX_DICE])
        more = len(made) - MAX_DICE
        if more > 0:
            chips += f'<span class="more">… {more} more</span>'
        value = t.get("value")
        sum_ = (f'<span class="sum">= {escape(str(value))}</span>'
                if isinstance(value, int) and not isinstance(value, bool) else "")
        label = t.get("label")
        said = f'<span class="label">{escape(visible(str(label)))}</span>' if label else ""
        groups.append(f'<span class="term"><span class="expr">{expr}</span>{chips}{sum_}{said}</span>')
    if len(terms) > MAX_TERMS:
        groups.append(f'<span class="more">… {len(terms) - MAX_TERMS} more terms</span>')
    return f'<span class="dice terms">{"".join(groups)}</span>'


def _aces_joined(run: list[Loaded]) -> list[list[Loaded]]:
    """A group's faces by die: a face an ace added (``ace``) joined to the die before it."""
    dice: list[list[Loaded]] = []
    for d in run:
        if d.get("ace") is True and dice:
            dice[-1].append(d)
        else:
            dice.append([d])
    return dice


def _file_die(faces: list[Loaded]) -> str:
    """One die of a file's roll: its faces joined by + (an acing die), struck when dropped."""
    shown = escape("+".join(_face(d, False) for d in faces))
    if faces[0].get("kept") is False:
        return f'<span class="die drop">({shown})</span>'
    return f'<span class="die">{shown}</span>'


def _groups_html(r: Loaded, figures: str) -> str:
    """A ruleset file's custom roll's dice (``{face, group}``, ``kept`` where its group
    keeps some) by group, as its terminal view shows them: each run of one group its own
    group, named (``hunger``, ``wild``), a dropped die struck (``(6)``); then what the
    figures make of them (``→ 7``). Empty for any other result."""
    dice = r.get("dice")
    if "terms" in r or not isinstance(dice, list) or not dice or not all(
            isinstance(d, dict) and "group" in d and "face" in d for d in dice):
        return ""
    from rpgdice.core.errors import visible

    runs: list[tuple[object, list[Loaded]]] = []
    for d in dice[:MAX_DICE]:
        if runs and runs[-1][0] == d.get("group"):
            runs[-1][1].append(d)
        else:
            runs.append((d.get("group"), [d]))
    groups = []
    for label, run in runs:
        named = f'<span class="expr">{escape(visible(str(label)))}</span>' if label else ""
        chips = "".join(_file_die(die) for die in _aces_joined(run))
        groups.append(f'<span class="term">{named}{chips}</span>')
    if len(dice) > MAX_DICE:
        groups.append(f'<span class="more">… {len(dice) - MAX_DICE} more</span>')
    made = figures.split("\u2192", 1)[1].strip() if "\u2192" in figures else ""
    if made:
        groups.append(f'<span class="term"><span class="sum">\u2192 {escape(visible(made))}'
                      '</span></span>')
    return f'<span class="dice terms">{"".join(groups)}</span>'


def _face(d: Loaded, fudge: bool) -> str:
    face = d.get("face")
    if fudge and face in FUDGE:
        return FUDGE[int(face)]
    return str(face).replace("-", "\u2212")


def _term_dice(expression: str, dice: list[Loaded]) -> list[tuple[str, str]]:
    """A term's dice as chips (text, class): joined where the terminal joins them."""
    import re

    fudge = bool(re.search(r"d[fF]", expression))
    if not any("marks" in d for d in dice):  # the plain notation's: kept or not, explosions unmarked
        m = re.search(r"d(\d+)!(?![!p])", expression)
        if m:
            sides = int(m.group(1))  # a die rolls again while it shows its sides
            chains: list[list[object]] = []
            for d in dice:
                if chains and chains[-1][-1] == sides:
                    chains[-1].append(d.get("face"))
                else:
                    chains.append([d.get("face")])
            return [("+".join(map(str, c)), "boom" if len(c) > 1 else "") for c in chains]
        counting = bool(re.search(r"[<>=]", expression))
        return [((_face(d, fudge) + " \u2713") if counting and d.get("kept") else
                 _face(d, fudge) if d.get("kept", True) or counting else f"({_face(d, fudge)})",
                 "" if d.get("kept", True) or counting else "drop") for d in dice]
    chips: list[tuple[str, str]] = []
    before: Loaded | None = None
    for d in dice:
        face, look = _marked(d, fudge)
        marks = d.get("marks") or []
        joined = before is not None and ("rerolled" in (before.get("marks") or []) or "explosion" in marks
                                         or ("exploded" in (before.get("marks") or []) and "rerolled" in marks))
        if joined and chips:
            last, _ = chips[-1]
            chips[-1] = (last + (face if "rerolled" in (before or {}).get("marks", []) else "+" + face),
                         look or "boom")
        else:
            chips.append((face, look))
        before = d
    return chips


def _marked(d: Loaded, fudge: bool) -> tuple[str, str]:
    """One die of the wider notation as text that keeps each mark (not color alone)."""
    marks = d.get("marks") or []
    face = _face(d, fudge)
    if "rerolled" in marks:
        return f"{face}\u2192", "drop"
    rolls = d.get("rolls") or []
    if rolls:
        face = "+".join(map(str, rolls)) + f"={face}"
    if "exploded" in marks:
        face += "!"
    if "penetrated" in marks:
        face += f"\u2212{int(d.get('face') or 0) - int(d.get('value') or 0) if rolls else 1}"
    if "dropped" in marks:
        return f"({face})", "drop"
    if "success" in marks:
        return f"{face} \u2713", "hit"
    if "failure" in marks:
        return f"{face} \u2717", "miss"
    if not d.get("kept", True):
        return face, ""
    return face, "boom" if rolls or "explosion" in marks else ""


TONES = ("good", "bad", "dire", "neutral")
"""A card's verdict's class: its tone (the page colors each)."""


def _tone_of(r: Loaded) -> str:
    """A stored outcome's tone, as its ruleset's record gives it ("neutral": none)."""
    from rpgdice.core import registry

    ruleset = r.get("ruleset")
    try:
        return str(registry.get(ruleset).tone(str(r.get("outcome")))) if registry.known(ruleset) else "neutral"
    except Exception:  # a ruleset file broken since
        return "neutral"


def _show(entry: Loaded) -> None:
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
        after = lambda r: common.odds_lines(cast(common.Odds, odds), r)  # noqa: E731
    common.show(records[:MAX_SHOWN], after=after, total=min(len(records), MAX_SHOWN))
    more = int(entry.get("count") or 0) - min(len(records), MAX_SHOWN)
    if more > 0:
        from rich.text import Text

        common.console().print(Text(f"… and {more} more (rpgdice log show {entry['id']})",
                                    style=common.NOTE))


def encounter_html(state: Loaded | None) -> str:
    """The current encounter (its ``encounter --json`` state) as a compact list: the round,
    then each combatant in order (whose turn marked), its wound (or its damage track's
    word), its damage or its Pools, its Willpower, whether it is out, its initiative and
    conditions; nothing when there is none."""
    if state is None:
        return ""
    items = []
    for n, side in enumerate(state.get("order") or []):
        now = n == state.get("turn")
        damage, health = side.get("damage"), side.get("health")
        hurt = f"{damage}/{health}" if isinstance(damage, int) and isinstance(health, int) else "—"
        pools = side.get("pools")
        if isinstance(pools, dict) and pools:  # a Pool's first letter, its value of its maximum
            hurt = " · ".join(f"{str(p)[:1].upper()} {v.get('value')}/{v.get('max') if v.get('max') is not None else '—'}"
                              for p, v in pools.items() if isinstance(v, dict))
        wound = side.get("wound") or side.get("state") or "none"
        wp = side.get("willpower")
        power = (f' <span class="wp">WP {wp if isinstance(wp, int) else "—"}</span>'
                 if isinstance(wp, int) or side.get("wound") is not None else "")
        out = ' <span class="out">out</span>' if side.get("out") else ""
        kind = "" if side.get("character") else ' <span class="extra">(extra)</span>'
        init = side.get("initiative")
        first = f'<span class="init">{escape(str(init))}</span> ' if init is not None else ""
        out += "".join(f' <span class="cond">{escape(condition_words(c))}</span>'
                       for c in side.get("conditions") or [] if isinstance(c, dict))
        items.append(
            f'<li class="side{" now" if now else ""}">{first}'
            f'<span class="name">{"▶ " if now else ""}{escape(str(side.get("name")))}{kind}</span>'
            f' <span class="wound {escape(str(wound), quote=True)}">'
            f'{"unhurt" if wound == "none" else escape(str(wound))}</span>'
            f' <span class="damage">{escape(hurt)}</span>{power}{out}</li>')
    return (f'<h2>Encounter · round {int(state.get("round") or 1)} · turn: '
            f'{escape(str(state.get("current") or ""))}</h2><ol class="order">{"".join(items)}</ol>')


def _secret_words(entry: Loaded) -> str:
    """What a secret entry's card says: "a secret roll", or for a seat's roll held back
    with one, "held until the GM reveals #N"."""
    shown = entry.get("shown")
    until = shown.get("held_until") if isinstance(shown, dict) else None
    if isinstance(until, int) and not isinstance(until, bool):
        return f"held until the GM reveals #{until}"
    return "a secret roll"

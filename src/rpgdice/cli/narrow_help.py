"""Help pages in a narrow terminal (under 80 columns): Typer's Rich panels squeeze their
columns there until words break (``<notatio`` / ``n>``), so a narrow page is laid out
one item under another instead — the usage line, the text, then each argument, option
and command on its own line with its help indented below, every line wrapped between
words. The words of the page (panel titles, ``[required]``) are Typer's, so a Reglas
page stays in Spanish."""

from __future__ import annotations

import re
import shutil
import textwrap
from typing import Any

NARROW = 80
"""Below this many columns a help page is laid out one item under another."""


def narrow() -> int | None:
    """The terminal's width when it is narrow (the ``COLUMNS`` variable counts), else None;
    never under 20."""
    width = shutil.get_terminal_size((NARROW, 24)).columns
    return max(20, width) if width < NARROW else None


def _wrap(text: str, width: int, indent: str = "", later: str | None = None) -> list[str]:
    """``text`` in lines of at most ``width`` columns, broken between words; a word longer
    than a line (``wound=none|light|...``) is broken after a ``|``, ``,`` or ``/`` in it."""
    later = indent if later is None else later
    room = max(10, width - max(len(indent), len(later)))
    words = [piece for word in text.split() for piece in _pieces(word, room)]
    return textwrap.wrap(" ".join(words), width, initial_indent=indent, subsequent_indent=later,
                         break_long_words=False, break_on_hyphens=False) or [indent.rstrip()]


def _pieces(word: str, room: int) -> list[str]:
    """``word`` whole when it fits in ``room`` columns, else in pieces that each end at a
    separator (a piece is then a line of its own)."""
    if len(word) <= room:
        return [word]
    parts = re.findall(r"[^|,/]*[|,/]?", word)
    out = [""]
    for part in filter(None, parts):
        if out[-1] and len(out[-1]) + len(part) > room:
            out.append("")
        out[-1] += part
    return out


def _plain(text: str) -> str:
    """A help text's Markdown marks taken off (Typer renders them in the wide page)."""
    return re.sub(r"\*\*|`", "", text)


def _paragraphs(text: str) -> list[str]:
    """Markdown paragraphs: blank lines part them, a line break inside one is a space."""
    return [" ".join(p.split()) for p in re.split(r"\n\s*\n", _plain(text)) if p.strip()]


def _words_said(record: str, words: dict[str, str]) -> str:
    required, default = words.get("REQUIRED_LONG_STRING"), words.get("DEFAULT_STRING")
    if required and required != "[required]":
        record = record.replace("[required]", required)
    if default and not default.startswith("[default:"):
        record = re.sub(r"\[default: ([^\]]*)\]", lambda m: default.format(m.group(1)), record)
    return record


def _sections(cmd: Any, ctx: Any, words: dict[str, str]) -> list[tuple[str, list[tuple[str, str]]]]:
    """Each panel's title and its items (name with metavar, help), in the page's order."""
    panels: dict[str, list[tuple[str, str]]] = {}
    for param in cmd.get_params(ctx):
        record = param.get_help_record(ctx)
        if record is None or getattr(param, "hidden", False):
            continue
        kind = "ARGUMENTS" if param.param_type_name == "argument" else "OPTIONS"
        title = getattr(param, "rich_help_panel", None) or words[f"{kind}_PANEL_TITLE"]
        panels.setdefault(title, []).append((record[0], _words_said(record[1], words)))
    names = cmd.list_commands(ctx) if hasattr(cmd, "list_commands") else []
    for name in names:
        sub = cmd.get_command(ctx, name)
        if sub is None or getattr(sub, "hidden", False):
            continue
        title = getattr(sub, "rich_help_panel", None) or words["COMMANDS_PANEL_TITLE"]
        panels.setdefault(title, []).append((name, sub.get_short_help_str(1000)))
    return list(panels.items())


def page(cmd: Any, ctx: Any, usage: str, words: dict[str, str], width: int) -> str:
    """The whole help page of ``cmd`` at ``width`` columns; ``usage`` is its usage line as
    the wide page prints it, ``words`` Typer's words for the page (titles, ``[required]``)."""
    out = _wrap(usage.strip(), width, "", "  ") + [""]
    for paragraph in _paragraphs(cmd.help or ""):
        out += _wrap(paragraph, width) + [""]
    for title, items in _sections(cmd, ctx, words):
        out.append(title)
        for name, said in items:
            out += _wrap(name, width, "  ", "    ")
            if said:
                out += _wrap(_plain(said), width, "      ")
        out.append("")
    for paragraph in _paragraphs(getattr(cmd, "epilog", None) or ""):
        out += _wrap(paragraph, width) + [""]
    return "\n".join(out).rstrip("\n") + "\n"

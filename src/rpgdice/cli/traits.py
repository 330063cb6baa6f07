"""Trait names on the command line: how a trait-taking parameter (its record's kind
``traits``, Cypher's ``--skill``, a target's pools) is read, keeping names as typed when the
line names a character (``--as``) or a target (``--vs``) — the executor reads them from the
sheet — and otherwise answering them with what to do.

Made with Typer's documented ``parser=`` and ``callback=``: the parser (:func:`reader`)
reads each word with the parameter's own parser and keeps the word beside what it made
(or the complaint); the callback (:func:`chooser`), which Typer hands the context, chooses
between them once the line's ``--as`` and ``--vs`` are known (both are read first: ``--as``
is eager, ``--vs`` comes before the pools that name its traits)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from difflib import get_close_matches
from typing import Any, Optional

import typer

AS_ENV = "RPGDICE_AS"

HOOKS = ("traits", "skill", "target")
"""How a trait-taking parameter reads names: a trait sum (``traits``), Cypher's ``--skill``
(a level, or a skill's name), a pool of the target's (``target``)."""


class Read:
    """A word as typed, and what the parameter's own parser made of it (``value``) or its
    complaint (``error``, a ``typer.BadParameter``)."""

    __slots__ = ("typed", "value", "error")

    def __init__(self, typed: Any, value: Any, error: Optional[typer.BadParameter]) -> None:
        self.typed = typed
        self.value = value
        self.error = error


def reader(parse: Callable[[Any], Any], hook: str) -> Callable[[Any], Read]:
    """The parser Typer is given for a trait-taking parameter: ``parse``'s reading of each
    word, kept with the word (:class:`Read`). It carries ``parse``'s name and marks
    (``accepts``, ``choices``, ``completes``) and ``hook`` (what TAB adds)."""
    assert hook in HOOKS, hook

    @functools.wraps(parse)
    def read(value: Any) -> Read:
        try:
            return Read(value, parse(value), None)
        except typer.BadParameter as e:
            return Read(value, None, e)
        except ValueError:  # as Typer answers a parser's ValueError: the word itself
            return Read(value, None, typer.BadParameter(_escaped(str(value))))

    read.hook = hook  # type: ignore[attr-defined]
    return read


def chooser(parse: Callable[[Any], Any], hook: str) -> Callable[..., Any]:
    """The callback Typer is given for a trait-taking parameter: each word's
    :class:`Read` made its value — the word as typed, what its parser made, or the
    complaint raised — as the line's ``--as`` and ``--vs`` decide."""

    def choose(ctx: typer.Context, value: Any) -> Any:
        if isinstance(value, (list, tuple)):
            return tuple(_chosen(parse, hook, ctx, read) for read in value)
        return _chosen(parse, hook, ctx, value)

    return choose


def _chosen(parse: Callable[[Any], Any], hook: str, ctx: typer.Context, read: Any) -> Any:
    """One word's value: with ``--as`` trait names kept as typed, for the executor to read
    from the sheet (rpgdice.roll.character); with ``--vs`` a target's pool names too;
    without, trait names are answered with ``--as``."""
    if not isinstance(read, Read):
        return read  # no value (None)
    value = read.typed
    if hook == "target":  # a target's pool: its names read with the target (--vs)
        from rpgdice.cli import character

        vs = ctx.params.get("vs")
        if isinstance(vs, str) and vs.strip() and character.looks_like_names(value):
            return value
        return _made(read)
    if ctx.params.get("as_name") and isinstance(value, str):
        from rpgdice.cli import character

        if hook == "traits":  # the executor reads the sheet
            return value if character.looks_like_names(value) else _made(read)
        return value if read.error is not None else read.value  # a level now, else a skill
    if read.error is None:
        return read.value  # no character rolls, and no word names a trait: nothing loaded
    # no character rolls: trait names say to add --as
    from rpgdice.cli import character

    e = read.error
    levels = getattr(parse, "choices", None) or ()
    if character.looks_like_names(value) and not get_close_matches(value, levels, n=1):
        e.message = character.without_as(value, e.message, skill=hook == "skill")
    raise e  # no word, or a misspelled level (its message names the closest)


def _made(read: Read) -> Any:
    if read.error is not None:
        raise read.error
    return read.value


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _escaped(text: str) -> str:
    """``text`` with its control characters escaped (``\\x1b``), as Click shows a word its
    type could not read."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m[0]):02x}", text)

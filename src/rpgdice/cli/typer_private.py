"""The one place rpgdice touches Typer's and Click's private parts.

Typer 0.28 vendors Click as ``typer._click`` and exports neither it nor the functions of
``typer.main`` that build Click commands from a ``typer.Typer``; its help printer,
``typer.rich_utils``, keeps its settings in module attributes. rpgdice needs each name
below for the reason given beside it; no other module imports ``typer._click``,
``typer.main`` or ``typer.rich_utils`` (tests/test_structure.py checks), so a Typer
release that moves them (0.29 drops ``typer._click.types``) is fixed here alone.

Importing this module loads nothing new: ``import typer`` has already loaded every
module it imports from. ``typer.rich_utils`` (which imports rich) is never imported
here at module level: :func:`tidy_help_printer` only adjusts it if already loaded,
and :func:`spanish_help_words` imports it when a help page is being printed.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

# Click's exceptions module, as ``click``: UsageError, BadParameter, MissingParameter,
# NoSuchOption, BadOptionUsage, NoArgsIsHelpError, ClickException. rpgdice catches them to
# print one line per usage error; Typer re-exports none of them.
from typer._click import exceptions as click

# Context: to give a context to an error raised without one, and to walk the command tree
# for completion; ParameterSource: to name the environment variable a bad value came from.
# Typer exports neither.
from typer._click.core import Context, ParameterSource

# get_current_context: the running command's context (its run, rpgdice.cli.runs) from inside
# a command body that Typer does not hand one (an encounter change logged). Not exported by
# Typer.
from typer._click.globals import get_current_context

# ParamType: the base of the type that keeps --as trait names as typed before the argument's
# own parser (Typer's documented click_type takes such a type; it exports no base class).
from typer._click.types import ParamType

# get_command: the Click command of a ``typer.Typer`` — Typer's documented way ("Using
# Click") to make one, which rpgdice uses for every command: a rolling command's one-command
# app made from its record (rpgdice.cli.made), and the groups that are no ruleset's.
from typer.main import get_command

__all__ = [
    "Context",
    "ParamType",
    "ParameterSource",
    "click",
    "get_command",
    "get_current_context",
    "spanish_help_words",
    "tidy_help_printer",
]


def tidy_help_printer(env: Mapping[str, str]) -> None:
    """Make Typer's help printer (``typer.rich_utils``, if already loaded) follow ``env``:
    it reads ``TERMINAL_WIDTH`` and the color variables into module attributes when first
    imported, so a change made after (:func:`rpgdice.cli.tidy_environment`) must be set on
    them. Typer has no setting for either."""
    rich_utils: Any = sys.modules.get("typer.rich_utils")  # read its settings at import
    if rich_utils is not None:
        width = env.get("TERMINAL_WIDTH")
        rich_utils.MAX_WIDTH = int(width) if width else None
        forced = env.get("GITHUB_ACTIONS") or env.get("FORCE_COLOR") or env.get("PY_COLORS")
        rich_utils.FORCE_TERMINAL = True if forced and not env.get("NO_COLOR") else None
        if env.get("_TYPER_FORCE_DISABLE_TERMINAL"):
            rich_utils.FORCE_TERMINAL = False


@contextmanager
def spanish_help_words(words: Mapping[str, str]) -> Iterator[None]:
    """Typer's own words in a help page (``typer.rich_utils`` module attributes such as
    ``REQUIRED_LONG_STRING``) replaced by ``words`` while the page is printed, then put
    back: Typer has no way to translate them (Reglas Básicas' help is in Spanish)."""
    from typer import rich_utils

    # An option's names: Typer joins them with a bare comma (--dificultad,--difficulty);
    # its highlighters get them spaced (--dificultad, --difficulty).
    spaced = {name: _spaced(getattr(rich_utils, name))
              for name in ("highlighter", "negative_highlighter")}
    saved = {name: getattr(rich_utils, name) for name in (*words, *spaced)}
    for name, value in (*words.items(), *spaced.items()):
        setattr(rich_utils, name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(rich_utils, name, value)


HELP_WORDS = ("ARGUMENTS_PANEL_TITLE", "OPTIONS_PANEL_TITLE", "COMMANDS_PANEL_TITLE",
              "REQUIRED_LONG_STRING", "DEFAULT_STRING")


def help_words() -> dict[str, str]:
    """Typer's own words of a help page as they stand now (in Spanish inside
    :func:`spanish_help_words`), for the narrow page (rpgdice.cli.narrow_help)."""
    from typer import rich_utils

    return {name: getattr(rich_utils, name) for name in HELP_WORDS}


def narrow_help(cmd: Any, ctx: Any, formatter: Any) -> bool:
    """Write ``cmd``'s help page laid out for a narrow terminal into ``formatter`` and say
    True; False (nothing written) when the terminal is 80 columns or wider."""
    from rpgdice.cli.narrow_help import narrow, page

    width = narrow()
    if width is None:
        return False
    usage = ctx.make_formatter()
    cmd.format_usage(ctx, usage)
    formatter.write(page(cmd, ctx, " ".join(usage.getvalue().split()), help_words(), width))
    return True


def _spaced(highlight: Any) -> Any:
    """``highlight`` (a Rich highlighter, called with an option's joined names) with a
    space after each comma between names."""

    def call(text: Any) -> Any:
        if isinstance(text, str) and text.startswith("-"):
            text = text.replace(",-", ", -")
        return highlight(text)

    return call

"""The one place rpgdice touches Typer beyond its exported names.

Typer 0.28 vendors Click as ``typer._click``; its maintainers ask applications not to import
it (https://github.com/fastapi/typer/discussions/1816), and rpgdice does not: nothing in
src imports ``typer._click`` or ``click`` (tests/test_structure.py checks). What rpgdice
needs of Click comes through Typer's exported names:

- **Contexts**: ``typer.Context`` (Click's ``Context``, as Typer exports it) builds the
  contexts rpgdice makes itself (an error raised without one, a line only parsed, the
  command tree walked for completion), and a command body that needs its context declares
  ``ctx: typer.Context`` (nothing asks Click for "the current context").
- **Where a value came from**: ``ctx.get_parameter_source(name)`` is compared by its
  ``name`` (``"ENVIRONMENT"``), not by importing Click's ``ParameterSource``.
- **Parameter types**: Typer's documented ``parser=`` and ``callback=`` (a callback is
  handed the context): trait names (rpgdice.cli.traits) are read by a parser and a
  callback, not by a ``ParamType`` subclass.
- **Usage errors**: Typer exports one of Click's usage errors, ``typer.BadParameter``.
  :data:`UsageError` is its base class, Click's ``UsageError``, taken from
  ``typer.BadParameter``'s own classes (never imported from ``typer._click``): every usage
  error Click's parser raises is one, and rpgdice's own (an unknown command, a value typed
  without its option) are its subclasses, raised by rpgdice. The kinds Click raises and
  Typer does not export (a missing parameter, an unknown option, an option used wrongly,
  a bare group's help) are told apart by :func:`is_a`, by the name of the Click class the
  error is an instance of — Click's documented exception names, as a parameter source is
  told by its name. Rulesets raise rpgdice's own :class:`rpgdice.core.errors.BadValue`
  from their parsers; the command line (rpgdice.cli.made) makes it a ``typer.BadParameter``.

Two uses of ``typer``'s modules remain, each here alone, so a Typer release that moves
them is fixed here alone:

- ``typer.main.get_command``: the Click command of a ``typer.Typer`` — Typer's documented
  way to make one ("Using Click"), which rpgdice uses for every command: a rolling
  command's one-command app made from its record (rpgdice.cli.made), and the groups that
  are no ruleset's. No other function of ``typer.main`` is used.
- ``typer.rich_utils``: Typer's help printer keeps its settings and its words in module
  attributes, read at import; Typer has no setting for the terminal width read later, the
  colors, or a help page's words in Spanish (:func:`tidy_help_printer`,
  :func:`spanish_help_words`, :func:`help_words`).

Importing this module loads nothing new: ``import typer`` has already loaded
``typer.main``. ``typer.rich_utils`` (which imports rich) is never imported here at module
level: :func:`tidy_help_printer` only adjusts it if already loaded, and
:func:`spanish_help_words` imports it when a help page is being printed.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import typer

# get_command: the Click command of a ``typer.Typer`` (Typer's "Using Click").
from typer.main import get_command

if TYPE_CHECKING:
    class UsageError(typer.TyperException):
        """What a type checker knows of Click's usage error (below)."""

        ctx: Any

        def __init__(self, message: str, ctx: Any = None) -> None: ...

        def __getattr__(self, name: str) -> Any: ...  # each kind's own: param, option_name

else:
    UsageError = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")
"""Click's usage error: the base of ``typer.BadParameter`` (and of every error Click's
parser raises for words it cannot take), read from that exported class. rpgdice's own
usage errors (rpgdice.cli.usage ``NoSuchCommand``, rpgdice.cli.common ``StrayValue``)
subclass it; ``type(e) is UsageError`` is Click's plain one (extra arguments)."""

CLICK_ERRORS = ("NoArgsIsHelpError", "MissingParameter", "NoSuchOption", "BadOptionUsage")
"""The kinds of Click's usage errors rpgdice tells apart that Typer does not export (Click's
documented names); a ``typer.BadParameter`` is told by ``isinstance``."""


def is_a(error: BaseException, kind: str) -> bool:
    """Whether ``error`` is one of Click's usage errors of ``kind`` (one of
    :data:`CLICK_ERRORS`), or a subclass of it: read from the names of its classes, since
    Typer exports none but ``BadParameter``."""
    assert kind in CLICK_ERRORS, kind
    return isinstance(error, UsageError) and any(
        c.__name__ == kind for c in type(error).__mro__)


__all__ = [
    "UsageError",
    "get_command",
    "help_words",
    "is_a",
    "narrow_help",
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

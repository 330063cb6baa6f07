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
  :func:`spanish_help_words`, :func:`help_words`). It is loaded by :func:`help_printer`,
  which hands it :class:`PlainMarkdown` for Rich's ``Markdown``: a help text with no
  Markdown in it is laid out as Rich's Markdown lays it out, without importing
  markdown-it and Pygments (a third of a help page's time); any other text is Rich's.

Importing this module loads nothing new: ``import typer`` has already loaded
``typer.main``. ``typer.rich_utils`` (which imports rich) is never imported here at module
level: :func:`tidy_help_printer` only adjusts it if already loaded, and
:func:`spanish_help_words` imports it when a help page is being printed.
"""

from __future__ import annotations

import re
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
    "help_printer",
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
    rich_utils = help_printer()
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
    rich_utils = help_printer()
    return {name: getattr(rich_utils, name) for name in HELP_WORDS}


def narrow_help(cmd: Any, ctx: Any, formatter: Any) -> bool:
    """Write ``cmd``'s help page laid out for a narrow terminal into ``formatter`` and say
    True; False (nothing written) when the terminal is 80 columns or wider."""
    from rpgdice.cli.narrow_help import narrow, page

    help_printer()  # before Typer's help printer imports it with Rich's Markdown
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


MARKDOWN = "|".join((
    r"[\\`|\t\r\x00]", "~~", r"<[A-Za-z/!?]", r"&[A-Za-z#]",  # code, breaks, html, entities
    r"(?<! )\*|\*(?! )",  # emphasis: a star between spaces is plain
    r"(?<= )_(?! )|(?<=[A-Za-z0-9])_(?![A-Za-z0-9])|(?<![ A-Za-z0-9])_",  # and RPGDICE_AS
    r"\]\(|\]\[|!\[|^\[",  # a link, an image, a reference's definition
    r"^[-+*](?= |$)|^[-=]{2,}|^[=>#:]|^\d+[.)]",  # a block: a list, a quote, a heading
))
"""What may make a help text more than plain paragraphs in Markdown: a character that
can mark inline Markdown (``*`` only between spaces is plain, ``_`` between spaces or
inside a word; brackets only as a link's or an image's), or a line that can start a
block (a list, a quote, a heading or its underline). A line that starts or ends with a
space (a code block, a hard break) is one too (:class:`PlainMarkdown`). Compiled when
first searched (a help page), not when a roll imports this module."""


class PlainMarkdown:
    """Rich's ``Markdown`` as Typer's help printer calls it: a text without Markdown
    (:data:`MARKDOWN`) is laid out as Rich lays out its paragraphs — each a left-justified
    ``Text`` in the style ``style`` + ``markdown.paragraph``, its lines joined by spaces,
    a blank line between paragraphs, measured as a Markdown is (no ``__rich_measure__``) —
    and any other text is Rich's own ``Markdown`` (imported then)."""

    paragraphs: list[list[str]]
    style: Any

    def __new__(cls, markup: str, *args: Any, **kwargs: Any) -> Any:
        lines = markup.split("\n")
        if (not markup.strip() or re.search(MARKDOWN, markup, re.M) or args or set(kwargs) - {"style"}
                or any(line != line.strip() for line in lines)):
            from rich.markdown import Markdown

            return Markdown(markup, *args, **kwargs)
        self = super().__new__(cls)
        self.paragraphs = [p.split("\n") for p in re.split(r"\n\n+", markup.strip("\n"))]
        self.style = kwargs.get("style", "none")
        return self

    def __rich_console__(self, console: Any, options: Any) -> Iterator[Any]:
        from rich.segment import Segment
        from rich.text import Text

        style = console.get_style(self.style, default="none")
        style += console.get_style("markdown.paragraph", default="none")
        options = options.update(height=None)
        for i, lines in enumerate(self.paragraphs):
            text = Text(justify="left")
            for j, line in enumerate(lines):
                if j:
                    text.append(" ", style)
                text.append(line, style)
            if i:
                yield Segment.line()
            yield from console.render(text, options)


class LaterTraceback:
    """Rich's ``Traceback`` (which imports Pygments), imported when Typer's help printer
    first makes one: never in rpgdice, which shows no traceback."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        from rich.traceback import Traceback

        return Traceback(*args, **kwargs)

    @classmethod
    def from_exception(cls, *args: Any, **kwargs: Any) -> Any:
        from rich.traceback import Traceback

        return Traceback.from_exception(*args, **kwargs)


STAND_INS = {"rich.markdown": ("Markdown", PlainMarkdown),
             "rich.traceback": ("Traceback", LaterTraceback)}
"""What Typer's help printer imports from Rich and is handed instead (:func:`help_printer`)."""


def help_printer() -> Any:
    """``typer.rich_utils``, Typer's help printer, loaded with the classes of
    :data:`STAND_INS` for those it imports from Rich: while Typer's module is imported, a
    module holding the stand-in takes the place of each of those Rich modules not yet
    loaded, which are Rich's own again after."""
    loaded = sys.modules.get("typer.rich_utils")
    if loaded is not None:
        return loaded
    import types

    stand_ins = {}
    for module, (name, stand_in) in STAND_INS.items():
        if module not in sys.modules:
            stand_ins[module] = sys.modules[module] = types.ModuleType(module)
            setattr(stand_ins[module], name, stand_in)
    try:
        from typer import rich_utils
    finally:
        for module, made in stand_ins.items():
            if sys.modules.get(module) is made:
                del sys.modules[module]
    return rich_utils

"""The one domain error the engine raises for input the rules cannot take."""

from __future__ import annotations


class RulesError(ValueError):
    """Input the rules cannot evaluate.

    ``param`` names the input at fault the way a user typed it (``--dice``,
    ``POOL``); the command line turns the error into a usage error (exit 2).
    """

    def __init__(self, param: str | None, message: str, *, echo: str | None = None) -> None:
        super().__init__(message)
        self.param = param
        self.message = message
        self.echo = echo
        """An input echoed in ``message`` exactly as typed (bounded, printable), whose
        spaces count: an error position points into it, so the error line keeps it whole
        rather than squeezing its runs of spaces (cli/output.py ``one_line``)."""

    def __str__(self) -> str:
        return f"{self.param}: {self.message}" if self.param else self.message


class BadValue(RulesError):
    """A word a parser cannot read (a ruleset's, or a parameter's of a record), with the
    reason, which names what it accepts. The command line makes it its usage error, which
    names the parameter as it was typed (rpgdice.cli.made); read anywhere else, it is a
    :class:`RulesError` naming none."""

    def __init__(self, message: str) -> None:
        super().__init__(None, message)


def at_least(param: str, value: int, least: int, message: str) -> None:
    """Refuse ``value`` below ``least``: a :class:`RulesError` for ``param``, ``message``
    saying why in the rules' own language."""
    if value < least:
        raise RulesError(param, message)


SHOWN_LIMIT = 40
"""An echoed input longer than this is cut short in an error message."""


def cut(value: object, limit: int = SHOWN_LIMIT) -> str:
    """``value`` for a one-line error message: control characters escaped (``\\x00``,
    ``\\n``), and cut to ``limit`` characters with an ellipsis."""
    text = str(value)
    over = len(text) > limit
    if over:
        text = text[:limit]
    text = visible(text)
    return f"{text}…" if over else text


def visible(value: object) -> str:
    """``value`` with its control characters made visible (``\\x1b``, ``\\n``): text
    from a user's file or the log, shown on a terminal, never drives it."""
    text = str(value)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def shown(value: object, limit: int = SHOWN_LIMIT) -> str:
    """``value`` quoted and :func:`cut` for a one-line error message."""
    return f"'{cut(value, limit)}'"

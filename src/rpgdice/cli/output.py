"""The one place that writes to the user: results to stdout, errors to stderr.

Rich is imported only on the terminal path; ``--json`` and errors never load it.
"""

from __future__ import annotations

import sys
from typing import Any, Sequence

PROG = "rpgdice"


def emit(results: Sequence[Any], *, as_json: bool) -> None:
    if as_json:
        from rpgdice.render import jsonl

        jsonl.write(results, sys.stdout)
    else:
        from rpgdice.render import terminal

        # A terminal that cannot show a character (an ASCII or Latin-1 locale) gets '?'
        # for it rather than no roll at all.
        if getattr(sys.stdout, "errors", None) == "strict" and hasattr(sys.stdout, "reconfigure"):
            sys.stdout.reconfigure(errors="replace")
        terminal.show(results)
    sys.stdout.flush()


LONG_WORD = 80
"""A word of an error line longer than this (a pasted blob echoed back) is cut short."""


def one_line(message: object) -> str:
    """``message`` as one printable line: whitespace runs become one space, control
    characters are escaped, and overlong words are cut with an ellipsis."""
    words = []
    for word in str(message).split():
        if len(word) > LONG_WORD:
            word = word[:LONG_WORD] + "…"
        words.append("".join(c if c.isprintable() else repr(c)[1:-1] for c in word))
    return " ".join(words)


def error(message: str) -> None:
    """One line on stderr: ``rpgdice: error: <reason>``."""
    line = one_line(message)
    sys.stderr.write(f"{PROG}: error: {line}\n")
    sys.stderr.flush()

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

        terminal.show(results)
    sys.stdout.flush()


def error(message: str) -> None:
    """One line on stderr: ``rpgdice: error: <reason>``."""
    line = " ".join(str(message).split())
    sys.stderr.write(f"{PROG}: error: {line}\n")
    sys.stderr.flush()

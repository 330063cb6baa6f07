"""The one place that writes to the user: results to stdout, errors to stderr.

Rich is imported only on the terminal path; ``--json`` and errors never load it.
"""

from __future__ import annotations

import sys
from typing import Any, Sequence

PROG = "rpgdice"


def emit(results: Sequence[Any], *, as_json: bool, odds: Any = None) -> None:
    """Print ``results``. ``odds`` (the exact odds of the command's roll, asked for
    with ``--odds``) adds the chance of each result's outcome: one line under the
    breakdown, or an ``odds`` key in JSON."""
    if as_json:
        from rpgdice.render import jsonl

        jsonl.write(results, sys.stdout, None if odds is None else lambda r: odds_key(odds, r))
    elif results and type(results[0]).COMMAND == "odds":
        from rpgdice.render import odds_view

        odds_view.show(results)
    else:
        from rpgdice.render import terminal

        after = None
        if odds is not None:
            from rpgdice.render import odds_view

            after = lambda r: [odds_view.outcome_line(odds, r)]  # noqa: E731
        terminal.show(results, after=after)
    sys.stdout.flush()


def odds_key(odds: Any, result: Any) -> dict[str, Any]:
    """``--odds --json``: the chance of this result's outcome and of every outcome."""
    return {"odds": {"outcome": odds.outcomes[result.outcome], "outcomes": odds.outcomes}}


def error(message: str) -> None:
    """One line on stderr: ``rpgdice: error: <reason>``."""
    line = " ".join(str(message).split())
    sys.stderr.write(f"{PROG}: error: {line}\n")
    sys.stderr.flush()

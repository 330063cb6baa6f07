"""One run of the command line: what it decided besides a command's own arguments
(:class:`Run`, kept in the Click context), and the :class:`Capture` a replay collects into.
Imported by the rolling machinery (``common``) and by what pays for a character
(``character``) alike, so neither imports the other for it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Optional


class Run:
    """What one run of the command line decided besides the command's own arguments,
    kept in the Click context (``ctx.obj``, which every sub-context shares): the
    arguments as typed, ``--log``/``--no-log`` (None when neither was given), the
    character the command rolls for, what it spent, and, while the log replays an entry,
    the :class:`Capture` that collects instead of printing. A nested run (``again``, a
    replay) has its own."""

    __slots__ = ("argv", "log_choice", "character", "spent", "capture", "short", "secret")

    def __init__(self, argv: Optional[list[str]] = None, capture: Optional[Capture] = None) -> None:
        self.argv = argv
        self.log_choice: Optional[bool] = None
        self.short = False
        """``--short``: one line per roll."""
        self.secret = False
        """``--secret``: logged as secret, never on the table's page or feed until revealed."""
        self.character: Optional[str] = None
        """The character the command rolls for (``--as``, or the entry a re-roll names)."""
        self.spent: dict[str, int] = {}
        """What the command paid from the character's sheet, in all."""
        self.capture = capture


def current_run(ctx: Any = None) -> Run:
    """The run the current Click context belongs to (a fresh one outside any)."""
    ctx = ctx if ctx is not None else _context()
    obj = getattr(ctx, "obj", None)
    if isinstance(obj, Run):
        return obj
    run = Run()
    if ctx is not None and obj is None:
        ctx.find_root().obj = run
        ctx.obj = run
    return run


class Capture:
    """An in-process run of a command that prints and logs nothing (``log show``,
    ``seyruun reroll``, ``log stats``): :func:`run` records the roll's odds spec and,
    with ``roll``, the results."""

    HEAD = 1000
    """Results made at once (as many as a log entry keeps); the rest come in ``rest``."""

    def __init__(self, roll: bool) -> None:
        self.roll = roll
        self.spec: Any = None
        self.results: list[Any] = []
        self.rest: Iterable[Any] = ()
        self.odds: Any = None
        self.total = 0
        self.seed: Optional[int] = None
        self.keys: dict[str, Any] = {}
        self.budgets: list[Any] = []
        """What a roll paid as it went had to spend, per result, as the log stored it
        (an extended roll's Willpower): a replay rolls with the same."""


def _context():  # -> click Context | None
    from rpgdice.cli.typer_private import get_current_context

    return get_current_context(silent=True)

"""One run of the command line: what parsing decided besides a command's own arguments
(:class:`Run`, kept in the Click context's ``obj``, which every sub-context shares) — the
words as typed and the shared options' values — until the command's roll becomes a
:class:`~rpgdice.roll.spec.RollSpec`. Parsing only: nothing here executes."""

from __future__ import annotations

from typing import Any, Optional


class Run:
    """The shared options of one command line as parsed (``--dice``, ``--seed``, ``-n``,
    ``--json``, ``--odds``, ``--log``/``--no-log``, ``--short``, ``--secret``,
    ``--compare``), the words as typed, and — for a line that is only to be parsed
    (``rpgdice play``, the table's server, ``--compare``'s alternatives) — the spec it
    made, in ``parsed``, instead of executing it."""

    __slots__ = ("argv", "dice", "seed", "times", "json", "odds", "log_choice", "short",
                 "secret", "blind", "compare", "parse_only", "parsed", "entry", "character", "args",
                 "odds_alone")

    def __init__(self, argv: Optional[list[str]] = None, parse_only: bool = False) -> None:
        self.argv = argv
        self.dice: Optional[list[int]] = None
        self.seed: Optional[int] = None
        self.times = 1
        self.json = False
        self.odds = False
        self.log_choice: Optional[bool] = None
        self.short = False
        self.secret = False
        self.blind = False
        """``--blind``: secret, and on the table's screens for the GM alone."""
        self.compare: tuple[str, ...] = ()
        self.parse_only = parse_only
        self.parsed: Any = None
        """The :class:`~rpgdice.roll.spec.RollSpec` the line made (``parse_only``)."""
        self.entry: Optional[int] = None
        """The log entry the roll was recorded as."""
        self.character: Optional[str] = None
        """Who rolled a command that is no ruleset roll (``encounter start``)."""
        self.odds_alone = False
        """The command computes its odds and prints them, and rolls nothing (``rpgdice
        RULESET odds TYPE ...``)."""


def current_run(ctx: Any = None) -> Run:
    """The run the Click context ``ctx`` belongs to (a fresh one without a context): a
    command body that needs it declares ``ctx: typer.Context``."""
    obj = getattr(ctx, "obj", None)
    if isinstance(obj, Run):
        return obj
    run = Run()
    if ctx is not None and obj is None:
        ctx.find_root().obj = run
        ctx.obj = run
    return run


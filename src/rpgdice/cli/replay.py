"""Running a logged command again, in-process: the arguments it was typed with,
re-parsed by the command line itself (so a replay builds its roll exactly as the
roll did), with its seed or its faces, printing and logging nothing.

Used only for a roll of a known kind (:func:`rpgdice.cli.stored.is_roll`): by ``log
show --replay`` (replay and check), ``log show`` of an entry longer than the log keeps
(the rest), ``log stats`` for an entry of an older rpgdice that stored no odds spec, and
``again`` (the arguments, fresh dice). ``log show`` and ``seyruun reroll`` otherwise read
the stored results (rpgdice.cli.stored, rpgdice.rulesets.seyruun.reroll).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Optional

from rpgdice.cli.common import Capture, Run

VALUED = ("--seed", "--dice")
"""Options that take a value and name the dice (dropped for fresh dice)."""
FLAGS = ("--json", "--log", "--no-log")
"""Options about output and logging, not about the roll."""


def strip(argv: Iterable[str], valued: tuple[str, ...] = VALUED,
          flags: tuple[str, ...] = ()) -> list[str]:
    """``argv`` without the options ``valued`` (and their values, ``--seed 5`` or
    ``--seed=5``) and the flags ``flags``. Everything after ``--`` is kept."""
    out: list[str] = []
    args = iter(argv)
    for a in args:
        if a == "--":
            out.append(a)
            out.extend(args)
            break
        if a in valued:
            next(args, None)
            continue
        if a.split("=", 1)[0] in valued and "=" in a:
            continue
        if a in flags:
            continue
        out.append(a)
    return out


def with_character(argv: list[str], character: Optional[str]) -> list[str]:
    """A character's roll made through ``RPGDICE_AS`` names it on replay. (``seyruun
    reroll`` takes no ``--as``: the entry it re-rolls says whose roll it was.)"""
    if argv[:2] == ["seyruun", "reroll"]:
        return argv
    if character and not any(a == "--as" or a.startswith("--as=") for a in argv):
        return [*argv, "--as", character]
    return argv


def replay_argv(entry: dict[str, Any]) -> list[str]:
    """The entry's arguments with its own dice: its faces, else its seed."""
    argv = with_character(strip(entry["argv"], flags=FLAGS), entry.get("character"))
    if entry.get("command") == "reroll" and entry.get("results"):
        # `seyruun reroll` without an ID meant the last seyruun roll then: name it.
        target = entry["results"][0].get("rerolls")
        if target is not None and not (len(argv) > 2 and argv[2].isdigit()):
            argv = [*argv[:2], str(target), *argv[2:]]
    if entry.get("faces") is not None:
        return [*argv, "--dice", ",".join(str(f) for f in entry["faces"])]
    if entry.get("seed") is not None:
        return [*argv, "--seed", str(entry["seed"])]
    return argv


_ROOT: Any = None


def budgets(entry: dict[str, Any]) -> list[Any]:
    """What each stored result of a character's roll spent (``willpower_spent``), the
    budget a roll paid as it went replays with."""
    if not entry.get("character"):
        return []
    return [r.get("willpower_spent") if isinstance(r, dict) else None
            for r in entry.get("results") or []]


def capture(argv: list[str], *, roll: bool, budget: Optional[list[Any]] = None) -> Capture:
    """Run ``rpgdice ARGV`` in-process, printing and logging nothing: what it would
    roll (with ``roll``) and the exact odds spec of its roll. Usage errors propagate
    as exceptions (Click's, or RulesError)."""
    global _ROOT
    from rpgdice.cli import app
    from rpgdice.cli.output import PROG
    from rpgdice.cli.typer_private import get_command

    if _ROOT is None:
        _ROOT = get_command(app)
    run = Run(list(argv), Capture(roll))
    assert run.capture is not None
    run.capture.budgets = list(budget or [])
    with _ROOT.make_context(PROG, list(argv), obj=run) as ctx:
        _ROOT.invoke(ctx)
    assert run.capture is not None
    return run.capture

"""Odds that compare choices (``--compare ARGS``) and the odds of a roll type alone
(``rpgdice RULESET odds TYPE ...``), as the command line parses them.

A ruleset's group hands ``odds TYPE ARGS`` to the TYPE command with its run's ``odds_alone``
set (:func:`rpgdice.cli.RulesetGroup.resolve_command`), so a roll type's odds take
exactly its arguments. ``--compare ARGS`` parses the same command again with ``ARGS``
added after its own arguments (a single-valued option given again replaces its value, a
repeatable one adds) into a roll value of its own, never executed here: the executor
computes each alternative's odds by the code that computes the base
(:func:`rpgdice.roll.execute.alternatives`).
"""

from __future__ import annotations

import shlex
from typing import Any

from rpgdice.core.errors import RulesError


def takes_compare(command: Any) -> bool:
    """An ``odds`` command, and every command with ``--odds``."""
    return any(p.name == "compare" for p in command.params)


def alternatives(ctx: Any, wanted: tuple[str, ...]) -> tuple[tuple[str, Any], ...]:
    """Each ``--compare ARGS`` as typed and the roll value it makes: the command's
    arguments as given (without ``--compare``), then ``ARGS``."""
    from rpgdice.cli.runs import current_run

    base = _without_compare(list(current_run(ctx).args))
    return tuple((alt, _one(ctx, base, alt)) for alt in wanted)


def _one(ctx: Any, base: list[str], alt: str) -> Any:
    from rpgdice.cli.runs import Run
    from rpgdice.cli.typer_private import click

    try:
        extra = shlex.split(alt)
    except ValueError as e:
        raise RulesError("--compare", f"{alt!r}: {e}") from None
    if any(a == "--compare" or a.startswith("--compare=") for a in extra):
        raise RulesError("--compare", f"{alt!r}: an alternative cannot compare again")
    command = ctx.command
    run = Run(parse_only=True)
    try:
        with command.make_context(ctx.info_name, base + extra, parent=ctx.parent, obj=run) as sub:
            command.invoke(sub)
    except click.UsageError as e:
        raise RulesError("--compare", f"{alt!r}: {e.format_message()}") from None
    except RulesError as e:
        raise RulesError("--compare", f"{alt!r}: {e}") from None
    if run.parsed is None:
        raise RulesError("--compare", f"{alt!r} computes no odds")
    return run.parsed[0]


def _without_compare(args: list[str]) -> list[str]:
    out: list[str] = []
    skip = False
    for a in args:
        if skip:
            skip = False
        elif a == "--compare":
            skip = True
        elif not a.startswith("--compare="):
            out.append(a)
    return out

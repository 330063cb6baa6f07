"""`rpgdice again [MORE ARGS...]`: the last logged command again, with fresh dice."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from rpgdice.cli.common import Command, RulesetTyper

app = RulesetTyper(add_completion=False, rich_markup_mode="markdown", command_cls=Command)


@app.command(
    "again",
    context_settings={"ignore_unknown_options": True, "allow_extra_args": False},
)
def again_cmd(
    more: Annotated[Optional[list[str]], typer.Argument(
        metavar="[MORE ARGS]...", help="Added after the repeated command's arguments "
        "(e.g. --json, -n 3, --bonus 1).", show_default=False)] = None,
) -> None:
    """Repeat the last logged command with fresh dice.

    Its --seed and --dice are dropped, the rest is kept, and MORE ARGS are added at
    the end.

    Example: rpgdice again --bonus 1
    """
    from rpgdice.cli.replay import strip, with_character
    from rpgdice.core.errors import RulesError
    from rpgdice.table.log import Log, LogUnavailable

    try:
        log = Log.open(write=False)
        last = log.last() if log is not None else []
        if log is not None:
            log.release()
    except LogUnavailable as e:
        raise RulesError("again", str(e)) from None
    if not last:
        raise RulesError("again", "the roll log is empty: nothing to repeat")
    entry = last[-1]
    from rpgdice.cli.stored import is_roll

    if not is_roll(entry["argv"]):  # a forged or foreign entry: only rolls are repeated
        raise RulesError("again", f"entry {entry['id']} is no roll of a kind this rpgdice "
                         f"knows ('{' '.join(entry['argv'][:2])}'); nothing was run")
    argv = [*with_character(strip(entry["argv"]), entry["character"]), *(more or [])]
    from rpgdice.cli import main

    code = main(argv)
    if code:
        raise typer.Exit(code)

"""The command ``rpgdice play``: a session (:mod:`rpgdice.cli.session`) fed from stdin
(batch mode) or, at a terminal, from the prompt (:mod:`rpgdice.cli.prompt`, loaded for it
alone). Kept apart from both so that neither imports the other's way back."""

from __future__ import annotations

import os
import sys
from typing import Annotated, Optional

import typer

from rpgdice import rulesets
from rpgdice.cli import params
from rpgdice.cli.common import Command, RulesetTyper
from rpgdice.cli.session import AS_ENV, Session, _lines

app = RulesetTyper(add_completion=False, rich_markup_mode="markdown", command_cls=Command)


@app.command("play")
def play_cmd(
    ruleset: Annotated[Optional[str], typer.Option(
        "--ruleset", parser=params.choice(dict.fromkeys(rulesets.built_in()), current=rulesets.names),
        metavar="RULESET",
        show_default=False, help="Start with this ruleset in use (as the line 'use RULESET').",
    )] = None,
    as_name: Annotated[Optional[str], typer.Option(
        "--as", parser=params.character, metavar="NAME", show_default=False,
        help="Start rolling for this saved character (as the line 'as NAME').",
    )] = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="JSON Lines: every command that has a JSON form gives it; an error "
        "is an object {error, line} in its place.",
    )] = False,
) -> None:
    """A session: rpgdice commands without the word rpgdice, one a line.

    At a terminal, a prompt with TAB completion and history (Ctrl-R searches it; Ctrl-C
    clears the line; Ctrl-D, exit or quit ends it). use RULESET makes 'roll 3 3' mean
    'RULESET roll 3 3' (use - for none); as NAME rolls for a saved character. With stdin
    not a terminal, one command a line from stdin, each printed as the one-shot command
    prints it; exit status 2 at the end if any line failed.

    Example: rpgdice play --ruleset seyruun --as ysolde
    """
    before = os.environ.get(AS_ENV)
    try:
        session = Session(ruleset=ruleset, as_json=as_json)
        if as_name is not None:
            session.take_character(as_name, param="--as")
        if _interactive():
            from rpgdice.cli.prompt import interact

            code = interact(session)
        else:
            code = session.batch(_lines(sys.stdin))
    finally:  # the session's character was its own (an in-process caller keeps its own)
        if before is None:
            os.environ.pop(AS_ENV, None)
        else:
            os.environ[AS_ENV] = before
    if code:
        raise typer.Exit(code)


def _interactive() -> bool:
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False

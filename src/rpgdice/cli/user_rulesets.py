"""`rpgdice rulesets`: every ruleset, built in and the user's files; ``rulesets check FILE``
validates a ruleset file (every problem on its own line, with its key)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from rpgdice.cli import CommandGroup
from rpgdice.cli.common import Command, RulesetTyper
from rpgdice.core.data import Loaded
from rpgdice.core.errors import RulesError

app = RulesetTyper(add_completion=False, rich_markup_mode="markdown", command_cls=Command,
                   invoke_without_command=True, cls=CommandGroup,
                   help="Every ruleset, built in and your own (rulesets/NAME.toml in the "
                   "config folder); check a ruleset file.")


@app.callback(invoke_without_command=True)
def list_cmd(ctx: typer.Context, as_json: Annotated[bool, typer.Option(
        "--json", help="JSON: a list of {name, title, kind, file}.")] = False) -> None:
    """List every ruleset: the built-in ones, then your own files (a broken file is
    skipped with a warning).

    Example: rpgdice rulesets --json
    """
    if ctx.invoked_subcommand is not None:
        return
    from rpgdice import rulesets
    from rpgdice.core.errors import visible
    from rpgdice.render.output import warning
    from rpgdice.rulesets import _file

    rows: list[Loaded] = [
        {"name": r.name, "title": r.title, "kind": None, "file": None}
        for r in map(rulesets.get, rulesets.names()) if not getattr(r, "file", "")]
    taken = {row["name"] for row in rows}
    for stem in _file.stems():
        path = _file.path_of(stem)
        try:
            record = _file.load(stem) if _file.exists(stem) else None
            if record is None:
                raise RulesError(str(path), f"name: {stem!r} is a built-in ruleset or command, "
                                 "or not lower-case letters, digits and '-'")
        except RulesError as e:
            warning(f"{e.param}: {e.message} (skipped)")
            continue
        if record.name in taken:
            continue
        rows.append({"name": record.name, "title": record.title, "kind": record.kind,
                     "file": str(path)})
    if as_json:
        sys.stdout.write(json.dumps(rows, ensure_ascii=False) + "\n")
        return
    from rich.cells import cell_len

    def pad(text: str, width: int) -> str:  # by the columns it takes (Básicas, 漢字)
        return text + " " * (width - cell_len(text))

    cells = [[visible(str(r[k])) for k in ("name", "title", "kind")] for r in rows]
    widths = [max(cell_len(c[i]) for c in cells) for i in range(3)]
    for r, (name, title, kind) in zip(rows, cells):
        line = pad(name, widths[0]) + "  " + (
            f"{pad(title, widths[1])}  {pad(kind + ',', widths[2] + 1)} {visible(r['file'])}"
            if r["file"] else title)
        sys.stdout.write(line + "\n")


@app.command("check")
def check_cmd(file: Annotated[Path, typer.Argument(
        metavar="FILE", show_default=False,
        help="The ruleset file (TOML), or NAME: your rulesets/NAME.toml.")]) -> None:
    """Check a ruleset file: `ok`, or every problem on its own line (FILE: KEY: what is
    wrong), exit 2.

    Example: rpgdice rulesets check owod
    """
    from rpgdice.rulesets import _file

    given = str(file)
    if "/" not in given and os.sep not in given and not given.endswith(_file.SUFFIX):
        file = _file.path_of(given)  # a NAME: the user's own file
        if not file.exists():
            raise RulesError(given, f"no ruleset file {file} (a NAME is your "
                             f"rulesets/NAME.toml; give a path for another file)")

    stem = file.name[:-len(_file.SUFFIX)] if file.name.endswith(_file.SUFFIX) else None
    rules, found = _file.problems(file, stem)
    if rules is not None:
        hidden = _file.shadowed_alias(rules["name"])
        if hidden is not None:
            from rpgdice.render.output import warning

            warning(hidden)
        sys.stdout.write("ok\n")
        return
    from rpgdice.core.errors import visible
    from rpgdice.rulesets._file.schema import line_finder
    from rpgdice.table import files

    try:
        text = files.read_text(file) or ""
    except (OSError, RulesError):
        text = ""
    line_of = line_finder(text)
    lines = [line_of(key) for key, _ in found]
    sys.stderr.write("".join(visible(f"{file}: {key}: {what}" + (f" (line {n})" if n else ""))
                             + "\n" for (key, what), n in zip(found, lines)))
    raise typer.Exit(2)

"""`rpgdice again [MORE ARGS...]`: the last logged command again, with fresh dice."""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from rpgdice.cli.common import Command, RulesetTyper
from rpgdice.core.data import Loaded

if TYPE_CHECKING:
    from rpgdice.roll.spec import RollSpec
    from rpgdice.table.log import Log
    from rpgdice.table.sheets import Sheet


def _not_repeated() -> tuple[str, list[str]]:
    """The log's entries ``again`` may repeat, as an SQL condition and its arguments: any
    but those of a command its ruleset says is never repeated (a record not ``repeated``:
    Seyruun's re-roll after the fact, which would spend Willpower on an entry already
    re-rolled), and never a change of the encounter (rpgdice.core.changes: no roll).
    ``again`` itself is never logged: the command it runs is."""
    from rpgdice import rulesets
    from rpgdice.core.changes import NOT_A_CHANGE as fight

    pairs = [(r, c.name) for r in rulesets.names() for c in rulesets.get(r).records()
             if not c.repeated]
    if not pairs:
        return fight, []
    condition = " OR ".join("(IFNULL(ruleset, '') = ? AND IFNULL(command, '') = ?)" for _ in pairs)
    return f"{fight} AND NOT ({condition})", [x for pair in pairs for x in pair]


def _announce(argv: list[str]) -> None:
    """``rpgdice: again: COMMAND ARGS...`` on stderr: what is about to run, quoted as
    the shell would need it (a stderr that cannot take it loses it)."""
    import sys

    from rpgdice.cli.output import PROG, one_line

    try:
        sys.stderr.write(f"{PROG}: again: {one_line(shlex.join(argv))}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _last_repeatable(log: Log) -> list[Loaded]:
    """The last entry of ``log`` that is a roll and not a ``seyruun reroll`` (a list of 0
    or 1)."""
    from rpgdice.table.log import COLUMNS, entry_data

    condition, values = _not_repeated()
    where, args = log.where(condition)
    row = log.con.execute(f"SELECT {', '.join(COLUMNS)} FROM entries{where} "
                          "ORDER BY id DESC LIMIT 1", [*values, *args]).fetchone()
    return [] if row is None else [entry_data(row)]


def _last_roll() -> Loaded:
    """The entry ``again`` repeats; a usage error when there is none (an empty log, or
    one of changes of the encounter and re-rolls only) or the log cannot be read."""
    from rpgdice.core.errors import RulesError
    from rpgdice.table.log import Log, LogUnavailable

    try:
        log = Log.open(write=False)
        last = _last_repeatable(log) if log is not None else []
        kept = log is not None and log.con.execute(
            "SELECT 1 FROM entries LIMIT 1").fetchone() is not None
        if log is not None:
            log.release()
    except LogUnavailable as e:
        raise RulesError("again", str(e)) from None
    if not last:
        raise RulesError("again", "the roll log holds no roll to repeat (changes of the "
                         "encounter and re-rolls after the fact are never repeated)" if kept
                         else "the roll log is empty: nothing to repeat")
    return last[-1]


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
    the end. The command is named on stderr before it runs. A re-roll after the fact
    (seyruun reroll) is never repeated, nor is a change of the encounter (encounter next,
    add...): again repeats the last roll before it.

    While joined to a table (rpgdice table join): your seat's last roll at the table,
    rolled from whichever device, is rolled there again (--here: this machine's log's).

    Example: rpgdice again --bonus 1
    """
    from rpgdice.cli.joined import HERE, joined
    from rpgdice.cli.replay import entry_spec, strip, with_character
    from rpgdice.core.errors import RulesError

    table = joined()
    if table is not None and HERE not in (more or []):
        return _at_table(table, list(more or []))
    more = [w for w in more or [] if w != HERE] if table is not None else more
    entry = _last_roll()
    try:
        spec = entry_spec(entry)
    except RulesError:  # a forged or foreign entry: only rolls are repeated
        raise RulesError("again", f"entry {entry['id']} is no roll of a kind this rpgdice "
                         f"knows ('{' '.join(entry['argv'][:2])}'); nothing was run") from None
    words = with_character(strip(entry["argv"]), entry["character"])
    from rpgdice import rulesets

    try:
        record = rulesets.get(spec.ruleset)
    except KeyError:  # a user's ruleset whose file is gone
        raise RulesError("again", f"entry {entry['id']} is a roll of {spec.ruleset!r}, which is "
                         "no ruleset now (its file rulesets/"
                         f"{spec.ruleset}.toml is gone?); nothing was run") from None
    today = getattr(record, "text", "")
    if today:  # a user's ruleset file: again rolls by today's file
        spec = spec.with_args(rules=today)
    grouped = record.group  # ordinary dice: `roll` at the top
    named = [spec.ruleset, spec.command] if grouped else [spec.command]
    if words[:len(named)] != named:
        # Words that name another command than the stored roll (edited by hand): what runs
        # is the stored roll, and it is named as such.
        words = named
    shown = [*words, *(more or [])]
    _announce(shown)
    spec = spec.replace(dice=None, seed=None, argv=tuple(shown))
    if more:
        spec, sheet, extras = _with_more(spec, list(more))
    else:
        sheet, extras = None, {}
    from rpgdice.roll.execute import execute

    execute(spec, sheet=sheet, extras=extras)


def _at_table(table: dict[str, str], more: list[str]) -> None:
    """``again`` while joined: the seat's last roll at the table (the table's log says
    which), with MORE ARGS, rolled at the table and printed as a joined roll is."""
    from rpgdice.cli.joined import last_roll, remote

    words = [*last_roll(table), *more]
    _announce(words)
    remote(words, table)


def _with_more(spec: RollSpec, more: list[str]) -> tuple[RollSpec, Sheet | None, Loaded]:
    """The repeated roll with MORE ARGS: options read by the command's own parser and
    added to the stored spec (a single-valued option given replaces its value, a repeatable
    one adds); the rest of the roll is the stored spec's, never its words read again."""
    from rpgdice.cli.edit import more_options

    return more_options(spec, more)

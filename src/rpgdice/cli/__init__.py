"""The ``rpgdice`` application: its root group (:class:`RpgdiceGroup`: aliases, a roll at
a joined table, a session's lines, every error made one line and an exit status), the
environment made safe, and :func:`main`.

Its parts: the groups and the lazily built commands (rpgdice.cli.groups), a rolling
command made from its record (rpgdice.cli.made), what a usage error says
(rpgdice.cli.usage), trait names on the command line (rpgdice.cli.traits). The ruleset
groups load lazily: ``rpgdice seyruun roll ...`` imports and builds the ``seyruun``
group alone (its rules included), since every roll starts a process and building all of
them would cost every roll the time of all.
"""

from __future__ import annotations

import errno
import functools
import os
import sys
from collections.abc import Sequence
from typing import Any, Optional

import typer

from rpgdice import __version__, rulesets
from rpgdice.cli import output
from rpgdice.cli.groups import (
    COMMAND_MODULES,
    GROUP_MODULES,
    HELP_ORDER,
    TOP_COMMANDS,
    CommandGroup,
    LazyCommands,
    RecordGroup,
    RulesetGroup,
    _load_command,
    _load_group,
    _load_top,
    command_class,
    load_ruleset,
    ruleset_group,
)
from rpgdice.cli.output import PROG, error
from rpgdice.cli.traits import AS_ENV
from rpgdice.cli.typer_private import UsageError, is_a, tidy_help_printer
from rpgdice.cli.usage import (
    NoSuchCommand,
    _usage_message,
    typed_name,
)
from rpgdice.core.environ import environment, environment_key
from rpgdice.core.errors import RulesError, shown

__all__ = [  # what the rest of the command line reads here, from the parts
    "AS_ENV",
    "COMMAND_MODULES",
    "CommandGroup",
    "GROUP_MODULES",
    "HELP_ORDER",
    "LazyCommands",
    "NoSuchCommand",
    "RecordGroup",
    "RulesetGroup",
    "TOP_COMMANDS",
    "_load_command",
    "_load_group",
    "_load_top",
    "_usage_message",
    "command_class",
    "load_ruleset",
    "ruleset_group",
    "typed_name",
    "app",
    "main",
    "root",
]

DEBUG_ENV = "RPGDICE_DEBUG"
"""Set (non-empty) to let an internal error's traceback through, for developers."""
INTERNAL_ERROR = 1
"""Exit status of a bug (anything but a usage error): one line, no traceback."""
UNDELIVERED = 1
"""Exit status when the output could not be written (a closed or full stream)."""
READER_LEFT = 141
"""Exit status when the reader closed the pipe early (``rpgdice --help | head``): as a
program ended by SIGPIPE, and nothing on stderr (CLI.md)."""
INTERRUPTED = 130
"""Exit status on Ctrl-C."""


def _output_failed(e: OSError) -> bool:
    """Whether ``e`` is stdout failing: the console script's stream raises
    ``UndeliveredOutput``; any other stdout raises these on a closed pipe or full disk."""
    from rpgdice.streams import UndeliveredOutput

    return isinstance(e, (UndeliveredOutput, BrokenPipeError)) or e.errno in (
        errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EPIPE, errno.EBADF, errno.EIO)


class OutputFailed(Exception):
    """Writing stdout failed (:func:`_output_failed`); raised past Click, which would
    otherwise turn a broken pipe into a silent exit. ``reader_left``: the pipe's reader
    closed it early (exit 141, nothing said)."""

    def __init__(self, e: OSError) -> None:
        from rpgdice.streams import reader_left

        super().__init__(e.strerror or str(e))
        self.reader_left = reader_left(e)


_ABANDONED: list[Any] = []
"""Streams set aside after they failed, kept so that no garbage collection flushes
them again (and reports that flush failing too)."""


def _drop_stdout() -> None:
    """Whatever is still buffered for stdout is lost: write no more of it."""
    try:
        devnull = open(os.devnull, "w", encoding="utf-8")
    except OSError:
        return
    _ABANDONED.append(sys.stdout)
    sys.stdout = devnull


def _expand_alias(group: Any, ctx: Any, args: list[str]) -> list[str]:
    """``rpgdice NAME MORE...`` with NAME an alias (config.toml ``[alias]``, read only
    when NAME is no command): its command's words, then MORE. An alias that leads to
    another alias is an error, not a loop."""
    from rpgdice.table import aliases

    known = aliases.load()
    name = args[0]
    if name not in known:
        return args
    words = aliases.split(name, known[name])
    if group.get_command(ctx, words[0]) is None and words[0] in known:
        raise RulesError(name, f"alias '{name}' leads to alias '{words[0]}'; an alias may not "
                         "name another alias (rpgdice alias to see them)")
    expanded = words + list(args[1:])
    from rpgdice.cli.runs import current_run

    current_run(ctx).argv = expanded
    return expanded


def tagline() -> str:
    """``rpgdice --help``'s first line, naming the rulesets the registry finds: "Dice for
    Crytures, Seyruun, Reglas Básicas and the Cypher System, by the letter of each rule."."""
    said = [r.called or r.title for r in map(rulesets.get, rulesets.group_names())
            if not getattr(r, "file", "")]  # the user's own ruleset files are not named
    systems = said[0] if len(said) < 2 else f"{', '.join(said[:-1])} and {said[-1]}"
    return f"Dice for {systems}, by the letter of each rule."


MAX_PARSED = 256
"""The most roll values a session keeps by their words (:meth:`RpgdiceGroup.run_words`)."""
SHEET_WORDS = ("--as", "--vs")
"""Options whose value names a sheet, read while parsing: a line holding one is parsed anew."""


def _words_alone(words: list[str], said: bool = False) -> bool:
    """Whether the roll value ``words`` make depends on them alone: no sheet named (``--as``,
    ``--vs``, ``RPGDICE_AS``) and no user's ruleset file (read anew at each roll), so parsing
    them again would make the same value. ``said``: the words are known to name no sheet
    (only the environment and the ruleset files are looked at)."""
    if environment(AS_ENV).strip():
        return False
    try:  # `roll` is ordinary dice's, whatever ruleset file takes its name
        if (words and words[0] != "roll" and rulesets.known(words[0])
                and getattr(rulesets.get(words[0]), "file", None)):
            return False
    except RulesError:  # a broken file: its group names it when the line runs
        return False
    if said:
        return True
    given = []
    for option in SHEET_WORDS:
        if option in words:
            return False
        given.append(f"{option}=")
    return not any([w.startswith(tuple(given)) for w in words])


class RpgdiceGroup(LazyCommands, CommandGroup):
    """The root group: runs the app and turns every error into a clean exit. Its
    groups and commands (:data:`GROUP_MODULES`, :data:`COMMAND_MODULES`) load on first use."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except OSError as e:
            if _output_failed(e):
                raise OutputFailed(e) from None
            raise

    def make_context(self, *args: Any, **kwargs: Any) -> Any:  # the root's --help, --version
        try:
            return super().make_context(*args, **kwargs)
        except OSError as e:
            if _output_failed(e):
                raise OutputFailed(e) from None
            raise

    def pending(self) -> dict[str, Any]:
        loaders = {n: (lambda n=n: load_ruleset(n)) for n in rulesets.group_names()}
        loaders.update({n: (lambda m=m: _load_group(m)) for n, m in GROUP_MODULES.items()})
        loaders.update({n: (lambda n=n: _load_top(n)) for n in TOP_COMMANDS})
        loaders.update({n: (lambda m=m: _load_command(m)) for n, m in COMMAND_MODULES.items()})
        return loaders

    def builder(self, name: str) -> Any:
        """One command's builder, without listing them all (a roll reads no entry points)."""
        if name in GROUP_MODULES:
            return lambda: _load_group(GROUP_MODULES[name])
        if name in TOP_COMMANDS:
            return lambda: _load_top(name)
        if name in COMMAND_MODULES:
            return lambda: _load_command(COMMAND_MODULES[name])
        if name.replace("-", "_").isidentifier() and ruleset_group(name):
            return lambda: load_ruleset(name)
        return None

    def first(self) -> tuple[str, ...]:
        return rulesets.group_names()

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        if (args and not args[0].startswith("-") and not ctx.resilient_parsing
                and self.get_command(ctx, args[0]) is None):
            args = _expand_alias(self, ctx, args)
        resolved = super().resolve_command(ctx, args)
        ruleset = getattr(resolved[1], "ruleset", None)
        if ruleset is not None:  # its errors speak the ruleset's language
            output.SPOKEN[:] = [rulesets.get(ruleset).language, ruleset]
        return resolved

    def guarded(self, work: Any, prog_name: str = PROG, tidy: bool = True) -> int:
        """``work()``'s exit status, every error turned into one line and its status: a
        usage error 2, output that could not be delivered 1 (or 141), a bug 1 (no
        traceback), as the one-shot command and every line of a session report them.
        ``tidy``: the environment made safe first (a session's line: it was, when the
        session started, and no line changes it)."""
        code = 0
        if tidy:
            tidy_environment()
        output.SPOKEN[:] = ["en", ""]
        try:
            code = work()
        except UsageError as e:
            if is_a(e, "NoArgsIsHelpError"):
                # A bare group shows its help: Typer's Rich help printer has already written
                # it to stdout while building this exception; the narrow page (under 80
                # columns) is its message, written here. Exit 0.
                if e.message:
                    sys.stdout.write(e.message.rstrip("\n") + "\n")
                    sys.stdout.flush()
                return 0
            if e.ctx is None:
                e.ctx = typer.Context(self, info_name=prog_name)
            error(_usage_message(e))
            code = 2
        except RulesError as e:
            error(str(e), keep=e.echo)
            code = 2
        except typer.Abort:
            error("aborted")
            code = 1
        except typer.Exit as e:
            code = e.exit_code
        except (OutputFailed, OSError) as e:
            if isinstance(e, OSError) and not _output_failed(e):
                if os.environ.get(DEBUG_ENV):
                    raise
                return _unexpected(e)
            # The output could not be delivered: a pipe closed early, a full disk, a
            # closed stdout. Not a success, and not a bug either.
            failed = e if isinstance(e, OutputFailed) else OutputFailed(e)
            _drop_stdout()
            if failed.reader_left:
                code = READER_LEFT
            else:
                error(f"could not write the output: {failed}")
                code = UNDELIVERED
        except KeyboardInterrupt:  # the console script's own handler exits sooner
            error("interrupted")
            code = INTERRUPTED
        except Exception as e:  # a bug: one line, never a traceback (RPGDICE_DEBUG shows it)
            if os.environ.get(DEBUG_ENV):
                raise
            code = _unexpected(e)
        return code

    @property
    def help(self) -> str:
        """The root's help text: the rulesets named as the registry finds them (read only
        when a help page is shown)."""
        return tagline()

    @help.setter
    def help(self, value: Any) -> None:  # Typer sets the app's placeholder: the property wins
        pass

    def run_words(self, words: list[str], parsed: Optional[dict[Any, Any]] = None) -> int:
        """``rpgdice WORDS`` in-process (a session's line): a ruleset's roll, or ordinary
        dice, parsed by its own command into its roll value, then executed — the groups and
        parsers built once, no root context made per line; anything else (another command,
        an alias, help, ``odds TYPE``) through :meth:`main`. ``parsed``: the session's roll
        values by their words, for lines whose value depends on nothing but their words (no
        character's sheet read), so a line typed again is not parsed again."""
        key = tuple(words) if parsed is not None else None
        value = parsed.get(key) if parsed is not None else None
        if value is not None and not _words_alone(words, said=True):
            value = None  # a character rolls now (RPGDICE_AS), or a ruleset file took the name
        # joined to a table: its rolls are rolled there (a value kept is a roll's, no --here)
        at_table = self._at_table(words, rolls=value is not None)
        if isinstance(at_table, list):
            words = at_table
        elif at_table is not None:
            return self.guarded(at_table, tidy=False)
        command = None
        if value is None:
            command = self._roll_command(words)
            if command is None:
                return int(self.main(args=words, prog_name=PROG, standalone_mode=False))
            key = tuple(words) if parsed is not None and _words_alone(words) else None

        def work() -> int:
            made = value
            if made is None:
                made = self.parse_words(words, command)
                if parsed is not None and key is not None:
                    if len(parsed) >= MAX_PARSED:
                        parsed.pop(next(iter(parsed)))
                    parsed[key] = made
            spec, sheet, extras = made
            if rulesets.known(spec.ruleset):  # its errors speak the ruleset's language
                output.SPOKEN[:] = [rulesets.get(spec.ruleset).language, spec.ruleset]
            _executor()(spec, sheet=sheet, extras=extras, keep=key is not None)
            return 0

        return self.guarded(work, tidy=False)

    def _at_table(self, words: list[str], rolls: bool = False) -> Any:
        """A roll while joined to a table (``rpgdice table join``): the work that sends it
        there; the words without ``--here`` when it is to be rolled here; else None.
        ``rolls``: the words are known to be a roll's."""
        here = "--here" in words
        if here:
            words = [w for w in words if w != "--here"]
        if not rolls and self._roll_command(words) is None:
            return None
        if here:
            return words
        # A roll reads no more than config.toml's bytes to know it is not joined, and
        # reads them again only when one stat finds its path, size, time or inode changed
        # (a session's lines stat it, not read it).
        path = _config_path()
        seen: Any = getattr(self, "_config_seen", None)
        if seen is not None and seen[0] == (path,) and not os.access(path, os.F_OK):
            return None  # still not there (asked without an error raised and caught)
        try:
            found = os.stat(path)
        except OSError:
            self._config_seen: tuple[tuple[Any, ...], bool] = ((path,), False)
            return None
        key = (path, found.st_size, found.st_mtime_ns, found.st_ino, found.st_dev)
        if seen is None or seen[0] != key:
            try:
                with open(path, "rb") as f:
                    seen = self._config_seen = (key, b"[table]" in f.read())
            except OSError:
                return None
        if not seen[1]:
            return None
        from rpgdice.cli.joined import joined, remote

        table = joined()
        if table is None:
            return None
        return lambda: remote(words, table)

    def parse_words(self, words: list[str], command: Any = None) -> Any:
        """The roll value ``rpgdice WORDS`` makes, nothing run: ``(spec, sheet, extras)``
        (the character's sheet and what a ruleset's parser found, read while parsing). A
        usage error (Click's, or a RulesError) when the words make none."""
        from rpgdice.cli.common import Run

        command = command or self._roll_command(words)
        if command is None:
            raise RulesError("COMMAND", f"{shown(' '.join(words[:2]))} is no roll")
        cmd, group, name, args = command
        run = Run(list(words), parse_only=True)
        root_ctx = typer.Context(self, info_name=PROG, obj=run, **self.context_settings)
        with root_ctx:
            parent = root_ctx
            if group is not self:
                parent = typer.Context(group, info_name=words[0], parent=root_ctx)
                output.SPOKEN[:] = [rulesets.get(words[0]).language, words[0]]
            try:
                with cmd.make_context(name, list(args), parent=parent) as ctx:
                    cmd.invoke(ctx)
            except UsageError as e:
                if e.ctx is None:  # a parser error: it belongs to the command
                    e.ctx = typer.Context(cmd, info_name=name, parent=parent)
                raise
        if run.parsed is None:
            raise RulesError("COMMAND", f"{shown(' '.join(words[:2]))} is no roll")
        return run.parsed

    def _roll_command(self, words: list[str]) -> Any:
        """The rolling command ``words`` name directly (a ruleset's, or ``roll``), its
        group, its name and its arguments; None for any other line."""
        if not words or "--help" in words or "-h" in words or "--version" in words:
            return None
        head = words[0]
        if head == "roll":
            group, name, args = self, head, words[1:]
        elif len(words) > 1 and words[1] != "odds" and ruleset_group(head):
            group, name, args = self.get_command(None, head), words[1], words[2:]
        else:
            return None
        cmd = group.get_command(None, name) if group is not None else None
        if cmd is None or getattr(cmd, "rpgdice_kind", None) is None:
            return None
        return cmd, group, name, args

    def main(  # type: ignore[override]
        self,
        args: Optional[Sequence[str]] = None,
        prog_name: Optional[str] = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        from rpgdice.cli.common import Run

        words = [str(a) for a in (sys.argv[1:] if args is None else args)]
        name = prog_name or PROG
        if words and words[0] not in {*COMMAND_MODULES, "odds"}:
            at_table = self._at_table(words)
            if isinstance(at_table, list):  # --here: rolled here, without the word
                words = args = at_table
            elif at_table is not None:
                code = self.guarded(at_table, name)
                if standalone_mode:
                    sys.exit(code)
                return code
        extra.setdefault("obj", Run(words))

        def parsed_and_run() -> int:
            rv = super(RpgdiceGroup, self).main(args=args, prog_name=name,
                                                standalone_mode=False, **extra)
            return rv if isinstance(rv, int) else 0

        code = self.guarded(parsed_and_run, name)
        if standalone_mode:
            sys.exit(code)
        return code


def _executor() -> Any:
    """:func:`rpgdice.roll.execute.execute`, imported at the first roll and then found
    here (a session's line would pay a microsecond for the import statement)."""
    if not _EXECUTE:
        from rpgdice.roll.execute import execute

        _EXECUTE.append(execute)
    return _EXECUTE[0]


_EXECUTE: list[Any] = []


def _config_path() -> str:
    """config.toml's path, as rpgdice.table.paths finds it, without importing the table's
    modules (or platformdirs) on Linux, where a roll asks it; worked out again only when
    the variables it depends on change (a session's lines ask it at every roll)."""
    key = environment_key(CONFIG_NAMES)
    if _CONFIG_PATH and _CONFIG_PATH[0] == key:
        return _CONFIG_PATH[1]
    home = environment("RPGDICE_HOME").strip()
    if home:
        path = os.path.join(os.path.expanduser(home), "config.toml")
    elif sys.platform.startswith("linux"):
        base = environment("XDG_CONFIG_HOME").strip() or os.path.expanduser("~/.config")
        path = os.path.join(base, "rpgdice", "config.toml")
    else:
        from rpgdice.table import paths

        path = str(paths.config_file())
    _CONFIG_PATH[:] = [key, path]
    return path


_CONFIG_PATH: list[Any] = []
CONFIG_NAMES = ("RPGDICE_HOME", "XDG_CONFIG_HOME", "HOME")
"""The variables config.toml's path is made of."""


def _unexpected(e: Exception) -> int:
    """An exception no command turned into a message. The roll log damaged where it was
    read is bad input (one line, exit 2); anything else is a bug: one line, exit 1."""
    if type(e).__module__ == "sqlite3":
        from rpgdice.table.paths import log_file

        error(f"the roll log {log_file()} cannot be read: {e}; move it aside (a new one "
              "begins) or rpgdice log clear --yes")
        return 2
    error(f"internal error: {type(e).__name__}: {e} (set {DEBUG_ENV}=1 for details; "
          "please report it)")
    return INTERNAL_ERROR


app = typer.Typer(
    name=PROG,
    cls=RpgdiceGroup,
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
    help="Dice for every ruleset rpgdice knows, by the letter of each rule.",
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        sys.stdout.write(f"{PROG} {__version__}\n")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Dice for every ruleset rpgdice knows, by the letter of each rule."""


WIDTH_VARIABLES = ("COLUMNS", "LINES", "TERMINAL_WIDTH")
"""Sizes Rich and Typer read from the environment."""
USABLE_WIDTH = range(20, 1001)
"""A width or height from the environment outside this range (0, negative, huge, not a
number) is treated as not given: Rich then asks the terminal, or uses 80 columns."""


def tidy_environment(environ: Any = None) -> None:
    """Make the environment's view settings safe before anything reads them: an
    unusable ``COLUMNS``/``LINES``/``TERMINAL_WIDTH`` is dropped, and ``NO_COLOR``
    (non-empty) wins over ``FORCE_COLOR`` and ``PY_COLORS``, for the views and for
    Typer's help alike."""
    env = os.environ if environ is None else environ
    for name in WIDTH_VARIABLES:
        value = env.get(name)
        if value is not None and not (
            value.isascii() and value.isdigit() and len(value) < 6 and int(value) in USABLE_WIDTH
        ):
            del env[name]
    if env.get("NO_COLOR"):
        for name in ("FORCE_COLOR", "PY_COLORS", "GITHUB_ACTIONS"):  # Typer's help forces
            env.pop(name, None)                                        # color on each
    tidy_help_printer(env)  # Typer's help printer read them when imported


@functools.cache
def root() -> Any:
    """The root Click group (:class:`RpgdiceGroup`), built once per process: every command
    line a process parses (a session's lines, a replay's older entries, the server's
    rolls) goes through the same group and the commands it has built."""
    from rpgdice.cli.typer_private import get_command

    return get_command(app)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run ``rpgdice ARGV`` and return its exit status."""
    return int(root().main(args=argv, prog_name=PROG, standalone_mode=False))


def command_tree() -> Any:
    """The root Click command with every ruleset group loaded — for tools that walk
    the whole interface (completion scripts, the fuzz test), not for a roll."""
    top: Any = root()  # the RpgdiceGroup
    for name in top.list_commands(None):
        group = top.get_command(None, name)
        for sub in getattr(group, "list_commands", lambda _ctx: [])(None):
            group.get_command(None, sub)
    return top

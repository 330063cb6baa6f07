"""The ``rpgdice`` command line: a Typer group per ruleset.

Commands are thin: they parse, call the engine, and hand the result to
:mod:`rpgdice.cli.output`. Every usage error, from Click or from the engine's
:class:`~rpgdice.core.errors.RulesError`, becomes one line on stderr and exit 2.

The ruleset groups load lazily: ``rpgdice seyruun roll ...`` imports and builds the
``seyruun`` group alone (its rules included), since every roll starts a
process and building all of them would cost every roll the time of all.
"""

from __future__ import annotations

import errno
import functools
import os
import re
import sys
from collections.abc import Sequence
from difflib import get_close_matches
from importlib import import_module
from typing import Annotated, Any, Optional

import typer
from typer.core import TyperGroup

from rpgdice import __version__, rulesets
from rpgdice.cli import output
from rpgdice.cli.output import PROG, error
from rpgdice.cli.typer_private import Context, ParamType, click, tidy_help_printer
from rpgdice.core.commands import ROOT_COMMANDS
from rpgdice.core.errors import RulesError, cut, shown

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


class NoSuchCommand(click.UsageError):
    """A command name that is not one of the group's commands."""

    def __init__(self, name: str, choices: Sequence[str], ctx: Any, args: Sequence[str] = ()) -> None:
        self.name = name
        self.choices = list(choices)
        close = (get_close_matches(name, self.choices + _alias_names(ctx), n=1)
                 if len(name) < 64 else [])
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        meant = _roll_meant(name, ctx) if not close and len(name) < 64 else None
        if meant is not None:
            typed = " ".join(args) if len(" ".join(args)) < 64 else name
            hint = f" (did you mean '{ctx.command_path} {meant} {typed}'?)"
        elif not close:
            hint = f" ({ctx.command_path} --help says what each does)"
        super().__init__(
            f"COMMAND: {shown(name)} is not a command of '{ctx.command_path}'; "
            f"accepts {', '.join(self.choices)}{hint}",
            ctx,
        )


def _alias_names(ctx: Any) -> list[str]:
    """The user's alias names, for the closest name to a mistyped command at the top
    (``rpgdice sneek``: did you mean 'sneak'?); none when they cannot be read."""
    if ctx is None or ctx.parent is not None:
        return []
    from rpgdice.table import aliases

    try:
        return sorted(aliases.load())
    except (RulesError, OSError):
        return []


_POOL_LIKE = r"[0-9]+(\s*[+\-\u2212\u2013]\s*[0-9]+)*"
"""A pool typed as a command name (``rpgdice seyruun 3+2``): compiled only when one is."""


def _roll_meant(name: str, ctx: Any) -> str | None:
    """The command a word that is no command name meant, when it reads as that command's
    argument: dice notation at the top (``rpgdice 2d6``: ``roll``), a pool in a ruleset
    group whose ``roll`` takes one (``rpgdice seyruun 3+3``)."""
    group = ctx.command
    if ctx.parent is None:
        from rpgdice.rulesets.dice.rules import parse

        try:
            parse(name)
        except RulesError:
            return None
        return "roll"
    roll = group.get_command(ctx, "roll") if re.fullmatch(_POOL_LIKE, name.strip()) else None
    takes = roll is not None and any(p.param_type_name == "argument" for p in roll.params)
    return "roll" if takes else None


class CommandGroup(TyperGroup):
    """A group whose unknown command names get the one-line treatment: what the
    group accepts and the closest name."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        from rpgdice.cli.typer_private import narrow_help

        if not narrow_help(self, ctx, formatter):  # under 80 columns: a page words fit in
            super().format_help(ctx, formatter)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name = args[0] if args else ""
        if (
            args
            and not name.startswith("-")
            and self.get_command(ctx, name) is None
            and not ctx.resilient_parsing
        ):
            raise NoSuchCommand(name, self.list_commands(ctx), ctx, args)
        from rpgdice.cli.runs import current_run

        current_run(ctx).args = list(args[1:])  # as typed, for --compare (cli/compare.py)
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as e:
            # Click's option parser raises some errors (an option missing its value, a
            # flag given one) without a context; they belong to the subcommand whose
            # arguments were being parsed, so give them its context to name it.
            if e.ctx is None and ctx.invoked_subcommand:
                command = self.get_command(ctx, ctx.invoked_subcommand)
                if command is not None:
                    e.ctx = Context(command, info_name=ctx.invoked_subcommand, parent=ctx)
            raise


def _param_hint(param: Any) -> str:
    opts = [o for o in getattr(param, "opts", []) if o.startswith("--")]
    if param.param_type_name == "option" and opts:
        return opts[0]  # the first long name, as declared: --raise, not its alias --niveles
    return param.human_readable_name.removesuffix("...")  # COMBATANT..., EXPR...: one of them


def typed_name(param: Any, ctx: Any = None) -> str:
    """How the user gave ``param``: the environment variable it came from
    (``RPGDICE_SEED``), else the last of its names typed (``--niveles``, ``-d``), else its
    first long name."""
    if param.param_type_name != "option":
        return _param_hint(param)
    if ctx is not None and param.name and param.envvar:
        from rpgdice.cli.typer_private import ParameterSource

        if ctx.get_parameter_source(param.name) == ParameterSource.ENVIRONMENT:
            envvar = param.envvar
            return envvar if isinstance(envvar, str) else envvar[0]
    names = [*param.opts, *param.secondary_opts]
    typed = None
    from rpgdice.cli.runs import current_run

    # The arguments as typed: errors name an option the way the user wrote it
    # (``--niveles``, not its canonical ``--raise``).
    for word in current_run(ctx).argv or ():
        if word == "--":
            break
        for name in names:
            short = len(name) == 2 and not word.startswith("--")
            if word == name or word.startswith(name + "=") or (short and word.startswith(name)):
                typed = name
    return typed or _param_hint(param)


def _accepts(param: Any) -> str:
    """What ``param`` accepts: its parser's ``accepts`` (cli.params), else its metavar."""
    parse = getattr(getattr(param, "type", None), "func", None)
    accepts = getattr(parse, "accepts", None)
    if accepts:
        return str(accepts)
    return str(getattr(param, "metavar", None) or param.human_readable_name)


def _find_option(ctx: Any, name: str) -> Any:
    if ctx is None:
        return None
    for param in ctx.command.get_params(ctx):
        if name in getattr(param, "opts", ()) or name in getattr(param, "secondary_opts", ()):
            return param
    return None


def _options_of(ctx: Any) -> str:
    names = []
    for param in ctx.command.get_params(ctx):
        if param.param_type_name == "option" and not getattr(param, "hidden", False):
            names.append(_param_hint(param))
    return ", ".join(names)


def _usage_message(e: click.UsageError) -> str:
    """Every usage error as ``PARAM: what is wrong; accepts ...``, from the
    exception's structure, never from parsing Click's wording."""
    param = getattr(e, "param", None)
    ctx = e.ctx
    if isinstance(e, NoSuchCommand):
        return e.message
    if isinstance(e, click.MissingParameter) and param is not None:
        return f"{_param_hint(param)}: missing; accepts {_accepts(param)}"
    if isinstance(e, click.BadParameter) and param is not None:
        return f"{typed_name(param, ctx)}: {e.message}"
    if isinstance(e, click.NoSuchOption) and ctx is not None:
        name = e.option_name
        hint = ""
        if e.possibilities:
            hint = f" (did you mean {' or '.join(sorted(e.possibilities))}?)"
        arguments = [
            p.human_readable_name for p in ctx.command.get_params(ctx)
            if p.param_type_name == "argument"
        ]
        if name[1:].isdigit() and arguments:
            return (f"{cut(name)}: a negative number is not an option, and "
                    f"{', '.join(arguments)} cannot be negative")
        return (f"{cut(name)}: no such option{hint}; '{ctx.command_path}' accepts "
                f"{_options_of(ctx)}")
    if isinstance(e, click.BadOptionUsage):
        option = _find_option(ctx, e.option_name)
        if option is None:
            return f"{e.option_name}: {e.message}"
        if getattr(option, "is_flag", False):
            return f"{e.option_name}: is a flag and takes no value"
        return f"{e.option_name}: needs a value; accepts {_accepts(option)}"
    if ctx is not None and type(e) is click.UsageError:
        # Extra arguments on a command: say what the command takes.
        pieces = ["[OPTIONS]"] + [
            p.human_readable_name for p in ctx.command.get_params(ctx)
            if p.param_type_name == "argument"
        ]
        return f"{e.format_message()}; usage: {ctx.command_path} {' '.join(pieces)}"
    return e.format_message()


GROUP_MODULES = {"log": "rpgdice.cli.log", "encounter": "rpgdice.cli.encounter",
                 "table": "rpgdice.cli.joined"}
"""Groups that are no ruleset's (name -> module whose ``app`` is a ``typer.Typer``). Each
ruleset's group is its record's ``commands`` (:func:`ruleset_group`), found by the registry
(rpgdice.rulesets). They load on first use, so a roll imports only its own ruleset's
commands and rules and builds only its own command: startup is what every roll pays
(bench/startup.py)."""
TOP_COMMANDS = ("roll", "odds")
"""Ordinary dice's commands, at the top (made from their records, :func:`_load_top`)."""
COMMAND_MODULES = {
    "char": "rpgdice.cli.table:char_app",
    "alias": "rpgdice.cli.table:alias_app",
    "paths": "rpgdice.cli.table:paths_app",
    "again": "rpgdice.cli.again",
    "play": "rpgdice.cli.play",
    "completion": "rpgdice.cli.completion",
    "serve": "rpgdice.cli.serve",
    "rulesets": "rpgdice.cli.user_rulesets",
    "seat": "rpgdice.cli.seat",
}
"""Commands loaded the same way: ``module`` whose ``app`` (or ``module:name``) is a
``typer.Typer`` holding one command, or a group of them (``char``); or ``module:NAME`` of a
module whose ``COMMANDS`` records hold the command ``NAME`` (ordinary dice's ``roll`` and
``odds``, made from their records: :func:`_load_command`)."""
HELP_ORDER = ROOT_COMMANDS
"""The order ``rpgdice --help`` lists them in: the rulesets (in the registry's order), then
ordinary dice, your table, the roll log, then completion (the README's order)."""


def ruleset_group(name: str) -> bool:
    """Whether ``name`` is a ruleset with a group of its own (``rpgdice NAME ...``)."""
    if not rulesets.known(name):
        return False
    try:
        return rulesets.get(name).group
    except RulesError:  # a user's ruleset file that is broken: its commands say so when run
        return True


class LazyCommands:
    """Click's lazy-group pattern for a ``TyperGroup``: a subcommand is built the first
    time it is looked up, so a roll builds (and imports) only what it runs.
    Subclasses fill :meth:`pending` with ``name -> builder``, in help order."""

    __slots__ = ()

    def pending(self) -> dict[str, Any]:
        return {}

    def list_commands(self, ctx: Any) -> list[str]:
        names = super().list_commands(ctx)  # type: ignore[misc]
        names = names + [n for n in self.pending() if n not in names]
        order = {n: i for i, n in enumerate((*self.first(), *HELP_ORDER))}
        return sorted(names, key=lambda n: order.get(n, len(order)))

    def first(self) -> tuple[str, ...]:
        """Names listed before :data:`HELP_ORDER`'s (the root: the rulesets)."""
        return ()

    def builder(self, name: str) -> Any:
        """The builder of the command ``name`` (None: no such command)."""
        return self.pending().get(name)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        commands = self.commands  # type: ignore[attr-defined]
        made = commands.get(cmd_name)
        if made is not None:  # built already (a session's lines look the same names up)
            return made
        build = self.builder(cmd_name)
        if build is not None:
            cmd = build()
            cmd.name = cmd_name
            commands[cmd_name] = cmd
        return super().get_command(ctx, cmd_name)  # type: ignore[misc]


AS_ENV = "RPGDICE_AS"


class _TraitType(ParamType):
    """A trait-taking parameter's type (its record's kind ``traits``, or Cypher's
    ``--skill``): with ``--as`` trait names are kept as typed, for the executor to read from
    the sheet (rpgdice.roll.character); without it, they are answered with ``--as``."""

    def __init__(self, inner: Any, hook: str) -> None:
        self.inner = inner
        self.hook = hook
        self.name = inner.name

    def __getattr__(self, name: str) -> Any:  # parser attributes: func, choices, accepts
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        if self.hook == "target":  # a target's pool: its names read with the target (--vs)
            from rpgdice.cli import character

            vs = ctx.params.get("vs") if ctx is not None else None
            if isinstance(vs, str) and vs.strip() and character.looks_like_names(value):
                return value
            return self.inner.convert(value, param, ctx)
        if ctx is not None and ctx.params.get("as_name") and isinstance(value, str):
            return self._named(value, param, ctx)  # the executor reads the sheet
        try:
            return self.inner.convert(value, param, ctx)
        except click.BadParameter as e:  # no character rolls: trait names say to add --as
            from rpgdice.cli import character

            levels = getattr(getattr(self.inner, "func", None), "choices", None) or ()
            if not character.looks_like_names(value) or get_close_matches(value, levels, n=1):
                raise  # no word, or a misspelled level (its message names the closest)
            e.message = character.without_as(value, e.message, skill=self.hook == "skill")
            raise


    def _named(self, value: str, param: Any, ctx: Any) -> Any:
        """A value of a line that rolls for a character: trait names kept as typed (the
        executor reads them from the sheet); numbers read now."""
        from rpgdice.cli import character

        if self.hook == "traits":
            return value if character.looks_like_names(value) else self.inner.convert(
                value, param, ctx)
        try:  # Cypher's --skill: a level now, a skill's name from the sheet
            return self.inner.convert(value, param, ctx)
        except click.BadParameter:
            return value


def trait_type(inner: Any, hook: str) -> Any:
    """An argument's type that, with ``--as``, reads trait names first (``hook``:
    ``traits``, or ``skill`` for Cypher's ``--skill``)."""
    return _TraitType(inner, hook)


def _odds_of_a_command(group: Any, ctx: Any, word: str, args: list[str]) -> None:
    """``seyruun odds attack 3+3``: a command of the group named after ``odds``, which has
    no odds form of its own, is named back the way that works (its ``--odds``), rather
    than read as the roll's first argument (a trait name)."""
    if word == "odds" or word not in group.list_commands(ctx):
        return
    if any(a == "--as" or a.startswith("--as=") for a in args):  # a trait may share the name
        return
    ruleset = group.ruleset
    command = group.get_command(ctx, word)
    takes_odds = command is not None and any(
        "--odds" in getattr(p, "opts", ()) for p in command.params)
    if word in ("roll", "task") and takes_odds:
        how = f"its odds are 'rpgdice {ruleset} odds ...' itself (leave out '{word}')"
    elif takes_odds:
        how = f"for its odds, add --odds to the roll: rpgdice {ruleset} {word} ... --odds"
    else:
        how = f"it computes no odds: roll it with rpgdice {ruleset} {word} ..."
    raise RulesError("odds", f"'{word}' is a command of its own, not an odds type; {how}")


def _odds_type(ruleset: str, name: str) -> bool:
    """Whether ``rpgdice RULESET odds NAME`` gives the roll type NAME's odds alone."""
    record = rulesets.get(ruleset).command(name)
    return record is not None and record.odds_type


class RulesetGroup(LazyCommands, CommandGroup):
    """A ruleset's group, built from its ``typer.Typer`` with no command yet; each
    command is built from the app's registered command when first looked up, and
    given the shared options (:func:`_shared_options`)."""

    typer_app: Any = None
    ruleset: str | None = None
    """The ruleset whose group it is (None: ``log``, ``encounter``)."""

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """``odds TYPE ARGS``: the roll type's own command, computing its odds alone."""
        if (len(args) > 1 and args[0] == "odds" and self.ruleset is not None
                and _odds_type(self.ruleset, args[1])):
            from rpgdice.cli.runs import current_run

            current_run(ctx).odds_alone = True
            args = args[1:]
        elif len(args) > 1 and args[0] == "odds" and self.ruleset is not None:
            _odds_of_a_command(self, ctx, args[1], args)
        return super().resolve_command(ctx, args)

    def _spanish(self) -> bool:
        """Whether the group's help speaks Spanish: its ruleset's record says so."""
        return self.ruleset is not None and rulesets.get(self.ruleset).language == "es"

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)
        if option is not None and self._spanish():
            from rpgdice.cli.common import PANELS

            option.help = PANELS["es"]["help"]
        return option

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        if not self._spanish():
            return super().format_usage(ctx, formatter)
        from rpgdice.cli.common import spanish_usage

        spanish_usage(self, ctx, formatter)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        if not self._spanish():
            return super().format_help(ctx, formatter)
        from rpgdice.cli.common import spanish_help

        spanish_help(ctx, formatter, super().format_help)

    @classmethod
    def build(cls, app: Any) -> Any:
        """The group of ``app``, laid out by this class (Typer's documented ``cls`` and
        ``get_command``)."""
        from rpgdice.cli.typer_private import get_command

        app.info.cls = cls
        group: Any = get_command(app)
        group.typer_app = app
        return group


def _load_group(module: str) -> Any:
    """A group that is no ruleset's (``log``, ``encounter``, ``table``): its module's ``app``."""
    return RulesetGroup.build(import_module(module).app)


def load_ruleset(name: str) -> Any:
    """The group of the ruleset ``name``, made from its commands' records."""
    try:
        records = rulesets.get(name).records()
    except RulesError as e:  # a broken file: its commands name the problem when run
        group = RulesetGroup.build(_broken_app(name, e))
        group.ruleset = name
        return group
    return RecordGroup.made(name, records)


def _broken_app(name: str, error: RulesError) -> Any:
    """The group of a user's ruleset file that is broken: ``roll`` and ``odds`` take any
    words and say what is wrong with the file (exit 2)."""
    from rpgdice.cli.common import SignedCommand, ruleset_app

    app = ruleset_app(f"Your own ruleset {name} (its file has a problem).",
                      command_cls=SignedCommand)
    loose = {"ignore_unknown_options": True, "allow_extra_args": True, "help_option_names": []}

    def broken(words: Annotated[Optional[list[str]], typer.Argument(hidden=True)] = None) -> None:
        raise error

    for command in ("roll", "odds"):
        app.command(command, context_settings=loose, help="Your own ruleset's file has a "
                    "problem: run it to see which.")(broken)
    return app


def command_class(language: str, style: str = "") -> type:
    """The Click command class a record-made command is laid out by."""
    from rpgdice.cli import common

    if style == "notation":
        return common.NotationCommand
    if style == "signed":
        return common.SignedCommand
    return common.ReglasCommand if language == "es" else common.RollCommand


class RecordGroup(RulesetGroup):
    """A ruleset's group made from its commands' records (rpgdice.core.command): each
    command made the first time it is looked up (rpgdice.cli.made)."""

    records: tuple[Any, ...] = ()

    @classmethod
    def made(cls, ruleset: str, records: Any) -> Any:
        record = rulesets.get(ruleset)
        group = cls(name=ruleset, help=record.help, no_args_is_help=True,
                    rich_markup_mode="markdown")
        group.ruleset = ruleset
        group.records = tuple(records)
        return group

    def pending(self) -> dict[str, Any]:
        from rpgdice.cli.made import click_command

        assert self.ruleset is not None
        ruleset = self.ruleset
        language = rulesets.get(ruleset).language

        def builder(record: Any) -> Any:
            return lambda: click_command(record, ruleset, language,
                                         command_class(language, record.style))

        return {r.name: builder(r) for r in self.records}


TOP_RULESET = "dice"
"""The ruleset of the top-level commands made from records (``roll``, ``odds``)."""


def _load_top(name: str) -> Any:
    """``rpgdice roll`` or ``rpgdice odds``: ordinary dice's command, made from its record
    (cli/made.py), shared options included."""
    from rpgdice.cli.made import click_command

    ruleset = rulesets.get(TOP_RULESET)
    record = ruleset.command(name)
    assert record is not None
    return click_command(record, TOP_RULESET, ruleset.language,
                         command_class(ruleset.language, record.style))


def _load_command(spec: str) -> Any:
    from rpgdice.cli.typer_private import get_command

    module, _, name = spec.partition(":")
    loaded = import_module(module)
    typer_app = getattr(loaded, name or "app")
    if len(typer_app.registered_commands) > 1:  # a group: unknown commands get one line
        typer_app.info.cls = CommandGroup
    return get_command(typer_app)




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
    from rpgdice.roll.execute import environment

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
        except click.NoArgsIsHelpError as e:
            # A bare group shows its help: Typer's Rich help printer has already written it
            # to stdout while building this exception; the narrow page (under 80 columns)
            # is its message, written here. Exit 0.
            if e.message:
                sys.stdout.write(e.message.rstrip("\n") + "\n")
                sys.stdout.flush()
            code = 0
        except click.UsageError as e:
            if e.ctx is None:
                e.ctx = Context(self, info_name=prog_name)
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
            from rpgdice.roll.execute import execute

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
            execute(spec, sheet=sheet, extras=extras)
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
        root_ctx = Context(self, info_name=PROG, obj=run, **self.context_settings)
        with root_ctx:
            parent = root_ctx
            if group is not self:
                parent = Context(group, info_name=words[0], parent=root_ctx)
                output.SPOKEN[:] = [rulesets.get(words[0]).language, words[0]]
            run.args = list(args)
            try:
                with cmd.make_context(name, list(args), parent=parent) as ctx:
                    cmd.invoke(ctx)
            except click.UsageError as e:
                if e.ctx is None:  # a parser error: it belongs to the command
                    e.ctx = Context(cmd, info_name=name, parent=parent)
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


def _config_path() -> str:
    """config.toml's path, as rpgdice.table.paths finds it, without importing the table's
    modules (or platformdirs) on Linux, where a roll asks it."""
    home = os.environ.get("RPGDICE_HOME", "").strip()
    if home:
        return os.path.join(os.path.expanduser(home), "config.toml")
    if sys.platform.startswith("linux"):
        base = os.environ.get("XDG_CONFIG_HOME", "").strip() or os.path.expanduser("~/.config")
        return os.path.join(base, "rpgdice", "config.toml")
    from rpgdice.table import paths

    return str(paths.config_file())


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

"""The command line's groups: the lazy groups (a command is built the first time it is
looked up, so a roll builds and imports only what it runs), a ruleset's group made from
its commands' records, the groups that are no ruleset's (``log``, ``encounter``,
``table``: their Typer apps, :func:`showing_group`), and the top-level commands."""


from importlib import import_module
from typing import Annotated, Any, Optional

import typer
from typer.core import TyperGroup

from rpgdice import rulesets
from rpgdice.cli.common import Command, RulesetTyper
from rpgdice.cli.typer_private import UsageError
from rpgdice.cli.usage import NoSuchCommand
from rpgdice.core.commands import ROOT_COMMANDS
from rpgdice.core.errors import RulesError


def showing_group(help: str) -> RulesetTyper:
    """The app of such a group, ``help`` its Markdown help."""
    return RulesetTyper(command_cls=Command, help=help, rich_markup_mode="markdown",
                        invoke_without_command=True, no_args_is_help=False)


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
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except UsageError as e:
            # Click's option parser raises some errors (an option missing its value, a
            # flag given one) without a context; they belong to the subcommand whose
            # arguments were being parsed, so give them its context to name it.
            if e.ctx is None and ctx.invoked_subcommand:
                command = self.get_command(ctx, ctx.invoked_subcommand)
                if command is not None:
                    e.ctx = typer.Context(command, info_name=ctx.invoked_subcommand, parent=ctx)
            raise


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
        built = self.commands  # type: ignore[attr-defined]
        names = [n for n in super().list_commands(ctx)  # type: ignore[misc]
                 if still_made(built[n], n)]
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
        if made is not None and still_made(made, cmd_name):  # built already (a session's lines)
            return made
        commands.pop(cmd_name, None)
        build = self.builder(cmd_name)
        if build is not None:
            cmd = build()
            cmd.name = cmd_name
            commands[cmd_name] = cmd
        return super().get_command(ctx, cmd_name)  # type: ignore[misc]


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
    """The group of the ruleset ``name``, made from its commands' records (a user's file's
    group remembers the record, or the problem, it was made from: :func:`still_made`)."""
    made_from = _made_from(name)
    if isinstance(made_from, RulesError):  # a broken file: its commands name the problem when run
        group = RulesetGroup.build(_broken_app(name, made_from))
        group.ruleset = name
    else:
        group = RecordGroup.made(name, made_from.records())
    if name not in rulesets.builtin_names():
        group.made_from = made_from
    return group


def _made_from(name: str) -> Any:
    try:
        return rulesets.get(name)
    except RulesError as e:
        return e


def still_made(group: Any, name: str) -> bool:
    """Whether a built group still is what ``rpgdice NAME`` makes: a built-in's always; a
    user's file's while the file reads as it did (a session's or the server's next line
    after the file was edited, broken or removed builds its group again)."""
    if not hasattr(group, "made_from"):
        return True
    if not rulesets.known(name):
        return False
    now, then = _made_from(name), group.made_from
    if isinstance(now, RulesError) or isinstance(then, RulesError):
        return str(now) == str(then)
    return now is then


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

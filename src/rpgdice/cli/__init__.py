"""The ``rpgdice`` command line: a Typer group per ruleset.

Commands are thin: they parse, call the engine, and hand the result to
:mod:`rpgdice.cli.output`. Every usage error, from Click or from the engine's
:class:`~rpgdice.engine.errors.RulesError`, becomes one line on stderr and exit 2.
"""

from __future__ import annotations

import sys
from importlib import import_module
from typing import Any, Optional, Sequence

import typer
from typer._click import exceptions as click  # the Click this Typer release vendors
from typer.core import TyperGroup

from rpgdice import __version__
from rpgdice.cli.output import PROG, error
from rpgdice.engine.errors import RulesError


def _param_hint(param: Any) -> str:
    opts = [o for o in getattr(param, "opts", []) if o.startswith("--")]
    if param.param_type_name == "option" and opts:
        return max(opts, key=len)
    return param.human_readable_name


def _usage_message(e: click.UsageError) -> str:
    param = getattr(e, "param", None)
    if isinstance(e, click.BadParameter) and not isinstance(e, click.MissingParameter) and param:
        return f"{_param_hint(param)}: {e.message}"
    return e.format_message()


GROUPS = {
    "crytures": "rpgdice.cli.crytures",
    "seyruun": "rpgdice.cli.seyruun",
    "reglas": "rpgdice.cli.reglas",
    "cypher": "rpgdice.cli.cypher",
}
"""The rulesets' groups (name -> module whose ``app`` is a ``typer.Typer``), in help order.
They load on first use, so a roll imports only its own ruleset's CLI and engine:
startup is what every roll and TAB pays (bench/startup.py measures it)."""
COMMANDS = {
    "completion": "rpgdice.cli.completion",
}
"""Single commands loaded the same way (module whose ``app`` holds one command)."""


class LazyCommands:
    """The lazy-group pattern of Click for a ``TyperGroup``: a subcommand is built the
    first time it is looked up, so a roll builds (and imports) only what it runs.
    Subclasses fill :meth:`pending` with ``name -> builder``, in help order."""

    __slots__ = ()

    def pending(self) -> dict[str, Any]:
        return {}

    def list_commands(self, ctx: Any) -> list[str]:
        names = super().list_commands(ctx)  # type: ignore[misc]
        return names + [n for n in self.pending() if n not in names]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        commands = self.commands  # type: ignore[attr-defined]
        build = self.pending().get(cmd_name) if cmd_name not in commands else None
        if build is not None:
            cmd = build()
            cmd.name = cmd_name
            commands[cmd_name] = cmd
        return super().get_command(ctx, cmd_name)  # type: ignore[misc]

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        try:
            return super().resolve_command(ctx, args)  # type: ignore[misc]
        except click.UsageError as e:
            # Typer suggests from the commands built so far; suggest from all of them.
            if args and "Did you mean" not in e.message:
                from difflib import get_close_matches

                matches = get_close_matches(args[0], self.list_commands(ctx))
                if matches:
                    names = ", ".join(repr(m) for m in matches)
                    e.message = f"{e.message.rstrip('.')}. Did you mean {names}?"
            raise


class RulesetGroup(LazyCommands, TyperGroup):
    """A ruleset's group, built from its ``typer.Typer`` with no command yet; each
    command is built from the app's registered command when first looked up."""

    typer_app: Any = None

    def pending(self) -> dict[str, Any]:
        from typer.main import get_command_from_info, get_command_name

        app = self.typer_app

        def builder(info: Any) -> Any:
            return lambda: get_command_from_info(
                info, pretty_exceptions_short=app.pretty_exceptions_short,
                rich_markup_mode=app.rich_markup_mode,
            )

        return {info.name or get_command_name(info.callback.__name__): builder(info)
                for info in app.registered_commands}

    @classmethod
    def build(cls, app: Any) -> Any:
        from typer.main import get_group
        from typer.models import DefaultPlaceholder

        own_cls = app.info.cls
        if own_cls is not None and not isinstance(own_cls, DefaultPlaceholder):
            return get_group(app)  # a group class of its own: build it whole
        infos = app.registered_commands
        app.registered_commands, app.info.cls = [], cls
        try:
            group = get_group(app)
        finally:
            app.registered_commands, app.info.cls = infos, own_cls
        group.typer_app = app
        return group


GROUP_MODULES = {
    "crytures": "rpgdice.cli.crytures",
    "seyruun": "rpgdice.cli.seyruun",
    "reglas": "rpgdice.cli.reglas",
    "cypher": "rpgdice.cli.cypher",
}
"""The rulesets' groups (name -> module whose ``app`` is a ``typer.Typer``), in help order.
They load on first use, so a roll imports only its own ruleset's CLI and engine and
builds only its own command: startup is what every roll pays (bench/startup.py)."""
COMMAND_MODULES = {
    "completion": "rpgdice.cli.completion",
}
"""Single commands loaded the same way (module whose ``app`` holds one command)."""


def _load_group(module: str) -> Any:
    return RulesetGroup.build(import_module(module).app)


def _load_command(module: str) -> Any:
    from typer.main import get_command

    return get_command(import_module(module).app)


class RpgdiceGroup(LazyCommands, TyperGroup):
    """The root group: runs the app and turns every error into a clean exit. Its
    groups and commands (:data:`GROUP_MODULES`, :data:`COMMAND_MODULES`) load on first use."""

    def pending(self) -> dict[str, Any]:
        loaders = {n: (lambda m=m: _load_group(m)) for n, m in GROUP_MODULES.items()}
        loaders.update({n: (lambda m=m: _load_command(m)) for n, m in COMMAND_MODULES.items()})
        return loaders

    def main(  # type: ignore[override]
        self,
        args: Optional[Sequence[str]] = None,
        prog_name: Optional[str] = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        code = 0
        try:
            rv = super().main(args=args, prog_name=prog_name or PROG, standalone_mode=False, **extra)
            code = rv if isinstance(rv, int) else 0
        except click.NoArgsIsHelpError as e:
            # A bare group shows its help: Typer's Rich help printer has already
            # written it to stdout while building this exception. Exit 0.
            del e
            code = 0
        except click.UsageError as e:
            error(_usage_message(e))
            code = 2
        except RulesError as e:
            error(str(e))
            code = 2
        except typer.Abort:
            error("aborted")
            code = 1
        except BrokenPipeError:
            # The reader went away (`rpgdice ... | head -1`): stop quietly.
            import os

            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            code = 1
        if standalone_mode:
            sys.exit(code)
        return code


app = typer.Typer(
    name=PROG,
    cls=RpgdiceGroup,
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Dice for Crytures, Seyruun, Reglas Básicas and the Cypher System, "
    "by the letter of each rule.",
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
    """Dice for Crytures, Seyruun, Reglas Básicas and the Cypher System."""


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The console script: ``rpgdice``."""
    from typer.main import get_command

    return get_command(app).main(args=argv, prog_name=PROG, standalone_mode=False)

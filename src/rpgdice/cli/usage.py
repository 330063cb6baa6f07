"""What a usage error says: one line naming the option or argument as it was typed, what it
accepts, and the closest name (an unknown command, a misspelled option, a value typed
without its option)."""


import re
from collections.abc import Sequence
from difflib import get_close_matches
from typing import Any

import typer

from rpgdice.cli.typer_private import UsageError, is_a
from rpgdice.core.errors import RulesError, cut, shown


class NoSuchCommand(UsageError):
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
        from rpgdice.rulesets.dice.grammar import first as parse

        try:
            parse(name)
        except RulesError:
            return None
        return "roll"
    roll = group.get_command(ctx, "roll") if re.fullmatch(_POOL_LIKE, name.strip()) else None
    takes = roll is not None and any(p.param_type_name == "argument" for p in roll.params)
    return "roll" if takes else None


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
        source = ctx.get_parameter_source(param.name)
        if source is not None and source.name == "ENVIRONMENT":
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


def _usage_message(e: UsageError) -> str:
    """Every usage error as ``PARAM: what is wrong; accepts ...``, from the
    exception's structure, never from parsing Click's wording."""
    param = getattr(e, "param", None)
    ctx = e.ctx
    if isinstance(e, NoSuchCommand):
        return e.message
    if is_a(e, "MissingParameter") and param is not None:
        return f"{_param_hint(param)}: missing; accepts {_accepts(param)}"
    if isinstance(e, typer.BadParameter) and param is not None:
        return f"{typed_name(param, ctx)}: {e.message}"
    if is_a(e, "NoSuchOption") and ctx is not None:
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
    if is_a(e, "BadOptionUsage"):
        option = _find_option(ctx, e.option_name)
        if option is None:
            return f"{e.option_name}: {e.message}"
        if getattr(option, "is_flag", False):
            return f"{e.option_name}: is a flag and takes no value"
        return f"{e.option_name}: needs a value; accepts {_accepts(option)}"
    if ctx is not None and type(e) is UsageError:
        # Extra arguments on a command: say what the command takes.
        pieces = ["[OPTIONS]"] + [
            p.human_readable_name for p in ctx.command.get_params(ctx)
            if p.param_type_name == "argument"
        ]
        return f"{e.format_message()}; usage: {ctx.command_path} {' '.join(pieces)}"
    return e.format_message()

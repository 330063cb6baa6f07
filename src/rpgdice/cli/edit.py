"""A roll value edited by words added to it: ``again MORE`` and each ``--compare ARGS``.

Neither parses the roll's own words again. The words added are read by the command's own
parser into values, and those values edit the stored :class:`~rpgdice.roll.spec.RollSpec`:
a single-valued option given replaces its value, a repeatable one adds, a shared option
sets the run's choice (``again --json``), ``--as`` names another character (``--compare``;
``again`` keeps the stored one), and — for ``--compare`` only — arguments add to the
command's repeatable argument (``odds 2d6 --compare +1``), converted by that argument's
own parser.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Optional

import typer

from rpgdice.cli.runs import Run
from rpgdice.core.errors import RulesError, shown

if TYPE_CHECKING:
    from typer.core import TyperCommand

    from rpgdice.roll.spec import Character, RollSpec

Values = dict[str, object]

MAX_COMPARE = 10
"""The most alternatives one command compares (each is a whole odds computation)."""


def check_compare(value: tuple[str, ...]) -> None:
    if value and len(value) > MAX_COMPARE:
        raise RulesError("--compare", f"given {len(value)} times; accepts at most {MAX_COMPARE}")


def command_of(spec: RollSpec) -> TyperCommand:
    """The Click command that parses ``spec``'s command (its group's, or the top-level
    ``roll`` and ``odds`` of ordinary dice)."""
    from rpgdice.cli import root
    from rpgdice.core import registry as rulesets

    top = root()
    if not rulesets.get(spec.ruleset).group:  # ordinary dice: `roll` and `odds` at the top
        return top.get_command(None, spec.command)
    group = top.get_command(None, spec.ruleset)
    command = group.get_command(None, spec.command) if group is not None else None
    if command is None:
        raise RulesError("command", f"'{spec.ruleset} {spec.command}' is no command")
    return command


def more_options(spec: RollSpec, more: list[str]) -> tuple[RollSpec, None, Values]:
    """``spec`` with the options ``more`` adds (``again --bonus 1 --json``). The stored
    spec's arguments are never parsed again; the roll stays the stored character's.
    Returns the spec, the character's sheet (``--as``: read by the executor) and no
    extras (a target, ``--vs``, is read by the executor: rpgdice.roll.target)."""
    return edited(spec, more, None), None, {}


def alternatives(spec: RollSpec, wanted: tuple[str, ...],
                 given: tuple[str, ...] = ()) -> tuple[tuple[str, RollSpec], ...]:
    """Each ``--compare ARGS`` as typed and the roll value it makes: ``spec`` (the line's
    own roll, its alternatives aside) with ``ARGS`` added. ``given``: the parameters the
    line itself gave (for a character ``ARGS`` names: the others come from its sheet)."""
    return tuple((alt, _alternative(spec, alt, given)) for alt in wanted)


def _alternative(spec: RollSpec, alt: str, given: tuple[str, ...]) -> RollSpec:
    from rpgdice.cli.typer_private import UsageError

    try:
        import shlex

        extra = shlex.split(alt)
    except ValueError as e:
        raise RulesError("--compare", f"{alt!r}: {e}") from None
    if any(a == "--compare" or a.startswith("--compare=") for a in extra):
        raise RulesError("--compare", f"{alt!r}: an alternative cannot compare again")
    try:
        return edited(spec.replace(compare=()), extra, given)
    except UsageError as e:
        raise RulesError("--compare", f"{alt!r}: {e.format_message()}") from None
    except RulesError as e:
        raise RulesError("--compare", f"{alt!r}: {e}") from None


def edited(spec: RollSpec, words: list[str], given: Optional[tuple[str, ...]]) -> RollSpec:
    """``spec`` with ``words`` added. ``given`` None: ``again`` (options only, the stored
    character kept, ``--compare`` computed anew); else ``--compare``'s alternative
    (arguments add too; ``given`` as :func:`alternatives` says)."""

    command = command_of(spec)
    run = _run_of(spec)
    ctx = typer.Context(command, info_name=command.name, obj=run)
    with ctx:
        if spec.character is not None:  # trait names it adds stay names: read when it runs
            ctx.params["as_name"] = spec.character.name
        opts, left, order = command.make_parser(ctx).parse_args(args=list(words))
        left = [*_positional(opts, order), *(a for a in left if a != "--")]
        changed, named = _read(ctx, command, spec, opts, order, again=given is None)
        for name, value in named.items():
            choose(run, name, value)
        args = dict(spec.args)
        for name, value in changed.items():
            param = next(p for p in command.params if p.name == name)
            if getattr(param, "multiple", False) and args.get(name):
                value = (*_words(args[name]), *_words(value))
            args[name] = _frozen(value)
        if left:
            _add_arguments(ctx, command, spec, args, left, again=given is None)
        compare = spec.compare
        if given is None and run.compare:
            compare = alternatives(spec.replace(args=tuple(args.items())), run.compare,
                                   spec.character.given if spec.character else ())
    character = _character(spec, command, changed, named, given)
    return spec.replace(
        args=tuple(args.items()), dice=None if run.dice is None else tuple(run.dice),
        seed=run.seed, times=run.times, json=run.json, odds=run.odds, log=run.log_choice,
        short=run.short, secret=run.secret or run.blind, blind=run.blind, compare=compare,
        character=character)


def _positional(opts: Values, order: list[Any]) -> list[str]:
    """The words the parser gave the command's arguments, in order: they add to the
    stored ones (they never replace them)."""
    words: list[str] = []
    for param in order:
        value = opts.pop(param.name, None) if param.param_type_name == "argument" else None
        if value is not None:
            words.extend(map(str, _words(value)))
    return words


def _run_of(spec: RollSpec) -> Run:
    run = Run(list(spec.argv), parse_only=True)
    run.dice = None if spec.dice is None else list(spec.dice)
    run.seed, run.times = spec.seed, spec.times
    run.json, run.odds, run.log_choice = spec.json, spec.odds, spec.log
    run.short, run.secret, run.blind = spec.short, spec.secret, spec.blind
    return run


def _read(ctx: typer.Context, command: TyperCommand, spec: RollSpec, opts: Values,
          order: list[Any], again: bool) -> tuple[Values, Values]:
    """The options ``opts`` gives, read by their parameters: the command's own (changed)
    and the shared ones (named: ``--json``, ``--as`` …), each checked as the line checks
    it."""
    changed: Values = {}
    named: Values = {}
    record = getattr(command, "rpgdice_record", None)
    for param in order:
        if param.param_type_name != "option" or opts.get(param.name) is None:
            continue
        param.handle_parse_result(ctx, opts, [])
        if not (param.expose_value and param.name in ctx.params):
            continue
        value = ctx.params[param.name]
        if record is not None and record.param(param.name) is None:  # a shared option
            if param.name == "compare":
                check_compare(value)
            if param.name == "as_name":  # read and checked, as the line would
                check_character(spec, str(command.name), value)
            named[param.name] = value
        else:
            changed[param.name] = value
    return changed, named


def _add_arguments(ctx: typer.Context, command: TyperCommand, spec: RollSpec, args: Values,
                   left: list[str],
                   again: bool) -> None:
    """Arguments an alternative adds: to the command's repeatable argument, converted by
    its parser (``odds 2d6 --compare +1``); ``again`` takes options only."""
    from rpgdice.cli.typer_private import UsageError

    variadic = [p for p in command.params
                if p.param_type_name == "argument" and getattr(p, "nargs", 1) == -1]
    if again:
        raise UsageError(f"again adds options only; {shown(left[0])} is an argument "
                               f"(rpgdice {spec.ruleset} {spec.command} takes the roll's "
                               "arguments whole)", ctx)
    pool = args.get("pool")
    if not variadic and len(left) == 1 and isinstance(pool, (str, int)) and str(pool).strip():
        # a one-argument POOL given a second word: their sum, as the line takes it
        # (crytures roll brawn fighting; rpgdice.cli.common)
        param = next(p for p in command.params if p.name == "pool")
        param.handle_parse_result(ctx, {"pool": f"{str(pool).strip()}+{left[0].strip()}"}, [])
        args["pool"] = ctx.params["pool"]
        return
    if not variadic:
        raise UsageError(f"Got unexpected extra argument(s) ({' '.join(left)})", ctx)
    param = variadic[0]
    name = str(param.name)
    param.handle_parse_result(ctx, {name: tuple(left)}, [])
    args[name] = _frozen((*_words(args.get(name)), *_words(ctx.params[name])))


def _character(spec: RollSpec, command: TyperCommand, changed: Values, named: Values,
               given: Optional[tuple[str, ...]]) -> Optional[Character]:
    """The character of the edited spec: the stored one (read again by the executor when an
    option added names its traits), or — an alternative's ``--as``/``--pool`` — the one
    it names, its sheet read when it runs."""
    character = spec.character
    name, pool = named.get("as_name"), named.get("pool_name")
    name = str(name).strip() if name is not None and str(name).strip() else (
        character.name if character is not None else None)
    if given is not None and name is not None and (named.get("as_name") or pool is not None):
        from rpgdice.roll.spec import Character

        base = character.given if character is not None else given
        return Character(
            name=name, ruleset=spec.ruleset,
            pool=str(pool) if pool is not None else character.pool if character else None,
            given=tuple(dict.fromkeys((*base, *changed))), resolved=False,
            from_env=character.from_env if character and character.name == name else False)
    record = getattr(command, "rpgdice_record", None)
    if character is None or record is None or not any(
            isinstance(v, str) and (p := record.param(k)) is not None and p.kind == "traits"
            for k, v in changed.items()):
        return character
    return replace(character, resolved=False, given=(*character.given, *changed))


def _words(value: object) -> tuple[object, ...]:
    """A repeatable parameter's values (none: an empty tuple; one value: alone)."""
    if value is None:
        return ()
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def choose(run: Run, name: str, value: Any) -> None:
    """A shared option's value made the run's choice (its callback's, or an option
    ``again`` added to a record-made command)."""
    if name in ("as_name", "pool_name"):
        return
    if name == "compare":
        run.compare = tuple(value or ())
    elif name in ("dice", "seed", "log_choice"):
        if value is not None:
            setattr(run, name, value)
    elif name == "times":
        run.times = 1 if value is None else value
    elif value:
        setattr(run, name, True)
        if name == "blind":  # a blind roll is a secret one (the GM's screen alone shows it)
            run.secret = True


def check_character(spec: Any, command: str, name: Any) -> None:
    """A character ``again`` names (``--as``): a saved one of the roll's ruleset, or a usage
    error; the roll stays the stored character's."""
    if name is None or not str(name).strip():
        return
    from rpgdice.table import sheets

    sheet = sheets.load(str(name), "--as")
    if sheet.ruleset != spec.ruleset:
        raise RulesError("--as", f"{sheet.name} is a {sheet.ruleset} character, and "
                         f"'{command}' rolls {spec.ruleset}")


def _frozen(value: object) -> object:
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value

"""The command-line framework of every rolling command: its Click command classes, the
options every rolling command shares — declared once here (:data:`SHARED`), with their help
in each language, and made part of each command's signature by rpgdice.cli.made — and what
a parsed line becomes: a :class:`~rpgdice.roll.spec.RollSpec` (:func:`submit_values`),
handed to the one executor (:func:`rpgdice.roll.execute.execute`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Optional, TypeVar

import typer
from typer.core import TyperCommand

from rpgdice.cli import params
from rpgdice.cli.edit import check_compare
from rpgdice.cli.runs import Run as Run
from rpgdice.cli.runs import current_run as current_run
from rpgdice.cli.typer_private import UsageError, is_a
from rpgdice.core.budget import CHECKED as CHECKED  # re-exported for the commands,
from rpgdice.core.budget import MAX_TIMES
from rpgdice.core.budget import ROLL_COST as ROLL_COST  # which state their work here
from rpgdice.core.budget import WORK_BUDGET as WORK_BUDGET
from rpgdice.core.budget import Work as Work
from rpgdice.core.budget import check_work as check_work
from rpgdice.core.errors import RulesError, shown
from rpgdice.core.record import frozen
from rpgdice.roll.execute import LOG_ENV as LOG_ENV
from rpgdice.roll.execute import MAX_SEED
from rpgdice.roll.odds import ExactOdds as ExactOdds
from rpgdice.roll.odds import exact_odds as exact_odds
from rpgdice.roll.plan import Effects as Effects
from rpgdice.roll.plan import Plan as Plan

R = TypeVar("R")


PANELS: dict[str, dict[str, Any]] = {
    "en": {"dice": "Dice source", "output": "Output", "arguments": None, "options": None,
           "help": "Show this help and exit."},
    "es": {"dice": "Origen de los dados", "output": "Salida", "arguments": "Argumentos",
           "options": "Opciones", "help": "Muestra esta ayuda y sale.", "commands": "Órdenes",
           "usage": "Uso: ", "[OPTIONS]": "[OPCIONES]", "COMMAND [ARGS]...": "ORDEN [ARGUMENTOS]..."},
}
"""Help panels of a rolling command, by language: its own arguments and options (None: Typer's
"Arguments" and "Options"), where the dice come from (--dice, --seed, -n), and the output
(--json, --odds, --help)."""


class StrayValue(UsageError):
    """A required option missing while a word no argument takes was typed: its value."""


class Command(TyperCommand):
    """A command whose usage line shows its arguments as their help names them: ``POOL``,
    not Typer's ``{POOL}``; its option parser is built once (a session parses many lines)."""

    def make_parser(self, ctx: Any) -> Any:
        key = (ctx.allow_interspersed_args, ctx.ignore_unknown_options,
               tuple(ctx.help_option_names))
        built = self.__dict__.get("_rpgdice_parser")
        if built is not None and built[0] == key and ctx.token_normalize_func is None:
            parser = built[1]
        else:
            parser = super().make_parser(ctx)
            if ctx.token_normalize_func is None:
                self._rpgdice_parser = (key, parser)
        parser.ctx = ctx  # errors name the context of the line being parsed
        return parser

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        return [p[1:-1] if p.startswith("{") and p.endswith("}") else p
                for p in super().collect_usage_pieces(ctx)]

    def format_help(self, ctx: Any, formatter: Any) -> None:
        from rpgdice.cli.typer_private import narrow_help

        if not narrow_help(self, ctx, formatter):  # under 80 columns: a page words fit in
            super().format_help(ctx, formatter)


class RollCommand(Command):
    """Every ruleset command: a plain usage line, the help option in the Output panel, and
    a missing option whose value was typed without it (``cypher task 5``) answered with
    the form that works (``-d 5``)."""

    language = "en"

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)
        if option is not None:
            option.rich_help_panel = PANELS[self.language]["output"]
            option.help = PANELS[self.language]["help"]
        return option

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except RulesError as e:
            # The engine names an option by its canonical name: name it as it was typed.
            from rpgdice.cli import typed_name

            for param in self.get_params(ctx):
                if e.param in (*param.opts, *param.secondary_opts):
                    e.param = typed_name(param, ctx)
                    break
            raise

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        args = _pool_words_joined(self, ctx, args)
        typed = list(args)
        try:
            return super().parse_args(ctx, args)
        except UsageError as e:
            if not is_a(e, "MissingParameter"):
                raise
            param = e.param
            if param is None or param.param_type_name != "option" or ctx.resilient_parsing:
                raise
            # Words no argument took (the parser leaves them over): a value typed without
            # its option.
            _, stray, _ = self.make_parser(ctx).parse_args(args=typed)
            extra = [w for w in stray if not w.startswith("-")]
            if not extra:
                raise
            long = next(o for o in param.opts if o.startswith("--"))
            short = next((o for o in param.opts if not o.startswith("--")), long)
            accepts = getattr(getattr(param.type, "func", None), "accepts", None) or param.metavar
            raise StrayValue(
                f"{long}: missing, and {shown(extra[0])} is not an argument of "
                f"'{ctx.command_path}' (did you mean {short} {extra[0]}?); accepts {accepts}",
                ctx) from None


def _pool_words_joined(cmd: Any, ctx: Any, args: list[str]) -> list[str]:
    """``crytures roll brawn fighting``: a one-argument POOL typed as two words (as Seyruun
    takes Attribute and Skill) is their sum, ``brawn+fighting``, as if typed so; any other
    line as it is. (Only the raw parser reads the line here: nothing is converted twice.)"""
    arguments = [p for p in cmd.get_params(ctx) if p.param_type_name == "argument"]
    if len(arguments) != 1 or arguments[0].name != "pool" or len(args) < 2:
        return args
    try:
        given, rest, _ = cmd.make_parser(ctx).parse_args(args=list(args))
    except UsageError:
        return args  # the line's own error is said by the parse proper
    first = given.get("pool")
    if not isinstance(first, str) or len(rest) != 1 or not isinstance(rest[0], str):
        return args
    at = _where(cmd, ctx, args, lambda got, left: got.get("pool"))
    then = _where(cmd, ctx, args, lambda got, left: left[0] if left else None)
    if at is None or then is None or at == then:
        return args
    joined = list(args)
    joined[at] = f"{first.strip()}+{rest[0].strip()}"
    del joined[then]
    return joined


_MARK = "\0rpgdice-word"


def _where(cmd: Any, ctx: Any, args: list[str], read: Callable[[dict, list], object]) -> Optional[int]:
    """The index in ``args`` of the word that ``read`` picks from the raw parse: the one
    word whose place, marked, comes back where ``read`` looks (an option's value never does)."""
    for i, word in enumerate(args):
        if word.startswith("-") and word != "-":
            continue
        marked = [*args[:i], _MARK, *args[i + 1:]]
        try:
            got, left, _ = cmd.make_parser(ctx).parse_args(args=marked)
        except UsageError:
            continue
        if read(got, left) == _MARK:
            return i
    return None


SPANISH_HELP = {
    "REQUIRED_LONG_STRING": "[obligatorio]", "DEFAULT_STRING": "[por defecto: {}]",
    "ENVVAR_STRING": "[variable de entorno: {}]", "DEPRECATED_STRING": "(obsoleta) ",
    "ARGUMENTS_PANEL_TITLE": PANELS["es"]["arguments"],
    "OPTIONS_PANEL_TITLE": PANELS["es"]["options"],
    "COMMANDS_PANEL_TITLE": PANELS["es"]["commands"],
    "ABORTED_TEXT": "Cancelado.",
}
"""Typer's own words in a help page, in Spanish (Reglas Básicas' group and commands)."""


def spanish_usage(cmd: Any, ctx: Any, formatter: Any) -> None:
    """``Uso: rpgdice reglas roll [OPCIONES] ÍNDICE``: a usage line in Spanish (Click's
    ``format_usage`` with its own words translated)."""
    words = PANELS["es"]
    pieces = [words.get(p, p) for p in cmd.collect_usage_pieces(ctx)]
    formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=words["usage"])


def spanish_help(ctx: Any, formatter: Any, print_help: Callable[..., None]) -> None:
    """A help page in Spanish: ``print_help(ctx, formatter)`` with Typer's words replaced."""
    from rpgdice.cli.typer_private import spanish_help_words

    with spanish_help_words(SPANISH_HELP):
        print_help(ctx, formatter)


class ReglasCommand(RollCommand):
    """A Reglas Básicas command: its help is in Spanish."""

    language = "es"

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        spanish_usage(self, ctx, formatter)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        spanish_help(ctx, formatter, super().format_help)


EXPRESSION_LIKE = re.compile(r"[+\-]([0-9dD(\s]|$)")
"""The start of an argument that is an expression although it starts like an option."""


def split_expressions(command: Any, ctx: Any, args: list[str]) -> list[str]:
    """``args`` with every positional argument moved after ``--`` (in order), so an
    expression such as ``-1d4+6`` is never read as an option. Option values (the word
    after ``--seed``, ``--dice``, ``-n``) stay where they are."""
    takes_value = set()
    for param in command.get_params(ctx):
        if param.param_type_name == "option" and not param.is_flag and not param.count:
            takes_value.update(param.opts)
            takes_value.update(param.secondary_opts)
    options: list[str] = []
    positional: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            positional.extend(args[i + 1:])
            break
        if EXPRESSION_LIKE.match(arg) or not arg.startswith("-") or arg == "-":
            positional.append(arg)
        else:
            options.append(arg)
            if arg in takes_value and i + 1 < len(args):
                options.append(args[i + 1])
                i += 1
        i += 1
    return options + (["--", *positional] if positional else [])


class NotationCommand(RollCommand):
    """A rolling command of ordinary dice (style ``notation``: plain usage line, help in
    the Output panel) whose arguments may start with ``-`` (negative dice terms)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        return super().parse_args(ctx, split_expressions(self, ctx, list(args)))


NEGATIVE = re.compile(r"^-[0-9][0-9+-]*$")


class SignedCommand(RollCommand):
    """A command whose arguments may be negative (style ``signed``: a user's ruleset
    file's total MOD, a pool that names a negative trait): ``-1`` is read as the number,
    never as an option."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        return super().parse_args(ctx, ["\u2212" + a[1:] if NEGATIVE.match(a) else a
                                        for a in args])


class RulesetTyper(typer.Typer):
    """A group's Typer app: its commands are :class:`RollCommand` (or ``command_cls``);
    the completion scripts are rpgdice's own (``rpgdice completion``), not Typer's."""

    def __init__(self, *args: Any, command_cls: type = RollCommand, **kwargs: Any) -> None:
        kwargs.setdefault("add_completion", False)
        super().__init__(*args, **kwargs)
        self.command_cls = command_cls

    def command(self, *args: Any, cls: Any = None, **kwargs: Any) -> Any:
        return super().command(*args, cls=cls or self.command_cls, **kwargs)


def ruleset_app(help: str, command_cls: type = RollCommand) -> typer.Typer:
    """The Typer app of one ruleset's group. Help texts are Markdown, so a docstring's
    paragraphs flow (a line break inside one is not kept) and its examples stand out."""
    return RulesetTyper(help=help, no_args_is_help=True, rich_markup_mode="markdown",
                        command_cls=command_cls)


# The options every rolling command shares, declared once ---------------------------------


@frozen
class Shared:
    """One option every rolling (or odds) command takes, as declared once: its names, the
    parameter it is (its value a spec's choice, rpgdice.cli.made), its panel (``dice`` or
    ``output``, in the command's language), its help and metavar in each language."""

    attr: str
    decls: list[str]
    panel: str
    help: dict[str, str]
    kinds: str
    """``roll``: every rolling command; ``roll odds``: every odds command too."""
    metavar: Optional[dict[str, str]] = None
    parse: Optional[Callable[[str], Any]] = None
    flag: bool = False
    multiple: bool = False
    default: Any = None


def _integer(lo: int, hi: int) -> Callable[[str], int]:
    return params.integer(lo, hi)


SHARED: tuple[Shared, ...] = (
    Shared("dice", ["--dice"], "dice", kinds="roll", parse=params.faces,
           metavar={"en": "FACES", "es": "CARAS"},
           help={"es": "Caras tiradas a mano (4,7,2) en vez de tirar.",
                 "en": "Faces rolled by hand (4,7,2) instead of rolling."}),
    Shared("seed", ["--seed"], "dice", kinds="roll", parse=_integer(0, MAX_SEED),
           metavar={"en": "N", "es": "N"},
           help={"es": "Semilla (0 a 2^64-1, o RPGDICE_SEED): repite los mismos dados; sin ella, "
                 "una nueva, que queda en el JSON y el registro.",
                 "en": "Seed (0 to 2^64-1, or RPGDICE_SEED): the same seed, the same dice; else a "
                 "fresh one, kept in the JSON and the log."}),
    Shared("times", ["-n", "--times"], "dice", kinds="roll", parse=_integer(1, MAX_TIMES),
           metavar={"en": "N", "es": "N"}, default=1,
           help={"es": f"Repite la orden N veces (1 a {MAX_TIMES}).",
                 "en": f"Repeat the command N times (1 to {MAX_TIMES})."}),
    Shared("json", ["--json"], "output", kinds="roll odds", flag=True, default=False,
           help={"es": "JSON Lines: un objeto por tirada.",
                 "en": "JSON Lines: one object per repetition."}),
    Shared("odds", ["--odds"], "output", kinds="roll", flag=True, default=False,
           help={"es": "Añade la probabilidad exacta del resultado.",
                 "en": "Add the exact chance of the outcome rolled."}),
    Shared("log_choice", ["--log/--no-log"], "output", kinds="roll", flag=True,
           help={"es": f"Al registro de tiradas o no (o {LOG_ENV}).",
                 "en": f"Log it or not (else {LOG_ENV} decides)."}),
    Shared("short", ["--short"], "output", kinds="roll", flag=True, default=False,
           help={"es": "Una línea por tirada (un mensaje).",
                 "en": "One line per roll (a chat message)."}),
    Shared("secret", ["--secret"], "output", kinds="roll", flag=True, default=False,
           help={"es": "Secreta: solo aquí hasta log reveal.",
                 "en": "Logged, shown here only until log reveal."}),
    Shared("blind", ["--blind"], "output", kinds="roll", flag=True, default=False,
           help={"es": "Secreta; en la mesa, solo para el DJ.",
                 "en": "Secret; at the table, the GM's alone."}),
    Shared("compare", ["--compare"], "output", kinds="roll odds", multiple=True,
           metavar={"en": "ARGS", "es": "ARGS"},
           help={"es": "Compara las probabilidades con estos argumentos añadidos (repetible): "
                 "--compare '--raise 1'.",
                 "en": "Compare the odds with ARGS added."}),
)
"""The shared options, in the order every command's help lists them (after its own)."""
FIRST = frozenset({"dice", "seed", "times", "json", "odds"})
"""The shared options listed right after a command's own arguments and options (but for
those it lists after them: ``rolls(..., after=...)``)."""
LAST = frozenset({"log_choice", "short", "secret", "blind", "compare"})
"""The shared options listed last, before ``--help``."""


# Registering a ruleset's commands ---------------------------------------------------------


class Choices:
    """The shared options' values of one command line, as its command received them
    (a record-made command: :func:`submit_values`), read as a run's attributes."""

    __slots__ = ("dice", "seed", "times", "json", "odds", "log_choice", "short", "secret",
                 "blind", "compare", "argv")

    def __init__(self, values: dict[str, Any], argv: Any) -> None:
        dice = values.get("dice")
        self.dice = None if dice is None else list(dice)
        self.seed = values.get("seed")
        times = values.get("times")
        self.times = 1 if times is None else times
        self.json = bool(values.get("json"))
        self.odds = bool(values.get("odds"))
        self.log_choice = values.get("log_choice")
        self.short = bool(values.get("short"))
        self.blind = bool(values.get("blind"))
        self.secret = bool(values.get("secret")) or self.blind  # blind: secret, the GM's alone
        self.compare = tuple(values.get("compare") or ())
        self.argv = argv


def submit_values(ctx: typer.Context, ruleset: str, command: str, own: dict[str, Any],
                  shared: dict[str, Any]) -> None:
    """A record-made command's line parsed (rpgdice.cli.made): its own arguments and the
    shared options' values made a spec, executed or — while a line is only parsed — kept
    in its run."""
    from rpgdice.roll.execute import execute

    check_compare(tuple(shared.get("compare") or ()))
    run = current_run(ctx)
    spec, extras = spec_of(ruleset, command, own, ctx, Choices(shared, run.argv),
                           named(ctx, ruleset, own, shared))
    if run.parse_only:
        run.parsed = (spec, None, extras)
        return
    run.entry = execute(spec, extras=extras)


def named(ctx: Any, ruleset: str, own: dict[str, Any], shared: dict[str, Any]) -> Any:
    """The character a line rolls for (``--as`` or ``RPGDICE_AS``), by its name: the
    executor reads its sheet (rpgdice.roll.character.resolved). None: no character."""
    name = shared.get("as_name")
    if name is None or not str(name).strip():
        return None
    from rpgdice.roll.spec import Character

    return Character(name=str(name), ruleset=ruleset, pool=shared.get("pool_name"),
                     given=given_on_line(ctx, own), resolved=False,
                     from_env=_source(ctx, "as_name") == "ENVIRONMENT")


def _source(ctx: Any, param: str) -> str:
    found = ctx.get_parameter_source(param)
    return "" if found is None else str(found.name)


def given_on_line(ctx: Any, own: dict[str, Any]) -> tuple[str, ...]:
    """The command's own parameters the line gave (the others are defaults, or a
    character's sheet gives them)."""
    return tuple(k for k in own if _source(ctx, k) in ("COMMANDLINE", "ENVIRONMENT", "PROMPT"))


def spec_of(ruleset: str, command: str, kwargs: dict[str, Any], ctx: Any,
            choices: Any = None, character: Any = None) -> Any:
    """The :class:`~rpgdice.roll.spec.RollSpec` the command line ``ctx`` parsed (the shared
    options' values: ``choices``, else its run's; ``character``: the one it names)."""
    from rpgdice.roll.spec import RollSpec

    run = choices if choices is not None else current_run(ctx)
    spec = RollSpec(
        ruleset=ruleset, command=command, args=tuple((k, _frozen(v)) for k, v in kwargs.items()),
        dice=None if run.dice is None else tuple(run.dice), seed=run.seed, times=run.times,
        character=character, log=run.log_choice, secret=run.secret,
        blind=getattr(run, "blind", False), short=run.short, json=run.json, odds=run.odds,
        odds_alone=current_run(ctx).odds_alone,
        argv=tuple(str(a) for a in run.argv or ()))
    if run.compare:
        from rpgdice.cli.edit import alternatives

        spec = spec.replace(compare=alternatives(spec, run.compare, given_on_line(ctx, kwargs)))
    return spec, {}  # a target (--vs) stays its name: the executor reads it (rpgdice.roll.target)


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value

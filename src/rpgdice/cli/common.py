"""What every rolling command shares: the ``--dice``/``--seed``/``--times``/``--json``
options (and ``--log``/``--no-log``, added to every rolling command by
:func:`add_rolling_options`), the choice of dice source, and the loop that rolls,
hands results on and records the command in the roll log."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Annotated, Any, Optional, TypeVar

import typer
from typer.core import TyperCommand

from rpgdice.cli import ARGV, SHEET, params  # ctx.meta keys: the expanded alias, --as
from rpgdice.cli.runs import Capture as Capture  # re-exported: the replay's collector
from rpgdice.cli.runs import Run as Run
from rpgdice.cli.runs import current_run as current_run
from rpgdice.cli.typer_private import click
from rpgdice.core.budget import CHECKED as CHECKED  # re-exported for the commands,
from rpgdice.core.budget import ROLL_COST as ROLL_COST  # which state their work here
from rpgdice.core.budget import WORK_BUDGET as WORK_BUDGET
from rpgdice.core.budget import Work as Work
from rpgdice.core.budget import check_work as check_work
from rpgdice.core.dice import DiceSource, GivenDice, SeededDice, fresh_seed
from rpgdice.core.errors import RulesError, shown

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


class StrayValue(click.UsageError):
    """A required option missing while a word no argument takes was typed: its value."""


class Command(TyperCommand):
    """A command whose usage line shows its arguments as their help names them: ``POOL``,
    not Typer's ``{POOL}``."""

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
        typed = list(args)
        try:
            return super().parse_args(ctx, args)
        except click.MissingParameter as e:
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


class RulesetTyper(typer.Typer):
    """A ruleset's Typer app: its commands are :class:`RollCommand` (or ``command_cls``)."""

    def __init__(self, *args: Any, command_cls: type = RollCommand, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.command_cls = command_cls

    def command(self, *args: Any, cls: Any = None, **kwargs: Any) -> Any:
        return super().command(*args, cls=cls or self.command_cls, **kwargs)


def ruleset_app(help: str, command_cls: type = RollCommand) -> typer.Typer:
    """The Typer app of one ruleset's group. Help texts are Markdown, so a docstring's
    paragraphs flow (a line break inside one is not kept) and its examples stand out."""
    return RulesetTyper(help=help, no_args_is_help=True, rich_markup_mode="markdown",
                        command_cls=command_cls)


MAX_SEED = 2**64 - 1
SEED_ENV = "RPGDICE_SEED"
"""An exported seed: read by :func:`make_source` (not by the option's parser), so that
``--dice`` sets it aside before it is read, and blank counts as unset."""


def _options(language: str) -> dict[str, Any]:
    """The options every rolling command shares, said briefly, in ``language``."""
    panel = PANELS[language]
    es = language == "es"
    return {
        "dice": Annotated[Optional[str], typer.Option(  # the parser makes a list of faces
            "--dice", parser=params.faces, metavar="CARAS" if es else "FACES",
            rich_help_panel=panel["dice"],
            help="Caras tiradas a mano (4,7,2) en vez de tirar." if es else
            "Faces rolled by hand (4,7,2) instead of rolling.")],
        "seed": Annotated[Optional[int], typer.Option(
            "--seed", parser=params.integer(0, MAX_SEED), metavar="N", rich_help_panel=panel["dice"],
            help="Semilla (0 a 2^64-1, o RPGDICE_SEED): repite los mismos dados; sin ella, "
            "una nueva, que queda en el JSON y el registro." if es else
            "Seed (0 to 2^64-1, or RPGDICE_SEED): the same seed, the same dice; else a fresh "
            "one, kept in the JSON and the log.")],
        "times": Annotated[int, typer.Option(
            "-n", "--times", parser=params.integer(1, params.MAX_TIMES), metavar="N",
            show_default=False, rich_help_panel=panel["dice"],
            help=f"Repite la orden N veces (1 a {params.MAX_TIMES})." if es else
            f"Repeat the command N times (1 to {params.MAX_TIMES}).")],
        "json": Annotated[bool, typer.Option(
            "--json", rich_help_panel=panel["output"],
            help="JSON Lines: un objeto por tirada." if es else
            "JSON Lines: one object per repetition.")],
        "odds": Annotated[bool, typer.Option(
            "--odds", rich_help_panel=panel["output"],
            help="Añade la probabilidad exacta del resultado." if es else
            "Add the exact chance of the outcome rolled.")],
    }


_EN, _ES = _options("en"), _options("es")
DiceOpt, SeedOpt, TimesOpt, JsonOpt, OddsOpt = (
    _EN["dice"], _EN["seed"], _EN["times"], _EN["json"], _EN["odds"])
DiceOptEs, SeedOptEs, TimesOptEs, JsonOptEs, OddsOptEs = (
    _ES["dice"], _ES["seed"], _ES["times"], _ES["json"], _ES["odds"])


LOG_ENV = "RPGDICE_LOG"
LOG_MODES = ("auto", "always", "never")
"""``RPGDICE_LOG``: ``auto`` (the default) logs a command whose stdout is a terminal."""


def log_wanted() -> bool:
    """Whether this command is recorded: ``--log``/``--no-log``, else ``RPGDICE_LOG``."""
    state = current_run()
    if state.secret:  # a secret roll is logged, so that it can be revealed
        return True
    choice = state.log_choice
    if choice is not None:
        return choice
    mode = os.environ.get(LOG_ENV, "").strip().lower() or "auto"
    if mode == "always":
        return True
    if mode == "never":
        return False
    if mode != "auto":
        raise RulesError(LOG_ENV, f"{mode!r} is not one of {', '.join(LOG_MODES)}")
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _log_flag(ctx: Any, param: Any, value: Optional[bool]) -> None:
    if value is not None:
        current_run(ctx).log_choice = value


def add_rolling_options(command: Any) -> Any:
    """Give a rolling command (one that takes ``--seed``) the options every rolling
    command shares beyond its own signature: ``--log``/``--no-log``, ``--short`` and
    ``--secret``, in the command's
    Output panel and language (:attr:`RollCommand.language`). Called once, where the
    lazily built groups build their commands (``rpgdice.cli._shared_options``)."""
    from typer.core import TyperOption

    names = {p.name for p in command.params}
    if "seed" in names and "log" not in names:
        language = getattr(command, "language", "en")
        at = next((i for i, p in enumerate(command.params) if p.name == "help"), len(command.params))
        command.params.insert(at, TyperOption(
            param_decls=["--log/--no-log", "log"], default=None, is_flag=True,
            expose_value=False, callback=_log_flag, rich_help_panel=PANELS[language]["output"],
            help=f"Al registro de tiradas o no (o {LOG_ENV})." if language == "es" else
            f"Log it or not (else {LOG_ENV} decides).",
        ))
        at += 1
        for name, es, en in (
                ("short", "Una línea por tirada (un mensaje).", "One line per roll (a chat message)."),
                ("secret", "Secreta: solo aquí hasta log reveal.",
                 "Logged, shown here only until log reveal.")):
            command.params.insert(at, TyperOption(
                param_decls=[f"--{name}", name], default=False, is_flag=True,
                expose_value=False, callback=_run_flag, rich_help_panel=PANELS[language]["output"],
                help=es if language == "es" else en))
            at += 1
    return command


def _run_flag(ctx: Any, param: Any, value: bool) -> None:
    if value:
        setattr(current_run(ctx), param.name, True)


def seed_from_environment() -> int | None:
    """``RPGDICE_SEED``'s seed; None when it is unset, empty or blank."""
    text = os.environ.get(SEED_ENV, "").strip()
    if not text:
        return None
    try:
        return params.integer(0, MAX_SEED)(text)
    except typer.BadParameter as e:
        raise RulesError(SEED_ENV, e.message) from None


def make_source(dice: list[int] | None, seed: int | None) -> DiceSource:
    """The dice source. (decision) ``--dice`` with an explicit ``--seed`` is a usage
    error; a seed from ``RPGDICE_SEED`` gives way to ``--dice`` (it is not even read,
    so a stale or mistyped one does not matter), so an exported seed does not stop a
    player from typing the faces they rolled. Without either, a fresh seed from the
    operating system: every roll can be replayed."""
    if dice is not None and seed is not None:
        raise RulesError("--dice", "cannot be combined with --seed (given faces are not rolled)")
    if dice is not None:
        return GivenDice(dice)
    if seed is None:
        seed = seed_from_environment()
    return SeededDice(fresh_seed() if seed is None else seed)


def run(
    roll: Callable[[DiceSource], R],
    *,
    work: Work,
    dice: list[int] | None,
    seed: int | None,
    times: int,
    as_json: bool,
    odds: Callable[[], object] | None = None,
    spec: Callable[[], object] | None = None,
    keys: dict[str, Any] | None = None,
    log_command: str | None = None,
    character: dict[str, Any] | None = None,
    target: Callable[[Any], dict[str, Any]] | None = None, compact: bool = False,
) -> Optional[int]:
    """Roll ``times`` times, hand the results to the output as they come, and record
    the command in the roll log when it is wanted; returns the log entry's ID (None
    when nothing was logged).

    Given faces (``--dice``) are all consumed before anything is printed, so a count
    that does not match leaves stdout empty. Random dice cannot run short: the first
    roll is made before anything is printed (any error the roll's spec can raise shows
    there), then the rest stream, so memory stays flat however large ``--times`` is.
    ``odds`` (``--odds``) computes the exact odds of the roll, once, to show beside
    each result; ``spec`` is the roll's exact odds, for ``log stats`` (never computed
    here). ``keys`` are added to every JSON object (and logged result); ``seed`` always
    is (null for given faces). ``character`` (``character``, ``spent``, ``left``) is what
    a command that paid from a sheet itself (``seyruun reroll``) shows and adds to JSON
    as ``--as`` does; it is not logged with the results (a replay pays nothing).
    ``compact``: repeats in their ruleset's short form (:func:`~rpgdice.cli.output.emit`).
    ``target(result)`` (``seyruun attack --vs``) gives each result's target side, called
    once per result in the order rolled: ``vs_table`` and ``vs_keys`` (each result's
    :class:`~rpgdice.core.envelope.Envelope`). ``work``: see :func:`check_work`."""

    if _odds_alone(odds, as_json):  # an alternative of --compare: its odds, no roll
        return None
    check_output_options(as_json)
    check_work(work, times)
    source = make_source(dice, seed)
    all_keys = {"seed": getattr(source, "seed", None), **(keys or {})}
    if (capture := current_run().capture) is not None:  # a replay: collect, print nothing
        _collect(capture, roll, source, times, all_keys, odds, spec, target)
        return None
    logging = log_wanted()
    exact = odds() if odds is not None else None
    compared = _alternatives() if exact is not None else []  # before anything is paid
    items = _enveloped(*_paid_rolls(roll, source, times, character), target)
    recorder = None
    if logging:
        from rpgdice.table.log import Recorder

        recorder = Recorder(all_keys, faces=dice, command=log_command)
        items = recorder.watch(items)
    _shown(items, as_json=as_json, odds=exact, total=times, keys=all_keys, compact=compact,
           compare=compared)
    return None if recorder is None else _save(recorder, spec, odds)


def _save(recorder: Any, spec: Callable[[], object] | None,
          odds: Callable[[], object] | None) -> Optional[int]:
    """Record the command (``--secret``: as a secret roll); the entry's ID, or None."""
    from rpgdice.cli.output import warning

    argv, who = _who_typed_what()
    return recorder.save(argv, who, warning, spec=_spec_data(spec), odds=_spec_data(odds),
                         secret=current_run().secret)


def _shown(items: Iterable[Any], **kwargs: Any) -> None:
    """The results shown: ``--short``, one line each, else as :func:`_emit` shows them."""
    if not current_run().short:
        return _emit(items, **kwargs)
    from rpgdice.render import short

    argv, who = _who_typed_what()
    try:
        short.show(items, kwargs["keys"], argv, who)
    except OSError:
        from rpgdice.cli.character import refund

        refund(_context())
        raise


def check_output_options(as_json: bool) -> None:
    """``--short`` with ``--json`` and ``--secret`` with ``--no-log`` are usage errors."""
    state = current_run()
    if state.short and as_json:
        raise RulesError("--short", "cannot be combined with --json (one is for people, the "
                         "other for programs)")
    if state.secret and state.log_choice is False:
        raise RulesError("--secret", "cannot be combined with --no-log (a secret roll is "
                         "logged, so that it can be revealed)")


def _odds_alone(odds: Callable[[], object] | None, as_json: bool) -> bool:
    """``--compare`` runs a command again for an alternative's odds: shown (captured), no roll."""
    from rpgdice.cli import compare

    if odds is None or not compare.odds_alone(_context()):
        return False
    show_odds(odds, as_json=as_json)
    return True


def _alternatives() -> list[tuple[str, Any]]:
    from rpgdice.cli import compare

    return compare.alternatives(_context())


def _emit(items: Iterable[Any], **kwargs: Any) -> None:
    """Show the results; when the output cannot be delivered (so it is not logged
    either), what the character paid for them is given back."""
    from rpgdice.cli.output import emit

    try:
        emit(items, **kwargs)
    except OSError:
        from rpgdice.cli.character import refund

        refund(_context())
        raise


def _paid_rolls(roll: Callable[[DiceSource], R], source: DiceSource, times: int,
                character: dict[str, Any] | None,
                ) -> tuple[Iterable[R], Callable[[Any], dict[str, Any]] | None]:
    """The rolls, and what each shows of the character who rolled: with ``--as`` paid
    from its sheet (cli/character.py), else the ``character`` a command paid itself."""
    ctx = _context()
    if ctx is not None and ctx.meta.get(SHEET) is not None:
        # --as: a character rolls; what the roll spends is paid from its sheet.
        from rpgdice.cli import character as sheet_rolls

        results, paid = sheet_rolls.settle(ctx, roll, source, times)
        return (results if results is not None else _rolled(roll, source, times)), paid
    shown = (lambda r: character) if character is not None else None
    return _rolled(roll, source, times), shown


def _collect(capture: Capture, roll: Callable[[DiceSource], R], source: DiceSource, times: int,
             all_keys: dict[str, Any], odds: Callable[[], object] | None,
             spec: Callable[[], object] | None,
             target: Callable[[Any], dict[str, Any]] | None) -> None:
    """A replay (``log show --replay``): the rolls collected into ``capture``, nothing
    printed, paid or logged."""
    capture.spec, capture.seed, capture.keys = spec, all_keys["seed"], all_keys
    if not capture.roll:
        return
    roll = _paced(capture, roll)
    if isinstance(source, GivenDice):
        capture.results = [roll(source) for _ in range(times)]
        source.check_all_used()
    else:  # the first results to check, the rest streamed as they are shown
        capture.results = [roll(source) for _ in range(min(times, Capture.HEAD))]
        capture.rest = (roll(source) for _ in range(times - len(capture.results)))
    capture.odds = odds() if odds is not None else None
    capture.total = times
    ctx = _context()
    table: Callable[[Any], dict[str, Any]] | None = None
    if ctx is not None and ctx.meta.get(SHEET) is not None:  # shown with its character
        from rpgdice.cli import character as sheet_view

        base = sheet_view.extra_base(ctx)
        table = lambda r: base  # noqa: E731
    capture.results = list(_enveloped(capture.results, table, target))
    capture.rest = _enveloped(capture.rest, table, target)


def _paced(capture: Capture, roll: Callable[..., R]) -> Callable[[DiceSource], R]:
    """A character's roll paid as it went (an extended roll's ``--willpower``): each
    result replays with what the log says it spent (``capture.budgets``), in order."""
    ctx = _context()
    sheet = None if ctx is None else ctx.meta.get(SHEET)
    if sheet is None or not capture.budgets:
        return roll
    from rpgdice.cli.character import plan

    if not plan(ctx, sheet).paced:
        return roll
    budgets = iter(capture.budgets)

    def paced(source: DiceSource) -> R:
        budget = next(budgets, None)
        return roll(source, budget) if isinstance(budget, int) else roll(source)

    return paced


def _spec_data(spec: object) -> Optional[dict[str, Any]]:
    """An exact odds spec as the log stores it (None for odds that are no :class:`ExactOdds`)."""
    return spec.data() if isinstance(spec, ExactOdds) else None


def _enveloped(results: Iterable[Any], table: Callable[[Any], dict[str, Any]] | None,
               target: Callable[[Any], dict[str, Any]] | None) -> Iterator[Any]:
    """Each result with what travels beside it (:class:`~rpgdice.core.envelope.Rolled`):
    the character line ``table(result)`` (``--as``) and the target's side ``target(result)``."""
    from rpgdice.core.envelope import EMPTY, Envelope, Rolled

    if table is None and target is None:
        return (Rolled(r, EMPTY) for r in results)
    return (Rolled(r, Envelope(table=table(r) if table is not None else None,
                               **(target(r) if target is not None else {})))
            for r in results)


def _rolled(roll: Callable[[DiceSource], R], source: DiceSource, times: int) -> Iterable[R]:
    """``times`` rolls: all made at once from given faces (which must all be used), else
    the first made now and the rest as they are read."""
    from itertools import chain

    if isinstance(source, GivenDice):
        results = [roll(source) for _ in range(times)]
        source.check_all_used()
        return results
    first = roll(source)
    return chain((first,), (roll(source) for _ in range(times - 1)))


def _who_typed_what() -> tuple[list[str], Optional[str]]:
    """The arguments as typed (after alias expansion) and the character rolling."""
    ctx = _context()
    meta = ctx.meta if ctx is not None else {}
    state = current_run(ctx)
    argv = meta.get(ARGV) or state.argv or []
    sheet = meta.get(SHEET)  # --as: the sheet's own spelling of the name
    return list(argv), state.character or getattr(sheet, "name", None)


class ExactOdds:
    """The exact odds of a roll (``<function>(*args, **kwargs)`` of its ruleset's ``odds.py``),
    computed only when called, so the odds engine and icepool load on the odds path
    alone. ``key`` names the computation (``log stats`` computes each distinct one once)."""

    __slots__ = ("ruleset", "function", "args", "kwargs")

    def __init__(self, ruleset: str, function: str, *args: object, **kwargs: object) -> None:
        self.ruleset, self.function, self.args, self.kwargs = ruleset, function, args, kwargs

    def __call__(self) -> object:
        from rpgdice import rulesets

        return getattr(rulesets.get(self.ruleset).odds(), self.function)(*self.args, **self.kwargs)

    @property
    def key(self) -> str:
        return repr((self.function, self.args, sorted(self.kwargs.items())))

    def data(self) -> dict[str, Any]:
        """The spec as plain data, for the roll log: a record argument as its class name
        and its fields (:func:`from_data` rebuilds it)."""
        return {"ruleset": self.ruleset, "function": self.function,
                "args": [_arg_data(a) for a in self.args],
                "kwargs": {k: _arg_data(v) for k, v in self.kwargs.items()}}

    @classmethod
    def from_data(cls, data: Any) -> ExactOdds:
        """The spec :meth:`data` stored; a :class:`~rpgdice.core.data.BadData` when the
        data makes none (forged, or of another rpgdice). Nothing is computed here."""
        from rpgdice import rulesets
        from rpgdice.core.rebuild import BadData

        try:
            ruleset = rulesets.get(data["ruleset"])
            function, args, kwargs = data["function"], data["args"], data["kwargs"]
            if not (isinstance(function, str) and function.isidentifier()
                    and isinstance(args, list) and isinstance(kwargs, dict)):
                raise TypeError
        except (KeyError, TypeError):
            raise BadData("the odds spec is not one this rpgdice knows") from None
        if function not in ruleset.odds_functions:  # never any other name of its odds.py
            raise BadData(f"the odds spec names no odds function of {ruleset.name}")
        built = [_arg(ruleset, a) for a in args]
        if not built or not all(_is_record(a) or (isinstance(a, list) and a and all(map(
                _is_record, a))) for a in built):
            raise BadData("the odds spec's arguments are not the records of a roll")
        if not all(isinstance(v, bool) for v in kwargs.values()):
            raise BadData("the odds spec's options are not flags")
        return cls(ruleset.name, function, *built, **{str(k): v for k, v in kwargs.items()})


def _arg_data(value: object) -> Any:
    from dataclasses import is_dataclass

    from rpgdice.core.data import to_data

    if is_dataclass(value) and not isinstance(value, type):
        return {"record": type(value).__name__, "data": to_data(value)}
    if isinstance(value, list):
        return [_arg_data(v) for v in value]
    return to_data(value)


def _is_record(value: object) -> bool:
    from dataclasses import is_dataclass

    return is_dataclass(value) and not isinstance(value, type)


def _arg(ruleset: Any, value: Any) -> Any:
    from rpgdice.core.rebuild import BadData, from_data

    if isinstance(value, dict) and set(value) == {"record", "data"}:
        try:
            cls = ruleset.record_class(str(value["record"]))
        except KeyError:
            raise BadData(f"the odds spec names no record of {ruleset.name}") from None
        return from_data(cls, value["data"])
    if isinstance(value, list):
        return [_arg(ruleset, v) for v in value]
    return value


exact_odds = ExactOdds


def show_odds(odds: Callable[[], object], *, as_json: bool) -> None:
    """An ``odds`` command: compute the exact odds (no dice) and print them."""
    from rpgdice.cli import compare
    from rpgdice.cli.output import emit_odds

    ctx = _context()
    exact = odds()
    if compare.captured(ctx, exact):  # an alternative of --compare: kept, not printed
        return
    extra = None
    if ctx is not None and ctx.meta.get(SHEET) is not None:
        from rpgdice.cli import character

        character.check(ctx)
        extra = character.extra_base(ctx)
    emit_odds(exact, as_json=as_json, extra=extra, compare=compare.alternatives(ctx))


def roll_type(roll: Callable[[DiceSource], R], odds: ExactOdds, *, with_odds: bool, work: Work,
              dice: list[int] | None, seed: int | None, times: int, as_json: bool) -> None:
    """A roll type's command: rolled (its odds beside it with ``--odds``), or, asked as
    ``rpgdice RULESET odds TYPE ...``, its odds alone."""
    from rpgdice.cli import compare

    ctx = _context()
    if compare.odds_alone(ctx):
        if compare.CAPTURE not in ctx.meta:  # asked by the user (not an alternative's)
            compare.refuse_rolling_options(dice, seed, times)
        show_odds(odds, as_json=as_json)
        return
    run(roll, work=work, dice=dice, seed=seed, times=times, as_json=as_json,
        odds=odds if with_odds else None)


def _context():  # -> click Context | None
    from rpgdice.cli.typer_private import get_current_context

    return get_current_context(silent=True)


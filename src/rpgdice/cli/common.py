"""What every rolling command shares: the ``--dice``/``--seed``/``--times``/``--json``
options (and ``--log``/``--no-log``, added to every rolling command by
:func:`add_rolling_options`), the choice of dice source, and the loop that rolls,
hands results on and records the command in the roll log."""

from __future__ import annotations

import os
import sys
from typing import Annotated, Any, Callable, Iterable, Optional, TypeVar

import typer

from rpgdice.cli import params
from rpgdice.engine.dice import DiceSource, GivenDice, SeededDice, fresh_seed
from rpgdice.engine.errors import RulesError

R = TypeVar("R")


def ruleset_app(help: str) -> typer.Typer:
    """The Typer app of one ruleset's group. Help texts are Markdown, so a docstring's
    paragraphs flow (a line break inside one is not kept) and its examples stand out."""
    return typer.Typer(help=help, no_args_is_help=True, rich_markup_mode="markdown")


DiceOpt = Annotated[
    Optional[str],  # the parser turns the text into a list of faces
    typer.Option(
        "--dice",
        parser=params.faces,
        metavar="FACES",
        help="Evaluate these faces (e.g. 4,7,2) instead of rolling; consumed in order, "
        "and they must cover exactly what is rolled. Not with --seed; a seed from RPGDICE_SEED "
        "is ignored.",
    ),
]
SeedOpt = Annotated[
    Optional[int],
    typer.Option(
        "--seed",
        envvar="RPGDICE_SEED",
        parser=params.integer(0, 2**64 - 1),
        metavar="N",
        help="Seed the dice (0 to 2^64-1): the same seed and command give the same dice, "
        "on any platform. Also read from RPGDICE_SEED. Without it a fresh seed is drawn from "
        "the operating system (os.urandom) and reported (JSON key seed, the roll log).",
    ),
]
TimesOpt = Annotated[
    int,
    typer.Option(
        "-n",
        "--times",
        parser=params.integer(1, params.MAX_TIMES),
        metavar="N",
        help=f"Repeat the whole command N times (1 to {params.MAX_TIMES}).",
    ),
]
JsonOpt = Annotated[
    bool,
    typer.Option("--json", help="JSON Lines: one object per repetition, nothing else on stdout."),
]
OddsOpt = Annotated[
    bool,
    typer.Option("--odds", help="Also give the exact chance of the roll's outcome: a line under "
                 "the breakdown, an 'odds' key in --json (see the odds command)."),
]


LOG_ENV = "RPGDICE_LOG"
LOG_MODES = ("auto", "always", "never")
"""``RPGDICE_LOG``: ``auto`` (the default) logs a command whose stdout is a terminal."""


class State:
    """What one run of the command line decided besides the command's own arguments:
    ``--log``/``--no-log`` (None when neither was given), the arguments as typed (after
    alias expansion), and, while the log replays an entry, the :class:`Capture` that
    collects instead of printing."""

    log_choice: Optional[bool] = None
    argv: Optional[list[str]] = None
    capture: Optional["Capture"] = None
    character: Optional[str] = None
    """The character the command rolls for (``--as``), when there is one."""


class Capture:
    """An in-process run of a command that prints and logs nothing (``log show``,
    ``seyruun reroll``, ``log stats``): :func:`run` records the roll's odds spec and,
    with ``roll``, the results."""

    HEAD = 1000
    """Results made at once (as many as a log entry keeps); the rest come in ``rest``."""

    def __init__(self, roll: bool) -> None:
        self.roll = roll
        self.spec: Any = None
        self.results: list[Any] = []
        self.rest: Iterable[Any] = ()
        self.odds: Any = None
        self.total = 0
        self.seed: Optional[int] = None
        self.keys: dict[str, Any] = {}


def log_wanted() -> bool:
    """Whether this command is recorded: ``--log``/``--no-log``, else ``RPGDICE_LOG``."""
    if State.log_choice is not None:
        return State.log_choice
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
        State.log_choice = value


def add_rolling_options(command: Any) -> Any:
    """Give a rolling command (one that takes ``--seed``) the options every rolling
    command shares beyond its own signature: ``--log``/``--no-log``. Called once, where
    the lazily built groups build their commands (``rpgdice.cli._shared_options``)."""
    from typer.core import TyperOption

    names = {p.name for p in command.params}
    if "seed" in names and "log" not in names:
        at = next((i for i, p in enumerate(command.params) if p.name == "help"), len(command.params))
        command.params.insert(at, TyperOption(
            param_decls=["--log/--no-log", "log"], default=None, is_flag=True,
            expose_value=False, callback=_log_flag,
            help=f"Record the command in the roll log, or not, whatever {LOG_ENV} says "
            "(auto: when stdout is a terminal; always; never).",
        ))
    return command


def _seed_from_environment() -> bool:
    from typer._click.core import ParameterSource
    from typer._click.globals import get_current_context

    ctx = get_current_context(silent=True)
    return ctx is not None and ctx.get_parameter_source("seed") == ParameterSource.ENVIRONMENT


def make_source(dice: list[int] | None, seed: int | None) -> DiceSource:
    """The dice source. (decision) ``--dice`` with an explicit ``--seed`` is a usage
    error; a seed that only came from ``RPGDICE_SEED`` gives way to ``--dice``, so an
    exported seed does not stop a player from typing the faces they rolled. Without
    either, a fresh seed from the operating system: every roll can be replayed."""
    if dice is not None and seed is not None and not _seed_from_environment():
        raise RulesError("--dice", "cannot be combined with --seed (given faces are not rolled)")
    if dice is not None:
        return GivenDice(dice)
    return SeededDice(fresh_seed() if seed is None else seed)


def run(
    roll: Callable[[DiceSource], R],
    *,
    dice: list[int] | None,
    seed: int | None,
    times: int,
    as_json: bool,
    odds: Callable[[], object] | None = None,
    spec: Callable[[], object] | None = None,
    keys: dict[str, Any] | None = None,
    log_command: str | None = None,
    character: dict[str, Any] | None = None,
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
    as ``--as`` does; it is not logged with the results (a replay pays nothing)."""

    source = make_source(dice, seed)
    all_keys = {"seed": getattr(source, "seed", None), **(keys or {})}
    capture = State.capture
    if capture is not None:  # a replay from the log: collect, print nothing
        capture.spec, capture.seed, capture.keys = spec, all_keys["seed"], all_keys
        if capture.roll:
            if isinstance(source, GivenDice):
                capture.results = [roll(source) for _ in range(times)]
                source.check_all_used()
            else:  # the first results to check, the rest streamed as they are shown
                capture.results = [roll(source) for _ in range(min(times, Capture.HEAD))]
                capture.rest = (roll(source) for _ in range(times - len(capture.results)))
            capture.odds = odds() if odds is not None else None
            capture.total = times
            ctx = _context()
            if ctx is not None and ctx.meta.get(SHEET) is not None:  # shown with its character
                from rpgdice.cli import character as sheet_view

                base = sheet_view.extra_base(ctx)
                capture.results = list(_labelled(capture.results, base))
                capture.rest = _labelled(capture.rest, base)
        return None
    logging = log_wanted()
    exact = odds() if odds is not None else None
    results: Iterable[R] | None = None
    extra = None
    ctx = _context()
    if ctx is not None and ctx.meta.get(SHEET) is not None:
        # --as: a character rolls; what the roll spends is paid from its sheet.
        from rpgdice.cli import character

        results, extra = character.settle(ctx, roll, source, times)
        if results is None:
            results = _rolled(roll, source, times)
        results = character.labelled(results, extra)
    else:
        results = _rolled(roll, source, times)
        if character is not None:
            extra = lambda r: character  # noqa: E731
            results = _labelled(results, character)
    recorder = None
    if logging:
        from rpgdice.table.log import Recorder

        recorder = Recorder(all_keys, faces=dice, command=log_command)
        results = recorder.watch(results)
    from rpgdice.cli.output import emit

    emit(results, as_json=as_json, odds=exact, total=times, extra=extra, keys=all_keys)
    if recorder is not None:
        argv, character = _who_typed_what()
        return recorder.save(argv, character)
    return None


def _labelled(results: Iterable[R], table: dict[str, Any]) -> Iterable[R]:
    """Each result with the character line the view shows (``result.table``)."""
    for r in results:
        r.table = table  # type: ignore[attr-defined]
        yield r


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


ARGV_META = "rpgdice.argv"
"""``ctx.meta`` key of the arguments once an alias is expanded (the aliases of issue 10)."""


def _who_typed_what() -> tuple[list[str], Optional[str]]:
    """The arguments as typed (after alias expansion) and the character rolling."""
    from typer._click.globals import get_current_context

    ctx = get_current_context(silent=True)
    meta = ctx.meta if ctx is not None else {}
    argv = meta.get(ARGV_META) or State.argv or []
    sheet = meta.get(SHEET)  # --as: the sheet's own spelling of the name
    return list(argv), State.character or getattr(sheet, "name", None)


class ExactOdds:
    """The exact odds of a roll (``rpgdice.engine.odds.<function>(*args, **kwargs)``),
    computed only when called, so the odds engine and icepool load on the odds path
    alone. ``key`` names the computation (``log stats`` computes each distinct one once)."""

    __slots__ = ("function", "args", "kwargs")

    def __init__(self, function: str, *args: object, **kwargs: object) -> None:
        self.function, self.args, self.kwargs = function, args, kwargs

    def __call__(self) -> object:
        from rpgdice.engine import odds

        return getattr(odds, self.function)(*self.args, **self.kwargs)

    @property
    def key(self) -> str:
        return repr((self.function, self.args, sorted(self.kwargs.items())))


exact_odds = ExactOdds


def show_odds(odds: Callable[[], object], *, as_json: bool) -> None:
    """An ``odds`` command: compute the exact odds (no dice) and print them."""
    from rpgdice.cli.output import emit_odds

    ctx = _context()
    extra = None
    if ctx is not None and ctx.meta.get(SHEET) is not None:
        from rpgdice.cli import character

        character.check(ctx)
        extra = character.extra_base(ctx)
    emit_odds(odds(), as_json=as_json, extra=extra)


SHEET = "rpgdice.sheet"
"""``ctx.meta`` key of the character a command rolls for (``--as``; cli/character.py)."""


def _context():  # -> click Context | None
    from typer._click.globals import get_current_context

    return get_current_context(silent=True)


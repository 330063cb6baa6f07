"""What every rolling command shares: the ``--dice``/``--seed``/``--times``/``--json``
options, the choice of dice source, and the loop that rolls and hands results on."""

from __future__ import annotations

from typing import Annotated, Callable, Iterable, Optional, TypeVar

import typer

from rpgdice.cli import params
from rpgdice.engine.dice import DiceSource, GivenDice, SeededDice, SystemDice
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
        "on any platform. Also read from RPGDICE_SEED. Without it the dice come from the "
        "operating system (os.urandom).",
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


def _seed_from_environment() -> bool:
    from typer._click.core import ParameterSource
    from typer._click.globals import get_current_context

    ctx = get_current_context(silent=True)
    return ctx is not None and ctx.get_parameter_source("seed") == ParameterSource.ENVIRONMENT


def make_source(dice: list[int] | None, seed: int | None) -> DiceSource:
    """The dice source. (decision) ``--dice`` with an explicit ``--seed`` is a usage
    error; a seed that only came from ``RPGDICE_SEED`` gives way to ``--dice``, so an
    exported seed does not stop a player from typing the faces they rolled."""
    if dice is not None and seed is not None and not _seed_from_environment():
        raise RulesError("--dice", "cannot be combined with --seed (given faces are not rolled)")
    if dice is not None:
        return GivenDice(dice)
    if seed is not None:
        return SeededDice(seed)
    return SystemDice()


def run(
    roll: Callable[[DiceSource], R],
    *,
    dice: list[int] | None,
    seed: int | None,
    times: int,
    as_json: bool,
    odds: Callable[[], object] | None = None,
) -> None:
    """Roll ``times`` times and hand the results to the output as they come.

    Given faces (``--dice``) are all consumed before anything is printed, so a count
    that does not match leaves stdout empty. Random dice cannot run short: the first
    roll is made before anything is printed (any error the roll's spec can raise shows
    there), then the rest stream, so memory stays flat however large ``--times`` is.
    ``odds`` (``--odds``) computes the exact odds of the roll, once, to show beside
    each result."""
    from rpgdice.cli.output import emit

    source = make_source(dice, seed)
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
    emit(results, as_json=as_json, odds=exact, total=times, extra=extra)


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


def exact_odds(function: str, *args: object, **kwargs: object) -> Callable[[], object]:
    """The exact odds of a roll (``rpgdice.engine.odds.<function>``), computed only when
    called, so the odds engine and icepool load on the odds path alone."""

    def compute() -> object:
        from rpgdice.engine import odds

        return getattr(odds, function)(*args, **kwargs)

    return compute


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


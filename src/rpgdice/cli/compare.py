"""Odds that compare choices (``--compare ARGS``) and the odds of a roll type alone
(``rpgdice RULESET odds TYPE ...``), on public Click.

A ruleset's group hands ``odds TYPE ARGS`` to the TYPE command with :data:`ODDS_ALONE`
set (:func:`rpgdice.cli.RulesetGroup.resolve_command`), so a roll type's odds take
exactly its arguments. ``--compare ARGS`` runs the same command again with ``ARGS``
added after its own arguments (a single-valued option given again replaces its value, a
repeatable one adds), odds alone and captured instead of printed: every alternative is
computed by the code that computes the base, never by a second parser.
"""

from __future__ import annotations

import shlex
from typing import Any

from rpgdice.core.errors import RulesError

ODDS_ALONE = "rpgdice.odds_alone"
"""``ctx.meta`` key: the command computes its odds and prints them, and rolls nothing."""
ARGS = "rpgdice.args"
"""``ctx.meta`` key: the arguments the command was given (after its name), as typed."""
COMPARE = "rpgdice.compare"
"""``ctx.meta`` key: the ``--compare`` arguments, in order."""
CAPTURE = "rpgdice.capture"
"""``ctx.meta`` key: while an alternative runs, the list its odds go into."""
MAX_COMPARE = 10
"""The most alternatives one command compares (each is a whole odds computation)."""


def takes_compare(command: Any) -> bool:
    """An ``odds`` command, and every command with ``--odds``."""
    return command.name == "odds" or any(p.name == "odds" for p in command.params)


def add_compare_option(command: Any, panels: dict[str, dict[str, Any]]) -> None:
    """``--compare ARGS`` (repeatable) for an odds-capable command, beside ``--odds``, in
    the output panel of ``panels`` (rpgdice.cli.common.PANELS) in the command's language."""
    from typer.core import TyperOption

    if not takes_compare(command) or any(p.name == "compare" for p in command.params):
        return
    spanish = getattr(command, "language", "en") == "es"
    at = next((i for i, p in enumerate(command.params) if p.name == "help"), len(command.params))
    command.params.insert(at, TyperOption(
        param_decls=["--compare", "compare"], multiple=True, expose_value=False,
        callback=_keep, metavar="ARGS", rich_help_panel=panels["es" if spanish else "en"]["output"],
        help=("Compara las probabilidades con estos argumentos añadidos (repetible): "
              "--compare '--raise 1'.") if spanish else
        "Compare the odds with these arguments added (repeatable): --compare --willpower.",
    ))


def _keep(ctx: Any, param: Any, value: tuple[str, ...]) -> None:
    from rpgdice.core.budget import share_odds_budget

    if CAPTURE not in ctx.meta:  # the command itself, not one of its alternatives
        share_odds_budget(1 + min(len(value), MAX_COMPARE))
    if value:
        if len(value) > MAX_COMPARE:
            raise RulesError("--compare", f"given {len(value)} times; accepts at most {MAX_COMPARE}")
        ctx.meta[COMPARE] = tuple(value)


def odds_alone(ctx: Any) -> bool:
    return ctx is not None and bool(ctx.meta.get(ODDS_ALONE))


def refuse_rolling_options(dice: Any, seed: Any, times: int) -> None:
    """Odds are computed, not rolled: ``odds TYPE`` takes no ``--dice``, ``--seed`` or ``-n``."""
    for name, given in (("--dice", dice is not None), ("--seed", seed is not None),
                        ("--times", times != 1)):
        if given:
            raise RulesError(name, "the odds are computed, not rolled: an odds command takes "
                             "no --dice, --seed or --times")


def captured(ctx: Any, odds: Any) -> bool:
    """While an alternative runs: keep its odds (True); otherwise nothing (False)."""
    box = None if ctx is None else ctx.meta.get(CAPTURE)
    if box is None:
        return False
    box.append(odds)
    return True


def alternatives(ctx: Any) -> list[tuple[str, Any]]:
    """The odds of each ``--compare ARGS``: the command run again, its arguments as given
    (without ``--compare``) and then ``ARGS``, odds alone, captured."""
    if ctx is None or not ctx.meta.get(COMPARE):
        return []
    meta = ctx.meta
    base = _without_compare(list(meta.get(ARGS, ())))
    wanted = meta.pop(COMPARE)
    saved = {k: meta.get(k) for k in (ODDS_ALONE, CAPTURE)}
    out = []
    try:
        for alt in wanted:
            out.append((alt, _one(ctx, base, alt)))
    finally:
        for k, v in saved.items():
            if v is None:
                meta.pop(k, None)
            else:
                meta[k] = v
        meta[COMPARE] = wanted
    return out


def _one(ctx: Any, base: list[str], alt: str) -> Any:
    from rpgdice.cli.typer_private import click

    try:
        extra = shlex.split(alt)
    except ValueError as e:
        raise RulesError("--compare", f"{alt!r}: {e}") from None
    if any(a == "--compare" or a.startswith("--compare=") for a in extra):
        raise RulesError("--compare", f"{alt!r}: an alternative cannot compare again")
    box: list[Any] = []
    ctx.meta[CAPTURE], ctx.meta[ODDS_ALONE] = box, True
    command = ctx.command
    try:
        with command.make_context(ctx.info_name, base + extra, parent=ctx.parent) as sub:
            command.invoke(sub)
    except click.UsageError as e:
        raise RulesError("--compare", f"{alt!r}: {e.format_message()}") from None
    except RulesError as e:
        raise RulesError("--compare", f"{alt!r}: {e}") from None
    if not box:
        raise RulesError("--compare", f"{alt!r} computes no odds")
    return box[0]


def _without_compare(args: list[str]) -> list[str]:
    out: list[str] = []
    skip = False
    for a in args:
        if skip:
            skip = False
        elif a == "--compare":
            skip = True
        elif not a.startswith("--compare="):
            out.append(a)
    return out

"""`rpgdice encounter`: a fight kept round by round — Seyruun initiative rolled once,
the order kept in ``encounter.toml`` (rpgdice.table.encounter), whose turn it is, and
each side's wound, damage and Willpower."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer

from rpgdice.cli.common import Command, RulesetTyper, shares
from rpgdice.rulesets.seyruun.commands import CombatantsArg

app = RulesetTyper(
    command_cls=Command,
    help="The encounter: Seyruun initiative kept round by round, whose turn it is, each "
    "side's wound, damage and Willpower.\n\nWithout a subcommand: the encounter as it stands.",
    rich_markup_mode="markdown",
    invoke_without_command=True,
    no_args_is_help=False,
)

StateJson = Annotated[bool, typer.Option("--json", help="The encounter as one JSON object.")]


def _show(enc: Any, as_json: bool, rolled: Any = None) -> None:
    """The encounter's state; ``rolled``: the initiative it started with, shown above it."""
    from rpgdice.table import encounter

    data = encounter.state(enc)
    if as_json:
        sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
        sys.stdout.flush()
        return
    from rpgdice.render.common import console
    from rpgdice.render.encounter import encounter_view

    out = console()
    if rolled is not None:
        from rich.text import Text

        from rpgdice.render.common import render

        out.print(Text("\n").join(render(rolled, out.width)))
        out.print()
    out.print(encounter_view(data, out.width))


@app.callback(invoke_without_command=True)
def show_cmd(ctx: typer.Context, as_json: StateJson = False) -> None:
    """The encounter as it stands: the round, the order, whose turn it is, and each side's
    wound, damage and Willpower (a character's from its sheet as it is now).

    Example: rpgdice encounter --json
    """
    if ctx.invoked_subcommand is not None:
        return
    from rpgdice.table import encounter

    _show(encounter.need(), as_json)


def start_cmd(
    combatants: CombatantsArg,
    as_json: StateJson = False,
) -> None:
    """Start an encounter: roll Seyruun initiative and keep the order.

    Every combatant rolls Wits + Dexterity, and the order is kept in encounter.toml: a
    saved character by its name, an extra as NAME=WITS+DEXTERITY (the encounter keeps its
    damage and wound). An encounter already running is replaced (a warning says so).
    Logged like a roll.

    Example: rpgdice encounter start ysolde Ghoul=2+2 Thug=2+1
    """
    from rpgdice.cli.common import Work, check_work, current_run
    from rpgdice.core.dice import GivenDice
    from rpgdice.roll.execute import check_output_options, make_source
    from rpgdice.roll.spec import RollSpec
    from rpgdice.rulesets.seyruun import rules as seyruun
    from rpgdice.rulesets.seyruun.initiative import combatant
    from rpgdice.table import encounter

    run = current_run()
    spec = seyruun.SeyruunInitiative(combatants=tuple(combatant(c) for c in combatants))
    roll = RollSpec("seyruun", "initiative", (("combatants", tuple(combatants)),),
                    dice=None if run.dice is None else tuple(run.dice), seed=run.seed,
                    log=run.log_choice, secret=run.secret, short=run.short, json=as_json,
                    argv=tuple(run.argv or ()))
    check_output_options(roll)
    check_work(Work(spec.most_dice, spec.most_rolls), 1)
    if len(combatants) > encounter.MAX_SIDES:
        from rpgdice.core.errors import RulesError

        raise RulesError("COMBATANT", f"more than {encounter.MAX_SIDES} combatants")
    source = make_source(run.dice, run.seed)
    result = seyruun.roll_initiative(spec, source)
    if isinstance(source, GivenDice):
        source.check_all_used()
    characters = {i + 1 for i, c in enumerate(combatants) if c.pool is None}
    enc = encounter.Encounter(1, 0, [
        encounter.Side(e.name, e.rank, True) if e.named in characters else
        encounter.Side(e.name, e.rank, False, encounter.HEALTH, 0, "none")
        for e in result.order])
    _warn_replaced(encounter.start(enc))
    _warn_shadowed(c.name for c in combatants if c.pool is not None)
    _log(result, roll, getattr(source, "seed", None))
    if run.short:
        return _short(result, roll, getattr(source, "seed", None))
    _show(enc, as_json, result)


app.command("start")(start_cmd)
shares(app, without=("times", "json", "odds", "compare"), after=("as_json",))
"""``--dice``, ``--seed``, ``--log``/``--no-log``, ``--short``, ``--secret`` as every roll
has them; its own ``--json`` is the encounter's state."""


def _warn_replaced(before: Any) -> None:
    """Say so when the new encounter replaced one that was running (its extras' damage)."""
    if before is None:
        return
    from rpgdice.cli.output import warning
    from rpgdice.core.errors import shown

    who = ", ".join(shown(side.name) for side in before.order[:6])
    more = f" and {len(before.order) - 6} more" if len(before.order) > 6 else ""
    warning(f"the encounter that was running (round {before.round}: {who}{more}) was replaced; "
            "its extras' damage is gone")


def _warn_shadowed(extras: Any) -> None:
    """An extra named as a saved character is never the one --vs hits: say so now."""
    from rpgdice.cli.output import warning
    from rpgdice.core.errors import shown
    from rpgdice.table import sheets

    for name in extras:
        if sheets.path_of(name).is_file():
            warning(f"the extra {shown(name)} has the name of a saved character: --vs "
                    f"{shown(name)} hits the character's sheet, not the extra; name the extra "
                    "otherwise to hit it")


def _short(result: Any, roll: Any, seed: Any) -> None:
    from rpgdice.core.envelope import Rolled
    from rpgdice.render import short

    short.show([Rolled(result)], {"seed": seed}, list(roll.argv), None)


def _log(result: Any, roll: Any, seed: Any) -> None:
    """Record the initiative the encounter started with, as a roll is recorded: its roll
    value that of ``seyruun initiative`` with the same combatants, which replays it."""
    from rpgdice.roll.execute import log_wanted, stored

    if not log_wanted(roll):
        return
    from rpgdice.cli.output import warning
    from rpgdice.core.envelope import Rolled
    from rpgdice.table.log import Recorder

    faces = None if roll.dice is None else list(roll.dice)
    recorder = Recorder({"seed": seed}, faces=faces, command="initiative")
    for _ in recorder.watch([Rolled(result)]):
        pass
    recorder.save(list(roll.argv), None, warning, secret=roll.secret, roll=stored(roll))


@app.command("next")
def next_cmd(as_json: StateJson = False) -> None:
    """The next turn: the next in the order, or a new round after the last.

    Example: rpgdice encounter next
    """
    from rpgdice.table import encounter

    def advance(enc: Any) -> Any:
        enc.advance()
        return enc

    _show(encounter.update(advance), as_json)


@app.command("end")
def end_cmd() -> None:
    """End the encounter (encounter.toml is removed).

    Example: rpgdice encounter end
    """
    from rpgdice.core.errors import visible
    from rpgdice.table import encounter

    enc = encounter.end()
    sys.stdout.write(f"encounter ended in round {enc.round} "
                     f"({', '.join(visible(s.name) for s in enc.order)})\n")
    sys.stdout.flush()

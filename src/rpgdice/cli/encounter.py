"""`rpgdice encounter`: a fight kept round by round — Seyruun initiative rolled once,
the order kept in ``encounter.toml`` (rpgdice.table.encounter), whose turn it is, and
each side's wound, damage and Willpower."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from rpgdice import rulesets
from rpgdice.cli import params
from rpgdice.cli.groups import showing_group
from rpgdice.cli.made import with_shared
from rpgdice.core.data import JSONObject
from rpgdice.core.errors import RulesError
from rpgdice.rulesets import SHEET_RULESETS

if TYPE_CHECKING:
    from rpgdice.cli.common import Choices
    from rpgdice.core.dice import DiceSource
    from rpgdice.core.record import Tagged
    from rpgdice.table.encounter import Encounter, Side
    from rpgdice.table.sheets import Sheet

app = showing_group(
    "The encounter, in every ruleset: the order kept round by round, whose turn it is, "
    "who joins, leaves, waits or is out, each side's state.\n\nWithout a subcommand: the encounter as it stands.",
)

StateJson = Annotated[bool, typer.Option("--json", help="The encounter as one JSON object.")]


def _show(enc: Encounter, as_json: bool, rolled: Tagged | None = None) -> None:
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
    out.print(encounter_view(data, out.width, enc.ruleset))


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


def _combatant(text: str) -> str:
    """A COMBATANT as typed: ``NAME``, ``NAME=POOL`` or ``NAME@INIT`` (read when the
    command runs, in the encounter's ruleset)."""
    if not isinstance(text, str) or not text.strip() or len(text) > 200:
        raise typer.BadParameter(f"{text!r} is not a combatant")
    return text.strip()


_combatant.completes = "characters"  # type: ignore[attr-defined]  # TAB offers the saved characters
_combatant.accepts = ("a saved character's name, NAME=POOL (a Seyruun extra) or NAME@INIT "  # type: ignore[attr-defined]
                      "(a number or ordinary dice)")

CombatantsArg = Annotated[
    list[str],
    typer.Argument(parser=_combatant, metavar="COMBATANT...", show_default=False,
                   help="A saved character's name; NAME=WITS+DEXTERITY (a Seyruun extra, "
                   "rolling that pool); NAME@INIT, an initiative given (Goblin@14) or rolled "
                   "as ordinary dice (Goblin@1d20+2). --dice faces go to them in this order."),
]
RulesetOpt = Annotated[Optional[str], typer.Option(
    "--ruleset", parser=params.choice(dict.fromkeys(rulesets.built_in(groups=True)),
                                      current=rulesets.group_names), metavar="RULESET",
    help="The encounter's ruleset: " + ", ".join(rulesets.built_in(groups=True))
    + " (default: the first saved "
    "character's; Seyruun when every combatant is NAME=POOL).")]
HealthOpt = Annotated[Optional[int], typer.Option(
    "--health", parser=params.integer(1, 1000), metavar="N",
    help="The health of the extras named in this command (Seyruun boxes, Cypher health).")]


def start_cmd(
    combatants: CombatantsArg,
    ruleset: RulesetOpt = None,
    health: HealthOpt = None,
    as_json: StateJson = False,
    choices: Choices | None = None,
) -> None:
    """Start an encounter: initiative rolled once, the order kept in encounter.toml.

    Seyruun: every combatant rolls Wits + Dexterity (a saved character by its name, an extra
    as NAME=WITS+DEXTERITY). The other rulesets' texts have no initiative rule: each
    combatant gives NAME@INIT (a number, or ordinary dice rolled now) or its sheet's
    initiative trait (rpgdice's reading); highest first, ties in the order named. An
    encounter already running is replaced (a warning says so). Logged like a roll.

    Example: rpgdice encounter start ysolde Ghoul=2+2 Thug=2+1
    """
    from rpgdice.core.dice import GivenDice
    from rpgdice.roll.execute import check_output_options, make_source
    from rpgdice.roll.spec import RollSpec
    from rpgdice.table import encounter

    run = choices
    assert run is not None
    if len(combatants) > encounter.MAX_SIDES:
        raise RulesError("COMBATANT", f"more than {encounter.MAX_SIDES} combatants")
    name = _ruleset_of(combatants, ruleset)
    if rulesets.get(name).fight.initiative:
        roll = RollSpec(name, rulesets.get(name).fight.command, (),
                        dice=None if run.dice is None else tuple(run.dice), seed=run.seed,
                        log=run.log_choice, secret=run.secret, blind=run.blind, short=run.short,
                        json=as_json,
                        argv=tuple(run.argv or ()))
        check_output_options(roll)
        if any("@" not in w for w in combatants):
            return _own_start(roll, combatants, health, as_json)
    source = make_source(run.dice, run.seed)
    sides = _initiative(name, combatants, source, health)
    if isinstance(source, GivenDice):
        source.check_all_used()
    enc = _ordered(name, sides, None, combatants)
    wanted = _wanted(name, run.log_choice, run.secret)  # a bad RPGDICE_LOG: nothing started
    said = "The encounter starts: " + _names([f"{s.name} ({s.initiative})" for s in enc.order])
    said += f" — round {enc.round}, {enc.current.name}'s turn"
    _warn_replaced(encounter.start(enc, then=lambda e: _log_change(
        e, "start", said, wanted, run.argv, secret=run.secret, blind=run.blind)))
    _warn_shadowed(s.name for s in sides if not s.character)
    _show(enc, as_json)


def _own_start(roll: Any, words: list[str], health: Optional[int], as_json: bool) -> None:
    """``encounter start`` with the ruleset's own initiative: its roll (``roll``, the
    command without its arguments yet) executed as that command is, the combatants given
    as ``@INIT`` rolled after it from the same dice; shown as the encounter it starts, and
    logged as the command."""
    from rpgdice.core.envelope import Rolled
    from rpgdice.roll.execute import execute
    from rpgdice.table import encounter

    fight = rulesets.get(roll.ruleset).fight
    _once(words)
    args = _own_args(fight, words)
    placed: dict[str, Any] = {}

    def show(items: Any) -> None:
        rolled = [item.result for item in items][0]
        enc = _ordered(roll.ruleset, placed["sides"], placed["order"], words)
        _warn_replaced(encounter.start(enc))
        _warn_shadowed(s.name for s in placed["sides"] if not s.character)
        if roll.short:
            from rpgdice.render import short

            return short.show([Rolled(rolled)], {"seed": placed["seed"]}, list(roll.argv), None)
        return _show(enc, as_json, rolled)

    execute(roll.replace(args=args), adapt=_placing(roll.ruleset, words, health, args, placed),
            show=show)


def _own_args(fight: Any, words: list[str]) -> Any:
    """The arguments of the ruleset's initiative command for the combatants it rolls."""
    return fight.initiative([w for w in words if "@" not in w])


def _placing(ruleset: str, words: list[str], health: Optional[int], args: Any,
             placed: dict[str, Any]) -> Any:
    """The initiative command's plan, rolling after it, from the same dice, the combatants
    given as ``@INIT``: ``placed`` gets every side in order, the roll's order and seed."""

    def adapt(plan: Any) -> Any:
        own = plan.roll

        def roll(source: Any) -> Any:
            result = own(source)
            order_of = rulesets.get(ruleset).fight.order
            assert order_of is not None  # a fight with its own initiative places its sides
            order = order_of(result, args)
            placed.update(order=order, seed=getattr(source, "seed", None),
                          sides=_initiative(ruleset, words, source, health, order))
            return result

        from dataclasses import replace

        return replace(plan, roll=roll)

    return adapt


def _ordered(ruleset: str, sides: list[Side], order: Any, words: list[str]) -> Encounter:
    """The new encounter: ``sides`` placed by initiative, the first to act; with the
    ruleset's own initiative roll alone (its ``order``), its ranks (ties share one)."""
    from rpgdice.table import encounter

    enc = encounter.Encounter(1, 0, [], ruleset)
    for side in sides:
        enc.add(side)
    if order is not None and not any("@" in w for w in words):
        for side, entry in zip(enc.order, order):
            side.rank = entry[1]
    enc.turn = 0
    return enc


def _ruleset_of(words: list[str], given: Optional[str]) -> str:
    """The encounter's ruleset: ``--ruleset``, or the first saved character's; with
    neither, Seyruun when every combatant is NAME=POOL, else a usage error."""
    if given:
        return given
    from rpgdice.table import sheets

    for word in words:
        name = word.split("@", 1)[0].split("=", 1)[0].strip()
        if "=" not in word and sheets.path_of(name).is_file():
            return sheets.load(name, "COMBATANT").ruleset
    if all("=" in w and "@" not in w for w in words):
        return "seyruun"
    raise RulesError("--ruleset", "which ruleset is this fight in? give --ruleset "
                     + "|".join(SHEET_RULESETS) + " (no combatant is a saved character)")


def _initiative(ruleset: str, words: list[str], source: DiceSource, health: Optional[int],
                order: Optional[list[Any]] = None) -> list[Side]:
    """Each combatant's side with its initiative: with the ruleset's own initiative roll
    (its ``order``), its sides first, then the given ones by initiative; else in the order
    named."""
    from rpgdice.core.names import fold
    from rpgdice.table import encounter, sheets

    fight = rulesets.get(ruleset).fight
    if health is not None and fight.track is None:
        raise RulesError("--health", f"no rule of {rulesets.get(ruleset).title} deals damage, "
                         "so no extra has health to keep: leave out --health")
    extra_health = health if health is not None else fight.health
    _once(words)
    by_name: dict[str, Side] = {}
    if order is not None:
        for name, rank, character, init in order:
            by_name[fold(name)] = encounter.Side(
                name, rank, character, None if character else extra_health,
                None if character else 0,
                None if character else "none", initiative=init)
    sides = []
    for word in words:
        if "@" in word:
            name, _, init = word.partition("@")
            name = name.strip()
            if not name or "=" in name:
                raise RulesError("COMBATANT", f"{word!r} is not NAME@INIT")
            character = sheets.path_of(name).is_file()
            if character:
                sheet = sheets.load(name, "COMBATANT")
                _same_ruleset(sheet, ruleset)
                name = sheet.name
            sides.append(_side(name, character, _number(init, name, source), extra_health,
                               ruleset))
        elif fight.initiative:
            continue  # rolled by the ruleset's own initiative
        elif "=" in word:
            raise RulesError("COMBATANT", f"{word!r}: NAME=POOL is a Seyruun extra; in "
                             f"{rulesets.get(ruleset).title} give NAME@INIT (a number or dice)")
        else:
            sheet = _character(word)
            _same_ruleset(sheet, ruleset)
            init = sheet.get("initiative")
            if init is None:
                raise RulesError("COMBATANT", f"{sheet.name} has no initiative: give "
                                 f"{sheet.name}@INIT (a number or dice), or set the sheet's "
                                 "initiative trait")
            sides.append(_side(sheet.name, True, _number(str(init), sheet.name, source), None,
                               ruleset))
    if order is not None:  # its own roll's order first, then the given ones by initiative
        sides = [by_name[fold(e[0])] for e in order] + [s for s in sides if fold(s.name)
                                                        not in by_name]
    return sides


def _once(words: list[str]) -> None:
    """Each combatant named once."""
    from rpgdice.core.names import fold

    seen: set[str] = set()
    for word in words:
        key = fold(word.split("@", 1)[0].split("=", 1)[0].strip())
        if key in seen:
            raise RulesError("COMBATANT", f"{word.split('@')[0]!r} is named twice")
        seen.add(key)


def _side(name: str, character: bool, init: int, health: Optional[int], ruleset: str) -> Side:
    from rpgdice.table import encounter

    if character:
        return encounter.Side(name, 1, True, initiative=init)
    wound = "none" if ruleset == "seyruun" else None
    return encounter.Side(name, 1, False, health, 0 if health is not None else None, wound,
                          initiative=init)


def _character(name: str) -> Sheet:
    from rpgdice.table import sheets

    try:
        return sheets.load(name, "COMBATANT")
    except RulesError as e:
        if "no character" not in e.message:
            raise
        raise RulesError("COMBATANT", f"{e.message}, or give {name}@INIT for an extra") from None


def _same_ruleset(sheet: Sheet, ruleset: str) -> None:
    if sheet.ruleset != ruleset:
        raise RulesError("COMBATANT", f"{sheet.name} is a {sheet.ruleset} character, and this "
                         f"encounter is {ruleset}")


MAX_INIT = 1_000_000
"""The largest initiative given as a number (as ordinary dice's constants)."""


def _number(text: str, name: str, source: DiceSource) -> int:
    """An initiative given (a whole number) or ordinary dice rolled now."""
    text = text.strip()
    if text.isascii() and text.lstrip("+-").isdigit():
        if len(text) > 9 or abs(int(text)) > MAX_INIT:  # TOML keeps 64 bits, a table far fewer
            raise RulesError("COMBATANT", f"{name}: an initiative is a whole number from "
                             f"-{MAX_INIT:,} to {MAX_INIT:,}")
        return int(text)
    from rpgdice.rulesets.dice import rules as notation
    from rpgdice.rulesets.dice.grammar import first

    try:
        expression = first(text)
    except RulesError as e:
        raise RulesError("COMBATANT", f"{name}: {e.message}") from None
    if expression.worst_case_dice > 100:
        raise RulesError("COMBATANT", f"{name}: more than 100 dice of initiative")
    return notation.roll(expression, source).total


app.command("start")(with_shared(without=("times", "json", "odds", "compare"),
                                 after=("as_json",))(start_cmd))
"""``--dice``, ``--seed``, ``--log``/``--no-log``, ``--short``, ``--secret`` as every roll
has them; its own ``--json`` is the encounter's state."""


def _warn_replaced(before: Encounter | None) -> None:
    """Say so when the new encounter replaced one that was running (its extras' damage)."""
    if before is None:
        return
    from rpgdice.cli.output import warning
    from rpgdice.core.errors import shown

    who = ", ".join(shown(side.name) for side in before.order[:6])
    more = f" and {len(before.order) - 6} more" if len(before.order) > 6 else ""
    track = rulesets.get(before.ruleset).fight.track  # a loaded encounter's keeps sheets
    gone = {"damage": "; its extras' damage is gone",
            "health": "; its extras' health is gone"}.get(track or "", "")
    warning(f"the encounter that was running (round {before.round}: {who}{more}) was "
            f"replaced{gone}")


def _warn_shadowed(extras: Iterable[str]) -> None:
    """An extra named as a saved character is never the one --vs hits: say so now."""
    from rpgdice.cli.output import warning
    from rpgdice.core.errors import shown
    from rpgdice.table import sheets

    for name in extras:
        if sheets.path_of(name).is_file():
            warning(f"the extra {shown(name)} has the name of a saved character: --vs "
                    f"{shown(name)} hits the character's sheet, not the extra; name the extra "
                    "otherwise to hit it")


LogOpt = Annotated[Optional[bool], typer.Option(
    "--log/--no-log", show_default=False,
    help="Log this change, or not (default: as RPGDICE_LOG says, as for a roll).")]


@app.command("next")
def next_cmd(ctx: typer.Context, as_json: StateJson = False, log: LogOpt = None) -> None:
    """The next turn: the next in the order, or a new round after the last. Logged like
    a roll ("Round 2 — Ghoul's turn").

    Example: rpgdice encounter next
    """
    notes: list[str] = []
    _change(_typed(ctx), "next", _next_turn(notes), as_json, log, turn=False, notes=notes)


def _next_turn(notes: list[str]) -> Callable[[Encounter], str]:
    """``encounter next``'s change: the next turn, in words (a condition that ended is
    left in ``notes`` too)."""
    def advance(enc: Encounter) -> str:
        was = enc.current.name
        ended = enc.next_turn()
        said = f"Round {enc.round} — {enc.current.name}'s turn"
        if ended:
            notes.append(f"{was}: {_names(ended)} " + ("ends" if len(ended) == 1 else "end"))
            said += f"; {notes[0]}"
        return said

    return advance


def _put_out(name: str, out: bool) -> Callable[[Encounter], str]:
    """``encounter out`` / ``back``'s change, in words."""
    if out:
        return lambda enc: f"{enc.set_out(name, True).name} is out"
    return lambda enc: f"{enc.set_out(name, False).name} is back in the fight"


def _damage(name: str, amount: int) -> Callable[[Encounter], str]:
    """The GM's screen's damage: ``amount`` more damage (negative: healed) to a combatant,
    within 0 and its health, its wound or state following as its ruleset says
    (``fight.held``, what a secret attack's damage is taken back by): an extra's in the
    encounter, a character's on its sheet (where its ruleset keeps damage there)."""
    from rpgdice.core import registry
    from rpgdice.table import encounter

    def hurt(enc: Encounter) -> str:
        side = enc.order[enc.find(name)]
        fight = registry.get(enc.ruleset).fight
        if side.character:
            return _hurt_sheet(side.name, enc.ruleset, amount)
        if fight.track is None or side.health is None or side.damage is None:
            raise RulesError("NAME", f"{side.name} takes no damage in this encounter "
                             "(its ruleset deals none, or it has no health)")
        now = fight.held(encounter.state_of(side, enc.ruleset), {"damage": amount})
        side.damage = int(now.get("damage", side.damage))
        if side.wound is not None and isinstance(now.get("wound"), str):
            side.wound = now["wound"]
        return (f"{side.name} takes {amount} damage" if amount >= 0
                else f"{side.name} heals {-amount} damage") + f" ({side.damage}/{side.health})"

    return hurt


def _hurt_sheet(name: str, ruleset: str, amount: int) -> str:
    """``amount`` more damage to a character's sheet, its wound following (``fight.side``
    reads it, ``fight.held`` moves it): a ruleset whose sheets keep no damage and health
    (Cypher's Pools) is refused, naming ``char set``."""
    from rpgdice.core import registry
    from rpgdice.table import sheets

    fight = registry.get(ruleset).fight
    said: list[str] = []

    def pay(sheet: Sheet) -> tuple[dict[str, Any], None]:
        state = dict(fight.side(sheet)) if fight.side is not None else {}
        damage, health = state.get("damage"), state.get("health")
        if fight.track is None or not isinstance(damage, int) or not isinstance(health, int):
            raise RulesError("NAME", f"{sheet.name}'s sheet keeps no damage to add to: "
                             f"rpgdice char set {sheet.name} ...")
        now = fight.held(state, {"damage": amount})
        said.append(f"{sheet.name} " + (f"takes {amount} damage" if amount >= 0 else
                                        f"heals {-amount} damage")
                    + f" ({now['damage']}/{health})")
        return {k: now[k] for k in ("damage", "wound") if now.get(k) is not None}, None

    sheets.settle(name, ruleset, pay, "NAME")
    return said[0]


CONTROLS = {"next": lambda name, amount, notes: _next_turn(notes),
            "out": lambda name, amount, notes: _put_out(name, True),
            "back": lambda name, amount, notes: _put_out(name, False),
            "damage": lambda name, amount, notes: _damage(name, amount)}
"""The GM's screen's encounter controls (rpgdice serve's ``POST /api/encounter``), each
the change its command makes."""


def control(action: str, name: Optional[str], amount: Optional[int]) -> Any:
    """A control of the GM's screen (``rpgdice serve``): the change ``encounter ACTION``
    makes, logged as it logs it (whatever ``RPGDICE_LOG`` says, as a seat's roll is),
    nothing printed; the answer (rpgdice.cli.seated.Answer): 200 with ``said`` and the
    encounter's state, or 400 with the one-line reason."""
    from rpgdice.cli.seated import Answer
    from rpgdice.table import encounter

    notes: list[str] = []
    argv = ["encounter", action, *([name] if name is not None and action != "next" else []),
            *([str(amount)] if amount is not None else [])]
    try:
        change = CONTROLS[action](name or "", amount or 0, notes)
        enc, said = _applied(argv, action, change, True, turn=action != "next")
    except RulesError as e:
        from rpgdice.render import output

        return Answer(400, {"error": output.one_line(str(e), e.echo)})
    return Answer(200, {"said": said, "encounter": encounter.state(enc)})


def add_cmd(combatants: CombatantsArg, health: HealthOpt = None,
            as_json: StateJson = False, log: LogOpt = None,
            choices: Choices | None = None) -> None:
    """Combatants join the fight, each at the place its initiative gives (rolled now as at
    start; --dice gives the faces for the newcomers' initiative); placed before the
    current turn, a newcomer first acts next round. Logged like a roll ("Goblin joins
    (initiative 14)").

    Example: rpgdice encounter add Goblin@1d20+2 --health 6
    """
    from rpgdice.core.dice import GivenDice
    from rpgdice.roll.execute import Capture, execute, make_source
    from rpgdice.roll.spec import RollSpec
    from rpgdice.table import encounter

    run = choices
    assert run is not None
    dice = None if run.dice is None else tuple(run.dice)
    ruleset = encounter.need().ruleset
    fight = rulesets.get(ruleset).fight
    if fight.initiative and any("@" not in w for w in combatants):
        _once(combatants)  # the ruleset's own roll executed as its command is, shown and logged by none
        args = _own_args(fight, combatants)
        placed: dict[str, Any] = {}
        execute(RollSpec(ruleset, fight.command, args, dice=dice, seed=run.seed),
                capture=Capture(roll=True),
                adapt=_placing(ruleset, combatants, health, args, placed))
        sides = placed["sides"]
    else:
        source = make_source(run.dice, run.seed)
        sides = _initiative(ruleset, combatants, source, health)
        if isinstance(source, GivenDice):
            source.check_all_used()

    def join(enc: Encounter) -> str:
        for side in sides:
            enc.add(side)
        return "; ".join(f"{s.name} joins (initiative {s.initiative})" for s in sides)

    _change(run.argv, "add", join, as_json, log, shadowed=[s.name for s in sides if not s.character])


app.command("add")(with_shared(without=("seed", "times", "json", "odds", "compare", "log_choice",
                                        "short", "secret"),
                               after=("as_json", "log"))(add_cmd))
"""``--dice`` as ``encounter start`` has it (the faces of the newcomers' initiative);
its own ``--json`` is the encounter's state, its own ``--log`` the change's."""


def _name(text: str) -> str:
    """A combatant of the encounter, by name (matched as names are when the command runs)."""
    if not isinstance(text, str) or not text.strip():
        raise typer.BadParameter(f"{text!r} is not a combatant's name")
    return text.strip()


_name.accepts = "the name of a combatant of the encounter"  # type: ignore[attr-defined]
_name.completes = "characters"  # type: ignore[attr-defined]
_name.also_completes = "extras"  # type: ignore[attr-defined]  # TAB: the encounter's extras too

NameArg = Annotated[str, typer.Argument(parser=_name, metavar="NAME", show_default=False,
                                        help="A combatant of the encounter.")]


def _wanted(ruleset: str, log: Optional[bool], secret: bool = False) -> bool:
    """Whether a change is logged: ``--log``/``--no-log``, else ``RPGDICE_LOG``, as for a
    roll (asked before the change: a bad ``RPGDICE_LOG`` changes nothing)."""
    from rpgdice.roll.execute import check_output_options, log_wanted
    from rpgdice.roll.spec import RollSpec

    spec = RollSpec(ruleset, "encounter", (), log=log, secret=secret)
    check_output_options(spec)  # --secret --no-log
    return log_wanted(spec)


def _typed(ctx: typer.Context) -> Optional[list[str]]:
    """The words of the command line ``ctx`` belongs to, as typed (logged with a change)."""
    from rpgdice.cli.common import current_run

    return current_run(ctx).argv


def _change(argv: Optional[list[str]], name: str, change: Callable[[Encounter], str],
            as_json: bool, log: Optional[bool], *, turn: bool = True,
            shadowed: Iterable[str] = (), notes: Iterable[str] = ()) -> None:
    """Apply ``change(enc)`` (which returns the change in words) under the encounter's
    lock, log it there once written (so the log's order is the changes' order), show the
    state. ``turn``: say whose turn it is after it when the change moved it. A change
    that fails (a bad name) raises before anything is written or logged. ``argv``: the
    line's words as typed, logged with the change. ``notes``: lines ``change`` leaves
    there to print above the state too (a condition that ended)."""
    enc, _ = _applied(argv, name, change, log, turn=turn)
    _warn_shadowed(shadowed)
    if not as_json:
        from rpgdice.core.errors import visible

        sys.stdout.writelines(visible(note) + "\n" for note in notes)
    _show(enc, as_json)


def _applied(argv: Optional[list[str]], name: str, change: Callable[[Encounter], str],
             log: Optional[bool], *, turn: bool = True) -> tuple[Encounter, str]:
    """Apply ``change(enc)`` under the encounter's lock and log it there once written;
    the encounter after it, and the change in words."""
    from rpgdice.table import encounter

    wanted = _wanted(encounter.need().ruleset, log)
    said: list[str] = []

    def apply(enc: Encounter) -> Encounter:
        before = (enc.round, enc.current.name)
        text = change(enc)
        if turn and (enc.round, enc.current.name) != before:
            text += f" — round {enc.round}, {enc.current.name}'s turn"
        said.append(text)
        return enc

    enc = encounter.update(apply, then=lambda e: _log_change(e, name, said[0], wanted, argv))
    return enc, said[0]


def _names(names: list[str], most: int = 12) -> str:
    return ", ".join(names[:most]) + (f" and {len(names) - most} more" if len(names) > most
                                      else "")


def _log_change(enc: Encounter, change: str, said: str, wanted: bool,
                argv: Optional[list[str]], *, ended: bool = False, secret: bool = False,
                blind: bool = False) -> None:
    """Record a change of the fight in the roll log as a roll is recorded, so that
    ``log`` tells the fight's story (rpgdice.core.changes): command ``encounter CHANGE``,
    one result with the change in words and the state after it. No roll: ``again`` and
    ``log stats`` pass it by. A log that cannot be written costs nothing but a warning."""
    if not wanted:
        return
    from rpgdice.cli.output import warning
    from rpgdice.core import changes
    from rpgdice.table import encounter
    from rpgdice.table.log import Entry, LogUnavailable
    from rpgdice.table.log.store import write_entry

    command = changes.command(change)
    result: JSONObject = {"ruleset": enc.ruleset, "command": command, "outcome": None, "said": said,
              "encounter": None if ended else encounter.state(enc)}
    argv = list(argv or sys.argv[1:])  # the words as typed, else the process's
    try:
        write_entry(Entry(argv=argv, character=None, ruleset=enc.ruleset, command=command,
                          seed=None, faces=None, count=1, outcome=None, results=[result],
                          secret=secret, blind=blind))
    except (LogUnavailable, OSError) as e:
        warning(f"the change was not logged: {e}")


@app.command("rm")
def rm_cmd(ctx: typer.Context, name: NameArg, as_json: StateJson = False, log: LogOpt = None) -> None:
    """A combatant leaves the fight: the order closes up (its turn, if it was its turn,
    passes to the next).

    Example: rpgdice encounter rm Thug
    """
    _change(_typed(ctx), "rm", lambda enc: f"{enc.remove(name).name} leaves the fight", as_json, log)


@app.command("delay")
def delay_cmd(
    ctx: typer.Context,
    after: Annotated[Optional[str], typer.Option(
        "--after", parser=_name, metavar="NAME", help="Act after NAME (default: last).")] = None,
    as_json: StateJson = False,
    log: LogOpt = None,
) -> None:
    """The current combatant waits: it acts after NAME (or last) this round and keeps that
    place in later rounds; the turn passes on.

    Example: rpgdice encounter delay --after Ghoul
    """
    def wait(enc: Encounter) -> str:
        side = enc.delay(after)
        return f"{side.name} waits until " + (
            f"after {enc.order[enc.find(after)].name}" if after else "last")

    _change(_typed(ctx), "delay", wait, as_json, log)


@app.command("out")
def out_cmd(ctx: typer.Context, name: NameArg, as_json: StateJson = False, log: LogOpt = None) -> None:
    """A combatant is out of the fight: shown as out, skipped by next (its turn, if it was
    its turn, passes on).

    Example: rpgdice encounter out Thug
    """
    _change(_typed(ctx), "out", _put_out(name, True), as_json, log)


@app.command("back")
def back_cmd(ctx: typer.Context, name: NameArg, as_json: StateJson = False, log: LogOpt = None) -> None:
    """A combatant put out (encounter out) is back in the fight. One out on its own (its
    damage at its health) comes back when healed.

    Example: rpgdice encounter back Thug
    """
    _change(_typed(ctx), "back", _put_out(name, False), as_json, log)


def _condition(text: str) -> str:
    """A CONDITION as given: 1 to 40 characters (a control character counts one)."""
    from rpgdice.table import encounter

    try:
        return encounter.check_condition(text)
    except RulesError as e:
        raise typer.BadParameter(e.message) from None


_condition.accepts = "a condition, 1 to 40 characters"  # type: ignore[attr-defined]


def _condition_had(text: str) -> str:
    """A CONDITION NAME has (TAB offers NAME's conditions)."""
    return _condition(text)


_condition_had.accepts = "a condition NAME has"  # type: ignore[attr-defined]
_condition_had.completes = "conditions"  # type: ignore[attr-defined]


def _combatant_name(text: str) -> str:
    """A combatant of the encounter, by name (TAB offers the encounter's names)."""
    return _name(text)


_combatant_name.accepts = _name.accepts  # type: ignore[attr-defined]
_combatant_name.completes = "combatants"  # type: ignore[attr-defined]

MarkedArg = Annotated[str, typer.Argument(parser=_combatant_name, metavar="NAME",
                                          show_default=False, help="A combatant of the encounter.")]

@app.command("mark")
def mark_cmd(
    ctx: typer.Context,
    name: MarkedArg,
    condition: Annotated[str, typer.Argument(
        parser=_condition, metavar="CONDITION", show_default=False,
        help='The condition, as it is shown (prone, "blessed +1"): 1 to 40 characters.')],
    rounds: Annotated[Optional[int], typer.Option(
        "--rounds", parser=params.integer(1, 1000), metavar="N",
        help="It lasts N of NAME's turns (its turn under way counts): each next that ends "
        "one counts one down (default: until unmarked).")] = None,
    as_json: StateJson = False,
    log: LogOpt = None,
) -> None:
    """NAME has a condition, for N of its turns or until unmarked (marked again, its
    rounds start over); shown beside NAME in the encounter. Logged like a roll.

    Example: rpgdice encounter mark Ghoul prone --rounds 2
    """
    def mark(enc: Encounter) -> str:
        side = enc.mark(name, condition, rounds)
        return f"{side.name} is {condition}" + (
            "" if rounds is None else f" for {rounds} round{'s' if rounds != 1 else ''}")

    _change(_typed(ctx), "mark", mark, as_json, log)


@app.command("unmark")
def unmark_cmd(
    ctx: typer.Context,
    name: MarkedArg,
    condition: Annotated[Optional[str], typer.Argument(
        parser=_condition_had, metavar="[CONDITION]", show_default=False,
        help="The condition that ends (default: all of NAME's).")] = None,
    as_json: StateJson = False,
    log: LogOpt = None,
) -> None:
    """A condition of NAME ends, or all of NAME's. Logged like a roll.

    Example: rpgdice encounter unmark Ghoul prone
    """
    def unmark(enc: Encounter) -> str:
        side, ended = enc.unmark(name, condition)
        return f"{side.name}: {_names(ended)} " + ("ends" if len(ended) == 1 else "end")

    _change(_typed(ctx), "unmark", unmark, as_json, log)


@app.command("end")
def end_cmd(ctx: typer.Context, log: LogOpt = None) -> None:
    """End the encounter (encounter.toml is removed). Logged like a roll.

    Example: rpgdice encounter end
    """
    from rpgdice.core.errors import visible
    from rpgdice.table import encounter

    argv = _typed(ctx)
    wanted = _wanted(encounter.need().ruleset, log)

    def said(enc: Encounter) -> str:
        return f"The encounter ends in round {enc.round} ({_names([s.name for s in enc.order])})"

    enc = encounter.end(then=lambda e: _log_change(e, "end", said(e), wanted, argv, ended=True))
    sys.stdout.write(f"encounter ended in round {enc.round} "
                     f"({', '.join(visible(s.name) for s in enc.order)})\n")
    sys.stdout.flush()

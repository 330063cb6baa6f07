"""The one function that executes a roll: :func:`execute`.

Every path that rolls comes here with a :class:`~rpgdice.roll.spec.RollSpec`: the one-shot
commands, ``rpgdice play``, ``again``, ``log show --replay``, ``log stats``, ``--compare``,
``seyruun reroll`` and the table's server. It finds the command's builder in its ruleset's
folder, which makes the :class:`~rpgdice.roll.plan.Plan`; then it checks the work, picks the
dice source, spends from the character's sheet under its lock, rolls, hands the results to
the output as they come, and records the roll — its spec as data — in the roll log.

While a spec executes, its :class:`Turn` is what a builder may read of the run (the
character's sheet, what its arguments named, the target): given to a builder that takes
it (its keyword ``run``), never read from a parser's context or a global.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from typing import Any, Optional

from rpgdice.core.budget import check_work, share_odds_budget
from rpgdice.core.dice import DiceSource, GivenDice, SeededDice, fresh_seed
from rpgdice.core.envelope import EMPTY, Envelope, Rolled
from rpgdice.core.environ import environment
from rpgdice.core.errors import RulesError
from rpgdice.render.output import emit
from rpgdice.roll.plan import Plan
from rpgdice.roll.run import Capture, Turn
from rpgdice.roll.spec import RollSpec, StoredRecord
from rpgdice.roll.target import targeted

MAX_SEED = 2**64 - 1
SEED_ENV = "RPGDICE_SEED"
LOG_ENV = "RPGDICE_LOG"
LOG_MODES = ("auto", "always", "never")
"""``RPGDICE_LOG``: ``auto`` (the default) logs a command whose stdout is a terminal."""

BUILDERS: dict[tuple[str, str], Callable[..., Plan]] = {}
"""Each ruleset command's builder, ``(ruleset, command) -> builder(**args) -> Plan``,
registered as its ``commands.py`` loads (:func:`builder`)."""




# Builders ---------------------------------------------------------------------------


ODDS_COMMANDS: set[tuple[str, str]] = set()
"""The commands that give a roll's odds alone (``rpgdice RULESET odds ...``): their builder
is often the roll's own."""


def register(ruleset: str, command: str, build: Callable[..., Plan], *,
             odds: bool = False) -> None:
    """``build`` makes the plan of ``ruleset``'s ``command`` (``odds``: its odds alone)."""
    BUILDERS[(ruleset, command)] = build
    if odds:
        ODDS_COMMANDS.add((ruleset, command))


def builder(ruleset: str, command: str) -> Callable[..., Plan]:
    """The builder of ``ruleset``'s ``command`` (its command's record's, the records loaded
    once); a RulesError for a command that is no roll of a registered ruleset."""
    key = (ruleset, command)
    if key not in BUILDERS:
        from rpgdice.core import registry

        try:
            record = registry.get(ruleset)
        except KeyError:
            raise RulesError("ruleset", f"{ruleset!r} is not a ruleset this rpgdice knows") from None
        for made in record.records():
            register(ruleset, made.name, made.build, odds=made.kind == "odds")
    try:
        return BUILDERS[key]
    except KeyError:
        raise RulesError("command", f"'{ruleset} {command}' is not a roll this rpgdice knows") from None


def arguments(spec: RollSpec, build: Callable[..., Plan]) -> dict[str, Any]:
    """The spec's arguments as its builder takes them: a record stored as data (a
    Seyruun combatant) made again by the builder's module, and nothing else."""
    args = spec.kwargs
    try:
        held = _records_held(spec.args)
    except TypeError:  # a value that cannot be a key (held or not, looked at anew)
        held = any(_has_record(v) for v in args.values())
    if not held:
        return args
    module = sys.modules[build.__module__]

    def made(value: Any) -> Any:
        if isinstance(value, StoredRecord):
            from dataclasses import is_dataclass

            from rpgdice.core.rebuild import from_data

            cls = getattr(module, value.name, None) if value.name.isidentifier() else None
            if not (isinstance(cls, type) and is_dataclass(cls)
                    and cls.__module__ == module.__name__):
                raise RulesError("roll", f"the stored roll names no record of {spec.ruleset}")
            return from_data(cls, value.data)
        if isinstance(value, tuple):
            return tuple(made(v) for v in value)
        return value

    return {k: made(v) for k, v in args.items()}


@functools.lru_cache(maxsize=256)
def _records_held(args: tuple[tuple[str, Any], ...]) -> bool:
    """Whether a spec's arguments hold a stored record, once per arguments (a session's
    lines execute the same arguments again and again)."""
    return any(_has_record(v) for _, v in args)


def _has_record(value: Any) -> bool:
    if isinstance(value, StoredRecord):
        return True
    return isinstance(value, tuple) and any(map(_has_record, value))


def plan_of(spec: RollSpec, run: Optional[Turn] = None) -> Plan:
    """The plan the spec's command makes of its arguments (and of the run, for a builder
    that reads it: the character's sheet, whether it replays)."""
    build = builder(spec.ruleset, spec.command)
    args = arguments(spec, build)
    if run is not None and _takes_run(build):
        args["run"] = run
    return build(**args)


MAX_KEPT = 256
"""The most plans :func:`kept_plan` keeps (all are let go when it is full)."""

_KEPT: dict[int, tuple[RollSpec, Plan]] = {}
"""Reusable plans by the identity of the spec they were made for (the spec kept beside its
plan, so that its identity is not another's while the plan is kept)."""


def kept_plan(spec: RollSpec, run: Turn) -> Plan:
    """The plan of a spec its caller executes again and again (``execute(keep=True)``): made
    once when its builder says it is reusable (:attr:`Plan.reusable`) and nothing but the
    spec goes into it (no character's sheet, no target, no extras), else made anew."""
    if run.sheet is not None or run.extras or spec.character is not None or run.capture is not None:
        return plan_of(spec, run)
    plan = _kept(spec)
    if plan is not None:
        return plan
    plan = plan_of(spec, run)
    if plan.reusable:
        if len(_KEPT) >= MAX_KEPT:
            _KEPT.clear()
        _KEPT[id(spec)] = (spec, plan)
    return plan


def _kept(spec: RollSpec) -> Optional[Plan]:
    """The plan kept for this very spec (:func:`kept_plan`), or None."""
    found = _KEPT.get(id(spec))
    return found[1] if found is not None and found[0] is spec else None


def _takes_run(build: Callable[..., Plan]) -> bool:
    """Whether a builder takes the run it is part of (its keyword ``run``)."""
    found = _RUN_TAKERS.get(build)
    if found is None:
        import inspect

        found = _RUN_TAKERS[build] = "run" in inspect.signature(build).parameters
    return found


_RUN_TAKERS: dict[Callable[..., Plan], bool] = {}


# The dice source and the log's choice ---------------------------------------------------


def seed_from_environment() -> int | None:
    """``RPGDICE_SEED``'s seed; None when it is unset, empty or blank."""
    text = environment(SEED_ENV).strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit()) or int(text) > MAX_SEED:
        raise RulesError(SEED_ENV, f"{text!r} is not a whole number from 0 to {MAX_SEED}"
                         if len(text) < 64 else f"is not a whole number from 0 to {MAX_SEED}")
    return int(text)


def make_source(dice: Optional[Iterable[int]], seed: int | None) -> DiceSource:
    """The dice source. (decision) ``--dice`` with an explicit ``--seed`` is a usage
    error; a seed from ``RPGDICE_SEED`` gives way to ``--dice`` (it is not even read,
    so a stale or mistyped one does not matter), so an exported seed does not stop a
    player from typing the faces they rolled. Without either, a fresh seed from the
    operating system: every roll can be replayed."""
    if dice is not None and seed is not None:
        raise RulesError("--dice", "cannot be combined with --seed (given faces are not rolled)")
    if dice is not None:
        return GivenDice(list(dice))
    if seed is None:
        seed = seed_from_environment()
    return SeededDice(fresh_seed() if seed is None else seed)


def log_wanted(spec: RollSpec) -> bool:
    """Whether the roll is recorded: ``--log``/``--no-log``, else ``RPGDICE_LOG``."""
    if spec.secret:  # a secret roll is logged, so that it can be revealed
        return True
    if spec.log is not None:
        return spec.log
    mode = environment(LOG_ENV).strip().lower() or "auto"
    if mode == "always":
        return True
    if mode == "never":
        return False
    if mode != "auto":
        raise RulesError(LOG_ENV, f"{mode!r} is not one of {', '.join(LOG_MODES)}")
    try:  # asked at every roll: a server's stdout answers for the thread that asks
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def check_output_options(spec: RollSpec) -> None:
    """``--short`` with ``--json`` and ``--secret`` with ``--no-log`` are usage errors."""
    if spec.short and spec.json:
        raise RulesError("--short", "cannot be combined with --json (one is for people, the "
                         "other for programs)")
    if spec.secret and spec.log is False:
        raise RulesError("--blind" if spec.blind else "--secret", "cannot be combined with "
                         "--no-log (a secret roll is "
                         "logged, so that it can be revealed)")


def refuse_rolling_options(spec: RollSpec) -> None:
    """Odds are computed, not rolled: ``odds TYPE`` takes no ``--dice``, ``--seed`` or ``-n``."""
    for name, given in (("--dice", spec.dice is not None), ("--seed", spec.seed is not None),
                        ("--times", spec.times != 1)):
        if given:
            raise RulesError(name, "the odds are computed, not rolled: an odds command takes "
                             "no --dice, --seed or --times")


# Executing ----------------------------------------------------------------------------


def execute(spec: RollSpec, *, sheet: Any = None, capture: Optional[Capture] = None,
            extras: Optional[dict[str, Any]] = None,
            adapt: Optional[Callable[[Plan], Plan]] = None,
            show: Optional[Callable[[Iterable[Any]], None]] = None,
            keep: bool = False) -> Optional[int]:
    """Execute ``spec``: build its plan, spend, roll, render, log. Returns the log entry's
    ID (None when nothing was logged). ``sheet``: the character's sheet as parsing read it
    (else read here when the spec names a character and something is to be paid);
    ``capture``: a replay, which collects instead of printing, paying or logging;
    ``adapt(plan)``: the plan a caller rolls more with, from the same source (``encounter
    start``: the initiatives given as dice, after the ruleset's own roll); ``show(items)``:
    how the results are shown instead of the output's way (``encounter start``: its state
    after the roll). ``keep``: the caller keeps this very spec and executes it again (a
    session's line typed again): a plan its builder calls reusable is kept for it
    (:func:`kept_plan`)."""
    if capture is None:  # the roll itself, not a replay or one of its alternatives
        share_odds_budget(1 + len(spec.compare))  # each alternative is a whole computation
    plain = keep and sheet is None and not extras and capture is None and adapt is None
    plan = _kept(spec) if plain else None
    if plan is not None:  # executed before, its plan kept: no character, no target to read
        state = Turn(spec)
    else:
        if spec.character is not None and not spec.character.resolved:  # a line just parsed
            from rpgdice.roll.character import resolved

            spec, sheet = resolved(spec, sheet)
        elif sheet is None and spec.character is not None and capture is None:
            from rpgdice.table import sheets

            sheet = sheets.load(spec.character.name, "--as")
        spec, found = targeted(spec)  # a roll's target (--vs): read, its traits resolved
        if found:
            extras = {**(extras or {}), **found}
        state = Turn(spec, sheet, capture, extras)
        keep = keep and not found and adapt is None
    if not spec.secret or capture is not None or spec.odds_alone:
        return _planned(spec, state, adapt, show, keep, plan)
    from rpgdice.table import making

    with making.secret():  # what it pays shown nowhere before its entry is logged
        return _planned(spec, state, adapt, show, keep, plan)


def _planned(spec: RollSpec, state: Turn, adapt: Optional[Callable[[Plan], Plan]],
             show: Optional[Callable[[Iterable[Any]], None]], keep: bool = False,
             plan: Optional[Plan] = None) -> Optional[int]:
    """Plan (a target may pay here), then roll, show and log, or compute the odds alone.
    ``plan``: the plan kept for the spec (:func:`kept_plan`), made already."""
    if plan is None and keep:
        plan = kept_plan(spec, state)
    elif plan is None:
        plan = plan_of(spec, state) if adapt is None else adapt(plan_of(spec, state))
    if plan.roll is None or spec.odds_alone or (spec.ruleset, spec.command) in ODDS_COMMANDS:
        if spec.odds_alone and state.capture is None:
            refuse_rolling_options(spec)
        _odds_only(spec, plan, state)
        return None
    try:
        return _rolled(spec, plan, state, show)
    except (RulesError, OSError):  # nothing was shown, nor logged: nothing is changed
        if plan.effects is not None:
            plan.effects.undo()
        raise


def _odds_only(spec: RollSpec, plan: Plan, state: Turn) -> None:
    """An odds command, or a roll type's odds alone: computed and printed (captured for a
    replay or a comparison)."""
    if plan.odds is None:
        raise RulesError(spec.command, "this command has no exact odds")
    if state.capture is not None:
        state.capture.spec = plan.odds
        state.capture.odds = plan.odds()
        return
    from rpgdice.render.output import emit_odds

    exact = plan.odds()
    extra = None
    if spec.character is not None:
        from rpgdice.roll import character

        character.check(state, spec)
        extra = character.base(state)
    emit_odds(exact, as_json=spec.json, extra=extra, compare=alternatives(spec))


def alternatives(spec: RollSpec) -> list[tuple[str, Any]]:
    """The exact odds of each ``--compare`` alternative, in order."""
    out = []
    for typed, alt in spec.compare:
        cap = Capture(roll=False)
        execute(alt.replace(odds_alone=True, compare=()), capture=cap)
        out.append((typed, cap.odds))
    return out


def _rolled(spec: RollSpec, plan: Plan, state: Turn,
            show: Optional[Callable[[Iterable[Any]], None]] = None) -> Optional[int]:
    if plan.secret and not spec.secret:  # a secret roll's re-roll is secret itself
        spec = spec.replace(secret=True)
    if plan.blind and not spec.blind:  # and a blind one's blind
        spec = spec.replace(blind=True)
    times = spec.times if plan.times is None else plan.times
    check_output_options(spec)
    check_work(plan.work, spec.times)
    source = make_source(spec.dice, spec.seed)
    all_keys = {"seed": getattr(source, "seed", None), **(plan.keys or {})}
    if state.capture is not None:  # a replay: collect, print nothing
        _collect(state, plan, source, times, all_keys)
        return None
    logging = log_wanted(spec)
    odds = plan.odds if spec.odds else None
    exact = odds() if odds is not None else None
    compared = alternatives(spec) if exact is not None else []  # before anything is paid
    items = _enveloped(*_paid_rolls(state, plan, source, times), plan.target)
    recorder = None
    if logging:
        from rpgdice.table.log import Recorder

        recorder = Recorder(all_keys, faces=None if spec.dice is None else list(spec.dice),
                            command=plan.log_command)
        items = recorder.watch(items)
    try:
        if show is not None:
            show(items)
        else:
            _shown(spec, state, items, as_json=spec.json, odds=exact, total=times, keys=all_keys,
                   compact=plan.compact, compare=compared)
    except OSError:
        from rpgdice.roll.character import refund

        refund(state)
        raise
    if recorder is not None:
        from rpgdice.render.output import warning
        from rpgdice.roll.odds import ExactOdds

        stats = plan.stats
        state.entry = recorder.save(
            list(spec.argv), _who(spec, state), warning,
            spec=stats.data() if isinstance(stats, ExactOdds) else None,
            odds=odds.data() if isinstance(odds, ExactOdds) else None,
            secret=spec.secret or spec.blind, roll=stored(spec), blind=spec.blind)
    if plan.effects is not None:
        plan.effects.finish(state.entry)
    return state.entry


def stored(spec: RollSpec) -> Optional[dict[str, Any]]:
    """The spec as the log keeps it (None when it holds what no JSON can)."""
    try:
        return spec.data()
    except (TypeError, ValueError):
        return None


def _who(spec: RollSpec, state: Turn) -> Optional[str]:
    if state.sheet is not None:
        return str(state.sheet.name)
    if spec.character is not None:
        return spec.character.name
    if state.extras.get("character"):
        return str(state.extras["character"])
    return None


def _shown(spec: RollSpec, state: Turn, items: Iterable[Any], **kwargs: Any) -> None:
    """The results shown: ``--short``, one line each, else as the output shows them."""
    if spec.short:
        from rpgdice.render import short

        short.show(items, kwargs["keys"], list(spec.argv), _who(spec, state))
        return
    emit(items, **kwargs)


def _paid_rolls(state: Turn, plan: Plan, source: DiceSource, times: int,
                ) -> tuple[Iterable[Any], Callable[[Any], Any] | None]:
    """The rolls, and what each shows of the character who rolled: with ``--as`` paid
    from its sheet, else the ``character`` a command paid itself."""
    roll = plan.roll
    assert roll is not None
    if state.sheet is not None:
        from rpgdice.roll import character

        results, paid = character.settle(state, plan, source, times)
        return (results if results is not None else _results(roll, source, times)), paid
    paid_itself = plan.character
    shown = (lambda r: paid_itself) if paid_itself is not None else None
    return _results(roll, source, times), shown


def _collect(state: Turn, plan: Plan, source: DiceSource, times: int,
             all_keys: dict[str, Any]) -> None:
    """A replay: the rolls collected into the capture, nothing printed, paid or logged."""
    capture = state.capture
    assert capture is not None and plan.roll is not None
    capture.spec = plan.stats
    capture.seed, capture.keys = all_keys["seed"], all_keys
    capture.compact = plan.compact
    if not capture.roll:
        return
    roll = _paced(state, plan, capture)
    if isinstance(source, GivenDice):
        capture.results = [roll(source) for _ in range(times)]
        source.check_all_used()
    else:  # the first results to check, the rest streamed as they are shown
        capture.results = [roll(source) for _ in range(min(times, capture.head))]
        capture.rest = (roll(source) for _ in range(times - len(capture.results)))
    capture.odds = plan.odds() if plan.odds is not None and state.spec.odds else None
    capture.total = times
    table: Callable[[Any], dict[str, Any]] | None = None
    if state.spec.character is not None:  # shown with its character
        from rpgdice.roll import character

        base = character.base(state)
        table = lambda r: base  # noqa: E731
    capture.results = list(_enveloped(capture.results, table, plan.target))
    capture.rest = _enveloped(capture.rest, table, plan.target)


def _paced(state: Turn, plan: Plan, capture: Capture) -> Callable[[DiceSource], Any]:
    """A character's roll paid as it went (an extended roll's ``--willpower``): each
    result replays with what the log says it spent, in order."""
    roll = plan.roll
    assert roll is not None
    spec = state.spec
    if spec.character is None or not capture.budgets or not spec.arg("willpower", False):
        return roll
    from rpgdice.core import registry

    own: Any = registry.get(spec.ruleset).plan
    if own is None or not own(spec.command, spec.kwargs, None, None).paced:
        return roll
    budgets = iter(capture.budgets)

    def paced(source: DiceSource) -> Any:
        budget = next(budgets, None)
        return roll(source, budget) if isinstance(budget, int) else roll(source)

    return paced


def _enveloped(results: Iterable[Any], table: Callable[[Any], Any] | None,
               target: Callable[[Any], dict[str, Any]] | None) -> Iterator[Any]:
    """Each result with what travels beside it (:class:`~rpgdice.core.envelope.Rolled`):
    the character line ``table(result)`` (``--as``) and the target's side ``target(result)``."""
    if table is None and target is None:
        if type(results) is tuple:  # made already (one roll): no generator to step through
            return iter([Rolled(r, EMPTY) for r in results])
        return (Rolled(r, EMPTY) for r in results)
    return (Rolled(r, Envelope(table=table(r) if table is not None else None,
                               **(target(r) if target is not None else {})))
            for r in results)


def _results(roll: Callable[[DiceSource], Any], source: DiceSource, times: int) -> Iterable[Any]:
    """``times`` rolls: all made at once from given faces (which must all be used), else
    the first made now and the rest as they are read."""
    if isinstance(source, GivenDice):
        results = [roll(source) for _ in range(times)]
        source.check_all_used()
        return results
    first = roll(source)
    if times == 1:  # a session's line, a one-shot roll: nothing more to make
        return (first,)
    return chain((first,), (roll(source) for _ in range(times - 1)))


def replay(spec: RollSpec, *, roll: bool, budgets: Optional[list[Any]] = None,
           head: int = Capture.HEAD) -> Capture:
    """Execute ``spec`` printing, paying and logging nothing: what it rolls (with ``roll``)
    and its exact odds spec (the log's replays, ``log stats``); ``head``: how many results
    to make at once (the rest streamed in ``rest``)."""
    capture = Capture(roll, budgets, min(head, Capture.HEAD))
    execute(spec, capture=capture)
    return capture

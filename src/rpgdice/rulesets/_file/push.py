"""The one step after a roll a custom file may declare (``[push]``: Year Zero's ``yze push
[ID]``): a logged roll's dice that the file's ``reroll`` test picks are rolled again and
the roll read anew, once. Logged and linked as ``seyruun reroll`` is: the entry pushed is
marked before anything is rolled (a second push is refused), the push's entry names it
(``pushed``) and is noted on it; a push refused (too few faces, a log that cannot be
written) uses nothing up, and one whose output could not be shown is taken back.
"""

from __future__ import annotations

import functools
import sqlite3
from typing import TYPE_CHECKING, Any, Optional

from rpgdice.cli import params
from rpgdice.core.command import Command, Param
from rpgdice.core.data import Loaded
from rpgdice.core.errors import RulesError
from rpgdice.roll.plan import Effects

if TYPE_CHECKING:
    from rpgdice.core.dice import DiceSource
    from rpgdice.roll.plan import Plan
    from rpgdice.roll.run import Turn
    from rpgdice.table.log import Log

ENTRY_ID = Param("entry_id", "number", parse=params.integer(1, 2**62), metavar="[ID]", lo=1,
                 hi=2**62,
                 help="The log entry of the roll (see rpgdice log); default: the last one.")


def push_command(name: str, push: Loaded, result: type) -> Command:
    command = push["command"]
    return Command(command, functools.partial(push_build, name, command), (ENTRY_ID,),
                   help=(push.get("help") or f"{command.capitalize()} a logged {name} roll.")
                   + f"\n\nExample: rpgdice {name} {command}   (the last {name} roll)",
                   results=(result,), repeated=False, seated=False,
                   entry_arg=("entry_id", "pushed"), without=frozenset({"times", "odds"}))


def find(log: Log, name: str, command: str, entry_id: Optional[int], replaying: bool
         ) -> Loaded:
    """The logged roll to push (default: the last ``NAME roll``), checked."""
    if entry_id is None:
        last = log.last(ruleset=name, command="roll")
        if not last:
            raise RulesError("ID", f"no {name} roll in the roll log to {command}")
        entry = last[-1]
    else:
        found = log.get(entry_id)
        if found is None:
            raise RulesError("ID", f"no entry {entry_id} in the roll log")
        entry = found
    n = entry["id"]
    if (entry["ruleset"], entry["command"]) != (name, "roll"):
        raise RulesError("ID", f"entry {n} is a {entry['ruleset']} {entry['command']}, not a "
                         f"{name} roll; accepts the ID of a {name} roll")
    if entry["count"] != 1 or len(entry["results"]) != 1 or not isinstance(
            entry["results"][0], dict):
        raise RulesError("ID", f"entry {n} holds no single {name} roll to {command}")
    if entry["rerolled_at"] is not None and not replaying:
        by = entry["rerolled_by"]
        raise RulesError("ID", f"entry {n} was already {command}ed"
                         f"{f' (entry {by})' if by else ''}; a roll is {command}ed once")
    return entry


def rolled(entry: Loaded) -> tuple[Loaded, dict[str, Any], Any]:
    """The logged roll's rules, arguments and dice (rolled again from its own faces)."""
    from rpgdice.core.dice import GivenDice
    from rpgdice.rulesets._file import engine
    from rpgdice.rulesets._file.rules import parsed

    spec = entry.get("roll") or {}
    given = dict(spec.get("args") or {})
    try:
        rules = parsed(str(given.pop("rules", "")))
        args = engine.check_args(rules, {k: v for k, v in given.items() if v is not None})
        faces = [int(d["face"]) for d in entry["results"][0]["dice"]]
        return rules, args, engine.roll_all(rules, args, GivenDice(faces))
    except (RulesError, KeyError, TypeError, ValueError):
        raise RulesError("ID", f"entry {entry['id']} holds no roll this rpgdice can push; "
                         "nothing was pushed") from None


def _chosen(rules: Loaded, roll: Any) -> list[Any]:
    from rpgdice.rulesets._file import engine

    test = engine.tree(rules["push"]["reroll"])
    return [d for dice in roll.dice.values() for d in dice if roll.per_die(test, d)]


def pushed(name: str, rules: Loaded, roll: Any, chosen: list[Any], source: DiceSource,
           cls: type) -> Any:
    """The roll after the push: each chosen die rolled again, the values read anew."""
    from rpgdice.rulesets._file import engine

    groups = {g["name"]: g for g in rules["dice"]}
    for d in chosen:
        d.rolls = [engine.pick(source, engine.faces_of(groups[d.group], d.sides))]
        d.value = d.rolls[0]
        if groups[d.group].get("symbols"):
            d.letters = groups[d.group]["symbols"][d.value - 1]
    roll.memo = {}
    keys = [k for k in rules["push"]["keys"] if k != "pushed"]
    return cls(outcome=engine.outcome_of(roll), dice=engine.dice_data(roll),
               **engine.key_values(roll, keys))


def push_build(name: str, command: str, entry_id: Optional[int] = None,
               run: Optional[Turn] = None) -> Plan:
    """Find and check the entry, check the faces given, mark it; then the plan that rolls
    the chosen dice again (the executor shows and logs it as any roll)."""
    from rpgdice.core.budget import Work
    from rpgdice.roll.plan import Plan
    from rpgdice.rulesets._file.rules import custom_classes

    assert run is not None
    replaying = run.replaying
    log = _open_log(name, command, replaying)
    try:
        entry = find(log, name, command, entry_id, replaying)
        rules, _args, roll = rolled(entry)
        if not rules.get("push"):
            raise RulesError("ID", f"entry {entry['id']}'s rules have no {command}")
        chosen = _chosen(rules, roll)
        if not chosen:  # nothing would change: refused, the roll not used up
            raise RulesError("ID", f"entry {entry['id']} has no die to {command} (the file's "
                             f"reroll test picks none); nothing was {command}ed")
        if run.spec.dice is not None:  # wrong faces: refused before the entry is marked
            _check_faces(rules, chosen, list(run.spec.dice))
        n = entry["id"]
        if not replaying:
            _mark(log, n, command)
    finally:
        log.release()
    cls = custom_classes(name, rules)["PushResult"]
    return Plan(lambda source: pushed(name, rules, roll, chosen, source, cls),
                work=Work(max(1, len(chosen))), keys={"pushed": n}, log_command=command,
                effects=None if replaying else _Marked(n),
                secret=bool(entry.get("secret")) and not entry.get("revealed_at"),
                blind=bool(entry.get("blind")) and not entry.get("revealed_at"))


def _check_faces(rules: Loaded, chosen: list[Any], faces: list[int]) -> None:
    from rpgdice.core.dice import GivenDice
    from rpgdice.rulesets._file import engine

    given = GivenDice(faces)
    groups = {g["name"]: g for g in rules["dice"]}
    for d in chosen:
        engine.pick(given, engine.faces_of(groups[d.group], d.sides))
    given.check_all_used()


def _open_log(name: str, command: str, replaying: bool) -> Log:
    from rpgdice.table import paths
    from rpgdice.table.log import Log, LogUnavailable

    nothing = f"the roll log is empty: no {name} roll to {command}"
    if not paths.log_file().exists():
        raise RulesError("ID", nothing)
    try:
        log = Log.open(write=not replaying)
    except LogUnavailable as e:
        raise RulesError("ID", f"{e}; nothing was {command}ed") from None
    except (sqlite3.Error, OSError) as e:
        raise RulesError("ID", f"the roll log cannot be written ({e}); nothing was "
                         f"{command}ed") from None
    if log is None:
        raise RulesError("ID", nothing)
    return log


def _mark(log: Log, n: int, command: str) -> None:
    try:
        done = log.mark_rerolled(n)
    except sqlite3.Error as e:
        raise RulesError("ID", f"the roll log cannot be written ({e}); nothing was "
                         f"{command}ed") from None
    if not done:
        raise RulesError("ID", f"entry {n} was already {command}ed; a roll is {command}ed once")


class _Marked(Effects):
    """The entry a push marked: the push's entry noted on it once logged; unmarked when
    the push could not be shown."""

    def __init__(self, n: int) -> None:
        self.n = n

    def finish(self, entry: Optional[int]) -> None:
        if entry is not None:
            self._with_log(lambda log: log.set_rerolled_by(self.n, entry))

    def undo(self) -> None:
        self._with_log(lambda log: log.unmark_rerolled(self.n))

    @staticmethod
    def _with_log(act: Any) -> None:
        from rpgdice.table.log import Log

        try:
            log = Log.open(write=True)
            if log is not None:
                act(log)
                log.release()
        except Exception:  # the mark is there already; the note is a nicety
            pass

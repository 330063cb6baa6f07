"""Seyruun's Willpower re-roll after the fact (``seyruun reroll [ID]``): a failed or
botched roll in the roll log rolls again with the same pool for 1 Willpower.

The pool is the one the log stored with the roll (its result records every figure
the scoring reads: :class:`~rpgdice.rulesets.seyruun.rules.RolledPool`), never the
command line run again, so a sheet edited since changes nothing and no stored argument
is ever executed. The entry is marked re-rolled (and the sheet paid) all or nothing
before anything is rolled.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING

from rpgdice.core.data import Loaded
from rpgdice.core.errors import RulesError
from rpgdice.roll.plan import Effects
from rpgdice.rulesets.seyruun import rules as seyruun

if TYPE_CHECKING:
    from rpgdice.roll.plan import Plan
    from rpgdice.roll.run import Turn
    from rpgdice.table.log import Log


def pay_reroll(character: str | None, *, check_only: bool,
               mark: Callable[[], None] | None = None) -> Loaded | None:
    """The re-roll's 1 Willpower, from the sheet of ``character`` (the name the log
    entry keeps) when the roll was a character's.

    With ``check_only``, only check that the sheet can pay (a RulesError when it
    cannot, or when the sheet is gone). Otherwise pay, all or nothing: under the
    sheet's lock the Willpower is checked, then ``mark()`` marks the log entry
    re-rolled (raising when it cannot), then the sheet is written. A sheet that cannot
    pay leaves the entry unmarked; a mark that fails pays nothing; a sheet that cannot
    be written after the mark has the mark taken back by the caller (it raises).
    Returns the ``character``, ``spent`` and ``left`` keys (None without a character,
    which spends nothing from any sheet; the re-roll still counts in
    ``willpower_spent``)."""
    from rpgdice.table import sheets

    if character is None:
        if not check_only and mark is not None:
            mark()
        return None
    cost = {"willpower": 1}

    def pay(sheet: sheets.Sheet) -> tuple[dict[str, int], Loaded]:
        have = sheets.resource(sheet, "willpower")
        if have < 1:
            raise sheets.cannot_pay(sheet, "ID", "willpower", 1, have)
        if check_only:
            return {}, {}
        if mark is not None:
            mark()
        left = {"willpower": have - 1}
        return left, {"character": sheet.name, "spent": dict(cost), "left": left}

    sheet = sheets.load(character, "ID")  # a sheet whose name is not its file's is refused
    if check_only:
        if sheet.ruleset != "seyruun":
            raise RulesError("ID", f"{sheet.name} is a {sheet.ruleset} character, not seyruun")
        pay(sheet)
        return None
    return sheets.settle(sheet, "seyruun", pay, "ID")  # the file just read pays


def find_entry(log: Log, entry_id: int | None, replaying: bool) -> Loaded:
    """The entry to re-roll (default: the last ``seyruun roll``), checked."""
    entry: Loaded | None
    if entry_id is None:
        last = log.last(ruleset="seyruun", command="roll")
        if not last:
            raise RulesError("ID", "no seyruun roll in the roll log to re-roll")
        entry = last[-1]
    else:
        entry = log.get(entry_id)
        if entry is None:
            raise RulesError("ID", f"no entry {entry_id} in the roll log")
    n = entry["id"]
    if (entry["ruleset"], entry["command"]) != ("seyruun", "roll"):
        raise RulesError("ID", f"entry {n} is a {entry['ruleset']} {entry['command']}, "
                         "not a seyruun roll; accepts the ID of a seyruun roll")
    if entry["count"] != 1 or len(entry["results"]) != 1:
        raise RulesError("ID", f"entry {n} holds {entry['count']} rolls; only a single roll "
                         "can be re-rolled")
    first = entry["results"][0]
    if not isinstance(first, dict):
        raise RulesError("ID", f"entry {n} holds no roll this rpgdice reads; nothing was re-rolled")
    if first.get("rerolled") is not None and not replaying:
        raise RulesError("ID", f"entry {n} was already re-rolled (with --reroll); a roll is "
                         "re-rolled at most once")
    if first.get("outcome") == "success":
        raise RulesError("ID", f"entry {n} succeeded; only a failed or botched roll is re-rolled")
    if entry["rerolled_at"] is not None and not replaying:
        by = entry["rerolled_by"]
        raise RulesError("ID", f"entry {n} was already re-rolled{f' (entry {by})' if by else ''}; "
                         "a roll is re-rolled at most once")
    return entry


def first_roll(entry: Loaded) -> tuple[seyruun.SeyruunResult, seyruun.RolledPool]:
    """The logged roll, rebuilt from the log's data, and the pool it was rolled with."""
    from rpgdice.core.rebuild import BadData, from_data

    try:
        first = from_data(seyruun.SeyruunResult, entry["results"][0])
        return first, seyruun.RolledPool.of(first)
    except (BadData, RulesError) as e:
        raise RulesError("ID", f"entry {entry['id']} holds no roll this rpgdice can re-roll "
                         f"({e}); nothing was re-rolled") from None


def first_labels(entry: Loaded) -> list[list[str]]:
    """The trait line the logged roll showed (its envelope's ``labels``), or none."""
    envelopes = (entry.get("shown") or {}).get("envelopes") or []
    table = envelopes[0].get("table") if envelopes and isinstance(envelopes[0], dict) else None
    labels = table.get("labels") if isinstance(table, dict) else None
    if not isinstance(labels, list):
        return []
    return [list(x) for x in labels if isinstance(x, list) and len(x) == 2
            and all(isinstance(t, str) for t in x)]


def _open_log(replaying: bool) -> Log:
    from rpgdice.table import paths
    from rpgdice.table.log import Log, LogUnavailable

    if not paths.log_file().exists():  # nothing to re-roll: no log is created for nothing
        raise RulesError("ID", "the roll log is empty: no seyruun roll to re-roll")
    try:
        log = Log.open(write=not replaying)
    except LogUnavailable as e:
        raise RulesError("ID", f"{e}; nothing was re-rolled") from None
    except (sqlite3.Error, OSError) as e:
        raise RulesError("ID", f"the roll log cannot be written ({e}); nothing was re-rolled") from None
    if log is None:
        raise RulesError("ID", "the roll log is empty: no seyruun roll to re-roll")
    return log


def _mark_and_pay(log: Log, n: int, character: str | None) -> Loaded | None:
    """Check the sheet can pay, then mark the entry and pay, all or nothing."""
    pay_reroll(character, check_only=True)  # cannot pay: refused, nothing marked
    marked: list[int] = []

    def mark() -> None:
        try:
            done = log.mark_rerolled(n)
        except sqlite3.Error as e:
            raise RulesError("ID", f"the roll log cannot be written ({e}); the re-roll "
                             "needs its roll marked, so nothing was re-rolled") from None
        if not done:
            raise RulesError("ID", f"entry {n} was already re-rolled; a roll is "
                             "re-rolled at most once")
        marked.append(n)

    try:  # the Willpower checked, the entry marked and the sheet paid: all or none
        return pay_reroll(character, check_only=False, mark=mark)
    except BaseException:
        if marked:  # marked, but the sheet could not be written: not re-rolled
            try:
                log.unmark_rerolled(n)
            except sqlite3.Error:
                pass
        raise


def reroll(entry_id: int | None, state: Turn | None) -> Plan:
    """``seyruun reroll [ID]``: find and check the entry, mark it and pay, then the plan
    that rolls the stored pool again (the executor shows and logs it, as any roll);
    ``state``: the run it is part of. While the log replays a re-roll (``log show --replay``) nothing is marked or paid."""
    from dataclasses import replace

    from rpgdice.core.budget import Work
    from rpgdice.core.dice import GivenDice
    from rpgdice.roll.plan import Plan

    assert state is not None
    replaying = state.replaying
    dice = state.spec.dice
    log = _open_log(replaying)
    try:
        entry = find_entry(log, entry_id, replaying)
        n, character = entry["id"], entry["character"]
        first, pool = first_roll(entry)
        if dice is not None:  # wrong faces are refused before the entry is marked
            given = GivenDice(list(dice))
            given.roll(10, pool.dice)
            given.check_all_used()
        paid = None if replaying else _mark_and_pay(log, n, character)
    finally:
        log.release()
    spent = first.willpower_spent + 1
    state.extras["character"] = character
    if paid is not None:  # the first roll's trait line ("Dexterity 3 + Stealth 3") shows again
        paid = {**paid, "labels": first_labels(entry)}
    return Plan(lambda source: replace(seyruun.evaluate(pool, source.roll(10, pool.dice), spent),
                                       rerolled=first),
                work=Work(pool.dice), keys={"rerolls": n}, log_command="reroll", character=paid,
                effects=None if replaying else _Marked(n, character if paid is not None else None),
                secret=bool(entry.get("secret")) and not entry.get("revealed_at"))


class _Marked(Effects):
    """The entry a re-roll marked (and the Willpower it paid): the new entry noted on it
    once logged; undone when the re-roll could not be shown."""

    def __init__(self, n: int, character: str | None) -> None:
        self.n, self.character = n, character

    def finish(self, entry: int | None) -> None:
        if entry is not None:
            _note_rerolled_by(self.n, entry)

    def undo(self) -> None:
        _take_back(self.n, self.character)


def _note_rerolled_by(n: int, new: int) -> None:
    from rpgdice.table.log import Log

    try:
        again = Log.open(write=True)
        if again is not None:
            again.set_rerolled_by(n, new)
            again.release()
    except Exception:  # the mark is already there; who re-rolled it is a nicety
        pass


def _take_back(n: int, character: str | None) -> None:
    """A re-roll whose output could not be delivered is undone, as every spend is: the
    first roll's entry unmarked (it may be re-rolled again) and the 1 Willpower given
    back to ``character``'s sheet. What cannot be undone is a warning; the output's own
    error is the one reported."""
    from rpgdice.render.output import warning
    from rpgdice.table import sheets
    from rpgdice.table.log import Log

    try:
        log = Log.open(write=True)
        if log is not None:
            log.unmark_rerolled(n)
            log.release()
    except Exception as e:  # sqlite3.Error, OSError, LogUnavailable
        warning(f"entry {n} stays marked re-rolled: the roll log cannot be written ({e})")
    if character is None:
        return

    def give_back(sheet: sheets.Sheet) -> tuple[dict[str, int], None]:
        return {"willpower": sheets.resource(sheet, "willpower") + 1}, None

    try:
        sheets.settle(character, "seyruun", give_back, "ID")
    except (RulesError, OSError) as e:
        warning(f"the 1 willpower paid could not be given back: {e}")

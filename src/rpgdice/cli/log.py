"""`rpgdice log`: the roll log — list, show (replayed and checked), stats, clear."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Annotated, Literal, Optional, cast

import typer

from rpgdice import rulesets
from rpgdice.cli import params
from rpgdice.cli.groups import showing_group
from rpgdice.cli.output import error, warning
from rpgdice.core.data import Loaded
from rpgdice.core.errors import RulesError

if TYPE_CHECKING:
    from types import ModuleType

    from rpgdice.core.envelope import Rolled
    from rpgdice.render.common import Odds
    from rpgdice.roll.odds import ExactOdds
    from rpgdice.table.log import Log

app = showing_group(
    "The roll log: what was rolled, replayed exactly; luck against the exact odds.\n\n"
    "Without a subcommand: the last entries, oldest first.",
)

JsonOpt = Annotated[bool, typer.Option("--json", help="JSON Lines: one object per entry.")]
AsOpt = Annotated[
    Optional[str],
    typer.Option("--as", parser=params.character, metavar="NAME",
                 help="Only this character's rolls (names match "
                 "ignoring case, accents, spaces, hyphens and underscores)."),
]
RulesetOpt = Annotated[
    Optional[str],
    typer.Option("--ruleset", parser=params.choice(dict.fromkeys(rulesets.built_in()), {
        **{r: f"{rulesets.get(r).short} rolls" for r in rulesets.built_in()},
        "dice": "ordinary dice (rpgdice roll)"}, current=rulesets.names),
        metavar="RULESET", help="Only this ruleset's rolls: " + ", ".join(rulesets.built_in())
        + " or a ruleset file's name."),
]


SinceOpt = Annotated[
    Optional[str],
    typer.Option("--since", metavar="WHEN",
                 help="Only entries from WHEN on: an ISO 8601 date or time, today, yesterday, "
                 "or an age such as 90m, 3h, 2d (dates and words in local time)."),
]
UntilOpt = Annotated[
    Optional[str],
    typer.Option("--until", metavar="WHEN",
                 help="Only entries up to WHEN (as --since; a date includes that whole day)."),
]


def window(since: Optional[str], until: Optional[str]) -> tuple[Optional[str], Optional[str]]:
    """``--since``/``--until`` as the log's UTC stamps: the first time in, and the first
    time out (a usage error names the option)."""
    start = None if since is None else _when("--since", since, end=False)
    stop = None if until is None else _when("--until", until, end=True)
    return start, stop


def _when(option: str, text: str, end: bool) -> str:
    """WHEN as a UTC stamp: a date or a word is local midnight (``end``: the next one, so
    the whole day is in); an age is that long ago; a time is itself (``end``: a second on,
    as the log's times are whole seconds)."""
    import re
    from datetime import datetime, timedelta, timezone

    word = text.strip().lower()
    now = datetime.now().astimezone()
    age = re.fullmatch(r"(\d+)\s*([smhdw])", word)
    try:
        if age:
            unit = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}
            moment = now - timedelta(**{unit[age.group(2)]: int(age.group(1))})
            moment += timedelta(seconds=1) if end else timedelta(0)
        elif word in ("today", "yesterday") or re.fullmatch(r"\d{4}-\d{2}-\d{2}", word):
            day = (now.date() if word == "today" else now.date() - timedelta(days=1)
                   if word == "yesterday" else datetime.strptime(word, "%Y-%m-%d").date())
            day += timedelta(days=1) if end else timedelta(0)
            moment = datetime(day.year, day.month, day.day).astimezone()
        else:
            moment = datetime.fromisoformat(text.strip().replace("z", "Z"))
            if moment.tzinfo is None:
                moment = moment.astimezone()
            moment += timedelta(seconds=1) if end else timedelta(0)
    except (ValueError, OverflowError):
        raise RulesError(option, f"{text!r} is not a date, a time, today, yesterday or an age "
                         "such as 90m, 3h, 2d") from None
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _open(write: bool = False) -> Log | None:
    """The log, or None when nothing was ever logged. A log that cannot be read (locked,
    corrupt, of a newer rpgdice, or a path the file system refuses) is bad input: one
    line naming the file, exit 2."""
    from rpgdice.table.log import Log, LogUnavailable
    from rpgdice.table.paths import log_file

    try:
        return Log.open(write=write)
    except LogUnavailable as e:
        raise RulesError("", str(e)) from None
    except Exception as e:  # sqlite3.Error, OSError
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise RulesError("", f"the roll log {log_file()} cannot be opened: "
                         f"{reason}; check the folder, or set RPGDICE_HOME") from None


def _empty(as_json: bool) -> None:
    if not as_json:
        from rpgdice.table.paths import log_file

        sys.stdout.write(f"The roll log is empty ({log_file()}).\n")


@app.callback(invoke_without_command=True)
def list_cmd(
    ctx: typer.Context,
    last: Annotated[int, typer.Option(
        "--last", parser=params.integer(1, 100_000), metavar="N",
        help="How many entries (the newest N, shown oldest first).")] = 20,
    character: AsOpt = None,
    ruleset: RulesetOpt = None,
    since: SinceOpt = None,
    until: UntilOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The last entries of the roll log, oldest first: when, who, what, the outcome
    and the key figures. `rpgdice log show ID` re-shows one as it was rolled.

    Example: rpgdice log --last 5 --ruleset seyruun --since yesterday
    """
    if ctx.invoked_subcommand is not None:
        return
    start, stop = window(since, until)
    log = _open()
    if log is None:
        return _empty(as_json)
    try:
        rows = log.listing(n=last, ruleset=ruleset, character=character, since=start,
                           before=stop, full=as_json)
        if as_json:
            _write_json(rows)
        else:
            _show_brief(rows)
    finally:
        log.release()
    sys.stdout.flush()


def _write_json(rows: Iterable[Loaded]) -> None:
    """Each entry's ``log --json`` line as it is read: one entry in memory at a time."""
    from rpgdice.table.log import public

    write = sys.stdout.write
    for e in rows:
        head = json.dumps(public(e), ensure_ascii=False)  # "results" comes last, as []
        assert head.endswith('"results": []}')
        write(head[:-3] + e["results_text"] + "}\n")


def _show_brief(rows: Iterable[Loaded]) -> None:
    """The entries table: each entry's figures worked out as it is read, its results
    then dropped, and the table written a batch of lines at a time (never all of them)."""
    from rpgdice.render import log as view

    keep = ("id", "time", "character", "argv", "ruleset", "outcome", "rerolled_at",
            "rerolled_by", "secret", "blind")
    from rpgdice import rulesets

    def brief(e: Loaded) -> Loaded:
        with rulesets.as_rolled(e):  # a ruleset file's roll in the words it was rolled with
            return {**{k: e[k] for k in keep}, "figures": _figures(e, view),
                    "verdict": view.entry_outcome(e)}

    view.show_entries(brief(e) for e in rows)  # read, laid out and written a batch at a time


def _figures(entry: Loaded, view: ModuleType) -> str:
    if entry.get("too_large"):
        return f"results too large to read (log show {entry['id']} rolls them again)"
    return str(view.safe_figures(entry))


@app.command("show")
def show_cmd(
    entry_id: Annotated[int, typer.Argument(
        parser=params.integer(1, 2**62), metavar="ID", help="The entry's ID (see rpgdice log).",
        show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="The entry as one JSON object.")] = False,
    replay: Annotated[bool, typer.Option(
        "--replay", help="Roll the stored seed (or faces) again and report any difference "
        "(exit 1 when they differ).")] = False,
    since: SinceOpt = None,
    until: UntilOpt = None,
) -> None:
    """Re-show an entry as it was rolled, from what the log stored, whatever the
    character sheets say now. With --replay, its roll is rolled again from its seed (or
    its given faces), paying and logging nothing, and checked against the log.

    Example: rpgdice log show 12
    """
    start, stop = window(since, until)
    log = _open()
    entry = log.get(entry_id) if log is not None else None
    if log is not None:
        log.release()
    if entry is None:
        raise RulesError("ID", f"no entry {entry_id} in the roll log")
    if (start and entry["time"] < start) or (stop and entry["time"] >= stop):
        raise RulesError("ID", f"entry {entry_id} is not in the roll log between --since and "
                         "--until")
    from rpgdice import rulesets

    with rulesets.as_rolled(entry):  # a ruleset file's roll: by the rules it carried
        _show_entry(entry, as_json, replay)


def _show_entry(entry: Loaded, as_json: bool, replay: bool) -> None:
    if replay:
        return _replay(entry, as_json)
    from rpgdice.table.log import public

    if as_json:
        sys.stdout.write(json.dumps({**public(entry), "replayed": None}, ensure_ascii=False) + "\n")
        sys.stdout.flush()
        return
    _show_stored(entry)


def _show_stored(entry: Loaded) -> None:
    """The entry's header, then its results rebuilt from the log and shown with their
    views; results this rpgdice cannot rebuild are shown as the stored data, with a notice."""
    from rpgdice.cli import stored
    from rpgdice.cli.output import emit
    from rpgdice.core.rebuild import BadData
    from rpgdice.render import log as view

    view.show_header(entry)
    if entry.get("too_large"):
        from rpgdice.table.log import MAX_CELL

        warning(f"entry {entry['id']}: its stored results are over the log's cap of "
                f"{MAX_CELL // 1_000_000} MB and were not read; they are rolled again from "
                "its seed")
    from rpgdice.core.changes import is_change

    if is_change(entry):  # a change of the fight: its line and the state it left
        view.show_change(entry)
        return
    try:
        records = [] if entry.get("too_large") else stored.records(entry)
    except BadData as e:
        warning(f"entry {entry['id']} is shown as the data the log stored: this rpgdice "
                f"cannot rebuild its results ({e})")
        view.show_data(entry)
        return
    try:
        odds = stored.odds(entry)
    except BadData as e:
        warning(f"entry {entry['id']}: its odds are not shown ({e})")
        odds = None
    total = max(entry["count"], len(records))
    emit(_with_the_rest(entry, records), as_json=False, odds=odds, total=total,
         compact=total > 1 and _compact(entry))


def _compact(entry: Loaded) -> bool:
    """Whether the entry's roll showed its repeats in their short form (``roll 1000d6 -n
    250``: a line of totals, not 250,000 dice), worked out from its stored spec without
    rolling; False when it cannot be."""
    from rpgdice.cli.replay import capture

    try:
        return bool(capture(entry, roll=False).compact)
    except Exception:  # not a roll of a known kind, or no longer one: shown in full
        return False


def _with_the_rest(entry: Loaded, records: list[Rolled]) -> Iterable[Rolled]:
    """The stored records and, for an entry of more results than the log keeps, the
    rest rolled again from its seed (a roll of a known kind only; otherwise a notice)."""
    from itertools import chain, islice

    missing = entry["count"] - len(records)
    if missing <= 0:
        return records
    from rpgdice.cli.replay import NotARoll, capture

    try:
        cap = capture(entry, roll=True, head=0)  # streamed: never the whole entry at once
    except NotARoll:
        warning(f"entry {entry['id']}: {missing} more results were not kept in the log")
        return records
    except Exception as e:  # a command that no longer parses: the stored part stands
        warning(f"entry {entry['id']}: {missing} more results were not kept in the log and "
                f"cannot be rolled again ({getattr(e, 'message', None) or e})")
        return records
    return chain(records, islice(chain(cap.results, cap.rest), len(records), None))


def _replay(entry: Loaded, as_json: bool) -> None:
    """``log show ID --replay``: roll the entry's command again with its own dice, pay
    and log nothing, and compare with what the log stored (exit 1 when they differ)."""
    from rpgdice.cli.output import emit
    from rpgdice.cli.replay import NotARoll, capture
    from rpgdice.core.changes import is_change
    from rpgdice.core.data import to_data
    from rpgdice.table.log import MAX_RESULTS, public

    entry_id = entry["id"]
    if is_change(entry):
        raise RulesError("ID", f"entry {entry_id} is a change of the encounter "
                         f"('{' '.join(str(a) for a in entry['argv'][:2])}'), no roll: nothing "
                         f"to replay (rpgdice log show {entry_id} shows it)")
    try:
        cap = capture(entry, roll=True)
    except NotARoll as e:
        raise RulesError("ID", f"{e.message}; it cannot be replayed") from None
    except Exception as e:  # usage errors of a command that rolled then: rules or sheets changed
        message = getattr(e, "message", None) or str(e)
        if as_json:  # what the log stored, which no replay matches now
            sys.stdout.write(json.dumps({**public(entry), "replayed": False},
                                        ensure_ascii=False) + "\n")
            sys.stdout.flush()
        else:
            _show_stored(entry)
        warning(f"entry {entry_id} does not replay: it cannot be rolled again now ({message}); "
                "shown as it was logged")
        raise typer.Exit(1) from None
    keys = to_data(cap.keys)
    replayed = [json.loads(json.dumps({**to_data(r.result), **keys}, ensure_ascii=False))
                for r in cap.results[:MAX_RESULTS]]
    kept = len(entry["results"])  # the log keeps the first results (MAX_RESULTS, MAX_BYTES)
    same = replayed[:kept] == _rolled_part(entry) and cap.total == entry["count"]
    if as_json:
        sys.stdout.write(json.dumps({**public(entry), "results": replayed, "replayed": same},
                                    ensure_ascii=False) + "\n")
        sys.stdout.flush()
    else:
        from itertools import chain

        from rpgdice.render import log as view

        view.show_header(entry)
        emit(chain(cap.results, cap.rest), as_json=False, odds=cap.odds, total=cap.total)
    if not same:
        warning(f"entry {entry_id} does not replay as it was logged (this rpgdice rolls it "
                "differently, or a character sheet changed): shown as replayed now")
        raise typer.Exit(1)


def _rolled_part(entry: Loaded) -> list[Loaded]:
    """The stored results without the keys their envelopes added (who paid what, the
    attack target's side): what a replay, which pays and hurts nothing, rolls again."""
    from rpgdice.render.stored import records_envelopes

    out = []
    for result, envelope in zip(entry["results"], records_envelopes(entry)):
        added = envelope.json_keys() if isinstance(result, dict) else {}
        out.append({k: v for k, v in result.items() if k not in added}
                   if added else result)
    return out


@app.command("reveal")
def reveal_cmd(
    entry_id: Annotated[int, typer.Argument(
        parser=params.integer(1, 2**62), metavar="ID", help="The secret entry's ID (see rpgdice log).",
        show_default=False)],
) -> None:
    """Make a secret roll (--secret) public: the table's page and feed show it from now on
    (rpgdice serve sends it again, whole, and posts it to Discord).

    Example: rpgdice log reveal 12
    """
    import sqlite3

    from rpgdice.table.log import reason
    from rpgdice.table.paths import log_file

    if not log_file().exists():  # nothing logged yet: nothing made here either
        raise RulesError("ID", f"no entry {entry_id} in the roll log")
    log = _open(write=True)
    assert log is not None  # opened to write: made when missing
    try:
        if log.get(entry_id) is None:
            raise RulesError("ID", f"no entry {entry_id} in the roll log")
        done = log.reveal(entry_id)
    except sqlite3.Error as e:
        raise RulesError("", f"the roll log cannot be written: {reason(e)}") from None
    finally:
        log.release()
    sys.stdout.write(f"Entry {entry_id} is public now.\n" if done
                     else f"Entry {entry_id} is already public; nothing changed.\n")
    sys.stdout.flush()


@app.command("clear")
def clear_cmd(
    yes: Annotated[bool, typer.Option("--yes", help="Really delete every entry.")] = False,
) -> None:
    """Delete every entry of the roll log (IDs are not reused). Without --yes nothing
    is deleted.

    Example: rpgdice log clear --yes
    """
    if not yes:
        raise RulesError("--yes", "needed to delete the roll log; nothing was deleted")
    from rpgdice.table.log import reason

    log = _open(write=True)
    assert log is not None  # opened to write: made when missing
    try:
        n = log.clear()
    except Exception as e:
        error(f"the roll log cannot be cleared: {reason(e)}")
        raise typer.Exit(2) from None  # the disk or the file at fault: exit 2, as elsewhere
    finally:
        log.release()
    sys.stdout.write(f"Deleted {n} {'entry' if n == 1 else 'entries'} from the roll log.\n")


@app.command("stats")
def stats_cmd(
    character: AsOpt = None,
    ruleset: RulesetOpt = None,
    since: SinceOpt = None,
    until: UntilOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per ruleset.")] = False,
) -> None:
    """Luck against the exact odds: per ruleset, each outcome seen against the sum of
    its exact probability over the logged rolls, how far from expectation that is, and
    the faces of each die size with a χ² test of fairness.

    Covers the single-roll commands (roll, task) with one result per entry; roll
    types, combat and repeated commands are left out, and so are rolls of given faces
    (--dice: dice rolled by hand are no test of the random source).

    Example: rpgdice log stats --ruleset seyruun --since 2d
    """
    start, stop = window(since, until)
    log = _open()
    groups = [] if log is None else compute_stats(log, ruleset, character, start, stop)
    if log is not None:
        log.release()
    if as_json:
        sys.stdout.write("".join(json.dumps(g, ensure_ascii=False) + "\n" for g in groups))
        sys.stdout.flush()
        return
    from rpgdice.render import log as view

    view.show_stats(groups, character)


def compute_stats(log: Log, ruleset: Optional[str], character: Optional[str],
                  since: Optional[str] = None, before: Optional[str] = None
                  ) -> list[Loaded]:
    """Per ruleset: rolls, outcomes, expected outcomes (exact odds of each roll's spec,
    rebuilt from the spec the log stored with it; computed once per distinct spec, within
    the budget of :class:`_OddsOf`), the luck verdict and face counts with their χ² test.
    Only each ruleset's single-roll commands (their records' ``stats``) of drawn dice
    count; rolls of given faces are counted in ``left_out``. No stored command line is
    run, except an entry of an older rpgdice (which stored no spec) that is a roll of a
    known kind: its odds spec is read from its arguments, rolling nothing."""
    rows, face_rows, hand_rows = log.stats_rows(ruleset=ruleset, character=character,
                                                since=since, before=before)
    odds = _OddsOf(log)
    out: dict[str, Loaded] = {}
    for rs, command, n in hand_rows:
        if _counted(rs, command):
            g = out.setdefault(rs, _group(rs, character))
            g["left_out"] += n
            g["left_out_by_hand"] += n
    for rs, command, spec_text, who, outcome, n in rows:
        if not _counted(rs, command):
            continue
        g = out.setdefault(rs, _group(rs, character))
        if not rulesets.get(rs).outcome_stats:  # ordinary dice: their faces are what is judged
            g["rolls"] += n
            continue
        probs = odds.of(spec_text, who or None)
        if probs is None:
            g["left_out"] += n
            continue
        g["rolls"] += n
        for name, p in probs.items():
            g["outcomes"].setdefault(name, 0)
            g["expected"][name] = g["expected"].get(name, 0.0) + n * p
            g["_variance"][name] = g["_variance"].get(name, 0.0) + n * p * (1 - p)
        g["outcomes"][outcome] = g["outcomes"].get(outcome, 0) + n
    for rs, command, die, face, n in face_rows:
        found = out.get(rs)
        if found is not None and _counted(rs, command):
            counts = found["faces"].setdefault(die, {})
            counts[str(face)] = counts.get(str(face), 0) + n
    odds.close()
    return [_judged(out[rs]) for rs in rulesets.NAMES if rs in out]


def _counted(ruleset: str, command: str) -> bool:
    """Whether ``log stats`` covers this command: its ruleset's single-roll commands."""
    from rpgdice import rulesets

    try:
        record = rulesets.get(ruleset).command(command)
    except KeyError:  # a ruleset forged by hand
        return False
    return record is not None and record.stats


def _group(ruleset: str, character: Optional[str]) -> Loaded:
    return {"ruleset": ruleset, "character": character, "rolls": 0, "outcomes": {},
            "expected": {}, "faces": {}, "left_out": 0, "left_out_by_hand": 0, "_variance": {}}


def _judged(g: Loaded) -> Loaded:
    """A ruleset's group with its z-scores, luck verdict and fairness per die."""
    from rpgdice.core import luck

    variance = g.pop("_variance")
    g["z"] = {name: luck.z_score(g["outcomes"].get(name, 0), g["expected"][name],
                                 variance[name]) for name in g["expected"]}
    g["verdict"] = (luck.verdict(g["z"].get("success"), rolls=g["rolls"])
                    if "success" in g["z"] else None)
    g["fairness"] = {}
    for die, counts in list(g["faces"].items()):
        try:
            sides = int(die[1:])
        except ValueError:  # a die forged by hand
            del g["faces"][die]
            continue
        full = {str(f): counts.get(str(f), 0) for f in range(1, sides + 1)}
        g["faces"][die] = full
        stat = luck.chi_squared(list(full.values()))
        p = luck.chi2_sf(stat, sides - 1)
        g["fairness"][die] = {"chi2": round(stat, 4), "df": sides - 1, "p": p,
                              "verdict": luck.fairness(p, rolled=sum(full.values()), faces=sides),
                              "rolled": sum(full.values())}
    return g


STATS_SECONDS = 20.0
"""``log stats`` computes exact odds for at most this long; the rolls whose odds are
not computed by then (nor cached) are left out, as those over the work budget are."""
STATS_RULESET_SECONDS = 2.0
"""``log stats`` computes the exact odds of one ruleset's rolls for at most this long; its
rolls whose odds are not computed by then (nor cached) are left out."""
STATS_WORK_SHARE = 50
"""A roll's exact odds are left out of ``log stats`` at once when their estimated work
(its ruleset's ``<name>_work`` of its odds function, where there is one) is over this
share of that function's own budget: about a second of arithmetic."""


class _OddsOf:
    """Each stored spec's outcome probabilities, computed once (or read from the log's
    cache of them) within the stats budget, each kept in that cache as soon as it is
    computed (a stopped ``log stats`` keeps what it worked out)."""

    def __init__(self, log: Log) -> None:
        import time

        from rpgdice import __version__

        self.log, self.version = log, __version__
        self.cached = log.cached_odds()
        self.by_key: dict[str, Optional[dict[str, float]]] = {}
        self.deadline = time.monotonic() + STATS_SECONDS
        self.spent: dict[str, float] = {}
        """The seconds spent computing each ruleset's odds."""
        self.writer: Log | Literal[False] | None = None

    def of(self, spec_text: str, who: Optional[str]) -> Optional[dict[str, float]]:
        if spec_text in self.by_key:
            return self.by_key[spec_text]
        spec = _spec(spec_text, who)
        probs = None if spec is None else self._computed(spec)
        self.by_key[spec_text] = probs
        return probs

    def _computed(self, spec: ExactOdds) -> Optional[dict[str, float]]:
        import time

        key = f"{self.version} {spec.key}"
        if key in self.cached:
            return json.loads(self.cached[key])
        ruleset = str(getattr(spec, "ruleset", ""))
        if (time.monotonic() > self.deadline or _over_budget(spec)
                or self.spent.get(ruleset, 0.0) > STATS_RULESET_SECONDS):
            return None
        start = time.monotonic()
        try:
            computed = cast("Odds", spec())  # a roll's odds: its outcomes
            probs = {str(k): float(v) for k, v in computed.outcomes.items()}
        except Exception:  # odds over their work budget, or a spec forged by hand: left out
            return None
        finally:
            self.spent[ruleset] = self.spent.get(ruleset, 0.0) + time.monotonic() - start
        self._keep(key, json.dumps(probs))
        return probs

    def _keep(self, key: str, text: str) -> None:
        """Into the cache now; a log that cannot be written keeps none."""
        try:
            if self.writer is None:
                from rpgdice.table.log import Log

                self.writer = Log.open(write=True, path=self.log.path) or False
            if self.writer:
                self.writer.cache_odds({key: text})
        except Exception:
            self.writer = False

    def close(self) -> None:
        if self.writer:
            self.writer.release()


def _over_budget(spec: ExactOdds) -> bool:
    """Whether a spec's estimated work is over the stats' share of its own budget."""
    import importlib

    from rpgdice import rulesets

    try:
        module = importlib.import_module(rulesets.get(spec.ruleset).odds().__name__)
    except Exception:
        return False
    stem = spec.function[: -len("odds")] if spec.function.endswith("odds") else ""
    work = getattr(module, stem + "work", None)
    limit = getattr(module, "STATS_MAX_WORK", None)  # a module's own share, where it says
    if not isinstance(limit, int):
        budget = next((getattr(module, n) for n in dir(module) if n.endswith("MAX_WORK")), None)
        limit = budget // STATS_WORK_SHARE if isinstance(budget, int) else None
    if work is None or limit is None:
        return False
    try:
        return bool(work(*spec.args, **spec.kwargs) > limit)
    except Exception:
        return False


def _spec(spec_text: str, who: Optional[str]) -> Optional[ExactOdds]:
    """The exact odds spec of a ``stats_rolls`` row: the spec the log stored, rebuilt
    from its data; for an entry of an older rpgdice, its arguments (``argv ...``) read
    by the command line without rolling, and only when they are a roll of a known kind."""
    from rpgdice.cli import stored
    from rpgdice.core.rebuild import BadData

    if not spec_text.startswith("argv "):
        try:
            return stored.spec(json.loads(spec_text))
        except (BadData, ValueError, TypeError):
            return None
    from rpgdice.cli.replay import capture

    try:
        argv = json.loads(spec_text[len("argv "):])
        if not (isinstance(argv, list) and stored.is_roll([str(a) for a in argv])):
            return None
        entry = {"id": 0, "argv": [str(a) for a in argv], "character": who, "roll": None}
        return capture(entry, roll=False).spec
    except Exception:  # a command that no longer parses (a sheet changed...)
        return None

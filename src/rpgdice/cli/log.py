"""`rpgdice log`: the roll log — list, show (replayed and checked), stats, clear."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, Optional

import typer

from rpgdice.cli import params
from rpgdice.cli.common import Command, RulesetTyper
from rpgdice.cli.output import error, warning
from rpgdice.core.errors import RulesError

RULESETS = ("crytures", "seyruun", "reglas", "cypher", "dice")

# Its commands are common.Command: usage lines show ID, not Typer's {ID}.
app = RulesetTyper(
    command_cls=Command,
    help="The roll log: what was rolled, replayed exactly; luck against the exact odds.\n\n"
    "Without a subcommand: the last entries, oldest first.",
    rich_markup_mode="markdown",
    invoke_without_command=True,
    no_args_is_help=False,
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
    typer.Option("--ruleset", parser=params.choice(dict.fromkeys(RULESETS), {
        **{r: f"{r.title() if r != 'reglas' else 'Reglas Básicas'} rolls" for r in RULESETS},
        "dice": "ordinary dice (rpgdice roll)"}),
        metavar="RULESET", help="Only this ruleset's rolls: " + ", ".join(RULESETS) + "."),
]


def _open(write: bool = False) -> Any:
    """The log, or None when nothing was ever logged. A log that cannot be read is
    one error line and exit 1."""
    from rpgdice.table.log import Log, LogUnavailable

    try:
        return Log.open(write=write)
    except LogUnavailable as e:
        error(str(e))
        raise typer.Exit(1) from None
    except Exception as e:  # sqlite3.Error, OSError
        error(f"the roll log cannot be opened: {e}")
        raise typer.Exit(1) from None


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
    as_json: JsonOpt = False,
) -> None:
    """The last entries of the roll log, oldest first: when, who, what, the outcome
    and the key figures. `rpgdice log show ID` re-shows one as it was rolled.

    Example: rpgdice log --last 5 --ruleset seyruun
    """
    if ctx.invoked_subcommand is not None:
        return
    log = _open()
    if log is None:
        return _empty(as_json)
    try:
        from rpgdice.table.log import public

        entries = log.last(ruleset=ruleset, character=character, n=last)
    finally:
        log.release()
    if as_json:
        sys.stdout.write("".join(json.dumps(public(e), ensure_ascii=False) + "\n" for e in entries))
    else:
        from rpgdice.render import log as view

        view.show_entries(entries)
    sys.stdout.flush()


@app.command("show")
def show_cmd(
    entry_id: Annotated[int, typer.Argument(
        parser=params.integer(1, 2**62), metavar="ID", help="The entry's ID (see rpgdice log).",
        show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="The entry as one JSON object.")] = False,
) -> None:
    """Re-show an entry as it was rolled: its command replayed with its seed (or its
    given faces), checked against what was logged.

    Example: rpgdice log show 12
    """
    from rpgdice.cli.output import emit
    from rpgdice.cli.replay import capture, replay_argv
    from rpgdice.render.jsonl import to_data
    from rpgdice.table.log import MAX_RESULTS, public

    log = _open()
    entry = log.get(entry_id) if log is not None else None
    if log is not None:
        log.release()
    if entry is None:
        raise RulesError("ID", f"no entry {entry_id} in the roll log")
    try:
        cap = capture(replay_argv(entry), roll=True)
    except Exception as e:  # usage errors of a command that rolled then: rules or sheets changed
        message = getattr(e, "message", None) or str(e)
        error(f"entry {entry_id} cannot be replayed: {message}")
        raise typer.Exit(1) from None
    keys = to_data(cap.keys)
    replayed = [json.loads(json.dumps({**to_data(r), **keys}, ensure_ascii=False))
                for r in cap.results[:MAX_RESULTS]]
    same = replayed == entry["results"] and cap.total == entry["count"]
    if as_json:
        sys.stdout.write(json.dumps({**public(entry), "results": replayed, "replayed": same},
                                    ensure_ascii=False) + "\n")
        sys.stdout.flush()
    else:
        from rpgdice.render import log as view

        view.show_header(entry)
        from itertools import chain

        emit(chain(cap.results, cap.rest), as_json=False, odds=cap.odds, total=cap.total)
    if not same:
        warning(f"entry {entry_id} does not replay as it was logged (this rpgdice rolls it "
                "differently, or a character sheet changed): shown as replayed now")
        raise typer.Exit(1)


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
    log = _open(write=True)
    try:
        n = log.clear()
    except Exception as e:
        error(f"the roll log cannot be cleared: {e}")
        raise typer.Exit(1) from None
    finally:
        log.release()
    sys.stdout.write(f"Deleted {n} {'entry' if n == 1 else 'entries'} from the roll log.\n")


@app.command("stats")
def stats_cmd(
    character: AsOpt = None,
    ruleset: RulesetOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per ruleset.")] = False,
) -> None:
    """Luck against the exact odds: per ruleset, each outcome seen against the sum of
    its exact probability over the logged rolls, how far from expectation that is, and
    the faces of each die size with a χ² test of fairness.

    Covers the single-roll commands (roll, task) with one result per entry; roll
    types, combat and repeated commands are left out.

    Example: rpgdice log stats --ruleset seyruun
    """
    log = _open()
    groups = [] if log is None else compute_stats(log, ruleset, character)
    if log is not None:
        log.release()
    if as_json:
        sys.stdout.write("".join(json.dumps(g, ensure_ascii=False) + "\n" for g in groups))
        sys.stdout.flush()
        return
    from rpgdice.render import log as view

    view.show_stats(groups, character)


def compute_stats(log: Any, ruleset: Optional[str], character: Optional[str]) -> list[dict[str, Any]]:
    """Per ruleset: rolls, outcomes, expected outcomes (exact odds of each roll's spec,
    rebuilt from its arguments; computed once per distinct spec), the luck verdict and
    face counts with their χ² test."""
    from rpgdice.cli.replay import FLAGS, VALUED, capture, strip, with_character
    from rpgdice.core import luck

    clause, args = log.where("n > 0", ruleset=ruleset, character=character, who="who")
    rows = log.con.execute(f"SELECT ruleset, argv, who, outcome, n FROM stats_rolls{clause}",
                           args).fetchall()
    face_rows = log.con.execute(
        f"SELECT ruleset, die, face, sum(n) FROM stats_faces{clause} GROUP BY ruleset, die, face",
        args).fetchall()

    from rpgdice import __version__

    specs: dict[tuple[str, ...], Any] = {}
    cached = log.cached_odds()
    odds_by_key: dict[str, dict[str, float]] = {}
    new: dict[str, str] = {}
    out: dict[str, dict[str, Any]] = {}

    def outcome_odds(argv_text: str, who: Optional[str]) -> Optional[dict[str, float]]:
        argv = tuple(with_character(strip(json.loads(argv_text), VALUED, FLAGS), who))
        if argv not in specs:
            try:
                spec = capture(list(argv), roll=False).spec
            except Exception:  # a command that no longer parses (a sheet changed...)
                spec = None
            specs[argv] = spec
        spec = specs[argv]
        if spec is None:
            return None
        key = f"{__version__} {spec.key}"
        if key not in odds_by_key:
            if key in cached:
                odds_by_key[key] = json.loads(cached[key])
            else:
                try:
                    computed = spec()
                except RulesError:  # odds over their work budget: left out, not computed
                    specs[argv] = None
                    return None
                odds_by_key[key] = {k: float(v) for k, v in computed.outcomes.items()}
                new[key] = json.dumps(odds_by_key[key])
        return odds_by_key[key]

    g: dict[str, Any] | None
    for rs, argv_text, who, outcome, n in rows:
        g = out.setdefault(rs, {
            "ruleset": rs, "character": character, "rolls": 0, "outcomes": {}, "expected": {},
            "faces": {}, "left_out": 0, "_variance": {},
        })
        if rs == "dice":  # ordinary dice have no outcome: their faces are what is judged
            g["rolls"] += n
            continue
        probs = outcome_odds(argv_text, who or None)
        if probs is None:
            g["left_out"] += n
            continue
        g["rolls"] += n
        for name, p in probs.items():
            g["outcomes"].setdefault(name, 0)
            g["expected"][name] = g["expected"].get(name, 0.0) + n * p
            g["_variance"][name] = g["_variance"].get(name, 0.0) + n * p * (1 - p)
        g["outcomes"][outcome] = g["outcomes"].get(outcome, 0) + n

    for rs, die, face, n in face_rows:
        g = out.get(rs)
        if g is not None:
            g["faces"].setdefault(die, {})[str(face)] = n

    groups = []
    for rs in RULESETS:
        g = out.get(rs)
        if g is None:
            continue
        variance = g.pop("_variance")
        g["z"] = {name: luck.z_score(g["outcomes"].get(name, 0), g["expected"][name],
                                     variance[name]) for name in g["expected"]}
        g["verdict"] = (luck.verdict(g["z"].get("success"))
                        if "success" in g["z"] else None)
        g["fairness"] = {}
        for die, counts in g["faces"].items():
            sides = int(die[1:])
            full = {str(f): counts.get(str(f), 0) for f in range(1, sides + 1)}
            g["faces"][die] = full
            stat = luck.chi_squared(list(full.values()))
            p = luck.chi2_sf(stat, sides - 1)
            g["fairness"][die] = {"chi2": round(stat, 4), "df": sides - 1, "p": p,
                                  "verdict": luck.fairness(p), "rolled": sum(full.values())}
        groups.append(g)
    if new:  # keep the odds for the next time; a log that cannot be written keeps none
        try:
            from rpgdice.table.log import Log

            writer = Log.open(write=True, path=log.path)
            if writer is not None:
                writer.cache_odds(new)
                writer.release()
        except Exception:
            pass
    return groups

#!/usr/bin/env python3
"""The roll log's speed, on a full log.

    python bench/log_bench.py [--entries N] [--rounds N] [--keep DIR] [--quick]

Builds a log of ``--entries`` (default 100000, the log's bound) real entries in a
temporary RPGDICE_HOME — single rolls of about forty different commands of the four
rulesets, with a few roll types and repeated commands among them, each rolled by the
engine from its own seed, written in one transaction — then times, in interleaved
rounds, medians:

* ``python -c "import typer"`` (the floor of any Typer program);
* a colored roll with logging on (``FORCE_COLOR=1 RPGDICE_LOG=always``): goal <= 1.6x;
* ``rpgdice log --last 20``: goal <= 2x;
* ``rpgdice log stats``: goal < 1 s (and, for information, the first ``log stats``
  with no exact odds cached yet, which computes them: once per distinct roll).

``--large K`` (issue 24) puts K large entries among them — ``crytures roll 1000 -n 990``
with all 990 results stored, 35 MB each, as an rpgdice before the byte cap stored them —
and three logged ``crytures roll 1000 --attack`` (whose exact odds are costly), then
measures once each the time and peak memory (RSS, of the process itself) of ``log``,
``log --last 100000`` and a first ``log stats`` (no odds cached).

``--quick`` (the tests run it, so the bench cannot rot): 300 entries, one round, one cold
``log stats``; with ``--large``, small large entries (``crytures roll 10 -n 9``). Its
figures say only that every case runs.

Use the Python rpgdice is installed in (``sys.executable`` runs everything).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TEMPLATES = [
    *(["seyruun", "roll", str(a), str(s)] for a in (1, 2, 3, 4) for s in (0, 1, 2, 3)),
    ["seyruun", "roll", "3", "2", "-d", "moderate"],
    ["seyruun", "roll", "2", "2", "--willpower", "--reroll"],
    ["seyruun", "roll", "4", "3", "--wound", "light", "--bonus", "2"],
    *(["crytures", "roll", str(p)] for p in (2, 4, 6, 8)),
    ["crytures", "roll", "5", "-d", "7", "-c", "2"],
    ["crytures", "roll", "6", "--attack"],
    *(["reglas", "roll", str(i), "-d", d] for i in (4, 8, 12) for d in ("none", "normal", "dificil")),
    *(["cypher", "task", "-d", str(d)] for d in range(1, 7)),
    ["cypher", "task", "-d", "5", "--skill", "trained", "--asset", "1"],
]
OTHERS = [  # roll types and repeated commands: logged, left out of stats
    ["seyruun", "contest", "3+2", "2+3"],
    ["reglas", "multi", "2", "10", "-d", "normal"],
    ["crytures", "roll", "4", "-n", "5"],
]
def _roller(ruleset: str) -> Any:
    def roll(spec: Any, kw: dict[str, Any], src: Any) -> Any:
        from importlib import import_module

        return import_module(f"rpgdice.rulesets.{ruleset}.rules").roll(spec, src, **kw)
    return roll


ROLLERS = {f"{r}_odds": _roller(r) for r in ("crytures", "seyruun", "reglas", "cypher")}


def _capture(argv: list[str], roll: bool) -> Any:
    """What the command line ``argv`` rolls (``roll``) and its odds spec, nothing shown (a
    command line, parsed as ``rpgdice`` parses it: not a log entry, which
    ``rpgdice.cli.replay.capture`` takes)."""
    from rpgdice.cli import root
    from rpgdice.roll.execute import replay

    spec, _, _ = root().parse_words([str(a) for a in argv])
    return replay(spec, roll=roll)


def _large_rows(stamp: str, k: int, quick: bool = False) -> list[tuple[Any, ...]]:
    """K entries of ``crytures roll 1000 -n 990`` (every result stored, as an older
    rpgdice did) and three single ``crytures roll 1000 --attack`` with their odds spec
    (``quick``: of 10 dice, 9 results)."""
    from rpgdice.render.jsonl import to_data
    from rpgdice.table.log import rolled_faces

    capture = _capture
    dice, n = ("10", "9") if quick else ("1000", "990")
    argv = ["crytures", "roll", dice, "-n", n]
    cap = capture([*argv, "--seed", "1"], roll=True)
    data = [{**to_data(r.result), "seed": 1} for r in cap.results]
    text = json.dumps(data, separators=(",", ":"))
    faces = json.dumps(rolled_faces(data))
    rows: list[tuple[Any, ...]] = [
        (stamp, json.dumps(argv), None, "crytures", "roll", "1", None, len(data), None, text,
         faces, None) for _ in range(k)]
    attack = ["crytures", "roll", dice, "--attack"]
    spec = json.dumps(capture(attack, roll=False).spec.data())
    for seed in (1, 2, 3):
        one = capture([*attack, "--seed", str(seed)], roll=True)
        d = [{**to_data(one.results[0].result), "seed": seed}]
        rows.append((stamp, json.dumps(attack), None, "crytures", "roll", str(seed), None, 1,
                     d[0]["outcome"], json.dumps(d), json.dumps(rolled_faces(d)), spec))
    return rows


def build(home: Path, n: int, large: int = 0, quick: bool = False) -> float:
    """Write ``n`` entries into ``home``'s log; returns the seconds it took."""
    os.environ["RPGDICE_HOME"] = str(home)
    from rpgdice.core.dice import SeededDice

    capture = _capture
    from rpgdice.render.jsonl import to_data
    from rpgdice.table.log import Log, now, rolled_faces

    start = time.perf_counter()
    specs = []
    for argv in TEMPLATES:
        spec = capture(argv, roll=False).spec
        specs.append((argv, ROLLERS[spec.function], spec.args[0], spec.kwargs))
    others = []
    for argv in OTHERS:
        cap = capture([*argv, "--seed", "1"], roll=True)
        data = [{**to_data(r.result), "seed": 1} for r in cap.results]
        others.append((argv, data))
    rows: list[tuple[Any, ...]] = []
    stamp = now()
    big = _large_rows(stamp, large, quick) if large else []
    for i in range(n - len(big)):
        seed = (i * 0x9E3779B97F4A7C15) % 2**64
        if i % 20 == 19:
            argv, data = others[i % len(others)]
            count = len(data)
            outcome = data[0]["outcome"] if count == 1 else None
            rows.append((stamp, json.dumps(argv), None, data[0]["ruleset"], data[0]["command"], "1",
                         None, count, outcome, json.dumps(data), json.dumps(rolled_faces(data)),
                         None))
            continue
        argv, roll, spec, kwargs = specs[i % len(specs)]
        data = [{**to_data(roll(spec, kwargs, SeededDice(seed))), "seed": seed}]
        rows.append((stamp, json.dumps(argv), None, data[0]["ruleset"], data[0]["command"], str(seed),
                     None, 1, data[0]["outcome"], json.dumps(data, separators=(",", ":")),
                     json.dumps(rolled_faces(data)), None))
    step = max(1, len(rows) // (len(big) + 1))
    for j, row in enumerate(big):  # spread among the others
        rows.insert((j + 1) * step, row)
    log = Log.open(write=True)
    assert log is not None
    log.con.execute("BEGIN")
    log.con.executemany(
        "INSERT INTO entries (time, argv, character, ruleset, command, seed, faces, count,"
        " outcome, results, rolled, spec) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    log.con.execute("COMMIT")
    log.con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    log.close()
    return time.perf_counter() - start


def _program() -> list[str]:
    script = Path(sys.executable).with_name("rpgdice")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "rpgdice"]


def _time(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    run = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    elapsed = time.perf_counter() - start
    if run.returncode != 0 or run.stderr:
        raise SystemExit(f"{' '.join(argv)} failed ({run.returncode}): {run.stderr.decode()[-500:]}")
    return elapsed


def _measured(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Seconds and peak RSS (MiB) of one run of ``argv``, by ``/usr/bin/time`` (a child
    forked from this big process would count this process's pages as its own)."""
    start = time.perf_counter()
    run = subprocess.run(["/usr/bin/time", "-f", "%M", *argv], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, env=env)
    elapsed = time.perf_counter() - start
    err = run.stderr.decode()
    if run.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({run.returncode}): {err[-500:]}")
    return elapsed, int(err.strip().splitlines()[-1]) / 1024


def large_cases(home: Path, env: dict[str, str]) -> None:
    """Time and peak memory of the listing and a first stats, on the large log."""
    prog = _program()
    for name, argv in (("log", ["log"]), ("log --last 100000", ["log", "--last", "100000"]),
                       ("log --json --last 100000", ["log", "--json", "--last", "100000"]),
                       ("log stats (no odds cached)", ["log", "stats"])):
        if "stats" in name:
            con = sqlite3.connect(home / "log.sqlite3")
            con.execute("DELETE FROM odds_cache")
            con.commit()
            con.close()
        seconds, rss = _measured([*prog, *argv], {**env, "FORCE_COLOR": "1"})
        print(f"{name:<28} {seconds:>8.1f} s {rss:>8.0f} MiB peak RSS", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--entries", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--keep", type=Path, help="build the log in DIR and keep it")
    ap.add_argument("--large", type=int, default=0, metavar="K",
                    help="K large entries among them; measure time and memory once each")
    ap.add_argument("--reuse", action="store_true", help="use the log already in --keep DIR")
    ap.add_argument("--quick", action="store_true",
                    help="300 entries, one round: that every case runs (the tests' run)")
    args = ap.parse_args(argv)
    if args.quick:
        args.entries, args.rounds = min(args.entries, 300), 1

    home = args.keep or Path(tempfile.mkdtemp(prefix="rpgdice-log-bench-"))
    home.mkdir(parents=True, exist_ok=True)
    if not (args.reuse and (home / "log.sqlite3").exists()):
        (home / "log.sqlite3").unlink(missing_ok=True)
        built = build(home, args.entries, args.large, args.quick)
        size = (home / "log.sqlite3").stat().st_size / 2**20
        print(f"built a log of {args.entries} entries in {built:.1f} s ({size:.1f} MiB)",
              flush=True)

    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONDONTWRITEBYTECODE", "NO_COLOR", "FORCE_COLOR", "RPGDICE_SEED",
                        "RPGDICE_LOG")}
    env["RPGDICE_HOME"] = str(home)
    env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="rpgdice-bench-")
    prog = _program()
    if args.large:
        large_cases(home, env)
        if not args.keep:
            shutil.rmtree(home, ignore_errors=True)
        return 0
    cases = {
        "import typer": ([sys.executable, "-c", "import typer"], {}),
        "colored roll, logged": ([*prog, "seyruun", "roll", "3", "2", "--bonus", "1"],
                                 {"FORCE_COLOR": "1", "RPGDICE_LOG": "always"}),
        "colored roll, not logged": ([*prog, "seyruun", "roll", "3", "2", "--bonus", "1"],
                                     {"FORCE_COLOR": "1", "RPGDICE_LOG": "never"}),
        "log --last 20": ([*prog, "log", "--last", "20"], {"FORCE_COLOR": "1"}),
        "log stats": ([*prog, "log", "stats"], {"FORCE_COLOR": "1"}),
    }
    names = list(cases)
    # Once with no odds cached (the first stats after new kinds of rolls compute them).
    cold = []
    for _ in range(1 if args.quick else 3):
        con = sqlite3.connect(home / "log.sqlite3")
        con.execute("DELETE FROM odds_cache")
        con.commit()
        con.close()
        cold.append(_time(cases["log stats"][0], {**env, **cases["log stats"][1]}))
    for name in names:
        _time(cases[name][0], {**env, **cases[name][1]})
    times: dict[str, list[float]] = {name: [] for name in names}
    for r in range(args.rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            times[name].append(_time(cases[name][0], {**env, **cases[name][1]}))
    med = {name: statistics.median(v) * 1000 for name, v in times.items()}
    floor = med["import typer"]
    print(f"{args.rounds} interleaved rounds, medians; Python {sys.version.split()[0]}")
    for name in names:
        print(f"{name:<26} {med[name]:>8.1f} ms {med[name] / floor:>6.2f}x import typer")
    print(f"{'log stats, no odds cached':<26} {statistics.median(cold) * 1000:>8.1f} ms "
          f"(median of {len(cold)}; {len(TEMPLATES)} distinct rolls' odds computed)")
    goals = [
        ("colored roll, logged", med["colored roll, logged"] / floor, 1.6, "x"),
        ("log --last 20", med["log --last 20"] / floor, 2.0, "x"),
        ("log stats", med["log stats"] / 1000, 1.0, " s"),
    ]
    print("goals:", "; ".join(f"{n} {v:.2f}{u} (goal {g}{u}: {'met' if v <= g else 'NOT met'})"
                              for n, v, g, u in goals))
    if not args.keep:
        shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

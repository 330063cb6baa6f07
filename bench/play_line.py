#!/usr/bin/env python3
"""What one line of ``rpgdice play`` costs against one repetition of ``-n``.

    python bench/play_line.py [--lines N] [--rounds R] [--quick] [--pin CPU]

Times, as whole processes (the same home, nothing logged), ``rpgdice play --json`` fed
N lines of ``roll 4d6kh3`` and ``rpgdice roll 4d6kh3 -n N --json``, each less a run of the
same process that rolls once (``play`` fed one line, ``roll 4d6kh3 --json``: loading the
roll's command and ruleset is counted in neither), and prints the cost per roll of each
and their ratio (issue "A roll is a value": at most 3x). The median of R rounds, the two
interleaved (``--quick``, the tests' run: 2000 lines, one round, that it runs). Each process is timed by its CPU time (user + system), which other work on
the machine does not inflate as it does the wall clock (``--wall``).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _program() -> list[str]:
    exe = Path(sys.executable).with_name("rpgdice")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "rpgdice"]


CPU = True
"""Whether a run is timed by its CPU time (user + system, the child's own) rather than by
the wall clock: on a machine busy with other work, the wall clock counts their time too."""


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _time(argv: list[str], stdin: bytes, env: dict[str, str]) -> float:
    start, cpu = time.perf_counter(), _cpu()
    done = subprocess.run(argv, input=stdin, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, check=False)
    took = (_cpu() - cpu) if CPU else time.perf_counter() - start
    if done.returncode:
        sys.exit(f"{' '.join(argv)}: exit {done.returncode}: {done.stderr.decode()[:300]}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--wall", action="store_true",
                        help="time by the wall clock (default: each process's CPU time)")
    parser.add_argument("--quick", action="store_true",
                        help="2000 lines, one round: that it runs (the tests' run)")
    parser.add_argument("--pin", type=int, metavar="CPU",
                        help="run everything on that processor alone (a quieter measure on a "
                        "shared machine: no run moves between processors mid-way)")
    args = parser.parse_args()
    if args.pin is not None:
        os.sched_setaffinity(0, {args.pin})  # every process it starts inherits it
    if args.quick:
        args.lines, args.rounds = min(args.lines, 2000), 1
    global CPU
    CPU = not args.wall
    n = args.lines
    home = tempfile.mkdtemp(prefix="rpgdice-bench-")
    env = {**os.environ, "RPGDICE_HOME": home, "RPGDICE_LOG": "never"}
    prog = _program()
    lines = ("roll 4d6kh3\n" * n).encode()
    play, play0, rep, rep0 = [], [], [], []
    for _ in range(args.rounds):
        play.append(_time([*prog, "play", "--json"], lines, env))
        play0.append(_time([*prog, "play", "--json"], b"roll 4d6kh3\n", env))
        rep.append(_time([*prog, "roll", "4d6kh3", "-n", str(n), "--json"], b"", env))
        rep0.append(_time([*prog, "roll", "4d6kh3", "--json"], b"", env))
    per_line = (statistics.median(play) - statistics.median(play0)) / (n - 1) * 1e6
    per_rep = (statistics.median(rep) - statistics.median(rep0)) / (n - 1) * 1e6
    print(f"play --json, a line of roll 4d6kh3:  {per_line:7.1f} µs")
    print(f"roll 4d6kh3 -n {n} --json, a roll:  {per_rep:7.1f} µs")
    print(f"({'wall clock' if args.wall else 'CPU time, user + system'})")
    print(f"ratio: {per_line / per_rep:.2f}x (goal: at most 3x)")


if __name__ == "__main__":
    main()

"""Benchmark: exact odds of a 40-die Crytures pool, end to end, against Python's start.

Runs, in one process and interleaved so that machine load hits all alike:

* ``python -c pass``             – the interpreter alone;
* ``python -c "import typer"``   – the floor of any Typer command line;
* ``rpgdice crytures odds 40``   – the goal: within 2× ``import typer``;
* for reference, to see where the time goes: ``import icepool``, ``import rich.text``,
  ``rpgdice crytures odds 40 --json`` (no Rich) and ``rpgdice crytures roll 40`` with and
  without ``--json`` (no icepool).

Every command is a fresh process started with this interpreter (``sys.executable``:
not a ``python`` shim on PATH), stdout to a pipe. The figure is the median of N runs
(default 15) after one warm-up run each; the ratios are of the medians.

    python bench/odds_bench.py [N] [--quick]

``--quick`` (the tests run it, so the bench cannot rot): one run each, no warm-up, and the
goal is not judged (exit 0): its figures say only that every case runs.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

PY = sys.executable
COMMANDS = {
    "python -c pass": [PY, "-c", "pass"],
    "import typer": [PY, "-c", "import typer"],
    "import icepool": [PY, "-c", "import icepool"],
    "import rich.text": [PY, "-c", "import rich.console, rich.text"],
    "crytures odds 40": [PY, "-m", "rpgdice", "crytures", "odds", "40"],
    "crytures odds 40 --json": [PY, "-m", "rpgdice", "crytures", "odds", "40", "--json"],
    "crytures roll 40": [PY, "-m", "rpgdice", "crytures", "roll", "40", "--seed", "1"],
    "crytures roll 40 --json": [PY, "-m", "rpgdice", "crytures", "roll", "40", "--json", "--seed", "1"],
}
GOAL = 2.0
"""``crytures odds 40`` within this many times ``import typer``."""


def once(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, capture_output=True, check=True)
    return time.perf_counter() - start


def main(runs: int = 15, quick: bool = False) -> int:
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for argv in COMMANDS.values() if not quick else ():
        once(argv)  # warm-up: bytecode caches, page cache
    for _ in range(runs):
        for name, argv in COMMANDS.items():
            times[name].append(once(argv))
    median = {name: statistics.median(t) for name, t in times.items()}
    typer_floor = median["import typer"]
    print(f"{runs} runs each, median wall time ({PY})")
    for name, t in median.items():
        print(f"  {name:<26} {t * 1000:7.1f} ms   {t / typer_floor:5.2f}× import typer"
              f"   {t / median['python -c pass']:5.2f}× python -c pass")
    ratio = median["crytures odds 40"] / typer_floor
    verdict = "within" if ratio <= GOAL else "NOT within"
    print(f"crytures odds 40 = {ratio:.2f}× import typer: {verdict} the goal of {GOAL:g}×"
          + (" (--quick: not judged)" if quick else ""))
    return 0 if ratio <= GOAL or quick else 1


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--quick"]
    quick = len(args) < len(sys.argv) - 1
    sys.exit(main(int(args[0]) if args else (1 if quick else 15), quick))

#!/usr/bin/env python3
"""How fast a session (``rpgdice play``) answers, driving the session itself.

    python bench/session_bench.py [--rolls N] [--rounds N] [--mixed N] [--quick]

* ``--json`` roll: one ``rpgdice play --json`` process fed through a pipe, one line at a
  time; each roll timed from writing its line to reading its JSON line (the median).
* colored roll at the prompt: ``rpgdice play`` in a pseudo-terminal (pexpect), each roll
  timed from pressing Enter to the next prompt being drawn (output, colors, the prompt
  redrawn: what the game master waits for), not logged and then logged (a terminal's
  default, ``RPGDICE_LOG=auto``); and colored rolls in batch mode
  (``FORCE_COLOR=1``), per roll from the time of N rolls minus an empty session's.
* mixed batch: N (default 10,000) mixed commands (every ruleset, text and JSON, given
  faces, a character's rolls, aliases, errors, some logged) in one ``rpgdice play``.
* start-up: ``rpgdice play < /dev/null`` (batch, nothing to do) and the prompt's first
  appearance in a pseudo-terminal, in interleaved rounds against ``python -c "import
  typer"`` and ``python -c pass``.

Goals (issue 22): a ``--json`` roll at most 1 ms median and a colored roll at most 5 ms;
10,000 mixed commands within 10 s; ``rpgdice play`` starting within 3x import typer.
``--quick`` (the tests' run, so the bench cannot rot): 20 rolls, 200 mixed commands, one
round: its figures say only that every case runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from startup import _home, _program  # the same home (characters, an alias) and program

ROLL = "seyruun roll 3 2 --bonus 1 -d moderate"
GOALS = {"--json roll": ("ms", 1.0), "colored roll (prompt)": ("ms", 5.0),
         "colored roll (batch)": ("ms", 5.0), "10,000 mixed": ("s", 10.0),
         "play start (batch)": ("x", 3.0), "play start (prompt)": ("x", 3.0)}
MIXED_SHARE = (
    # (share of the lines, a template: {i} is the line's number) -- mostly JSON, as a
    # script reads it; every ruleset, pools that vary, given faces, a character, an alias,
    # text views, errors, comments and a few logged rolls.
    (16, "seyruun roll {a} {b} --bonus {c} --json"),
    (12, "crytures roll {a}+{b} --roll-mod {c} --json"),
    (12, "reglas roll {a}+{b} -d normal --json"),
    (10, "cypher task -d {c} --skill trained --json"),
    (10, "roll {a}d6+{b} --json"),
    (6, "seyruun roll dexterity stealth --as ysolde --json"),
    (4, "sneak --json"),
    (4, "seyruun contest {a}+{b} {b}+{c} --json"),
    (4, "reglas multi 2 {a} --json"),
    (4, "crytures roll {a} --dice {faces} --json"),
    (3, "seyruun extended {a} {b} --target 5 --json"),
    (3, "cypher task -d {c} --json -n 3"),
    (3, "roll {a}d6+{b}"),
    (3, "seyruun roll {a} {b}"),
    (2, "seyruun roll {a} {b} --wound mortal"),
    (2, "# a comment"),
    (1, "char show ysolde --json"),
    (1, "seyruun roll {a} {b} --log --json"),
)
"""10,000 mixed commands: the share (of 100) each kind of line takes."""


def mixed_lines(n: int) -> list[str]:
    kinds = [template for share, template in MIXED_SHARE for _ in range(share)]
    lines = []
    for i in range(n):
        a, b, c = 1 + i % 7, i % 5, i % 4
        lines.append(kinds[i % len(kinds)].format(a=a, b=b, c=c,
                                                  faces=",".join(str(1 + (i + k) % 10) for k in range(a))))
    return lines


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONDONTWRITEBYTECODE", "NO_COLOR", "FORCE_COLOR", "RPGDICE_SEED",
                        "RPGDICE_AS", "RPGDICE_LOG", "COLUMNS")}
    env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="rpgdice-bench-")
    env["RPGDICE_HOME"] = _home()
    return env


def json_rolls(env: dict[str, str], n: int) -> list[float]:
    """Seconds per ``--json`` roll, each from its line written to its answer read."""
    child = subprocess.Popen([*_program(), "play", "--json"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, env=env, text=True, bufsize=1)
    assert child.stdin is not None and child.stdout is not None
    times = []
    for i in range(n + 50):  # the first 50 warm up (the group built, the OS caches)
        start = time.perf_counter()
        child.stdin.write(ROLL + "\n")
        child.stdin.flush()
        line = child.stdout.readline()
        if i >= 50:
            times.append(time.perf_counter() - start)
        if not line.startswith('{"ruleset": "seyruun"'):
            raise SystemExit(f"unexpected answer: {line!r}")
    child.stdin.close()
    child.wait()
    return times


def _spawn(env: dict[str, str]):  # -> pexpect.spawn
    import pexpect

    prog = _program()
    child = pexpect.spawn(prog[0], [*prog[1:], "play"], env={
        **env, "PROMPT_TOOLKIT_NO_CPR": "1", "TERM": "xterm-256color"},
        encoding="utf-8", timeout=30, dimensions=(40, 100))
    child.delaybeforesend = None  # pexpect sleeps 50 ms before each send otherwise
    return child


def prompt_rolls(env: dict[str, str], n: int) -> list[float]:
    """Seconds per colored roll at the prompt: Enter pressed to the next prompt drawn."""
    child = _spawn(env)
    child.expect_exact("rpgdice>")
    times = []
    for i in range(n + 20):
        child.send(ROLL)
        child.expect_exact("moderate")  # the line echoed: all typed
        start = time.perf_counter()
        child.send("\r")
        child.expect_exact("Seyruun roll")
        child.expect_exact("rpgdice>")
        if i >= 20:
            times.append(time.perf_counter() - start)
    child.sendcontrol("d")
    child.expect(__import__("pexpect").EOF)
    return times


def _batch(env: dict[str, str], text: str) -> float:
    start = time.perf_counter()
    run = subprocess.run([*_program(), "play"], input=text, text=True, env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if run.returncode not in (0, 2):
        raise SystemExit(f"play failed ({run.returncode}): {run.stderr[-500:]}")
    return elapsed


def colored_batch(env: dict[str, str], n: int, rounds: int) -> float:
    """Seconds per colored roll in batch mode: (n rolls - an empty session) / n."""
    colored = {**env, "FORCE_COLOR": "1", "COLUMNS": "100"}
    per = []
    for _ in range(rounds):
        full = _batch(colored, (ROLL + "\n") * n)
        empty = _batch(colored, "")
        per.append((full - empty) / n)
    return statistics.median(per)


def mixed(env: dict[str, str], n: int) -> tuple[float, float, int]:
    """Wall and CPU seconds (the session's user + system time: what a busy machine's other
    work does not add) of one batch of ``n`` mixed lines."""
    import resource

    lines = mixed_lines(n)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = _batch(env, "\n".join(lines) + "\n")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, len(lines)


def _prompt_start(env: dict[str, str]) -> float:
    start = time.perf_counter()
    child = _spawn(env)
    child.expect_exact("rpgdice>")
    elapsed = time.perf_counter() - start
    child.sendcontrol("d")
    child.expect(__import__("pexpect").EOF)
    return elapsed


def starts(env: dict[str, str], rounds: int) -> dict[str, float]:
    """Median seconds of each start-up case, in interleaved rounds."""
    py = sys.executable

    def run(argv: list[str]) -> float:
        start = time.perf_counter()
        subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, env=env,
                       check=True)
        return time.perf_counter() - start

    cases = {
        "python -c pass": lambda: run([py, "-c", "pass"]),
        "import typer": lambda: run([py, "-c", "import typer"]),
        "play start (batch)": lambda: run([*_program(), "play"]),
        "play start (prompt)": lambda: _prompt_start(env),
    }
    times: dict[str, list[float]] = {name: [] for name in cases}
    names = list(cases)
    for name in names:
        cases[name]()  # warm up
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            times[name].append(cases[name]())
    return {name: statistics.median(v) for name, v in times.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rolls", type=int, default=1000, help="rolls timed one by one (1000)")
    ap.add_argument("--rounds", type=int, default=11, help="interleaved start-up rounds (11)")
    ap.add_argument("--mixed", type=int, default=10000, help="mixed commands in batch (10000)")
    ap.add_argument("--quick", action="store_true",
                    help="20 rolls, 200 mixed, one round: that every case runs (the tests' run)")
    args = ap.parse_args(argv)
    if args.quick:
        args.rolls, args.mixed, args.rounds = 20, 200, 1
    env = _env()
    results: dict[str, float] = {}
    print(f"rpgdice session bench; Python {sys.version.split()[0]} ({sys.executable}); "
          f"program: {' '.join(_program())}")
    js = json_rolls(env, args.rolls)
    results["--json roll"] = statistics.median(js) * 1000
    print(f"--json roll (pipe)      median {results['--json roll']:.3f} ms, p90 "
          f"{statistics.quantiles(js, n=10)[-1] * 1000:.3f} ms over {len(js)} rolls")
    for log, label in (("never", "colored roll (prompt)"), ("auto", "  logged (prompt)")):
        try:
            pr = prompt_rolls({**env, "RPGDICE_LOG": log},
                              max(args.rolls // 5, 5 if args.quick else 50))
        except ImportError:
            print(f"{label:<23} skipped: pexpect is not installed (pip install pexpect)")
            break
        results[label] = statistics.median(pr) * 1000
        print(f"{label:<23} median {results[label]:.3f} ms, p90 "
              f"{statistics.quantiles(pr, n=10)[-1] * 1000:.3f} ms over {len(pr)} rolls "
              f"(Enter to the next prompt; RPGDICE_LOG={log})")
    batches = 1 if args.quick else 5
    results["colored roll (batch)"] = colored_batch(env, args.rolls, batches) * 1000
    print(f"colored roll (batch)    {results['colored roll (batch)']:.3f} ms a roll "
          f"({args.rolls} rolls minus an empty session, median of {batches})")
    seconds, cpu, count = mixed(env, args.mixed)
    results["10,000 mixed"] = seconds * 10000 / count  # scaled to 10,000
    print(f"mixed batch             {seconds:.2f} s for {count} commands "
          f"({seconds / count * 1000:.3f} ms each; CPU {cpu:.2f} s)")
    med = starts(env, args.rounds)
    floor, bare = med["import typer"], med["python -c pass"]
    print(f"{'start-up case':<22} {'median ms':>10} {'x import typer':>15} {'x python -c pass':>17}")
    for name, value in med.items():
        print(f"{name:<22} {value * 1000:>10.1f} {value / floor:>15.2f} {value / bare:>17.2f}")
        if name.startswith("play"):
            results[name] = value / floor
    print("goals:", "; ".join(
        f"{name} {results[name]:.2f}{unit} (goal {goal}{unit}: "
        f"{'met' if results[name] <= goal else 'NOT met'})"
        for name, (unit, goal) in GOALS.items() if name in results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

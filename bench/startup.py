#!/usr/bin/env python3
"""How fast rpgdice starts, against the floor of any Typer program.

    python bench/startup.py [--rounds N] [--quick] [--pin CPU]

Runs, in interleaved rounds (each round runs every case once, in a rotated order),
and reports the median wall time of each case and its ratio to
``python -c "import typer"`` (the floor of any Typer program: run beside each run of a case,
the median of the pairs' ratios, :data:`RATIOS`) and ``python -c pass``:

* a ``--json`` roll, a colored roll (``FORCE_COLOR=1``), a colored roll for a saved
  character (``--as``, trait names, from a temporary RPGDICE_HOME), an ordinary dice
  ``--json`` roll (``rpgdice roll 2d6+3 --json``), a roll of a user's ruleset file
  (``owod roll``, ``docs/rulesets/owod.toml``, JSON and colored) and ``--help``, each run as
  the ``rpgdice`` console script next to this Python (``python -m rpgdice`` when
  there is none);
* one TAB in bash: ``bash -c 'source completions/rpgdice.bash; COMP_WORDS=(...);
  COMP_CWORD=..; _rpgdice'`` minus a bare ``bash -c :`` (the extra cost of loading
  the script and completing once), and the cost of the completion function alone,
  timed inside one bash over many calls with ``$EPOCHREALTIME``; and the same for a TAB
  after ``--as`` (character names listed from the sheets by bash itself).

Use the Python rpgdice is installed in (``sys.executable`` runs everything; the
``python`` on PATH may be a slow shim). Bytecode is written to a temporary cache
(PYTHONPYCACHEPREFIX) and every case is run once before timing, so every case
starts from compiled bytecode as an installed program does, even where
PYTHONDONTWRITEBYTECODE is set. ``--quick`` (the tests' run, so the bench cannot rot): one
round, no warm-up: its figures say only that every case runs.

Goals (issues 5 and 10): a TAB within 5 ms (names after ``--as`` too); a ``--json`` roll
within 1.15x and a colored roll (with ``--as`` too) within 1.6x the import-typer floor;
(issue 19) a colored ``seyruun attack --vs NAME`` that writes the damage into the target's
sheet within 1.6x too.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASH_SCRIPT = ROOT / "completions" / "rpgdice.bash"
ROLL = ["seyruun", "roll", "3", "2", "--bonus", "1", "-d", "moderate"]
ROLL_AS = ["seyruun", "roll", "dexterity", "stealth", "--bonus", "1", "-d", "moderate", "--as", "ysolde"]
ATTACK_VS = ["seyruun", "attack", "3+3", "--damage", "5", "--vs", "ghoul", "--dice",
             "6,2,2,2,2,2,6,6,6,2,2"]
"""An attack that hits for 3 and writes the damage into the target's sheet (issue 19)."""
GHOUL = """name = "Ghoul"
ruleset = "seyruun"

[traits]
wits = 2
dexterity = 2
health = 1000
"""
DICE_ROLL = ["roll", "2d6+3"]
DICE_WIDE = ["roll", "{5d6r1!kh3min2[fire], (2d10!!>=9)*2}kh1 + 4dF - max(1d4, 2)/2 >= 10 # widest"]
"""A colored roll of the widest form (issue 21): groups, re-roll, explode, keep, min, labels,
Fudge dice, functions, a DC check."""
"""Ordinary dice (issue 13): held to the --json goal like every ruleset."""
OWN_ROLL = ["owod", "roll", "5", "-d", "2"]
"""A user's own ruleset file (issue 36): held to the goals of a built-in roll."""
TAB_WORDS = "rpgdice seyruun roll 3 --wound ''"
TAB_CWORD = 5
TAB_AS_WORDS = "rpgdice seyruun roll 3 --as ''"
IN_SHELL_CALLS = 2000
RATIOS = ("--json roll", "colored roll", "colored --as", "dice --json roll", "dice colored widest",
          "attack --vs", "own --json roll", "own colored roll", "--help")
"""The cases whose ratio to ``import typer`` is taken run by run: each run beside a run of
``import typer`` made just after it, and the median of those ratios (two commands timed
in turn, pair by pair): a ratio of two medians taken apart moves with the machine's speed
between them (this two-core machine gave 1.12 and 1.33 for the same --json roll an hour
apart)."""
GOALS = {"TAB in bash": ("ms", 5.0), "TAB --as": ("ms", 5.0), "--json roll": ("x", 1.15),
         "colored roll": ("x", 1.6), "colored --as": ("x", 1.6), "attack --vs": ("x", 1.6),
         "dice --json roll": ("x", 1.15), "dice colored widest": ("x", 1.6),
         "own --json roll": ("x", 1.15), "own colored roll": ("x", 1.6)}
SHEET = """name = "Ysolde"
ruleset = "seyruun"

[traits]
dexterity = 3
stealth = 2
composure = 3
resolve = 2
willpower = 5
wound = "none"
"""


def _home() -> str:
    """A temporary RPGDICE_HOME with a few characters and an alias (the --as cases)."""
    home = Path(tempfile.mkdtemp(prefix="rpgdice-bench-home-"))
    (home / "characters").mkdir()
    (home / "characters" / "ysolde.toml").write_text(SHEET, encoding="utf-8")
    for name in ("thureck", "nix", "ana-lu", "brother-ash"):
        (home / "characters" / f"{name}.toml").write_text(
            SHEET.replace("Ysolde", name), encoding="utf-8")
    (home / "characters" / "ghoul.toml").write_text(GHOUL, encoding="utf-8")
    (home / "config.toml").write_text('[alias]\nsneak = "seyruun roll dexterity stealth --as ysolde"\n',
                                      encoding="utf-8")
    (home / "rulesets").mkdir()  # a user's own ruleset (issue 36)
    shutil.copy(Path(__file__).resolve().parents[1] / "docs" / "rulesets" / "owod.toml",
                home / "rulesets" / "owod.toml")
    return str(home)


def _program() -> list[str]:
    script = Path(sys.executable).with_name("rpgdice")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "rpgdice"]


def _cases(bash: str | None) -> dict[str, tuple[list[str], dict[str, str]]]:
    py = sys.executable
    prog = _program()
    cases = {
        "python -c pass": ([py, "-c", "pass"], {}),
        "import typer": ([py, "-c", "import typer"], {}),
        "--json roll": ([*prog, *ROLL, "--json"], {}),
        "colored roll": ([*prog, *ROLL], {"FORCE_COLOR": "1"}),
        "colored --as": ([*prog, *ROLL_AS], {"FORCE_COLOR": "1"}),
        "dice --json roll": ([*prog, *DICE_ROLL, "--json"], {}),
        "own --json roll": ([*prog, *OWN_ROLL, "--json"], {}),
        "own colored roll": ([*prog, *OWN_ROLL], {"FORCE_COLOR": "1"}),
        "dice colored widest": ([*prog, *DICE_WIDE], {"FORCE_COLOR": "1"}),
        "attack --vs": ([*prog, *ATTACK_VS], {"FORCE_COLOR": "1"}),
        "--help": ([*prog, "--help"], {}),
    }
    if bash:
        tab = (f"source '{BASH_SCRIPT}'; COMP_WORDS=({TAB_WORDS}); COMP_CWORD={TAB_CWORD}; _rpgdice; "
               '[ "${#COMPREPLY[@]}" -gt 0 ] || exit 3')
        tab_as = tab.replace(TAB_WORDS, TAB_AS_WORDS)
        cases["bash -c :"] = ([bash, "--norc", "--noprofile", "-c", ":"], {})
        cases["bash + TAB"] = ([bash, "--norc", "--noprofile", "-c", tab], {})
        cases["bash + TAB --as"] = ([bash, "--norc", "--noprofile", "-c", tab_as], {})
    return cases


def _time(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    run = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    elapsed = time.perf_counter() - start
    if run.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({run.returncode}): {run.stderr.decode()[-500:]}")
    return elapsed


def _in_shell_tab(bash: str, words: str = TAB_WORDS, env: dict[str, str] | None = None) -> float:
    """Milliseconds per call of the completion function, inside one bash."""
    code = (f"source '{BASH_SCRIPT}'; COMP_WORDS=({words}); COMP_CWORD={TAB_CWORD}; "
            f"s=$EPOCHREALTIME; for ((k = 0; k < {IN_SHELL_CALLS}; k++)); do _rpgdice; done; "
            "e=$EPOCHREALTIME; echo $s $e")
    out = subprocess.run([bash, "--norc", "--noprofile", "-c", code], capture_output=True, text=True,
                         check=True, env=env).stdout.split()
    start, end = (float(x.replace(",", ".")) for x in out)
    return (end - start) * 1000 / IN_SHELL_CALLS


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=21, help="interleaved rounds (default 21)")
    ap.add_argument("--quick", action="store_true",
                    help="one round, no warm-up: that every case runs (the tests' run)")
    ap.add_argument("--pin", type=int, metavar="CPU",
                    help="run everything on that processor alone (a quieter measure on a "
                    "shared machine: no run moves between processors mid-way)")
    args = ap.parse_args(argv)
    if args.quick:
        args.rounds = 1
    if args.pin is not None:
        os.sched_setaffinity(0, {args.pin})  # every process it starts inherits it

    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONDONTWRITEBYTECODE", "NO_COLOR", "FORCE_COLOR", "RPGDICE_SEED")}
    env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="rpgdice-bench-")
    env["RPGDICE_HOME"] = _home()
    env.pop("RPGDICE_AS", None)
    bash = shutil.which("bash")
    cases = _cases(bash)
    names = list(cases)
    for name in names if not args.quick else ():  # warm up: bytecode, the OS caches
        _time(cases[name][0], {**env, **cases[name][1]})
    times: dict[str, list[float]] = {name: [] for name in names}
    paired: dict[str, list[float]] = {name: [] for name in RATIOS}
    floor_argv, floor_extra = cases["import typer"]
    for r in range(args.rounds):
        order = names[r % len(names):] + names[: r % len(names)]
        for name in order:
            argv_, extra = cases[name]
            took = _time(argv_, {**env, **extra})
            times[name].append(took)
            if name in paired:  # each run of a case beside a run of the floor: their ratio
                paired[name].append(took / _time(floor_argv, {**env, **floor_extra}))
    med = {name: statistics.median(v) * 1000 for name, v in times.items()}
    ratio = {name: statistics.median(v) for name, v in paired.items()}
    ratio["import typer"] = 1.0
    floor, bare = med["import typer"], med["python -c pass"]

    print(f"rpgdice startup: {args.rounds} interleaved rounds, medians; Python {sys.version.split()[0]} "
          f"({sys.executable}); program: {' '.join(_program())}")
    print(f"{'case':<19} {'median ms':>10} {'× import typer':>15} {'× python -c pass':>17}")
    results: dict[str, float] = {}
    for name in ("python -c pass", "import typer", *RATIOS):
        results[name] = ratio.get(name, med[name] / floor)
        print(f"{name:<19} {med[name]:>10.1f} {results[name]:>15.2f} {med[name] / bare:>17.2f}")
    if bash:
        tab = med["bash + TAB"] - med["bash -c :"]
        results["TAB in bash"] = tab
        print(f"{'TAB in bash':<16} {tab:>10.2f}   (bash -c 'source completions/rpgdice.bash; ...; _rpgdice' "
              f"{med['bash + TAB']:.1f} ms minus bash -c : {med['bash -c :']:.1f} ms)")
        print(f"{'':<16} {_in_shell_tab(bash):>10.3f}   (the completion function alone, per call, "
              f"{IN_SHELL_CALLS} calls in one bash)")
        tab_as = med["bash + TAB --as"] - med["bash -c :"]
        results["TAB --as"] = tab_as
        print(f"{'TAB --as':<16} {tab_as:>10.2f}   (character names read from {len(os.listdir(Path(env['RPGDICE_HOME']) / 'characters'))} "
              "sheets by bash itself)")
        print(f"{'':<16} {_in_shell_tab(bash, TAB_AS_WORDS, env):>10.3f}   (the completion function alone, per call)")
    print("goals:", "; ".join(
        f"{name} {results[name]:.2f}{unit} (goal {goal}{unit}: {'met' if results[name] <= goal else 'NOT met'})"
        for name, (unit, goal) in GOALS.items() if name in results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

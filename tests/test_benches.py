"""Every bench in bench/ runs (issue 44): each in its quick mode (``--quick``: few rounds,
small N) exits 0 and prints its figures, so a bench cannot crash or measure the wrong
thing unnoticed. The figures themselves are not judged here (a busy machine's timings
say nothing); that they are there, and that every roll a bench sends is rolled, is."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
NUMBER = r"[0-9]+(?:\.[0-9]+)?"

QUICK = {  # a bench's arguments -> what its output must show
    ("startup.py",): [rf"(?m)^--json roll\s+{NUMBER}\s+{NUMBER}", r"(?m)^goals: "],
    ("odds_bench.py",): [rf"crytures odds 40 = {NUMBER}× import typer"],
    ("play_line.py",): [rf"(?m)^ratio: -?{NUMBER}x"],  # one quick round: noise may win
    ("session_bench.py",): [rf"--json roll \(pipe\)\s+median {NUMBER} ms",
                            rf"(?m)^mixed batch\s+{NUMBER} s for 200 commands",
                            r"(?m)^goals: "],
    ("log_bench.py",): [r"built a log of 300 entries", rf"(?m)^log --last 20\s+{NUMBER} ms",
                        r"(?m)^goals: "],
    ("log_bench.py", "--large", "1"): [
        rf"(?m)^log --last 100000\s+{NUMBER} s\s+{NUMBER} MiB peak RSS",
        rf"(?m)^log stats \(no odds cached\)\s+{NUMBER} s\s+{NUMBER} MiB peak RSS"],
    ("load_bench.py",): [
        rf"asked 20/s from the seats: [0-9]+ rolls answered in {NUMBER} s = {NUMBER}/s "
        r"\(0 answered other than 200\)",
        r"(?m)^0 of [0-9]+ \(roll, page\) later than 2 s after it was due, or never seen"],
    ("screens_bench.py",): [
        r"(?m)^TV page weight: [0-9]+ bytes \(HTML\+CSS\+script, 10 cards; its CSS and script [0-9]+ bytes\)",
        r"(?m)^seat page \(with its panel\) weight: [0-9]+ bytes",
        r"(?m)^GM's screen \(with its panel\) weight: [0-9]+ bytes",
        rf"(?m)^GET /api/panel for a seat: median {NUMBER} ms, server CPU {NUMBER} ms, [0-9]+ bytes",
        rf"(?m)^GET /api/panel for the GM: median {NUMBER} ms, server CPU {NUMBER} ms, [0-9]+ bytes",
        rf"(?m)^first paint \(phone\): (median {NUMBER} ms of 1|skipped, no chromium)",
        rf"(?m)^first paint \(TV\): (median {NUMBER} ms of 1|skipped, no chromium)"],
    ("table_bench.py",): [
        r"6 seats at their limit: 60 rolls from 6 of 6 clients",
        r"6 clients flat out \(GM token\): [0-9]+ rolls from 6 of 6 clients",
        rf"memory over 200 seat rolls .*VmRSS {NUMBER} MiB before, {NUMBER} MiB at 100"],
}


def test_every_bench_has_a_quick_run() -> None:
    assert {args[0] for args in QUICK} == {p.name for p in BENCH.glob("*.py")}


@pytest.mark.slow
@pytest.mark.process
@pytest.mark.parametrize("args", list(QUICK), ids=" ".join)
def test_bench_quick(args: tuple[str, ...]) -> None:
    # A short temporary folder of its own: Chromium's singleton socket lives in TMPDIR, and
    # under pytest's deep tmp_path its path passed the 108 bytes a socket's may have (the
    # browser exited at once: "session not created").
    with tempfile.TemporaryDirectory(prefix="rpgdice-bench-") as short:
        env = {**os.environ, "TMPDIR": short}
        run = subprocess.run([sys.executable, str(BENCH / args[0]), "--quick", *args[1:]],
                             capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert "Traceback" not in run.stderr, run.stderr[-2000:]
    for pattern in QUICK[args]:
        assert re.search(pattern, run.stdout), (pattern, run.stdout)
    assert "refused" not in run.stdout, run.stdout

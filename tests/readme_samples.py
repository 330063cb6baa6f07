"""The sample outputs in README.md and docs/*.md, made by the program itself.

A sample is a ```text block right after a comment that names the command printing it:

    <!-- sample: rpgdice crytures roll 6 --roll-mod 2 --dice 4,7,2,6,9,3 -->
    ```text
    ...what that command prints...
    ```

Each command runs as ``python -m rpgdice`` with ``COLUMNS=80``, ``NO_COLOR=1``, the roll
log off and a fresh home of its file's own (so a sample never depends on your files); a
sample's dice are fixed by its ``--dice`` or ``--seed``. Commands that only prepare that
home (a character sheet) are named by ``<!-- sample-setup: rpgdice ... -->`` and run in
order with the samples of their file. Regenerate every sample after a change to a view:

    python -m tests.readme_samples --write      (from the repository's root)

and ``--check`` (the default) says which samples drifted; ``tests/test_readme.py`` fails
on any drift, naming this command.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
REGENERATE = "python -m tests.readme_samples --write"
MARK = re.compile(r"<!-- (sample|sample-setup): (rpgdice [^\n]*?) -->\n")
BLOCK = re.compile(r"```text\n(.*?)```\n", re.S)
ENV = {"COLUMNS": "80", "NO_COLOR": "1", "RPGDICE_LOG": "never", "LC_ALL": "C.UTF-8",
       "PYTHONIOENCODING": "utf-8"}


@dataclass
class Sample:
    path: Path
    command: str
    start: int
    """Where the block's text begins in the file (after its ```text line)."""
    end: int
    text: str

    @property
    def name(self) -> str:
        return f"{self.path.relative_to(ROOT)}: {self.command}"


def _run(command: str, home: str) -> str:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("RPGDICE_") and k not in ("FORCE_COLOR", "TERMINAL_WIDTH", "LINES")}
    env.update(ENV, RPGDICE_HOME=home)
    done = subprocess.run([sys.executable, "-m", "rpgdice", *shlex.split(command)[1:]],
                          capture_output=True, text=True, env=env, timeout=120)
    if done.returncode != 0 or done.stderr:
        raise RuntimeError(f"{command}: exit {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def samples(path: Path) -> list[Sample]:
    """The samples of ``path``, in order, as the file holds them."""
    text = path.read_text(encoding="utf-8")
    found = []
    for mark in MARK.finditer(text):
        if mark.group(1) != "sample":
            continue
        block = BLOCK.match(text, mark.end())
        if block is None:
            raise ValueError(f"{path.name}: no ```text block right after <!-- sample: {mark.group(2)} -->")
        found.append(Sample(path, mark.group(2), block.start(1), block.end(1), block.group(1)))
    return found


def made(path: Path) -> dict[str, str]:
    """What the program prints for each sample of ``path`` (by sample command), the
    set-up commands run in order before the samples after them, in one fresh home."""
    out: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="rpgdice-samples-") as home:
        for mark in MARK.finditer(path.read_text(encoding="utf-8")):
            output = _run(mark.group(2), home)
            if mark.group(1) == "sample":
                out[mark.group(2)] = output
    return out


def drifted(path: Path) -> list[tuple[Sample, str]]:
    """Each sample of ``path`` whose block is not what its command prints, with that."""
    now = made(path)
    return [(s, now[s.command]) for s in samples(path) if s.text != now[s.command]]


def write(path: Path) -> int:
    """Rewrite the drifted samples of ``path``; how many there were."""
    text = path.read_text(encoding="utf-8")
    changes = drifted(path)
    for sample, output in sorted(changes, key=lambda c: -c[0].start):
        text = text[:sample.start] + output + text[sample.end:]
    if changes:
        path.write_text(text, encoding="utf-8")
    return len(changes)


def main(argv: list[str]) -> int:
    if argv not in ([], ["--check"], ["--write"]):
        print(f"usage: {REGENERATE} | --check", file=sys.stderr)
        return 2
    bad = 0
    for path in FILES:
        if argv == ["--write"]:
            n = write(path)
            if n:
                print(f"rewrote {n} sample(s) in {path.relative_to(ROOT)}")
            continue
        for sample, _ in drifted(path):
            bad += 1
            print(f"drifted: {sample.name}", file=sys.stderr)
    if bad:
        print(f"regenerate them with: {REGENERATE}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""What the table reads, rough edges of issue 43, item 15: ``rpgdice rulesets`` in aligned
columns, a seat's refusal in plain words, and a card's command as its words were typed
(not quoted for a shell)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from rich.cells import cell_len

from conftest import home, ok

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rulesets"


def test_rulesets_lists_its_columns_aligned():
    (home() / "rulesets").mkdir(exist_ok=True)
    for name in ("blades", "coc", "owod", "pbta"):  # titles and kinds of different widths
        shutil.copy(DOCS / f"{name}.toml", home() / "rulesets" / f"{name}.toml")
    lines = ok("rulesets").stdout.splitlines()
    rows = json.loads(ok("rulesets", "--json").stdout)
    assert len(lines) == len(rows)
    starts: dict[int, set[int]] = {}
    for line, row in zip(lines, rows):
        said = [row["name"], row["title"]] + ([f"{row['kind']},", row["file"]] if row["file"]
                                              else [])
        at = 0
        for n, word in enumerate(said):
            found = line.index(word, at)
            starts.setdefault(n, set()).add(cell_len(line[:found]))
            at = found + len(word)
        assert line == line.rstrip()
    assert {n: len(s) for n, s in starts.items()} == {0: 1, 1: 1, 2: 1, 3: 1}, starts

"""What the table reads, rough edges of issue 43, item 15: ``rpgdice rulesets`` in aligned
columns, a seat's refusal in plain words, and a card's command as its words were typed
(not quoted for a shell)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from rich.cells import cell_len

from conftest import character, cli, home, ok

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


def test_a_seats_refusal_of_a_command_not_run_at_the_table_reads_plainly():
    from rpgdice.cli.seated import roll_line
    from rpgdice.table import seats

    character("Ysolde")
    ok("seat", "add", "ana", "--as", "ysolde")
    answer = roll_line("seyruun reroll", seats.find("ana"))
    assert answer.status == 403
    error = answer.body["error"]
    assert "rolls rolls" not in error
    assert error.endswith("a seat runs only rolls, roll types and odds")


def test_a_card_shows_the_command_as_its_words_were_typed():
    from rpgdice.serve import views

    ok("roll", "1d20+5", ">=", "15", "--log", "--dice", "12")
    ok("roll", "1d20+5 # it's a hit", "--log", "--dice", "12")
    entries = [json.loads(x) for x in ok("log", "--json").stdout.splitlines()]
    said = []
    for entry in entries:
        html = views.entry_html(entry)
        (what,) = re.findall(r'<p class="what">(.*?)</p>', html)
        said.append(re.sub(r"<[^>]+>", "", what))
    assert said == ["roll 1d20+5 &gt;= 15 --dice 12", "roll 1d20+5 # it&#x27;s a hit --dice 12"]
    # the terminal's short line still quotes for a shell (a line to paste)
    assert "'>='" in cli("roll", "1d20+5", ">=", "15", "--dice", "12", "--short").stdout

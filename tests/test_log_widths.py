"""``rpgdice log`` at every width from 40 columns up (issue 43, item 13): no line wider than
the terminal, whatever the log holds, and no entry's outcome or figures squeezed into more
than three lines (the figures of a roll once took four: ``1 6 2 1 / 6 5 / → 2 / succ.``). Over
``COLUMNS`` in-process, and in a real pseudo-terminal at the widths that once overflowed."""

from __future__ import annotations

import os
import re
import sys

import pytest
from rich.cells import cell_len

from conftest import cli, ok

WIDTHS = range(40, 121)


FEW = [
    ("reglas", "roll", "destreza", "--as", "bandit-captain", "--seed", "7"),
    ("reglas", "roll", "8", "--mod", "-2", "--seed", "8"),
    ("roll", "8d6", "#", "fireball", "--seed", "1"),
    ("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--seed", "2"),
]
"""A few entries whose glued figures (``iE 4 − 6 = −2``, ``→ 24``) once overflowed a
squeezed column at 69 and 70 columns."""
VARIED = [
    ("roll", "8d6", "#", "fireball", "--seed", "1"),
    ("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--seed", "2"),
    ("seyruun", "roll", "3", "3", "--seed", "3"),
    ("reglas", "roll", "destreza", "--as", "bandit-captain", "--seed", "7"),
    ("reglas", "roll", "8", "--mod", "-2", "--seed", "8"),
    ("crytures", "roll", "6", "--die-mod", "3", "--seed", "9"),
    ("cypher", "task", "-d", "3", "--seed", "10"),
    ("roll", "4d6kh3", "-n", "6", "--seed", "4"),
    ("roll", "8d10>=6", "# the long label of a volley of arrows", "--seed", "5"),
    ("roll", "2d6", "--secret", "--seed", "6"),
]
"""Every kind of entry: labels, characters, long outcomes, a repeated roll, a secret one
(and an encounter's changes, :func:`_log`)."""


def _log(rolls: list[tuple[str, ...]]) -> None:
    ok("char", "new", "Ysolde", "--ruleset", "seyruun", "dexterity=3", "stealth=4",
       "willpower=3")
    ok("char", "new", "Bandit-Captain", "--ruleset", "reglas", "destreza=4")
    for args in rolls:
        ok(*args, "--log")
    if rolls is VARIED:
        ok("encounter", "start", "--ruleset", "reglas", "Wolf@3", "Kit@2")
        ok("encounter", "next")


def _results_heights(text: str) -> list[int]:
    """The lines each entry's outcome and figures take in a table (none: blocks), read from
    where the header puts the outcome column."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith("ID"):
        return []
    at = lines[0].index("outcome")
    heights: list[int] = []
    for line in lines[1:]:
        if re.match(r"^\s*\d+  ", line):
            heights.append(1)
        elif line[at:].strip():
            heights[-1] += 1
    return heights


@pytest.mark.parametrize("rolls", [FEW, VARIED], ids=["few", "varied"])
@pytest.mark.slow
def test_no_line_of_the_log_is_wider_than_the_terminal_at_any_width(rolls):
    _log(rolls)
    too_wide, too_tall, tables = {}, {}, 0
    for columns in WIDTHS:
        run = cli("log", env={"COLUMNS": str(columns)})
        assert run.exit_code == 0, run.stderr
        wide = [line for line in run.stdout.splitlines() if cell_len(line) > columns]
        if wide:
            too_wide[columns] = wide[0]
        heights = _results_heights(run.stdout)
        tables += bool(heights)
        if any(h > 3 for h in heights):
            too_tall[columns] = heights
    assert too_wide == {} and too_tall == {}
    assert tables  # a wide terminal still shows the table


def test_a_squeezed_entry_keeps_its_glued_figures_within_its_column():
    # `→ 32` and `− 3 = 5` stay whole where they wrap: the column is made wide enough
    from rpgdice.render import log as view

    assert view._least("iE 8 − 3 = 5") == cell_len("− 3 = 5") + 2
    assert view._least("8d6 # fireball: 2 5 → 32") == cell_len("fireball:") + 2


@pytest.mark.slow
@pytest.mark.process
@pytest.mark.parametrize("columns", [47, 50, 58, 60, 64, 69, 70])
def test_the_log_fits_a_real_terminal(columns):
    import pexpect

    _log(FEW)
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    env["TERM"] = "xterm-256color"
    child = pexpect.spawn(sys.executable, ["-m", "rpgdice", "log"], env=env, encoding="utf-8",
                          timeout=30, dimensions=(40, columns))
    out = child.read()
    child.close()
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)", "", out)
    lines = plain.replace("\r", "").split("\n")
    assert any("fireball" in line for line in lines)
    assert [line for line in lines if cell_len(line) > columns] == []

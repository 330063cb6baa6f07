"""Issue 18: a wrapped header never starts its next line with the separator "·" (the notes are
the only lines that start with one): swept over every width from 40 to 120 columns, for the
roll header of every ruleset (long ones, with their options, that wrap somewhere)."""

from __future__ import annotations

import pytest

from conftest import cli

ROLLS = [
    ("crytures", "roll", "6", "--roll-mod", "2", "--die-mod", "-1", "-d", "7", "-c", "2",
     "--seed", "4"),
    ("crytures", "roll", "12", "--attack", "--crit-hits", "2", "--seed", "4"),
    ("seyruun", "roll", "3", "2", "--bonus", "2", "--penalty", "1", "--seed", "4"),
    ("seyruun", "extended", "3", "2", "--target", "8", "--penalty", "2", "--seed", "4"),
    ("reglas", "roll", "5+5", "-d", "muy-dificil", "--raise", "2", "--mod", "-2", "--mod", "3",
     "--attempt", "2", "--seed", "4"),
    ("reglas", "multi", "3", "6+4", "-d", "normal", "--seed", "4"),
    ("reglas", "team", "6", "5", "4", "-d", "dificil", "--seed", "4"),
    ("cypher", "task", "-d", "5", "--effort", "2", "--asset", "1", "--skill", "trained",
     "--seed", "4"),
    ("roll", "4d6kh3+2d8!+1d20-3", "--seed", "4"),
]
WIDE = 2000


def _dotted(page: str) -> list[str]:
    return [line.strip() for line in page.splitlines() if line.lstrip().startswith("·")]


def _page(args: tuple[str, ...], columns: int) -> str:
    run = cli(*args, "--no-log", env={"COLUMNS": str(columns)})
    assert run.exit_code == 0, (args, run.stderr)
    return run.stdout


@pytest.fixture(scope="module")
def wide():
    return {args: _page(args, WIDE) for args in ROLLS}


@pytest.mark.parametrize("columns", range(40, 121))
def test_no_wrapped_line_starts_with_the_separator(wide, columns):
    for args in ROLLS:
        page = _page(args, columns)
        notes = _dotted(wide[args])  # the notes, each on a line of its own when nothing wraps
        starts = [line for line in _dotted(page) if not any(n.startswith(line) for n in notes)]
        assert starts == [], (args, columns, page)
        assert len(_dotted(page)) == len(notes), (args, columns, page)

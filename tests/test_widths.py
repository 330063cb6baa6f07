"""Issue 18, point 8 (and issue 24): nothing rpgdice prints breaks a word, at any width from
40 columns up, and no line is longer than the width. A corpus of commands (every ruleset's
roll and roll types, odds, combat, the log and its views, a character sheet, aliases) is run
at 40, 60, 80 and 120 columns (COLUMNS) and compared with the same command laid out on a
page too wide to wrap: every word of the narrow page must be a word of the wide one.

Below 40 columns (MIN_WIDTH in rpgdice.render.common) lines still break between words, the
words of a unit ("2 extra successes") too, so only a single word wider than the terminal (a
long argument, a path part) passes its edge.
"""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len

from conftest import cli

WIDTHS = (40, 60, 80, 120)
NARROW = (20, 25)
"""Below the minimum (issue 24): lines still break between words, so only a lone word
wider than the terminal may pass its edge."""
WIDE = 1000
"""A page too wide to wrap (the widest COLUMNS rpgdice takes: a wider one is treated as not
given, 80 columns)."""

BAR = re.compile(r"^([█▏▎▍▌▋▊▉│─╭╮╰╯ ]+|·|#\d+)$")
"""A chart's bar (and the log's bar with its mark) and a panel's edge: drawn to the width,
not a word; the separator and an entry's number, which a narrow log's blocks add."""
SCALE = re.compile(r"\((\d+)\s+(cells|celdas)\)")
"""The bars' scale note names the bar's length in cells, which follows the width."""

SETUP = [
    ("char", "new", "Ysolde", "--ruleset", "seyruun", "dexterity=3", "stealth=3", "wits=2",
     "composure=3", "resolve=2", "willpower=5", "strength=4", "brawl=2"),
    ("char", "new", "Thureck", "--ruleset", "reglas", "destreza=4", "armas-de-fuego=3"),
    ("char", "new", "Nix", "--ruleset", "cypher", "might=10", "might-max=12", "speed=12", "intellect=8",
     "might-edge=1", "effort=2", "climbing=trained"),
    ("char", "new", "Brakka", "--ruleset", "crytures", "brawn=4", "fighting=2"),
    ("alias", "sneak", "seyruun roll dexterity stealth --as ysolde"),
    ("alias", "shot", "reglas roll destreza+armas-de-fuego -d normal --as thureck"),
    ("encounter", "start", "ysolde", "Abominable Snow Creature of the North=2+2", "Thug=2+1",
     "--seed", "3"),
    ("encounter", "next"),
]
"""Commands run once, before the corpus: the characters, aliases and encounter it names."""

LOGGED = [
    ("crytures", "roll", "6", "--roll-mod", "2", "--die-mod", "-1", "-d", "7", "-c", "2",
     "--seed", "4"),
    ("crytures", "roll", "brawn+fighting", "--attack", "--crit-hits", "2", "--as", "brakka",
     "--seed", "2"),
    ("seyruun", "roll", "dexterity", "stealth", "--bonus", "2", "--penalty", "1", "--wound",
     "moderate", "--actions", "2", "--willpower", "--as", "ysolde", "--seed", "3"),
    ("seyruun", "roll", "3", "2", "--bonus", "9", "-d", "moderate", "--seed", "5"),
    ("seyruun", "extended", "3", "2", "--target", "5", "--max-rolls", "4", "--penalty", "1",
     "--seed", "6"),
    ("seyruun", "extended", "3", "2", "--bonus", "2", "--penalty", "1", "--wound", "light",
     "--target", "5", "--seed", "14"),
    ("seyruun", "team", "3", "2", "--assists", "2", "-d", "complex", "--seed", "7"),
    ("seyruun", "contest", "3+2+1-1", "2+2", "--seed", "8"),
    ("seyruun", "initiative", "Ysolde", "ghoul=2+2", "bandit=3+1-1", "--seed", "9"),
    ("seyruun", "attack", "strength+brawl", "--defense", "2+2", "--damage", "2+4",
     "--soak", "3+1", "--as", "ysolde", "--seed", "10"),
    ("reglas", "roll", "destreza+armas-de-fuego", "-d", "muy-dificil", "--raise", "1", "--mod",
     "2", "--mod", "-1", "--attempt", "2", "--as", "thureck", "--seed", "1"),
    ("reglas", "multi", "4", "5+5", "-d", "normal", "--seed", "2"),
    ("reglas", "contest", "destreza+armas-de-fuego", "5", "-d", "normal", "--as", "thureck",
     "--seed", "3"),
    ("reglas", "team", "6", "5", "4", "-d", "dificil", "--seed", "4"),
    ("reglas", "extended", "4+3", "--target", "12", "--start", "2", "--max-rolls", "5",
     "--seed", "5"),
    ("reglas", "retry", "6", "-d", "normal", "--max-attempts", "3", "--seed", "6"),
    ("cypher", "task", "-d", "5", "--ease", "1", "--hinder", "2", "--asset", "1", "--effort",
     "2", "--pool", "might", "--skill", "climbing", "--bonus", "1", "--attack", "--as", "nix",
     "--seed", "1"),
    ("cypher", "roll", "-d", "standard", "--dice", "1"),
    ("cypher", "roll", "-d", "3", "--dice", "20", "--attack"),
    ("cypher", "task", "-d", "3", "--dice", "18", "--attack", "--damage", "1", "--vs", "nix",
     "--no-log"),
    ("cypher", "recover", "--as", "nix", "--reset", "--dice", "3", "--odds", "--no-log"),
    ("roll", "4d6kh3+2", "d%", "3d6!", "8d10>=6", "--seed", "13"),
    ("roll", "2d6+3", "-n", "3", "--seed", "1"),
    ("sneak", "--seed", "11"),
    ("shot", "--seed", "12"),
]
"""Rolling commands: each is logged (--log), so the log's views have something to show."""

SHOWN = [
    ("crytures", "odds", "6", "--roll-mod", "2", "-d", "7", "-c", "2"),
    ("crytures", "roll", "6", "--odds", "--seed", "1"),
    ("seyruun", "odds", "dexterity", "stealth", "--willpower", "--as", "ysolde"),
    ("seyruun", "odds", "3", "3", "-d", "moderate"),
    ("seyruun", "roll", "3", "3", "--odds", "--seed", "2"),
    ("reglas", "odds", "5+5", "-d", "normal"),
    ("reglas", "roll", "5+5", "--odds", "--seed", "2"),
    ("cypher", "odds", "-d", "5", "--skill", "trained", "--effort", "1", "--attack"),
    ("odds", "3d6!"),
    ("odds", "4d6kh3"),
    ("roll", "2d6+3", "--odds", "--seed", "2"),
    ("log",),
    ("log", "--last", "5", "--ruleset", "seyruun"),
    ("log", "show", "1"),
    ("log", "show", "9"),
    ("log", "show", "16"),
    ("log", "stats"),
    ("log", "stats", "--as", "ysolde"),
    ("char", "show", "ysolde"),
    ("char", "show", "thureck"),
    ("char", "show", "nix"),
    ("char", "show", "brakka"),
    ("alias",),
    ("encounter",),
]
"""Commands that show: their pages are compared at each width."""


def _run(args: tuple[str, ...], columns: int) -> str:
    run = cli(*args, env={"COLUMNS": str(columns), "RPGDICE_LOG": "never"})
    assert run.exit_code == 0, (args, run.stderr)
    return run.stdout


def _unboxed(page: str) -> str:
    """``page`` without a panel's side edges, a path broken after a ``/`` joined again."""
    lines: list[str] = []
    for line in page.splitlines():
        if line.startswith("│") and line.rstrip().endswith("│"):
            line = line.strip()[1:-1]
        if lines and lines[-1].rstrip().endswith("/"):
            lines[-1] = lines[-1].rstrip() + line.strip()
        else:
            lines.append(line)
    return "\n".join(lines)


def _words(page: str) -> list[str]:
    page = SCALE.sub("(N cells)", _unboxed(page))
    return [w for w in page.split() if not BAR.match(w)]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """Every command of the corpus, run once wide and once at each width."""
    import os

    home = tmp_path_factory.mktemp("widths")
    saved = {k: os.environ.get(k) for k in ("RPGDICE_HOME", "RPGDICE_LOG", "RPGDICE_AS")}
    os.environ["RPGDICE_HOME"] = str(home)
    os.environ.pop("RPGDICE_AS", None)
    try:
        for args in SETUP:
            assert cli(*args).exit_code == 0, args
        sheets = {p: p.read_bytes() for p in (home / "characters").glob("*.toml")}
        pages = {}
        for args in LOGGED:
            pages[args] = {}
            for columns in (WIDE, *WIDTHS, *NARROW):  # each from the same sheets (a roll may spend)
                for path, data in sheets.items():
                    path.write_bytes(data)
                log = ("--log",) if columns == WIDE else ("--no-log",)
                run = cli(*args, *log, env={"COLUMNS": str(columns)})
                assert run.exit_code == 0, (args, run.stderr)
                pages[args][columns] = run.stdout
        for args in SHOWN:
            pages[args] = {columns: _run(args, columns) for columns in (WIDE, *WIDTHS, *NARROW)}
        yield pages
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


CASES = [" ".join(a) for a in LOGGED + SHOWN]


@pytest.mark.parametrize("columns", WIDTHS)
@pytest.mark.parametrize("command", CASES)
@pytest.mark.slow
def test_no_line_over_the_width_and_no_word_broken(corpus, command, columns):
    args = next(a for a in LOGGED + SHOWN if " ".join(a) == command)
    wide, narrow = corpus[args][WIDE], corpus[args][columns]
    assert narrow.strip(), command
    too_long = [line for line in narrow.splitlines() if cell_len(line) > columns]
    assert too_long == [], too_long
    whole = set(_words(wide))
    broken = [w for w in _words(narrow) if w not in whole]
    assert broken == [], broken
    # A sum never ends a line on its sign nor starts one with "= 6" (the extended header's
    # "−" / "penalties 1 = 6)").
    split = [line for line in narrow.splitlines()
             if re.search(r" [+−=→]$", line.rstrip()) or re.match(r"^\s*= ", line)]
    assert split == [], split
    # A wrapped line never starts with the separator "·": it would read as a note, and the
    # notes are the only lines that start with one on a page too wide to wrap.
    assert _dotted(narrow) == _dotted(wide), narrow


def _dotted(page: str) -> int:
    return sum(line.lstrip().startswith("·") for line in page.splitlines())


@pytest.mark.parametrize("columns", NARROW)
@pytest.mark.parametrize("command", CASES)
def test_below_the_minimum_only_a_lone_word_passes_the_edge(corpus, command, columns):
    args = next(a for a in LOGGED + SHOWN if " ".join(a) == command)
    narrow = corpus[args][columns]
    assert narrow.strip(), command
    over = [line for line in narrow.splitlines()
            if cell_len(line) > columns and len(_unboxed(line).split()) > 1]
    assert over == [], over


@pytest.mark.parametrize("columns", WIDTHS)
def test_a_label_longer_than_the_line_never_widens_the_log(columns):
    # Issue 34, point 2: a long label (one word of 60 letters, and many words) in `log`.
    for label in ("# " + "soak-against-the-ghouls-claws-and-the-rain-of-arrows-tonight",
                  "# soak against the ghoul pack's claws in the ruined chapel tonight"):
        assert cli("roll", f"8d10>=6 {label}", "--seed", "42", "--log").exit_code == 0
    for args in (("log", "--last", "15"), ("log", "show", "1")):
        page = _run(args, columns)
        too_long = [line for line in page.splitlines() if cell_len(line) > columns]
        assert too_long == [], (args, too_long)
        assert "soak" in page

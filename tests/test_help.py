"""Help that fits: every command's --help at 80 columns keeps its words whole, stays within
60 lines, shows plain usage lines, and groups the options in panels; the Reglas help is
in Spanish; the examples say what their numbers are."""

from __future__ import annotations

import re

import pytest

from conftest import cli, cli_json, ruleset_groups
from rpgdice import rulesets
from rpgdice.cli import command_tree

BOX = r"[\s│╭╮╰╯─]+"


def _paths(cmd=None, path=()):
    cmd = cmd or command_tree()
    yield path
    for name in getattr(cmd, "list_commands", lambda ctx: [])(None):
        yield from _paths(cmd.get_command(None, name), path + (name,))


PATHS = list(_paths())
COMMANDS = [p for p in PATHS if len(p) == 2]
ENGLISH_GROUPS = [n for n in ruleset_groups() if rulesets.get(n).language == "en"]
"""The rulesets whose help is in English (panels named "Output", "Dice source")."""


def _help(path, columns: int) -> str:
    run = cli(*path, "--help", env={"COLUMNS": str(columns), "TERMINAL_WIDTH": str(columns)})
    assert run.exit_code == 0, run.stderr
    return run.stdout


def test_every_command_is_walked():
    assert ("cypher", "roll") in PATHS and ("reglas", "retry") in PATHS and ("completion",) in PATHS
    assert len(COMMANDS) >= 17


@pytest.mark.parametrize("path", PATHS, ids=[" ".join(p) or "rpgdice" for p in PATHS])
def test_help_fits_80_columns_within_60_lines_with_whole_words(path):
    narrow, wide = _help(path, 80), _help(path, 400)
    lines = narrow.splitlines()
    assert len(lines) <= 60, len(lines)
    assert max(len(line) for line in lines) <= 80
    # A word cut at the edge of a column shows up as pieces no wide page holds.
    whole = set(re.split(BOX, wide))
    broken = [word for word in re.split(BOX, narrow) if word not in whole]
    assert broken == [], broken
    usage = next(line for line in lines if "Usage:" in line or "Uso:" in line)  # reglas: Spanish
    assert "{" not in usage and "}" not in usage, usage


@pytest.mark.parametrize("path", [p for p in COMMANDS if p[0] in ENGLISH_GROUPS])
def test_options_are_grouped_in_panels(path):
    page = _help(path, 80)
    panels = re.findall(r"╭─ (.+?) ─", page)
    assert "Output" in panels and panels[-1] == "Output"
    assert page.index("--json") > page.index("╭─ Output")
    if "odds" not in path:
        assert "Dice source" in panels
        # The command's own options (or, with none, its arguments: seyruun reroll) first.
        own = "╭─ Options" if "╭─ Options" in page else "╭─ Arguments"
        assert page.index(own) < page.index("╭─ Dice source") < page.index("│ --dice")
        assert page.index("│ --seed") < page.index("╭─ Output")
        assert page.index("╭─ Output") < page.index("│ --log") < page.index("│ --help")
        # The shared options are said in a line each.
        lines = page.splitlines()
        shared = ("│ --dice", "│ --json") + (("│ --times",) if "│ --times" in page else ())
        assert "│ --times" in page or path == ("seyruun", "reroll")
        for option in shared:
            at = next(i for i, line in enumerate(lines) if line.startswith(option))
            assert re.match(r"(│ --|╰)", lines[at + 1]), (option, lines[at + 1])


@pytest.mark.parametrize("path", [p for p in COMMANDS if p[0] == "reglas"])
def test_reglas_help_is_in_spanish(path):
    page = _help(path, 80)
    panels = re.findall(r"╭─ (.+?) ─", page)
    assert set(panels) <= {"Argumentos", "Opciones", "Origen de los dados", "Salida"}, panels
    # Typer's and Click's own words too (issue 18): the usage line, argument names, metavars,
    # an option's names spaced after the comma.
    assert re.search(r"Uso: rpgdice reglas \w+ \[OPCIONES\]", page), page
    for english in ("Usage", "[OPTIONS]", "INDEX", "ACTIONS", "NAME", "FACES", ",--"):
        assert english not in page, english
    assert "--dificultad, --difficulty" in page or "--dificultad" not in page
    assert "Ejemplo:" in page and "Example:" not in page
    assert "[required]" not in page and "[default" not in page
    for english in ("Successes needed", "Show this", "Repeat the", "Faces rolled", "the attacker",
                    "Record the", "Roll for a saved"):
        assert english not in page
    # The options every command is given where it is built (--log, --as) are in Spanish too,
    # in their panels.
    as_line = re.search(r"│ +--as ", page).start()
    assert page.index("╭─ Opciones") < as_line < page.index("╭─ Salida")
    if "odds" not in path:  # a rolling command
        assert "registro de tiradas" in page
        assert as_line < page.index("╭─ Origen de los dados")
        assert page.index("╭─ Salida") < page.index("│ --log") < page.index("│ --help")


def test_the_reglas_group_help_is_in_spanish():
    page = _help(("reglas",), 80)
    assert "Uso: rpgdice reglas [OPCIONES] ORDEN [ARGUMENTOS]..." in page
    assert re.findall(r"╭─ (.+?) ─", page) == ["Opciones", "Órdenes"]
    assert "Muestra esta ayuda y sale." in page
    for english in ("Usage", "Options", "Commands", "Show this message", "COMMAND", "ARGS"):
        assert english not in page, english
    # The other groups keep Typer's English.
    other = _help(("seyruun",), 80)
    assert "Usage: rpgdice seyruun" in other and "╭─ Commands" in other


def test_value_lists_are_in_the_help_text_under_short_names():
    page = _help(("seyruun", "roll"), 80)
    assert "WOUND" in page and "LEVEL" in page
    assert "light|moderate" not in page
    for level in ("crippled", "legendary"):
        assert level in page


def test_the_seyruun_contest_example_says_what_its_numbers_are():
    page = _help(("seyruun", "contest"), 400)
    example = " ".join(page[page.index("Example:"):page.index("╭")].split())
    args = re.search(r"rpgdice seyruun contest (\S+) (\S+)", example).groups()
    (obj,) = cli_json("seyruun", "contest", *args, "--seed", "1")
    said = [tuple(map(int, pair)) for pair in re.findall(r"Attribute (\d+) \+ Skill (\d+)", example)]
    assert said == [(obj[side]["attribute"], obj[side]["skill"]) for side in ("attacker", "defender")]
    bonus = re.search(r"\+(\d+) bonus", example)
    assert obj["defender"]["bonus"] == (int(bonus.group(1)) if bonus else 0)
    assert obj["attacker"]["bonus"] == 0


def test_completion_help_says_where_the_files_go_not_the_readme():
    page = _help(("completion",), 400)
    assert "README" not in page
    for place in ("~/.local/share/bash-completion/completions/rpgdice", "~/.zfunc/_rpgdice",
                  "~/.config/fish/completions/rpgdice.fish"):
        assert place in page


def test_the_top_help_lists_commands_in_the_readme_order():
    """Rulesets, ordinary dice, your table, the roll log, the table shown, completion: ``log`` is not
    wedged between the rulesets and ``roll``."""
    run = cli("--help", env={"COLUMNS": "80"})
    assert run.exit_code == 0
    listed = re.findall(r"^│ ([a-z]+) ", run.stdout, re.M)
    assert listed == [*ruleset_groups(), "roll", "odds", "char",
                      "alias", "paths", "encounter", "log", "again", "play", "serve", "seat", "table",
                      "completion", "rulesets"]


@pytest.mark.parametrize("path", PATHS, ids=[" ".join(p) or "rpgdice" for p in PATHS])
def test_help_under_80_columns_is_laid_out_with_whole_words(path):
    """Issue 18, point 8: under 80 columns a help page lists each item under the other, so
    nothing is cut or folded inside a word, at 40 columns as at 79."""
    pages = {columns: _help(path, columns) for columns in (40, 60, 79)}
    for columns, page in pages.items():
        assert max(len(line) for line in page.splitlines()) <= columns, columns
        assert "╭" not in page
    # The same text at every width; a word of the page at 40 columns that is not one at 79
    # is a piece of a value list too long for a line, broken after a separator.
    assert "".join(pages[40].split()) == "".join(pages[60].split()) == "".join(pages[79].split())
    wide, words = set(pages[79].split()), pages[40].split()
    assert all(w[-1] in "|,/" or words[i - 1][-1] in "|,/"
               for i, w in enumerate(words) if w not in wide)
    assert ("Uso:" if path[:1] == ("reglas",) else "Usage:") in pages[40]
    if path[:1] == ("reglas",):
        for english in ("Usage", "[OPTIONS]", "[required]", "[default", "Options", "Show this"):
            assert english not in pages[40], english


@pytest.mark.parametrize("path", [(), ("seyruun",), ("reglas",), ("char",)])
def test_a_bare_group_under_80_columns_shows_its_narrow_help(path):
    run = cli(*path, env={"COLUMNS": "50"})
    assert run.exit_code == 0 and run.stderr == ""
    assert run.stdout == _help(path, 50)
    assert ("Uso:" if path == ("reglas",) else "Usage:") in run.stdout

"""Issue 18, point 11: everything `reglas` prints is in Spanish, its error lines too: the
reasons the shared code words (parameters, the budget, the dice given by hand, Click's own
usage errors, --as) are said in Spanish for a Reglas command, and in English elsewhere."""

from __future__ import annotations

import re

import pytest

from conftest import cli, make_character

BAD = [
    ("reglas", "roll"),
    ("reglas", "roll", "x"),
    ("reglas", "roll", "fuerza+pelea"),
    ("reglas", "team", "fuerza", "5"),
    ("reglas", "roll", "5", "-d", "muy"),
    ("reglas", "roll", "5", "-d"),
    ("reglas", "roll", "5", "-d", "1001"),
    ("reglas", "roll", "5", "--mod", "x"),
    ("reglas", "roll", "5", "--mod=1000", "--mod=1000"),
    ("reglas", "contest", "5", "5", "--defender-mod=-900", "--defender-mod=-900"),
    ("reglas", "roll", "5", "--bogus"),
    ("reglas", "roll", "5", "6"),
    ("reglas", "roll", "5", "-n", "0"),
    ("reglas", "roll", "5", "--seed", "x"),
    ("reglas", "roll", "5", "--as", "nadie"),
    ("reglas", "roll", "5", "--as", "ysolde"),
    ("reglas", "roll", "fuerza+x", "--as", "thureck"),
    ("reglas", "roll", "5", "--dice", "11"),
    ("reglas", "roll", "5", "--dice", "1,2"),
    ("reglas", "roll", "5", "--dice"),
    ("reglas", "roll", "5", "--dice", "x"),
    ("reglas", "roll", "5", "--dice", "3,,4"),
    ("reglas", "roll", "5", "--dice", "3", "--seed", "3"),
    ("reglas", "roll", "-5"),
    ("reglas", "roll", "5-9"),
    ("reglas", "roll", "2000"),
    ("reglas", "roll", "+".join(["1"] * 25)),
    ("reglas", "rol", "5"),
    ("reglas", "tirada", "5"),
    ("reglas", "multi", "1", "5"),
    ("reglas", "multi", "2", "5", "--dice", "3"),
    ("reglas", "multi", "1000", "1000", "-n", "101"),
    ("reglas", "contest", "5"),
    ("reglas", "team", "5"),
    ("reglas", "team", "5", "5", "--bogus"),
    ("reglas", "extended", "5"),
    ("reglas", "extended", "5", "--target", "0"),
    ("reglas", "retry", "5", "--max-attempts", "0"),
    ("reglas", "odds"),
]
ENGLISH = re.compile(
    r"\b(is|not|the|of|or|in|to|from|accepts|missing|option|mean|number|whole|range|usage|got|"
    r"extra|argument|repetitions|budget|work|face|faces|too|many|few|give|character|create|"
    r"command|trait|sheet|saved|below|more|than|negative|sum|needs|value|cannot|such|has|"
    r"rolls|given|roll's)\b", re.IGNORECASE)


def _prose(line: str) -> str:
    """The line without what is said as typed: options, quoted values, commands, paths."""
    line = re.sub(r"'[^']*'|--?[\w-]+|/\S+|rpgdice( char)?( \w+)?|\[\w+\]", " ", line)
    return re.sub(r"accepts? (roll|odds|multi|contest|team|extended|retry)(, \w+)*", " ", line)


@pytest.fixture
def sheets():
    make_character("Thureck", "reglas", fuerza=4, pelea=2)
    make_character("Ysolde", "seyruun", wits=3)


@pytest.mark.parametrize("args", BAD, ids=" ".join)
def test_a_reglas_error_line_is_spanish(sheets, args):
    run = cli(*args, env={"RPGDICE_LOG": "never"})
    assert run.exit_code == 2 and run.stdout == ""
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("rpgdice: error: "), run.stderr
    english = ENGLISH.findall(_prose(lines[0][len("rpgdice: error: "):]))
    assert english == [], lines[0]


def test_the_other_rulesets_keep_english():
    run = cli("seyruun", "roll", "3", "3", "--bogus")
    assert run.exit_code == 2 and "no such option" in run.stderr
    run = cli("roll", "2d6", "-n", "0")
    assert run.exit_code == 2 and "is out of range; accepts" in run.stderr


def test_a_reglas_warning_is_spanish_too():
    run = cli("reglas", "roll", "5", "--log", "--seed", "1", env={"RPGDICE_HOME": "/dev/null"})
    assert run.exit_code == 0 and run.stdout
    assert run.stderr == ("rpgdice: warning: la tirada no quedó en el registro: el registro de "
                          "tiradas no se puede abrir: RPGDICE_HOME: '/dev/null' no es una carpeta; "
                          "pon una carpeta (o quítala)\n")

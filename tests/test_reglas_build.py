"""Issue 18: a Reglas build is labelled term by term, each by the sheet's own trait (two
atributos read 'Fuerza 5 + Destreza 4', never 'Atributo + Habilidad' or the English), in
every roll type's view and in the roll log's."""

from __future__ import annotations

import re

import pytest

from conftest import cli

KINDS = re.compile(r"\b(Atributo|Habilidad|Attribute|Skill)\b", re.IGNORECASE)
TWO = "fuerza+destreza"
COMMANDS = [
    ("roll", TWO),
    ("multi", "2", TWO),
    ("contest", TWO, "5"),
    ("team", TWO, "sigilo+fuerza"),
    ("extended", TWO, "--target", "12"),
    ("retry", TWO, "-d", "normal"),
]


@pytest.fixture
def ana():
    run = cli("char", "new", "Ana", "--ruleset", "reglas", "fuerza=5", "destreza=4", "sigilo=3")
    assert run.exit_code == 0, run.stderr


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0])
def test_two_atributos_are_labelled_by_their_names(ana, args):
    run = cli("reglas", *args, "--as", "ana", "--seed", "4", "--log")
    assert run.exit_code == 0, run.stderr
    assert "Fuerza 5 + Destreza 4" in run.stdout
    assert KINDS.findall(run.stdout) == [], run.stdout
    shown = cli("log", "show", "1")
    assert shown.exit_code == 0, shown.stderr
    assert "Fuerza 5 + Destreza 4" in shown.stdout and KINDS.findall(shown.stdout) == []


def test_an_atributo_and_a_habilidad_in_either_order(ana):
    for index, label in (("sigilo+fuerza", "Sigilo 3 + Fuerza 5"),
                         ("fuerza+sigilo", "Fuerza 5 + Sigilo 3")):
        run = cli("reglas", "roll", index, "--as", "ana", "--dice", "2")
        assert run.exit_code == 0 and label in run.stdout, run.stdout
        assert "iE 8" in run.stdout and KINDS.findall(run.stdout) == []


def test_each_member_of_a_team_is_one_miembro(ana):
    run = cli("reglas", "team", "5", "fuerza+destreza", "sigilo", "--as", "ana", "--seed", "4")
    assert run.exit_code == 0, run.stderr
    assert "Ana · miembro Fuerza 5 + Destreza 4 · miembro Sigilo 3" in run.stdout
    assert "miembros Fuerza" not in run.stdout and "miembros Sigilo" not in run.stdout

"""Reglas Básicas (seed 003, in Spanish): índice de éxito minus 1d10, fracasos,
críticos and actions.

The folder: ``rules.py`` (the roll and the actions), ``odds.py``, ``commands.py`` (the
``reglas`` group, its help in Spanish), ``view.py`` (in Spanish). This module declares the
:class:`~rpgdice.rulesets.Ruleset` record.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rpgdice.core.command import Command

from rpgdice.rulesets import Die, Reserved, Ruleset, SheetSchema, Words


def _commands(record: Ruleset) -> Sequence[Command]:
    """Its commands' records (its ``commands.py``, imported at the first call)."""
    from rpgdice.rulesets.reglas.commands import COMMANDS

    return COMMANDS


def _translate(reason: str) -> str:
    """A line of rpgdice's in Spanish."""
    from rpgdice.rulesets.reglas.messages import translate

    return translate(reason)


RULESET = Ruleset(
    name="reglas",
    order=30,
    words=Words("Reglas Básicas", short="Reglas Básicas",
                help="Reglas Básicas: índice de éxito menos 1d10.",
                nouns={"success": ("éxito", "éxitos"), "failure": ("fallo", "fallos"),
           "fumble": ("fracaso", "fracasos")},
                translate=_translate),
    language="es",
    outcomes={"success": ("Éxito", "good"), "failure": ("Fallo", "bad"),
              "fumble": ("Fracaso", "dire")},
    commands=_commands,
    die=Die(10, None, "die"),
    sheet=SheetSchema(
        reserved=(Reserved("initiative", dice=True, also=("iniciativa",)),),
        attributes=frozenset({
            "fuerza", "destreza", "agilidad", "constitucion", "resistencia", "inteligencia",
            "percepcion", "voluntad", "carisma", "presencia", "poder", "astucia",
        }),
        headings=("Atributos", "Habilidades"),
    ),
    plan=None,
)

"""Reglas Básicas (seed 003, in Spanish): índice de éxito minus 1d10, fracasos,
críticos and actions.

The folder: ``rules.py`` (the roll and the actions), ``odds.py``, ``commands.py`` (the
``reglas`` group, its help in Spanish), ``view.py`` (in Spanish). This module declares the
:class:`~rpgdice.rulesets.Ruleset` record.
"""

from __future__ import annotations

from typing import Any

from rpgdice.rulesets import Die, Reserved, Ruleset, SheetSchema, lazily

# The verdict, imported at its first call.


@lazily
def _verdict() -> Any:
    from rpgdice.rulesets.reglas.verdict import verdict

    return verdict


RULESET = Ruleset(
    name="reglas",
    order=30,
    messages="rpgdice.rulesets.reglas.messages",
    title="Reglas Básicas",
    short="Reglas Básicas",
    language="es",
    help="Reglas Básicas: índice de éxito menos 1d10.",
    nouns={"success": ("éxito", "éxitos"), "failure": ("fallo", "fallos"),
           "fumble": ("fracaso", "fracasos")},
    outcomes={"success": ("Éxito", "good"), "failure": ("Fallo", "bad"),
              "fumble": ("Fracaso", "dire")},
    die=Die(10, None, "die"),
    sheet=SheetSchema(
        reserved=(Reserved("initiative", dice=True),),
        attributes=frozenset({
            "fuerza", "destreza", "agilidad", "constitucion", "resistencia", "inteligencia",
            "percepcion", "voluntad", "carisma", "presencia", "poder", "astucia",
        }),
        headings=("Atributos", "Habilidades"),
    ),
    plan=None,
    takes_as=frozenset({"roll", "odds", "multi", "contest", "team", "extended", "retry"}),
    stats_commands=frozenset({"roll"}),
    odds_functions=frozenset({"reglas_odds", "reglas_multi_odds", "reglas_contest_odds",
                              "reglas_team_odds", "reglas_extended_odds", "reglas_retry_odds"}),
    odds_types=frozenset({"multi", "contest", "team", "extended", "retry"}),
    commands="rpgdice.rulesets.reglas.commands",
    verdict=_verdict,
    results={"roll": ("ReglasResult",), "multi": ("ReglasMultiResult",),
             "contest": ("ReglasContestResult",), "team": ("ReglasTeamResult",),
             "extended": ("ReglasExtendedResult",), "retry": ("ReglasRetryResult",)},
)

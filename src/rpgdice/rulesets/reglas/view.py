"""Reglas Básicas, in the text's Spanish: the roll view, the roll types' views
(múltiples, enfrentadas, equipo, extendidas, inténtalo de nuevo) and the odds view."""

from __future__ import annotations

from rich.text import Text

from rpgdice.core.data import Loaded
from rpgdice.render.common import (
    BAD,
    BOTCH_ONE,
    CRIT,
    DIRE,
    DOUBLE,
    GOOD,
    HIT,
    LABEL,
    MISS,
    Line,
    View,
    chart,
    nested,
    notes,
    num,
    outcome_chart,
    percent,
    signed,
    spread_chart,
    step_chart,
    unit,
    words,
)
from rpgdice.rulesets import Views
from rpgdice.rulesets.reglas import rules


def outcome_words(r: rules.ReglasResult) -> tuple[str, str]:
    """The result in the text's own words, and its style."""
    if r.outcome == "success":
        return ("Crítico", DOUBLE) if r.critical else ("Éxito", GOOD)
    if r.outcome == "fumble":
        return f"Fracaso de grado {r.fumble_grade}", DIRE
    return "Fallo", BAD


def exitos(n: int) -> str:
    return f"{num(n)} {'éxito' if abs(n) == 1 else 'éxitos'}"


def difficulty(needed: int, base: int | None = None, raises: int = 0) -> str:
    """The difficulty in the text's words; raised, its base level and the raise:
    ``dificultad normal (2) subida 5 niveles = 12 éxitos``."""
    from rpgdice.rulesets.reglas.rules import DIFFICULTIES, DIFFICULTY_NAMES_ES

    def named(n: int) -> str | None:
        for key, value in DIFFICULTIES.items():
            if value == n:
                return DIFFICULTY_NAMES_ES[key]
        return None

    if raises and base is not None:
        name = named(base)
        start = f"dificultad {name} ({base})" if name else f"dificultad {base}"
        if base == 0:
            start = "sin dificultad (0)"
        levels = f"{raises} {'nivel' if raises == 1 else 'niveles'}"
        return f"{unit(start)} {unit(f'subida {levels} = {exitos(needed)}')}"
    if needed == 0:
        return unit("sin dificultad (cero inclusive)")
    name = named(needed)
    return unit(f"dificultad {name} ({exitos(needed)})" if name else f"dificultad {exitos(needed)}")


def roll(r: rules.ReglasResult) -> list[Text]:
    parts = []
    if r.modifier:
        parts.append(f"mod {signed(r.modifier)}")
    if r.attempt_penalty:
        parts.append(f"intento: −{r.attempt_penalty}")
    detail = f" ({r.base_index}, {', '.join(parts)})" if parts else ""
    header = Text.assemble(
        ("Reglas Básicas", "bold"),
        f" · iE {num(r.index)}{detail}",
        f" · {difficulty(r.difficulty, r.base_difficulty, r.raises)}",
    )
    if r.die == 1:
        style = CRIT
    elif r.outcome == "fumble":
        style = BOTCH_ONE
    elif r.outcome == "success":
        style = HIT
    else:
        style = MISS
    dice = Text.assemble(("  dado ", LABEL), (str(r.die), style),
                         "  →  " + unit(f"resultado {num(r.index)} − {r.die} = {num(r.result)}"))
    word, wstyle = outcome_words(r)
    verdict = Text.assemble((f"  {word}", wstyle))
    if r.outcome == "success":
        n = r.result
        kind = "éxito" if n == 1 else "éxitos"
        if r.critical:
            kind += " crítico" if n == 1 else " críticos"
        verdict.append(f" — {n} {kind}")
    elif r.outcome == "failure":
        verdict.append(f" — {r.result} de {r.difficulty} éxitos necesarios")
    else:
        verdict.append(f" — resultado {num(r.result)}")
    return [header, dice, verdict]


# Roll types ------------------------------------------------------------------------------


def _die_style(r: rules.ReglasResult) -> str:
    if r.die == 1:
        return CRIT
    return BOTCH_ONE if r.outcome == "fumble" else (HIT if r.result >= 0 else MISS)


def part(label: str, r: rules.ReglasResult, adds: str) -> list[Text]:
    """A roll inside a sum (a team member, an extended roll's step): its iE, its die and
    what it adds, with no difficulty nor verdict of its own (the sum has the one verdict)."""
    head = Text.assemble((f"  {label}", "bold"), f" · iE {num(r.index)}")
    why = ""
    if r.outcome == "fumble":
        why = " " + unit(f"(fracaso de grado {r.fumble_grade})")
    elif r.critical:
        why = " (crítico)"
    dice = Text.assemble(("    dado ", LABEL), (str(r.die), _die_style(r)),
                         "  →  " + unit(f"resultado {num(r.index)} − {r.die} = {num(r.result)}"),
                         "  ", (unit(adds), "bold"), why)
    return [head, dice]



def multi(r: rules.ReglasMultiResult) -> list[Text]:
    lines = [Text.assemble(("Acciones múltiples", "bold"),
                           f" · {r.actions} acciones: −{r.actions} a la primera, −2 más por cada una")]
    for k, (step, pen) in enumerate(zip(r.rolls, r.penalties), 1):
        lines += nested(f"Acción {k} (−{pen}):", roll(step))
    ok = sum(1 for x in r.rolls if x.outcome == "success")
    if r.outcome == "success":
        lines.append(Text.assemble(("  Éxito", GOOD), f" — las {r.actions} acciones superadas"))
    elif r.outcome == "fumble":
        which = [str(k) for k, x in enumerate(r.rolls, 1) if x.outcome == "fumble"]
        where = f"la acción {which[0]}" if len(which) == 1 else f"las acciones {', '.join(which)}"
        lines.append(Text.assemble(("  Fracaso", DIRE), f" en {where} — {ok} de {r.actions} superadas"))
    else:
        lines.append(Text.assemble(("  Fallo", BAD), f" — {ok} de {r.actions} acciones superadas"))
    from rpgdice.rulesets.reglas.rules import MULTI_FUMBLE_STOPS

    rule = "detiene" if MULTI_FUMBLE_STOPS else "no anula"
    return lines + notes([f"un fracaso {rule} las acciones restantes (decisión de rpgdice)"])


def contest(r: rules.ReglasContestResult) -> list[Text]:
    lines = [Text.assemble(("Acciones enfrentadas", "bold"),
                           " · el atacante supera su dificultad y luego el resultado del defensor")]
    lines += nested("Atacante:", roll(r.attacker))
    lines += nested("Defensor:", roll(r.defender))
    a, d = r.attacker.result, r.defender.result
    if r.winner == "attacker":
        lines.append(Text.assemble(("  Gana el atacante", GOOD),
                                   f" por {exitos(r.margin)} ({num(a)} contra {num(d)})"))
    elif r.attacker.outcome != "success":
        lines.append(Text.assemble(("  Gana el defensor", BAD),
                                   f" — el atacante no supera su dificultad ({num(a)} de {r.attacker.difficulty})"))
    elif r.tie:
        lines.append(Text.assemble(("  Gana el defensor", BAD),
                                   f" — empate a {num(a)}: el empate es del defensor (decisión de rpgdice)"))
    else:
        lines.append(Text.assemble(("  Gana el defensor", BAD),
                                   f" por {exitos(-r.margin)} ({num(d)} contra {num(a)})"))
    return lines


def team(r: rules.ReglasTeamResult) -> list[Text]:
    lines = [Text.assemble(("Trabajo en equipo", "bold"),
                           f" · {len(r.rolls)} miembros · "
                           f"{difficulty(r.difficulty, r.base_difficulty, r.raises)} para la suma")]
    for k, step in enumerate(r.rolls, 1):
        lines += part(f"Miembro {k}", step, f"→ aporta {num(step.result)}")
    terms = " + ".join(num(x.result) if x.result >= 0 else f"({num(x.result)})" for x in r.rolls)
    ok = r.outcome == "success"
    lines.append(Text.assemble(("  Éxito" if ok else "  Fallo", GOOD if ok else BAD),
                               f" — suma {terms} = {num(r.total)} de {r.difficulty} necesarios"))
    if r.sunk_by:
        who = ", ".join(str(k) for k in r.sunk_by)
        if len(r.sunk_by) == 1:
            what, without = f"El fracaso del miembro {who} hundió", "sin él"
        else:
            what, without = f"Los fracasos de los miembros {who} hundieron", "sin ellos"
        positive = sum(x.result for x in r.rolls if x.result >= 0)
        lines.append(Text(f"  {what} al equipo: {without} la suma sería {positive}", style=DIRE))
    return lines


def extended(r: rules.ReglasExtendedResult) -> list[Text]:
    start = f" · empieza en {r.start}" if r.start else ""
    lines = [Text.assemble(("Acción extendida", "bold"),
                           f" · objetivo {exitos(r.target)}{start} · como mucho {r.max_rolls} tiradas")]
    for k, (step, total) in enumerate(zip(r.rolls, r.running_totals), 1):
        adds = "→ termina la acción" if step.outcome == "fumble" else f"→ suma {num(step.result)}"
        lines += part(f"Tirada {k}", step, adds)
        lines.append(Text(f"    → acumulado {total} de {r.target}", style=LABEL))
    n = len(r.rolls)
    tiradas = f"{n} {'tirada' if n == 1 else 'tiradas'}"
    if r.ended_by == "target":
        lines.append(Text.assemble(("  Éxito", GOOD), f" — {r.total} de {r.target} éxitos en {tiradas}"))
    elif r.ended_by == "fumble":
        lines.append(Text.assemble(("  Fracaso", DIRE),
                                   f" en la tirada {n}: termina la acción con {r.total} de {r.target}"))
    else:
        lines.append(Text.assemble(("  Fallo", BAD),
                                   f" — {r.total} de {r.target} éxitos al agotar el límite de {tiradas}"))
    from rpgdice.rulesets.reglas.rules import EXTENDED_FUMBLE_ENDS

    rule = "termina" if EXTENDED_FUMBLE_ENDS else "no termina"
    return lines + notes([f"un fracaso {rule} la acción extendida (decisión de rpgdice)"])


def retry(r: rules.ReglasRetryResult) -> list[Text]:
    lines = [Text.assemble(("Inténtalo de nuevo", "bold"),
                           f" · −2 por cada intento fallido · como mucho {r.max_attempts} intentos")]
    for k, step in enumerate(r.rolls, 1):
        pen = f" (−{step.attempt_penalty})" if step.attempt_penalty else ""
        lines += nested(f"Intento {k}{pen}:", roll(step))
    n = r.attempts
    if r.ended_by == "success":
        lines.append(Text.assemble(("  Éxito", GOOD), f" en el intento {n}"))
    elif r.ended_by == "fumble":
        lines.append(Text.assemble(("  Fracaso", DIRE), f" en el intento {n}: no se puede volver a intentar"))
    else:
        lines.append(Text.assemble(("  Fallo", BAD), f" — {n} intentos fallidos, límite alcanzado"))
    return lines


# Odds ------------------------------------------------------------------------------------


def odds(o: rules.ReglasOdds) -> list[Line]:
    header = Text.assemble(
        ("Reglas Básicas: probabilidades", "bold"),
        f" · iE {num(o.index)} · {difficulty(o.difficulty, o.base_difficulty, o.raises)}",
    )
    out = [header, *outcome_chart("reglas", o.outcomes)]
    said = [f"Crítico (dado 1 y éxito): {percent(o.critical)}"]
    if o.fumble_grades:
        rows = [(str(g), "", [percent(p)], p, DIRE) for g, p in o.fumble_grades.items()]
        out += chart(rows, "fracaso de grado", words("reglas")["chance"])
    return out + notes(said)


def _index(o: rules.ReglasOdds) -> str:
    return f"iE {num(o.index)} · {difficulty(o.difficulty, o.base_difficulty, o.raises)}"


def multi_odds(o: rules.ReglasMultiOdds) -> list[Line]:
    """Acciones múltiples: la serie entera, y cada acción con su penalización."""
    header = Text.assemble(("Acciones múltiples: probabilidades", "bold"),
                           f" · {o.actions} acciones · {_index(o.each[0])} en la primera")
    out = [header, *outcome_chart("reglas", o.outcomes)]
    rows = [(f"Acción {k} (iE {num(e.index)})", "", [percent(e.outcomes['success']),
             percent(e.outcomes['fumble'])], e.outcomes["success"], GOOD)
            for k, e in enumerate(o.each, 1)]
    out += chart(rows[:30], "acción", "éxito", "fracaso", bar_header="█ = éxito")
    said = [f"todas las acciones superadas: {percent(o.all_succeed)}",
            "un fracaso no anula las acciones restantes (decisión de rpgdice)"]
    if len(rows) > 30:
        said.append(f"{len(rows) - 30} acciones más no se muestran (--json las da todas)")
    return out + notes(said)


def contest_odds(o: rules.ReglasContestOdds) -> list[Line]:
    """Acciones enfrentadas: quién gana, y por cuánto."""
    header = Text.assemble(("Acciones enfrentadas: probabilidades", "bold"),
                           f" · atacante {_index(o.attacker)} · defensor iE {num(o.defender.index)}")
    rows = [("Gana el atacante", GOOD, [percent(o.winner["attacker"])], o.winner["attacker"], GOOD),
            ("Gana el defensor", BAD, [percent(o.winner["defender"])], o.winner["defender"], BAD)]
    out = [header, *chart(rows, "ganador", "probabilidad")]
    table, hidden = spread_chart(o.margin, "diferencia", "es")
    said = ["diferencia: el resultado del atacante menos el del defensor; el atacante debe "
            "superar su dificultad, y un empate es del defensor (decisión de rpgdice)"]
    return out + table + notes(said + ([hidden] if hidden else []))


def team_odds(o: rules.ReglasTeamOdds) -> list[Line]:
    """Trabajo en equipo: cada suma de los resultados."""
    header = Text.assemble(("Trabajo en equipo: probabilidades", "bold"),
                           f" · {o.members} miembros · {difficulty(o.difficulty)}")
    table, hidden = spread_chart(o.total, "suma", "es")
    return [header, *outcome_chart("reglas", o.outcomes), *table, *notes([hidden] if hidden else [])]


def extended_odds(o: rules.ReglasExtendedOdds) -> list[Line]:
    """Acumulación de éxitos: cómo termina, y en qué tirada se alcanza el objetivo."""
    start = f" · desde {o.start}" if o.start else ""
    header = Text.assemble(("Acumulación de éxitos: probabilidades", "bold"), f" · {_index(o.roll)}",
                           f" · objetivo {o.target}{start} · como mucho {o.max_rolls} tiradas")
    out = [header, *outcome_chart("reglas", o.outcomes)]
    out += step_chart(o.rolls_needed, o.within, "tirada", "hasta ahí", "en esta tirada")
    said = [f"número esperado de tiradas: {float(o.expected_rolls):.2f}".replace(".", ","),
            "un fracaso termina la acción extendida (decisión de rpgdice)"]
    return out + notes(said)


def retry_odds(o: rules.ReglasRetryOdds) -> list[Line]:
    """Inténtalo de nuevo: la probabilidad de éxito intento a intento."""
    header = Text.assemble(("Inténtalo de nuevo: probabilidades", "bold"), f" · {_index(o.first)}",
                           f" · como mucho {o.max_attempts} intentos, −2 por cada fallo")
    out = [header, *outcome_chart("reglas", o.outcomes)]
    by = {k: p - o.by_attempt.get(k - 1, 0) for k, p in o.by_attempt.items()}
    out += step_chart(by, o.by_attempt, "intento", "hasta ahí", "en este intento")
    said = [f"número esperado de intentos: {float(o.expected_attempts):.2f}".replace(".", ","),
            "un fracaso anula la posibilidad de volver a intentarlo"]
    return out + notes(said)


VIEWS: dict[type, View] = {rules.ReglasMultiOdds: multi_odds, rules.ReglasContestOdds: contest_odds,
         rules.ReglasTeamOdds: team_odds, rules.ReglasExtendedOdds: extended_odds,
         rules.ReglasRetryOdds: retry_odds,
         rules.ReglasResult: roll, rules.ReglasMultiResult: multi, rules.ReglasContestResult: contest, rules.ReglasTeamResult: team, rules.ReglasExtendedResult: extended,
         rules.ReglasRetryResult: retry, rules.ReglasOdds: odds}
"""Each command's view, by the result's ``COMMAND``."""

SUMMARIES = {
    rules.ReglasMultiResult: (lambda r: {"success": "con todas las acciones superadas",
                         "fumble": "con algún fracaso"}.get(r.outcome, "con alguna acción fallada"),
              "series de acciones múltiples"),
    rules.ReglasContestResult: (lambda r: "para el atacante" if r.winner == "attacker" else "para el defensor",
                "enfrentamientos"),
    rules.ReglasTeamResult: (lambda r: "con éxito" if r.outcome == "success" else "con fallo", "trabajos en equipo"),
    rules.ReglasExtendedResult: (lambda r: {"target": "con el objetivo alcanzado", "fumble": "terminadas por un fracaso"}.get(
        r.ended_by, "con el límite agotado"), "acciones extendidas"),
    rules.ReglasRetryResult: (lambda r: {"success": "con éxito", "fumble": "terminadas por un fracaso"}.get(
        r.ended_by, "con los intentos agotados"), "series de intentos"),
}
"""How repeated roll types (``-n``) are summed up: a label per result and the noun."""


def _contest_figures(r: Loaded) -> str:
    a, d = r.get("attacker") or {}, r.get("defender") or {}  # who won: its verdict
    return f"{num(a.get('result', 0))} contra {num(d.get('result', 0))}"


def _extended_figures(r: Loaded) -> str:
    n = len(r.get("rolls") or [])
    return f"{r.get('total')} de {r.get('target')} en {n} tirada{'' if n == 1 else 's'}"


FIGURES = {
    "roll": lambda r: f"iE {num(r.get('index', 0))} − {r.get('die')} = {num(r.get('result', 0))}",
    "contest": lambda r: _contest_figures(r),
    "extended": lambda r: _extended_figures(r),
    "multi": lambda r: f"{len(r.get('rolls') or [])} acciones",
    "team": lambda r: f"suma {num(r.get('total', 0))}",
    "retry": lambda r: f"{len(r.get('rolls') or [])} intentos",
}
"""The roll log's few words on a stored result, by command."""

TABLE = Views(VIEWS, figures=FIGURES, summaries=SUMMARIES)
"""What the ruleset's record hands out (:attr:`rpgdice.rulesets.Ruleset.views`)."""

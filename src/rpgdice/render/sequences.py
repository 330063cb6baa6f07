"""The terminal view of the roll types: every roll of the sequence with its dice and
its own outcome (drawn by the single-roll renderers), then a verdict line.

:mod:`rpgdice.render.terminal` merges :data:`SEQUENCE_RENDERERS` into its
``RENDERERS``; this module imports it only inside functions, so either may load first.
"""

from __future__ import annotations

from typing import Any, Callable

from rich.text import Text


def _t():
    from rpgdice.render import terminal

    return terminal


def _nested(label: str, result: Any) -> list[Text]:
    """A single roll's lines, indented under ``label``."""
    lines = _t().render(result)
    head = Text.assemble(("  " + label + " ", "bold"), lines[0])
    return [head] + [Text.assemble("  ", line) for line in lines[1:]]


def _succ(n: int) -> str:
    return _t()._plural(n, "success", "successes")


def _exitos(n: int) -> str:
    return f"{n} {'éxito' if abs(n) == 1 else 'éxitos'}"


def _side(r: Any, attribute: int) -> str:
    return f"{_succ(r.successes)}, base Attribute {attribute}"


# Seyruun -----------------------------------------------------------------------------


def seyruun_contest(r: Any) -> list[Text]:
    T = _t()
    lines = [Text.assemble(("Seyruun contest", "bold"), " · more successes wins; a tie goes to the "
                           "defender unless the attacker has the higher base Attribute")]
    lines += _nested("Attacker:", r.attacker)
    lines += _nested("Defender:", r.defender)
    a, d = r.attacker.successes, r.defender.successes
    style = T.GOOD if r.winner == "attacker" else T.BAD
    who = "Attacker wins" if r.winner == "attacker" else "Defender wins"
    if not r.tie:
        lead = abs(r.margin)
        detail = f" by {_succ(lead)} ({a} to {d})"
    elif r.winner == "attacker":
        detail = (f" the tie at {_succ(a)}: higher base Attribute "
                  f"({r.attacker_attribute} to {r.defender_attribute})")
    else:
        detail = (f" the tie at {_succ(a)}: the attacker's base Attribute "
                  f"({r.attacker_attribute}) is not higher than {r.defender_attribute}")
    lines.append(Text.assemble((f"  {who}", style), detail))
    return lines


def seyruun_extended(r: Any) -> list[Text]:
    T = _t()
    lines = [Text.assemble(("Seyruun extended roll", "bold"),
                           f" · target {_succ(r.target)} · at most {T._plural(r.max_rolls, 'roll')}")]
    for k, (roll, total) in enumerate(zip(r.rolls, r.running_totals), 1):
        lines += _nested(f"Roll {k}:", roll)
        lines.append(Text(f"    → total {total} of {r.target}", style=T.LABEL))
    n = T._plural(len(r.rolls), "roll")
    if r.ended_by == "target":
        lines.append(Text.assemble(("  Success", T.GOOD), f" — {r.total} of {r.target} successes in {n}"))
    elif r.ended_by == "botch":
        lines.append(Text.assemble(("  Botch", T.DIRE),
                                   f" — a botch on roll {len(r.rolls)} ended the attempt at {r.total} of {r.target}"))
    else:
        lines.append(Text.assemble(("  Failure", T.BAD),
                                   f" — {r.total} of {r.target} successes when the limit of {n} ran out"))
    from rpgdice.engine.seyruun import EXTENDED_BOTCH_ENDS

    notes = []
    if EXTENDED_BOTCH_ENDS:
        notes.append("a botch ends the extended roll (rpgdice's reading: the rules do not say)")
    if r.willpower_spent:
        notes.append(f"Willpower spent: {r.willpower_spent} (1 per roll)")
    return lines + T._notes(notes)


def seyruun_team(r: Any) -> list[Text]:
    T = _t()
    (roll,) = r.rolls
    lines = [Text.assemble(("Seyruun team roll", "bold"),
                           f" · the leader's pool rolls · {T._plural(r.assists, 'assist')}: "
                           f"+{r.assist_dice} {'die' if r.assist_dice == 1 else 'dice'}")]
    lines += _nested("Leader:", roll)
    word, style = {"success": ("Team success", T.GOOD), "botch": ("Team botch", T.DIRE)}.get(
        r.outcome, ("Team failure", T.BAD))
    lines.append(Text.assemble((f"  {word}", style), f" — {_succ(r.total)}, {roll.required} needed"))
    notes = []
    lost = r.assists - r.assist_dice
    if lost:
        notes.append(f"external bonuses count at most +5: {T._plural(lost, 'assist')} added no die")
    return lines + T._notes(notes)


# Reglas Básicas ----------------------------------------------------------------------


def reglas_multi(r: Any) -> list[Text]:
    T = _t()
    lines = [Text.assemble(("Acciones múltiples", "bold"),
                           f" · {r.actions} acciones: −{r.actions} a la primera, −2 más por cada una")]
    for k, (roll, pen) in enumerate(zip(r.rolls, r.penalties), 1):
        lines += _nested(f"Acción {k} (−{pen}):", roll)
    ok = sum(1 for x in r.rolls if x.outcome == "success")
    if r.outcome == "success":
        lines.append(Text.assemble(("  Éxito", T.GOOD), f" — las {r.actions} acciones superadas"))
    elif r.outcome == "fumble":
        which = [str(k) for k, x in enumerate(r.rolls, 1) if x.outcome == "fumble"]
        where = f"la acción {which[0]}" if len(which) == 1 else f"las acciones {', '.join(which)}"
        lines.append(Text.assemble(("  Fracaso", T.DIRE), f" en {where} — {ok} de {r.actions} superadas"))
    else:
        lines.append(Text.assemble(("  Fallo", T.BAD), f" — {ok} de {r.actions} acciones superadas"))
    from rpgdice.engine.reglas import MULTI_FUMBLE_STOPS

    rule = "detiene" if MULTI_FUMBLE_STOPS else "no anula"
    return lines + T._notes([f"un fracaso {rule} las acciones restantes (decisión de rpgdice)"])


def reglas_contest(r: Any) -> list[Text]:
    T = _t()
    lines = [Text.assemble(("Acciones enfrentadas", "bold"),
                           " · el atacante supera su dificultad y luego el resultado del defensor")]
    lines += _nested("Atacante:", r.attacker)
    lines += _nested("Defensor:", r.defender)
    a, d = r.attacker.result, r.defender.result
    if r.winner == "attacker":
        lines.append(Text.assemble(("  Gana el atacante", T.GOOD), f" por {_exitos(r.margin)} ({a} contra {d})"))
    elif r.attacker.outcome != "success":
        lines.append(Text.assemble(("  Gana el defensor", T.BAD),
                                   f" — el atacante no supera su dificultad ({a} de {r.attacker.difficulty})"))
    elif r.tie:
        lines.append(Text.assemble(("  Gana el defensor", T.BAD),
                                   f" — empate a {a}: el empate es del defensor (decisión de rpgdice)"))
    else:
        lines.append(Text.assemble(("  Gana el defensor", T.BAD), f" por {_exitos(-r.margin)} ({d} contra {a})"))
    return lines


def reglas_team(r: Any) -> list[Text]:
    T = _t()
    from rpgdice.render.terminal import _reglas_difficulty

    lines = [Text.assemble(("Trabajo en equipo", "bold"),
                           f" · {len(r.rolls)} miembros · {_reglas_difficulty(r.difficulty)} para la suma")]
    for k, roll in enumerate(r.rolls, 1):
        lines += _nested(f"Miembro {k}:", roll)
    terms = " + ".join(T._num(x.result) if x.result >= 0 else f"({T._num(x.result)})"
                       for x in r.rolls)
    ok = r.outcome == "success"
    lines.append(Text.assemble(("  Éxito" if ok else "  Fallo", T.GOOD if ok else T.BAD),
                               f" — suma {terms} = {r.total} de {r.difficulty} necesarios"))
    if r.sunk_by:
        who = ", ".join(str(k) for k in r.sunk_by)
        if len(r.sunk_by) == 1:
            what, without = f"El fracaso del miembro {who} hundió", "sin él"
        else:
            what, without = f"Los fracasos de los miembros {who} hundieron", "sin ellos"
        positive = sum(x.result for x in r.rolls if x.result >= 0)
        lines.append(Text(f"  {what} al equipo: {without} la suma sería {positive}", style=T.DIRE))
    return lines


def reglas_extended(r: Any) -> list[Text]:
    T = _t()
    start = f" · empieza en {r.start}" if r.start else ""
    lines = [Text.assemble(("Acción extendida", "bold"),
                           f" · objetivo {_exitos(r.target)}{start} · como mucho {r.max_rolls} tiradas")]
    for k, (roll, total) in enumerate(zip(r.rolls, r.running_totals), 1):
        lines += _nested(f"Tirada {k}:", roll)
        lines.append(Text(f"    → acumulado {total} de {r.target}", style=T.LABEL))
    n = len(r.rolls)
    tiradas = f"{n} {'tirada' if n == 1 else 'tiradas'}"
    if r.ended_by == "target":
        lines.append(Text.assemble(("  Éxito", T.GOOD), f" — {r.total} de {r.target} éxitos en {tiradas}"))
    elif r.ended_by == "fumble":
        lines.append(Text.assemble(("  Fracaso", T.DIRE),
                                   f" en la tirada {n}: termina la acción con {r.total} de {r.target}"))
    else:
        lines.append(Text.assemble(("  Fallo", T.BAD),
                                   f" — {r.total} de {r.target} éxitos al agotar el límite de {tiradas}"))
    from rpgdice.engine.reglas import EXTENDED_FUMBLE_ENDS

    rule = "termina" if EXTENDED_FUMBLE_ENDS else "no termina"
    return lines + T._notes([f"un fracaso {rule} la acción extendida (decisión de rpgdice)"])


def reglas_retry(r: Any) -> list[Text]:
    T = _t()
    lines = [Text.assemble(("Inténtalo de nuevo", "bold"),
                           f" · −2 por cada intento fallido · como mucho {r.max_attempts} intentos")]
    for k, roll in enumerate(r.rolls, 1):
        pen = f" (−{roll.attempt_penalty})" if roll.attempt_penalty else ""
        lines += _nested(f"Intento {k}{pen}:", roll)
    n = r.attempts
    if r.ended_by == "success":
        lines.append(Text.assemble(("  Éxito", T.GOOD), f" en el intento {n}"))
    elif r.ended_by == "fumble":
        lines.append(Text.assemble(("  Fracaso", T.DIRE), f" en el intento {n}: no se puede volver a intentar"))
    else:
        lines.append(Text.assemble(("  Fallo", T.BAD), f" — {n} intentos fallidos, límite alcanzado"))
    return lines


SEQUENCE_RENDERERS: dict[tuple[str, str], Callable[[Any], list[Text]]] = {
    ("seyruun", "contest"): seyruun_contest,
    ("seyruun", "extended"): seyruun_extended,
    ("seyruun", "team"): seyruun_team,
    ("reglas", "multi"): reglas_multi,
    ("reglas", "contest"): reglas_contest,
    ("reglas", "team"): reglas_team,
    ("reglas", "extended"): reglas_extended,
    ("reglas", "retry"): reglas_retry,
}

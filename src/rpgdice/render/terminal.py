"""The terminal view: a Rich per-die breakdown of each result.

Every die shows its face (and its modified value where modifiers apply), colored
by what it did; then the totals against what was needed, the outcome in the
ruleset's own words, and notes. Rich decides about color: none when piped, on
with ``FORCE_COLOR``, and ``NO_COLOR`` wins over both.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from typing import Any, Callable, Iterable

from rich.console import Console
from rich.text import Text

# What a die did -> its style.
HIT = "green"
DOUBLE = "bold magenta"  # a die that counts twice (natural 10 meeting the Difficulty, a Seyruun 10)
CRIT = "bold yellow"  # a natural 10 / critical that counts once
MISS = "dim"
BOTCH_ONE = "bold red"  # a 1 in a botched roll
ONE = "red"
NOTE = "dim italic"
GOOD = "bold green"
BAD = "bold red"
DIRE = "bold white on red"
LABEL = "bold cyan"


def console() -> Console:
    """A stdout console. Colored in a terminal, plain when piped. FORCE_COLOR (non-empty)
    colors piped output too, even where TERM says the terminal is dumb. NO_COLOR
    (non-empty) wins over FORCE_COLOR: color off, and escape codes only when stdout
    really is a terminal."""
    if os.environ.get("NO_COLOR"):
        return Console(highlight=False, soft_wrap=True, no_color=True, force_terminal=sys.stdout.isatty())
    if os.environ.get("FORCE_COLOR") and os.environ.get("TERM", "") in ("dumb", "unknown"):
        return Console(highlight=False, soft_wrap=True, force_terminal=True, color_system="standard")
    return Console(highlight=False, soft_wrap=True)


OUTCOME_WORDS = {
    "crytures": {"success": ("Success", GOOD), "failure": ("Failure", BAD)},
    "seyruun": {"success": ("Success", GOOD), "failure": ("Failure", BAD), "botch": ("Botch", DIRE)},
    "reglas": {"success": ("Éxito", GOOD), "failure": ("Fallo", BAD), "fumble": ("Fracaso", DIRE)},
    "cypher": {"success": ("Success", GOOD), "failure": ("Failure", BAD)},
}
"""Each outcome value in the ruleset's own words, and its style."""
VOCABULARY = {
    "en": {"rolls": "rolls", "outcome": "outcome", "chance": "chance", "odds": "odds", "of": "chance of"},
    "es": {"rolls": "tiradas", "outcome": "resultado", "chance": "probabilidad", "odds": "probabilidad",
           "of": "de"},
}
LANGUAGE = {"reglas": "es"}
"""The language of a ruleset's view (its text's): Reglas Básicas is Spanish, the rest English."""


def words(ruleset: str) -> dict[str, str]:
    """The view's own words (headers, summaries) in the ruleset's language."""
    return VOCABULARY[LANGUAGE.get(ruleset, "en")]


def show(results: Iterable[Any], after: Callable[[Any], list[Text]] | None = None,
         total: int = 1) -> None:
    """Print each result's lines as it comes; ``after(result)`` adds lines under each
    (``--odds``). Over several results (``total`` > 1) each is numbered and a summary
    of the outcomes closes the list."""
    out = console()
    counts: Counter[str] = Counter()
    ruleset = ""
    for i, result in enumerate(results, 1):
        ruleset = type(result).RULESET
        counts[result.outcome] += 1
        lines = render(result)
        if after is not None:
            lines += after(result)
        if total > 1:
            lines[0] = Text.assemble((f"#{i} ", "bold"), lines[0])
        out.print(Text("\n").join(lines))  # one print a result: Rich's per-call cost adds up
    if total > 1:
        named = OUTCOME_WORDS.get(ruleset, {})
        parts = ", ".join(f"{n} {named.get(outcome, (outcome,))[0]}" for outcome, n in counts.most_common())
        out.print(Text(f"{sum(counts.values())} {words(ruleset)['rolls']}: {parts}", style="bold"))


def render(result: Any) -> list[Text]:
    """The lines for one result."""
    key = (type(result).RULESET, type(result).COMMAND)
    return RENDERERS[key](result)


def _num(n: int) -> str:
    """A whole number with a true minus sign, as the view writes its other signs."""
    return f"−{-n}" if n < 0 else str(n)


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _notes(notes: list[str]) -> list[Text]:
    return [Text(f"  · {n}", style=NOTE) for n in notes]


def _dice_line(label: str, chips: list[tuple[str, str]]) -> Text:
    text = Text.assemble((f"  {label} ", LABEL))
    for i, (chip, style) in enumerate(chips):
        if i:
            text.append("  ")
        text.append(chip, style=style)
    return text


# Crytures ----------------------------------------------------------------------------


def crytures_roll(r: Any) -> list[Text]:
    header = Text.assemble(
        ("Crytures roll", "bold"),
        f" · {_plural(r.pool, 'die', 'dice')}",
        f" ({r.base_pool} {_signed(r.die_mod)} die mod)" if r.die_mod else "",
        f" · roll mod {_signed(r.roll_mod)}" if r.roll_mod else "",
        f" · Difficulty {r.difficulty} · Complexity {r.complexity}",
        " · attack" if r.attack else "",
    )
    chips = []
    for d in r.dice:
        face = f"{d.face}→{d.value}" if r.roll_mod else f"{d.face}"
        marks = "✓" * d.successes if d.successes else "✗"
        if d.face == 10:
            style = DOUBLE if d.successes == 2 else CRIT
        else:
            style = HIT if d.successes else MISS
        chips.append((f"{face} {marks}", style))
    lines = [header]
    if r.no_dice:
        lines.append(Text("  no dice: the die modifiers removed every die", style=MISS))
    else:
        lines.append(_dice_line("dice", chips))
    ok = r.outcome == "success"
    verdict = Text.assemble(
        ("  Success" if ok else "  Failure", GOOD if ok else BAD),
        f" — {_plural(r.successes, 'success', 'successes')} against Complexity {r.complexity}",
    )
    if ok:
        verdict.append(f": {_plural(r.extra_successes, 'extra success', 'extra successes')}")
    lines.append(verdict)
    notes = []
    if r.natural_tens:
        notes.append(f"{_plural(r.natural_tens, 'natural 10')} (always a success; two when it meets the Difficulty)")
    if r.critical_hits:
        notes.append(f"{_plural(r.critical_hits, 'critical hit')}: trigger the attack's Crit effect")
    return lines + _notes(notes)


# Seyruun -----------------------------------------------------------------------------

SEYRUUN_TIERS = {
    "just": "just enough",
    "solid": "solid execution",
    "heroic": "heroic performance",
    "supernatural": "supernatural brilliance",
}


def _seyruun_chips(r: Any) -> list[tuple[str, str]]:
    chips = []
    for d in r.dice:
        if d.face == 10:
            style, mark = (DOUBLE, " ✓✓") if not r.chance_die else (CRIT, " ✓")
        elif d.successes:
            style, mark = HIT, " ✓"
        elif d.face == 1:
            style, mark = (BOTCH_ONE if r.outcome == "botch" else ONE), ""
        else:
            style, mark = MISS, ""
        chips.append((f"{d.face}{mark}", style))
    return chips


def _seyruun_verdict(r: Any) -> Text:
    if r.outcome == "success":
        return Text.assemble(
            ("  Success", GOOD),
            f" ({SEYRUUN_TIERS[r.tier]}) — {_plural(r.successes, 'success', 'successes')}, "
            f"{r.required} needed",
        )
    if r.outcome == "botch":
        what = "a dramatic botch on the chance die" if r.chance_die else "no successes and a 1"
        return Text.assemble(("  Botch", DIRE), f" — {what}")
    return Text.assemble(
        ("  Failure", BAD),
        f" — {_plural(r.successes, 'success', 'successes')}, {r.required} needed",
    )


def seyruun_build(r: Any) -> str:
    """How the pool was built: ``Attribute 3 + Skill 3 + bonus 1 − penalties 2 = 5``."""
    parts = [f"Attribute {r.attribute}"]
    parts.append(f"+ Skill {r.skill}" if r.skill else "untrained −1")
    if r.bonus:
        parts.append(f"+ bonus {r.bonus}")
    if r.willpower_dice:
        parts.append(f"+ Willpower {r.willpower_dice}")
    if r.penalty:
        parts.append(f"− penalties {r.penalty}")
    return " ".join(parts) + f" = {r.pool_total}"


def seyruun_roll(r: Any) -> list[Text]:
    if r.chance_die:
        size = "chance die"
    else:
        size = _plural(r.pool, "die", "dice")
    header = Text.assemble(
        ("Seyruun roll", "bold"),
        f" · {size} ({seyruun_build(r)})",
        f" · {_plural(r.required, 'success', 'successes')} needed",
    )
    lines = [header]
    if r.rerolled is not None:
        first = r.rerolled
        lines.append(_dice_line("first", [(c, MISS) for c, _ in _seyruun_chips(first)]))
        lines.append(Text(f"  {first.outcome}: re-rolled for 1 Willpower; the re-roll stands", style=NOTE))
    lines.append(_dice_line("dice", _seyruun_chips(r)))
    lines.append(_seyruun_verdict(r))
    notes = []
    if r.bonus_capped:
        notes.append(f"external bonus capped at +5 ({r.bonus_capped} lost)")
    if r.overflow:
        notes.append(f"10 dice at most: overflow {r.overflow} for secondary effects (damage, perception depth)")
    if r.chance_die:
        notes.append("chance die: the pool fell to 0 or less; a 10 succeeds, a 1 is a dramatic botch")
    if r.multiple_critical:
        notes.append(f"{r.tens} tens: heightened critical (reduced power cost, longer duration, lasting effects)")
    elif r.tens and not r.chance_die:
        notes.append("one 10: a critical success, counted twice")
    if r.willpower_spent:
        notes.append(f"Willpower spent: {r.willpower_spent}")
    return lines + _notes(notes)


# Reglas Básicas ----------------------------------------------------------------------


def reglas_outcome(r: Any) -> tuple[str, str]:
    """The result in the text's own words, and its style."""
    if r.outcome == "success":
        return ("Crítico", DOUBLE) if r.critical else ("Éxito", GOOD)
    if r.outcome == "fumble":
        return f"Fracaso de grado {r.fumble_grade}", DIRE
    return "Fallo", BAD


def _reglas_difficulty(needed: int) -> str:
    from rpgdice.engine.reglas import DIFFICULTIES, DIFFICULTY_NAMES_ES

    if needed == 0:
        return "sin dificultad (cero inclusive)"
    count = f"{needed} {'éxito' if needed == 1 else 'éxitos'}"
    for key, value in DIFFICULTIES.items():
        if value == needed:
            return f"dificultad {DIFFICULTY_NAMES_ES[key]} ({count})"
    return f"dificultad {count}"


def reglas_roll(r: Any) -> list[Text]:
    parts = []
    if r.modifier:
        parts.append(f"mod {_signed(r.modifier)}")
    if r.attempt_penalty:
        parts.append(f"intento: −{r.attempt_penalty}")
    detail = f" ({r.base_index}, {', '.join(parts)})" if parts else ""
    header = Text.assemble(
        ("Reglas Básicas", "bold"),
        f" · iE {_num(r.index)}{detail}",
        f" · {_reglas_difficulty(r.difficulty)}",
    )
    if r.die == 1:
        style = CRIT
    elif r.outcome == "fumble":
        style = BOTCH_ONE
    elif r.outcome == "success":
        style = HIT
    else:
        style = MISS
    dice = Text.assemble(("  dado ", LABEL), (str(r.die), style), f"  →  resultado {_num(r.index)} − {r.die} = {_num(r.result)}")
    word, wstyle = reglas_outcome(r)
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
        verdict.append(f" — resultado {_num(r.result)}")
    return [header, dice, verdict]


# Cypher ------------------------------------------------------------------------------

CYPHER_SPECIAL = {
    "gm_intrusion": "natural 1: GM intrusion",
    "plus_1_damage": "17 on an attack: +1 damage",
    "plus_2_damage": "18 on an attack: +2 damage",
    "minor_effect": "19: minor effect",
    "major_effect": "20: major effect; Pool points spent on the roll are not lost",
}


def cypher_task(r: Any) -> list[Text]:
    from rpgdice.engine.cypher import DIFFICULTY_NAMES

    steps = ""
    if r.easing:
        steps += f" − {r.easing} eased"
    if r.hindering:
        steps += f" + {r.hindering} hindered"
    if steps:
        steps += f" = {r.effective_difficulty}"
    header = Text.assemble(
        ("Cypher task", "bold"),
        f" · difficulty {r.difficulty} ({DIFFICULTY_NAMES[r.difficulty]}){steps}",
        f" · target {r.target}" if r.target is not None else "",
        " · attack" if r.attack else "",
    )
    lines = [header]
    if r.routine:
        lines.append(Text("  routine task: no roll", style=NOTE))
        lines.append(Text("  Success", style=GOOD))
    elif r.impossible:
        lines.append(Text(f"  impossible: not even 20{f' + {r.bonus}' if r.bonus else ''} reaches {r.target}; no roll", style=NOTE))
        lines.append(Text("  Failure", style=BAD))
    else:
        ok = r.outcome == "success"
        style = CRIT if r.roll in (19, 20) else BOTCH_ONE if r.roll == 1 else HIT if ok else MISS
        roll = Text.assemble(("  d20 ", LABEL), (str(r.roll), style))
        if r.bonus:
            roll.append(f" + {r.bonus} bonus = {r.total}")
        roll.append(f"  vs target {r.target}")
        lines.append(roll)
        lines.append(Text("  Success" if ok else "  Failure", style=GOOD if ok else BAD))
    notes = []
    if r.special:
        text = CYPHER_SPECIAL[r.special]
        if r.attack and r.special == "minor_effect":
            text += " (or +3 damage)"
        if r.attack and r.special == "major_effect":
            text = text.replace("major effect", "major effect (or +4 damage)")
        notes.append(text)
    if r.effort:
        kept = ", not lost on this natural 20" if r.special == "major_effect" else ""
        notes.append(f"Effort {r.effort}: costs {r.effort_cost} Pool points (after Edge){kept}")
    return lines + _notes(notes)


RENDERERS: dict[tuple[str, str], Callable[[Any], list[Text]]] = {
    ("crytures", "roll"): crytures_roll,
    ("seyruun", "roll"): seyruun_roll,
    ("reglas", "roll"): reglas_roll,
    ("cypher", "task"): cypher_task,
}

# The roll types (contest, extended, team, multi, retry) have their views in their own module.
from rpgdice.render.sequences import SEQUENCE_RENDERERS  # noqa: E402

RENDERERS.update(SEQUENCE_RENDERERS)

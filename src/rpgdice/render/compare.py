"""``--compare``: the choices a player weighs, side by side on one scale — each
alternative's chance of every outcome, what it costs where it costs something, and which
gives the best chance of success and the lowest chance of disaster."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.text import Text

from rpgdice.core import registry
from rpgdice.render.common import (
    DIRE,
    GOOD,
    chart,
    console,
    layout,
    notes,
    outcome_word,
    percent,
    view,
)

WORDS = {
    "en": {"choice": "choice", "base": "as given", "with": "with", "cost": "cost",
           "title": "Compared", "best": "best chance of {word}: {label} ({p})",
           "least": "lowest chance of {word}: {label} ({p})", "same": "every choice gives the same chances",
           "same_hit": "every choice gives the same chances of each outcome",
           "damage": "damage", "most": "most damage: {label} (mean {mean})"},
    "es": {"choice": "opción", "base": "tal cual", "with": "con", "cost": "coste",
           "title": "Comparación", "best": "mejor probabilidad de {word}: {label} ({p})",
           "least": "menor probabilidad de {word}: {label} ({p})",
           "same": "todas las opciones dan las mismas probabilidades",
           "same_hit": "todas las opciones dan las mismas probabilidades de cada resultado",
           "damage": "daño", "most": "más daño: {label} (media {mean})"},
}


def lines(base: Any, compare: list[tuple[str, Any]]) -> list[Any]:
    """The comparison's lines: a chart of every choice (the base first), and its verdicts."""
    ruleset = type(base).RULESET
    said = WORDS[registry.get(ruleset).language]
    choices = [(said["base"], base)] + [(f"{said['with']} {args}", odds) for args, odds in compare]
    outcomes = list(getattr(base, "outcomes", None) or ())
    if not outcomes:  # ordinary dice: no outcome, the totals' mean
        return _totals([(label, _one(o)) for label, o in choices], said)
    costs = [cost(o) for _, o in choices]
    damage = [getattr(o, "mean_damage", None) for _, o in choices]
    header = [said["choice"], *(outcome_word(ruleset, k)[0].lower() for k in outcomes)]
    if any(d is not None for d in damage):
        header.append(said["damage"])
    if any(costs):
        header.append(said["cost"])
    first, tone = outcomes[0], outcome_word(ruleset, outcomes[0])[1]
    rows = []
    for (label, odds), paid, mean in zip(choices, costs, damage):
        figures = [percent(odds.outcomes.get(k, 0)) for k in outcomes]
        if any(d is not None for d in damage):
            figures.append("—" if mean is None else f"{float(mean):.2f}")
        if any(costs):
            figures.append(paid or "—")
        rows.append((label, "", figures, odds.outcomes.get(first, 0), tone))
    out: list[Any] = [Text(said["title"], style="bold"), *chart(rows, *header)]
    return out + notes(_verdicts(ruleset, choices, outcomes, said))


def _verdicts(ruleset: str, choices: list[tuple[str, Any]], outcomes: list[str],
              said: dict[str, str]) -> list[str]:
    hurt = [(label, getattr(o, "damage_dealt", None), getattr(o, "mean_damage", None))
            for label, o in choices]
    most = [(label, mean) for label, _, mean in hurt if mean is not None]
    more = ([said["most"].format(label=max(most, key=lambda c: c[1])[0],
                                 mean=f"{float(max(m for _, m in most)):.2f}")]
            if len({d for _, _, d in hurt if d is not None}) > 1 else [])
    if all(o.outcomes == choices[0][1].outcomes for _, o in choices):
        return more or [said["same"] if len({repr(d) for _, d, _ in hurt}) == 1 else
                        said["same_hit"]]
    verdicts = []
    good = next((k for k in outcomes if outcome_word(ruleset, k)[1] == GOOD), outcomes[0])
    label, odds = max(choices, key=lambda c: c[1].outcomes.get(good, 0))
    verdicts.append(said["best"].format(word=outcome_word(ruleset, good)[0].lower(), label=label,
                                        p=percent(odds.outcomes.get(good, 0))))
    dire = next((k for k in outcomes if outcome_word(ruleset, k)[1] == DIRE), None)
    if dire is not None:
        label, odds = min(choices, key=lambda c: c[1].outcomes.get(dire, 0))
        verdicts.append(said["least"].format(word=outcome_word(ruleset, dire)[0].lower(),
                                             label=label, p=percent(odds.outcomes.get(dire, 0))))
    return verdicts + more


def _one(odds: Any) -> Any:
    """Ordinary dice's odds of several expressions: the first one's (each is its own roll)."""
    by = getattr(odds, "by_expression", None)
    return next(iter(by.values())) if by else odds


def _totals(choices: list[tuple[str, Any]], said: dict[str, str]) -> list[Any]:
    rows = [(label, "", [f"{float(o.mean):.2f}", str(o.min), str(o.max)], 0, "cyan")
            for label, o in choices]
    return [Text(said["title"], style="bold"), *chart(rows, said["choice"], "mean", "min", "max")]


def cost(odds: Any) -> str:
    """What a choice costs, where its ruleset's rolls cost something: Seyruun Willpower
    (1 for the +3 dice, 1 more for a re-roll; an extended roll pays each roll), Cypher
    points of Effort from a Pool."""
    inner = getattr(odds, "roll", None) or getattr(odds, "attacker", None) or odds
    willpower = (1 if getattr(inner, "willpower_dice", 0) else 0) + (1 if getattr(inner, "reroll", False) else 0)
    if willpower:
        each = " a roll" if getattr(odds, "type", "") == "extended" else ""
        return f"{willpower} Willpower{each}"
    effort = getattr(odds, "effort_cost", 0)
    return f"{effort} from the Pool" if effort else ""


def show(base: Any, compare: list[tuple[str, Any]]) -> None:
    """``--odds --compare`` under rolls: the comparison alone, after the rolls."""
    out = console()
    language = registry.of(base).language
    out.print(Text("\n").join(layout(lines(base, compare), out.width, language)))


def show_odds(results: Iterable[Any], compare: list[tuple[str, Any]] | None = None) -> None:
    """Print exact odds (``odds`` commands): their views are ``VIEWS["odds"]``; with
    ``compare`` (``--compare``), the choices side by side under them, on a scale of their
    own: the view's charts keep their width and their "bars on one scale" note."""
    out = console()
    for result in results:
        language = registry.of(result).language
        shown = layout(view(result)(result), out.width, language)
        if compare:
            shown += layout(lines(result, compare), out.width, language)
        out.print(Text("\n").join(shown))

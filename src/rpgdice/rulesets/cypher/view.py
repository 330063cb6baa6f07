"""Cypher System: the task view and the odds view."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from rpgdice.core.data import JSONObject
from rpgdice.render.common import (
    BAD,
    BOTCH_ONE,
    CRIT,
    DIRE,
    GOOD,
    HIT,
    LABEL,
    MISS,
    NOTE,
    Line,
    View,
    chart,
    notes,
    num,
    outcome_chart,
    percent,
)
from rpgdice.rulesets import Views
from rpgdice.rulesets.cypher import rules

if TYPE_CHECKING:
    from rich.console import RenderableType

    from rpgdice.table.sheets import Sheet

SPECIAL = {
    "gm_intrusion": "natural 1: GM intrusion",
    "plus_1_damage": "17 on an attack: +1 damage",
    "plus_2_damage": "18 on an attack: +2 damage",
    "minor_effect": "19: minor effect",
    "major_effect": "20: major effect; Pool points spent on the roll are not lost",
}
SPECIAL_SHORT = {
    "gm_intrusion": "1: GM intrusion",
    "plus_1_damage": "17: +1 damage",
    "plus_2_damage": "18: +2 damage",
    "minor_effect": "19: minor effect",
    "major_effect": "20: major effect",
}
"""Short names of the special rolls for the chart (the roll view says more)."""
GM_INTRUSION = ("GM intrusion", " — a natural 1: the GM brings in a complication")
"""A natural 1, shown on the verdict's line: the event of the roll, not a footnote."""


def task(r: rules.CypherResult) -> list[Text]:
    from rpgdice.rulesets.cypher.rules import DIFFICULTY_NAMES

    steps = ""
    if r.easing:
        steps += f" − {r.easing} eased"
    if r.hindering:
        steps += f" + {r.hindering} hindered"
    if steps:
        steps += f" = {num(r.effective_difficulty)}"
    header = Text.assemble(
        ("Cypher task", "bold"),
        f" · difficulty {r.difficulty} ({DIFFICULTY_NAMES[r.difficulty]}){steps}",
        f" · target {r.target}" if r.target is not None else "",
        " · attack" if r.attack else "",
    )
    lines = [header]
    if r.roll is not None and (r.routine or r.impossible):  # a d20 thrown by hand, recorded
        thrown = Text.assemble(("  d20 ", LABEL), (str(r.roll), NOTE))
        if r.bonus:
            thrown.append(f" + {r.bonus} bonus = {r.total}")
        lines.append(thrown)
    no_roll = "no roll" if r.roll is None else "the d20 thrown is only recorded"
    if r.routine:
        lines.append(Text(f"  routine task: {no_roll}", style=NOTE))
        lines.append(Text("  Success", style=GOOD))
    elif r.impossible:
        lines.append(Text(f"  impossible: not even 20{f' + {r.bonus}' if r.bonus else ''} reaches {r.target}; {no_roll}", style=NOTE))
        lines.append(Text("  Failure", style=BAD))
    else:
        ok = r.outcome == "success"
        style = CRIT if r.roll in (19, 20) else BOTCH_ONE if r.roll == 1 else HIT if ok else MISS
        roll = Text.assemble(("  d20 ", LABEL), (str(r.roll), style))
        if r.bonus:
            roll.append(f" + {r.bonus} bonus = {r.total}")
        roll.append(f"  vs target {r.target}")
        lines.append(roll)
        verdict = Text.assemble(("  Success" if ok else "  Failure", GOOD if ok else BAD))
        if r.special == "gm_intrusion":  # the event of the roll: beside the verdict, loud
            verdict.append(" · ")
            verdict.append(GM_INTRUSION[0], style=DIRE)
            verdict.append(GM_INTRUSION[1])
        lines.append(verdict)
    said = []
    if r.special and not r.rolled:  # a face recorded on a task that needed no roll
        event = SPECIAL_SHORT[r.special].split(": ", 1)[1]
        said.append(f"the {r.roll} ({event}) had no effect: the task needed no roll")
    elif r.special and r.special != "gm_intrusion":
        text = SPECIAL[r.special]
        if r.attack and r.special == "minor_effect":
            text += " (or +3 damage)"
        if r.attack and r.special == "major_effect":
            text = text.replace("major effect", "major effect (or +4 damage)")
        said.append(text)
    if r.effort:
        kept = ", not lost on this natural 20" if r.special == "major_effect" and r.rolled else ""
        said.append(f"Effort {r.effort}: costs {r.effort_cost} Pool points ({_after(r.effort_surcharge)}){kept}")
    return lines + notes(said)


def odds(o: rules.CypherOdds) -> list[Line]:
    from rpgdice.rulesets.cypher.rules import DIFFICULTY_NAMES

    header = Text.assemble(
        ("Cypher odds", "bold"),
        f" · difficulty {o.difficulty} ({DIFFICULTY_NAMES[o.difficulty]})",
        f" → {num(o.effective_difficulty)}" if o.effective_difficulty != o.difficulty else "",
        f" · target {o.target}" if o.target is not None else "",
        f" · bonus +{o.bonus}" if o.bonus else "",
        " · attack" if o.attack else "",
    )
    out = [header, *outcome_chart("cypher", o.outcomes)]
    said = []
    if o.routine:
        said.append("routine task: it succeeds with no roll")
    elif o.impossible:
        said.append("impossible: not even a 20 plus the bonus reaches the target; no roll")
    else:
        rows = [(SPECIAL_SHORT[name], "", [percent(p)], p, CRIT)
                for name, p in o.special.items() if o.attack or p]
        out += chart(rows, "special roll", "chance")
    if o.effort_cost:
        said.append(f"Effort costs {o.effort_cost} Pool points ({_after(o.effort_surcharge)})")
    return out + notes(said)


def _after(surcharge: int) -> str:
    """What an Effort cost stated counts besides its levels: Edge, and being impaired."""
    return f"after Edge; {surcharge} more, impaired" if surcharge else "after Edge"


def recovery(r: rules.CypherRecoveryResult) -> list[Text]:
    """A recovery roll: the d6 and the tier, where the points went, the Pools after."""
    went = [f"{k.title()} +{v}" for k, v in r.to.items() if v]  # in the order they went
    if r.lost:
        went.append(f"{r.lost} lost (every Pool full)")
    pools = " · ".join(f"{k.title()} {v}" for k, v in r.pools.items())
    return [Text.assemble(("Cypher recovery", "bold"), f" · {r.recovery}"),
            Text.assemble(("  d6 ", LABEL), (str(r.roll), HIT), f" + tier {r.tier} = ",
                          (str(r.points), GOOD), " points"),
            Text(f"  {', '.join(went) or 'nothing'}"),
            Text(f"  now {pools}" if pools else "  the sheet has no Pools", style=NOTE)]


def _recovery_after(o: rules.CypherRecoveryOdds, r: rules.CypherRecoveryResult) -> list[Text]:
    """``--odds`` under a recovery roll: the chance of its total, and the range."""
    low, high = min(o.points), max(o.points)
    return [Text.assemble(("  odds ", LABEL), (percent(o.points.get(r.points, 0)), "bold"),
                          f" of {r.points} points ({low} to {high}, each as likely)")]


VIEWS: dict[type, View] = {rules.CypherResult: task, rules.CypherOdds: odds, rules.CypherRecoveryResult: recovery}
"""Each command's view, by the result's ``COMMAND`` (``cypher roll`` is ``cypher task``)."""


def sheet_part(sheet: Sheet) -> RenderableType:
    """``char show``: the Pools with their Edge, the tier and the Effort level, and the
    armor, initiative and recoveries used the sheet holds."""
    from rich.console import Group
    from rich.table import Table

    from rpgdice.render.sheet import held
    from rpgdice.rulesets.cypher import POOLS
    from rpgdice.rulesets.cypher.target import state_of

    table = Table(title="Pools", title_style="bold cyan", title_justify="left", box=None,
                  pad_edge=False, padding=(0, 2, 0, 0))
    table.add_column("", style="bold")
    table.add_column("Pool", justify="right")
    table.add_column("Edge", justify="right")
    for pool in POOLS:
        value = sheet.get(pool)
        top = sheet.maximum(pool)
        shown = "—" if value is None else str(value) if top is None else f"{value} of {top}"
        table.add_row(pool.title(), shown, str(sheet.edge(pool)))
    level = sheet.effort_level
    said = [f"Effort {level}" if level is not None else "Effort level not set"]
    if sheet.get("tier") is not None:
        said.insert(0, f"Tier {sheet.get('tier')}")
    if state_of(sheet) is not None:  # the damage track
        said.append(str(state_of(sheet)))
    more = [f"{label} {value}" for label, value in held(sheet, ("armor", "initiative"))]
    if sheet.get("recoveries") is not None:
        more.append(f"recoveries used today {sheet.get('recoveries')} of 4")
    lines = Text(" · ".join(said), no_wrap=False, overflow="fold")  # wrapped in a narrow panel
    if more:
        lines.append("\n" + " · ".join(more))
    return Group(table, lines)


def _task_figures(r: JSONObject) -> str:
    if r.get("routine") or r.get("impossible"):
        kind = "routine" if r.get("routine") else "no roll"
        return kind if r.get("roll") is None else f"{kind}, d20 {r.get('roll')} recorded"
    if r.get("roll") is None:
        return "no roll"
    return f"d20 {r.get('roll')} vs {r.get('target')}"


FIGURES = {"task": _task_figures,
           "recover": lambda r: f"d6 {r.get('roll')} + {r.get('tier')} = {r.get('points')}"}
"""The roll log's few words on a stored result, by command."""

TABLE = Views(VIEWS, figures=FIGURES, sheet_part=sheet_part,
              after={rules.CypherRecoveryOdds: _recovery_after})
"""What the ruleset's record hands out (:attr:`rpgdice.rulesets.Ruleset.views`)."""

"""Seyruun: the roll view, the roll types' views (contest, extended, team) and the
odds view."""

from __future__ import annotations

from typing import Any

from rich.text import Text

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
    NOTE,
    ONE,
    count_chart,
    dice_line,
    nested,
    notes,
    num,
    outcome_chart,
    percent,
    plural,
)

TIERS = {
    "just": "just enough",
    "solid": "solid execution",
    "heroic": "heroic performance",
    "supernatural": "supernatural brilliance",
}
MARGINS = {"just": "margin 0", "solid": "margin 1–2", "heroic": "margin 3–4", "supernatural": "margin 5+"}
"""The successes beyond those required that make each tier (engine.seyruun.TIERS)."""


def _succ(n: int) -> str:
    return plural(n, "success", "successes")


def _chips(r: Any) -> list[tuple[str, str]]:
    chips = []
    for d in r.dice:
        if d.face == 10:
            style, mark = (DOUBLE, " ✓✓") if not r.chance_die else (CRIT, " ✓")
        elif d.successes:
            style, mark = HIT, " ✓"
        elif d.face == 1:
            style, mark = (BOTCH_ONE if r.outcome == "botch" else ONE), " ✗"
        else:
            style, mark = MISS, " ✗"
        chips.append((f"{d.face}{mark}", style))
    return chips


def _verdict(r: Any) -> Text:
    if r.chance_die:
        face = r.dice[0].face
        if r.outcome == "success":
            return Text.assemble(("  Success", GOOD), f" ({TIERS[r.tier]}) — the chance die's 10: "
                                 "a chance die succeeds on a 10 whatever the difficulty")
        if r.outcome == "botch":
            return Text.assemble(("  Botch", DIRE), " — a dramatic botch: the chance die shows 1")
        return Text.assemble(("  Failure", BAD), f" — the chance die shows {face}; only a 10 succeeds")
    if r.outcome == "success":
        margin = r.successes - r.required
        return Text.assemble(
            ("  Success", GOOD),
            f" ({TIERS[r.tier]}) — {_succ(r.successes)}, {r.required} needed: margin {margin}",
        )
    if r.outcome == "botch":
        return Text.assemble(("  Botch", DIRE), " — no successes and a 1")
    return Text.assemble(("  Failure", BAD), f" — {_succ(r.successes)}, {r.required} needed")


def build(r: Any) -> str:
    """How the pool was built: ``Attribute 3 + Skill 3 + bonus 1 − penalties 2 = 5``."""
    parts = [f"Attribute {r.attribute}"]
    parts.append(f"+ Skill {r.skill}" if r.skill else "untrained −1")
    if r.bonus:
        parts.append(f"+ bonus {r.bonus}")
    if r.willpower_dice:
        parts.append(f"+ Willpower {r.willpower_dice}")
    if r.penalty:
        parts.append(f"− penalties {r.penalty}")
    return " ".join(parts) + f" = {num(r.pool_total)}"


def roll(r: Any) -> list[Text]:
    size = "chance die" if r.chance_die else plural(r.pool, "die", "dice")
    header = Text.assemble(
        ("Seyruun roll", "bold"),
        f" · {size} ({build(r)})",
        f" · {_succ(r.required)} needed",
    )
    lines = [header]
    if r.rerolled is not None:
        first = r.rerolled
        lines.append(dice_line("first", [(c, MISS) for c, _ in _chips(first)]))
        lines.append(Text(f"  {first.outcome}: re-rolled for 1 Willpower; the re-roll stands", style=NOTE))
    lines.append(dice_line("dice", _chips(r)))
    lines.append(_verdict(r))
    said = []
    if r.bonus_capped:
        said.append(f"external bonus capped at +5 ({r.bonus_capped} lost)")
    if r.overflow:
        said.append(f"10 dice at most: overflow {r.overflow} for secondary effects (damage, perception depth)")
    if r.chance_die:
        said.append("chance die: the pool fell to 0 or less; a 10 succeeds, a 1 is a dramatic botch")
    if r.multiple_critical:
        said.append(f"{r.tens} tens: heightened critical (reduced power cost, longer duration, lasting effects)")
    elif r.tens and not r.chance_die:
        said.append("one 10: a critical success, counted twice")
    if r.willpower_spent:
        said.append(f"Willpower spent: {r.willpower_spent}")
    return lines + notes(said)


# Roll types ------------------------------------------------------------------------------


def contest(r: Any) -> list[Text]:
    lines = [Text.assemble(("Seyruun contest", "bold"), " · more successes wins")]
    lines += nested("Attacker:", roll(r.attacker))
    lines += nested("Defender:", roll(r.defender))
    a, d = r.attacker.successes, r.defender.successes
    style = GOOD if r.winner == "attacker" else BAD
    who = "Attacker wins" if r.winner == "attacker" else "Defender wins"
    if not r.tie:
        detail = f" by {_succ(abs(r.margin))} ({a} to {d})"
    elif r.winner == "attacker":
        detail = (f" the tie at {_succ(a)}: higher base Attribute "
                  f"({r.attacker_attribute} to {r.defender_attribute})")
    else:
        detail = (f" the tie at {_succ(a)}: the attacker's base Attribute "
                  f"({r.attacker_attribute}) is not higher than {r.defender_attribute}")
    lines.append(Text.assemble((f"  {who}", style), detail))
    return lines


def extended(r: Any) -> list[Text]:
    lines = [Text.assemble(("Seyruun extended roll", "bold"),
                           f" · target {_succ(r.target)} · at most {plural(r.max_rolls, 'roll')}")]
    for k, (step, total) in enumerate(zip(r.rolls, r.running_totals), 1):
        lines += nested(f"Roll {k}:", roll(step))
        lines.append(Text(f"    → total {total} of {r.target}", style=LABEL))
    n = plural(len(r.rolls), "roll")
    if r.ended_by == "target":
        lines.append(Text.assemble(("  Success", GOOD), f" — {r.total} of {r.target} successes in {n}"))
    elif r.ended_by == "botch":
        lines.append(Text.assemble(("  Botch", DIRE),
                                   f" — a botch on roll {len(r.rolls)} ended the attempt at {r.total} of {r.target}"))
    else:
        lines.append(Text.assemble(("  Failure", BAD),
                                   f" — {r.total} of {r.target} successes when the limit of {n} ran out"))
    from rpgdice.engine.seyruun import EXTENDED_BOTCH_ENDS

    said = []
    if EXTENDED_BOTCH_ENDS:
        said.append("a botch ends the extended roll (rpgdice's reading: the rules do not say)")
    if r.willpower_spent:
        said.append(f"Willpower spent: {r.willpower_spent} (1 per roll)")
    return lines + notes(said)


def team(r: Any) -> list[Text]:
    (leader,) = r.rolls
    lines = [Text.assemble(("Seyruun team roll", "bold"),
                           f" · the leader's pool rolls · {plural(r.assists, 'assist')}: "
                           f"+{r.assist_dice} {'die' if r.assist_dice == 1 else 'dice'}")]
    lines += nested("Leader:", roll(leader))
    word, style = {"success": ("Team success", GOOD), "botch": ("Team botch", DIRE)}.get(
        r.outcome, ("Team failure", BAD))
    lines.append(Text.assemble((f"  {word}", style), f" — {_succ(r.total)}, {leader.required} needed"))
    said = []
    lost = r.assists - r.assist_dice
    if lost:
        said.append(f"external bonuses count at most +5: {plural(lost, 'assist')} added no die")
    return lines + notes(said)


# Odds ------------------------------------------------------------------------------------


def odds(o: Any) -> list[Text]:
    size = "chance die" if o.chance_die else plural(o.pool, "die", "dice")
    header = Text.assemble(
        ("Seyruun odds", "bold"),
        f" · {size} (pool {num(o.pool_total)})",
        f" · {_succ(o.required)} needed",
        " · with a Willpower re-roll of a failure or botch" if o.reroll else "",
    )
    out = [header, *outcome_chart("seyruun", o.outcomes)]
    table, hidden = count_chart(o.successes, o.at_least)
    out += table
    said = [hidden] if hidden else []
    if o.chance_die:
        said.append("chance die: the pool fell to 0 or less; a 10 succeeds, a 1 is a dramatic botch")
    if o.overflow:
        said.append(f"10 dice at most: overflow {o.overflow} for secondary effects")
    if o.reroll:
        said.append("the figures are of the roll that stands (a success is not re-rolled)")
    said.append(f"at least one 10 (critical): {percent(o.critical)}")
    if not o.chance_die:
        said.append(f"two or more 10s (heightened critical): {percent(o.multiple_critical)}")
    tiers = " · ".join(f"{TIERS[t]} ({MARGINS[t]}) {percent(p)}" for t, p in o.tiers.items())
    said.append(f"success by tier, the successes beyond the {o.required} needed: {tiers}")
    return out + notes(said)


VIEWS = {"roll": roll, "contest": contest, "extended": extended, "team": team, "odds": odds}
"""Each command's view, by the result's ``COMMAND``."""

ENDED = {"target": "reached the target", "botch": "ended by a botch", "limit": "ran out of rolls"}
SUMMARIES = {
    "contest": (lambda r: "attacker wins" if r.winner == "attacker" else "defender wins", "contests"),
    "extended": (lambda r: ENDED.get(r.ended_by, r.ended_by), "extended rolls"),
    "team": (lambda r: {"success": "successful", "botch": "botched"}.get(r.outcome, "failed"), "team rolls"),
}
"""How repeated roll types (``-n``) are summed up: a label per result and the noun."""

"""Seyruun: the roll view, the roll types' views (contest, extended, team) and the
odds view."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, Union

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
    NOTE,
    Chance,
    Line,
    View,
    chart,
    contest_figures,
    count_chart,
    dice_line,
    extended_figures,
    faces_text,
    notes,
    num,
    outcome_chart,
    percent,
    plural,
    spread_chart,
    step_chart,
    unit,
)
from rpgdice.rulesets import Views
from rpgdice.rulesets.seyruun import rules
from rpgdice.rulesets.seyruun.verdict import TIERS

if TYPE_CHECKING:
    from rpgdice.table.sheets import Sheet

Pool = Union[rules.SeyruunResult, rules.SeyruunOdds]
"""What a pool's build line is written from: a roll, or the odds of one."""


class Sized(Protocol):
    """What says a roll's size (``chance die``, ``5 dice``): a roll, its odds, a plain pool."""

    @property
    def chance_die(self) -> bool: ...
    @property
    def pool(self) -> int: ...

MARGINS = {"just": "margin 0", "solid": "margin 1–2", "heroic": "margin 3–4", "supernatural": "margin 5+"}
"""The successes beyond those required that make each tier (rules.TIERS)."""


def _succ(n: int) -> str:
    return plural(n, "success", "successes")


def _chips(r: rules.SeyruunResult) -> list[tuple[str, str]]:
    chips = []
    for d in r.dice:
        if d.face == 10:
            style, mark = (DOUBLE, " ✓✓") if not r.chance_die else (CRIT, " ✓")
        elif d.successes:
            style, mark = HIT, " ✓"
        elif d.face == 1:
            # A 1 matters only in a botch (0 successes and a 1): otherwise it is a miss.
            style, mark = (BOTCH_ONE if r.outcome == "botch" else MISS), " ✗"
        else:
            style, mark = MISS, " ✗"
        chips.append((f"{d.face}{mark}", style))
    return chips


def _verdict(r: rules.SeyruunResult) -> Text:
    if r.chance_die:
        face = r.dice[0].face
        if r.outcome == "success":
            return Text.assemble(("  Success", GOOD), f" ({TIERS[str(r.tier)]}) — the chance die's 10: "
                                 "a chance die succeeds on a 10 whatever the difficulty")
        if r.outcome == "botch":
            return Text.assemble(("  Botch", DIRE), " — a dramatic botch: the chance die shows 1")
        return Text.assemble(("  Failure", BAD), f" — the chance die shows {face}; only a 10 succeeds")
    if r.outcome == "success":
        margin = r.successes - r.required
        return Text.assemble(
            ("  Success", GOOD),
            f" ({TIERS[str(r.tier)]}) — {_succ(r.successes)}, {r.required} needed: margin {margin}",
        )
    if r.outcome == "botch":
        return Text.assemble(("  Botch", DIRE), " — no successes and a 1")
    return Text.assemble(("  Failure", BAD), f" — {_succ(r.successes)}, {r.required} needed")


def _built(r: Pool, parts: list[str]) -> str:
    """``parts`` (the pool's traits) then the bonus, Willpower and penalties, ``= total``."""
    if r.bonus:
        parts.append(f"+ bonus {r.bonus}")
    if r.willpower_dice:
        parts.append(f"+ Willpower {r.willpower_dice}")
    if r.penalty:
        parts.append(_penalties(r))
    return " ".join(parts) + f" = {num(r.pool_total)}"


def _penalties(r: Pool) -> str:
    """Each penalty: ``− wound light 1``, or ``− penalties 8 (wound severe −3, 3 actions −4,
    penalty −1)``; a result logged before the parts were kept shows the sum."""
    parts = list(r.penalties)
    if len(parts) == 1 and not parts[0].what[:1].isdigit():
        return f"− {parts[0].what} {parts[0].dice}"
    if len(parts) == 1:  # "2 actions": its sign and size beside its name, never "2 actions 2"
        return unit(f"− penalty {r.penalty}") + f" ({unit(f'{parts[0].what} −{parts[0].dice}')})"
    each = ", ".join(unit(f"{p.what} −{p.dice}") for p in parts)  # breaks only between them
    return unit(f"− penalties {r.penalty}") + (f" ({each})" if each else "")


def build(r: Pool) -> str:
    """How the pool was built: ``Attribute 3 + Skill 3 + bonus 1 − penalties 2 = 5``."""
    return _built(r, [f"Attribute {r.attribute}",
                      "untrained −1" if r.untrained else _second(r)])


def _second(r: Pool) -> str:
    """The second term: a Skill, or a second Attribute (``wits dexterity``; a 0 with
    no untrained −1 is one too: ``composure resolve`` with Resolve 0)."""
    if getattr(r, "attributes_only", False) or not r.skill:
        return f"+ Attribute {r.skill or 0}"
    return f"+ Skill {r.skill}"


def _size(r: Sized) -> str:
    """``chance die`` or ``5 dice``: what a roll (or its odds) throws."""
    return "chance die" if r.chance_die else plural(r.pool, "die", "dice")


def _header(title: str, r: Pool, *more: str) -> Text:
    """``Seyruun roll · 5 dice (Attribute 3 + Skill 2 = 5) · 1 success needed``, then ``more``."""
    return Text.assemble((title, "bold"), f" · {_size(r)} ({build(r)})",
                         f" · {unit(_succ(r.required) + ' needed')}", *more)


def roll(r: rules.SeyruunResult) -> list[Line]:
    header = _header("Seyruun roll", r)
    lines: list[Line] = [header]
    if r.rerolled is not None:
        first = r.rerolled
        lines.append(dice_line("first", [(c, MISS) for c, _ in _chips(first)]))
        lines.append(Text(f"  {first.outcome}: re-rolled for 1 Willpower; the re-roll stands", style=NOTE))
    lines.append(dice_line("dice", _chips(r)))
    lines.append(_verdict(r))
    return lines + notes(_roll_notes(r))


def _roll_notes(r: rules.SeyruunResult) -> list[str]:
    """What a roll's notes say: the cap, the overflow, the chance die, the 10s, Willpower."""
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
    return said


def part(label: str, r: rules.SeyruunResult) -> list[Text]:
    """A roll inside an exchange or a series (an attack's attack and defense, an extended
    roll's step, the team's leader): how it was built, its dice and the successes it adds,
    no verdict of its own (the exchange has the one verdict)."""
    head = Text.assemble(("  " + label, "bold"), f" · {_size(r)} ({build(r)})")
    got = f"→ {_succ(r.successes)}"
    if r.outcome == "botch":
        got += ", a botch"
    elif r.chance_die and r.successes:
        got += " (the chance die's 10)"
    lines = [head]
    if r.rerolled is not None:
        lines.append(Text.assemble("    ", ("first ", LABEL), *_joined([(c, MISS) for c, _ in _chips(r.rerolled)]),
                                   (f"  {r.rerolled.outcome}: re-rolled for 1 Willpower", NOTE)))
    lines.append(Text.assemble("    ", ("dice ", LABEL), *_joined(_chips(r)), "  ", (unit(got), "bold")))
    return lines + [Text.assemble("  ", line) for line in notes(_roll_notes(r))]


# Roll types ------------------------------------------------------------------------------


def contest(r: rules.SeyruunContestResult) -> list[Line]:
    lines: list[Line] = [Text.assemble(("Seyruun contest", "bold"), " · more successes wins")]
    lines += part("Attacker", r.attacker)  # each side its successes: one verdict, the winner
    lines += part("Defender", r.defender)
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


def extended(r: rules.SeyruunExtendedResult) -> list[Line]:
    lines: list[Line] = [Text.assemble(("Seyruun extended roll", "bold"),
                           f" · target {_succ(r.target)} · at most {plural(r.max_rolls, 'roll')}")]
    for k, (step, total) in enumerate(zip(r.rolls, r.running_totals), 1):
        lines += part(f"Roll {k}", step)
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
    from rpgdice.rulesets.seyruun.rules import EXTENDED_BOTCH_ENDS

    said = []
    if EXTENDED_BOTCH_ENDS:
        said.append("a botch ends the extended roll (rpgdice's reading: the rules do not say)")
    if r.willpower_spent:
        said.append(f"Willpower spent: {r.willpower_spent} (1 per roll)")
    until = getattr(r, "willpower_until", None)
    if r.willpower_spent and until is not None and until < len(r.rolls):
        said.append(f"Willpower ran out after roll {until}: rolls {until + 1} on went "
                    "without the +3 dice")
    return lines + notes(said)


def team(r: rules.SeyruunTeamResult) -> list[Line]:
    (leader,) = r.rolls
    lines: list[Line] = [Text.assemble(("Seyruun team roll", "bold"),
                           f" · the leader's pool rolls · {plural(r.assists, 'assist')}: "
                           f"+{r.assist_dice} {'die' if r.assist_dice == 1 else 'dice'}",
                           f" · {unit(_succ(leader.required) + ' needed')}")]
    lines += part("Leader", leader)
    word, style = {"success": ("Team success", GOOD), "botch": ("Team botch", DIRE)}.get(
        r.outcome, ("Team failure", BAD))
    lines.append(Text.assemble((f"  {word}", style), f" — {_succ(r.total)}, {leader.required} needed"))
    said = []
    lost = r.assists - r.assist_dice
    if lost:
        said.append(f"external bonuses count at most +5: {plural(lost, 'assist')} added no die")
    return lines + notes(said)


# Odds ------------------------------------------------------------------------------------


def odds(o: rules.SeyruunOdds) -> list[Line]:
    header = _header("Seyruun odds", o,
                     " · with a Willpower re-roll of a failure or botch" if o.reroll else "")
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


def _side(o: Pool) -> str:
    return f"{_size(o)} ({build(o)})"


def contest_odds(o: rules.SeyruunContestOdds) -> list[Line]:
    """A contest's odds: who wins, and by how many successes."""
    header = Text.assemble(("Seyruun contest odds", "bold"), f" · attacker {_side(o.attacker)}",
                           f" · defender {_side(o.defender)}")
    rows = [("Attacker wins", GOOD, [percent(o.winner["attacker"])], o.winner["attacker"], GOOD),
            ("Defender wins", BAD, [percent(o.winner["defender"])], o.winner["defender"], BAD)]
    out = [header, *chart(rows, "winner", "chance")]
    table, hidden = spread_chart(o.margin, "margin")
    out += table
    said = ["margin: the attacker's successes minus the defender's; a tie goes to the "
            "defender unless the attacker's base Attribute is higher"]
    return out + notes(said + ([hidden] if hidden else []))


def extended_odds(o: rules.SeyruunExtendedOdds) -> list[Line]:
    """An extended roll's odds: how it ends, and by which roll the target is reached."""
    header = Text.assemble(("Seyruun extended odds", "bold"), f" · {_side(o.roll)}",
                           f" · target {_succ(o.target)} · at most {plural(o.max_rolls, 'roll')}")
    out = [header, *outcome_chart("seyruun", o.outcomes)]
    out += step_chart(o.rolls_needed, o.within, "roll", "by then", "at this roll")
    said = [f"expected number of rolls: {float(o.expected_rolls):.2f}",
            "a botch ends the extended roll (rpgdice's reading: the rules do not say)"]
    paid = getattr(o, "willpower_rolls", None)
    if paid is not None:
        first = {0: "of no roll (the sheet has none)", 1: "of the first roll only"}.get(
            paid, f"of the first {paid} rolls only")
        said.insert(0, f"the sheet's Willpower pays the +3 dice {first}; the rolls after go "
                       "without")
    return out + notes(said)


def team_odds(o: rules.SeyruunTeamOdds) -> list[Line]:
    """A team roll's odds: the leader's pool with the assists' dice."""
    r = o.roll
    header = Text.assemble(("Seyruun team odds", "bold"), f" · {_side(r)}",
                           f" · {plural(o.assists, 'assist')}",
                           f" · {unit(_succ(r.required) + ' needed')}")
    out = [header, *outcome_chart("seyruun", o.outcomes)]
    table, hidden = count_chart(r.successes, r.at_least)
    return out + table + notes([hidden] if hidden else [])


# Combat: initiative and attack -----------------------------------------------------------


def _pool_build(r: rules.SeyruunResult, first: str, second: str) -> str:
    """``Wits 3 + Dexterity 4 + bonus 1 − penalties 2 = 6``: a combat pool's parts."""
    return _built(r, [f"{first} {r.attribute}", f"+ {second} {r.skill or 0}"])


def initiative(r: rules.SeyruunInitiativeResult) -> list[Line]:
    """The order to act in, as a table: rank (ties marked =), name, successes, the pool;
    each combatant's dice under its row."""
    n = len(r.order)
    lines: list[Line] = [Text.assemble(
        ("Seyruun initiative", "bold"),
        f" · {plural(n, 'combatant')} · Wits + Dexterity · most successes act first, a botch last")]
    ranks = [f"{e.rank}{'=' if e.tied else ''}" for e in r.order]
    results = ["botch" if e.botch else _succ(e.successes) for e in r.order]
    rank_w = max(len("rank"), *(len(x) for x in ranks))
    name_w = max(len("name"), *(len(e.name) for e in r.order))
    result_w = max(len("successes"), *(len(x) for x in results))
    lines.append(Text("  " + "  ".join(["rank".ljust(rank_w), "name".ljust(name_w),
                                        "successes".ljust(result_w), "pool"]), style=LABEL))
    for e, rank, result in zip(r.order, ranks, results):
        roll_ = e.roll
        style = DIRE if e.botch else (GOOD if e.rank == 1 else "")
        row = Text("  ")
        row.append(rank.ljust(rank_w), style="bold")
        row.append("  ")
        row.append(e.name.ljust(name_w), style="bold")
        row.append("  ")
        row.append(result.ljust(result_w), style=style)
        row.append(f"  {_size(roll_)} ({_pool_build(roll_, 'Wits', 'Dexterity')})")
        lines.append(row)
        lines.append(Text.assemble(" " * (4 + rank_w), ("dice ", LABEL), *_joined(_chips(roll_))))
    said = []
    groups: dict[int, list[rules.InitiativeEntry]] = {}
    for e in r.order:
        if e.tied:
            groups.setdefault(e.rank, []).append(e)
    for shared, tied in groups.items():
        names = ", ".join(e.name for e in tied[:-1]) + f" and {tied[-1].name}"
        what = "botched" if tied[0].botch else _succ(tied[0].successes).replace("\u00a0", " ")
        said.append(f"tied at rank {shared}: {names} ({what}, Wits + Dexterity {tied[0].base} each); "
                    "the Storyteller decides between them")
    for before, after in zip(r.order, r.order[1:]):
        if (before.botch, before.successes) == (after.botch, after.successes) and before.base != after.base:
            what = "both botched" if before.botch else f"{_succ(before.successes)} each"
            said.append(f"{before.name} before {after.name}: {what}, Wits + Dexterity "
                        f"{before.base} to {after.base}")
    if any((a.botch, a.successes) == (b.botch, b.successes) for a, b in zip(r.order, r.order[1:])):
        said.append("ties go to the higher Wits + Dexterity before bonuses and penalties; "
                    "no extra dice are rolled (rpgdice's reading: the rules give the pool, not the order)")
    for e in r.order:
        if e.roll.bonus_capped:
            said.append(f"{e.name}: external bonus capped at +5 ({e.roll.bonus_capped} lost)")
        if e.roll.overflow:
            said.append(f"{e.name}: 10 dice at most ({e.roll.overflow} over)")
    return lines + notes(said)


def _joined(chips: list[tuple[str, str]]) -> list[str | tuple[str, str]]:
    out: list[str | tuple[str, str]] = []
    for i, (chip, style) in enumerate(chips):
        if i:
            out.append("  ")
        out.append((unit(chip), style))
    return out


def _plain_roll(label: str, r: rules.SeyruunResult, built: str) -> list[Text]:
    """A damage or soak roll: its size and how it was built, its dice, its successes."""
    over = f", {r.overflow} over 10 unused" if r.overflow else ""
    head = Text.assemble(("  " + label, "bold"), f" · {_size(r)} ({built}{over})")
    dice = Text.assemble("    ", ("dice ", LABEL), *_joined(_chips_plain(r)), "  ",
                         (unit(f"→ {_succ(r.successes)}"), "bold"))
    return [head, dice]


def _chips_plain(r: rules.SeyruunResult) -> list[tuple[str, str]]:
    """Damage and soak dice: a success or not (a 1 there botches nothing)."""
    chips = []
    for d in r.dice:
        if d.face == 10:
            chips.append((f"{d.face} ✓✓", DOUBLE))
        elif d.successes:
            chips.append((f"{d.face} ✓", HIT))
        else:
            chips.append((f"{d.face} ✗", MISS))
    return chips


def attack(r: rules.SeyruunAttackResult) -> list[Line]:
    """The exchange as one story: the attack and the defense (their successes), the
    contest, the damage pool and how it was built, the soak, and one verdict: ``Hit — 5
    damage``, ``Miss`` or ``Botch``."""
    header = Text.assemble(("Seyruun attack", "bold"),
                           " · against no defense" if r.defense is None else " · attack against defense")
    lines: list[Line] = [header]
    # --vs: the target's line goes under the header (render/common.py show, from the envelope)
    lines += part("Attack", r.attack)
    if r.defense is not None:
        lines += part("Defense", r.defense)
    if r.hit and r.damage_pool is not None:
        lines.append(Text("  " + _contest_text(r), style=LABEL))
        lines += _attack_damage(r)
        lines.append(_attack_dealt(r))
    else:
        lines.append(_attack_verdict(r))
    said = []
    if r.damage_pool is None and r.hit:
        said.append("no --damage: the attack stops at the hit")
    if r.damage_pool is not None:
        said.append("damage pool = base + extra successes (net beyond the first) + the attack's "
                    "overflow past 10 dice (rpgdice's reading); damage and soak are plain sums")
    return lines + notes(said)


def _contest_text(r: rules.SeyruunAttackResult) -> str:
    """How the hit was won: ``4 successes to 1: net 3, extra successes 2``."""
    a = r.attack.successes
    d = r.defense.successes if r.defense is not None else None
    if d is None:
        how = f"{_succ(a)} against no defense"
    elif a == d:
        how = (f"on the tie at {_succ(a)}: the attack's base Attribute "
               f"({r.attack_attribute}) is higher than {r.defense_attribute}")
    else:
        how = f"{_succ(a)} to {d}"
    return f"{how}: net {num(r.net_successes)}, extra successes {r.extra_successes}"


def _attack_verdict(r: rules.SeyruunAttackResult) -> Text:
    """The verdict of an exchange that rolls no damage: botch, miss (and why) or hit."""
    a = r.attack.successes
    d = r.defense.successes if r.defense is not None else None
    if r.outcome == "botch":
        return Text.assemble(("  Botch", DIRE), " — the attack botched: no damage "
                             "(drop the weapon, harm an ally...)")
    if not r.hit:
        if a == 0:
            why = " — no attack success: an attack needs at least 1 to hit"
        elif d is not None and a == d:
            why = (f" — a tie at {_succ(a)} goes to the defender: the attack's base Attribute "
                   f"({r.attack_attribute}) is not higher than {r.defense_attribute}")
        else:
            why = f" — {_succ(d or 0)} of defense against {_succ(a)} of attack"
        return Text.assemble(("  Miss", BAD), why)
    return Text.assemble(("  Hit", GOOD), " — " + _contest_text(r))


def _attack_damage(r: rules.SeyruunAttackResult) -> list[Text]:
    """The damage pool, how it was built, and its roll and the soak's (if rolled)."""
    assert r.damage_base is not None and r.damage_pool is not None  # a hit with --damage
    built = [f"base {num(r.damage_base)}", f"+ extra successes {r.extra_successes}"]
    if r.overflow_to_damage:
        built.append(f"+ overflow {r.overflow_to_damage}")
    built_text = " ".join(built) + f" = {num(r.damage_pool)}"
    if r.damage is None:
        return [Text.assemble(("  Damage", "bold"), f" · pool {built_text}: "
                              "0 or less, so nothing is rolled")]
    lines = _plain_roll("Damage", r.damage, built_text)
    if r.soak is not None:
        assert r.soak_pool is not None
        lines += _plain_roll("Soak", r.soak, f"pool {num(r.soak_pool)}")
    return lines


def _attack_dealt(r: rules.SeyruunAttackResult) -> Text:
    """The verdict of a hit that rolls damage: ``Hit — 3 damage`` and how the soak took
    its part."""
    if r.damage is not None:
        soaked = r.soak.successes if r.soak is not None else 0
        if r.soak is not None:
            detail = (f" ({_succ(r.damage.successes)} of damage − {soaked} of soak"
                      f"{', never below 0' if soaked > r.damage.successes else ''})")
        elif r.soak_pool is not None:
            detail = f" (soak pool {num(r.soak_pool)}: nothing rolled)"
        else:
            detail = " (no soak)"
    else:
        detail = " (no damage roll)"
    return Text.assemble(("  Hit", GOOD), " — ", (f"{r.damage_dealt} damage", "bold"), detail)


def attack_odds(o: rules.SeyruunAttackOdds, r: rules.SeyruunAttackResult) -> list[Line]:
    """``attack --odds``: the chance to hit (and of this outcome), and the distribution
    of damage dealt."""
    named = {"success": ("hit", GOOD), "failure": ("miss", BAD), "botch": ("botch", DIRE)}
    word, style = named[r.outcome]
    others = ", ".join(f"{named[k][0]} {percent(p)}" for k, p in o.outcomes.items())
    out: list[Line] = [Text.assemble(("  odds ", LABEL), (percent(o.outcomes[r.outcome]), "bold"),
                                    " chance of ", (word, style), f" ({others})")]
    if o.damage_dealt is not None:
        at_least: dict[int, Chance] = {}
        running: Chance = 0
        for k in sorted(o.damage_dealt, reverse=True):
            running += o.damage_dealt[k]
            at_least[k] = running
        table, hidden = count_chart(o.damage_dealt, at_least, label="damage dealt")
        out += table
        said = [hidden] if hidden else []
        assert o.mean_damage is not None  # given with the damage dealt
        said.append(f"mean damage dealt {float(o.mean_damage):.2f}")
        out += notes(said)
    return out


AFTER: dict[type, Callable[..., Sequence[Line]]] = {rules.SeyruunAttackOdds: attack_odds}
"""``--odds`` lines of a command whose odds say more than its outcome's chance."""

VIEWS: dict[type, View] = {rules.SeyruunContestOdds: contest_odds, rules.SeyruunExtendedOdds: extended_odds,
         rules.SeyruunTeamOdds: team_odds,
         rules.SeyruunResult: roll, rules.SeyruunContestResult: contest, rules.SeyruunExtendedResult: extended, rules.SeyruunTeamResult: team, rules.SeyruunOdds: odds,
         rules.SeyruunInitiativeResult: initiative, rules.SeyruunAttackResult: attack}
"""Each command's view, by the result's ``COMMAND``."""

ENDED = {"target": "reached the target", "botch": "ended by a botch", "limit": "ran out of rolls"}
SUMMARIES = {
    rules.SeyruunContestResult: (lambda r: "attacker wins" if r.winner == "attacker" else "defender wins", "contests"),
    rules.SeyruunExtendedResult: (lambda r: ENDED.get(r.ended_by, r.ended_by), "extended rolls"),
    rules.SeyruunTeamResult: (lambda r: {"success": "successful", "botch": "botched"}.get(r.outcome, "failed"), "team rolls"),
    rules.SeyruunInitiativeResult: (lambda r: " and ".join(e.name for e in r.order if e.rank == 1) + " first",
                   "initiative rolls"),
    rules.SeyruunAttackResult: (lambda r: {"success": "hit", "botch": "botched"}.get(r.outcome, "missed"), "attacks"),
}
"""How repeated roll types (``-n``) are summed up: a label per result and the noun."""


def sheet_part(sheet: Sheet) -> Text:
    """``char show``: Willpower as dots and points of its maximum, and the wound."""
    from rpgdice.render.sheet import DOTS_UP_TO, dots

    top = sheet.willpower_max
    points = sheet.willpower
    line = Text.assemble(("\nWillpower ", "bold cyan"))
    if top is not None:
        line.append_text(dots(points, top) if top <= DOTS_UP_TO else Text(str(points)))
        line.append(f"  ({points} of {top})", style="dim")
    else:
        line.append(f"{points} points", style="bold")
        line.append("  (maximum: composure + resolve, when both are set)", style="dim")
    line.append("\nWound     ", style="bold cyan")
    wound = sheet.wound
    if wound is None:
        line.append("none", style="green")
    else:
        n = rules.WOUNDS[wound]
        line.append(f"{wound} (−{n} {'die' if n == 1 else 'dice'})", style="bold red")
    damage, health = sheet.get("damage", 0), sheet.maximum("damage")
    if damage or sheet.spelling("health") is not None:
        line.append("\nDamage    ", style="bold cyan")
        line.append(f"{damage} of {health} health", style="bold red" if damage else "green")
    return line



def _roll_figures(r: Loaded) -> str:
    text = f"{faces_text(r.get('dice') or []) or 'no dice'} → {r.get('successes')} succ."
    if r.get("rerolled"):
        text = f"{faces_text(r['rerolled'].get('dice') or [])}, re-rolled: " + text
    return text


def _succ_of(r: Loaded | None) -> object:
    return (r or {}).get("successes")


def _attack_figures(r: Loaded) -> str:
    """``5 damage`` (a hit that rolled damage), else the successes of each side."""
    if r.get("hit") and r.get("damage_dealt") is not None:
        return f"{r['damage_dealt']} damage"
    if r.get("defense") is None:
        return f"{_succ_of(r.get('attack'))} succ."
    return f"{_succ_of(r.get('attack'))} vs {_succ_of(r.get('defense'))} succ."


def _initiative_figures(r: Loaded) -> str:
    """The order to act in: ``1 Ysolde, 2 Ghoul, 3= Bandit, 3= Thug``."""
    order = r.get("order") or []
    ranks = [e.get("rank") for e in order]
    return ", ".join(f"{e.get('rank')}{'=' if ranks.count(e.get('rank')) > 1 else ''} {e.get('name')}"
                     for e in order)


FIGURES = {"roll": _roll_figures, "contest": lambda r: contest_figures(r, "successes"),
           "extended": extended_figures, "attack": _attack_figures,
           "initiative": _initiative_figures}
"""The roll log's few words on a stored result, by command."""

TABLE = Views(VIEWS, figures=FIGURES, sheet_part=sheet_part, summaries=SUMMARIES, after=AFTER)
"""What the ruleset's record hands out (:attr:`rpgdice.rulesets.Ruleset.views`)."""

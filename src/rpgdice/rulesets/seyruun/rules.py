"""Seyruun (seed 001): a World of Darkness style d10 pool with botches, the chance
die, Willpower and a ten-die cap."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar, Protocol

from rpgdice.core import rolltypes
from rpgdice.core.data import Loaded
from rpgdice.core.dice import DiceSource, check_pool, d10_successes
from rpgdice.core.errors import RulesError, at_least
from rpgdice.core.record import Tagged, record
from rpgdice.core.sequence import DEFAULT_MAX_ROLLS, check_limit

if TYPE_CHECKING:
    from fractions import Fraction

SUCCESS_AT = 6
"""A die showing 6 or more is a success; a 10 counts twice."""
MAX_DICE = 10
"""Pool size caps at 10; the rest is overflow for secondary effects."""
BONUS_CAP = 5
"""No action gains more than +5 dice from external bonuses."""
WILLPOWER_DICE = 3
UNTRAINED_PENALTY = 1
MULTI_ACTION_PENALTY = 2
"""(decision) −2 dice for each action beyond the first; the text says "−2 per action"."""

WOUNDS = {"light": 1, "moderate": 2, "severe": 3, "crippled": 5}
HEALTH = 7
"""Health boxes a character has unless its sheet says otherwise (RULES.md, "Damage and wounds")."""


def wound_for(damage: int, health: int = HEALTH) -> str:
    """The wound level of ``damage`` boxes filled of ``health`` (RULES.md, "Damage and
    wounds"): thresholds ``ceil(health * k / 7)`` for k = 1, 3, 5, 7 (health 7: light 1,
    moderate 3, severe 5, crippled 7)."""
    if damage <= 0:
        return "none"
    levels = ("none", *WOUNDS)
    reached = sum(1 for k in (1, 3, 5, 7) if damage >= -(-health * k // 7))
    return levels[reached]
DIFFICULTIES = {"simple": 1, "moderate": 2, "complex": 3, "epic": 4, "legendary": 5}
"""Required successes. (decision) The text's one row "Epic / Legendary: 4 to 5" is split."""

TIERS = ((5, "supernatural"), (3, "heroic"), (1, "solid"), (0, "just"))
"""Margin of success tier by the margin (successes − required) of a successful roll,
highest first. (decision, revised) The text's table (1, 2+, 4+, 6+ successes) is read
as a margin: 0 just enough, 1–2 solid, 3–4 heroic, 5+ supernatural brilliance."""
CHANCE_DIE_TIER = "just"
"""A chance die's success (a 10) is just enough, whatever the difficulty."""


def tier_for(margin: int) -> str | None:
    """The tier of a success by ``margin`` successes beyond those required (None below 0)."""
    for least, name in TIERS:
        if margin >= least:
            return name
    return None


@record
class SeyruunPenalty:
    """One penalty a pool took, as the view names it: ``wound severe`` 3, ``3 actions`` 4,
    ``penalty`` 1 (each ``--penalty``)."""

    what: str
    dice: int


@record
class SeyruunPool:
    """How a pool is built (RULES.md, steps 1–5)."""

    attribute: int
    skill: int | None = None
    bonuses: tuple[int, ...] = ()
    penalties: tuple[int, ...] = ()
    wound: str | None = None
    actions: int = 1
    willpower: bool = False
    required: int = 1
    attributes_only: bool = False
    """Both terms are Attributes (initiative's Wits + Dexterity): no untrained −1."""

    def __post_init__(self) -> None:
        at_least("ATTRIBUTE", self.attribute, 0, f"{self.attribute} is negative")
        if self.skill is not None and self.skill < 0:
            raise RulesError("SKILL", f"{self.skill} is negative")
        if any(b < 0 for b in self.bonuses):
            raise RulesError("--bonus", "a bonus is 0 or more dice")
        if any(p < 0 for p in self.penalties):
            raise RulesError("--penalty", "a penalty is given as 0 or more dice to remove")
        if self.wound is not None and self.wound not in WOUNDS:
            raise RulesError("--wound", f"'{self.wound}' is not one of {', '.join(WOUNDS)}")
        at_least("--actions", self.actions, 1, f"{self.actions} is below 1")
        at_least("--difficulty", self.required, 1, f"{self.required} is below 1")
        check_pool(self.total, "ATTRIBUTE")

    @property
    def untrained(self) -> bool:
        return not self.attributes_only and not self.skill

    @property
    def base(self) -> int:
        if self.untrained:
            return self.attribute - UNTRAINED_PENALTY
        return self.attribute + (self.skill or 0)

    @property
    def bonus_given(self) -> int:
        return sum(self.bonuses)

    @property
    def bonus(self) -> int:
        return min(self.bonus_given, BONUS_CAP)

    @property
    def bonus_capped(self) -> int:
        """External bonus dice lost to the +5 cap."""
        return self.bonus_given - self.bonus

    @property
    def penalty(self) -> int:
        wound = WOUNDS[self.wound] if self.wound else 0
        return wound + sum(self.penalties) + MULTI_ACTION_PENALTY * (self.actions - 1)

    @property
    def penalty_parts(self) -> tuple[SeyruunPenalty, ...]:
        """Each penalty of :attr:`penalty`: the wound, the actions beyond the first, then
        each other penalty as given."""
        parts = []
        if self.wound:
            parts.append(SeyruunPenalty(f"wound {self.wound}", WOUNDS[self.wound]))
        if self.actions > 1:
            parts.append(SeyruunPenalty(f"{self.actions} actions",
                                        MULTI_ACTION_PENALTY * (self.actions - 1)))
        parts += [SeyruunPenalty("penalty", p) for p in self.penalties if p]
        return tuple(parts)

    @property
    def total(self) -> int:
        """The pool before the ten-die cap and the chance die."""
        return self.base + self.bonus + self.willpower_dice - self.penalty

    @property
    def willpower_dice(self) -> int:
        """+3 dice for 1 Willpower: not an external bonus, so not capped."""
        return WILLPOWER_DICE if self.willpower else 0

    @property
    def willpower_cost(self) -> int:
        """Willpower a roll of this pool spends before any re-roll: 1 for the +3 dice."""
        return 1 if self.willpower else 0

    @property
    def chance_die(self) -> bool:
        """(decision) Any result of 0 or less rolls one chance die."""
        return self.total <= 0

    @property
    def dice(self) -> int:
        return 1 if self.chance_die else min(self.total, MAX_DICE)

    @property
    def overflow(self) -> int:
        return max(0, self.total - MAX_DICE)


@record
class SeyruunDie:
    face: int
    successes: int


@record
class SeyruunResult(Tagged, ruleset="seyruun", command="roll"):
    outcome: str
    pool: int
    chance_die: bool
    overflow: int
    required: int
    dice: list[SeyruunDie]
    successes: int
    tens: int
    ones: int
    tier: str | None
    willpower_spent: int
    multiple_critical: bool
    pool_total: int
    untrained: bool
    bonus_capped: int
    penalty: int
    attribute: int
    skill: int | None
    bonus: int
    """External bonus dice counted (after the +5 cap)."""
    willpower_dice: int
    rerolled: SeyruunResult | None = None
    penalties: tuple[SeyruunPenalty, ...] = ()
    """Each penalty of ``penalty`` (the wound, the actions, each other penalty)."""
    attributes_only: bool = False
    """The second term is an Attribute too (``wits dexterity``): no untrained −1."""


@record
class RolledPool:
    """The pool a logged roll was rolled with, as its result records it (everything
    :func:`evaluate` reads): a Willpower re-roll after the fact rolls it again from the
    roll log's data, whatever the character's sheet says now."""

    dice: int
    chance_die: bool
    overflow: int
    required: int
    total: int
    untrained: bool
    bonus_capped: int
    penalty: int
    attribute: int
    skill: int | None
    bonus: int
    willpower_dice: int
    penalty_parts: tuple[SeyruunPenalty, ...] = ()
    attributes_only: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.dice <= MAX_DICE:
            raise RulesError("ID", f"a pool of {self.dice} dice is not one a roll rolls")

    @classmethod
    def of(cls, result: SeyruunResult) -> RolledPool:
        return cls(dice=result.pool, chance_die=result.chance_die, overflow=result.overflow,
                   required=result.required, total=result.pool_total, untrained=result.untrained,
                   bonus_capped=result.bonus_capped, penalty=result.penalty,
                   attribute=result.attribute, skill=result.skill, bonus=result.bonus,
                   willpower_dice=result.willpower_dice, penalty_parts=result.penalties,
                   attributes_only=result.attributes_only)


def evaluate(pool: SeyruunPool | PlainPool | RolledPool, faces: list[int],
             willpower_spent: int = 0) -> SeyruunResult:
    """Score one roll of ``pool`` (a damage or soak pool too) whose dice showed ``faces``."""
    if len(faces) != pool.dice:
        raise RulesError("--dice", f"{len(faces)} faces for a pool of {pool.dice}")
    tens = faces.count(10)
    ones = faces.count(1)
    if pool.chance_die:
        # Chance die: a 10 is one success whatever the difficulty, a 1 a dramatic botch.
        dice = [SeyruunDie(face=f, successes=1 if f == 10 else 0) for f in faces]
        successes = dice[0].successes
        outcome = "success" if successes else ("botch" if ones else "failure")
        tier = CHANCE_DIE_TIER if successes else None
        multiple = False
    else:
        dice = [SeyruunDie(face=f, successes=d10_successes(f, f, SUCCESS_AT)) for f in faces]
        successes = sum(d.successes for d in dice)
        if successes >= pool.required:
            outcome = "success"
        elif successes == 0 and ones:
            outcome = "botch"
        else:
            outcome = "failure"
        tier = tier_for(successes - pool.required) if outcome == "success" else None
        multiple = tens >= 2
    return SeyruunResult(
        outcome=outcome,
        dice=dice,
        successes=successes,
        tens=tens,
        ones=ones,
        tier=tier,
        willpower_spent=willpower_spent,
        multiple_critical=multiple,
        bonus_capped=pool.bonus_capped,
        **pool_fields(pool),
    )


def pool_fields(pool: SeyruunPool | PlainPool | RolledPool) -> Loaded:
    """How ``pool`` was built, as a roll of it (:class:`SeyruunResult`) and its odds
    (:class:`SeyruunOdds`) show it: their fields of these names."""
    return {"pool": pool.dice, "chance_die": pool.chance_die, "overflow": pool.overflow,
            "required": pool.required, "pool_total": pool.total, "untrained": pool.untrained,
            "penalty": pool.penalty, "attribute": pool.attribute, "skill": pool.skill,
            "bonus": pool.bonus, "willpower_dice": pool.willpower_dice,
            "penalties": pool.penalty_parts,
            "attributes_only": getattr(pool, "attributes_only", False)}


def roll(pool: SeyruunPool, source: DiceSource, reroll: bool = False) -> SeyruunResult:
    """Roll ``pool``; with ``reroll``, a failed or botched roll is rolled again once
    for 1 Willpower and the re-roll stands (the first is kept under ``rerolled``)."""
    spent = pool.willpower_cost
    first = evaluate(pool, source.roll(10, pool.dice), spent)
    if not reroll or first.outcome == "success":
        return first
    second = evaluate(pool, source.roll(10, pool.dice), spent + 1)
    return replace(second, rerolled=first)


# Roll types: contested / resisted, extended, team ---------------------------------

EXTENDED_BOTCH_ENDS = True
"""(decision) A botch ends an extended roll; the text does not say what it does there."""
TEAM_ASSIST_DICE = 1
"""Every assisting member adds +1 die, an external bonus (inside the +5 cap)."""


def contest_winner(attacker: Scored, defender: Scored,
                   attacker_attribute: int, defender_attribute: int) -> str:
    """More successes wins; a tie goes to the defender (the resisting side) unless the
    attacker has the higher base Attribute."""
    tie = "attacker" if attacker_attribute > defender_attribute else "defender"
    return rolltypes.contest_winner(attacker.successes, defender.successes, tie)


class Scored(Protocol):
    """What a contest reads of each side's roll: its successes."""

    @property
    def successes(self) -> int: ...


@record
class SeyruunContest:
    """A contested or resisted roll: both sides build their pools by every pool rule."""

    attacker: SeyruunPool
    defender: SeyruunPool


@record
class SeyruunContestResult(rolltypes.ContestResult[SeyruunResult],
                           ruleset="seyruun", command="contest"):
    """A contest: ``margin`` is the attacker's successes minus the defender's; the base
    Attributes break a tie."""

    attacker_attribute: int
    defender_attribute: int


def evaluate_contest(spec: SeyruunContest, attacker_faces: list[int],
                     defender_faces: list[int]) -> SeyruunContestResult:
    att = evaluate(spec.attacker, attacker_faces, spec.attacker.willpower_cost)
    dfn = evaluate(spec.defender, defender_faces, spec.defender.willpower_cost)
    a_attr, d_attr = spec.attacker.attribute, spec.defender.attribute
    return rolltypes.contest(SeyruunContestResult, att, dfn, (att.successes, dfn.successes),
                             contest_winner(att, dfn, a_attr, d_attr),
                             attacker_attribute=a_attr, defender_attribute=d_attr)


def roll_contest(spec: SeyruunContest, source: DiceSource) -> SeyruunContestResult:
    """The attacker rolls first, then the defender (the order ``--dice`` faces are used)."""
    att = source.roll(10, spec.attacker.dice)
    dfn = source.roll(10, spec.defender.dice)
    return evaluate_contest(spec, att, dfn)


@record
class SeyruunExtended:
    """Roll the same pool again and again, adding successes, until ``target`` is
    reached, ``max_rolls`` rolls are used up, or a botch ends it."""

    pool: SeyruunPool
    target: int
    max_rolls: int = DEFAULT_MAX_ROLLS
    willpower_budget: int | None = None
    """The Willpower a character has for ``--willpower``: paid roll by roll, the first
    that many rolls have the +3 dice, the rest go without (None: every roll has them)."""

    def __post_init__(self) -> None:
        at_least("--target", self.target, 1, f"{self.target} is below 1")
        check_limit("--max-rolls", self.max_rolls)


@record
class SeyruunExtendedResult(rolltypes.ExtendedResult, ruleset="seyruun", command="extended"):
    rolls: list[SeyruunResult]
    running_totals: list[int]
    max_rolls: int
    ended_by: str
    """``target`` | ``botch`` | ``limit``."""
    willpower_spent: int
    willpower_until: int | None = None
    """The last roll (from 1) that had ``--willpower``'s +3 dice; None when none had."""


def roll_extended(spec: SeyruunExtended, source: DiceSource) -> SeyruunExtendedResult:
    """Roll the pool again and again, adding successes, until the target, the roll
    limit, or (EXTENDED_BOTCH_ENDS) a botch. ``--willpower`` is paid roll by roll while
    the budget lasts (``willpower_budget``); the rolls after it go without the +3 dice."""
    spent = spec.pool.willpower_cost
    budget = spec.willpower_budget
    plain = replace(spec.pool, willpower=False)
    made = [0]

    def once() -> SeyruunResult:
        made[0] += 1
        pool = spec.pool if budget is None or made[0] <= budget else plain
        return evaluate(pool, source.roll(10, pool.dice), pool.willpower_cost)

    run = rolltypes.extended(
        once,
        gain=lambda r: r.successes,
        ends=lambda r: EXTENDED_BOTCH_ENDS and r.outcome == "botch",
        end="botch", start=0, target=spec.target, max_rolls=spec.max_rolls,
    )
    return rolltypes.extended_result(
        SeyruunExtendedResult, run, target=spec.target, max_rolls=spec.max_rolls,
        willpower_spent=sum(r.willpower_spent for r in run.rolls),
        willpower_until=_until(run.rolls) if spent else None)


def _until(rolls: list[SeyruunResult]) -> int | None:
    """The last roll (from 1) that spent Willpower, or None."""
    return max((i for i, r in enumerate(rolls, 1) if r.willpower_spent), default=None)


def team_pool(leader: SeyruunPool, assists: int) -> SeyruunPool:
    """The leader's pool (the highest pool rolls) with +1 external die per assist."""
    if assists < 1:
        raise RulesError("--assists", f"{assists} is below 1 (a team has at least one helper)")
    return replace(leader, bonuses=leader.bonuses + (TEAM_ASSIST_DICE,) * assists)


@record
class SeyruunTeam:
    leader: SeyruunPool
    assists: int
    reroll: bool = False

    def __post_init__(self) -> None:
        team_pool(self.leader, self.assists)  # validates


@record
class SeyruunTeamResult(rolltypes.TeamResult, ruleset="seyruun", command="team"):
    """``total``: the leader's successes."""

    rolls: list[SeyruunResult]
    assists: int
    assist_dice: int
    """Dice the assists add after the +5 cap on external bonuses."""
    bonus_capped: int


def roll_team(spec: SeyruunTeam, source: DiceSource) -> SeyruunTeamResult:
    pool = team_pool(spec.leader, spec.assists)
    r = roll(pool, source, reroll=spec.reroll)
    return SeyruunTeamResult(
        outcome=r.outcome,
        total=r.successes,
        rolls=[r],
        assists=spec.assists,
        assist_dice=pool.bonus - spec.leader.bonus,
        bonus_capped=pool.bonus_capped,
    )


# Combat: initiative, attack against defense, damage against soak (RULES.md "Combat") ------

MAX_COMBATANTS = 100
"""An initiative roll takes at most this many combatants (bounded work)."""


@record
class Combatant:
    """One combatant's initiative: Wits + Dexterity (both Attributes, so no untrained
    −1), bonuses inside the +5 cap (Combat Reflexes...), penalties and the wound."""

    name: str
    wits: int
    dexterity: int
    bonuses: tuple[int, ...] = ()
    penalties: tuple[int, ...] = ()
    wound: str | None = None

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise RulesError("COMBATANT", "a combatant needs a name (NAME=WITS+DEXTERITY)")
        try:
            _ = self.pool  # builds the pool: its own checks run
        except RulesError as e:
            raise RulesError("COMBATANT", f"{self.name}: {e.message}") from None

    @property
    def pool(self) -> SeyruunPool:
        return SeyruunPool(attribute=self.wits, skill=self.dexterity, bonuses=self.bonuses,
                           penalties=self.penalties, wound=self.wound, attributes_only=True)

    @property
    def base(self) -> int:
        """Wits + Dexterity before bonuses and penalties: it breaks ties."""
        return self.wits + self.dexterity


@record
class SeyruunInitiative:
    combatants: tuple[Combatant, ...]

    def __post_init__(self) -> None:
        from rpgdice.core.names import fold

        if not self.combatants:
            raise RulesError("COMBATANT", "initiative needs at least one combatant")
        if len(self.combatants) > MAX_COMBATANTS:
            raise RulesError("COMBATANT", f"{len(self.combatants)} combatants is more than "
                             f"{MAX_COMBATANTS}")
        seen: set[str] = set()
        for c in self.combatants:
            key = fold(c.name)
            if key in seen:
                raise RulesError("COMBATANT", f"'{c.name}' is named twice")
            seen.add(key)

    @property
    def most_dice(self) -> int:
        """Dice one roll of the initiative rolls (for a work budget)."""
        return sum(c.pool.dice for c in self.combatants)

    @property
    def most_rolls(self) -> int:
        return len(self.combatants)


@record
class InitiativeEntry:
    name: str
    rank: int
    """Like a competition: tied combatants share a rank, and the next rank skips (1, 1, 3)."""
    successes: int
    botch: bool
    roll: SeyruunResult
    base: int
    """Wits + Dexterity before modifiers (the tie-break)."""
    tied: bool
    """Shares its rank with another combatant: the Storyteller decides between them."""
    named: int
    """Position (from 1) in the order the combatants were named (and their dice given)."""


@record
class SeyruunInitiativeResult(Tagged, ruleset="seyruun", command="initiative"):
    outcome: None
    order: list[InitiativeEntry]
    """First to act first."""
    rolls: list[SeyruunResult]
    """In the order the combatants were named (the order of the dice)."""


def initiative_key(combatant: Combatant, result: SeyruunResult) -> tuple[bool, int, int]:
    """Sort key, first to act first: every non-botch before every botch, then most
    successes, then the higher Wits + Dexterity before modifiers (decision). Equal keys
    share a rank; no extra dice are rolled for ties."""
    return (result.outcome == "botch", -result.successes, -combatant.base)


def initiative_order(combatants: tuple[Combatant, ...] | list[Combatant],
                     results: list[SeyruunResult]) -> list[InitiativeEntry]:
    keys = [initiative_key(c, r) for c, r in zip(combatants, results)]
    order = sorted(range(len(keys)), key=lambda i: keys[i])  # stable: ties keep named order
    counts: dict[tuple[bool, int, int], int] = {}
    for k in keys:
        counts[k] = counts.get(k, 0) + 1
    entries: list[InitiativeEntry] = []
    rank = 0
    for place, i in enumerate(order, 1):
        if place == 1 or keys[i] != keys[order[place - 2]]:
            rank = place
        c, r = combatants[i], results[i]
        entries.append(InitiativeEntry(name=c.name, rank=rank, successes=r.successes,
                                       botch=r.outcome == "botch", roll=r, base=c.base,
                                       tied=counts[keys[i]] > 1, named=i + 1))
    return entries


def roll_initiative(spec: SeyruunInitiative, source: DiceSource) -> SeyruunInitiativeResult:
    """Each combatant rolls in the order named (the order ``--dice`` faces are used)."""
    results = []
    for c in spec.combatants:
        pool = c.pool
        results.append(evaluate(pool, source.roll(10, pool.dice)))
    return SeyruunInitiativeResult(outcome=None, order=initiative_order(spec.combatants, results),
                                   rolls=results)


@record
class PlainPool:
    """A damage or soak pool: a plain sum of its terms (no untrained −1, no +5 cap, no
    wound; extra successes and overflow are not external bonuses), rolled with the
    ten-die cap, the rest overflow (shown, not used again). Scored by :func:`evaluate`
    like any pool. Only a pool of 1 or more is rolled: no chance die for damage or soak."""

    total: int
    required: int = 1

    def __post_init__(self) -> None:
        if self.total < 1:
            raise RulesError(None, "a damage or soak pool of 0 or less rolls nothing")

    chance_die: ClassVar[bool] = False
    untrained: ClassVar[bool] = False
    bonus_capped: ClassVar[int] = 0
    penalty: ClassVar[int] = 0
    skill: ClassVar[None] = None
    bonus: ClassVar[int] = 0
    willpower_dice: ClassVar[int] = 0
    willpower_cost: ClassVar[int] = 0
    penalty_parts: ClassVar[tuple[SeyruunPenalty, ...]] = ()

    @property
    def attribute(self) -> int:
        return self.total

    @property
    def dice(self) -> int:
        return min(self.total, MAX_DICE)

    @property
    def overflow(self) -> int:
        return max(0, self.total - MAX_DICE)


def plain_pool(total: int | None) -> PlainPool | None:
    """The pool to roll for a damage or soak total; None (nothing rolled) at 0 or less
    (decision: no chance die for damage) or when there is no such pool."""
    return PlainPool(total) if total is not None and total > 0 else None


@record
class SeyruunAttack:
    """An attack: the attack pool against an optional defense pool (a contest, both
    rolled at once), then on a hit the damage pool and the target's soak."""

    attack: SeyruunPool
    defense: SeyruunPool | None = None
    damage: tuple[int, ...] | None = None
    """Base damage terms (weapon base, Strength, a power's effect...), signed, summed."""
    soak: tuple[int, ...] | None = None
    """Soak terms (Constitution, Endurance, Armor), signed, summed."""

    def __post_init__(self) -> None:
        if self.soak is not None and self.damage is None:
            raise RulesError("--soak", "needs --damage (soak is rolled only against a damage roll)")
        if self.damage is not None:
            check_pool(self.damage_base or 0, "--damage")
        if self.soak is not None:
            check_pool(self.soak_total or 0, "--soak")

    @property
    def most_dice(self) -> int:
        """The most dice one attack can roll: attack, defense, then damage and soak at the
        ten-die cap (for a work budget)."""
        dice = self.attack.dice + (self.defense.dice if self.defense is not None else 0)
        if self.damage is not None:
            dice += MAX_DICE + (MAX_DICE if (self.soak_total or 0) > 0 else 0)
        return dice

    @property
    def most_rolls(self) -> int:
        return 1 + (self.defense is not None) + 2 * (self.damage is not None)

    @property
    def damage_base(self) -> int | None:
        return None if self.damage is None else sum(self.damage)

    @property
    def soak_total(self) -> int | None:
        return None if self.soak is None else sum(self.soak)


def attack_hit(spec: SeyruunAttack, attack: SeyruunResult,
               defense: SeyruunResult | None) -> tuple[bool, int, int]:
    """``(hit, net_successes, extra_successes)``. An attack needs at least 1 success to
    hit, whatever the defense rolled; then it hits when it wins the contest (the
    contest's tie rule), and with no defense any success hits. Net successes = attack
    minus defense successes (no defense: 0); extra successes = net beyond the first,
    never below 0, and 0 on a miss."""
    against = defense.successes if defense is not None else 0
    net = attack.successes - against
    if attack.successes < 1:
        hit = False
    elif defense is None or spec.defense is None:
        hit = True
    else:
        hit = contest_winner(attack, defense, spec.attack.attribute, spec.defense.attribute) == "attacker"
    return hit, net, max(0, net - 1) if hit else 0


def attack_outcome(attack: SeyruunResult, hit: bool) -> str:
    """``success`` (a hit), ``botch`` (the attack botched: no damage) or ``failure``."""
    if attack.outcome == "botch":
        return "botch"
    return "success" if hit else "failure"


def damage_pool_of(spec: SeyruunAttack, attack: SeyruunResult, hit: bool, extra: int) -> int | None:
    """Damage pool = base + the attack's extra successes + the attack pool's overflow
    (decision: the text names both as sources of stronger damage without a formula);
    None on a miss or without damage."""
    if not hit or spec.damage_base is None:
        return None
    return spec.damage_base + extra + attack.overflow


def damage_dealt(damage: SeyruunResult | None, soak: SeyruunResult | None) -> int:
    """Damage successes minus soak successes, never below 0."""
    if damage is None:
        return 0
    return max(0, damage.successes - (soak.successes if soak is not None else 0))


@record
class SeyruunAttackResult(Tagged, ruleset="seyruun", command="attack"):
    outcome: str
    attack: SeyruunResult
    defense: SeyruunResult | None
    hit: bool
    net_successes: int
    extra_successes: int
    damage_pool: int | None
    """Dice before the ten-die cap: base + extra successes + overflow (null on a miss or
    without damage)."""
    damage: SeyruunResult | None
    soak: SeyruunResult | None
    damage_dealt: int | None
    """Null without damage; 0 on a miss."""
    rolls: list[SeyruunResult]
    damage_base: int | None
    overflow_to_damage: int
    """The attack pool's overflow that went into the damage pool (0 unless it did)."""
    soak_pool: int | None
    tie: bool
    """The contest was tied (the attack's base Attribute decided)."""
    attack_attribute: int
    defense_attribute: int | None


def roll_attack(spec: SeyruunAttack, source: DiceSource) -> SeyruunAttackResult:
    """Dice in order: attack, defense (both roll at once, so a declared defense always
    rolls), damage, soak. A roll that does not happen takes no faces."""
    att = evaluate(spec.attack, source.roll(10, spec.attack.dice), spec.attack.willpower_cost)
    dfn = None
    if spec.defense is not None:
        dfn = evaluate(spec.defense, source.roll(10, spec.defense.dice), spec.defense.willpower_cost)
    hit, net, extra = attack_hit(spec, att, dfn)
    pool = damage_pool_of(spec, att, hit, extra)
    damage = soak = None
    to_roll = plain_pool(pool)
    if to_roll is not None:
        damage = evaluate(to_roll, source.roll(10, to_roll.dice))
        soak_roll = plain_pool(spec.soak_total)
        if soak_roll is not None:
            soak = evaluate(soak_roll, source.roll(10, soak_roll.dice))
    rolls = [r for r in (att, dfn, damage, soak) if r is not None]
    return SeyruunAttackResult(
        outcome=attack_outcome(att, hit),
        attack=att,
        defense=dfn,
        hit=hit,
        net_successes=net,
        extra_successes=extra,
        damage_pool=pool,
        damage=damage,
        soak=soak,
        damage_dealt=None if spec.damage is None else damage_dealt(damage, soak),
        rolls=rolls,
        damage_base=spec.damage_base,
        overflow_to_damage=att.overflow if pool is not None else 0,
        soak_pool=spec.soak_total,
        tie=dfn is not None and att.successes == dfn.successes,
        attack_attribute=spec.attack.attribute,
        defense_attribute=spec.defense.attribute if spec.defense is not None else None,
    )


# Odds: the records of an odds command's answer (odds.py computes them) ------------


@record
class SeyruunOdds(rolltypes.SuccessOdds, ruleset="seyruun", command="odds"):
    """A pool's odds (``critical``: at least one 10 in the roll that stands)."""

    multiple_critical: Fraction
    """Two or more 10s: the heightened critical effects."""
    tiers: dict[str, Fraction]
    """Margin of success tiers (the success chance split by tier)."""
    pool: int
    chance_die: bool
    overflow: int
    required: int
    pool_total: int
    reroll: bool
    attribute: int = 0
    """How the pool was built, as a roll of it shows it (the header's build)."""
    skill: int | None = None
    untrained: bool = False
    bonus: int = 0
    willpower_dice: int = 0
    penalty: int = 0
    penalties: tuple[SeyruunPenalty, ...] = ()
    attributes_only: bool = False


@record
class SeyruunContestOdds(rolltypes.ContestOdds[SeyruunOdds], ruleset="seyruun", command="odds"):
    """A contest's exact odds: ``margin`` each difference of successes."""


@record
class SeyruunExtendedOdds(rolltypes.ExtendedOdds, ruleset="seyruun", command="odds"):
    """An extended roll's exact odds, from no successes."""

    max_rolls: int
    roll: SeyruunOdds
    """One roll of the pool."""
    type: str = "extended"
    willpower_rolls: int | None = None
    """With ``--willpower`` for a character: the rolls its Willpower pays for (the first
    that many have the +3 dice, the rest go without); None when every roll has them."""


@record
class SeyruunTeamOdds(rolltypes.TeamOdds, ruleset="seyruun", command="odds"):
    """A team roll's exact odds: the leader's pool with the assists' dice (``total``: each
    count of successes)."""

    roll: SeyruunOdds
    assists: int
    type: str = "team"


@record
class SeyruunAttackOdds(Tagged, ruleset="seyruun", command="attack-odds"):
    hit: Fraction
    outcomes: dict[str, Fraction]
    """``success`` (a hit), ``failure``, ``botch`` (the attack botched)."""
    damage_dealt: dict[int, Fraction] | None
    """Each amount of damage dealt (0 included: a miss, or soaked) to its probability;
    None without a damage pool."""
    mean_damage: Fraction | None

    def json_key(self, result: SeyruunAttackResult) -> Loaded:
        """``--odds --json``: the ``odds`` key of an attack's JSON object."""
        return {"odds": {"hit": self.hit, "damage_dealt": self.damage_dealt,
                         "outcome": self.outcomes[result.outcome], "outcomes": self.outcomes}}

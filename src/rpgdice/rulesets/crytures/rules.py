"""Crytures (seed 000): a d10 pool against a per-die Difficulty, with Complexity,
die and roll modifiers, and natural 10s."""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING

from rpgdice.core.dice import DiceSource, check_pool, d10_successes
from rpgdice.core.errors import RulesError, at_least
from rpgdice.core.record import Tagged, record
from rpgdice.core.rolltypes import SuccessOdds

if TYPE_CHECKING:
    from fractions import Fraction

DEFAULT_DIFFICULTY = 6
"""(decision) The text sets no default Difficulty; the output always shows the one used."""
DEFAULT_COMPLEXITY = 1
DEFAULT_CRIT_HITS = 1
"""(decision) In an attack each critical hit (natural 10) adds this many successes (hits)
after the dice are counted, before the Complexity check: the text's Crit effect "usually
adds another hit". ``--crit-hits`` changes it (0 for a Crit effect that is something else)."""


@record
class CryturesDie:
    face: int
    value: int
    successes: int


@record
class CryturesRoll:
    """Inputs of one roll: the base pool and what modifies it."""

    base_pool: int
    die_mods: tuple[int, ...] = ()
    roll_mods: tuple[int, ...] = ()
    difficulty: int = DEFAULT_DIFFICULTY
    complexity: int = DEFAULT_COMPLEXITY
    attack: bool = False
    crit_hits: int = DEFAULT_CRIT_HITS
    """Successes each critical hit adds in an attack."""

    def __post_init__(self) -> None:
        at_least("POOL", self.base_pool, 0,
                 f"{self.base_pool} is negative; a pool is 0 or more dice")
        at_least("--difficulty", self.difficulty, 1, f"{self.difficulty} is below 1")
        at_least("--complexity", self.complexity, 1, f"{self.complexity} is below 1")
        at_least("--crit-hits", self.crit_hits, 0,
                 f"{self.crit_hits} is negative; a critical hit adds 0 or more hits")
        check_pool(self.pool, "POOL")

    @property
    def pool(self) -> int:
        """Dice rolled: the base pool plus every die modifier (0 when that is 0 or less)."""
        return max(0, self.base_pool + sum(self.die_mods))

    @property
    def roll_mod(self) -> int:
        return sum(self.roll_mods)

    @property
    def hits_per_crit(self) -> int:
        """Successes a natural 10 adds as a critical hit: ``crit_hits`` in an attack, else 0."""
        return self.crit_hits if self.attack else 0


def die_successes(spec: CryturesRoll, face: int) -> int:
    """What one die showing ``face`` is worth to the roll's total: its own successes,
    plus the hits its critical hit adds (a natural 10 in an attack). The roll and the
    exact odds both count with this."""
    own = d10_successes(face, face + spec.roll_mod, spec.difficulty)
    return own + spec.hits_per_crit if face == 10 else own


@record
class CryturesResult(Tagged, ruleset="crytures", command="roll"):
    outcome: str
    pool: int
    base_pool: int
    die_mod: int
    difficulty: int
    complexity: int
    roll_mod: int
    attack: bool
    dice: list[CryturesDie] = field(default_factory=list)
    successes: int = 0
    extra_successes: int = 0
    natural_tens: int = 0
    critical_hits: int = 0
    crit_hits: int = 0
    """Successes each critical hit adds (``--crit-hits``; 0 outside an attack)."""
    no_dice: bool = False
    """True when no die was rolled: an empty pool, or die modifiers that removed every
    die (decision: 0 successes, failure)."""


def evaluate(spec: CryturesRoll, faces: list[int]) -> CryturesResult:
    """Score faces already rolled for ``spec`` (one face per die in ``spec.pool``)."""
    if len(faces) != spec.pool:
        raise RulesError("--dice", f"{len(faces)} faces for a pool of {spec.pool}")
    mod = spec.roll_mod
    dice = [
        CryturesDie(face=f, value=f + mod, successes=d10_successes(f, f + mod, spec.difficulty))
        for f in faces
    ]
    successes = sum(die_successes(spec, f) for f in faces)  # the dice's own + critical hits'
    tens = sum(1 for d in dice if d.face == 10)
    ok = successes >= spec.complexity
    return CryturesResult(
        outcome="success" if ok else "failure",
        pool=spec.pool,
        base_pool=spec.base_pool,
        die_mod=sum(spec.die_mods),
        difficulty=spec.difficulty,
        complexity=spec.complexity,
        roll_mod=mod,
        attack=spec.attack,
        dice=dice,
        successes=successes,
        extra_successes=successes - spec.complexity if ok else 0,
        natural_tens=tens,
        critical_hits=tens if spec.attack else 0,
        crit_hits=spec.hits_per_crit,
        no_dice=spec.pool == 0,
    )


def roll(spec: CryturesRoll, source: DiceSource) -> CryturesResult:
    return evaluate(spec, source.roll(10, spec.pool) if spec.pool else [])


# Odds: the records of an odds command's answer (odds.py computes them) ------------


@record
class CryturesOdds(SuccessOdds, ruleset="crytures", command="odds"):
    """A pool's odds (``critical``: with ``attack``, a critical hit)."""

    mean_successes: Fraction
    pool: int
    difficulty: int
    complexity: int
    roll_mod: int
    attack: bool
    crit_hits: int
    """Successes each critical hit adds (0 outside an attack)."""
    no_dice: bool
    base_pool: int = 0
    die_mod: int = 0

"""Where dice come from, and the d10 success count Crytures and Seyruun share.

A :class:`DiceSource` hands out faces. Three kinds exist:

* :class:`SystemDice` – the operating system's random source (``os.urandom``,
  drawn as :class:`random.SystemRandom` draws it), the default;
* :class:`SeededDice` – a Mersenne Twister seeded with an integer, so the same
  seed and the same command give the same faces on every platform. Every roll
  uses one: without ``--seed`` the CLI draws a fresh 64-bit seed from
  ``os.urandom`` (:func:`fresh_seed`), so each roll is unpredictable beforehand
  and replayable afterwards;
* :class:`GivenDice` – faces a player rolled by hand, consumed in order and
  checked against the die they are said to come from.
"""

from __future__ import annotations

import _random
import os
from typing import TYPE_CHECKING, Protocol

from rpgdice.core.errors import RulesError

if TYPE_CHECKING:
    import random

MAX_POOL = 1000
"""No single roll takes more dice than this (CLI.md: bounded work)."""


MAX_DRAWS = 200
"""Bound on the rejection-sampling loop of one face (never reached by a working
generator: the chance is below 2**-200)."""


class DiceSource(Protocol):
    def roll(self, sides: int, count: int = 1) -> list[int]:
        """Return ``count`` faces of a ``sides``-sided die, each in 1..sides."""
        ...


class _RandomDice:
    """Faces from a :class:`random.Random`, drawn with ``getrandbits``.

    Drawing through ``getrandbits`` with rejection sampling (rather than
    ``randrange``) pins the algorithm here, so a seed's faces do not depend on
    how a Python release implements ``randrange``.
    """

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def _below(self, n: int) -> int:
        bits = n.bit_length()
        # Each draw is accepted with probability above 1/2, so MAX_DRAWS rejections
        # in a row (odds below 2**-MAX_DRAWS) mean the generator is broken.
        for _ in range(MAX_DRAWS):
            r = self._rng.getrandbits(bits)
            if r < n:
                return r
        raise RuntimeError(f"random source rejected {MAX_DRAWS} draws in a row")

    def roll(self, sides: int, count: int = 1) -> list[int]:
        return [self._below(sides) + 1 for _ in range(count)]


class _UrandomBits:
    """``getrandbits`` from ``os.urandom``, drawn exactly as ``random.SystemRandom``
    draws it, without importing :mod:`random` (every roll pays for its imports)."""

    @staticmethod
    def getrandbits(k: int) -> int:
        size = (k + 7) // 8
        return int.from_bytes(os.urandom(size), "big") >> (size * 8 - k)


class SystemDice(_RandomDice):
    """The operating system's randomness (``os.urandom``)."""

    def __init__(self) -> None:
        super().__init__(_UrandomBits())  # type: ignore[arg-type]


SEED_BITS = 64
"""A fresh seed is 0 to 2**64 - 1."""


def fresh_seed() -> int:
    """A seed from the operating system's random source (``os.urandom``)."""
    return int.from_bytes(os.urandom(SEED_BITS // 8), "big")


class SeededDice(_RandomDice):
    """A reproducible stream: the same seed gives the same faces everywhere.

    The generator is :class:`random.Random`'s own C core (``_random.Random``): for an
    integer seed, ``random.Random(seed)`` seeds it exactly so and draws
    ``getrandbits`` from it, so the faces are the same, without importing
    :mod:`random` (about 10 ms of every roll's start, since every roll is seeded)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        super().__init__(_random.Random(seed))  # type: ignore[arg-type]


class GivenDice:
    """Faces given by hand (``--dice 4,7,2``), consumed in order."""

    def __init__(self, faces: list[int], param: str = "--dice") -> None:
        self.faces = list(faces)
        self.used = 0
        self.param = param

    def roll(self, sides: int, count: int = 1) -> list[int]:
        end = self.used + count
        if end > len(self.faces):
            raise RulesError(
                self.param,
                f"too few faces: {len(self.faces)} given, the roll needs at least {end}; give a "
                "face for every die rolled, in order (repeats and re-rolls too), or leave out "
                f"{self.param} to roll them",
            )
        taken = self.faces[self.used:end]
        for face in taken:
            if not 1 <= face <= sides:
                raise RulesError(self.param, f"face {face} is not on a d{sides} (1 to {sides})")
        self.used = end
        return taken

    def roll_between(self, lo: int, hi: int) -> int:
        """One face of a die numbered ``lo`` to ``hi`` (a Fudge die: −1 to 1)."""
        if self.used >= len(self.faces):
            self.roll(2, 1)  # too few faces: the same error as any die's
        face = self.faces[self.used]
        if not lo <= face <= hi:
            raise RulesError(self.param, f"face {face} is not on a Fudge die ({lo} to {hi})")
        self.used += 1
        return face

    def check_all_used(self) -> None:
        """Faces left over mean the player gave dice the roll did not use."""
        if self.used != len(self.faces):
            raise RulesError(
                self.param,
                f"too many faces: {len(self.faces)} given, the roll used {self.used}; "
                + (f"give just the {self.used} it rolls, in order" if self.used else
                   f"it rolls no die: leave out {self.param}, or give it nothing ({self.param} '')"),
            )


def check_pool(dice: int, param: str) -> None:
    if dice > MAX_POOL:
        raise RulesError(param, f"a pool of {dice} dice is more than the limit of {MAX_POOL}")


def d10_successes(face: int, value: int, difficulty: int) -> int:
    """Successes of one d10 whose modified value is ``value``.

    A die meeting the Difficulty is one success; a natural 10 (``face == 10``,
    before modifiers) is always a success, and two when it meets the
    Difficulty too. Crytures uses it with its Difficulty and roll modifiers;
    Seyruun is the same count with Difficulty 6 and no modifier (6-9 one
    success, 10 two).
    """
    hit = 1 if value >= difficulty else 0
    if face == 10:
        return 1 + hit
    return hit

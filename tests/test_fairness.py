"""Fair dice and replayable seeds.

Fairness: 100000 faces of a d10 and of a d20, from the operating system's source and
from a seeded one, pass a chi-squared test against the uniform distribution at
alpha = 1e-4 (so an honest source fails about once in 10000 runs), and so do
consecutive pairs of d10 faces (no serial pattern). The statistic and its p-value
are computed here, without scipy; a test shows they do reject a biased die.

Seeds: ``SeededDice(seed)`` is fully defined by MT19937 seeded the way CPython seeds
``random.Random`` with an integer, read through ``getrandbits`` with rejection
sampling. An independent MT19937 written from that definition below gives the same
faces, so the faces for a seed depend on no platform, Python build or ``randrange``
implementation; and two real processes with the same seed print the same dice.
"""

from __future__ import annotations

import json
import math
import random

import pytest

from conftest import proc
from rpgdice.core.dice import SeededDice, SystemDice, fresh_seed

FACES = 100_000
ALPHA = 1e-4


def chi_squared(counts: list[int]) -> float:
    n = sum(counts)
    expected = n / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts)


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-squared with ``df`` degrees of freedom: 1 - P(df/2, x/2),
    the regularized lower incomplete gamma function by its power series."""
    a, z = df / 2, x / 2
    if z <= 0:
        return 1.0
    term = total = 1 / a
    n = 0
    while term > total * 1e-17 and n < 10_000:
        n += 1
        term *= z / (a + n)
        total += term
    lower = math.exp(a * math.log(z) - z - math.lgamma(a)) * total
    return max(0.0, 1 - lower)


def test_chi2_sf_matches_known_values():
    # Even df have a closed form: Q = exp(-x/2) * sum_{i<df/2} (x/2)^i / i!.
    for df, x in ((2, 3.0), (10, 18.307), (20, 31.41), (100, 124.342)):
        closed = math.exp(-x / 2) * sum((x / 2) ** i / math.factorial(i) for i in range(df // 2))
        assert chi2_sf(x, df) == pytest.approx(closed, rel=1e-9)
    # Table values: the 0.05 critical values for 9 and 19 degrees of freedom.
    assert chi2_sf(16.919, 9) == pytest.approx(0.05, abs=1e-4)
    assert chi2_sf(30.144, 19) == pytest.approx(0.05, abs=1e-4)


def face_counts(faces: list[int], sides: int) -> list[int]:
    counts = [0] * sides
    for f in faces:
        counts[f - 1] += 1
    return counts


def assert_uniform(faces: list[int], sides: int) -> None:
    assert len(faces) >= FACES
    assert set(faces) == set(range(1, sides + 1))
    stat = chi_squared(face_counts(faces, sides))
    p = chi2_sf(stat, sides - 1)
    assert p > ALPHA, f"d{sides}: chi2 = {stat:.1f}, p = {p:.2e}"


SOURCES = {
    "system": SystemDice,
    "seeded": lambda: SeededDice(20260101),
    # What a roll without --seed uses: a Mersenne Twister seeded from os.urandom.
    "fresh seed": lambda: SeededDice(fresh_seed()),
}


def test_fresh_seeds_cover_64_bits():
    seeds = [fresh_seed() for _ in range(2000)]
    assert all(0 <= s < 2**64 for s in seeds)
    assert len(set(seeds)) == len(seeds)
    # Every bit of the 64 is set in some seed and clear in another.
    for bit in range(64):
        ones = sum(s >> bit & 1 for s in seeds)
        assert 800 < ones < 1200, (bit, ones)


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("sides", [10, 20])
def test_faces_are_uniform(source, sides):
    assert_uniform(SOURCES[source]().roll(sides, FACES), sides)


@pytest.mark.parametrize("source", SOURCES)
def test_consecutive_d10_faces_are_independent(source):
    faces = SOURCES[source]().roll(10, 2 * FACES)
    pairs = [(a - 1) * 10 + (b - 1) + 1 for a, b in zip(faces[::2], faces[1::2])]
    assert_uniform(pairs, 100)


def test_the_test_rejects_a_biased_die():
    # A d10 read as getrandbits(4) % 10: faces 1-6 come up twice as often as 7-10.
    rng = random.Random(1)
    biased = [rng.getrandbits(4) % 10 + 1 for _ in range(FACES)]
    assert chi2_sf(chi_squared(face_counts(biased, 10)), 9) < ALPHA
    # And a d10 that shows 10 on an extra 3% of rolls (0.127 instead of 0.1).
    slightly = [10 if rng.random() < 0.03 else rng.randrange(10) + 1 for _ in range(FACES)]
    assert chi2_sf(chi_squared(face_counts(slightly, 10)), 9) < ALPHA


# --- An independent MT19937, from its definition and CPython's integer seeding ---

N, M, MASK = 624, 397, 0xFFFFFFFF


class MT19937:
    def __init__(self, seed: int) -> None:
        # CPython: the absolute value of an int seed, split into 32-bit words
        # (least significant first), goes to init_by_array.
        n = abs(seed)
        key = []
        while True:
            key.append(n & MASK)
            n >>= 32
            if not n:
                break
        self.mt = [0] * N
        self._init_genrand(19650218)
        mt, i, j = self.mt, 1, 0
        for _ in range(max(N, len(key))):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & MASK
            i, j = i + 1, j + 1
            if i >= N:
                mt[0], i = mt[N - 1], 1
            if j >= len(key):
                j = 0
        for _ in range(N - 1):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & MASK
            i += 1
            if i >= N:
                mt[0], i = mt[N - 1], 1
        mt[0] = 0x80000000
        self.index = N

    def _init_genrand(self, s: int) -> None:
        mt = self.mt
        mt[0] = s & MASK
        for i in range(1, N):
            mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & MASK

    def _twist(self) -> None:
        mt = self.mt
        for i in range(N):
            y = (mt[i] & 0x80000000) | (mt[(i + 1) % N] & 0x7FFFFFFF)
            mt[i] = mt[(i + M) % N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        self.index = 0

    def uint32(self) -> int:
        if self.index >= N:
            self._twist()
        y = self.mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        y ^= y >> 18
        return y

    def getrandbits(self, k: int) -> int:
        assert 0 < k <= 32
        return self.uint32() >> (32 - k)


def reference_faces(seed: int, sides: int, count: int) -> list[int]:
    """The documented algorithm: the fewest bits that hold sides-1, rejected when
    the draw is sides or more."""
    mt = MT19937(seed)
    bits = sides.bit_length()
    out = []
    while len(out) < count:
        r = mt.getrandbits(bits)
        if r < sides:
            out.append(r + 1)
    return out


def test_reference_mt19937_is_the_standard_one():
    # The MT19937 reference output (mt19937ar.c, init_by_array({0x123, 0x234,
    # 0x345, 0x456})) starts 1067595299 955945823 477289528.
    mt = MT19937(0x456 << 96 | 0x345 << 64 | 0x234 << 32 | 0x123)
    assert [mt.uint32() for _ in range(3)] == [1067595299, 955945823, 477289528]


@pytest.mark.parametrize("seed", [0, 1, 42, 2**32 + 5, 2**64 - 1])
@pytest.mark.parametrize("sides", [10, 20])
def test_a_seed_gives_the_dice_the_algorithm_defines(seed, sides):
    assert SeededDice(seed).roll(sides, 500) == reference_faces(seed, sides, 500)


@pytest.mark.slow
@pytest.mark.process
def test_a_seed_gives_the_same_dice_in_every_process():
    args = ["crytures", "roll", "12", "--seed", "424242", "-n", "3", "--json"]
    first, second = proc(*args), proc(*args)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    faces = [d["face"] for line in first.stdout.splitlines()
             for d in json.loads(line)["dice"]]
    assert faces == reference_faces(424242, 10, 36)
    via_env = proc(*[a for a in args if a not in ("--seed", "424242")],
                   env={"RPGDICE_SEED": "424242"})
    assert via_env.stdout == first.stdout


@pytest.mark.process
def test_without_a_seed_runs_differ():
    args = ["crytures", "roll", "30", "--json"]
    assert proc(*args).stdout != proc(*args).stdout

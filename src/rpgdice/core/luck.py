"""Luck against the exact odds: pure arithmetic for ``rpgdice log stats``.

* :func:`z_score` — how far a count of outcomes lies from what the exact odds of each
  roll expected, in standard deviations (a sum of independent Bernoulli trials with
  their own probabilities: mean Σp, variance Σp(1−p));
* :func:`verdict` — that distance in plain words;
* :func:`chi_squared` and :func:`chi2_sf` — Pearson's test of a die's faces against a
  fair die, the p-value from the regularized incomplete gamma function (series and
  continued fraction, as in Numerical Recipes), without scipy.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Optional


def z_score(observed: float, expected: float, variance: float) -> Optional[float]:
    """(observed − expected) / √variance; None when the variance is 0 (nothing uncertain)."""
    if variance <= 0:
        return None
    return (observed - expected) / math.sqrt(variance)


VERDICTS = (
    (1.0, "within ordinary luck"),
    (2.0, "{lucky}, but nothing unusual"),
    (3.0, "{lucky}, not impossible"),
    (4.0, "remarkably {lucky}: fewer than 1 log in 300 strays this far by chance"),
    (math.inf, "beyond luck: check the dice (or the log)"),
)
"""Plain words for |z| below each bound."""


MIN_ROLLS = 20
"""Fewer rolls than this get no luck verdict: too few to tell luck from chance."""
MIN_PER_FACE = 5
"""A die's faces get a fairness verdict only when each face is expected this often (the
χ² test's rule of thumb): a d10 needs 50 faces rolled, a d20 100."""


def verdict(z: Optional[float], what: str = "successes", rolls: Optional[int] = None) -> str:
    """``2.1 standard deviations below expectation: unlucky, not impossible``; with
    fewer ``rolls`` than :data:`MIN_ROLLS`, that there are too few for a verdict."""
    if rolls is not None and rolls < MIN_ROLLS:
        return f"too few rolls for a verdict: {rolls} of the {MIN_ROLLS} needed"
    if z is None:
        return f"no uncertainty in these rolls' {what}: nothing to judge"
    size = abs(z)
    words = next(text for bound, text in VERDICTS if size < bound)
    lucky = "lucky" if z > 0 else "unlucky"
    if size < 0.05:
        return f"{what} right on expectation: {words.format(lucky=lucky)}"
    direction = "above" if z > 0 else "below"
    unit = "standard deviation" if round(size, 1) == 1.0 else "standard deviations"
    return f"{what} {size:.1f} {unit} {direction} expectation: {words.format(lucky=lucky)}"


def chi_squared(counts: Sequence[int]) -> float:
    """Pearson's statistic of ``counts`` against equal expected counts."""
    n = sum(counts)
    if n == 0 or not counts:
        return 0.0
    expected = n / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts)


def _lower_series(a: float, x: float) -> float:
    """P(a, x) by its power series (converges fast for x < a + 1)."""
    term = total = 1.0 / a
    n = 0
    while abs(term) > abs(total) * 1e-16 and n < 10_000:
        n += 1
        term *= x / (a + n)
        total += term
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _upper_fraction(a: float, x: float) -> float:
    """Q(a, x) by Lentz's continued fraction (for x ≥ a + 1)."""
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h * math.exp(-x + a * math.log(x) - math.lgamma(a))


def chi2_sf(x: float, df: int) -> float:
    """P(X ≥ x) for X chi-squared with ``df`` degrees of freedom: Q(df/2, x/2)."""
    if df <= 0:
        return 1.0
    if x <= 0:
        return 1.0
    a, z = df / 2, x / 2
    if z < a + 1:
        return max(0.0, min(1.0, 1.0 - _lower_series(a, z)))
    return max(0.0, min(1.0, _upper_fraction(a, z)))


def fairness(p: float, rolled: Optional[int] = None, faces: Optional[int] = None) -> str:
    """A χ² p-value in plain words; with fewer faces ``rolled`` of a die of ``faces``
    than :data:`MIN_PER_FACE` each, that there are too few for a verdict."""
    if rolled is not None and faces and rolled < MIN_PER_FACE * faces:
        return (f"too few faces for a verdict: {rolled} rolled of the "
                f"{MIN_PER_FACE * faces} needed")
    if p < 1e-4:
        return "these faces are very unlikely from a fair die"
    if p < 0.01:
        return "unusual for a fair die: worth watching"
    return "consistent with a fair die"

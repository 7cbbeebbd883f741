"""Pessimistic error estimates: the upper confidence bound of a leaf's error count.

C4.5 estimates the errors a leaf of ``N`` cases with ``e`` training errors
will make as ``N * U_CF(e, N)``, the upper limit of the binomial error rate
at confidence ``CF`` (Quinlan 1993, ch. 4). ``added_errors`` returns the
part above ``e``, ``N U_CF(e, N) - e``, in two versions:

- ``j48`` (default): Weka's J48. The normal approximation with a continuity
  correction, z from the exact inverse normal at 1 - CF; ``e == 0`` gives
  ``N (1 - CF^(1/N))``; ``0 < e < 1`` interpolates linearly between the
  bounds for 0 and 1; ``e + 0.5 >= N`` gives ``N - e``.
- ``c45r8``: Quinlan's Release 8 code. The same shape, but z^2 comes from a
  small table of normal deviates interpolated at CF (0.6925^2 at 0.25), and
  ``e + 0.5 >= N`` gives ``0.67 (N - e)``.

Both give U_0.25(0, 6) = 0.206; U_0.25(1, 16) is 0.155 per case for J48 and
0.157 in the C4.5 book.
"""

from __future__ import annotations

import math

BOUNDS = ("j48", "c45r8")

# Quinlan's table (C4.5 R8): confidence levels and their normal deviates.
_LEVELS = (0.0, 0.001, 0.005, 0.01, 0.05, 0.10, 0.20, 0.40, 1.00)
_DEVIATES = (4.0, 3.09, 2.58, 2.33, 1.65, 1.28, 0.84, 0.25, 0.00)


def _j48(n: float, e: float, cf: float) -> float:
    if e < 1:
        base = n * (1 - math.pow(cf, 1 / n))
        if e == 0:
            return base
        return base + e * (_j48_from_one(n, 1, cf) - base)
    return _j48_from_one(n, e, cf)


def _j48_from_one(n: float, e: float, cf: float) -> float:
    """``_j48`` for ``e >= 1``."""
    if e + 0.5 >= n:
        return max(n - e, 0.0)
    z = normal_deviate(cf)
    f = (e + 0.5) / n
    r = (f + (z * z) / (2 * n) + z * math.sqrt((f / n) - (f * f / n) + (z * z / (4 * n * n)))) / (1 + (z * z) / n)
    return (r * n) - e


# the standard normal deviate of the default confidence 0.25 (``NormalDist().inv_cdf(0.75)``, to the
# last bit): a pruning at that confidence does not import statistics (random, hashlib, fractions:
# some 5 ms of a run's start)
DEFAULT_DEVIATE = {0.25: 0.6744897501960817}


def normal_deviate(cf: float) -> float:
    """z with P(Z <= z) = 1 - ``cf`` for a standard normal Z, as J48's error bound takes it."""
    z = DEFAULT_DEVIATE.get(cf)
    if z is None:
        from statistics import NormalDist

        z = NormalDist().inv_cdf(1 - cf)
    return z


def r8_coefficient(cf: float) -> float:
    """z^2 interpolated from Quinlan's table at ``cf`` (0.6925^2 at 0.25)."""
    i = 0
    while cf > _LEVELS[i]:
        i += 1
    deviate = _DEVIATES[i - 1] + (_DEVIATES[i] - _DEVIATES[i - 1]) * (cf - _LEVELS[i - 1]) / (
        _LEVELS[i] - _LEVELS[i - 1]
    )
    return deviate * deviate


def _c45r8(n: float, e: float, cf: float) -> float:
    if e < 1e-6:
        return n * (1 - math.exp(math.log(cf) / n))
    if e < 0.9999:
        base = n * (1 - math.exp(math.log(cf) / n))
        return base + e * (_c45r8_from_one(n, 1.0, cf) - base)
    return _c45r8_from_one(n, e, cf)


def _c45r8_from_one(n: float, e: float, cf: float) -> float:
    """``_c45r8`` for ``e >= 0.9999``."""
    if e + 0.5 >= n:
        return 0.67 * (n - e)
    coeff = r8_coefficient(cf)
    pr = (e + 0.5 + coeff / 2 + math.sqrt(coeff * ((e + 0.5) * (1 - (e + 0.5) / n) + coeff / 4))) / (n + coeff)
    return n * pr - e


def added_errors(n: float, e: float, cf: float = 0.25, bound: str = "j48") -> float:
    """Errors to add to ``e`` observed errors among ``n`` cases for the pessimistic estimate."""
    if n <= 0:
        return 0.0
    return _c45r8(n, e, cf) if bound == "c45r8" else _j48(n, e, cf)


def upper_rate(n: float, e: float, cf: float = 0.25, bound: str = "j48") -> float:
    """``U_CF(e, N)``: the upper confidence limit of the error rate."""
    return (e + added_errors(n, e, cf, bound)) / n

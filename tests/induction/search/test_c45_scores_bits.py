"""The reference grower's C4.5 gain and gain ratio of a nominal split: the bits of Weka's formulas as arrays.

``c45_gain`` and ``c45_gain_ratio`` add up Python floats (one numpy call for the logarithms) to spare
a numpy call per sum on small count matrices; the reference here is the array form of J48's
InfoGainSplitCrit and GainRatioSplitCrit (``seqsum``: sums strictly in order), on random matrices of
whole and fractional weights, empty branches and classes, one branch, and more than ``SMALL_SUM`` terms.
"""

from __future__ import annotations

import numpy as np
import pytest

from dtcli.induction.criteria.constants import eq, gr
from dtcli.induction.search.c45 import c45_gain, c45_gain_ratio
from dtcli.induction.search.numeric import seqsum, xlog2x


def gain_by_arrays(counts: np.ndarray, total: float) -> float:
    sizes = seqsum(counts, axis=1)
    known = float(seqsum(sizes))
    if known <= 0:
        return 0.0
    old = float(xlog2x(np.array(known)) - seqsum(xlog2x(seqsum(counts, axis=0))))
    terms = np.hstack([xlog2x(counts), -xlog2x(sizes)[:, None]])
    new = -float(seqsum(terms.ravel()))
    numerator = (known / total) * (old - new)
    return 0.0 if eq(numerator, 0.0) else numerator / known


def ratio_by_arrays(counts: np.ndarray, total: float, gain: float) -> float:
    sizes = seqsum(counts, axis=1)
    known = float(seqsum(sizes))
    if not gr(known, 0.0):
        return 0.0
    split = float(-seqsum(xlog2x(sizes)) - xlog2x(np.array(total - known)) + xlog2x(np.array(total)))
    return 0.0 if eq(split, 0.0) else gain / (split / total)


def matrices(seed: int):
    rng = np.random.default_rng(seed)
    for _ in range(200):
        branches, classes = int(rng.integers(1, 9)), int(rng.integers(1, 31))
        counts = rng.integers(0, 40, (branches, classes)).astype(np.float64)
        if rng.random() < 0.5:  # fractional cases (missing values spread over the branches)
            counts = counts * rng.random((branches, classes))
        if rng.random() < 0.2:
            counts[int(rng.integers(branches))] = 0.0  # an empty branch
        unknown = float(rng.integers(0, 5)) * rng.random()
        yield counts, float(counts.sum()) + unknown
    wide = rng.random((3, 300)) * 5  # more than SMALL_SUM classes: the cumulative sums
    yield wide, float(wide.sum())
    yield np.zeros((2, 3)), 1.0


@pytest.mark.parametrize("seed", range(3))
def test_gain_and_ratio_as_the_array_formulas_bit_for_bit(seed):
    for counts, total in matrices(seed):
        gain = c45_gain(counts, total)
        assert gain == gain_by_arrays(counts, total)
        assert c45_gain_ratio(counts, total, gain) == ratio_by_arrays(counts, total, gain)

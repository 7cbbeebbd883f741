"""The numbers every engine shares: tolerances, Weka's comparisons, and the kernels' criterion codes.

Weka's comparisons with a tolerance of 1e-6 (weka.core.Utils) are written the same way.

C4.5 as J48 implements it compares weights, gains and thresholds with these;
writing each exactly as Weka does (``a - b > 1e-6``, not ``a > b + 1e-6``)
keeps borderline cases identical, down to the last bit.
"""

from __future__ import annotations

import math

SMALL = 1e-6  # Weka's tolerance (weka.core.Utils.SMALL)
GAIN_TOLERANCE = 1e-6  # a split must gain more than --min-gain plus this (Weka's Id3 uses the same 1e-6)
AVERAGE_GAIN_SLACK = 1e-3  # Quinlan's gain-ratio rule compares with the average gain with this slack (as J48)
EQUAL_VALUES = 1e-5  # two numeric values closer than this are one value: no cut between them (J48)
EPSILON = 2.220446049250313e-16  # float64 machine epsilon: a regression node this pure is a leaf (scikit-learn)
LN2 = math.log(2.0)

# --max-bins (and so the Dask engine, which bins): a fractional case (a case with a missing value sent
# down every branch, its weight times the branch's share) weighs a whole multiple of 1 / GRID_SCALE,
# the product rounded to the nearest (``on_grid``). Every sum of such weights below EXACT_WEIGHT is
# then exact in float64, whatever the order of the additions: counts summed over partitions on a
# cluster have the bits one pass over the rows gives. (The rounding moves a weight by 3e-8 at most.)
GRID_SCALE = 2.0**24
EXACT_WEIGHT = 2.0**29


def on_grid(weights):
    """``weights`` (a number or an array) rounded to the nearest multiple of 1 / GRID_SCALE (ties to even)."""
    import numpy as np  # (here: this module imports no numpy, for dtree gain's plain path)

    return np.rint(weights * GRID_SCALE) / GRID_SCALE


# Criterion codes the compiled kernels take: one numbering for every engine and kernel.
GINI, ENTROPY, CART, RATIO = 0, 1, 2, 3
KERNEL_CODES = {"gini": GINI, "gain": ENTROPY, "entropy": ENTROPY, "cart": CART, "gain-ratio": RATIO}

# scikit-learn's tree builder: two values closer than this are one value (no cut between them),
# and the bound of its random number generator (its attribute visiting order, CART's ties).
FEATURE_THRESHOLD = 1e-7
RAND_R_MAX = 0x7FFFFFFF


def gr(a, b):
    """a > b by more than 1e-6."""
    return a - b > SMALL


def gr_or_eq(a, b):
    """a >= b, within 1e-6."""
    return b - a < SMALL


def sm(a, b):
    """a < b by more than 1e-6."""
    return b - a > SMALL


def sm_or_eq(a, b):
    """a <= b, within 1e-6."""
    return a - b < SMALL


def eq(a, b):
    """a == b, within 1e-6."""
    return (a == b) | ((a - b < SMALL) & (b - a < SMALL))

"""The threshold of a cut between single-precision values, as scikit-learn places it.

``criteria/midpoint.py`` states the rules of both placements; the CART kernels
compile this very function.
"""

from __future__ import annotations

import numpy as np

LARGEST_SINGLE = 3.4028234663852886e38  # the largest single-precision number, as a 64-bit one


def single_midpoint(lower, upper):
    """The threshold of the cut between single-precision values ``lower < upper`` (see the module)."""
    if upper >= LARGEST_SINGLE or lower <= -LARGEST_SINGLE:
        lower = max(lower, -LARGEST_SINGLE)
        upper = float(np.nextafter(np.float32(lower), np.float32(np.inf)))
    t = lower / 2.0 + upper / 2.0
    if t == upper:
        return lower
    if np.float32(t) == upper:
        return float(np.nextafter(t, -np.inf))
    return t

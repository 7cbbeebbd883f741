"""C4.5's split on a nominal attribute from a shard's summed (node, value, class) weights (numba).

The weights lie on the grid of ``constants.on_grid`` (whole cases, and C4.5's fractional cases
rounded there with ``--max-bins``): every sum is exact in any order, so each node's (value, class)
weights are the very numbers ``levelwise/kernels/nominal.py: nominal_splits`` adds record by record,
and the same admission, gain and ratio kernels give the same scores to the last bit.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.kernels.jit import kernel
from dtcli.induction.levelwise.kernels.c45 import c45_gain, c45_ratio
from dtcli.induction.levelwise.kernels.nominal import c45_admitted


@kernel
def nominal_scores(hist, active, totals, min_leaf):
    """Per node: admissible, gain and gain ratio of the split on a nominal attribute whose
    (node, value, class) counts are ``hist`` (the last value: missing)."""
    n_nodes = hist.shape[0]
    ok = np.zeros(n_nodes, dtype=np.bool_)
    gains = np.zeros(n_nodes)
    ratios = np.zeros(n_nodes)
    for k in range(n_nodes):
        if not active[k]:
            continue
        counts = hist[k, :-1, :].copy()
        if c45_admitted(counts, min_leaf) < 2:
            continue
        ok[k] = True
        gains[k] = c45_gain(counts, totals[k])
        ratios[k] = c45_ratio(counts, totals[k], gains[k])
    return ok, gains, ratios

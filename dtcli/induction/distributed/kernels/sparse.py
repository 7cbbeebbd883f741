"""C4.5's cut on a binned numeric attribute from a node's occupied cells (numba; ``cells.py`` holds them).

``sparse_binned_scores`` visits, per node, only the bins its records fall in, in ascending order,
and does what ``levelwise/kernels/bins.py: c45_binned`` does record by record: the known weights,
the count of known records (C4.5's "known cases", which fractional cases make differ from their
weight), the minimum on each side, and a cut tried at each step to a bin more than 1e-5 higher
(a bin of zero-weight records still counts as a value there, as in ``c45_binned``). Weights on the
grid make each bin's sum the sum ``c45_binned`` reaches record by record, so the scores agree to
the last bit.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.criteria.constants import SMALL
from dtcli.induction.kernels.jit import kernel
from dtcli.induction.levelwise.kernels.bins import bin_terms
from dtcli.induction.levelwise.kernels.c45 import (
    cut_outputs,
    finish_cut,
    min_split_of,
    scan_buffers,
    start_scan,
    try_cut,
)


@kernel
def sparse_binned_scores(starts, codes, weights, records, n_bins, tops, totals, min_leaf, mdl):
    """Per node ``k`` (its cells ``starts[k]:starts[k + 1]``, bins ``codes`` ascending, ``n_bins``
    the missing value's code, class ``weights``, ``records``; ``totals[k]`` its whole weight): found,
    the cut's lower and upper binned values, gain after the MDL penalty, and gain ratio."""
    m = starts.shape[0] - 1
    C = weights.shape[1]
    found, best_lower, best_upper, best_gains, ratios = cut_outputs(m)
    scan = scan_buffers(C)
    best = np.zeros(4)
    for k in range(m):
        scan.known[:] = 0.0
        n_known = 0
        for e in range(starts[k], starts[k + 1]):
            if codes[e] < n_bins:
                n_known += records[e]
                for c in range(C):
                    scan.known[c] += weights[e, c]
        kw, old = start_scan(scan)
        ms = min_split_of(kw, C, min_leaf)
        if 2 * ms - n_known > SMALL or n_known < 2:
            continue
        best[:] = 0.0
        previous = np.nan
        for e in range(starts[k], starts[k + 1]):
            if codes[e] >= n_bins or records[e] == 0:
                continue
            value = tops[codes[e]]
            if not np.isnan(previous) and previous + 1e-5 < value:
                bin_terms(scan)
                if try_cut(previous, value, scan, kw, ms, totals[k], old, best):
                    found[k] = True
            for c in range(C):
                scan.left[c] += weights[e, c]
            previous = value
        if found[k]:
            found[k], best_gains[k], ratios[k] = finish_cut(best, totals[k], mdl, scan)
            best_lower[k], best_upper[k] = best[1], best[2]
    return found, best_lower, best_upper, best_gains, ratios

"""C4.5's split scores from a level's summed histograms (numba), with the level-wise engine's formulas.

The histograms sum the records' weights, which lie on the grid of ``constants.on_grid`` (whole
cases, and C4.5's fractional cases rounded there with ``--max-bins``): every sum is exact in any
order, so the scans below add up the very numbers ``levelwise/kernels/bins.py: c45_binned`` and
``nominal.py: nominal_splits`` add record by record, and call the same gain, ratio and cut
kernels: the scores agree to the last bit. What ``c45_binned`` counts in records rather than
weight (the known records of a node, the bins it occupies) comes from the records' counts.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.criteria.constants import SMALL
from dtcli.induction.kernels.jit import kernel
from dtcli.induction.levelwise.kernels.bins import bin_terms
from dtcli.induction.levelwise.kernels.c45 import (
    c45_gain,
    c45_ratio,
    cut_outputs,
    finish_cut,
    min_split_of,
    scan_buffers,
    start_scan,
    try_cut,
)
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


@kernel
def binned_scores(hist, records, tops, active, totals, min_leaf, mdl):
    """Per node: J48's best cut between the occupied bins of a binned numeric attribute whose
    (node, bin, class) weights are ``hist`` and (node, bin) record counts ``records`` (the last
    bin: missing); as ``c45_binned`` returns it."""
    n_nodes, n_bins, C = hist.shape[0], hist.shape[1] - 1, hist.shape[2]
    found, best_lower, best_upper, best_gains, ratios = cut_outputs(n_nodes)
    scan = scan_buffers(C)
    best = np.zeros(4)
    for k in range(n_nodes):
        if not active[k]:
            continue
        scan.known[:] = 0.0
        for b in range(n_bins):
            for c in range(C):
                scan.known[c] += hist[k, b, c]
        kw, old = start_scan(scan)
        n_known = 0
        for b in range(n_bins):
            n_known += records[k, b]
        ms = min_split_of(kw, C, min_leaf)
        if 2 * ms - n_known > SMALL or n_known < 2:
            continue
        best[:] = 0.0
        previous = np.nan
        for b in range(n_bins):
            if records[k, b] == 0:
                continue
            value = tops[b]
            if not np.isnan(previous) and previous + 1e-5 < value:
                bin_terms(scan)
                if try_cut(previous, value, scan, kw, ms, totals[k], old, best):
                    found[k] = True
            for c in range(C):
                scan.left[c] += hist[k, b, c]
            previous = value
        if found[k]:
            found[k], best_gains[k], ratios[k] = finish_cut(best, totals[k], mdl, scan)
            best_lower[k], best_upper[k] = best[1], best[2]
    return found, best_lower, best_upper, best_gains, ratios

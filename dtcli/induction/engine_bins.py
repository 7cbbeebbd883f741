"""C4.5's cut search on binned numeric attributes (``--max-bins``; numba, part of ``engine_kernels``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from dtcli.induction.engine_c45 import SMALL, c45_ratio, xlog2x


@njit(cache=True, nogil=True)
def c45_binned(codes, tops, rec_row, rec_y, rec_w, rec_node, active, totals, n_classes, min_leaf, mdl):
    """``c45_numeric`` on a binned attribute (``--max-bins``): each node's class weights per bin
    (``codes`` by row, -1 missing; ``tops`` the bins' largest values) from one pass over its
    records, then the cuts between its occupied bins in order. Returns per node: found, the
    lower and upper bins' largest values, gain after the MDL penalty, and gain ratio."""
    n_nodes = active.shape[0]
    n_bins = tops.shape[0]
    C = n_classes
    found = np.zeros(n_nodes, dtype=np.bool_)
    best_lower = np.zeros(n_nodes)
    best_upper = np.zeros(n_nodes)
    best_gains = np.zeros(n_nodes)
    ratios = np.zeros(n_nodes)
    hist = np.zeros((n_bins, C))
    rows_in = np.zeros(n_bins, dtype=np.int64)
    occupied = np.empty(n_bins, dtype=np.int64)
    known = np.zeros(C)
    left = np.zeros(C)
    best_left = np.zeros(C)
    branches = np.zeros((2, C))
    n = rec_row.shape[0]
    start = 0
    while start < n:
        k = rec_node[start]
        end = start
        while end < n and rec_node[end] == k:
            end += 1
        block = start
        start = end
        if not active[k]:
            continue
        n_occupied = 0
        n_known = 0
        for r in range(block, end):
            b = codes[rec_row[r]]
            if b < 0:
                continue
            if rows_in[b] == 0:
                occupied[n_occupied] = b
                n_occupied += 1
            rows_in[b] += 1
            hist[b, rec_y[r]] += rec_w[r]
            n_known += 1
        bins = np.sort(occupied[:n_occupied])
        known[:] = 0.0
        for j in range(n_occupied):
            for c in range(C):
                known[c] += hist[bins[j], c]
        kw = 0.0
        for c in range(C):
            kw += known[c]
        ms = 0.1 * kw / C
        if ms - min_leaf < SMALL:
            ms = min_leaf
        elif ms - 25.0 > SMALL:
            ms = 25.0
        if not (2 * ms - n_known > SMALL or n_known < 2):
            acc = 0.0
            for c in range(C):
                acc += xlog2x(known[c])
                left[c] = 0.0
            old = xlog2x(kw) - acc
            total = totals[k]
            best_gain = 0.0
            lower = upper = 0.0
            candidates = 0
            previous = np.nan
            for j in range(n_occupied):
                b = bins[j]
                value = tops[b]
                if not np.isnan(previous) and previous + 1e-5 < value:
                    wl = 0.0
                    for c in range(C):
                        wl += left[c]
                    wr = kw - wl
                    if ms - wl < SMALL and ms - wr < SMALL:
                        acc = 0.0
                        for c in range(C):
                            acc += xlog2x(left[c])
                        acc -= xlog2x(wl)
                        for c in range(C):
                            acc += xlog2x(known[c] - left[c])
                        acc -= xlog2x(wr)
                        numerator = (kw / total) * (old + acc)
                        gain = 0.0 if abs(numerator) < SMALL else numerator / kw
                        if gain - best_gain > SMALL:
                            best_gain, lower, upper = gain, previous, value
                            found[k] = True
                            for c in range(C):
                                best_left[c] = left[c]
                        candidates += 1
                for c in range(C):
                    left[c] += hist[b, c]
                previous = value
            if found[k]:
                if mdl:
                    best_gain -= np.log2(candidates) / total
                if best_gain < SMALL:
                    found[k] = False
                else:
                    best_lower[k], best_upper[k], best_gains[k] = lower, upper, best_gain
                    for c in range(C):
                        branches[0, c] = best_left[c]
                        branches[1, c] = known[c] - best_left[c]
                    ratios[k] = c45_ratio(branches, total, best_gain)
        for j in range(n_occupied):
            b = occupied[j]
            rows_in[b] = 0
            for c in range(C):
                hist[b, c] = 0.0
    return found, best_lower, best_upper, best_gains, ratios

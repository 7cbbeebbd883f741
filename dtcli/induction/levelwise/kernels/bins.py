"""C4.5's cut search on binned numeric attributes (``--max-bins``; numba, part of ``engine_kernels``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from dtcli.induction.criteria.constants import SMALL
from dtcli.induction.levelwise.kernels.c45 import (
    admissible_gain,
    block_end,
    finish_cut,
    min_split_of,
    move_left,
    start_scan,
)


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
    xl = np.zeros(C)
    xr = np.zeros(C)
    best_left = np.zeros(C)
    branches = np.zeros((2, C))
    start = 0
    while start < rec_row.shape[0]:
        k = rec_node[start]
        block, start = start, block_end(rec_node, start)
        if not active[k]:
            continue
        n_occupied = 0
        n_known = 0
        for r in range(block, start):
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
        kw, old = start_scan(known, left, xl, xr)
        ms = min_split_of(kw, C, min_leaf)
        if not (2 * ms - n_known > SMALL or n_known < 2):
            best_gain = 0.0
            lower = upper = 0.0
            candidates = 0
            previous = np.nan
            for j in range(n_occupied):
                b = bins[j]
                value = tops[b]
                if not np.isnan(previous) and previous + 1e-5 < value:
                    admissible, gain = admissible_gain(left, xl, xr, kw, ms, totals[k], old)
                    if admissible:
                        if gain - best_gain > SMALL:
                            best_gain, lower, upper = gain, previous, value
                            found[k] = True
                            best_left[:] = left
                        candidates += 1
                for c in range(C):
                    move_left(c, hist[b, c], left, known, xl, xr)
                previous = value
            if found[k]:
                found[k], best_gains[k], ratios[k] = finish_cut(
                    best_gain, candidates, totals[k], mdl, best_left, known, branches
                )
                best_lower[k], best_upper[k] = lower, upper
        for j in range(n_occupied):
            b = occupied[j]
            rows_in[b] = 0
            for c in range(C):
                hist[b, c] = 0.0
    return found, best_lower, best_upper, best_gains, ratios

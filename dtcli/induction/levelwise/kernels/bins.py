"""C4.5's cut search on binned numeric attributes (``--max-bins``; numba, gathered by ``loops.py``)."""

from __future__ import annotations

import numpy as np

from dtcli.induction.criteria.constants import SMALL
from dtcli.induction.kernels.jit import kernel
from dtcli.induction.levelwise.kernels.c45 import (
    block_end,
    cut_outputs,
    finish_cut,
    min_split_of,
    move_left,
    scan_buffers,
    start_scan,
    try_cut,
)


@kernel
def c45_binned(codes, tops, recs, front, mdl):
    """``c45_numeric`` on a binned attribute (``--max-bins``): each node's class weights per bin
    (``codes`` by row, -1 missing; ``tops`` the bins' largest values) from one pass over its
    records, then the cuts between its occupied bins in order. Returns per node: found, the
    lower and upper bins' largest values, gain after the MDL penalty, and gain ratio."""
    n_nodes = front.active.shape[0]
    n_bins = tops.shape[0]
    C = front.n_classes
    found, best_lower, best_upper, best_gains, ratios = cut_outputs(n_nodes)
    hist = np.zeros((n_bins, C))
    rows_in = np.zeros(n_bins, dtype=np.int64)
    occupied = np.empty(n_bins, dtype=np.int64)
    scan = scan_buffers(C)
    best = np.zeros(4)
    start = 0
    while start < recs.row.shape[0]:
        k = recs.node[start]
        block, start = start, block_end(recs.node, start)
        if not front.active[k]:
            continue
        n_occupied = 0
        n_known = 0
        for r in range(block, start):
            b = codes[recs.row[r]]
            if b < 0:
                continue
            if rows_in[b] == 0:
                occupied[n_occupied] = b
                n_occupied += 1
            rows_in[b] += 1
            hist[b, recs.y[r]] += recs.w[r]
            n_known += 1
        bins = np.sort(occupied[:n_occupied])
        scan.known[:] = 0.0
        for j in range(n_occupied):
            for c in range(C):
                scan.known[c] += hist[bins[j], c]
        kw, old = start_scan(scan)
        ms = min_split_of(kw, C, front.min_leaf)
        if not (2 * ms - n_known > SMALL or n_known < 2):
            best[:] = 0.0
            previous = np.nan
            for j in range(n_occupied):
                b = bins[j]
                value = tops[b]
                if not np.isnan(previous) and previous + 1e-5 < value:
                    if try_cut(previous, value, scan, kw, ms, front.totals[k], old, best):
                        found[k] = True
                for c in range(C):
                    move_left(c, hist[b, c], scan)
                previous = value
            if found[k]:
                found[k], best_gains[k], ratios[k] = finish_cut(best, front.totals[k], mdl, scan)
                best_lower[k], best_upper[k] = best[1], best[2]
        for j in range(n_occupied):
            b = occupied[j]
            rows_in[b] = 0
            for c in range(C):
                hist[b, c] = 0.0
    return found, best_lower, best_upper, best_gains, ratios

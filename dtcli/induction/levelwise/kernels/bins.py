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
    scan_buffers,
    start_scan,
    try_cut,
    xlog2x,
)


@kernel
def c45_binned(codes, tops, recs, front, mdl):
    """``c45_numeric`` on a binned attribute (``--max-bins``): each node's records are put in bin
    order by one counting pass (ties, a bin's records, in record order: row order, as the sorted
    lists hold them), then the cuts between its occupied bins are scanned with the weights added
    one record at a time, in the order and with the sums of ``c45_numeric`` on the binned values
    (the reference grows exactly that tree: ``search/bins.py``), so the scores agree to the last bit.
    (``codes`` by row, -1 missing; ``tops`` the bins' largest values.) Returns per node: found, the
    lower and upper bins' largest values, gain after the MDL penalty, and gain ratio."""
    n_nodes = front.active.shape[0]
    n_bins = tops.shape[0]
    C = front.n_classes
    found, best_lower, best_upper, best_gains, ratios = cut_outputs(n_nodes)
    rows_in = np.zeros(n_bins, dtype=np.int64)  # records by bin, then where each bin's records go
    occupied = np.empty(n_bins, dtype=np.int64)
    order = np.empty(recs.row.shape[0], dtype=np.int64)  # a node's known records in bin order
    scan = scan_buffers(C)
    best = np.zeros(4)
    start = 0
    while start < recs.row.shape[0]:
        k = recs.node[start]
        block, start = start, block_end(recs.node, start)
        if not front.active[k]:
            continue
        n_occupied = _count(codes, recs, block, start, rows_in, occupied)
        bins = np.sort(occupied[:n_occupied])
        n_known = _place(codes, recs, block, start, rows_in, bins, order)
        scan.known[:] = 0.0
        for j in range(n_known):
            e = order[j]
            scan.known[recs.y[e]] += recs.w[e]
        kw, old = start_scan(scan)
        ms = min_split_of(kw, C, front.min_leaf)
        if not (2 * ms - n_known > SMALL or n_known < 2):
            best[:] = 0.0
            previous = np.nan
            for j in range(n_known):
                e = order[j]
                value = tops[codes[recs.row[e]]]
                if not np.isnan(previous) and previous + 1e-5 < value:
                    bin_terms(scan)
                    if try_cut(previous, value, scan, kw, ms, front.totals[k], old, best):
                        found[k] = True
                scan.left[recs.y[e]] += recs.w[e]  # (the entropy terms only where a cut may fall)
                previous = value
            if found[k]:
                found[k], best_gains[k], ratios[k] = finish_cut(best, front.totals[k], mdl, scan)
                best_lower[k], best_upper[k] = best[1], best[2]
        for j in range(n_occupied):
            rows_in[occupied[j]] = 0
    return found, best_lower, best_upper, best_gains, ratios


@kernel
def bin_terms(scan):
    """The entropy terms of both sides for the running left side, made only at a bin's end (every
    class: ``c45.fresh_terms`` remakes only the classes that moved)."""
    for c in range(scan.left.shape[0]):
        scan.xl[c] = xlog2x(scan.left[c])
        scan.xr[c] = xlog2x(scan.known[c] - scan.left[c])


@kernel
def _count(codes, recs, block, end, rows_in, occupied):
    """The known records of ``block:end`` counted by bin (``rows_in``); the bins met, in the order
    met, in ``occupied``; returns how many bins."""
    n_occupied = 0
    for r in range(block, end):
        b = codes[recs.row[r]]
        if b < 0:
            continue
        if rows_in[b] == 0:
            occupied[n_occupied] = b
            n_occupied += 1
        rows_in[b] += 1
    return n_occupied


@kernel
def _place(codes, recs, block, end, rows_in, bins, order):
    """The known records of ``block:end`` into ``order`` by bin (``bins`` ascending), each bin's in
    record order (a stable counting sort: ``rows_in`` becomes each bin's next place); returns how many."""
    at = 0
    for j in range(bins.shape[0]):
        b = bins[j]
        n = rows_in[b]
        rows_in[b] = at
        at += n
    for r in range(block, end):
        b = codes[recs.row[r]]
        if b >= 0:
            order[rows_in[b]] = r
            rows_in[b] += 1
    return at

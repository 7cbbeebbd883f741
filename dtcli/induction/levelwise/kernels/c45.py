"""C4.5's split scores for every frontier node at once (numba; gathered by ``levelwise/kernels/loops.py``).

Written exactly as the per-node reference (``numeric.c45_cut``,
``c45.c45_gain``, ``c45.c45_gain_ratio``, ``c45.c45_choose``) computes them,
in the same order, so both paths choose the same splits.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.criteria.constants import ENTROPY, SMALL
from dtcli.induction.kernels.arrays import copy_into
from dtcli.induction.kernels.jit import kernel
from dtcli.induction.levelwise.kernels.state import Scan


@kernel
def xlog2x(x):
    if x < 1e-6:
        return 0.0
    return x * np.log(x) / np.log(2.0)


@kernel
def branch_size(counts, b):
    """The weight of branch ``b`` of a (branches, classes) distribution, summed class by class."""
    size = 0.0
    for c in range(counts.shape[1]):
        size += counts[b, c]
    return size


@kernel
def c45_gain(counts, total):
    """J48's gain of a (branches, classes) distribution; as ``c45.c45_gain``, in Weka's order."""
    n_branches, n_classes = counts.shape
    known = 0.0
    for b in range(n_branches):
        known += branch_size(counts, b)
    if known <= 0:
        return 0.0
    acc = 0.0
    for c in range(n_classes):
        column = 0.0
        for b in range(n_branches):
            column += counts[b, c]
        acc += xlog2x(column)
    old = xlog2x(known) - acc
    acc = 0.0
    for b in range(n_branches):
        size = 0.0
        for c in range(n_classes):
            size += counts[b, c]
            acc += xlog2x(counts[b, c])
        acc -= xlog2x(size)
    numerator = (known / total) * (old + acc)
    if abs(numerator) < SMALL:
        return 0.0
    return numerator / known


@kernel
def c45_ratio(counts, total, gain):
    """Gain over split information (unknown cases as one more branch); as ``c45.c45_gain_ratio``."""
    known = 0.0
    split = 0.0
    for b in range(counts.shape[0]):
        size = branch_size(counts, b)
        known += size
        split -= xlog2x(size)
    if not known > SMALL:
        return 0.0
    split = split - xlog2x(total - known) + xlog2x(total)
    if abs(split) < SMALL:
        return 0.0
    return gain / (split / total)


@kernel
def block_end(nodes, start):
    """End of the block of consecutive entries (records grouped by node) that starts at ``start``."""
    end = start
    while end < nodes.shape[0] and nodes[end] == nodes[start]:
        end += 1
    return end


@kernel
def value_counts(codes, recs, block, end, counts):
    """A node's (value, class) weights over its records ``block..end`` (missing codes skipped)."""
    counts[:, :] = 0.0
    for r in range(block, end):
        v = codes[recs.row[r]]
        if v >= 0:
            counts[v, recs.y[r]] += recs.w[r]


@kernel
def min_split_of(known_weight, n_classes, min_leaf):
    """Cases each side of a cut must hold: ``min(25, max(m, 0.1 known / classes))`` (C4.5 R8)."""
    ms = 0.1 * known_weight / n_classes
    if ms - min_leaf < SMALL:
        return min_leaf
    if ms - 25.0 > SMALL:
        return 25.0
    return ms


@kernel
def scan_buffers(n_classes):
    """Fresh per-class buffers of a cut scan."""
    C = n_classes
    return Scan(np.zeros(C), np.zeros(C), np.zeros(C), np.zeros(C), np.zeros(C), np.zeros((2, C)))


@kernel
def cut_outputs(n_nodes):
    """Per node: found, lower and upper value of the cut, gain, and gain ratio (or score)."""
    return (
        np.zeros(n_nodes, dtype=np.bool_),
        np.zeros(n_nodes),
        np.zeros(n_nodes),
        np.zeros(n_nodes),
        np.zeros(n_nodes),
    )


@kernel
def start_scan(scan):
    """Reset the running left side; returns the known weight and the entropy term of the node."""
    known = scan.known
    kw = 0.0
    for c in range(known.shape[0]):
        kw += known[c]
    acc = 0.0
    for c in range(known.shape[0]):
        acc += xlog2x(known[c])
        scan.xr[c] = xlog2x(known[c])
        scan.left[c] = 0.0
        scan.xl[c] = 0.0
    return kw, xlog2x(kw) - acc


@kernel(inline="always")
def fresh_terms(scan, stale):
    """The entropy terms ``xlog2x`` of both sides brought up to date for the classes whose left
    weight changed since the last cut (``stale``): made only where a cut may fall, from the same sums."""
    for c in range(stale.shape[0]):
        if stale[c]:
            scan.xl[c] = xlog2x(scan.left[c])
            scan.xr[c] = xlog2x(scan.known[c] - scan.left[c])
            stale[c] = False


@kernel
def cut_gain(xl, xr, wl, wr, kw, total, old):
    """J48's gain of a cut (``numeric.c45_gains``): known share x (old - new entropy terms)."""
    acc = 0.0
    for c in range(xl.shape[0]):
        acc += xl[c]
    acc -= xlog2x(wl)
    for c in range(xr.shape[0]):
        acc += xr[c]
    acc -= xlog2x(wr)
    numerator = (kw / total) * (old + acc)
    return 0.0 if abs(numerator) < SMALL else numerator / kw


@kernel(inline="always")
def try_cut(previous, value, scan, kw, ms, total, old, best):
    """The cut between ``previous`` and ``value`` (the caller checks that they are more than 1e-5
    apart), when it leaves ``ms`` cases each side: counted in ``best`` (gain, lower, upper,
    candidates), and kept there (with its left side in ``scan.best_left``) if its gain beats the
    best by more than 1e-6. Returns whether it was kept."""
    wl = 0.0
    for c in range(scan.left.shape[0]):
        wl += scan.left[c]
    wr = kw - wl
    if not (ms - wl < SMALL and ms - wr < SMALL):
        return False
    gain = cut_gain(scan.xl, scan.xr, wl, wr, kw, total, old)
    best[3] += 1
    if gain - best[0] > SMALL:
        best[0], best[1], best[2] = gain, previous, value
        copy_into(scan.best_left, scan.left)
        return True
    return False


@kernel
def finish_cut(best, total, mdl, scan):
    """The MDL penalty and the gain ratio of a node's best cut: (still a cut, gain, ratio)."""
    best_gain = best[0]
    if mdl:
        best_gain -= np.log2(best[3]) / total
    if best_gain < SMALL:
        return False, best_gain, 0.0
    for c in range(scan.known.shape[0]):
        scan.branches[0, c] = scan.best_left[c]
        scan.branches[1, c] = scan.known[c] - scan.best_left[c]
    return True, best_gain, c45_ratio(scan.branches, total, best_gain)


@kernel
def c45_numeric(lst, recs, distinct, front, mdl):
    """J48's best cut on one numeric attribute for every active node, in one pass per attribute.

    ``lst``: the attribute's ``SortedList`` (values are ranks into
    ``distinct``; node ``k``'s records from ``starts[k]`` to ``starts[k + 1]``,
    sorted by value, ties in row order; each entry's class and weight are its record's in
    ``recs``). Returns per node: found, lower and
    upper value of the cut, gain after the MDL penalty, and gain ratio.
    """
    n_nodes = front.active.shape[0]
    found, best_lower, best_upper, best_gains, ratios = cut_outputs(n_nodes)
    scan = scan_buffers(front.n_classes)
    stale = np.zeros(front.n_classes, dtype=np.bool_)
    best = np.zeros(4)
    for k in range(n_nodes):
        block, start = lst.starts[k], lst.starts[k + 1]
        if not front.active[k] or start == block:
            continue
        scan.known[:] = 0.0
        for r in range(block, start):
            e = lst.rec[r]
            scan.known[recs.y[e]] += recs.w[e]
        n_known = start - block
        kw, old = start_scan(scan)
        ms = min_split_of(kw, front.n_classes, front.min_leaf)
        if 2 * ms - n_known > SMALL or n_known < 2:
            continue
        best[:] = 0.0
        previous = np.nan
        stale[:] = False
        for r in range(block, start):
            value = distinct[lst.values[r]]
            if not np.isnan(previous) and previous + 1e-5 < value:
                fresh_terms(scan, stale)
                if try_cut(previous, value, scan, kw, ms, front.totals[k], old, best):
                    found[k] = True
            e = lst.rec[r]
            c = recs.y[e]
            scan.left[c] += recs.w[e]  # (its entropy terms at the next cut: ``fresh_terms``)
            stale[c] = True
            previous = value
        if found[k]:
            found[k], best_gains[k], ratios[k] = finish_cut(best, front.totals[k], mdl, scan)
            best_lower[k], best_upper[k] = best[1], best[2]
    return found, best_lower, best_upper, best_gains, ratios


@kernel
def c45_select(found, gains, ratios, counted, criterion):
    """J48's choice per node among the attributes' candidates: criterion ``RATIO`` = gain ratio over the
    attributes with at least average gain (``counted`` marks those in the average), ``ENTROPY`` = gain.
    Returns the attribute (-1: none) and its score."""
    n_nodes, n_attributes = found.shape
    best = np.full(n_nodes, -1, dtype=np.int64)
    scores = np.zeros(n_nodes)
    for k in range(n_nodes):
        if criterion == ENTROPY:
            top = 0.0
            for a in range(n_attributes):
                if found[k, a] and gains[k, a] - top > SMALL:
                    best[k], top = a, gains[k, a]
            scores[k] = top
            continue
        total, n = 0.0, 0
        for a in range(n_attributes):
            if found[k, a] and counted[a]:
                total += gains[k, a]
                n += 1
        if n == 0:
            continue
        average = total / n
        top = 0.0
        for a in range(n_attributes):
            if found[k, a] and gains[k, a] >= average - 1e-3 and ratios[k, a] - top > SMALL:
                best[k], top = a, ratios[k, a]
        scores[k] = top
    return best, scores

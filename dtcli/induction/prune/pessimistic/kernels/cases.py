"""The training cases at a node of the compiled pessimistic pruning: class weights, J48's split, split in place.

A node's cases are row numbers, ascending, with their weights. ``split``
makes new arrays for the branches' cases (a case with a missing value goes
down every branch, its weight times the branch's share). ``place`` does the
same, and when one branch takes most of the cases and none is missing, does
it without new arrays: it reorders the node's range so that each branch's
cases are one run (ascending, as ``split`` would list them), and ``gather``
puts the range back in order once the branches are done. A walk down a
10,000-level chain then holds one array of cases, not one a level (which
grew with the square of the depth: 1 GB for 10,002 rows).
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.criteria.constants import SMALL
from dtcli.induction.kernels.jit import kernel


@kernel
def class_counts(rows, ws, y, n_classes):
    counts = np.zeros(n_classes)
    for i in range(rows.shape[0]):
        counts[y[rows[i]]] += ws[i]
    return counts


@kernel
def branches(node, rows, lo, hi, t, d):
    """The branch each of ``rows[lo:hi]`` takes at ``node`` (-1: its value is missing); one call a
    node (a call a row, passing the named structures, cost fifty times the work)."""
    a = t.attr[node]
    out = np.empty(hi - lo, dtype=np.int32)
    if d.is_nominal[a]:
        column = d.nominal[d.slot[a]]
        for i in range(hi - lo):
            out[i] = column[rows[lo + i]]
    else:
        values, threshold = d.numeric[d.slot[a]], t.thr[node]
        for i in range(hi - lo):
            v = values[rows[lo + i]]
            out[i] = -1 if np.isnan(v) else (0 if v <= threshold else 1)
    return out


@kernel
def split(node, rows, ws, t, d):
    """J48's split of a node's cases: the class distribution per branch (cases with a missing
    value spread by the known shares) and each branch's cases, concatenated (``offsets``)."""
    nb = t.nb[node]
    n_classes, y = d.n_classes, d.y
    n = rows.shape[0]
    branch = branches(node, rows, 0, n, t, d)
    sizes = np.zeros(nb)
    bags = np.zeros((nb, n_classes))
    unknown = np.zeros(n_classes)
    known = np.zeros(nb + 1, dtype=np.int64)  # cases of each branch, then where each branch's start
    missing = 0
    for i in range(n):
        r = rows[i]
        b = branch[i]
        if b >= 0:
            sizes[b] += ws[i]
            bags[b, y[r]] += ws[i]
            known[b + 1] += 1
        else:
            unknown[y[r]] += ws[i]
            missing += 1
    total = 0.0
    for b in range(nb):
        total += sizes[b]
    if missing:
        for b in range(nb):
            share = sizes[b] / total if not (total == 0.0 or abs(total) < SMALL) else 1.0 / nb
            for c in range(n_classes):
                bags[b, c] += share * unknown[c]
    shares = np.empty(nb)
    btotal = 0.0
    for b in range(nb):
        size = 0.0
        for c in range(n_classes):
            size += bags[b, c]
        shares[b] = size
        btotal += size
    for b in range(nb):
        shares[b] = shares[b] / btotal if not (btotal == 0.0 or abs(btotal) < SMALL) else 1.0 / nb
    offsets = np.zeros(nb + 1, dtype=np.int64)
    for b in range(nb):
        offsets[b + 1] = offsets[b] + known[b + 1] + (missing if shares[b] > SMALL else 0)
        known[b + 1] += known[b]
    ordered = np.empty(n, dtype=np.int32)  # case positions by branch (known ones), then the missing ones
    at = known[:nb].copy()
    gone = n - missing
    for i in range(n):
        if branch[i] >= 0:
            ordered[at[branch[i]]] = i
            at[branch[i]] += 1
        else:
            ordered[gone] = i
            gone += 1
    out_rows = np.empty(offsets[nb], dtype=rows.dtype)
    out_ws = np.empty(offsets[nb])
    for b in range(nb):  # the branch's known cases and (if its share counts) the missing ones, in case order
        j, k, m = offsets[b], known[b], n - missing
        with_missing = shares[b] > SMALL
        while k < known[b + 1] or (with_missing and m < n):
            take_known = k < known[b + 1] and (not with_missing or m >= n or ordered[k] < ordered[m])
            if take_known:
                i = ordered[k]
                out_rows[j], out_ws[j] = rows[i], ws[i]
                k += 1
            else:
                i = ordered[m]
                out_rows[j], out_ws[j] = rows[i], ws[i] * shares[b]
                if d.scale > 0.0:
                    out_ws[j] = np.rint(out_ws[j] * d.scale) / d.scale
                m += 1
            j += 1
    return bags, out_rows, out_ws, offsets


@kernel
def place(node, rows, ws, lo, hi, t, d, owned):
    """``split`` of the node whose cases are ``rows[lo:hi]``: the split distribution, the arrays
    that hold the branches' cases, the runs' bounds in them, and whether that was done in place.
    In place (``rows``/``ws`` themselves reordered, to be put back by ``gather``) when the arrays
    are ``owned`` by the walk, no case has a missing value and one branch takes more than half
    the cases; else in new arrays. New arrays along a path then add up to twice the cases at most."""
    nb = t.nb[node]
    n = hi - lo
    branch = branches(node, rows, lo, hi, t, d)
    bounds = np.zeros(nb + 1, dtype=np.int64)
    for i in range(n):
        if branch[i] < 0:
            bags, parts, part_ws, offsets = split(node, rows[lo:hi], ws[lo:hi], t, d)
            return bags, parts, part_ws, offsets, False
        bounds[branch[i] + 1] += 1
    bags = np.zeros((nb, d.n_classes))
    for i in range(n):  # the sums split makes, in the same order
        bags[branch[i], d.y[rows[lo + i]]] += ws[lo + i]
    largest = 0
    for b in range(nb):
        largest = max(largest, bounds[b + 1])
        bounds[b + 1] += bounds[b]
    in_place = owned and 2 * largest > n
    if in_place:
        source, source_ws = rows[lo:hi].copy(), ws[lo:hi].copy()
        out, out_ws = rows, ws
        bounds += lo
    else:
        source, source_ws = rows[lo:hi], ws[lo:hi]
        out, out_ws = np.empty(n, dtype=rows.dtype), np.empty(n)
    at = bounds[:nb].copy()
    for i in range(n):  # each branch's cases in their order, as split lists them
        b = branch[i]
        out[at[b]], out_ws[at[b]] = source[i], source_ws[i]
        at[b] += 1
    return bags, out, out_ws, bounds, in_place


@kernel
def gather(rows, ws, bounds, nb):
    """Undo ``place``: the runs ``bounds[b]:bounds[b + 1]`` merged back into one ascending run
    (the node's cases were ascending row numbers, each once)."""
    lo, hi = bounds[0], bounds[nb]
    if nb <= 1 or hi - lo <= 1:
        return
    held_rows, held_ws = rows[lo:hi].copy(), ws[lo:hi].copy()
    if nb > 8:  # many runs: sort (each row number is there once)
        order = np.argsort(held_rows)
        for i in range(hi - lo):
            rows[lo + i], ws[lo + i] = held_rows[order[i]], held_ws[order[i]]
        return
    at = bounds[:nb].copy() - lo
    ends = bounds[1:].copy() - lo
    for j in range(lo, hi):  # the smallest head of the runs, each step
        best = -1
        for b in range(nb):
            if at[b] < ends[b] and (best < 0 or held_rows[at[b]] < held_rows[at[best]]):
                best = b
        rows[j], ws[j] = held_rows[at[best]], held_ws[at[best]]
        at[best] += 1

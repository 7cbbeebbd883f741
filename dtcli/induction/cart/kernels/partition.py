"""A compiled CART node split in two (numba): rows routed, rows and list segments partitioned.

Its rows are routed, and its rows and list segments partitioned stably (SPRINT) for its
children, or sent down both branches with fractional cases (``fraction.py``). Shared by the
classification (``grow.py``) and regression (``regress.py``) builders; ``build`` is their
``state.Build``."""

from __future__ import annotations

import numpy as np

from dtcli.induction.cart.kernels.fraction import branch_of, fits, n_missing, split_fraction, to_top
from dtcli.induction.cart.kernels.tree import record, test_of
from dtcli.induction.kernels.jit import kernel


@kernel(inline="always")  # no structures passed per call
def route_rows(build, rs, re, best):
    """Each of the node's rows' side (0 left, 1 right) in ``build.side`` (by row), as
    ``branch_sides`` finds them. Returns how many go left."""
    best_a, best_thr, _, best_member = best
    sides = np.empty(re - rs, dtype=np.int8)
    n_left = branch_sides(build, rs, re, best_a, best_member, best_thr, sides)
    for i in range(rs, re):
        build.side[build.arena.rows[i]] = sides[i - rs]
    return n_left


@kernel
def branch_sides(build, rs, re, a, member, thr, sides):
    """The side (0 left, 1 right) of each of the node's entries ``rs:re`` at the test on attribute
    ``a``, in ``sides`` by position; a missing value goes down the branch with more known weight
    (the left on a tie). Returns how many go left."""
    arena = build.arena
    sizes0 = 0.0
    sizes1 = 0.0
    for i in range(rs, re):
        b = branch_of(i, arena, build.columns, a, member, thr)
        sides[i - rs] = b
        wt = arena.weights[i]  # (adding 0.0 leaves a sum of weights as it is: no branch)
        sizes0 += wt if b == 0 else 0.0
        sizes1 += wt if b == 1 else 0.0
    heavier = 0 if sizes0 >= sizes1 else 1
    n_left = 0
    for j in range(re - rs):
        b = sides[j]
        b = heavier if b < 0 else b
        sides[j] = b
        n_left += b == 0
    return n_left


@kernel(inline="always")  # no structures passed per call
def partition_list(build, s, start, end, base):
    """Stable partition of list ``s``'s segment (rows, with their value ranks, targets and
    weights) by the rows' side, in one pass: the left entries move up in place, the right ones
    wait in the scratch buffers from ``base``, the start of the node's rows (its rows' positions
    are its own in every list's scratch, so that nodes split side by side share the buffers:
    ``speculate.py``). Returns the number of left entries."""
    arena, scratch, side, unit = build.arena, build.scratch, build.side, build.unit
    items, lv, ly, lw = arena.lists[s], arena.ranks[s], arena.list_targets[s], arena.list_weights[s]
    tmp, tmp_v, tmp_y, tmp_w = scratch.lists[0], scratch.ranks[0], scratch.list_targets[0], scratch.list_weights[0]
    k = start
    m = base
    for i in range(start, end):
        it = items[i]
        if side[it] == 0:
            items[k], lv[k], ly[k] = it, lv[i], ly[i]
            if not unit:
                lw[k] = lw[i]
            k += 1
        else:
            tmp[m], tmp_v[m], tmp_y[m] = it, lv[i], ly[i]
            if not unit:
                tmp_w[m] = lw[i]
            m += 1
    for j in range(m - base):
        items[k + j], lv[k + j], ly[k + j] = tmp[base + j], tmp_v[base + j], tmp_y[base + j]
        if not unit:
            lw[k + j] = tmp_w[base + j]
    return k - start


@kernel(inline="always")  # no structures passed per call
def partition_rows(build, start, end):
    """Stable partition of the node's rows (with their nominal codes, targets and weights unless
    every weight is 1) by their side; each code column is moved on its own, reading memory in order."""
    arena, scratch, side = build.arena, build.scratch, build.side
    n = end - start
    left = np.empty(n, dtype=np.bool_)
    n_left = 0
    for i in range(start, end):
        left[i - start] = side[arena.rows[i]] == 0
        if left[i - start]:
            n_left += 1
    _move(arena.rows, left, start, end, n_left, scratch.rows)
    _move(arena.targets, left, start, end, n_left, scratch.targets)
    if not build.unit:
        _move(arena.weights, left, start, end, n_left, scratch.weights)
    for j in range(arena.codes.shape[0]):
        _move(arena.codes[j], left, start, end, n_left, scratch.codes[0])


@kernel
def _move(column, left, start, end, n_left, tmp):
    k = start
    m = start + n_left
    for i in range(start, end):  # the slot chosen without a branch
        to_left = np.int64(left[i - start])
        tmp[k if to_left else m] = column[i]
        k += to_left
        m += 1 - to_left
    for i in range(start, end):
        column[i] = tmp[i]


@kernel
def _halves(n_lists, fitted):
    """Each child's row start and end and list starts and ends, to fill: (fits, lo, hi, list_lo, list_hi)."""
    width = max(n_lists, 1)
    lo, hi = np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64)
    return fitted, lo, hi, np.zeros((2, width), dtype=np.int64), np.zeros((2, width), dtype=np.int64)


@kernel
def split_children(build, node, c0):
    """Split ``node`` (a ``state.Node``) by the test recorded at it, its children in slots ``c0``
    and ``c0 + 1``: route its rows (``route_rows``) and partition its rows and list segments
    stably, or, for fractional cases, ``split_fraction``. Returns (fits, each child's row start
    and end, each child's list starts and ends). With fractional cases the split may not fit the
    room given (``fraction.py``); then nothing is done."""
    best = test_of(build.tree, node.id)
    n_lists = build.arena.lists.shape[0]
    out = _halves(n_lists, True)
    _, lo, hi, list_lo, list_hi = out
    rs, re, ls, le = node.rs, node.re, node.ls, node.le
    if not build.room.fractional:
        record(build.tree, node.id, best)
        build.tree.first_child[node.id] = c0
        n_left = route_rows(build, rs, re, best)
        partition_rows(build, rs, re)
        lo[0], hi[0], lo[1], hi[1] = rs, rs + n_left, rs + n_left, re
        for s in range(n_lists):
            middle = ls[s] + partition_list(build, s, ls[s], le[s], rs)
            list_lo[0, s], list_hi[0, s], list_lo[1, s], list_hi[1, s] = ls[s], middle, middle, le[s]
        return out
    missing = n_missing(build.arena, build.columns, rs, re, best[0])
    tops, room = build.tops, build.room
    if build.best_first:
        if tops.max() + (re - rs) + missing > room.rows:
            return _halves(n_lists, False)
        rs, re, ls, le = to_top(build.arena, tops, rs, re, ls, le)
    if not fits(rs, re, le, n_lists, missing, c0, room):
        return _halves(n_lists, False)
    n_right, n_left, list_right, list_left = split_fraction(build, rs, re, ls, le, node.id, best, c0)
    lo[0], hi[0], lo[1], hi[1] = rs + n_right, rs + n_right + n_left, rs, rs + n_right  # laid out [right][left]
    tops[0] = rs + n_right + n_left
    for s in range(n_lists):
        list_lo[0, s], list_hi[0, s] = ls[s] + list_right[s], ls[s] + list_right[s] + list_left[s]
        list_lo[1, s], list_hi[1, s] = ls[s], ls[s] + list_right[s]
        tops[1 + s] = list_hi[0, s]
    return out

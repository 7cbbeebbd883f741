"""CART's fractional cases (``--missing fractional``) in the compiled builders (numba).

A case whose tested value is missing goes down both branches, its weight
times the branch's share of the known weight (``search/missing.py: partition``): a
node's children hold more entries than the node. The builders keep every
node's rows, and its segment of each sorted list, in arrays used as a
stack: depth first, the node expanded is the last one queued, so its
segments end the used part of every array, and its children may overrun
them. ``split_fraction`` lays the children out as [right][left], the left
child (expanded first) on top. The arrays are sized in advance
(``Room.rows`` entries, ``Room.nodes`` nodes); when a split would need more, the
builder stops and reports it, and the glue (``cart/engine.py``) runs it again with twice the room.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.cart.kernels.tree import record
from dtcli.induction.criteria.constants import SMALL
from dtcli.induction.kernels.arrays import copy_rows
from dtcli.induction.kernels.jit import kernel


@kernel(inline="always")  # no structures passed per call
def branch_of(i, arena, columns, a, member, thr):
    """The branch of the node entry ``i`` at the test (0 left, 1 right, -1 missing value)."""
    if columns.is_nominal[a]:
        code = arena.codes[columns.slot[a], i]
        return -1 if code < 0 else (0 if member[code] else 1)
    v = columns.original[columns.slot[a], arena.rows[i]]
    return -1 if np.isnan(v) else (0 if v <= thr else 1)


@kernel
def n_missing(arena, columns, rs, re, a):
    """How many of the node's rows lack attribute ``a`` (each becomes two entries)."""
    m = 0
    for i in range(rs, re):
        if columns.is_nominal[a]:
            m += arena.codes[columns.slot[a], i] < 0
        else:
            m += np.isnan(columns.original[columns.slot[a], arena.rows[i]])
    return m


@kernel
def _codes(side, items, start, end, send):
    """Each entry's destination (0 left, 1 right, 2 both) and the right and left counts."""
    dest = np.empty(end - start, dtype=np.int8)
    n_right = 0
    n_left = 0
    for i in range(start, end):
        b = side[items[i]]
        d = b if b >= 0 else (2 if send[0] and send[1] else (0 if send[0] else (1 if send[1] else 3)))
        dest[i - start] = d
        n_right += d == 1 or d == 2
        n_left += d == 0 or d == 2
    return dest, n_right, n_left


@kernel
def _lay_out(column, start, dest, n_right, tmp, shares, weighted):
    """Rewrite ``column``'s segment from ``start`` as [right entries][left entries], each in
    order; a weight column (``weighted``) has a duplicated entry's weight times the share."""
    kr = 0
    kl = n_right
    for j in range(dest.shape[0]):
        d = dest[j]
        v = column[start + j]
        if d == 1 or d == 2:
            tmp[kr] = v * shares[1] if weighted and d == 2 else v
            kr += 1
        if d == 0 or d == 2:
            tmp[kl] = v * shares[0] if weighted and d == 2 else v
            kl += 1
    for j in range(kl):
        column[start + j] = tmp[j]


@kernel
def split_fraction(build, rs, re, ls, le, node, best, c0):
    """Record the node's test ``best`` in ``build.tree`` (children in slots ``c0``, ``c0 + 1``), send
    its rows ``rs:re`` and list entries ``ls:le`` down (``search/missing.py: partition``: a missing value to each
    branch whose share exceeds 1e-6) and lay each segment out as [right][left] (``build``: a
    ``state.Build``). Returns the rows' right and left counts and each list's."""
    arena, scratch, side = build.arena, build.scratch, build.side
    best_a, best_thr, _, best_member = best
    record(build.tree, node, best)
    build.tree.first_child[node] = c0
    sizes = np.zeros(2)
    for i in range(rs, re):
        b = branch_of(i, arena, build.columns, best_a, best_member, best_thr)
        side[arena.rows[i]] = b
        if b >= 0:
            sizes[b] += arena.weights[i]
    known = sizes[0] + sizes[1]
    shares = sizes / known if known > 0 else np.full(2, 0.5)
    send = np.array([shares[0] - 0.0 > SMALL, shares[1] - 0.0 > SMALL])
    dest, n_right, n_left = _codes(side, arena.rows, rs, re, send)
    for j in range(arena.codes.shape[0]):
        _lay_out(arena.codes[j], rs, dest, n_right, scratch.codes[0], shares, False)
    _lay_out(arena.targets, rs, dest, n_right, scratch.targets, shares, False)
    _lay_out(arena.weights, rs, dest, n_right, scratch.weights, shares, True)
    _lay_out(arena.rows, rs, dest, n_right, scratch.rows, shares, False)
    list_right = np.zeros(arena.lists.shape[0], dtype=np.int64)
    list_left = np.zeros(arena.lists.shape[0], dtype=np.int64)
    for s in range(arena.lists.shape[0]):
        dest, list_right[s], list_left[s] = _codes(side, arena.lists[s], ls[s], le[s], send)
        _lay_out(arena.ranks[s], ls[s], dest, list_right[s], scratch.ranks[0], shares, False)
        _lay_out(arena.list_targets[s], ls[s], dest, list_right[s], scratch.list_targets[0], shares, False)
        _lay_out(arena.list_weights[s], ls[s], dest, list_right[s], scratch.list_weights[0], shares, True)
        _lay_out(arena.lists[s], ls[s], dest, list_right[s], scratch.lists[0], shares, False)
    return n_right, n_left, list_right, list_left


@kernel
def fits(rs, re, le, n_lists, missing, n_nodes, room):
    """Whether the node's split fits: its children's entries within ``room.rows`` in every array (a
    missing value adds one), two more nodes within ``room.nodes``."""
    end = re
    for s in range(n_lists):
        end = max(end, le[s])
    return end + missing <= room.rows and n_nodes + 2 <= room.nodes


@kernel
def roomy(nominal, lists, ranks, room):
    """Copies of the rows' codes and of the lists (entries, ranks) with ``room`` entries each."""
    rc = np.zeros((nominal.shape[0], room), dtype=nominal.dtype)
    copy_rows(rc, nominal)
    entries = np.zeros((lists.shape[0], room), dtype=lists.dtype)
    copy_rows(entries, lists)
    lv = np.zeros((ranks.shape[0], room), dtype=ranks.dtype)
    copy_rows(lv, ranks)
    return rc, entries, lv


@kernel
def to_top(arena, tops, rs, re, ls, le):
    """Best first the node expanded is anywhere: copy its segments past the used part of each
    array (``tops``: the rows' end, then each list's), where its children may overrun them.
    Returns the node's new row start and end and list starts and ends."""
    rows, rc, ry, rw, lists, lv, ly, lw = arena
    ls, le = ls.copy(), le.copy()
    t = tops[0]
    if t != re:
        for i in range(re - rs):
            rows[t + i], ry[t + i], rw[t + i] = rows[rs + i], ry[rs + i], rw[rs + i]
            for j in range(rc.shape[0]):
                rc[j, t + i] = rc[j, rs + i]
        rs, re = t, t + re - rs
    for s in range(lists.shape[0]):
        t = tops[1 + s]
        if t != le[s]:
            for i in range(le[s] - ls[s]):
                lists[s, t + i], lv[s, t + i] = lists[s, ls[s] + i], lv[s, ls[s] + i]
                ly[s, t + i], lw[s, t + i] = ly[s, ls[s] + i], lw[s, ls[s] + i]
            ls[s], le[s] = t, t + le[s] - ls[s]
    return rs, re, ls, le

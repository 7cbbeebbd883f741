"""Steps the compiled CART builders share (``cart_grow`` for classes, ``cart_regress`` for
numbers): routing and partitioning a node's rows and lists for its two children, recording the
split and queueing the children."""

from __future__ import annotations

import numpy as np
from numba import njit

from dtcli.induction.cart.kernels.chi import heap_pop, heap_push
from dtcli.induction.cart.kernels.fraction import fits, n_missing, split_fraction, to_top
from dtcli.induction.cart.kernels.order import visit
from dtcli.induction.cart.kernels.scan import partition_list, partition_rows


@njit(cache=True, nogil=True)
def route_rows(rows, rc, rw, rs, re, original, is_nominal, slot, best_a, best_member, best_thr, side):
    """Each of the node's rows' side (0 left, 1 right) in ``side`` (by row); a missing value goes
    down the branch with more known weight (the left on a tie). Returns how many go left."""
    sizes0 = 0.0
    sizes1 = 0.0
    for i in range(rs, re):
        r = rows[i]
        if is_nominal[best_a]:
            code = rc[slot[best_a], i]
            b = -1 if code < 0 else (0 if best_member[code] else 1)
        else:
            v = original[slot[best_a], r]
            b = -1 if np.isnan(v) else (0 if v <= best_thr else 1)
        side[r] = b
        if b == 0:
            sizes0 += rw[i]
        elif b == 1:
            sizes1 += rw[i]
    heavier = 0 if sizes0 >= sizes1 else 1
    n_left = 0
    for i in range(rs, re):
        r = rows[i]
        if side[r] < 0:
            side[r] = heavier
        if side[r] == 0:
            n_left += 1
    return n_left


@njit(cache=True, nogil=True)
def new_stack(n, lengths):
    """The stack for ``push_pair`` (room for ``n`` rows' nodes), holding the root: node 0,
    every row, each list whole."""
    width = max(lengths.shape[0], 1)
    stack = (
        np.empty(n + 2, dtype=np.int64),
        np.empty(n + 2, dtype=np.int64),
        np.empty(n + 2, dtype=np.int64),
        np.empty(n + 2, dtype=np.int64),
        np.empty(n + 2, dtype=np.int64),
        np.empty((n + 2, width), dtype=np.int64),
        np.empty((n + 2, width), dtype=np.int64),
    )
    st_id, st_rs, st_re, st_depth, st_const, st_ls, st_le = stack
    st_id[0], st_rs[0], st_re[0], st_depth[0], st_const[0] = 0, 0, n, 0, 0
    for s in range(lengths.shape[0]):
        st_ls[0, s], st_le[0, s] = 0, lengths[s]
    return stack


@njit(cache=True, nogil=True)
def new_frontier(n, lengths, max_leaves):
    """The nodes waiting to be expanded, holding the root (node 0, every row, each list whole):
    depth first a stack (``push_pair``), best first (``max_leaves`` above 0) slots, one a
    push, under a heap on (key, order) as ``heapq`` orders (-weight x gain, order) pairs.
    Returns (stack, heap keys, heap orders, heap slots)."""
    if max_leaves <= 0:
        return new_stack(n, lengths), np.zeros(1), np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
    slots = min(2 * n, 2 * max_leaves)
    stack = new_stack(slots, lengths)
    store(stack, 0, 0, 0, n, 0, 0, np.zeros(lengths.shape[0], dtype=np.int64), lengths)
    return stack, np.zeros(slots + 2), np.zeros(slots + 2, dtype=np.int64), np.zeros(slots + 2, dtype=np.int64)


@njit(cache=True, nogil=True)
def queue(frontier, size, pushed, node, rs, re, depth, n_const, ls, le, key):
    """Best first: put a decided node in the next slot and on the heap. Returns (size, pushed)."""
    stack, keys, orders, slots = frontier
    pushed += 1
    store(stack, pushed, node, rs, re, depth, n_const, ls, le)
    return heap_push(keys, orders, slots, size, key, pushed, pushed), pushed


@njit(cache=True, nogil=True)
def next_node(frontier, best_first, top, size):
    """The next node to expand: its slot, and the stack's top and the heap's size after."""
    if best_first:
        at, size = heap_pop(frontier[1], frontier[2], frontier[3], size)
        return at, top, size
    return top - 1, top - 1, size


@njit(cache=True, nogil=True)
def undo(node, tree):
    """A node decided but never split (best first, out of leaves) is a leaf again."""
    attr, thr, score, member, first_child = tree
    attr[node], thr[node], score[node] = -1, 0.0, np.nan
    member[node, :] = False


@njit(cache=True, nogil=True)
def store(stack, at, node, rs, re, depth, n_const, ls, le):
    """Put a node in slot ``at`` of ``stack`` (the best-first builder's frontier keeps its
    nodes in slots, one a push)."""
    st_id, st_rs, st_re, st_depth, st_const, st_ls, st_le = stack
    st_id[at], st_rs[at], st_re[at], st_depth[at], st_const[at] = node, rs, re, depth, n_const
    for s in range(ls.shape[0]):
        st_ls[at, s], st_le[at, s] = ls[s], le[s]


@njit(cache=True, nogil=True)
def pop_node(stack, top):
    """The node at ``top``: (id, row start, row end, depth, known constants, list starts, ends)."""
    st_id, st_rs, st_re, st_depth, st_const, st_ls, st_le = stack
    return st_id[top], st_rs[top], st_re[top], st_depth[top], st_const[top], st_ls[top].copy(), st_le[top].copy()


@njit(cache=True, nogil=True)
def attribute_order(exact, state, features, constant, n_const, is_nominal, slot, rc, values, rs, re, lists, ls, le):
    """The attributes to score at the node, in scikit-learn's random order (``exact``) or in
    column order, and the count of attributes known to be constant."""
    if exact:
        return visit(state, features, constant, n_const, is_nominal, slot, rc, values, rs, re, lists, ls, le)
    return np.arange(is_nominal.shape[0], dtype=np.int64), n_const


@njit(cache=True, nogil=True)
def split_node(
    rows,
    rc,
    ry,
    rw,
    unit,
    rs,
    re,
    original,
    is_nominal,
    slot,
    best,
    side,
    scratch,
    lists,
    lv,
    ly,
    lw,
    ls,
    le,
    node,
    c0,
    tree,
):
    """Record the node's test ``best`` (attribute, threshold, score, value membership) in ``tree``
    (``tree_arrays``) with its children in slots ``c0`` and ``c0 + 1``; route the node's rows
    (``route_rows``) and partition its rows and list segments stably (``scratch``: the buffers
    the partitions use). Returns how many rows go left and where each list's left part ends."""
    best_a, best_thr, best_score, best_member = best
    attr, thr, score, member, first_child = tree
    attr[node], thr[node], score[node] = best_a, best_thr, best_score
    member[node, :] = best_member
    first_child[node] = c0
    tmp, tmp_rc, tmp_ry, tmp_rw, tmp_list, tmp_v, tmp_y, tmp_w = scratch
    n_left = route_rows(rows, rc, rw, rs, re, original, is_nominal, slot, best_a, best_member, best_thr, side)
    partition_rows(rows, rc, ry, rw, unit, rs, re, side, tmp, tmp_rc, tmp_ry, tmp_rw)
    new_le = np.empty(lists.shape[0], dtype=np.int64)
    for s in range(lists.shape[0]):
        new_le[s] = ls[s] + partition_list(
            lists[s], lv[s], ly[s], lw[s], unit, ls[s], le[s], side, tmp_list, tmp_v, tmp_y, tmp_w
        )
    return n_left, new_le


@njit(cache=True, nogil=True)
def tree_arrays(cap, is_nominal, n_values):
    """Per node of a tree of at most ``cap`` nodes: attribute (-1: leaf), threshold, score,
    membership by value code, first child; and the most values of a nominal attribute."""
    widest = 1
    for a in range(is_nominal.shape[0]):
        if is_nominal[a] and n_values[a] > widest:
            widest = n_values[a]
    tree = (
        np.full(cap, -1, dtype=np.int64),
        np.zeros(cap),
        np.full(cap, np.nan),
        np.zeros((cap, widest), dtype=np.bool_),
        np.zeros(cap, dtype=np.int64),
    )
    return tree, widest


@njit(cache=True, nogil=True)
def split_children(
    fractional,
    best_first,
    arena,
    scratch,
    unit,
    rs,
    re,
    ls,
    le,
    original,
    is_nominal,
    slot,
    best,
    side,
    node,
    c0,
    tree,
    tops,
    room,
    node_room,
):
    """Split the node (``split_node``, or ``split_fraction`` for fractional cases) and return
    (fits, each child's row start and end, each child's list starts and ends). With fractional
    cases the split may not fit the room given (``cart_fraction``); then nothing is done."""
    rows, rc, ry, rw, lists, lv, ly, lw = arena
    n_lists = lists.shape[0]
    lo = np.zeros(2, dtype=np.int64)
    hi = np.zeros(2, dtype=np.int64)
    list_lo = np.zeros((2, max(n_lists, 1)), dtype=np.int64)
    list_hi = np.zeros((2, max(n_lists, 1)), dtype=np.int64)
    if not fractional:
        n_left, new_le = split_node(
            rows,
            rc,
            ry,
            rw,
            unit,
            rs,
            re,
            original,
            is_nominal,
            slot,
            best,
            side,
            scratch,
            lists,
            lv,
            ly,
            lw,
            ls,
            le,
            node,
            c0,
            tree,
        )
        lo[0], hi[0], lo[1], hi[1] = rs, rs + n_left, rs + n_left, re
        for s in range(n_lists):
            list_lo[0, s], list_hi[0, s], list_lo[1, s], list_hi[1, s] = ls[s], new_le[s], new_le[s], le[s]
        return True, lo, hi, list_lo, list_hi
    missing = n_missing(rows, rc, rs, re, original, is_nominal, slot, best[0])
    if best_first:
        if tops.max() + (re - rs) + missing > room:
            return False, lo, hi, list_lo, list_hi
        rs, re, ls, le = to_top(arena, tops, rs, re, ls, le)
    if not fits(rs, re, le, n_lists, missing, c0, room, node_room):
        return False, lo, hi, list_lo, list_hi
    n_right, n_left, list_right, list_left = split_fraction(
        arena, scratch, rs, re, ls, le, original, is_nominal, slot, best, side, node, c0, tree
    )
    lo[0], hi[0], lo[1], hi[1] = rs + n_right, rs + n_right + n_left, rs, rs + n_right  # laid out [right][left]
    tops[0] = rs + n_right + n_left
    for s in range(n_lists):
        list_lo[0, s], list_hi[0, s] = ls[s] + list_right[s], ls[s] + list_right[s] + list_left[s]
        list_lo[1, s], list_hi[1, s] = ls[s], ls[s] + list_right[s]
        tops[1 + s] = list_hi[0, s]
    return True, lo, hi, list_lo, list_hi


@njit(cache=True, nogil=True)
def push_pair(stack, top, c0, lo, hi, depth, n_const, list_lo, list_hi):
    """Depth first: queue the node's non-empty children (``split_children``), the left one on
    top so that it is expanded first. Returns the new top."""
    for b in (1, 0):
        if hi[b] > lo[b]:
            store(stack, top, c0 + b, lo[b], hi[b], depth + 1, n_const, list_lo[b], list_hi[b])
            top += 1
    return top

"""Each row walks its path through the flattened tree in a compiled loop, rows in parallel (numba).

The arrays are those of ``predict._Layout`` (``predict/compiled.py`` packs them): the tree breadth
first, each split's children in consecutive slots. A row whose tested values are all known (or
whose missing values each send it down one branch: a filled tree) follows one path and gets its
leaf's distribution times its weight, added to zero. A row that meets a missing value at a split
of several branches is done again from the root, exactly as ``predict.descend`` sums it:

- ``weka``: depth first with an explicit stack, a split's value being the sum of its branches'
  left to right (empty leaves skipped), each branch weighted by its share of the node's training
  weight: Weka's ClassifierTree.getProbs, as ``weka_order.in_weka_order`` sums it;
- otherwise level by level, as ``descend`` orders the records: at each level the row's records at
  leaves are summed and added, then the mixtures of wide splits its missing values took; the next
  level holds the children of its known records, then those of its missing ones, in order.

The results equal ``descend``'s to the last bit (same operations in the same order).
"""

from __future__ import annotations

import numpy as np
from numba import get_num_threads, njit, prange, set_num_threads

from dtcli.induction.kernels.arrays import copy_into

NUMERIC, NOMINAL, SUBSET = 1, 2, 3  # ``kind`` of a split slot (0: a leaf)
BLOCK = 256  # rows a parallel task walks with one set of scratch arrays


@njit(cache=True, nogil=True)
def route(tree, num, nom, r, s):
    """The branch row ``r`` takes at split slot ``s``; -1 when its value is missing."""
    kind, col, thr, sub_start, sub_len, sub_codes = tree[2], tree[3], tree[4], tree[11], tree[12], tree[13]
    k = kind[s]
    if k == NUMERIC:
        v = num[r, col[s]]
        if np.isnan(v):
            return -1
        return 0 if v <= thr[s] else 1
    code = nom[r, col[s]]
    if code < 0:
        return -1
    if k == NOMINAL:
        return code
    return in_subset(sub_codes, sub_start[s], sub_len[s], code)


@njit(cache=True, nogil=True)
def in_subset(sub_codes, lo, n, code):
    """0 when ``code`` is among the ``n`` sorted codes from ``lo``, else 1 (``SubsetTest.route``)."""
    end = lo + n
    hi = end
    while lo < hi:
        mid = (lo + hi) // 2
        if sub_codes[mid] < code:
            lo = mid + 1
        else:
            hi = mid
    return 0 if lo < end and sub_codes[lo] == code else 1


@njit(cache=True, nogil=True)
def single_path(nodes, bits, extra, sub_codes, num, nom, r, weka):
    """The leaf (its slot) row ``r`` reaches down its one path and the path's weight; leaf -1 when a
    missing value would send it down several branches (or into a mixture, or ``weka`` sums it).

    The walk reads the tree in its own order (``compiled.Walk``: each subtree's splits close
    together, so a path stays in few cache lines), 16 bytes a node: ``nodes[t, 0]`` the threshold,
    ``bits[t, 1]`` (the same memory) first child * 2**24 + column * 4 + kind, or -1 - slot at a
    leaf; ``extra[t]``: (heaviest child, its share, first subset code, number of them), the child
    -1 unless a missing value takes that branch only."""
    t = 0
    w = 1.0
    while True:
        info = bits[t, 1]
        if info < 0:
            return -1 - info, w
        first = info >> 24
        kind = info & 3
        column = (info >> 2) & 0x3FFFFF
        if kind == NUMERIC:
            v = num[r, column]
            if v <= nodes[t, 0]:
                t = first
                continue
            if v > nodes[t, 0]:
                t = first + 1
                continue
        else:
            x = nom[r, column]
            if x >= 0 and kind == NOMINAL:
                t = first + x
                continue
            if x >= 0:
                t = first + in_subset(sub_codes, int(extra[t, 2]), int(extra[t, 3]), x)
                continue
        child = int(extra[t, 0])
        if weka or child < 0:
            return -1, w
        w = w * extra[t, 1]
        t = child


@njit(cache=True, nogil=True, error_model="numpy")
def weka_sum(tree, num, nom, r, out, st_slot, st_w, st_branch, st_next, acc):
    """Row ``r``'s probabilities in J48's order (depth first, an explicit stack) into ``out[r]``."""
    leaf, cstart, dist, nchild, totals, empty = tree[0], tree[1], tree[5], tree[14], tree[15], tree[16]
    width = dist.shape[1]
    top = 0
    st_slot[0], st_w[0], st_branch[0], st_next[0] = 0, 1.0, -2, 0
    acc[0, :] = 0.0
    while True:
        s = st_slot[top]
        if leaf[s]:
            w = st_w[top]
            top -= 1
            for c in range(width):
                acc[top, c] += w * dist[s, c]
            continue
        if st_branch[top] == -2:
            st_branch[top] = route(tree, num, nom, r, s)
        b = st_branch[top]
        kid = -1
        if b >= 0:
            if st_next[top] == 0:
                st_next[top] = 1
                kid = cstart[s] + b
                w = st_w[top]
        else:
            j = st_next[top]
            while j < nchild[s] and empty[cstart[s] + j]:
                j += 1
            if j < nchild[s]:
                st_next[top] = j + 1
                kid = cstart[s] + j
                w = (totals[kid] / totals[s]) * st_w[top]
        if kid >= 0:
            top += 1
            st_slot[top], st_w[top], st_branch[top], st_next[top] = kid, w, -2, 0
            acc[top, :] = 0.0
            continue
        if top == 0:
            for c in range(width):
                out[r, c] = acc[0, c]
            return
        for c in range(width):
            acc[top - 1, c] += acc[top, c]
        top -= 1


@njit(cache=True, nogil=True)
def _grown(a, n):
    """``a`` copied into an array twice as long (its first ``n`` entries kept)."""
    b = np.empty(2 * a.shape[0], dtype=a.dtype)
    copy_into(b[:n], a[:n])
    return b


@njit(cache=True, nogil=True)
def level_sum(tree, num, nom, r, out, scratch):
    """Row ``r``'s probabilities summed level by level, in ``predict.descend``'s order, into ``out[r]``.
    ``scratch``: (slots, weights, next slots, next weights, branches, sum) arrays, grown as needed."""
    leaf, cstart, dist, fan_start, fanout, fan_child, fan_share, mixed, mixture = (
        tree[0], tree[1], tree[5], tree[6], tree[7], tree[8], tree[9], tree[10], tree[18],
    )  # fmt: skip
    cur_s, cur_w, nxt_s, nxt_w, branch, part = scratch
    width = dist.shape[1]
    out[r, :] = 0.0
    n = 1
    cur_s[0], cur_w[0] = 0, 1.0
    while n > 0:
        part[:] = 0.0
        ended = False
        for i in range(n):
            if leaf[cur_s[i]]:
                ended = True
                for c in range(width):
                    part[c] += cur_w[i] * dist[cur_s[i], c]
        if ended:
            for c in range(width):
                out[r, c] += part[c]
        if branch.shape[0] < n:
            branch = np.empty(cur_s.shape[0], dtype=np.int64)
        m = 0
        for i in range(n):
            s = cur_s[i]
            branch[i] = -1 if leaf[s] else route(tree, num, nom, r, s)
            if branch[i] >= 0:
                if m == nxt_s.shape[0]:
                    nxt_s, nxt_w = _grown(nxt_s, m), _grown(nxt_w, m)
                nxt_s[m], nxt_w[m] = cstart[s] + branch[i], cur_w[i]
                m += 1
        part[:] = 0.0
        ended = False
        for i in range(n):
            s = cur_s[i]
            if leaf[s] or branch[i] >= 0:
                continue
            if mixed[s]:
                ended = True
                for c in range(width):
                    part[c] += cur_w[i] * mixture[s, c]
                continue
            for f in range(fan_start[s], fan_start[s] + fanout[s]):
                if m == nxt_s.shape[0]:
                    nxt_s, nxt_w = _grown(nxt_s, m), _grown(nxt_w, m)
                nxt_s[m], nxt_w[m] = fan_child[f], cur_w[i] * fan_share[f]
                m += 1
        if ended:
            for c in range(width):
                out[r, c] += part[c]
        cur_s, cur_w, nxt_s, nxt_w = nxt_s, nxt_w, cur_s, cur_w
        n = m
    return (cur_s, cur_w, nxt_s, nxt_w, branch, part)


@njit(cache=True, parallel=True, nogil=True, error_model="numpy")
def descend_rows(tree, num, nom, out, depth):
    """Every row of ``num``/``nom`` (its numeric / nominal values, a row each) through ``tree`` into
    ``out`` (rows x classes); ``depth``: the tree's depth (the stack of ``weka_sum``)."""
    n = out.shape[0]
    width = out.shape[1]
    dist, sub_codes, weka, nodes, bits, extra = tree[5], tree[13], tree[17], tree[19], tree[20], tree[21]
    for block in prange((n + BLOCK - 1) // BLOCK):
        st_slot = np.empty(depth + 2, dtype=np.int64)
        st_w = np.empty(depth + 2)
        st_branch = np.empty(depth + 2, dtype=np.int64)
        st_next = np.empty(depth + 2, dtype=np.int64)
        acc = np.empty((depth + 2, width))
        scratch = (
            np.empty(16, dtype=np.int64), np.empty(16), np.empty(16, dtype=np.int64), np.empty(16),
            np.empty(16, dtype=np.int64), np.empty(width),
        )  # fmt: skip
        for r in range(block * BLOCK, min(n, (block + 1) * BLOCK)):
            s, w = single_path(nodes, bits, extra, sub_codes, num, nom, r, weka)
            if s >= 0:
                for c in range(width):
                    out[r, c] = 0.0 + w * dist[s, c]
            elif weka:
                weka_sum(tree, num, nom, r, out, st_slot, st_w, st_branch, st_next, acc)
            else:
                scratch = level_sum(tree, num, nom, r, out, scratch)


def descend_rows_on(threads: int, tree, num, nom, out, depth) -> None:
    """``descend_rows`` on at most ``threads`` threads (numba's setting is the calling thread's
    own; it is put back after)."""
    before = get_num_threads()
    set_num_threads(max(1, min(threads, before)))
    try:
        descend_rows(tree, num, nom, out, depth)
    finally:
        set_num_threads(before)


def warm_up() -> None:
    """Compile (or load from the cache) ``descend_rows`` on a tiny tree: a root split on a numeric
    value, its two leaves, one row known and one missing."""
    i8 = np.int64
    nodes = np.zeros((3, 2))
    nodes.view(i8)[:, 1] = [(1 << 24) + NUMERIC, -2, -3]
    tree = (
        np.array([False, True, True]), np.array([1, 3, 3], dtype=i8), np.array([NUMERIC, 0, 0], dtype=np.int8),
        np.zeros(3, dtype=i8), np.zeros(3), np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]),
        np.zeros(3, dtype=i8), np.array([2, 0, 0], dtype=i8), np.array([1, 2], dtype=i8), np.array([0.5, 0.5]),
        np.zeros(3, dtype=np.bool_), np.zeros(3, dtype=i8), np.zeros(3, dtype=i8), np.zeros(0, dtype=i8),
        np.array([2, 0, 0], dtype=i8), np.array([2.0, 1.0, 1.0]), np.zeros(3, dtype=np.bool_), True,
        np.zeros((1, 2)), nodes, nodes.view(i8), np.array([[-1.0, -1.0, 0, 0]] * 3),
    )  # fmt: skip
    num = np.array([[0.0], [np.nan]])
    nom = np.zeros((2, 0), dtype=np.int32)
    descend_rows(tree, num, nom, np.empty((2, 2)), 1)

"""CART grown by compiled code (numba), depth first, on value lists sorted once.

The same tree as the per-node path (``grow`` with ``cart_choose`` and
``SklearnOrder``), node for node: scikit-learn's tie order needs the nodes
in its depth-first order (its random generator runs from node to node), so
CART is grown depth first, not level by level; what the engine shares with
the level-wise C4.5 engine is the data layout. Each numeric attribute keeps
its rows sorted by value, and each node owns a segment of every list; a
split partitions the segments stably (SPRINT), so no node sorts anything.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from dtcli.induction.cart_evaluate import evaluate
from dtcli.induction.cart_order import visit
from dtcli.induction.cart_scan import partition_list, partition_rows


@njit(cache=True, nogil=True)
def grow_cart(nominal, values, original, y, w, is_nominal, slot, n_values, lists, ranks, distinct, far, lengths,
              n_classes, criterion, min_leaf, max_depth, min_split, purity, min_gain, limit, exact, state, logs, steps):
    """The whole tree, depth first (see the module docstring). Returns per node, in creation
    order: counts, label, attribute (-1: leaf), threshold, subset membership by value code,
    first child, score."""
    n = y.shape[0]
    n_attributes = is_nominal.shape[0]
    n_numeric = lists.shape[0]
    widest = 1
    for a in range(n_attributes):
        if is_nominal[a] and n_values[a] > widest:
            widest = n_values[a]
    cap = 2 * n + 1
    counts = np.zeros((cap, n_classes))
    label = np.zeros(cap, dtype=np.int64)
    attr = np.full(cap, -1, dtype=np.int64)
    thr = np.zeros(cap)
    member = np.zeros((cap, widest), dtype=np.bool_)
    first_child = np.zeros(cap, dtype=np.int64)
    score = np.full(cap, np.nan)
    rows = np.arange(n, dtype=np.int64)
    side = np.zeros(n, dtype=np.int8)
    tmp = np.empty(n, dtype=np.int64)
    # the node's rows carry their nominal codes, classes and weights, partitioned with them, so
    # that a node reads its rows' values in order, not from all over the columns
    rc = nominal  # the glue's own copy
    ry = y.astype(np.int8)
    rw = w.copy()
    tmp_rc = np.empty(n, dtype=rc.dtype)
    tmp_ry = np.empty_like(ry)
    tmp_rw = np.empty_like(rw)
    tmp_list = np.empty(n, dtype=lists.dtype)
    tmp_v = np.empty(n, dtype=ranks.dtype)
    tmp_y = np.empty(n, dtype=np.int8)
    unit = True
    for r in range(n):
        if w[r] != 1.0:
            unit = False
    tmp_w = np.empty(1 if unit else n)
    # each list carries its rows' value ranks, classes and weights (unless all are 1), so that
    # scans read memory in order
    lv = ranks
    ly = np.empty((n_numeric, n), dtype=np.int8)  # class codes (the glue sends at most 127 classes here)
    lw = np.empty((n_numeric, 1 if unit else n))
    for s in range(n_numeric):
        for i in range(lengths[s]):
            r = lists[s, i]
            ly[s, i] = y[r]
            if not unit:
                lw[s, i] = w[r]
    features = np.arange(n_attributes, dtype=np.int64)
    constant = np.arange(n_attributes, dtype=np.int64)
    # the stack of nodes to expand: id, row segment, list segments, depth, known constants
    st_id = np.empty(n + 2, dtype=np.int64)
    st_rs = np.empty(n + 2, dtype=np.int64)
    st_re = np.empty(n + 2, dtype=np.int64)
    st_ls = np.empty((n + 2, max(n_numeric, 1)), dtype=np.int64)
    st_le = np.empty((n + 2, max(n_numeric, 1)), dtype=np.int64)
    st_depth = np.empty(n + 2, dtype=np.int64)
    st_const = np.empty(n + 2, dtype=np.int64)
    for r in range(n):
        counts[0, y[r]] += w[r]
    label[0] = np.argmax(counts[0])
    n_nodes = 1
    top = 0
    st_id[0], st_rs[0], st_re[0], st_depth[0], st_const[0] = 0, 0, n, 0, 0
    for s in range(n_numeric):
        st_ls[0, s], st_le[0, s] = 0, lengths[s]
    top = 1
    hist = np.zeros((max(widest, 1), n_classes))
    chosen = np.zeros(widest, dtype=np.bool_)
    ctx = (is_nominal, slot, n_values, rc, ry, rw, criterion, min_leaf, limit, logs, exact, lv, ly, lw, unit, distinct,
           far, steps)
    while top > 0:
        top -= 1
        node, rs, re, depth, n_const = st_id[top], st_rs[top], st_re[top], st_depth[top], st_const[top]
        ls, le = st_ls[top].copy(), st_le[top].copy()
        total = 0.0
        nonzero = 0
        biggest = 0.0
        for c in range(n_classes):
            total += counts[node, c]
            if counts[node, c] > 0:
                nonzero += 1
            if counts[node, c] > biggest:
                biggest = counts[node, c]
        if total <= 0 or nonzero <= 1 or (max_depth >= 0 and depth >= max_depth):
            continue
        if total < min_split or biggest / total >= purity or total < 2 * min_leaf:
            continue
        if exact:
            order, n_const = visit(state, features, constant, n_const, is_nominal, slot, rc, values, rs, re, lists,
                                   ls, le)
        else:
            order = np.arange(n_attributes, dtype=np.int64)
        best_a, best_key, best_score, best_thr = -1, -np.inf, 0.0, 0.0
        best_member = np.zeros(widest, dtype=np.bool_)
        for a in order:
            found, key, sc, t = evaluate(a, chosen, hist, ctx, rs, re, ls, le, counts[node], total,
                                         best_key if best_a >= 0 else -np.inf)
            if found and (best_a < 0 or key > best_key):
                best_a, best_key, best_score, best_thr = a, key, sc, t
                best_member[:] = chosen
        if best_a < 0 or not best_score >= min_gain - 1e-12:
            continue
        # route the node's rows: missing values go down the heavier branch
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
        partition_rows(rows, rc, ry, rw, unit, rs, re, side, tmp, tmp_rc, tmp_ry, tmp_rw)
        new_le = np.empty(n_numeric, dtype=np.int64)
        for s in range(n_numeric):
            new_le[s] = ls[s] + partition_list(lists[s], lv[s], ly[s], lw[s], unit, ls[s], le[s], side, tmp_list,
                                               tmp_v, tmp_y, tmp_w)
        attr[node], thr[node], score[node] = best_a, best_thr, best_score
        member[node, :] = best_member
        c0 = n_nodes
        first_child[node] = c0
        n_nodes += 2
        for b in range(2):
            child = c0 + b
            lo, hi = (rs, rs + n_left) if b == 0 else (rs + n_left, re)
            for i in range(lo, hi):
                counts[child, ry[i]] += rw[i]
            weight = 0.0
            for c in range(n_classes):
                weight += counts[child, c]
            label[child] = np.argmax(counts[child]) if weight > 0 else label[node]
        for b in (1, 0):  # the left child is expanded first
            child = c0 + b
            lo, hi = (rs, rs + n_left) if b == 0 else (rs + n_left, re)
            if hi <= lo:
                continue
            st_id[top], st_rs[top], st_re[top], st_depth[top], st_const[top] = child, lo, hi, depth + 1, n_const
            for s in range(n_numeric):
                if b == 0:
                    st_ls[top, s], st_le[top, s] = ls[s], new_le[s]
                else:
                    st_ls[top, s], st_le[top, s] = new_le[s], le[s]
            top += 1
    return (counts[:n_nodes], label[:n_nodes], attr[:n_nodes], thr[:n_nodes], member[:n_nodes],
            first_child[:n_nodes], score[:n_nodes])

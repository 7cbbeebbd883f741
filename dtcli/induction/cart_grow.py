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
from dtcli.induction.cart_steps import (attribute_order, new_stack, pop_node, push_children, split_node,
                                         tree_arrays)


@njit(cache=True, nogil=True)
def grow_cart(nominal, values, original, y, w, is_nominal, slot, n_values, lists, ranks, distinct, far, lengths,
              n_classes, criterion, min_leaf, max_depth, min_split, purity, min_gain, limit, exact, state, logs, steps):
    """The whole tree, depth first (see the module docstring). Returns per node, in creation
    order: counts, label, attribute (-1: leaf), threshold, subset membership by value code,
    first child, score."""
    n, n_attributes, n_numeric = y.shape[0], is_nominal.shape[0], lists.shape[0]
    tree, widest = tree_arrays(n, is_nominal, n_values)
    attr, thr, score, member, first_child = tree
    cap = 2 * n + 1
    counts = np.zeros((cap, n_classes))
    label = np.zeros(cap, dtype=np.int64)
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
    scratch = (tmp, tmp_rc, tmp_ry, tmp_rw, tmp_list, tmp_v, tmp_y, tmp_w)
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
    # the stack of nodes to expand: id, row segment, depth, known constants, list segments
    stack = new_stack(n, lengths)
    for r in range(n):
        counts[0, y[r]] += w[r]
    label[0] = np.argmax(counts[0])
    n_nodes = 1
    top = 1
    hist = np.zeros((max(widest, 1), n_classes))
    chosen = np.zeros(widest, dtype=np.bool_)
    ctx = (is_nominal, slot, n_values, rc, ry, rw, criterion, min_leaf, limit, logs, exact, lv, ly, lw, unit, distinct,
           far, steps)
    while top > 0:
        top -= 1
        node, rs, re, depth, n_const, ls, le = pop_node(stack, top)
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
        order, n_const = attribute_order(exact, state, features, constant, n_const, is_nominal, slot, rc, values, rs,
                                         re, lists, ls, le)
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
        c0 = n_nodes
        n_nodes += 2
        n_left, new_le = split_node(rows, rc, ry, rw, unit, rs, re, original, is_nominal, slot,
                                    (best_a, best_thr, best_score, best_member), side, scratch, lists, lv, ly, lw, ls,
                                    le, node, c0, tree)
        for b in range(2):
            child = c0 + b
            lo, hi = (rs, rs + n_left) if b == 0 else (rs + n_left, re)
            for i in range(lo, hi):
                counts[child, ry[i]] += rw[i]
            weight = 0.0
            for c in range(n_classes):
                weight += counts[child, c]
            label[child] = np.argmax(counts[child]) if weight > 0 else label[node]
        top = push_children(stack, top, c0, rs, re, n_left, depth, n_const, ls, le, new_le)
    return (counts[:n_nodes], label[:n_nodes], attr[:n_nodes], thr[:n_nodes], member[:n_nodes],
            first_child[:n_nodes], score[:n_nodes])

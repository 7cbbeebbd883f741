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

from dtcli.induction.cart.kernels.chi import chi_square, heap_push, split_gain
from dtcli.induction.cart.kernels.evaluate import evaluate
from dtcli.induction.cart.kernels.fraction import roomy
from dtcli.induction.cart.kernels.scores import pairwise_sum
from dtcli.induction.cart.kernels.steps import (
    attribute_order,
    new_frontier,
    next_node,
    pop_node,
    push_pair,
    queue,
    split_children,
    tree_arrays,
    undo,
)


@njit(cache=True, nogil=True)
def grow_cart(
    nominal,
    values,
    original,
    y,
    w,
    is_nominal,
    slot,
    n_values,
    lists,
    ranks,
    distinct,
    far,
    lengths,
    n_classes,
    criterion,
    min_leaf,
    max_depth,
    min_split,
    purity,
    min_gain,
    limit,
    exact,
    state,
    logs,
    steps,
    chi_alpha,
    lgammas,
    max_leaves,
    fractional,
    room,
    node_room,
    status,
):
    """The whole tree, depth first, or best first up to ``max_leaves`` leaves (0: no limit; see
    the module docstring); ``chi_alpha`` above 0: chi-square pre-pruning (``lgammas``: see
    ``cart_chi``). Returns per node, in creation order: counts, label, attribute (-1: leaf),
    threshold, subset membership by value code, first child, score, gain (best first or with
    the chi-square test), the chi-square tests made (``decide``), and whether the tree outgrew
    ``room`` or ``node_room`` (``fractional``: ``--missing fractional``, see ``cart_fraction``;
    else the room is the rows' and the nodes' count). ``status`` receives, as it goes, the depth
    of the node expanded, the nodes so far and the rows expanded so far."""
    n, n_attributes, n_numeric = y.shape[0], is_nominal.shape[0], lists.shape[0]
    cap = node_room if fractional else 2 * n + 1
    tree, widest = tree_arrays(cap, is_nominal, n_values)
    attr, thr, score, member, first_child = tree
    counts = np.zeros((cap, n_classes))
    label = np.zeros(cap, dtype=np.int64)
    room = room if fractional else n
    rows = np.arange(room, dtype=np.int64)
    side = np.zeros(n, dtype=np.int8)
    tmp = np.empty(room, dtype=np.int64)
    # the node's rows carry their nominal codes, classes and weights, partitioned with them, so
    # that a node reads its rows' values in order, not from all over the columns
    rc, lists, lv = roomy(nominal, lists, ranks, room) if fractional else (nominal, lists, ranks)  # the glue's copies
    ry = np.zeros(room, dtype=np.int8)
    ry[:n] = y
    rw = np.zeros(room)
    rw[:n] = w
    tmp_rc = np.empty(room, dtype=rc.dtype)
    tmp_ry = np.empty_like(ry)
    tmp_rw = np.empty_like(rw)
    tmp_list = np.empty(room, dtype=lists.dtype)
    tmp_v = np.empty(room, dtype=lv.dtype)
    tmp_y = np.empty(room, dtype=np.int8)
    unit = not fractional
    for r in range(n):
        if w[r] != 1.0:
            unit = False
    tmp_w = np.empty(1 if unit else room)
    scratch = (tmp, tmp_rc, tmp_ry, tmp_rw, tmp_list, tmp_v, tmp_y, tmp_w)
    # each list carries its rows' value ranks, classes and weights (unless all are 1), so that
    # scans read memory in order
    ly = np.empty((n_numeric, room), dtype=np.int8)  # class codes (the glue sends at most 127 classes here)
    lw = np.empty((n_numeric, 1 if unit else room))
    for s in range(n_numeric):
        for i in range(lengths[s]):
            r = lists[s, i]
            ly[s, i] = y[r]
            if not unit:
                lw[s, i] = w[r]
    features = np.arange(n_attributes, dtype=np.int64)
    constant = np.arange(n_attributes, dtype=np.int64)
    for r in range(n):
        counts[0, y[r]] += w[r]
    label[0] = np.argmax(counts[0])
    hist = np.zeros((max(widest, 1), n_classes))
    chosen = np.zeros(widest, dtype=np.bool_)
    ctx = (
        is_nominal,
        slot,
        n_values,
        rc,
        ry,
        rw,
        criterion,
        min_leaf,
        limit,
        logs,
        exact,
        lv,
        ly,
        lw,
        unit,
        distinct,
        far,
        steps,
    )
    rules = (
        exact,
        state,
        features,
        constant,
        values,
        original,
        lists,
        rows,
        min_leaf,
        max_depth,
        min_split,
        purity,
        min_gain,
        chi_alpha,
        lgammas,
        max_leaves > 0,
    )
    gains = np.zeros(cap if max_leaves > 0 or chi_alpha > 0 else 1)  # each split's gain, when needed
    # chi-square tests, in the order made: node, depth, cases, attribute, df, statistic, p-value, kept; count
    t_cap = cap if chi_alpha > 0 else 1
    trace = (
        np.zeros(t_cap, dtype=np.int64),
        np.zeros(t_cap, dtype=np.int64),
        np.zeros(t_cap),
        np.zeros(t_cap, dtype=np.int64),
        np.zeros(t_cap, dtype=np.int64),
        np.zeros(t_cap),
        np.zeros(t_cap),
        np.zeros(t_cap, dtype=np.bool_),
        np.zeros(1, dtype=np.int64),
    )
    best_first = max_leaves > 0
    tops = np.zeros(n_numeric + 1, dtype=np.int64)  # fractional cases: the used part of each array
    tops[0] = n
    tops[1:] = lengths
    frontier = new_frontier(n, lengths, max_leaves)
    stack = frontier[0]
    size, pushed, leaves, n_nodes, top = 0, 0, 1, 1, 1
    if best_first:
        top = 0
        ok, root_const = decide(
            0,
            0,
            n,
            0,
            0,
            stack[5][0].copy(),
            stack[6][0].copy(),
            counts[0],
            ctx,
            rules,
            tree,
            hist,
            chosen,
            gains,
            trace,
        )
        stack[4][0] = root_const
        if ok:
            size = heap_push(frontier[1], frontier[2], frontier[3], size, 0.0, 0, 0)
    while (size if best_first else top) > 0:
        at, top, size = next_node(frontier, best_first, top, size)
        node, rs, re, depth, n_const, ls, le = pop_node(stack, at)
        status[0], status[1], status[2] = depth, n_nodes, status[2] + re - rs  # read by the glue's progress
        if best_first:
            if leaves + 1 > max_leaves:  # every split adds one leaf: none fits any more
                undo(node, tree)
                continue
        else:
            ok, n_const = decide(
                node, rs, re, depth, n_const, ls, le, counts[node], ctx, rules, tree, hist, chosen, gains, trace
            )
            if not ok:
                continue
        c0 = n_nodes
        fitted, lo, hi, list_lo, list_hi = split_children(
            fractional,
            best_first,
            (rows, rc, ry, rw, lists, lv, ly, lw),
            scratch,
            unit,
            rs,
            re,
            ls,
            le,
            original,
            is_nominal,
            slot,
            (attr[node], thr[node], score[node], member[node].copy()),
            side,
            node,
            c0,
            tree,
            tops,
            room,
            node_room,
        )
        if not fitted:
            return _result(counts, label, tree, gains, trace, n_nodes, True)
        n_nodes += 2
        leaves += 1
        for b in range(2):
            _child(counts, label, ry, rw, lo[b], hi[b], c0 + b, node)
        if not best_first:
            top = push_pair(stack, top, c0, lo, hi, depth, n_const, list_lo, list_hi)
            continue
        for b in (1, 0):  # as the per-node grower decides them: the last branch first
            if hi[b] <= lo[b]:
                continue
            ok, child_const = decide(
                c0 + b,
                lo[b],
                hi[b],
                depth + 1,
                n_const,
                list_lo[b].copy(),
                list_hi[b].copy(),
                counts[c0 + b],
                ctx,
                rules,
                tree,
                hist,
                chosen,
                gains,
                trace,
            )
            if ok:
                weight = pairwise_sum(counts[c0 + b].copy())
                size, pushed = queue(
                    frontier,
                    size,
                    pushed,
                    c0 + b,
                    lo[b],
                    hi[b],
                    depth + 1,
                    child_const,
                    list_lo[b],
                    list_hi[b],
                    -weight * gains[c0 + b],
                )
    return _result(counts, label, tree, gains, trace, n_nodes, False)


@njit(cache=True, nogil=True)
def _result(counts, label, tree, gains, trace, n_nodes, overflow):
    attr, thr, score, member, first_child = tree
    return (
        counts[:n_nodes],
        label[:n_nodes],
        attr[:n_nodes],
        thr[:n_nodes],
        member[:n_nodes],
        first_child[:n_nodes],
        score[:n_nodes],
        gains[:n_nodes],
        trace,
        overflow,
    )


@njit(cache=True, nogil=True)
def _child(counts, label, ry, rw, lo, hi, child, parent):
    """A child's class counts over its entries ``lo:hi`` (in row order), and its label (the
    parent's when it holds no weight)."""
    for i in range(lo, hi):
        counts[child, ry[i]] += rw[i]
    weight = 0.0
    for c in range(counts.shape[1]):
        weight += counts[child, c]
    label[child] = np.argmax(counts[child]) if weight > 0 else label[parent]


@njit(cache=True, nogil=True)
def decide(node, rs, re, depth, n_const, ls, le, node_counts, ctx, rules, tree, hist, chosen, gains, trace):
    """The per-node grower's ``decide`` at one node: the stopping rules, the attributes in
    their order, the best split, --min-gain and the chi-square test. Records the split in
    ``tree`` and returns (split or not, constants known to the children)."""
    is_nominal, slot, n_values, rc, ry, rw = ctx[:6]
    exact, state, features, constant, values, original, lists, rows, min_leaf, max_depth, min_split = rules[:11]
    purity, min_gain, chi_alpha, lgammas, best_first = rules[11:]
    n_classes = node_counts.shape[0]
    total = 0.0
    nonzero = 0
    biggest = 0.0
    for c in range(n_classes):
        total += node_counts[c]
        if node_counts[c] > 0:
            nonzero += 1
        if node_counts[c] > biggest:
            biggest = node_counts[c]
    if total <= 0 or nonzero <= 1 or (max_depth >= 0 and depth >= max_depth):
        return False, n_const
    if total < min_split or biggest / total >= purity or total < 2 * min_leaf:
        return False, n_const
    order, n_const = attribute_order(
        exact, state, features, constant, n_const, is_nominal, slot, rc, values, rs, re, lists, ls, le
    )
    best_a, best_key, best_score, best_thr = -1, -np.inf, 0.0, 0.0
    best_member = np.zeros(chosen.shape[0], dtype=np.bool_)
    weight = pairwise_sum(rw[rs:re])  # the reference's node weight: the rows' weights, summed by numpy
    for a in order:
        found, key, sc, t = evaluate(
            a, chosen, hist, ctx, rs, re, ls, le, node_counts, weight, best_key if best_a >= 0 else -np.inf
        )
        if found and (best_a < 0 or key > best_key):
            best_a, best_key, best_score, best_thr = a, key, sc, t
            best_member[:] = chosen
    if best_a < 0 or not best_score >= min_gain - 1e-12:
        return False, n_const
    if chi_alpha > 0 or best_first:
        split = np.zeros((2, n_classes))
        for i in range(rs, re):  # the known cases by branch, in row order (as np.add.at adds them)
            if is_nominal[best_a]:
                code = rc[slot[best_a], i]
                b = -1 if code < 0 else (0 if best_member[code] else 1)
            else:
                v = original[slot[best_a], rows[i]]
                b = -1 if np.isnan(v) else (0 if v <= best_thr else 1)
            if b >= 0:
                split[b, ry[i]] += rw[i]
        if chi_alpha > 0:
            statistic, df, p_value = chi_square(split, lgammas)
            keep = p_value < chi_alpha
            t_node, t_depth, t_cases, t_attr, t_df, t_stat, t_p, t_keep, t_n = trace
            k = t_n[0]
            t_node[k], t_depth[k], t_cases[k], t_attr[k] = node, depth, weight, best_a
            t_df[k], t_stat[k], t_p[k], t_keep[k] = df, statistic, p_value, keep
            t_n[0] = k + 1
            if not keep:
                return False, n_const
        gains[node] = split_gain(split, weight)
    attr, thr, score, member, first_child = tree
    attr[node], thr[node], score[node] = best_a, best_thr, best_score
    member[node, :] = best_member
    return True, n_const

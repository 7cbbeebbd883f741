"""CART regression trees grown by compiled code (numba), depth first, on value lists sorted once.

The twin of ``regression.regression_choose`` under ``grow`` (squared error,
scikit-learn's visiting order and proxy), on the CART builder's layout
(``cart_grow``): each numeric attribute's rows are sorted once and every
split partitions the node's segments stably; a node's rows carry their
nominal codes, targets and weights. The arithmetic is the reference's, in
its order: running sums along the sorted values (``np.cumsum``), sums by
value (``np.bincount``) and numpy's pairwise summation where the reference
calls ``np.sum`` (``pairwise_sum``), so fractional weights give the same
tree too.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from dtcli.induction.cart.kernels.chi import heap_push
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

EPSILON = float(np.finfo(np.float64).eps)  # a node this pure is a leaf (grow.EPSILON)


@njit(cache=True, nogil=True)
def _decrease(w_l, s_l, q_l, w_r, s_r, q_r):
    """``regression._decrease`` for one split."""
    w = w_l + w_r
    both = s_l + s_r
    sse_parent = (q_l + q_r) - both * both / w
    sse_l = q_l - s_l * s_l / w_l if w_l > 0 else 0.0
    sse_r = q_r - s_r * s_r / w_r if w_r > 0 else 0.0
    return (sse_parent - sse_l - sse_r) / w


@njit(cache=True, nogil=True)
def _stats(ry, rw, lo, hi):
    """``regression.node_stats`` of rows ``lo:hi``: (weight, mean, mean squared error)."""
    w = rw[lo:hi]
    total = pairwise_sum(w)
    if total <= 0:
        return 0.0, 0.0, 0.0
    wy = w * ry[lo:hi]
    s = pairwise_sum(wy)
    sq = pairwise_sum(wy * ry[lo:hi])
    mean = s / total
    return total, mean, max(0.0, sq / total - mean * mean)


@njit(cache=True, nogil=True)
def _child_stats(ry, rw, lo, hi, child, parent_mean, weight, value, impurity):
    """A child's ``_stats``; an empty child keeps its parent's mean (``grow._split``)."""
    weight[child], value[child], impurity[child] = _stats(ry, rw, lo, hi)
    if not weight[child] > 0:
        weight[child], value[child], impurity[child] = 0.0, parent_mean, 0.0


@njit(cache=True, nogil=True)
def _numeric(s, lv, ly, lw, distinct, far, ls, le, min_leaf, exact):
    """``regression._numeric`` on the node's sorted segment (ranks, targets, weights): (found,
    score, known weight, key, threshold)."""
    big_w = 0.0
    big_s = 0.0
    big_q = 0.0
    for i in range(ls[s], le[s]):
        wy = lw[s, i] * ly[s, i]
        big_w += lw[s, i]
        big_s += wy
        big_q += wy * ly[s, i]
    w_l = 0.0
    s_l = 0.0
    q_l = 0.0
    found = False
    best_rank = -np.inf
    best_score = 0.0
    lower = upper = 0.0
    for i in range(ls[s], le[s] - 1):
        wy = lw[s, i] * ly[s, i]
        w_l += lw[s, i]
        s_l += wy
        q_l += wy * ly[s, i]
        here, there = lv[s, i], lv[s, i + 1]
        if not (there >= far[here] if far[here] >= 0 else there != here):
            continue
        if not (w_l >= min_leaf and big_w - w_l >= min_leaf):
            continue
        score = _decrease(w_l, s_l, q_l, big_w - w_l, big_s - s_l, big_q - q_l)
        rank = s_l * s_l / w_l + (big_s - s_l) * (big_s - s_l) / (big_w - w_l) if exact else score
        if not found or rank > best_rank:
            found, best_rank, best_score = True, rank, score
            lower, upper = distinct[here], distinct[there]
    if not found:
        return False, 0.0, 0.0, 0.0, 0.0
    t = lower / 2.0 + upper / 2.0 if exact else (lower + upper) / 2
    if t == upper or not np.isfinite(t):
        t = lower
    return True, best_score, pairwise_sum(lw[s, ls[s] : le[s]]), best_rank, t  # known weight: np.sum's order


@njit(cache=True, nogil=True)
def _nominal(codes, ry, rw, rs, re, n_values, min_leaf, member):
    """``regression._nominal`` at the node: (found, score, known weight, proxy); ``member`` marks
    the values of the smaller side (the first of the mean-ordered values on a tie)."""
    w = np.zeros(n_values)
    s = np.zeros(n_values)
    q = np.zeros(n_values)
    for i in range(rs, re):
        c = codes[i]
        if c >= 0:
            w[c] += rw[i]
            s[c] += rw[i] * ry[i]
            q[c] += rw[i] * (ry[i] * ry[i])
    present = np.flatnonzero(w > 0)
    m = present.shape[0]
    if m < 2:
        return False, 0.0, 0.0, 0.0
    means = s[present] / w[present]
    order = present[np.argsort(means, kind="mergesort")]
    big_w, big_s, big_q = pairwise_sum(w), pairwise_sum(s), pairwise_sum(q)
    cw = 0.0
    cs = 0.0
    cq = 0.0
    best_k, best, proxy = -1, -np.inf, 0.0
    for k in range(1, m):
        v = order[k - 1]
        cw += w[v]
        cs += s[v]
        cq += q[v]
        if not (cw >= min_leaf and big_w - cw >= min_leaf):
            continue
        score = _decrease(cw, cs, cq, big_w - cw, big_s - cs, big_q - cq)
        if best_k < 0 or score > best:
            best_k, best = k, score
            proxy = cs * cs / cw + (big_s - cs) * (big_s - cs) / (big_w - cw)
    if best_k < 0:
        return False, 0.0, 0.0, 0.0
    member[:] = False
    if best_k <= m - best_k:
        for j in range(best_k):
            member[order[j]] = True
    else:
        for j in range(best_k, m):
            member[order[j]] = True
    return True, best, big_w, proxy


@njit(cache=True, nogil=True)
def _choose(
    order,
    total,
    rc,
    ry,
    rw,
    rs,
    re,
    is_nominal,
    slot,
    n_values,
    lv,
    ly,
    lw,
    distinct,
    far,
    ls,
    le,
    min_leaf,
    exact,
    chosen,
    best_member,
):
    """``regression_choose`` at the node: (attribute or -1, score, threshold); a nominal choice's
    values in ``best_member``."""
    best_a, best_key, best_score, best_thr = -1, -np.inf, 0.0, 0.0
    node_sum = pairwise_sum(rw[rs:re] * ry[rs:re])
    for a in order:
        t = 0.0
        if is_nominal[a]:
            found, sc, known, key = _nominal(rc[slot[a]], ry, rw, rs, re, n_values[a], min_leaf, chosen)
        else:
            found, sc, known, key, t = _numeric(slot[a], lv, ly, lw, distinct, far, ls, le, min_leaf, exact)
        if not found:
            continue
        sc *= known / total if total > 0 else 0.0
        if not exact:
            key = sc
        elif known != total:  # on the proxy's scale, as regression_choose puts it
            key = total * sc + node_sum * node_sum / total
        if best_a < 0 or key > best_key:
            best_a, best_key, best_score, best_thr = a, key, sc, t
            if is_nominal[a]:
                best_member[:] = chosen
    return best_a, best_score, best_thr


@njit(cache=True, nogil=True)
def grow_regression(
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
    min_leaf,
    max_depth,
    min_split,
    min_gain,
    exact,
    state,
    max_leaves,
    fractional,
    room,
    node_room,
    status,
):
    """The whole regression tree, depth first, or best first up to ``max_leaves`` leaves (0: no
    limit; the key is weight x decrease, the gain of a regression split); ``fractional``, ``room``
    and ``node_room`` and ``status`` as for ``cart_grow.grow_cart``. Returns per node, in creation order:
    weight, mean, mean squared error, attribute (-1: leaf), threshold, subset membership by value
    code, first child, score; and whether the tree outgrew the room."""
    n, n_attributes, n_numeric = y.shape[0], is_nominal.shape[0], lists.shape[0]
    cap = node_room if fractional else 2 * n + 1
    room = room if fractional else n
    tree, widest = tree_arrays(cap, is_nominal, n_values)
    attr, thr, score, member, first_child = tree
    weight = np.zeros(cap)
    value = np.zeros(cap)
    impurity = np.zeros(cap)
    rows = np.arange(room, dtype=np.int64)
    side = np.zeros(n, dtype=np.int8)
    rc, lists, lv = roomy(nominal, lists, ranks, room) if fractional else (nominal, lists, ranks)  # the glue's copies
    ry, rw = np.zeros(room), np.zeros(room)  # the rows' codes, targets, weights, partitioned with them
    ry[:n], rw[:n] = y, w
    scratch = (
        np.empty(room, dtype=np.int64),
        np.empty(room, dtype=rc.dtype),
        np.empty(room),
        np.empty(room),
        np.empty(room, dtype=lists.dtype),
        np.empty(room, dtype=lv.dtype),
        np.empty(room),
        np.empty(room),
    )
    ly, lw = np.empty((n_numeric, room)), np.empty((n_numeric, room))  # each list's ranks, targets, weights
    for s in range(n_numeric):
        for i in range(lengths[s]):
            r = lists[s, i]
            ly[s, i], lw[s, i] = y[r], w[r]
    features = np.arange(n_attributes, dtype=np.int64)
    constant = np.arange(n_attributes, dtype=np.int64)
    weight[0], value[0], impurity[0] = _stats(ry, rw, 0, n)
    chosen = np.zeros(widest, dtype=np.bool_)
    data = (
        rc,
        ry,
        rw,
        is_nominal,
        slot,
        n_values,
        lv,
        ly,
        lw,
        distinct,
        far,
        values,
        lists,
        features,
        constant,
        exact,
        state,
        min_leaf,
        max_depth,
        min_split,
        min_gain,
        chosen,
        weight,
        impurity,
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
        ok, stack[4][0] = _decide(0, 0, n, 0, 0, stack[5][0].copy(), stack[6][0].copy(), data, tree)
        if ok:
            size = heap_push(frontier[1], frontier[2], frontier[3], size, 0.0, 0, 0)
    while (size if best_first else top) > 0:
        at, top, size = next_node(frontier, best_first, top, size)
        node, rs, re, depth, n_const, ls, le = pop_node(stack, at)
        status[0], status[1], status[2] = depth, n_nodes, status[2] + re - rs  # read by the glue's progress
        if best_first and leaves + 1 > max_leaves:  # every split adds one leaf: none fits any more
            undo(node, tree)
            continue
        if not best_first:
            ok, n_const = _decide(node, rs, re, depth, n_const, ls, le, data, tree)
            if not ok:
                continue
        c0 = n_nodes
        fitted, lo, hi, list_lo, list_hi = split_children(
            fractional,
            best_first,
            (rows, rc, ry, rw, lists, lv, ly, lw),
            scratch,
            False,
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
            return _result(weight, value, impurity, tree, n_nodes, True)
        n_nodes += 2
        leaves += 1
        for b in range(2):
            _child_stats(ry, rw, lo[b], hi[b], c0 + b, value[node], weight, value, impurity)
        if not best_first:
            top = push_pair(stack, top, c0, lo, hi, depth, n_const, list_lo, list_hi)
            continue
        for b in (1, 0):  # as the per-node grower decides them: the last branch first
            if hi[b] > lo[b]:
                ok, child_const = _decide(
                    c0 + b, lo[b], hi[b], depth + 1, n_const, list_lo[b].copy(), list_hi[b].copy(), data, tree
                )
                if ok:
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
                        -weight[c0 + b] * score[c0 + b],
                    )
    return _result(weight, value, impurity, tree, n_nodes, False)


@njit(cache=True, nogil=True)
def _result(weight, value, impurity, tree, n_nodes, overflow):
    attr, thr, score, member, first_child = tree
    return (
        weight[:n_nodes],
        value[:n_nodes],
        impurity[:n_nodes],
        attr[:n_nodes],
        thr[:n_nodes],
        member[:n_nodes],
        first_child[:n_nodes],
        score[:n_nodes],
        overflow,
    )


@njit(cache=True, nogil=True)
def _decide(node, rs, re, depth, n_const, ls, le, data, tree):
    """The per-node grower's ``decide`` for a regression node: the stopping rules, the attributes
    in their order, the best split and --min-gain. Records the split in ``tree``; returns (split
    or not, constants known to the children)."""
    rc, ry, rw, is_nominal, slot, n_values, lv, ly, lw, distinct, far, values, lists = data[:13]
    features, constant, exact, state, min_leaf, max_depth, min_split, min_gain, chosen, weight, impurity = data[13:]
    total = weight[node]
    if total <= 0 or impurity[node] <= EPSILON or is_nominal.shape[0] == 0 or (max_depth >= 0 and depth >= max_depth):
        return False, n_const
    if total < min_split or total < 2 * min_leaf:
        return False, n_const
    order, n_const = attribute_order(
        exact, state, features, constant, n_const, is_nominal, slot, rc, values, rs, re, lists, ls, le
    )
    best_member = np.zeros(chosen.shape[0], dtype=np.bool_)
    best_a, best_score, best_thr = _choose(
        order,
        total,
        rc,
        ry,
        rw,
        rs,
        re,
        is_nominal,
        slot,
        n_values,
        lv,
        ly,
        lw,
        distinct,
        far,
        ls,
        le,
        min_leaf,
        exact,
        chosen,
        best_member,
    )
    if best_a < 0 or not best_score >= min_gain - 1e-12:
        return False, n_const
    attr, thr, score, member, first_child = tree
    attr[node], thr[node], score[node] = best_a, best_thr, best_score
    member[node, :] = best_member
    return True, n_const

"""CART regression trees grown by compiled code (numba), depth first, on value lists sorted once.

The twin of ``search/regression.py: regression_choose`` under ``grow/grower.py`` (squared
error, scikit-learn's visiting order and proxy), on the CART builders' layout
(``grow.py``): each numeric attribute's rows are sorted once and every
split partitions the node's segments stably; a node's rows carry their
nominal codes, targets and weights. The arithmetic is the reference's, in
its order: running sums along the sorted values (``np.cumsum``), sums by
value (``np.bincount``) and numpy's pairwise summation where the reference
calls ``np.sum`` (``pairwise_sum``), so fractional weights give the same
tree too.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.cart.kernels.frontier import begin, new_frontier, push_pair, queue, take, waiting
from dtcli.induction.cart.kernels.layout import child, expand, new_build, nonempty, with_const
from dtcli.induction.cart.kernels.order import attribute_order
from dtcli.induction.cart.kernels.partition import split_children
from dtcli.induction.cart.kernels.scan import values_of
from dtcli.induction.cart.kernels.scores import pairwise_sum
from dtcli.induction.cart.kernels.tree import blank, cut, record
from dtcli.induction.criteria.constants import EPSILON  # a node this pure is a leaf
from dtcli.induction.kernels.arrays import copy_into
from dtcli.induction.kernels.jit import kernel
from dtcli.induction.kernels.midpoint import midpoint, single_midpoint


@kernel
def _decrease(w_l, s_l, q_l, w_r, s_r, q_r):
    """``search/regression.py: _decrease`` for one split."""
    w = w_l + w_r
    both = s_l + s_r
    sse_parent = (q_l + q_r) - both * both / w
    sse_l = q_l - s_l * s_l / w_l if w_l > 0 else 0.0
    sse_r = q_r - s_r * s_r / w_r if w_r > 0 else 0.0
    return (sse_parent - sse_l - sse_r) / w


@kernel
def _stats(ry, rw, lo, hi):
    """``search/regression.py: node_stats`` of rows ``lo:hi``: (weight, mean, mean squared error)."""
    w = rw[lo:hi]
    total = pairwise_sum(w)
    if total <= 0:
        return 0.0, 0.0, 0.0
    wy = w * ry[lo:hi]
    s = pairwise_sum(wy)
    sq = pairwise_sum(wy * ry[lo:hi])
    mean = s / total
    return total, mean, max(0.0, sq / total - mean * mean)


@kernel
def _child_stats(arena, lo, hi, child, parent, fit):
    """A child's ``_stats`` in ``fit`` (weight, value, impurity); an empty child keeps its parent's
    mean (``grow/grower.py``)."""
    weight, value, impurity = fit
    weight[child], value[child], impurity[child] = _stats(arena.targets, arena.weights, lo, hi)
    if not weight[child] > 0:
        weight[child], value[child], impurity[child] = 0.0, value[parent], 0.0


@kernel(inline="always")  # no structures passed per call
def _numeric(build, s, node, exact):
    """``search/regression.py: _numeric`` on list ``s``'s segment at ``node`` (ranks, targets, weights): (found,
    score, known weight, key, threshold)."""
    lv, ly, lw = build.arena.ranks, build.arena.list_targets, build.arena.list_weights
    (distinct, far), ls, le, min_leaf = values_of(build.columns, s), node.ls, node.le, build.stopping.min_leaf
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
    t = single_midpoint(lower, upper) if exact else midpoint(lower, upper)
    return True, best_score, pairwise_sum(lw[s, ls[s] : le[s]]), best_rank, t  # known weight: np.sum's order


@kernel(inline="always")  # no structures passed per call
def _nominal(build, a, node):
    """``search/regression.py: _nominal`` at the node: (found, score, known weight, proxy); ``build.chosen``
    marks the values of the smaller side (the first of the mean-ordered values on a tie)."""
    codes, ry, rw = build.arena.codes[build.columns.slot[a]], build.arena.targets, build.arena.weights
    rs, re, n_values, min_leaf, member = (
        node.rs,
        node.re,
        build.columns.n_values[a],
        build.stopping.min_leaf,
        build.chosen,
    )
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


@kernel(inline="always")  # no structures passed per call
def _choose(build, attributes, node, total, exact, best_member):
    """``regression_choose`` at the node: (attribute or -1, score, threshold); a nominal choice's
    values in ``best_member``."""
    best_a, best_key, best_score, best_thr = -1, -np.inf, 0.0, 0.0
    ry, rw = build.arena.targets, build.arena.weights
    node_sum = pairwise_sum(rw[node.rs : node.re] * ry[node.rs : node.re])
    is_nominal = build.columns.is_nominal
    for a in attributes:
        t = 0.0
        if is_nominal[a]:
            found, sc, known, key = _nominal(build, a, node)
        else:
            found, sc, known, key, t = _numeric(build, build.columns.slot[a], node, exact)
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
                copy_into(best_member, build.chosen)
    return best_a, best_score, best_thr


@kernel
def grow_regression(data, columns, stopping, order, room, status):
    """The whole regression tree, depth first, or best first up to ``stopping.max_leaves`` leaves
    (0: no limit; the key is weight x decrease, the gain of a regression split); ``room`` and
    ``status`` as for ``grow.py: grow_cart``. Returns per node, in creation order: weight, mean,
    mean squared error, attribute (-1: leaf), threshold, subset membership by value code, first
    child, score; and whether the tree outgrew the room."""
    n = data.y.shape[0]
    targets = np.zeros(room.rows if room.fractional else n)
    copy_into(targets[:n], data.y)
    build = new_build(data, columns, stopping, room, targets, False, 1)
    cap = build.tree.attr.shape[0]
    fit = (np.empty(cap), np.empty(cap), np.empty(cap))  # weight, value, impurity: set node by node
    weight, score = fit[0], build.tree.score
    fit[0][0], fit[1][0], fit[2][0] = _stats(build.arena.targets, build.arena.weights, 0, n)
    frontier = new_frontier(n, data.lengths, stopping.max_leaves)
    leaves, n_nodes = 1, 1
    if build.best_first:
        begin(frontier, *_decide(build, order, take(frontier, True, 0), fit))
    while waiting(frontier, build.best_first):
        node, go = expand(frontier, build, leaves, n_nodes, status)
        if not go:
            continue
        if not build.best_first:
            ok, n_const = _decide(build, order, node, fit)
            if not ok:
                continue
            node = with_const(node, n_const)
        fitted, lo, hi, list_lo, list_hi = split_children(build, node, n_nodes)
        if not fitted:
            return _result(fit, build.tree, n_nodes, True)
        c0, n_nodes, leaves = n_nodes, n_nodes + 2, leaves + 1  # the children's slots c0, c0 + 1
        for b in range(2):
            blank(build.tree, c0 + b)
            _child_stats(build.arena, lo[b], hi[b], c0 + b, node.id, fit)
        if not build.best_first:
            push_pair(frontier, c0, lo, hi, node.depth, node.n_const, list_lo, list_hi)
            continue
        kids, made = nonempty(lo, hi), np.zeros(2, dtype=np.bool_)
        for b in kids[::-1]:  # decided as scikit-learn's best-first builder does: the first branch first,
            # each child knowing no constant attribute
            made[b] = _decide(build, order, child(c0, b, lo, hi, list_lo, list_hi, node.depth, 0), fit)[0]
        for b in kids:  # queued the last first (among equal keys the first is popped first)
            if made[b]:
                queue(frontier, child(c0, b, lo, hi, list_lo, list_hi, node.depth, 0), -weight[c0 + b] * score[c0 + b])
    return _result(fit, build.tree, n_nodes, False)


@kernel
def _result(fit, tree, n_nodes, overflow):
    weight, value, impurity = fit
    attr, thr, member, first_child, score = cut(tree, n_nodes)
    return weight[:n_nodes], value[:n_nodes], impurity[:n_nodes], attr, thr, member, first_child, score, overflow


@kernel
def _decide(build, order, node, fit):
    """The per-node grower's ``decide`` for a regression node: the stopping rules, the attributes
    in their order, the best split and --min-gain. Records the split in ``build.tree``; returns
    (split or not, constants known to the children)."""
    weight, _, impurity = fit
    stopping, is_nominal, n_const = build.stopping, build.columns.is_nominal, node.n_const
    total = weight[node.id]
    if total <= 0 or impurity[node.id] <= EPSILON or is_nominal.shape[0] == 0:
        return False, n_const
    if stopping.max_depth >= 0 and node.depth >= stopping.max_depth:
        return False, n_const
    if total < stopping.min_split or total < 2 * stopping.min_leaf:
        return False, n_const
    attributes, n_const = attribute_order(order, build.columns, build.arena, node)
    best_member = np.zeros(build.chosen.shape[0], dtype=np.bool_)
    best_a, best_score, best_thr = _choose(build, attributes, node, total, order.exact, best_member)
    if best_a < 0 or not best_score >= stopping.min_gain - 1e-12:
        return False, n_const
    record(build.tree, node.id, (best_a, best_thr, best_score, best_member))
    return True, n_const

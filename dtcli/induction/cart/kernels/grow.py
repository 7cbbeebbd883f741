"""CART grown by compiled code (numba), depth first, on value lists sorted once.

The same tree as the per-node path (``grow/grower.py`` with ``search/cart.py: cart_choose``
and ``search/ties.py: SklearnOrder``), node for node: scikit-learn's tie order needs the nodes
in its depth-first order (its random generator runs from node to node), so
CART is grown depth first, not level by level; what the engine shares with
the level-wise C4.5 engine is the data layout. Each numeric attribute keeps
its rows sorted by value, and each node owns a segment of every list; a
split partitions the segments stably (SPRINT), so no node sorts anything.
The state travels in the named structures of ``state.py``.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.cart.kernels.chi import chi_square, split_gain
from dtcli.induction.cart.kernels.evaluate import evaluate, scratch
from dtcli.induction.cart.kernels.fraction import branch_of
from dtcli.induction.cart.kernels.frontier import begin, new_frontier, push_pair, queue, take, waiting
from dtcli.induction.cart.kernels.layout import child, expand, new_build, nonempty, with_const
from dtcli.induction.cart.kernels.order import attribute_order
from dtcli.induction.cart.kernels.partition import split_children
from dtcli.induction.cart.kernels.scores import pairwise_sum
from dtcli.induction.cart.kernels.state import Trace
from dtcli.induction.cart.kernels.tree import blank, child_counts, cut, record
from dtcli.induction.kernels.arrays import copy_into
from dtcli.induction.kernels.jit import kernel


@kernel
def grow_cart(data, columns, scoring, stopping, order, room, status):
    """The whole tree, depth first, or best first up to ``stopping.max_leaves`` leaves (0: no
    limit; see the module docstring); ``stopping.chi_alpha`` above 0: chi-square pre-pruning
    (``scoring.lgammas``: see ``chi.py``). Returns per node, in creation order: counts, label,
    attribute (-1: leaf), threshold, subset membership by value code, first child, score, gain
    (best first or with the chi-square test), the chi-square tests made (``decide``), and whether
    the tree outgrew ``room`` (``room.fractional``: ``--missing fractional``, see ``fraction.py``;
    else the room is the rows' and the nodes' count). ``status`` receives, as it goes, the depth
    of the node expanded, the nodes so far and the rows expanded so far."""
    n = data.y.shape[0]
    build, counts, label = start(data, columns, scoring, stopping, room)
    cap = build.tree.attr.shape[0]
    gains = np.zeros(cap if build.best_first or stopping.chi_alpha > 0 else 1)  # each split's gain, when needed
    trace = new_trace(cap if stopping.chi_alpha > 0 else 1)
    frontier = new_frontier(n, data.lengths, stopping.max_leaves)
    leaves, n_nodes = 1, 1
    if build.best_first:
        begin(frontier, *decide(build, scoring, order, take(frontier, True, 0), counts[0], gains, trace))
    while waiting(frontier, build.best_first):
        node, go = expand(frontier, build, leaves, n_nodes, status)
        if not go:
            continue
        if not build.best_first:
            ok, n_const = decide(build, scoring, order, node, counts[node.id], gains, trace)
            if not ok:
                continue
            node = with_const(node, n_const)
        fitted, lo, hi, list_lo, list_hi = split_children(build, node, n_nodes)
        if not fitted:
            return tree_result(counts, label, build.tree, gains, trace, n_nodes, True)
        c0, n_nodes, leaves = n_nodes, n_nodes + 2, leaves + 1  # the children's slots c0, c0 + 1
        for b in range(2):
            blank(build.tree, c0 + b)
            child_counts(counts, label, build.arena, lo[b], hi[b], c0 + b, node.id)
        if not build.best_first:
            push_pair(frontier, c0, lo, hi, node.depth, node.n_const, list_lo, list_hi)
            continue
        kids, made = nonempty(lo, hi), np.zeros(2, dtype=np.bool_)
        for b in kids[::-1]:  # decided as scikit-learn's best-first builder does: the first branch first,
            # each child knowing no constant attribute
            kid = child(c0, b, lo, hi, list_lo, list_hi, node.depth, 0)
            made[b] = decide(build, scoring, order, kid, counts[kid.id], gains, trace)[0]
        for b in kids:  # queued the last first (among equal keys the first is popped first), by how much
            if made[b]:  # the split decreases the criterion, times the child's weight
                key = -pairwise_sum(counts[c0 + b].copy()) * build.tree.score[c0 + b]
                queue(frontier, child(c0, b, lo, hi, list_lo, list_hi, node.depth, 0), key)
    return tree_result(counts, label, build.tree, gains, trace, n_nodes, False)


@kernel
def start(data, columns, scoring, stopping, room):
    """What the builder holds before it decides the root: its ``state.Build``, and each node's
    class counts and label (set node by node, as the tree's arrays are; the root's here)."""
    n, y, w = data.y.shape[0], data.y, data.w
    targets = np.zeros(room.rows if room.fractional else n, dtype=np.int8)  # at most 127 classes (the glue)
    copy_into(targets[:n], y)
    unit = not room.fractional
    for r in range(n):
        if w[r] != 1.0:
            unit = False
    build = new_build(data, columns, stopping, room, targets, unit, scoring.n_classes)
    cap = build.tree.attr.shape[0]
    counts = np.empty((cap, scoring.n_classes))
    label = np.empty(cap, dtype=np.int64)
    counts[0, :] = 0.0
    for r in range(n):
        counts[0, y[r]] += w[r]
    label[0] = np.argmax(counts[0])
    return build, counts, label


@kernel
def new_trace(size):
    """Room for ``size`` chi-square tests: node, depth, cases, attribute, df, statistic, p-value,
    kept; and their count."""
    return Trace(
        np.zeros(size, dtype=np.int64),
        np.zeros(size, dtype=np.int64),
        np.zeros(size),
        np.zeros(size, dtype=np.int64),
        np.zeros(size, dtype=np.int64),
        np.zeros(size),
        np.zeros(size),
        np.zeros(size, dtype=np.bool_),
        np.zeros(1, dtype=np.int64),
    )


@kernel
def tree_result(counts, label, tree, gains, trace, n_nodes, overflow):
    attr, thr, member, first_child, score = cut(tree, n_nodes)
    return counts[:n_nodes], label[:n_nodes], attr, thr, member, first_child, score, gains[:n_nodes], trace, overflow


@kernel
def decide(build, scoring, order, node, node_counts, gains, trace):
    """The per-node grower's ``decide`` at one node: the stopping rules, the attributes in
    their order, the best split, --min-gain and the chi-square test. Records the split in
    ``build.tree`` and returns (split or not, constants known to the children)."""
    stopping, n_const = build.stopping, node.n_const
    if stops(stopping, node, node_counts):
        return False, n_const
    attributes, n_const = attribute_order(order, build.columns, build.arena, node)
    weight = pairwise_sum(build.arena.weights[node.rs : node.re])  # the reference's node weight: numpy's sum
    best_a, _, best_score, best_thr, best_member, _ = best_split(build, scoring, attributes, node, node_counts, weight)
    if best_a < 0 or not best_score >= stopping.min_gain - 1e-12:
        return False, n_const
    best = (best_a, best_thr, best_score, best_member)
    if stopping.chi_alpha > 0 or build.best_first:
        split = _known_split(build, node, best, node_counts.shape[0])
        if stopping.chi_alpha > 0 and not _chi_test(
            split, scoring.lgammas, stopping.chi_alpha, node, weight, best_a, trace
        ):
            return False, n_const
        gains[node.id] = split_gain(split, weight)
    record(build.tree, node.id, best)
    return True, n_const


@kernel
def stops(stopping, node, node_counts):
    """Whether the stopping rules make ``node`` a leaf before any attribute is scored (no weight,
    one class, the depth, --min-split, the purity, room for two leaves)."""
    total = 0.0
    nonzero = 0
    biggest = 0.0
    for c in range(node_counts.shape[0]):
        total += node_counts[c]
        if node_counts[c] > 0:
            nonzero += 1
        if node_counts[c] > biggest:
            biggest = node_counts[c]
    if total <= 0 or nonzero <= 1 or (stopping.max_depth >= 0 and node.depth >= stopping.max_depth):
        return True
    return total < stopping.min_split or biggest / total >= stopping.purity or total < 2 * stopping.min_leaf


@kernel
def best_split(build, scoring, attributes, node, node_counts, weight):
    """The first best split over ``attributes`` in the order given (the highest key; the first on
    a tie): (attribute or -1, key, score, threshold, value membership, how many attributes reach
    that key)."""
    best_a, best_key, best_score, best_thr, ties, unordered = -1, -np.inf, 0.0, 0.0, 0, False
    best_member = np.zeros(build.chosen.shape[0], dtype=np.bool_)
    work, tally = scratch(node_counts.shape[0])
    for a in attributes:
        to_beat = best_key if best_a >= 0 else -np.inf
        found, key, sc, t = evaluate(build, scoring, a, node, node_counts, weight, to_beat, work, tally)
        unordered |= found and key != key  # a NaN key: which attribute wins depends on the order
        if found and (best_a < 0 or key > best_key):
            best_a, best_key, best_score, best_thr, ties = a, key, sc, t, 1
            copy_into(best_member, build.chosen)
        elif found and key == best_key:
            ties += 1
    return best_a, best_key, best_score, best_thr, best_member, max(ties, 2) if unordered else ties


@kernel
def _known_split(build, node, best, n_classes):
    """The (2, classes) weights of the node's known cases by branch of ``best``, in row order (as
    ``np.add.at`` adds them)."""
    best_a, best_thr, _, best_member = best
    arena = build.arena
    split = np.zeros((2, n_classes))
    for i in range(node.rs, node.re):
        b = branch_of(i, arena, build.columns, best_a, best_member, best_thr)
        if b >= 0:
            split[b, arena.targets[i]] += arena.weights[i]
    return split


@kernel
def _chi_test(split, lgammas, alpha, node, weight, attribute, trace):
    """The chi-square test of ``split``, recorded in ``trace``: whether the split is kept."""
    statistic, df, p_value = chi_square(split, lgammas)
    keep = p_value < alpha
    k = trace.count[0]
    trace.node[k], trace.depth[k], trace.cases[k], trace.attr[k] = node.id, node.depth, weight, attribute
    trace.df[k], trace.statistic[k], trace.p_value[k], trace.kept[k] = df, statistic, p_value, keep
    trace.count[0] = k + 1
    return keep

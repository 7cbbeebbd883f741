"""The tree grown side by side (``speculate.py``) walked in scikit-learn's true order (numba).

The walk is ``grow.py: grow_cart``'s depth-first loop. A node decided ahead of its turn is not
decided again: the true generator runs over the constants it recorded (``order.replay_order``),
which puts the generator and the attribute arrays where deciding it would have, and its test
and its children's segments and class counts are taken as recorded (each child counted when its
job took it, before its own split moved its rows: ``grow_cart``'s sums); at a tied node, the test
is the tied split the true order visits first (its children swapped if it divides the rows the
other way round). A hole (a tie, left undivided) and every node below it are decided here, in
order, as ``grow_cart`` decides them.
The nodes are numbered as ``grow_cart`` numbers them, so the arrays returned are its arrays.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.cart.kernels.frontier import TOP, new_frontier, push_pair
from dtcli.induction.cart.kernels.grow import decide, new_trace, tree_result
from dtcli.induction.cart.kernels.layout import expand, with_const
from dtcli.induction.cart.kernels.order import replay_order
from dtcli.induction.cart.kernels.partition import split_children
from dtcli.induction.cart.kernels.speculate import EARLY, HOLE, TIED, VISITED
from dtcli.induction.cart.kernels.tree import blank, child_counts, record, test_of
from dtcli.induction.kernels.jit import kernel


@kernel
def replay(build, scoring, order, store, root, counts, label, lengths, status):
    """``grow_cart``'s result (counts, label, attribute, threshold, membership, first child, score,
    gains, the chi-square trace, overflow) for the tree whose root was decided ahead as ``store``'s
    node ``root``; ``build``, ``counts`` and ``label`` as ``grow.start`` made them, ``order`` fresh."""
    n = build.side.shape[0]
    gains, trace = np.zeros(1), new_trace(1)
    frontier = new_frontier(n, lengths, 0)
    refs = np.empty(n + 2, dtype=np.int64)  # by stack slot: the node's reference in ``store``, or -1
    refs[0] = root
    leaves, n_nodes = 1, 1
    found = np.zeros(build.columns.is_nominal.shape[0], dtype=np.bool_)
    while frontier.counts[TOP] > 0:
        ref = refs[frontier.counts[TOP] - 1]
        node, _ = expand(frontier, build, leaves, n_nodes, status)
        kind = store.kind[ref] if ref >= 0 else HOLE
        if kind == EARLY:
            continue
        c0 = n_nodes
        if kind == HOLE:
            ok, n_const = decide(build, scoring, order, node, counts[node.id], gains, trace)
            if not ok:
                continue
            _, lo, hi, list_lo, list_hi = split_children(build, with_const(node, n_const), c0)
            for b in range(2):
                blank(build.tree, c0 + b)
                child_counts(counts, label, build.arena, lo[b], hi[b], c0 + b, node.id)
            first, swapped = -1, False
        else:
            visited, n_const = replay_order(order, build.columns, build.arena, node, _found(store, ref, found))
            if kind == VISITED:
                continue
            swapped = _chosen(build.tree, node.id, store, ref, kind == TIED, visited)
            lo, hi, list_lo, list_hi = _recorded(store, ref, node, swapped)
            build.tree.first_child[node.id] = c0
            first = store.tree.first_child[ref]
            for b in range(2):
                blank(build.tree, c0 + b)
                if hi[b] > lo[b]:  # (decided ahead, so counted there, before its own split moved its rows)
                    _taken_counts(counts, label, store.counts[first + (1 - b if swapped else b)], c0 + b, node.id)
                else:
                    child_counts(counts, label, build.arena, lo[b], hi[b], c0 + b, node.id)
        top = frontier.counts[TOP]
        push_pair(frontier, c0, lo, hi, node.depth, n_const, list_lo, list_hi)
        for b in (1, 0):  # as push_pair pushes them
            if hi[b] > lo[b]:
                refs[top] = -1 if first < 0 else first + (1 - b if swapped else b)
                top += 1
        n_nodes, leaves = n_nodes + 2, leaves + 1
    return tree_result(counts, label, build.tree, gains, trace, n_nodes, False)


@kernel
def _taken_counts(counts, label, recorded, child, parent):
    """``tree.child_counts`` for a child counted ahead of its turn: its ``recorded`` counts (summed
    in the same order), and its label (the parent's when it holds no weight)."""
    weight = 0.0
    for c in range(counts.shape[1]):
        counts[child, c] = recorded[c]
        weight += recorded[c]
    label[child] = np.argmax(counts[child]) if weight > 0 else label[parent]


@kernel
def _found(store, ref, found):
    """``found``, set to the attributes node ``ref`` found constant (``store.found``'s bits)."""
    bits = store.found[ref]
    for a in range(found.shape[0]):
        found[a] = (bits[a // 8] >> (a % 8)) & 1 == 1
    return found


@kernel
def _chosen(tree, node, store, ref, tied, visited):
    """Record at ``node`` of ``tree`` the test decided ahead at ``ref``, or at a tied node the tied
    split first in ``visited`` (the true visiting order); returns whether that split's branches are
    the recorded children the other way round."""
    if not tied:
        record(tree, node, test_of(store.tree, ref))
        return False
    ties = store.ties
    for a in visited:
        for k in range(ties.first[ref], ties.first[ref] + ties.count[ref]):
            if ties.attr[k] == a:
                record(tree, node, (a, ties.thr[k], ties.score[k], ties.member[k].copy()))
                return ties.swapped[k]
    raise AssertionError("a tied split the true order does not visit")


@kernel
def _recorded(store, ref, node, swapped):
    """The children's row and list bounds of a node split ahead (``partition.split_children``'s),
    the two children exchanged when ``swapped``."""
    width = node.ls.shape[0]
    lo, hi = np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64)
    list_lo, list_hi = np.zeros((2, max(width, 1)), dtype=np.int64), np.zeros((2, max(width, 1)), dtype=np.int64)
    left, right = (1, 0) if swapped else (0, 1)
    middle = node.rs + store.n_left[ref]
    lo[left], hi[left], lo[right], hi[right] = node.rs, middle, middle, node.re
    for s in range(width):
        m = store.middle[ref, s]
        list_lo[left, s], list_hi[left, s], list_lo[right, s], list_hi[right, s] = node.ls[s], m, m, node.le[s]
    return lo, hi, list_lo, list_hi

"""The tree a compiled CART builder makes, node by node (numba): a ``state.Tree`` of arrays."""

from __future__ import annotations

import numpy as np

from dtcli.induction.cart.kernels.state import Tree
from dtcli.induction.kernels.arrays import copy_into
from dtcli.induction.kernels.jit import kernel


@kernel
def tree_arrays(cap, is_nominal, n_values):
    """Per node of a tree of at most ``cap`` nodes: attribute (-1: leaf), threshold, score,
    membership by value code, first child; and the most values of a nominal attribute. Only the
    root is set: each node's entries are set when the node is made (``blank``), so that the memory
    taken grows with the nodes made, not with the room (2n + 1 nodes: pages never written are
    never resident)."""
    widest = 1
    for a in range(is_nominal.shape[0]):
        if is_nominal[a] and n_values[a] > widest:
            widest = n_values[a]
    tree = Tree(
        np.empty(cap, dtype=np.int64),
        np.empty(cap),
        np.empty(cap),
        np.empty((cap, widest), dtype=np.bool_),
        np.empty(cap, dtype=np.int64),
    )
    blank(tree, 0)
    return tree, widest


@kernel
def blank(tree, node):
    """``node`` made: a leaf (attribute -1, threshold 0, score NaN, no member, first child 0)."""
    tree.attr[node], tree.thr[node], tree.score[node], tree.first_child[node] = -1, 0.0, np.nan, 0
    tree.member[node, :] = False


@kernel
def record(tree, node, best):
    """Record the test ``best`` (attribute, threshold, score, value membership) at ``node``."""
    best_a, best_thr, best_score, best_member = best
    tree.attr[node], tree.thr[node], tree.score[node] = best_a, best_thr, best_score
    copy_into(tree.member[node], best_member)


@kernel
def test_of(tree, node):
    """The test recorded at ``node``, as ``record`` takes it."""
    return tree.attr[node], tree.thr[node], tree.score[node], tree.member[node].copy()


@kernel
def undo(tree, node):
    """A node decided but never split (best first, out of leaves) is a leaf again."""
    record(tree, node, (-1, 0.0, np.nan, np.zeros(tree.member.shape[1], dtype=np.bool_)))


@kernel
def cut(tree, n_nodes):
    """The first ``n_nodes`` nodes: attribute, threshold, membership, first child, score."""
    return (
        tree.attr[:n_nodes],
        tree.thr[:n_nodes],
        tree.member[:n_nodes],
        tree.first_child[:n_nodes],
        tree.score[:n_nodes],
    )


@kernel
def child_counts(counts, label, arena, lo, hi, child, parent):
    """A child's class counts over its entries ``lo:hi`` (in row order), and its label (the
    parent's when it holds no weight)."""
    counts[child, :] = 0.0
    for i in range(lo, hi):
        counts[child, arena.targets[i]] += arena.weights[i]
    weight = 0.0
    for c in range(counts.shape[1]):
        weight += counts[child, c]
    label[child] = np.argmax(counts[child]) if weight > 0 else label[parent]

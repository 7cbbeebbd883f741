"""The tree a compiled CART builder makes, node by node (numba): a ``state.Tree`` of arrays."""

from __future__ import annotations

import numpy as np

from dtcli.induction.cart.kernels.state import Tree
from dtcli.induction.kernels.jit import kernel


@kernel
def tree_arrays(cap, is_nominal, n_values):
    """Per node of a tree of at most ``cap`` nodes: attribute (-1: leaf), threshold, score,
    membership by value code, first child; and the most values of a nominal attribute."""
    widest = 1
    for a in range(is_nominal.shape[0]):
        if is_nominal[a] and n_values[a] > widest:
            widest = n_values[a]
    tree = Tree(
        np.full(cap, -1, dtype=np.int64),
        np.zeros(cap),
        np.full(cap, np.nan),
        np.zeros((cap, widest), dtype=np.bool_),
        np.zeros(cap, dtype=np.int64),
    )
    return tree, widest


@kernel
def record(tree, node, best):
    """Record the test ``best`` (attribute, threshold, score, value membership) at ``node``."""
    best_a, best_thr, best_score, best_member = best
    tree.attr[node], tree.thr[node], tree.score[node] = best_a, best_thr, best_score
    tree.member[node, :] = best_member


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

"""CART subtrees grown side by side, ahead of their turn (numba): the work of ``cart/parallel.py``.

scikit-learn's generator runs from node to node in depth-first order, so a node's attribute
order depends on every node decided before it. The order decides only ties, though: an
attribute with the highest key alone wins in any order. So subtrees can be grown at once, each
with a copy of the generator that is out of step, as long as each node records what the order
touched: which attributes it found constant (``Store.found``) and whether its best key was
shared (a *hole*: such a node is left undivided, its rows as they were). ``replay.py`` then
walks the tree in the true order, running the true generator over the recorded constants, and
decides the holes for real. Without scikit-learn's order (``order.exact`` false) attributes go
in column order and nothing is a hole.

Each subtree grown is a *job*: its own stack (``frontier.py: frontier_of``), its own ``hist``
and ``chosen``, the shared arena (each node owns its segments, and the scratch buffers of the
rows at the same positions), its thread's scratch buffers for list segments, and the shared
``Store``, in which it allocates its children from its thread's own region. Classification,
depth first, without chi-square tests or fractional cases.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.cart.kernels.frontier import TOP, push_pair, take
from dtcli.induction.cart.kernels.grow import best_split, stops
from dtcli.induction.cart.kernels.layout import with_const
from dtcli.induction.cart.kernels.order import attribute_order
from dtcli.induction.cart.kernels.partition import split_children
from dtcli.induction.cart.kernels.scores import pairwise_sum
from dtcli.induction.cart.kernels.state import Store
from dtcli.induction.cart.kernels.tree import blank, child_counts, record, tree_arrays
from dtcli.induction.kernels.jit import kernel

EARLY, VISITED, SPLIT, HOLE = 0, 1, 2, 3  # a leaf by the stopping rules, a leaf after scoring, a split, a tie


@kernel
def new_store(cap, columns, n_classes):
    """Room for ``cap`` nodes decided ahead of their turn (pages never written are never resident)."""
    tree, _ = tree_arrays(cap, columns.is_nominal, columns.n_values)
    return Store(
        np.empty(cap, dtype=np.int8),
        tree,
        np.empty((cap, n_classes)),
        np.empty(cap, dtype=np.int64),
        np.empty((cap, columns.is_nominal.shape[0]), dtype=np.bool_),
        np.empty(cap, dtype=np.int64),
        np.empty((cap, max(columns.original.shape[0], 1)), dtype=np.int32),
    )


@kernel
def grow_job(build, scoring, order, frontier, store, alloc, budget, status):
    """Grow the job's waiting nodes depth first, each decided (``_ahead``) into ``store`` by its
    id, children allocated at ``alloc[0]``, until none waits (returns True) or ``budget`` rows
    were expanded (False). ``status``: the depth last expanded, nodes made, rows expanded."""
    spent = 0
    while frontier.counts[TOP] > 0 and spent < budget:
        node = take(frontier, False, -1)
        status[0], status[2] = node.depth, status[2] + node.re - node.rs
        kind, n_const = _ahead(build, scoring, order, node, store)
        store.kind[node.id] = kind
        if kind != SPLIT:
            continue
        c0 = alloc[0]
        alloc[0] = c0 + 2
        _, lo, hi, list_lo, list_hi = split_children(build, with_const(node, n_const), c0)
        store.n_left[node.id] = hi[0] - lo[0]
        for s in range(list_hi.shape[1]):
            store.middle[node.id, s] = list_hi[0, s]
        for b in range(2):
            blank(store.tree, c0 + b)
            child_counts(store.counts, store.label, build.arena, lo[b], hi[b], c0 + b, node.id)
        push_pair(frontier, c0, lo, hi, node.depth, n_const, list_lo, list_hi)
        spent += node.re - node.rs
        status[1] += 2
    return frontier.counts[TOP] == 0


@kernel
def _ahead(build, scoring, order, node, store):
    """``grow.decide`` at ``node`` with an out-of-step order: (EARLY, VISITED, SPLIT or HOLE, the
    constants known to its children); the constants it found are kept in ``store.found``."""
    node_counts = store.counts[node.id]
    if stops(build.stopping, node, node_counts):
        return EARLY, node.n_const
    attributes, n_const = attribute_order(order, build.columns, build.arena, node)
    if order.exact:
        store.found[node.id, :] = False
        for i in range(node.n_const, n_const):
            store.found[node.id, order.constant[i]] = True
    weight = pairwise_sum(build.arena.weights[node.rs : node.re])
    best_a, best_score, best_thr, best_member, ties = best_split(build, scoring, attributes, node, node_counts, weight)
    if order.exact and ties > 1:
        return HOLE, n_const
    if best_a < 0 or not best_score >= build.stopping.min_gain - 1e-12:
        return VISITED, n_const
    record(build.tree, node.id, (best_a, best_thr, best_score, best_member))
    return SPLIT, n_const

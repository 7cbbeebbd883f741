"""CART subtrees grown side by side, ahead of their turn (numba): the work of ``cart/parallel.py``.

scikit-learn's generator runs from node to node in depth-first order, so a node's attribute
order depends on every node decided before it. The order decides only ties, though: an
attribute with the highest key alone wins in any order. So subtrees can be grown at once, each
with a copy of the generator that is out of step, as long as each node records what the order
touched: which attributes it found constant (``Store.found``) and whether its best key was
shared. Shared keys are common in small nodes (two attributes that separate the same rows), so
a node whose tied splits all divide its rows alike (the same two sets, either way round) is
split anyway, and its tied splits are kept (``Store.ties``): its subtrees are the same whichever
wins. Any other tie is a *hole*: the node is left undivided, its rows as they were. ``replay.py``
then walks the tree in the true order, running the true generator over the recorded constants,
takes for each tied node the split the true order visits first, and decides the holes for real.
Without scikit-learn's order (``order.exact`` false) attributes go in column order and nothing
ties.

Each subtree grown is a *job*: its own stack (``frontier.py: frontier_of``), its own ``hist``
and ``chosen``, the shared arena (each node owns its segments), the shared scratch buffers (each
node uses its rows' positions) and the shared ``Store``, in which it allocates its children
from its thread's own region. Classification, depth first, without chi-square tests or
fractional cases.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.cart.kernels.evaluate import evaluate, scratch
from dtcli.induction.cart.kernels.frontier import TOP, push_pair, take
from dtcli.induction.cart.kernels.grow import best_split, stops
from dtcli.induction.cart.kernels.layout import with_const
from dtcli.induction.cart.kernels.order import attribute_order
from dtcli.induction.cart.kernels.partition import branch_sides, split_children
from dtcli.induction.cart.kernels.scores import pairwise_sum
from dtcli.induction.cart.kernels.state import Store, Ties
from dtcli.induction.cart.kernels.tree import blank, record, tree_arrays
from dtcli.induction.kernels.arrays import copy_into
from dtcli.induction.kernels.jit import kernel

# a leaf by the stopping rules, a leaf after scoring, a split, a tie left undivided, a tie split alike
EARLY, VISITED, SPLIT, HOLE, TIED = 0, 1, 2, 3, 4


@kernel
def new_store(cap, columns, n_classes):
    """Room for ``cap`` nodes decided ahead of their turn, of ``n_classes`` classes (pages never
    written are never resident; a million rows' tree takes about 16 MB of it)."""
    tree, widest = tree_arrays(cap, columns.is_nominal, columns.n_values)
    ties = Ties(
        np.empty(cap, dtype=np.int32),
        np.empty(cap, dtype=np.int32),
        np.empty(cap, dtype=np.int64),
        np.empty(cap),
        np.empty(cap),
        np.empty((cap, widest), dtype=np.bool_),
        np.empty(cap, dtype=np.bool_),
    )
    return Store(
        np.empty(cap, dtype=np.int8),
        tree,
        np.empty((cap, (columns.is_nominal.shape[0] + 7) // 8), dtype=np.uint8),
        np.empty(cap, dtype=np.int32),
        np.empty((cap, max(columns.original.shape[0], 1)), dtype=np.int32),
        ties,
        np.empty((cap, n_classes)),
    )


@kernel
def grow_job(build, scoring, order, frontier, store, alloc, budget, status):
    """Grow the job's waiting nodes depth first, each decided (``_ahead``) into ``store`` by its
    id, children allocated at ``alloc[0]`` and tied splits at ``alloc[1]`` (below ``alloc[2]``),
    until none waits (returns True) or ``budget`` rows were expanded (False). ``status``: the
    depth last expanded, nodes made, rows expanded."""
    spent = 0
    while frontier.counts[TOP] > 0 and spent < budget:
        node = take(frontier, False, -1)
        status[0], status[2] = node.depth, status[2] + node.re - node.rs
        node_counts = _class_counts(build.arena, node, scoring.n_classes)
        copy_into(store.counts[node.id], node_counts)  # (the walk takes them: its rows are split by now)
        kind, n_const = _ahead(build, scoring, order, node, node_counts, store, alloc)
        store.kind[node.id] = kind
        if kind not in (SPLIT, TIED):
            continue
        c0 = alloc[0]
        alloc[0] = c0 + 2
        _, lo, hi, list_lo, list_hi = split_children(build, with_const(node, n_const), c0)
        store.n_left[node.id] = hi[0] - lo[0]
        for s in range(list_hi.shape[1]):
            store.middle[node.id, s] = list_hi[0, s]
        for b in range(2):
            blank(store.tree, c0 + b)
        push_pair(frontier, c0, lo, hi, node.depth, n_const, list_lo, list_hi)
        spent += node.re - node.rs
        status[1] += 2
    return frontier.counts[TOP] == 0


@kernel
def _class_counts(arena, node, n_classes):
    """The node's class counts over its entries in row order (as ``tree.child_counts`` adds them)."""
    counts = np.zeros(n_classes)
    for i in range(node.rs, node.re):
        counts[arena.targets[i]] += arena.weights[i]
    return counts


@kernel
def _ahead(build, scoring, order, node, node_counts, store, alloc):
    """``grow.decide`` at ``node`` with an out-of-step order: (EARLY, VISITED, SPLIT, HOLE or TIED,
    the constants known to its children); the constants it found are kept in ``store.found``, a
    tied node's splits in ``store.ties`` (``_settle``). A split is recorded in ``build.tree``."""
    if stops(build.stopping, node, node_counts):
        return EARLY, node.n_const
    attributes, n_const = attribute_order(order, build.columns, build.arena, node)
    if order.exact:  # a bit an attribute
        store.found[node.id, :] = 0
        for i in range(node.n_const, n_const):
            a = order.constant[i]
            store.found[node.id, a // 8] |= np.uint8(1 << (a % 8))
    weight = pairwise_sum(build.arena.weights[node.rs : node.re])
    found = best_split(build, scoring, attributes, node, node_counts, weight)
    best_a, best_key, best_score, best_thr, best_member, ties = found
    kind = SPLIT
    if order.exact and ties > 1:
        kind = _settle(build, scoring, attributes, node, node_counts, weight, best_key, store, alloc)
        if kind == HOLE:
            return HOLE, n_const
    elif best_a < 0 or not best_score >= build.stopping.min_gain - 1e-12:
        kind = VISITED
    if kind in (SPLIT, TIED):
        record(build.tree, node.id, (best_a, best_thr, best_score, best_member))
    return kind, n_const


@kernel
def _settle(build, scoring, attributes, node, node_counts, weight, best_key, store, alloc):
    """A node whose best key ``best_key`` is shared: TIED when every attribute reaching it divides
    the node's rows into the same two sets (the first one's, either way round) and passes
    --min-gain alike, VISITED when none passes it, else HOLE (also when the thread's room for tied
    splits is used up). TIED keeps them in ``store.ties``, in ``attributes``' order."""
    n, ties, min_gain = node.re - node.rs, store.ties, build.stopping.min_gain
    first_sides, sides = np.empty(n, dtype=np.int8), np.empty(n, dtype=np.int8)
    first, k, passing = alloc[1], 0, 0
    no_member = np.zeros(build.chosen.shape[0], dtype=np.bool_)
    work, tally = scratch(node_counts.shape[0])
    for a in attributes:
        found, key, sc, thr = evaluate(build, scoring, a, node, node_counts, weight, best_key, work, tally)
        if not found or key != best_key:
            continue
        if first + k >= alloc[2]:
            return HOLE
        member = build.chosen if build.columns.is_nominal[a] else no_member
        branch_sides(build, node.rs, node.re, a, member, thr, sides if k else first_sides)
        alike, mirrored = True, True
        for j in range(n if k else 0):
            alike &= sides[j] == first_sides[j]
            mirrored &= sides[j] != first_sides[j]
        if not alike and not mirrored:
            return HOLE
        ties.attr[first + k], ties.thr[first + k], ties.score[first + k] = a, thr, sc
        copy_into(ties.member[first + k], member)
        ties.swapped[first + k] = not alike
        passing += sc >= min_gain - 1e-12
        k += 1
    if passing == 0:
        return VISITED
    if passing < k:
        return HOLE
    ties.first[node.id], ties.count[node.id] = first, k
    alloc[1] = first + k
    return TIED

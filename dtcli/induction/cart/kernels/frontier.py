"""The compiled CART builders' frontier: the nodes waiting to be expanded (numba).

Depth first a stack, the left child on top; best first (``--max-leaves``) slots, one a push,
under a heap on ``(key, order)`` as ``heapq`` orders ``(-weight x gain, order)`` pairs. The
frontier is a ``state.Frontier``: a ``state.Node`` of arrays (one entry a node), the heap's
arrays, and ``counts`` = (stack top, heap size, pushes so far).
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.cart.kernels.state import Frontier, Node
from dtcli.induction.kernels.jit import kernel

TOP, SIZE, PUSHED = 0, 1, 2


@kernel
def _stack(room, n, lengths):
    """Room for ``room`` nodes, holding the root (node 0, all ``n`` rows, each list whole) in slot 0."""
    stack = _empty(room, lengths.shape[0])
    store(stack, 0, Node(0, 0, n, 0, 0, np.zeros(lengths.shape[0], dtype=np.int64), lengths))
    return stack


@kernel
def _empty(room, n_lists):
    """Room for ``room`` nodes (a ``state.Node`` of arrays), none set."""
    width = max(n_lists, 1)
    return Node(
        np.empty(room + 2, dtype=np.int64),
        np.empty(room + 2, dtype=np.int64),
        np.empty(room + 2, dtype=np.int64),
        np.empty(room + 2, dtype=np.int64),
        np.empty(room + 2, dtype=np.int64),
        np.empty((room + 2, width), dtype=np.int64),
        np.empty((room + 2, width), dtype=np.int64),
    )


@kernel
def frontier_of(node):
    """A depth-first frontier holding ``node`` alone, with room for its subtree's nodes waiting
    (at most one a row)."""
    stack = _empty(node.re - node.rs, node.ls.shape[0])
    store(stack, 0, node)
    counts = np.zeros(3, dtype=np.int64)
    counts[TOP] = 1
    return Frontier(stack, np.zeros(1), np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64), counts)


@kernel
def carve(frontier, min_rows):
    """Depth first: take out of the stack the deepest-buried waiting node (the last to be expanded)
    of at least ``min_rows`` rows, unless it is the only one or next; returns it, or a node of id
    -1. The nodes above it move down one slot, in order."""
    top, stack = frontier.counts[TOP], frontier.stack
    for k in range(top - 1):
        if stack.re[k] - stack.rs[k] >= min_rows:
            node = take(frontier, False, k)
            for j in range(k, top - 1):
                store(stack, j, take(frontier, False, j + 1))
            frontier.counts[TOP] = top - 1
            return node
    empty = np.zeros(0, dtype=np.int64)
    return Node(-1, 0, 0, 0, 0, empty, empty)


@kernel
def new_frontier(n, lengths, max_leaves):
    """The frontier of a tree of ``n`` rows holding the root: depth first its stack's top is 1;
    best first (``max_leaves`` above 0) the root waits in slot 0 for the builder to decide it."""
    counts = np.zeros(3, dtype=np.int64)
    if max_leaves <= 0:
        counts[TOP] = 1
        return Frontier(
            _stack(n, n, lengths), np.zeros(1), np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64), counts
        )
    slots = min(2 * n, 2 * max_leaves)
    return Frontier(
        _stack(slots, n, lengths),
        np.zeros(slots + 2),
        np.zeros(slots + 2, dtype=np.int64),
        np.zeros(slots + 2, dtype=np.int64),
        counts,
    )


@kernel
def begin(frontier, ok, n_const):
    """Best first: the root, decided (whether it splits, the constants known to its children), goes
    on the heap if it splits."""
    frontier.stack.n_const[0] = n_const
    if ok:
        frontier.counts[SIZE] = heap_push(frontier.keys, frontier.orders, frontier.slots, 0, 0.0, 0, 0)


@kernel
def waiting(frontier, best_first):
    """Whether a node waits to be expanded."""
    return (frontier.counts[SIZE] if best_first else frontier.counts[TOP]) > 0


@kernel
def store(stack, at, node):
    """Put ``node`` in slot ``at`` of ``stack``."""
    stack.id[at], stack.rs[at], stack.re[at], stack.depth[at], stack.n_const[at] = (
        node.id,
        node.rs,
        node.re,
        node.depth,
        node.n_const,
    )
    for s in range(node.ls.shape[0]):
        stack.ls[at, s], stack.le[at, s] = node.ls[s], node.le[s]


@kernel
def take(frontier, best_first, at):
    """The next node to expand (``at`` negative) or the one in slot ``at``, out of the frontier."""
    counts = frontier.counts
    if at < 0 and best_first:
        at, counts[SIZE] = heap_pop(frontier.keys, frontier.orders, frontier.slots, counts[SIZE])
    elif at < 0:
        counts[TOP] -= 1
        at = counts[TOP]
    stack = frontier.stack
    return Node(
        stack.id[at],
        stack.rs[at],
        stack.re[at],
        stack.depth[at],
        stack.n_const[at],
        stack.ls[at].copy(),
        stack.le[at].copy(),
    )


@kernel
def queue(frontier, node, key):
    """Best first: put a decided node in the next slot and on the heap under ``key``."""
    counts = frontier.counts
    counts[PUSHED] += 1
    store(frontier.stack, counts[PUSHED], node)
    counts[SIZE] = heap_push(
        frontier.keys, frontier.orders, frontier.slots, counts[SIZE], key, counts[PUSHED], counts[PUSHED]
    )


@kernel
def push_pair(frontier, c0, lo, hi, depth, n_const, list_lo, list_hi):
    """Depth first: queue the node's non-empty children (``partition.split_children``), the left
    one on top so that it is expanded first."""
    for b in (1, 0):
        if hi[b] > lo[b]:
            at = frontier.counts[TOP]
            store(frontier.stack, at, Node(c0 + b, lo[b], hi[b], depth + 1, n_const, list_lo[b], list_hi[b]))
            frontier.counts[TOP] = at + 1


@kernel
def heap_push(keys, orders, slots, size, key, order, slot):
    """Add ``(key, order)`` with its payload ``slot``; returns the new size."""
    i = size
    while i > 0:
        parent = (i - 1) // 2
        if keys[parent] < key or (keys[parent] == key and orders[parent] < order):
            break
        keys[i], orders[i], slots[i] = keys[parent], orders[parent], slots[parent]
        i = parent
    keys[i], orders[i], slots[i] = key, order, slot
    return size + 1


@kernel
def heap_pop(keys, orders, slots, size):
    """Remove the smallest ``(key, order)``; returns its slot and the new size."""
    top = slots[0]
    size -= 1
    key, order, slot = keys[size], orders[size], slots[size]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and (
            keys[child + 1] < keys[child] or (keys[child + 1] == keys[child] and orders[child + 1] < orders[child])
        ):
            child += 1
        if key < keys[child] or (key == keys[child] and order < orders[child]):
            break
        keys[i], orders[i], slots[i] = keys[child], orders[child], slots[child]
        i = child
    if size > 0:
        keys[i], orders[i], slots[i] = key, order, slot
    return top, size

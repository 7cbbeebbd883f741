"""CART grown on every core: subtrees decided ahead of their turn, then walked in scikit-learn's order.

The classification builder's nodes depend on each other only through scikit-learn's generator,
which breaks ties (``kernels/speculate.py`` says why that leaves subtrees free to grow at once).
So the builder runs as *jobs*, one subtree each, on a few threads (the kernels release the GIL):
a job grows depth first in slices of ``SLICE_ROWS`` rows, and after each slice, when no job waits
to be taken, it hands over the deepest-buried node of its stack with at least ``CARVE_ROWS``
rows (the last it would have reached) as a new job. When every job is done, ``kernels/replay.py``
walks the tree in the true order and decides the nodes whose best key was shared.

The tree is ``kernels/grow.py: grow_cart``'s, array for array, however the work was cut
(tests/induction/cart/test_cart_parallel.py); only the time it takes depends on the threads.
"""

from __future__ import annotations

import threading

import numpy as np

from dtcli.induction.cart.kernels.state import Build, Node, Order

SLICE_ROWS = 20_000  # rows a job expands before it may hand a node over (about 10 ms)
CARVE_ROWS = 1_000  # the smallest subtree handed over (a job costs about 0.1 ms to start)
MAX_THREADS = 4


def threads_for(table, params) -> int:
    """How many threads grow ``table``'s CART tree: 1 (``kernels/grow.py`` alone) unless the
    tree is grown depth first for classes without chi-square tests or fractional cases, and this
    process may use more than one core (at most ``MAX_THREADS``)."""
    if table.is_regression or params.max_leaves or params.chi2_alpha or params.missing == "fractional":
        return 1
    from dtcli.induction.workers import usable_cores

    return min(usable_cores(), MAX_THREADS)


def grow_side_by_side(threads: int, data, columns, scoring, stopping, order, room, status) -> tuple:
    """``grow_cart``'s result (``kernels/grow.py``) for the same arguments, grown by ``threads``
    threads (``order``, a fresh ``state.Order``, is used by the walk in the true order alone).
    The nominal codes of ``data`` are put back in row order afterwards, whatever happens (the
    glue makes the table's columns again from them, without a copy held during growth)."""
    from dtcli.induction.cart.kernels.grow import start

    build, counts, label = start(data, columns, scoring, stopping, room)
    try:
        return _grow(threads, build, counts, label, data, columns, scoring, order, status)
    finally:
        _in_row_order(build.arena)


def _grow(threads: int, build, counts, label, data, columns, scoring, order, status) -> tuple:
    """Both steps: the jobs on ``threads`` threads, then the walk in the true order."""
    from dtcli.induction.cart.kernels.frontier import carve, frontier_of
    from dtcli.induction.cart.kernels.replay import replay
    from dtcli.induction.cart.kernels.speculate import grow_job, new_store

    n = len(data.y)
    region = 2 * n + 1  # each thread's nodes: a tree of n rows has at most 2n + 1
    store = new_store(threads * region, columns, counts.shape[1])
    n_lists = len(data.lengths)
    root = Node(0, 0, n, 0, 0, np.zeros(n_lists, dtype=np.int64), data.lengths.astype(np.int64))
    waiting = [(root, _copy(order))]
    busy = [0]
    made = np.zeros((threads, 3), dtype=np.int64)  # per thread: depth, nodes made, rows expanded
    changed = threading.Condition()
    failed: list = []

    def work(thread: int) -> None:
        # the thread's next node, next tied split and the end of its tied splits' room
        alloc = np.array([thread * region + (1 if thread == 0 else 0), thread * region, (thread + 1) * region])
        while True:
            with changed:
                while not waiting and busy[0] and not failed:
                    changed.wait()
                if not waiting or failed:
                    changed.notify_all()
                    return
                node, job_order = waiting.pop()
                busy[0] += 1
            try:
                job = _job_build(build, store)
                frontier = frontier_of(node)
                while not grow_job(job, scoring, job_order, frontier, store, alloc, SLICE_ROWS, made[thread]):
                    status[0], status[1], status[2] = made[thread, 0], made[:, 1].sum() + 1, made[:, 2].sum()
                    with changed:
                        if waiting:
                            continue
                        carved = carve(frontier, CARVE_ROWS)
                        if carved.id >= 0:
                            waiting.append((carved, _copy(job_order)))
                            changed.notify()
            except BaseException as exc:  # raised again by the caller's thread
                failed.append(exc)
            with changed:
                busy[0] -= 1
                changed.notify_all()

    others = [threading.Thread(target=work, args=(t,), daemon=True) for t in range(1, threads)]
    for thread in others:
        thread.start()
    work(0)
    for thread in others:
        thread.join()
    if failed:
        raise failed[0]
    return replay(build, scoring, order, store, 0, counts, label, data.lengths, np.zeros(3, dtype=np.int64))


def _in_row_order(arena) -> None:
    """Put the arena's nominal codes back in row order (the builder moved them with its rows)."""
    rows, codes = arena.rows, arena.codes
    scratch = np.empty_like(codes[0]) if len(codes) else None
    for column in codes:
        scratch[rows] = column
        column[:] = scratch


def _job_build(build, store):
    """The ``state.Build`` a job grows with: the shared arena, rows' sides and scratch buffers (each
    node uses its rows' positions), the store's tree, and counts by value and chosen values of its own."""
    return Build(
        build.arena,
        build.scratch,
        build.columns,
        store.tree,
        build.side,
        build.tops,
        build.room,
        build.unit,
        False,
        build.stopping,
        np.zeros_like(build.chosen),
        np.zeros_like(build.hist),
    )


def _copy(order):
    """A job's own copy of an order (its generator state and attribute arrays)."""
    return Order(order.exact, order.state.copy(), order.features.copy(), order.constant.copy())

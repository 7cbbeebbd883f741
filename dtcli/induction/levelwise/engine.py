"""The level-wise engine (man/dtree-performance.7): the tree grows one level at a time.

Contract: ``grow_levelwise(table, params, progress)`` returns, as a
FlatTree, the tree ``grow.grow(table, params)`` grows node by node, for the
parameters ``use_engine`` accepts (C4.5 and ID3 with every criterion but
CART's, missing values fractional, rejected or filled in, nominal and
numeric attributes; every stopping rule and attribute costs;
best-first growth, cut back from the whole tree by ``flat.best_first``), at
a cost per level of a few passes over the rows instead of a few numpy calls
per node:

- the rows at a level are records ``(row, weight, node)``, grouped by node
  and in row order within a node; a case whose tested value is missing
  becomes one record per branch, its weight times the branch's share;
- nominal attributes: one pass per attribute scores every node's split;
- numeric attributes: each keeps a list of its records sorted by value,
  sorted once at the root and carried down by a stable partition (SLIQ,
  SPRINT), so one scan finds every node's best cut; with ``--max-bins``,
  per-node histograms over quantile bins replace the lists;
- one more pass routes the records to the children;
- ``--missing majority``, ``class-majority``: each level first fills the
  frontier's missing values in from their nodes' rows (``fill.NodeFill``),
  in a copy of the columns, and re-sorts the numeric attributes that have
  missing values; ``root-majority``, ``root-class-majority`` fill the table
  once before growth.

The loops are compiled with numba (``levelwise/kernels/loops.py`` and the
modules it gathers) and run attribute by attribute in threads; ``C45Level``
and ``Id3Level`` score and choose each algorithm's splits. The per-node
grower in ``grow`` is the plain-numpy reference;
tests/induction/levelwise/test_engine.py and test_engine_id3.py grow trees
both ways and require the same trees.
Whether the engine runs is decided in ``backend.py`` (the one place that
chooses), from the table, the parameters and the ``--engine`` request.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import NamedTuple

import numpy as np

from dtcli.induction.criteria.constants import GRID_SCALE, KERNEL_CODES
from dtcli.induction.criteria.midpoint import midpoint
from dtcli.induction.grow.flat import FlatTree, best_first
from dtcli.induction.kernels.cache import load
from dtcli.induction.levelwise.c45_level import C45Level
from dtcli.induction.levelwise.chi import ChiTests, chi_square_leaves, in_growth_order
from dtcli.induction.levelwise.data import Candidates, Columns, LevelTree, Placer, assemble, sorted_list
from dtcli.induction.levelwise.fill import NodeFill
from dtcli.induction.levelwise.id3_level import Id3Level
from dtcli.induction.levelwise.kernels.state import Frontier, Records
from dtcli.induction.memory import release
from dtcli.induction.search.bins import BinnedView, bin_codes
from dtcli.induction.search.missing import NODE_FILL, filled_at_root
from dtcli.model.table import Table

ID3_CRITERIA = {name: KERNEL_CODES[name] for name in ("gain", "gain-ratio", "gini")}
# A table of fewer cells (rows x attributes) is grown in the calling thread: handing each attribute's
# scoring to a pool costs more than the second core gives back. The resident process's copies, with the
# kernels loaded, C4.5, best of 3 (one thread against a pool of two): Weka's credit-g (20,000 cells)
# 0.019 s against 0.061, segment-challenge (28,500) 0.024 against 0.079, make_data's 5,000 rows
# (100,000) 0.051 against 0.069, its 20,000 rows (400,000) 0.170 against 0.168.
IN_PLACE_CELLS = 200_000


def unsupported(params) -> str | None:
    """Why the engine cannot grow a tree with ``params`` (None: it can)."""
    if params.algorithm not in ("c45", "id3"):
        return f"the {params.algorithm} algorithm"
    if params.criterion not in ID3_CRITERIA:  # (algorithms.train makes entropy gain)
        return f"criterion {params.criterion}"
    return None


def use_engine(table: Table, params) -> bool:
    """Whether the engine can grow this tree (``backend`` decides whether it does)."""
    return not table.is_regression and unsupported(params) is None


def kernels():
    """The compiled kernels module, or None when numba cannot be used here."""
    return load("dtcli.induction.levelwise.kernels.loops")


def grow_levelwise(table: Table, params, progress=None, trace: list | None = None) -> FlatTree:
    """Grow a tree over the labelled rows of ``table`` level by level (see the module docstring).

    ``progress(level, frontier, records, seconds)``, when given, is called once per level. With
    chi-square pre-pruning, ``trace`` receives the tests (``ChiStep``) in the per-node order.
    """
    growth = _Growth(kernels(), table, params, progress)
    small = table.n_rows * max(len(table.attributes), 1) < IN_PLACE_CELLS
    _run(growth, table, 1 if small else os.cpu_count() or 1)
    return growth.finish(trace)


class InPlace:
    """A pool of no threads: each task runs in the calling thread, in turn, all of them when ``map`` is
    called (as a ThreadPoolExecutor submits them all then)."""

    def map(self, function, *iterables):
        return iter([function(*arguments) for arguments in zip(*iterables)])

    def shutdown(self) -> None:
        pass


class Start(NamedTuple):
    """A growth that begins at a frontier, not at a table's root (the Dask engine's last levels,
    ``distributed/finish.py``): every row of the table is a record of weight ``weights`` at frontier
    node ``node`` (rows grouped by node), the frontier's nodes have ``labels`` (their class) and
    ``depth``; ``binned`` holds the numeric attributes' bins (codes by row, each bin's largest
    value) and ``shape`` what the level rules read of the whole table (``distributed/engine.Shape``:
    its row count, and no columns)."""

    node: np.ndarray
    weights: np.ndarray
    labels: np.ndarray
    depth: int
    binned: dict
    shape: object


def grow_levels(table: Table, params, start: Start, threads: int = 1) -> list[LevelTree]:
    """The levels grown from the frontier ``start`` describes, that frontier first: C4.5 with
    ``--max-bins`` and fractional cases (the Dask engine's growth, which ``start`` continues)."""
    growth = _Growth(kernels(), table, params, None, start)
    _run(growth, table, threads)
    return growth.levels


def _run(growth, table: Table, threads: int) -> None:
    pool = InPlace() if threads == 1 else ThreadPoolExecutor(max_workers=threads)
    growth.carried_at_once = min(CARRIED_AT_ONCE, threads)  # (one thread: one list at a time)
    release(table.n_rows)  # the table's own columns, now views into the engine's blocks (data.Columns)
    try:
        growth.sort(pool)
        release(table.n_rows)  # the sorts' scratch arrays, freed in the worker threads' heaps
        while growth.level(pool):
            release(table.n_rows)  # the lists carried down replace the level's: the old ones go back
    finally:
        pool.shutdown()
        growth.columns.give_back(growth.table)


class _Growth:
    """One tree's growth, level after level: the records at the frontier, the numeric
    attributes' sorted lists (``orders``) and the levels grown so far."""

    def __init__(self, k, original: Table, params, progress, start: Start | None = None):
        table = filled_at_root(original, params.missing)  # root-majority, root-class-majority
        self.k, self.table, self.params, self.progress = k, table, params, progress
        self.labelled = table.labelled()
        rows = np.flatnonzero(self.labelled)
        self.n_classes = len(table.classes)
        self.attributes = table.attributes
        self.fill = None
        if params.missing in NODE_FILL:  # filled level by level, in a copy of the columns
            self.columns = Columns(table.take(np.arange(table.n_rows)), rows)
            self.fill = NodeFill(self.columns, params.missing, self.n_classes)
        else:
            self.columns = Columns.of(table, lend=True)  # (given back after growth: grow_levelwise)
        self.usable = [i for i, a in enumerate(self.attributes) if a.is_nominal or params.thresholds]
        self.numeric = [i for i in self.usable if not self.attributes[i].is_nominal]
        self.placer = Placer(original, params.thresholds or "midpoint")  # (placed as the reference does)
        self.recs = Records(  # records: 4-byte row, node and class, 8-byte weight
            np.arange(len(rows), dtype=np.int32),
            table.y[rows].astype(np.int32),
            table.weights[rows].astype(np.float64),
            np.zeros(len(rows), dtype=np.int32),
        )
        self.orders = {}  # numeric attribute -> its SortedList
        if params.algorithm == "id3":  # ID3 grows on a table binned beforehand (algorithms.train)
            self.binned = {}
            self.scorer = Id3Level(k, table, rows, params, self.columns, self.usable)
        else:
            max_bins = None if self.fill or start else params.max_bins  # (filled: ``train`` bins the table beforehand)
            self.binned = _binned(table, self.labelled, rows, self.numeric, max_bins)
            self.scorer = C45Level(k, table, params, self.columns, self.usable, self.binned)
            if self.binned:  # thresholds placed among the binned values, as the reference grows on them
                self.placer = Placer(BinnedView(original, max_bins, self.binned), self.placer.mode, snap=True)
                for i, (_, tops) in self.binned.items():
                    self.placer.distinct[i] = tops  # the binned column's distinct values (bin_codes)
        self.chi = None if params.chi2_alpha is None else ChiTests(params.chi2_alpha, self.n_classes, self.attributes)
        self.levels = []  # per level: counts, labels, attr, thr, nb, child start (within the next level), score
        self.carried_at_once = 1  # sorted lists carried down at a time (``_run`` sets it from its threads)
        self.parent_labels = np.zeros(1, dtype=np.int64)
        self.depth = 0
        self.started = time.perf_counter()
        if start is not None:
            self._begin_at(start)

    def _begin_at(self, start: Start) -> None:
        """Begin at the frontier ``start`` describes instead of the root: its records, bins and depth,
        and the level rules of the whole table (its row count decides which nominal attributes are
        counted in the average gain) with thresholds placed among the bins' values only."""
        self.recs = Records(self.recs.row, self.recs.y, np.asarray(start.weights, dtype=np.float64),
                            np.asarray(start.node, dtype=np.int32))  # fmt: skip
        self.parent_labels = np.asarray(start.labels, dtype=np.int64)
        self.depth = start.depth
        self.binned = start.binned
        self.scorer = C45Level(self.k, start.shape, self.params, self.columns, self.usable, self.binned)
        self.placer = Placer(start.shape, self.params.thresholds, snap=True)
        for i, (_, tops) in self.binned.items():
            self.placer.distinct[i] = tops

    def sort(self, pool) -> None:
        """The sorted lists of the numeric attributes not binned (sorted in parallel)."""
        refilled = self.fill.numeric if self.fill else []
        exact = [i for i in self.numeric if i not in self.binned and i not in refilled]
        made = pool.map(partial(sorted_list, self.columns, self.table, self.labelled), exact)
        for i, (order, distinct) in zip(exact, made):
            self.orders[i] = order
            self.placer.distinct[i] = distinct

    def level(self, pool) -> bool:
        """Grow the frontier by one level; False when no node splits (the tree is grown)."""
        k, n_nodes = self.k, len(self.parent_labels)
        if self.fill is not None:
            for i, filled in self.fill.refill(self.recs, n_nodes).items():
                self.orders[i] = filled
                self.placer.distinct[i] = self.fill.distinct[i]
        counts = k.class_counts(self.recs, n_nodes, self.n_classes)
        totals = counts.sum(axis=1)
        tops = counts.max(axis=1)
        labels = np.where(totals > 0, counts.argmax(axis=1), self.parent_labels)
        level = LevelTree(counts, labels, n_nodes)
        self.levels.append(level)
        if self.progress is not None:
            self.progress(self.depth, n_nodes, len(self.recs.row), time.perf_counter() - self.started)
        active = self.scorer.splittable(counts, totals, tops, self.depth)
        if not active.any():
            return False
        front = Frontier(active, totals, self.n_classes, self.scorer.min_leaf)
        candidates = Candidates(self.recs, front, len(self.attributes))
        list(pool.map(partial(self.scorer.score, self.orders, self.placer.distinct, candidates), self.usable))
        best, scores, gains, fixed = self.scorer.select(candidates)
        split = np.flatnonzero(best >= 0)
        if len(split) == 0:
            return False
        self._set_tests(level, split, best, scores, gains, fixed, candidates)
        del candidates
        release(self.table.n_rows)  # the candidates' arrays: the records and lists carried down reuse no holes
        return self._descend(pool, level, split)

    def _set_tests(self, level: LevelTree, split, best, scores, gains, fixed: dict, candidates: Candidates) -> None:
        """Give the split nodes their tests: attribute, score, gain, branches and thresholds
        (``fixed``: those the reference placed; others from the cut, as J48 places them)."""
        columns = self.columns
        level.attr[split] = best[split]
        level.score[split] = scores[split]
        level.gain[split] = gains[split]
        nominal_split = columns.is_nominal[best[split]]
        level.nb[split] = np.where(nominal_split, np.array(columns.n_values)[best[split]], 2)
        for s in split[~nominal_split]:
            i = int(best[s])
            if s in fixed:
                level.thr[s] = fixed[s]
                continue
            lower, upper = candidates.cut_of(i, s)
            level.thr[s] = self.placer.place(i, midpoint(lower, upper), lower)

    def _route(self, level: LevelTree):
        """Lay the children out and send the records down: each record's branch, each branch's weight."""
        level.cstart = np.cumsum(level.nb) - level.nb
        return self.k.route(self.recs, level.attr, level.thr, np.maximum(level.nb, 1), self.columns.blocks)

    def _descend(self, pool, level: LevelTree, split) -> bool:
        """Route the records to the children (after the chi-square tests, if any), carry the
        sorted lists down, and make the children the frontier; False if no split is left."""
        k = self.k
        branch, sizes = self._route(level)
        if self.chi is not None and chi_square_leaves(level, split, branch, self.recs, self.depth, self.chi):
            if not (level.attr >= 0).any():
                return False
            branch, sizes = self._route(level)
        shares = branch_shares(sizes, level.nb)
        n_children = int(level.nb.sum())
        scale = GRID_SCALE if self.params.grid else 0.0  # (--max-bins: fractional weights on the grid)
        self.recs, dest, dups = k.spread(self.recs, branch, shares, level.cstart, n_children, scale)
        del branch, sizes, shares
        carry = [i for i in self.orders if self.fill is None or i not in self.fill.distinct]  # (others: refilled)
        carrying = partial(_carry, k, self.orders, dest, dups, self.recs, n_children)
        # two lists in the making at a time (the workers run ahead otherwise, and more old and new lists
        # coexist): on a million rows 0.87x the time of one at a time, with the same peak (pruning's is higher)
        step = self.carried_at_once
        for at in range(0, len(carry), step):
            batch = carry[at : at + step]
            for i, carried_list in zip(batch, pool.map(carrying, batch)):
                self.orders[i] = carried_list  # the old list goes as soon as its successor is made
        del dest, dups, carrying
        self.parent_labels = np.repeat(level.labels, level.nb)
        self.scorer.descend(level.attr, level.nb)
        self.depth += 1
        return True

    def finish(self, trace: list | None) -> FlatTree:
        """The levels as a FlatTree (cut back best-first with ``--max-leaves``); the chi-square
        tests into ``trace`` in the per-node grower's order."""
        flat = assemble(self.levels, self.attributes)
        expanded = None
        if self.params.max_leaves is not None:
            gains = np.concatenate([level.gain for level in self.levels])
            expanded = best_first(flat, gains, self.params.max_leaves)
        if trace is not None and self.chi is not None and self.chi.steps:
            trace.extend(in_growth_order(flat, self.levels, self.chi.steps, expanded))
        return flat


CARRIED_AT_ONCE = 2  # sorted lists carried down in parallel, each in a worker thread


def _binned(table: Table, labelled, rows, numeric: list[int], max_bins) -> dict:
    """``--max-bins``: numeric attribute -> (bin of each labelled row, each bin's largest value)."""
    binned = {}
    if max_bins:
        for i in numeric:
            codes, tops = bin_codes(table.columns[i], labelled, max_bins)
            binned[i] = (codes[rows], tops)
    return binned


def _carry(k, orders: dict, dest, dups, recs, n_children: int, i: int):
    """Attribute ``i``'s sorted list carried down to the next level (in a worker thread)."""
    return k.expand(orders[i], dest, dups, recs.node, n_children)


def branch_shares(sizes: np.ndarray, n_branches: np.ndarray) -> np.ndarray:
    """Each branch's share of a split node's known weight (equal shares when none is known)."""
    totals = np.zeros(len(sizes))
    for nb in np.unique(n_branches[n_branches > 0]):  # numpy adds 8 or more numbers pairwise: sum the
        split = np.flatnonzero(n_branches == nb)  # node's own branches, as ``missing.partition`` does
        totals[split] = sizes[split, :nb].sum(axis=1)
    shares = np.zeros_like(sizes)
    known = totals > 0
    shares[known] = sizes[known] / totals[known, None]
    for s in np.flatnonzero(~known & (n_branches > 0)):
        shares[s, : n_branches[s]] = 1.0 / n_branches[s]
    return shares

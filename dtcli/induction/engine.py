"""The level-wise engine (DESIGN §6): the tree grows one level at a time.

Contract: ``grow_levelwise(table, params, progress)`` returns the same root
Node as ``grow.grow(table, params)`` for the parameters ``unsupported``
accepts (C4.5 with gain ratio or gain, fractional missing values, the
stopping rules), but its cost per level is a handful of passes over the
rows, not a handful of numpy calls per node:

- the rows at a level are records ``(row, weight, node)``; a row whose
  tested value is missing becomes one record per branch, its weight times
  the branch's share (C4.5's fractional cases);
- nominal attributes: one pass gives the (node, value, class) weights of
  every frontier node;
- numeric attributes: each keeps its records sorted by value (sorted once,
  at the root, and carried down in order, as SLIQ does), so one scan finds
  the best cut of every frontier node at once;
- the records are then routed to the children with one more pass.

The loops are compiled with numba (``engine_kernels``); the per-node grower
in ``grow`` is the plain-numpy reference, and tests/test_engine.py checks
that both give identical trees. ``DTREE_ENGINE=numpy`` forces the
reference, ``DTREE_ENGINE=numba`` the engine; by default the engine runs
for tables of ``ENGINE_MIN_ROWS`` rows or more (small tables start faster
without numba).
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np

from dtcli.induction.c45 import Thresholds
from dtcli.induction.kernels import ENGINE_MIN_ROWS, engine_choice
from dtcli.model.table import Table
from dtcli.model.tree import Node, NominalTest, NumericTest

_kernels = None


def unsupported(params) -> str | None:
    """Why the engine cannot grow a tree with ``params`` (None: it can)."""
    if params.algorithm != "c45":
        return f"the {params.algorithm} algorithm"
    if params.criterion not in ("gain-ratio", "gain"):
        return f"criterion {params.criterion}"
    if params.costs is not None:
        return "attribute costs"
    if params.max_leaves is not None:
        return "best-first growth (--max-leaves)"
    if params.chi2_alpha is not None:
        return "chi-square pre-pruning"
    if params.missing not in ("fractional", "reject"):
        return f"missing values filled in ({params.missing})"
    return None


def use_engine(table: Table, params) -> bool:
    """Whether ``grow`` should hand this table to the level-wise engine."""
    choice = engine_choice()
    if choice == "numpy" or table.is_regression or unsupported(params) is not None:
        return False
    if choice == "auto" and table.n_rows < ENGINE_MIN_ROWS:
        return False
    return kernels() is not None


def kernels():
    """The compiled kernels module, or None when numba cannot be used here."""
    global _kernels
    if _kernels is None:
        os.environ.setdefault("NUMBA_CACHE_DIR", str(Path.home() / ".cache" / "dtree" / "numba"))
        try:
            from dtcli.induction import engine_kernels
        except Exception:  # noqa: BLE001 - numba missing or unusable: the per-node path does the work
            _kernels = False
        else:
            _kernels = engine_kernels
    return _kernels or None


class _Columns:
    """The labelled rows' attribute values, grouped by kind for the kernels."""

    def __init__(self, table: Table, rows: np.ndarray):
        attributes = table.attributes
        self.is_nominal = np.array([a.is_nominal for a in attributes], dtype=np.bool_)
        self.slot = np.zeros(len(attributes), dtype=np.int64)
        nominal, numeric = [], []
        for i, attribute in enumerate(attributes):
            group = nominal if attribute.is_nominal else numeric
            self.slot[i] = len(group)
            group.append(table.columns[i][rows])
        n = len(rows)
        self.nominal = np.vstack(nominal).astype(np.int32) if nominal else np.zeros((1, n), dtype=np.int32)
        self.numeric = np.vstack(numeric).astype(np.float64) if numeric else np.zeros((1, n))
        self.n_values = [len(a.values) for a in attributes]


def grow_levelwise(table: Table, params, progress=None) -> Node:
    """Grow a tree over the labelled rows of ``table`` level by level (see the module docstring).

    ``progress(level, frontier, records)``, when given, is called once per level.
    """
    k = kernels()
    labelled = table.labelled()
    rows = np.flatnonzero(labelled)
    n_classes = len(table.classes)
    attributes = table.attributes
    columns = _Columns(table, rows)
    min_leaf = float(params.min_leaf if params.min_leaf is not None else 2.0)
    criterion = 1 if params.criterion == "gain" else 0
    limit = 0.3 * table.n_rows
    many_valued = np.array([a.is_nominal and len(a.values) >= limit for a in attributes], dtype=np.bool_)
    counted = ~many_valued if not many_valued.all() else np.ones(len(attributes), dtype=np.bool_)
    usable = [i for i, a in enumerate(attributes) if a.is_nominal or params.thresholds]
    placer = _Placer(table, params.thresholds or "midpoint")

    rec_row = np.arange(len(rows), dtype=np.int64)
    rec_y = table.y[rows].astype(np.int64)
    rec_w = table.weights[rows].astype(np.float64)
    rec_node = np.zeros(len(rows), dtype=np.int64)
    orders = {}
    for i in usable:
        if not attributes[i].is_nominal:
            values = columns.numeric[columns.slot[i]]
            known = np.flatnonzero(~np.isnan(values))
            order = known[np.argsort(values[known], kind="stable")]
            orders[i] = (values[order], np.zeros(len(order), dtype=np.int32), rec_y[order].astype(np.int32),
                         rec_w[order], order.astype(np.int32))

    # The frontier: for each node slot, its parent's label (for empty branches) and depth.
    root = None
    parents: list[tuple[Node, int, int]] = []  # (parent, first slot, branches) of the previous level
    parent_labels = np.zeros(1, dtype=np.int64)
    depth = 0
    started = time.perf_counter()
    pool = ThreadPoolExecutor(max_workers=os.cpu_count() or 1)
    try:
        while True:
            n_nodes = len(parent_labels)
            counts = k.class_counts(rec_y, rec_w, rec_node, n_nodes, n_classes)
            totals = counts.sum(axis=1)
            tops = counts.max(axis=1)
            labels = np.where(totals > 0, counts.argmax(axis=1), parent_labels)
            nodes = [Node(counts[s], int(labels[s])) for s in range(n_nodes)]
            if root is None:
                root = nodes[0]
            for parent, first, n_branches in parents:
                parent.children = nodes[first:first + n_branches]
            if progress is not None:
                progress(depth, n_nodes, len(rec_row), time.perf_counter() - started)
            active = _splittable(counts, totals, tops, depth, params, min_leaf) if usable else np.zeros(n_nodes, bool)
            if not active.any():
                break
            found = np.zeros((n_nodes, len(attributes)), dtype=np.bool_)
            gains = np.zeros((n_nodes, len(attributes)))
            ratios = np.zeros((n_nodes, len(attributes)))
            cuts = {}
            level = _Level(rec_row, rec_y, rec_w, rec_node, active, totals, found, gains, ratios, cuts)
            list(pool.map(partial(_score, k, columns, attributes, orders, level, n_classes, min_leaf), usable))
            best, scores = k.c45_select(found, gains, ratios, counted, criterion)
            chosen_gain = gains[np.arange(n_nodes), np.maximum(best, 0)]
            if params.min_gain > 0:
                best[chosen_gain <= params.min_gain] = -1
            split = np.flatnonzero(best >= 0)
            if len(split) == 0:
                break
            thresholds = np.zeros(n_nodes)
            n_branches = np.zeros(n_nodes, dtype=np.int64)
            parents = []
            next_labels = []
            first = 0
            child_base = np.zeros(n_nodes, dtype=np.int64)
            for s in split:
                i = int(best[s])
                attribute = attributes[i]
                if attribute.is_nominal:
                    test = NominalTest(attribute)
                else:
                    lower, upper = cuts[i][0][s], cuts[i][1][s]
                    midpoint = (lower + upper) / 2
                    if midpoint == upper:
                        midpoint = lower
                    thresholds[s] = placer.place(i, float(midpoint))
                    test = NumericTest(attribute, thresholds[s])
                node = nodes[s]
                node.test, node.score = test, float(scores[s])
                n_branches[s] = test.n_branches
                child_base[s] = first
                parents.append((node, first, test.n_branches))
                next_labels.extend([node.label] * test.n_branches)
                first += test.n_branches
            split_attr = np.full(n_nodes, -1, dtype=np.int64)
            split_attr[split] = best[split]
            branch, sizes = k.route(rec_row, rec_w, rec_node, split_attr, columns.is_nominal, thresholds,
                                    np.maximum(n_branches, 1), columns.nominal, columns.numeric, columns.slot)
            shares = _shares(sizes, n_branches)
            rec_row, rec_y, rec_w, rec_node, packed = k.spread(rec_row, rec_y, rec_w, rec_node, branch,
                                                                         shares, child_base)
            names = list(orders)
            carried = list(pool.map(partial(_carry, k, orders, packed, rec_node, rec_w), names))
            orders = dict(zip(names, carried))
            del carried
            parent_labels = np.array(next_labels, dtype=np.int64)
            depth += 1
    finally:
        pool.shutdown()
    return root


@dataclass
class _Level:
    """What the kernels read at one level, and where they write each attribute's candidates."""

    rec_row: np.ndarray
    rec_y: np.ndarray
    rec_w: np.ndarray
    rec_node: np.ndarray
    active: np.ndarray
    totals: np.ndarray
    found: np.ndarray
    gains: np.ndarray
    ratios: np.ndarray
    cuts: dict


def _score(k, columns: _Columns, attributes, orders: dict, level: _Level, n_classes: int, min_leaf: float,
           i: int) -> None:
    """Attribute ``i``'s best split at every active node (run in a worker thread; the kernels
    release the GIL, so attributes are scored in parallel)."""
    if attributes[i].is_nominal:
        per_value = k.nominal_counts(columns.nominal[columns.slot[i]], level.rec_row, level.rec_y, level.rec_w,
                                     level.rec_node, level.active, columns.n_values[i], n_classes)
        level.found[:, i], level.gains[:, i], level.ratios[:, i] = k.c45_nominal(
            per_value, level.totals, level.active, min_leaf)
    else:
        sv, sn, sy, sw, _ = orders[i]
        found, lower, upper, level.gains[:, i], level.ratios[:, i] = k.c45_numeric(
            sv, sn, sy, sw, level.active, level.totals, n_classes, min_leaf, True)
        level.found[:, i] = found
        level.cuts[i] = (lower, upper)


def _carry(k, orders: dict, packed, rec_node, rec_w, i: int):
    """Attribute ``i``'s sorted list carried down to the next level (in a worker thread)."""
    return k.expand(*orders[i], packed, rec_node, rec_w)


def _splittable(counts, totals, tops, depth, params, min_leaf) -> np.ndarray:
    """Frontier nodes that may split: the stopping rules of ``grow`` and ``c45_choose``."""
    active = (totals > 0) & ((counts > 0).sum(axis=1) > 1)
    if params.max_depth is not None and depth >= params.max_depth:
        active[:] = False
    active &= ~(totals < params.min_split)
    with np.errstate(invalid="ignore", divide="ignore"):
        active &= ~(tops / totals >= params.purity)
    active &= ~(2 * min_leaf - totals > 1e-6)  # sm(total, 2 m)
    active &= ~((totals == tops) | ((totals - tops < 1e-6) & (tops - totals < 1e-6)))  # eq(total, max)
    return active


def _shares(sizes: np.ndarray, n_branches: np.ndarray) -> np.ndarray:
    """Each branch's share of a split node's known weight (equal shares when none is known)."""
    totals = sizes.sum(axis=1)
    shares = np.zeros_like(sizes)
    known = totals > 0
    shares[known] = sizes[known] / totals[known, None]
    for s in np.flatnonzero(~known & (n_branches > 0)):
        shares[s, :n_branches[s]] = 1.0 / n_branches[s]
    return shares


class _Placer:
    """``Thresholds.place`` without a pass over the column for each split: the sorted distinct
    values answer it unless several values lie within 1e-4 below the threshold (then file order
    decides, as in J48, and the exact scan runs)."""

    def __init__(self, table: Table, mode: str):
        self.exact = Thresholds(table, mode)
        self.mode = mode
        self.table = table
        self.distinct: dict[int, np.ndarray] = {}

    def place(self, i: int, midpoint: float) -> float:
        if self.mode == "midpoint":
            return midpoint
        if i not in self.distinct:
            column = self.table.columns[i]
            self.distinct[i] = np.unique(column[~np.isnan(column)])
        u = self.distinct[i]
        at = int(np.searchsorted(u, midpoint + 1e-6, side="right"))
        while at > 0 and not u[at - 1] - midpoint < 1e-6:
            at -= 1
        while at < len(u) and u[at] - midpoint < 1e-6:
            at += 1
        if at == 0:
            return midpoint
        top = float(u[at - 1])
        if at >= 2 and u[at - 2] > top - 1e-4:
            return self.exact.place(i, midpoint)
        return top

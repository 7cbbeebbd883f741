"""The level-wise engine (DESIGN §6): the tree grows one level at a time.

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
- one more pass routes the records to the children.

The loops are compiled with numba (``engine_kernels`` and the modules it
gathers) and run attribute by attribute in threads. The per-node grower in
``grow`` is the plain-numpy reference; tests/test_engine.py and
tests/test_engine_id3.py grow trees both ways and require the same trees.
``DTREE_ENGINE=numpy`` forces the reference, ``DTREE_ENGINE=numba`` the
engine; by default the engine runs from ``ENGINE_MIN_ROWS`` rows (smaller
tables start faster without numba).
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial

import numpy as np

from dtcli.induction.backend import ENGINE_MIN_ROWS, engine_choice
from dtcli.induction.criteria.constants import ENTROPY, KERNEL_CODES, RATIO
from dtcli.induction.criteria.costs import cost_scores
from dtcli.induction.grow.flat import FlatTree, best_first
from dtcli.induction.kernels.cache import use_cache_dir
from dtcli.induction.levelwise.chi import chi_square_leaves, in_growth_order
from dtcli.induction.levelwise.data import Columns, LevelTree, Placer, assemble, sorted_list
from dtcli.induction.levelwise.gini import gini_scores
from dtcli.induction.levelwise.id3_level import Id3Level
from dtcli.induction.search.bins import bin_codes
from dtcli.induction.search.missing import filled_at_root
from dtcli.model.table import Table

_kernels = None


ID3_CRITERIA = {name: KERNEL_CODES[name] for name in ("gain", "gain-ratio", "gini")}


def unsupported(params) -> str | None:
    """Why the engine cannot grow a tree with ``params`` (None: it can)."""
    if params.algorithm not in ("c45", "id3"):
        return f"the {params.algorithm} algorithm"
    if params.criterion not in ID3_CRITERIA:  # (algorithms.train makes entropy gain)
        return f"criterion {params.criterion}"
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
        use_cache_dir()
        try:
            from dtcli.induction.levelwise.kernels import loops as engine_kernels
        except Exception:
            _kernels = False
        else:
            _kernels = engine_kernels
    return _kernels or None


def grow_levelwise(table: Table, params, progress=None, trace: list | None = None) -> FlatTree:
    """Grow a tree over the labelled rows of ``table`` level by level (see the module docstring).

    ``progress(level, frontier, records, seconds)``, when given, is called once per level. With
    chi-square pre-pruning, ``trace`` receives the tests (``ChiStep``) in the per-node order.
    """
    k = kernels()
    table = filled_at_root(table, params.missing)
    labelled = table.labelled()
    rows = np.flatnonzero(labelled)
    n_classes = len(table.classes)
    attributes = table.attributes
    columns = Columns.of(table)
    id3 = params.algorithm == "id3"
    min_leaf = float(params.min_leaf if params.min_leaf is not None else (-1.0 if id3 else 2.0))
    criterion = ID3_CRITERIA[params.criterion] if id3 else (ENTROPY if params.criterion == "gain" else RATIO)
    limit = 0.3 * table.n_rows
    many_valued = np.array([a.is_nominal and len(a.values) >= limit for a in attributes], dtype=np.bool_)
    counted = ~many_valued if not many_valued.all() else np.ones(len(attributes), dtype=np.bool_)
    usable = [i for i, a in enumerate(attributes) if a.is_nominal or params.thresholds]
    placer = Placer(table, params.thresholds or "midpoint")
    rec_row = np.arange(len(rows), dtype=np.int32)  # records: 4-byte row, node and class, 8-byte weight
    rec_y = table.y[rows].astype(np.int32)
    rec_w = table.weights[rows].astype(np.float64)
    rec_node = np.zeros(len(rows), dtype=np.int32)
    orders = {}  # numeric attribute -> its sorted list: value ranks, node starts, classes, weights, records
    id3_level = Id3Level(k, table, rows, params, columns, usable) if id3 else None
    levels = []  # per level: counts, labels, attr, thr, nb, child start (within the next level), score
    parent_labels = np.zeros(1, dtype=np.int64)
    depth = 0
    chi_steps = []  # chi-square pre-pruning: (depth, slot, step)
    started = time.perf_counter()
    pool = ThreadPoolExecutor(max_workers=os.cpu_count() or 1)
    try:
        numeric = [i for i in usable if not attributes[i].is_nominal]
        binned = {}  # --max-bins: numeric attribute -> (bin of each labelled row, each bin's largest value)
        if params.max_bins and not id3:  # ID3 grows on a table binned beforehand (algorithms.train)
            for i in numeric:
                codes, tops = bin_codes(table.columns[i], labelled, params.max_bins)
                binned[i] = (codes[rows], tops)
        exact = [i for i in numeric if i not in binned]
        for i, (order, distinct) in zip(
            exact, pool.map(partial(sorted_list, columns, table, labelled, rec_y, rec_w), exact)
        ):
            orders[i] = order
            placer.distinct[i] = distinct
        while True:
            n_nodes = len(parent_labels)
            counts = k.class_counts(rec_y, rec_w, rec_node, n_nodes, n_classes)
            totals = counts.sum(axis=1)
            tops = counts.max(axis=1)
            labels = np.where(totals > 0, counts.argmax(axis=1), parent_labels)
            level = LevelTree(counts, labels, n_nodes)
            levels.append(level)
            if progress is not None:
                progress(depth, n_nodes, len(rec_row), time.perf_counter() - started)
            if id3:
                active = id3_level.splittable(counts, totals, tops, depth)
            else:
                active = (
                    _splittable(counts, totals, tops, depth, params, min_leaf)
                    if usable
                    else np.zeros(n_nodes, dtype=bool)
                )
            if not active.any():
                break
            found = np.zeros((n_nodes, len(attributes)), dtype=np.bool_)
            gains = np.zeros((n_nodes, len(attributes)))
            ratios = np.zeros((n_nodes, len(attributes)))
            cuts = {}
            scoring = _Level(rec_row, rec_y, rec_w, rec_node, active, totals, found, gains, ratios, cuts)
            fixed = {}  # ID3: thresholds the reference placed for the nodes it decided
            if id3:  # ratios hold the criterion's scores
                list(pool.map(partial(id3_level.score, orders, placer.distinct, scoring, n_classes), usable))
                best, scores, chosen_gain, fixed = id3_level.select(scoring)
            else:
                list(
                    pool.map(
                        partial(
                            _score,
                            k,
                            columns,
                            attributes,
                            orders,
                            placer.distinct,
                            binned,
                            scoring,
                            n_classes,
                            min_leaf,
                        ),
                        usable,
                    )
                )
                if params.costs is None and params.criterion == "gini":  # the first best Gini decrease
                    best, scores = k.c45_select(
                        found, gini_scores(columns, scoring, attributes, n_classes), ratios, counted, ENTROPY
                    )
                elif params.costs is None:
                    best, scores = k.c45_select(found, gains, ratios, counted, criterion)
                else:  # the cost measure, first best by more than 1e-6 (as c45_choose)
                    best, scores = k.c45_select(
                        found, cost_scores(params.costs, found, gains, attributes), ratios, counted, ENTROPY
                    )
                if params.min_gain > 0:
                    gini = params.criterion == "gini" and params.costs is None  # the score is the improvement
                    improvement = scores if gini else gains[np.arange(n_nodes), np.maximum(best, 0)]
                    best[improvement <= params.min_gain] = -1
                chosen_gain = gains[np.arange(n_nodes), np.maximum(best, 0)]  # orders best-first growth
            del found, gains, ratios, scoring
            split = np.flatnonzero(best >= 0)
            if len(split) == 0:
                break
            level.attr[split] = best[split]
            level.score[split] = scores[split]
            level.gain[split] = chosen_gain[split]
            nominal_split = columns.is_nominal[best[split]]
            level.nb[split] = np.where(nominal_split, np.array(columns.n_values)[best[split]], 2)
            for s in split[~nominal_split]:
                i = int(best[s])
                if s in fixed:
                    level.thr[s] = fixed[s]
                    continue
                lower, upper = cuts[i][0][s], cuts[i][1][s]
                midpoint = (lower + upper) / 2
                if midpoint == upper:
                    midpoint = lower
                level.thr[s] = lower if i in binned else placer.place(i, float(midpoint))
            level.cstart = np.cumsum(level.nb) - level.nb
            branch, sizes = k.route(
                rec_row,
                rec_w,
                rec_node,
                level.attr,
                columns.is_nominal,
                level.thr,
                np.maximum(level.nb, 1),
                columns.nominal,
                columns.numeric,
                columns.slot,
            )
            if params.chi2_alpha is not None and chi_square_leaves(
                level, split, branch, rec_node, rec_y, rec_w, n_classes, params.chi2_alpha, depth, attributes, chi_steps
            ):
                if not (level.attr >= 0).any():
                    break
                level.cstart = np.cumsum(level.nb) - level.nb
                branch, sizes = k.route(
                    rec_row,
                    rec_w,
                    rec_node,
                    level.attr,
                    columns.is_nominal,
                    level.thr,
                    np.maximum(level.nb, 1),
                    columns.nominal,
                    columns.numeric,
                    columns.slot,
                )
            shares = _shares(sizes, level.nb)
            n_children = int(level.nb.sum())
            rec_row, rec_y, rec_w, rec_node, dest, dups = k.spread(
                rec_row, rec_y, rec_w, rec_node, branch, shares, level.cstart, n_children
            )
            del branch, sizes, shares
            carried = pool.map(partial(_carry, k, orders, dest, dups, rec_node, rec_w, n_children), list(orders))
            for i, carried_list in zip(list(orders), carried):
                orders[i] = carried_list  # the old list goes as soon as its successor is made
            del dest, dups, carried
            parent_labels = np.repeat(labels, level.nb)
            if id3:  # a nominal attribute is used once on a path
                id3_level.descend(level.attr, level.nb)
            depth += 1
    finally:
        pool.shutdown()
    flat = assemble(levels, attributes)
    expanded = None
    if params.max_leaves is not None:
        expanded = best_first(flat, np.concatenate([level.gain for level in levels]), params.max_leaves)
    if trace is not None and chi_steps:
        trace.extend(in_growth_order(flat, levels, chi_steps, expanded))
    return flat


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


def _score(
    k,
    columns: Columns,
    attributes,
    orders: dict,
    distinct: dict,
    binned: dict,
    level: _Level,
    n_classes: int,
    min_leaf: float,
    i: int,
) -> None:
    """Attribute ``i``'s best split at every active node (run in a worker thread; the kernels
    release the GIL, so attributes are scored in parallel)."""
    if attributes[i].is_nominal:
        level.found[:, i], level.gains[:, i], level.ratios[:, i] = k.c45_nominal(
            columns.nominal[columns.slot[i]],
            level.rec_row,
            level.rec_y,
            level.rec_w,
            level.rec_node,
            level.active,
            level.totals,
            columns.n_values[i],
            n_classes,
            min_leaf,
        )
    elif i in binned:
        found, lower, upper, level.gains[:, i], level.ratios[:, i] = k.c45_binned(
            *binned[i],
            level.rec_row,
            level.rec_y,
            level.rec_w,
            level.rec_node,
            level.active,
            level.totals,
            n_classes,
            min_leaf,
            True,
        )
        level.found[:, i] = found
        level.cuts[i] = (lower, upper)
    else:
        sv, starts, sy, sw, _ = orders[i]
        found, lower, upper, level.gains[:, i], level.ratios[:, i] = k.c45_numeric(
            sv, distinct[i], starts, sy, sw, level.active, level.totals, n_classes, min_leaf, True
        )
        level.found[:, i] = found
        level.cuts[i] = (lower, upper)


def _carry(k, orders: dict, dest, dups, rec_node, rec_w, n_children: int, i: int):
    """Attribute ``i``'s sorted list carried down to the next level (in a worker thread)."""
    return k.expand(*orders[i], dest, dups, rec_node, rec_w, n_children)


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

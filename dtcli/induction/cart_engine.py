"""When and how CART is grown by the compiled builder (``cart_grow``).

Contract: ``use_cart_engine(table, params)`` says whether the compiled
builder grows this tree (classification, binary splits on whole cases:
``--missing majority`` or ``reject``, no attribute costs, best-first
growth or chi-square pre-pruning; and, as for C4.5, a table of
``ENGINE_MIN_ROWS`` rows or ``DTREE_ENGINE=numba``); ``grow_cart(table,
params)`` returns the tree as a FlatTree, the same tree the per-node path
grows (tests/test_cart_engine.py).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from dtcli.induction.cart import SUBSET_LIMIT
from dtcli.induction.flat import FlatTree
from dtcli.induction.kernels import ENGINE_MIN_ROWS, engine_choice
from dtcli.induction.sklearn_order import RAND_R_MAX, single
from dtcli.model.table import Table
from dtcli.model.tree import NumericTest, SubsetTest

CRITERIA = {"gini": 0, "cart": 2}  # every other criterion scores by entropy, as cart.decrease does


def use_cart_engine(table: Table, params) -> bool:
    from dtcli.induction.engine import kernels

    if params.algorithm != "cart" or table.is_regression or params.missing not in ("majority", "reject"):
        return False
    if len(table.classes) > 127:  # classes are held in bytes
        return False
    if params.costs is not None or params.max_leaves is not None or params.chi2_alpha is not None:
        return False
    choice = engine_choice()
    if choice == "numpy" or (choice == "auto" and table.n_rows < ENGINE_MIN_ROWS):
        return False
    return kernels() is not None


def _logs(table: Table, rows: np.ndarray) -> np.ndarray:
    """The table of logarithms of whole numbers up to the total weight, when every weight is a
    whole number (then class counts are too, and their logs can be looked up); else a stub."""
    from dtcli.induction.cart_kernels import log_table

    weights = table.weights[rows]
    total = float(weights.sum())
    if len(weights) and np.all(weights == np.floor(weights)) and weights.min() >= 0 and total <= 50_000_000:
        return log_table(int(total))
    return np.zeros(1)


def grow_cart(table: Table, params) -> FlatTree:
    from dtcli.induction import cart_grow

    labelled = table.labelled()
    rows = np.flatnonzero(labelled)
    attributes = table.attributes
    exact = params.ties == "sklearn"
    is_nominal = np.array([a.is_nominal for a in attributes], dtype=np.bool_)
    slot = np.zeros(len(attributes), dtype=np.int64)
    nominal, numeric = [], []
    for i, attribute in enumerate(attributes):
        group = nominal if attribute.is_nominal else numeric
        slot[i] = len(group)
        group.append(table.columns[i][rows])
    n = len(rows)
    nominal = np.vstack(nominal).astype(np.int32) if nominal else np.zeros((1, n), dtype=np.int32)
    original = np.vstack(numeric).astype(np.float64) if numeric else np.zeros((0, n))
    values = single(original) if exact else original
    lists = np.zeros((len(numeric), n), dtype=np.int32)
    lengths = np.zeros(len(numeric), dtype=np.int64)
    def sort(s: int) -> None:  # numpy's sort releases the GIL: the attributes sort in parallel
        known = np.flatnonzero(~np.isnan(values[s]))
        order = known[np.argsort(values[s][known], kind="stable")]
        lists[s, :len(order)] = order
        lengths[s] = len(order)

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        list(pool.map(sort, range(len(numeric))))
    state = np.array([int(np.random.RandomState(params.seed).randint(0, RAND_R_MAX))], dtype=np.int64)
    n_values = np.array([len(a.values) for a in attributes], dtype=np.int64)
    min_leaf = float(params.min_leaf or 1.0)
    counts, label, attr, thr, member, first, score = cart_grow.grow_cart(
        nominal, values, original, table.y[rows].astype(np.int64), table.weights[rows].astype(np.float64),
        is_nominal, slot, n_values, lists, lengths, len(table.classes), CRITERIA.get(params.criterion, 1),
        min_leaf, -1 if params.max_depth is None else int(params.max_depth), float(params.min_split),
        float(params.purity), float(params.min_gain), SUBSET_LIMIT, exact, state, _logs(table, rows))
    tests = [None] * len(attr)
    for node in np.flatnonzero(attr >= 0):
        attribute = attributes[int(attr[node])]
        if attribute.is_nominal:
            inside = np.flatnonzero(member[node, :len(attribute.values)])
            tests[node] = SubsetTest(attribute, tuple(attribute.values[j] for j in inside))
        else:
            tests[node] = NumericTest(attribute, float(thr[node]))
    return FlatTree(attributes=attributes, attr=attr, thr=thr, nb=np.where(attr >= 0, 2, 0), cstart=first,
                    counts=counts, label=label, score=score, tests=tests)

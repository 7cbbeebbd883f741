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
from dtcli.induction.sklearn_order import FEATURE_THRESHOLD, RAND_R_MAX, single
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


def _steps(logs: np.ndarray) -> np.ndarray:
    """``f(x + 1) - f(x)`` for ``f(x) = x ln x`` over the table of logarithms (empty for a stub)."""
    if len(logs) <= 1:
        return np.zeros(0)
    f = np.zeros(len(logs))
    f[1:] = np.arange(1, len(logs)) * logs[1:]
    return np.diff(f)


def grow_cart(table: Table, params) -> FlatTree:
    from dtcli.induction import cart_grow
    from dtcli.induction.engine_sort import stable_order

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
    narrow = all(len(a.values) <= 127 for a in attributes if a.is_nominal)  # codes fit in bytes: less to move
    code_type = np.int8 if narrow else np.int32
    nominal = np.vstack(nominal).astype(code_type) if nominal else np.zeros((1, n), dtype=code_type)
    original = np.vstack(numeric).astype(np.float64) if numeric else np.zeros((0, n))
    values = single(original) if exact else original
    lists = np.zeros((len(numeric), n), dtype=np.int32)
    ranks = np.zeros((len(numeric), n), dtype=np.int32)
    lengths = np.zeros(len(numeric), dtype=np.int64)
    distinct: list = [None] * len(numeric)

    def sort(s: int) -> None:  # the compiled sort releases the GIL: the attributes sort in parallel
        order = stable_order(values[s])
        lists[s, :len(order)] = order
        lengths[s] = len(order)
        ordered = values[s][order]
        new = np.ones(len(order), dtype=np.bool_)
        new[1:] = ordered[1:] != ordered[:-1]
        ranks[s, :len(order)] = np.cumsum(new) - 1
        distinct[s] = ordered[new]

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        list(pool.map(sort, range(len(numeric))))
    # one table of every attribute's distinct values: ranks index it, offset by attribute
    offsets = np.cumsum([0] + [len(d) for d in distinct])
    if offsets[-1] >= 2**31:
        raise MemoryError("too many distinct numeric values for the CART builder")
    for s in range(len(numeric)):
        ranks[s, :lengths[s]] += offsets[s]
    table_values = np.concatenate(distinct) if distinct else np.zeros(0)
    far = np.zeros(len(table_values), dtype=np.int32)
    for s, d in enumerate(distinct):
        beyond = np.searchsorted(d, d + FEATURE_THRESHOLD, side="right")
        # -1: every value is more than the threshold below the next, so any two ranks differ enough
        far[offsets[s]:offsets[s + 1]] = -1 if np.all(beyond == np.arange(1, len(d) + 1)) else offsets[s] + beyond
    state = np.array([int(np.random.RandomState(params.seed).randint(0, RAND_R_MAX))], dtype=np.int64)
    n_values = np.array([len(a.values) for a in attributes], dtype=np.int64)
    min_leaf = float(params.min_leaf or 1.0)
    logs = _logs(table, rows)
    counts, label, attr, thr, member, first, score = cart_grow.grow_cart(
        nominal, values, original, table.y[rows].astype(np.int64), table.weights[rows].astype(np.float64),
        is_nominal, slot, n_values, lists, ranks, table_values, far, lengths, len(table.classes),
        CRITERIA.get(params.criterion, 1),
        min_leaf, -1 if params.max_depth is None else int(params.max_depth), float(params.min_split),
        float(params.purity), float(params.min_gain), SUBSET_LIMIT, exact, state, logs, _steps(logs))
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

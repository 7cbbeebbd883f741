"""When and how CART is grown by the compiled builders (``cart_grow``, ``cart_regress``).

Contract: ``use_cart_engine(table, params)`` says whether a compiled
builder grows this tree (CART with any missing-value policy, fractional
cases included; classification or regression, every stopping rule,
best-first growth and chi-square pre-pruning included; and, as for C4.5, a
table of ``ENGINE_MIN_ROWS`` rows or ``DTREE_ENGINE=numba``); ``grow_cart(table, params, trace)``
returns the tree as a FlatTree, the same tree the per-node path grows
(tests/test_cart_engine.py, tests/test_cart_regress.py), and adds the
chi-square tests to ``trace`` in the per-node order.
"""

from __future__ import annotations

import math
import os
import time
from concurrent.futures import ThreadPoolExecutor, wait

import numpy as np

from dtcli.induction.criteria.chisquare import ChiStep
from dtcli.induction.grow.flat import FlatTree
from dtcli.induction.search.cart import SUBSET_LIMIT
from dtcli.induction.search.ties import FEATURE_THRESHOLD, RAND_R_MAX, single
from dtcli.model.table import Table
from dtcli.model.tree import NumericTest, SubsetTest

CRITERIA = {"gini": 0, "cart": 2}  # every other criterion scores by entropy, as cart.decrease does


def use_cart_engine(table: Table, params) -> bool:
    """Whether the compiled builders can grow this tree (``backend`` decides whether they do)."""
    if params.algorithm != "cart" or params.missing not in ("majority", "reject", "fractional"):
        return False
    if not table.is_regression and len(table.classes) > 127:  # classes are held in bytes
        return False
    return params.costs is None


def _logs(table: Table, rows: np.ndarray) -> np.ndarray:
    """The table of logarithms of whole numbers up to the total weight, when every weight is a
    whole number (then class counts are too, and their logs can be looked up); else a stub."""
    from dtcli.induction.cart.kernels.scores import log_table

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


def grow_cart(table: Table, params, trace: list | None = None, progress=None) -> FlatTree:
    from dtcli.induction.kernels.sort import ranked_order

    labelled = table.labelled()
    rows = np.flatnonzero(labelled)
    attributes = table.attributes
    exact = params.ties == "sklearn"
    is_nominal = np.array([a.is_nominal for a in attributes], dtype=np.bool_)
    slot = np.zeros(len(attributes), dtype=np.int64)
    n_nominal = int(is_nominal.sum())
    slot[is_nominal] = np.arange(n_nominal)
    slot[~is_nominal] = np.arange(len(attributes) - n_nominal)
    n = len(rows)
    every = n == table.n_rows  # every row is labelled: the columns need no selecting
    narrow = all(len(a.values) <= 127 for a in attributes if a.is_nominal)  # codes fit in bytes: less to move
    nominal = np.zeros((max(n_nominal, 1), n), dtype=np.int8 if narrow else np.int32)
    original = np.zeros((len(attributes) - n_nominal, n))
    for i in range(len(attributes)):
        into = nominal if is_nominal[i] else original
        into[slot[i]] = table.columns[i] if every else table.columns[i][rows]
    values = np.empty_like(original) if exact else original
    lists = np.zeros((len(original), n), dtype=np.int32)
    ranks = np.zeros((len(original), n), dtype=np.int32)
    lengths = np.zeros(len(original), dtype=np.int64)
    distinct: list = [None] * len(original)

    def sort(s: int) -> None:  # compiled and GIL-free but for the rounding: the attributes sort in parallel
        if exact:
            values[s] = single(original[s])
        lengths[s], distinct[s] = ranked_order(values[s], lists[s], ranks[s])

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        list(pool.map(sort, range(len(original))))
    # one table of every attribute's distinct values: ranks index it, offset by attribute
    offsets = np.cumsum([0] + [len(d) for d in distinct])
    if offsets[-1] >= 2**31:
        raise MemoryError("too many distinct numeric values for the CART builder")
    for s in range(len(original)):
        ranks[s, : lengths[s]] += offsets[s]
    table_values = np.concatenate(distinct) if distinct else np.zeros(0)
    far = np.zeros(len(table_values), dtype=np.int32)
    for s, d in enumerate(distinct):
        beyond = np.searchsorted(d, d + FEATURE_THRESHOLD, side="right")
        # -1: every value is more than the threshold below the next, so any two ranks differ enough
        far[offsets[s] : offsets[s + 1]] = -1 if np.all(beyond == np.arange(1, len(d) + 1)) else offsets[s] + beyond
    state = np.array([int(np.random.RandomState(params.seed).randint(0, RAND_R_MAX))], dtype=np.int64)
    n_values = np.array([len(a.values) for a in attributes], dtype=np.int64)
    min_leaf = float(params.min_leaf or 1.0)
    value = impurity = None
    max_depth = -1 if params.max_depth is None else int(params.max_depth)
    missing = int(sum(table.missing_mask(i)[rows].sum() for i in range(len(attributes))))
    fractional = params.missing == "fractional" and missing > 0  # else a case never goes down both branches
    room = first_room(n, missing)
    status = np.zeros(3, dtype=np.int64)  # the builders' progress: depth, nodes, rows expanded
    if table.is_regression:
        from dtcli.induction.cart.kernels.regress import grow_regression

        weight, value, impurity, attr, thr, member, first, score = _fitting(
            lambda room: grow_regression(
                nominal,
                values,
                original,
                (table.y if every else table.y[rows]).astype(np.float64),
                (table.weights if every else table.weights[rows]).astype(np.float64),
                is_nominal,
                slot,
                n_values,
                lists,
                ranks,
                table_values,
                far,
                lengths,
                min_leaf,
                max_depth,
                float(params.min_split),
                float(params.min_gain),
                exact,
                state.copy(),
                int(params.max_leaves or 0),
                fractional,
                room,
                2 * room + 1,
                status,
            ),
            room,
            progress,
            status,
        )
        counts, label = weight[:, None].copy(), np.zeros(len(weight), dtype=np.int64)
    else:
        counts, label, attr, thr, member, first, score, steps = _classes(
            table,
            params,
            nominal,
            values,
            original,
            every,
            rows,
            is_nominal,
            slot,
            n_values,
            lists,
            ranks,
            table_values,
            far,
            lengths,
            min_leaf,
            max_depth,
            exact,
            state,
            fractional,
            room,
            progress,
            status,
        )
        if trace is not None:
            trace.extend(steps)
    tests = _tests(attributes, attr, thr, member)
    return FlatTree(
        attributes=attributes,
        attr=attr,
        thr=thr,
        nb=np.where(attr >= 0, 2, 0),
        cstart=first,
        counts=counts,
        label=label,
        score=score,
        tests=tests,
        value=value,
        impurity=impurity,
    )


def _classes(
    table,
    params,
    nominal,
    values,
    original,
    every,
    rows,
    is_nominal,
    slot,
    n_values,
    lists,
    ranks,
    table_values,
    far,
    lengths,
    min_leaf,
    max_depth,
    exact,
    state,
    fractional,
    room,
    progress,
    status,
):
    """The classification builder's arrays (``cart_grow.grow_cart``)."""
    from dtcli.induction.cart.kernels import grow as cart_grow

    logs = np.zeros(1) if fractional else _logs(table, rows)  # fractional weights: no table of logarithms
    lgammas = np.array([math.lgamma(df / 2) if df else 0.0 for df in range(len(table.classes) + 1)])
    *arrays, gains, made = _fitting(
        lambda room: cart_grow.grow_cart(
            nominal,
            values,
            original,
            (table.y if every else table.y[rows]).astype(np.int64),
            (table.weights if every else table.weights[rows]).astype(np.float64),
            is_nominal,
            slot,
            n_values,
            lists,
            ranks,
            table_values,
            far,
            lengths,
            len(table.classes),
            CRITERIA.get(params.criterion, 1),
            min_leaf,
            max_depth,
            float(params.min_split),
            float(params.purity),
            float(params.min_gain),
            SUBSET_LIMIT,
            exact,
            state.copy(),
            logs,
            _steps(logs),
            float(params.chi2_alpha or 0.0),
            lgammas,
            int(params.max_leaves or 0),
            fractional,
            room,
            2 * room + 1,
            status,
        ),
        room,
        progress,
        status,
    )
    _, depths, cases, tested, dfs, statistics, p_values, kept, n_made = made
    steps = [
        ChiStep(
            int(depths[k]),
            float(cases[k]),
            table.attributes[int(tested[k])].name,
            float(statistics[k]),
            int(dfs[k]),
            float(p_values[k]),
            "split" if kept[k] else "leaf",
        )
        for k in range(int(n_made[0]))
    ]
    return (*arrays, steps)


def _fitting(run, room: int, progress, status: np.ndarray) -> tuple:
    """``run(room)``'s result without its last item (whether the tree outgrew the room), run
    again with twice the room while it did (fractional cases; see ``cart_fraction``). The
    builder runs in a thread of its own (it releases the GIL) while this one reports its
    ``status`` to ``progress(depth, nodes, rows, seconds)`` a few times a second."""
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=1) as pool:
        while True:
            status[:] = 0
            job = pool.submit(run, room)
            while progress is not None and not job.done():
                wait([job], timeout=0.25)
                progress(int(status[0]), int(status[1]), int(status[2]), time.perf_counter() - started)
            *result, overflow = job.result()
            if not overflow:
                return tuple(result)
            room *= 2


def first_room(n: int, missing: int) -> int:
    """Entries the builder's arrays hold at first with fractional cases: each row, and two more
    for each missing value (more is rarely needed; see ``cart_fraction``)."""
    return n + 2 * missing


def _tests(attributes, attr: np.ndarray, thr: np.ndarray, member: np.ndarray) -> list:
    """The test of each split node: one object per distinct test (nodes share them)."""
    tests: list = [None] * len(attr)
    made: dict = {}  # one test object per distinct test: nodes share them
    thresholds = thr.tolist()
    for node in np.flatnonzero(attr >= 0).tolist():
        a = int(attr[node])
        attribute = attributes[a]
        if attribute.is_nominal:
            key = (a, member[node, : len(attribute.values)].tobytes())
            if key not in made:
                inside = np.flatnonzero(member[node, : len(attribute.values)])
                made[key] = SubsetTest(attribute, tuple(attribute.values[j] for j in inside))
        else:
            key = (a, thresholds[node])
            if key not in made:
                made[key] = NumericTest(attribute, thresholds[node])
        tests[node] = made[key]
    return tests

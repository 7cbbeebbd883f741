"""When and how CART is grown by the compiled builders (``kernels/grow.py``, ``kernels/regress.py``).

Contract: ``use_cart_engine(table, params)`` says whether a compiled
builder grows this tree (CART with any missing-value policy, fractional
cases included; classification or regression, every stopping rule,
best-first growth and chi-square pre-pruning included; ``backend.py`` decides whether
it does); ``grow_cart(table, params, trace)`` returns the tree as a FlatTree, the same tree the per-node path grows
(tests/induction/cart/test_cart_engine.py, test_cart_regress.py), and adds the
chi-square tests to ``trace`` in the per-node order.
"""

from __future__ import annotations

import math
import os
import time
from concurrent.futures import ThreadPoolExecutor, wait
from functools import partial

import numpy as np

from dtcli.induction.cart.kernels.state import Columns, Order, Room, Scoring, Sorted, Stopping
from dtcli.induction.cart.parallel import grow_side_by_side, threads_for
from dtcli.induction.compiling import SHORT_RANKS_ROWS
from dtcli.induction.criteria.chisquare import ChiStep
from dtcli.induction.criteria.constants import ENTROPY, FEATURE_THRESHOLD, KERNEL_CODES, RAND_R_MAX
from dtcli.induction.grow.flat import FlatTree
from dtcli.induction.memory import release
from dtcli.induction.search.cart import SUBSET_LIMIT
from dtcli.induction.search.ties import single
from dtcli.model.table import Table
from dtcli.model.tree import NumericTest, SubsetTest


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
    """The CART tree of ``table`` grown by the compiled builder (``kernels/grow.py`` for classes,
    ``kernels/regress.py`` for numbers); the chi-square tests made are added to ``trace``."""
    rows = np.flatnonzero(table.labelled())
    missing = int(sum(table.missing_mask(i)[rows].sum() for i in range(len(table.attributes))))
    lent = _lent(table, len(rows) == table.n_rows)
    data, columns = _sorted(table, rows, params.ties == "sklearn")
    threads = threads_for(table, params)
    # the builder rewrites its block: the codes as read, unless the threads' builder puts them back
    codes = data.nominal.copy() if lent and threads == 1 else data.nominal
    release(len(rows))  # the sorts' scratch arrays, freed in the worker threads' heaps
    stopping = Stopping(
        float(params.min_leaf or 1.0),
        -1 if params.max_depth is None else int(params.max_depth),
        float(params.min_split),
        float(params.purity),
        float(params.min_gain),
        float(params.chi2_alpha or 0.0),
        int(params.max_leaves or 0),
    )
    fractional = params.missing == "fractional" and missing > 0  # else a case never goes down both branches
    run = _Run(data, columns, stopping, _order(table, params), fractional, first_room(len(rows), missing), progress)
    value = impurity = None
    try:
        if table.is_regression:
            weight, value, impurity, attr, thr, member, first, score = run.grow(_regression_builder(), ())
            counts, label = weight[:, None].copy(), np.zeros(len(weight), dtype=np.int64)
        else:
            counts, label, attr, thr, member, first, score, steps = _classes(table, params, rows, run, threads)
            if trace is not None:
                trace.extend(steps)
    except BaseException:
        _give_back(table, lent, codes, columns.slot)
        raise
    del run, data  # the sorted lists go before the tree's Nodes are made (a million rows: 90 MB)
    release(len(rows))
    _give_back(table, lent, codes, columns.slot)  # (after them: 40 MB on a million rows)
    return FlatTree(
        attributes=table.attributes,
        attr=attr,
        thr=thr,
        nb=np.where(attr >= 0, 2, 0),
        cstart=first,
        counts=counts,
        label=label,
        score=score,
        tests=_tests(table.attributes, attr, thr, member),
        value=value,
        impurity=impurity,
    )


def _sorted(table: Table, rows: np.ndarray, exact: bool) -> tuple[Sorted, Columns]:
    """The labelled ``rows`` laid out for the builders: nominal codes by attribute, and each
    numeric attribute's rows sorted by value (in parallel: the sort is compiled and GIL-free but
    for the rounding), and their value ranks among the attribute's distinct values (``short_ranks``:
    in 2 bytes).
    When every row is labelled, the table's numeric columns become views into the block the
    builders read (same values), so that they are held once."""
    from dtcli.induction.kernels.sort import ranked_order

    attributes = table.attributes
    is_nominal = np.array([a.is_nominal for a in attributes], dtype=np.bool_)
    n_nominal, n = int(is_nominal.sum()), len(rows)
    slot = np.zeros(len(attributes), dtype=np.int64)
    slot[is_nominal] = np.arange(n_nominal)
    slot[~is_nominal] = np.arange(len(attributes) - n_nominal)
    every = n == table.n_rows  # every row is labelled: the columns need no selecting
    narrow = all(len(a.values) <= 127 for a in attributes if a.is_nominal)  # codes fit in bytes: less to move
    nominal = np.zeros((max(n_nominal, 1), n), dtype=np.int8 if narrow else np.int32)
    original = np.zeros((len(attributes) - n_nominal, n))
    for i in range(len(attributes)):
        into = nominal if is_nominal[i] else original
        into[slot[i]] = table.columns[i] if every else table.columns[i][rows]
        if every and not is_nominal[i] and table.columns[i].dtype == original.dtype:
            table.columns[i] = original[slot[i]]  # held once (as levelwise/data.py: Columns does)
        elif every and is_nominal[i]:
            table.columns[i] = None  # lent (``_lent``): made again from the block after growth
    lists = np.zeros((len(original), n), dtype=np.int32)
    # 2 bytes unless an attribute has too many values (``short_ranks`` says at the end)
    narrow = not table.is_regression and n > SHORT_RANKS_ROWS and len(original) > 0
    ranks = np.zeros((len(original), n), dtype=np.uint16 if narrow else np.int32)
    lengths = np.zeros(len(original), dtype=np.int64)
    distinct: list = [None] * len(original)
    wide: dict = {}  # (narrow) the 4-byte ranks of attributes with more values than 2 bytes number

    def sort(s: int) -> None:  # the values as compared (single precision when exact) live only here
        into = np.empty(n, dtype=np.int32) if narrow else ranks[s]  # (narrow: one attribute's at a time)
        lengths[s], distinct[s] = ranked_order(single(original[s]) if exact else original[s], lists[s], into)
        if narrow and len(distinct[s]) <= 2**16:
            ranks[s] = into
        elif narrow:
            wide[s] = into

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        list(pool.map(sort, range(len(original))))
    if narrow and not short_ranks(table, n, distinct):
        ranks = np.stack([wide[s] if s in wide else ranks[s].astype(np.int32) for s in range(len(original))])
    table_values, offsets, far = _distinct(distinct)
    n_values = np.array([len(a.values) for a in attributes], dtype=np.int64)
    y, w = (table.y, table.weights) if every else (table.y[rows], table.weights[rows])
    y = y.astype(np.float64 if table.is_regression else np.int8)  # at most 127 classes (use_cart_engine)
    data = Sorted(nominal, lists, ranks, lengths, y, w.astype(np.float64, copy=False))  # read only
    return data, Columns(original, is_nominal, slot, n_values, table_values, offsets, far)


def _lent(table: Table, every: bool) -> dict:
    """The table's nominal columns that ``_sorted`` lets go once their codes are in the builder's
    block (on a million rows, 30 MB less while the lists sort and the builder runs); ``grow_cart``
    makes them again from a copy of that block's codes as read (in bytes, where they fit), since the
    builder rewrites the block. Only when every row is in the block (``every``): each column's
    dtype, by position."""
    return {i: table.columns[i].dtype for i, a in enumerate(table.attributes) if a.is_nominal} if every else {}


def short_ranks(table: Table, n: int, distinct: list) -> bool:
    """Whether the value ranks of a classification tree's ``n`` rows are held in 2 bytes: when there
    are more than ``SHORT_RANKS_ROWS`` of them (below, the 4-byte kernels serve, compiled once
    already), some numeric attribute and none with more than 65,536 distinct values (``distinct``:
    each one's; a million rows: 20 MB less while the tree grows)."""
    short = n > SHORT_RANKS_ROWS and len(distinct) > 0 and all(len(d) <= 2**16 for d in distinct)
    return short and not table.is_regression


def _give_back(table: Table, lent: dict, codes: np.ndarray, slot: np.ndarray) -> None:
    """The table's ``lent`` nominal columns made again (in their dtypes) from the codes as read."""
    for i, dtype in lent.items():
        table.columns[i] = codes[slot[i]].astype(dtype)


def _distinct(distinct: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One table of every numeric attribute's distinct values (in slot order), where each
    attribute's part starts (a rank indexes its attribute's part), and for each rank the first
    rank of its attribute whose value exceeds it by more than ``FEATURE_THRESHOLD``."""
    offsets = np.cumsum([0] + [len(d) for d in distinct]).astype(np.int64)
    table_values = np.concatenate(distinct) if distinct else np.zeros(0)
    far = np.zeros(len(table_values), dtype=np.int32)
    for s, d in enumerate(distinct):
        beyond = np.searchsorted(d, d + FEATURE_THRESHOLD, side="right")
        # -1: every value is more than the threshold below the next, so any two ranks differ enough
        far[offsets[s] : offsets[s + 1]] = -1 if np.all(beyond == np.arange(1, len(d) + 1)) else beyond
    return table_values, offsets, far


def _order(table: Table, params):
    """A fresh ``Order`` for each run: scikit-learn's generator state seeded from ``--seed``."""
    state = int(np.random.RandomState(params.seed).randint(0, RAND_R_MAX))
    n = len(table.attributes)
    return lambda: Order(
        params.ties == "sklearn",
        np.array([state], dtype=np.int64),
        np.arange(n, dtype=np.int64),
        np.arange(n, dtype=np.int64),
    )


class _Run:
    """One builder's run over the laid-out table, again with twice the room while fractional
    cases outgrow it (``_fitting``)."""

    def __init__(self, data, columns, stopping, order, fractional, room, progress):
        self.data, self.columns, self.stopping, self.order = data, columns, stopping, order
        self.fractional, self.room, self.progress = fractional, room, progress

    def grow(self, builder, scoring: tuple) -> tuple:
        """``builder``'s result: ``builder(data, columns, *scoring, stopping, order, room, status)``."""
        status = np.zeros(3, dtype=np.int64)  # the builders' progress: depth, nodes, rows expanded

        def run(room: int):
            rooms = Room(self.fractional, room, 2 * room + 1)
            return builder(self.data, self.columns, *scoring, self.stopping, self.order(), rooms, status)

        return _fitting(run, self.room, self.progress, status)


def _regression_builder():
    from dtcli.induction.cart.kernels.regress import grow_regression

    return grow_regression


def _classes(table, params, rows, run: _Run, threads: int):
    """The classification builder's arrays (``kernels/grow.py: grow_cart``, or on ``threads``
    threads ``parallel.py``'s) and its chi-square tests."""
    from dtcli.induction.cart.kernels import grow as cart_grow

    logs = np.zeros(1) if run.fractional else _logs(table, rows)  # fractional weights: no table of logarithms
    lgammas = np.array([math.lgamma(df / 2) if df else 0.0 for df in range(len(table.classes) + 1)])
    code = KERNEL_CODES[params.criterion] if params.criterion in ("gini", "cart") else ENTROPY  # others: entropy
    scoring = Scoring(len(table.classes), code, SUBSET_LIMIT, params.ties == "sklearn", logs, _steps(logs), lgammas)
    if threads > 1:
        builder = partial(grow_side_by_side, threads)
    else:
        builder = cart_grow.grow_cart
    *arrays, gains, made = run.grow(builder, (scoring,))
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
    again with twice the room while it did (fractional cases; see ``kernels/fraction.py``). The
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
    for each missing value (more is rarely needed; see ``kernels/fraction.py``)."""
    return n + 2 * missing


def _tests(attributes, attr: np.ndarray, thr: np.ndarray, member: np.ndarray) -> list:
    """The test of each split node: one object per distinct test (nodes share them)."""
    tests: list = [None] * len(attr)
    made: dict = {}  # one test object per distinct test: nodes share them
    thresholds, attrs = thr.tolist(), attr.tolist()
    nominal = [attribute.is_nominal for attribute in attributes]
    for node in np.flatnonzero(attr >= 0).tolist():
        a = attrs[node]
        if nominal[a]:
            attribute = attributes[a]
            key = (a, member[node, : len(attribute.values)].tobytes())
            if key not in made:
                inside = np.flatnonzero(member[node, : len(attribute.values)])
                made[key] = SubsetTest(attribute, tuple(attribute.values[j] for j in inside))
        else:
            key = (a, thresholds[node])
            if key not in made:
                made[key] = NumericTest(attributes[a], thresholds[node])
        tests[node] = made[key]
    return tests

"""The compiled descent (``predict/kernels/descend.py``) of a tree's layout: the arrays it walks and the rows in chunks.

``kernels()`` imports the kernel module (numba) once, or gives None when numba cannot be used;
``descend_compiled(flat, start, stop)`` gives what ``predict.descend`` gives for the table rows
``start`` to ``stop``, to the last bit. Only the columns the tree tests are copied, a chunk of rows
at a time (numeric ones as float64, nominal codes as int32, a row each).
"""

from __future__ import annotations

from itertools import chain

import numpy as np

from dtcli.induction.predict.weka_order import EMPTY

CHUNK = 100_000  # rows whose columns are copied for the kernel at once


def kernels():
    """The compiled prediction kernels module, or None when numba cannot be used here."""
    from dtcli.induction.kernels.cache import load

    return load("dtcli.induction.predict.kernels.descend")


class Packed:
    """A layout's arrays as the kernel takes them (a tuple, ``tree``), and which columns it reads."""

    def __init__(self, flat, kernel, depth: int):
        n = len(flat.leaf)
        numeric = flat.numeric
        kind = np.where(numeric, kernel.NUMERIC, np.where(flat.subset, kernel.SUBSET, kernel.NOMINAL))
        kind = np.where(flat.leaf, 0, kind).astype(np.int8)
        col = np.zeros(n, dtype=np.int64)
        self.numeric, self.nominal = [], []  # table column numbers, in the kernel's column order
        for chosen, these in ((self.numeric, numeric & ~flat.leaf), (self.nominal, ~numeric & ~flat.leaf)):
            used, col[these] = np.unique(flat.attr[these], return_inverse=True)
            chosen.extend(used.tolist())
        sub_start, sub_len, codes = self._subsets(flat, n)
        totals = flat.totals
        nchild = np.diff(np.append(flat.cstart, n)).astype(np.int64)
        width = flat.dist.shape[1]
        mixture = flat.mixture if flat.mixture is not None else np.zeros((1, width))
        self.tree = (
            flat.leaf.astype(np.bool_), flat.cstart.astype(np.int64), kind, col, flat.thr.astype(np.float64),
            np.ascontiguousarray(flat.dist, dtype=np.float64), flat.fan_start, flat.fanout, flat.fan_child,
            flat.fan_share.astype(np.float64), flat.mixed, sub_start, sub_len, codes, nchild, totals,
            flat.leaf & (totals <= EMPTY), bool(getattr(flat, "weka", False)), np.ascontiguousarray(mixture),
            *_walk(flat, kind, col, sub_start, sub_len),
        )  # fmt: skip
        self.depth = depth  # splits on the longest path (``predict.depth``)
        self.flat = flat

    @staticmethod
    def _subsets(flat, n):
        """Each subset test's codes, sorted, one after the other (start and length by slot; slots
        sharing a test object, as a model file's reader makes them, share its codes)."""
        sub_start = np.zeros(n, dtype=np.int64)
        sub_len = np.zeros(n, dtype=np.int64)
        parts = []
        filled = 0
        placed: dict[int, tuple[int, int]] = {}  # id of a test: where its codes are
        for slot, test in flat.subsets.items():
            if id(test) not in placed:
                codes = sorted({test.attribute.codes[v] for v in test.values})
                placed[id(test)] = (filled, len(codes))
                parts.append(codes)
                filled += len(codes)
            sub_start[slot], sub_len[slot] = placed[id(test)]
        return sub_start, sub_len, np.fromiter(chain.from_iterable(parts), np.int64, filled)

    def columns(self, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
        """The (numeric, nominal) values of table rows ``start`` to ``stop``, a row each."""
        columns = self.flat.columns
        num = np.empty((stop - start, len(self.numeric)))
        for j, a in enumerate(self.numeric):
            num[:, j] = columns[a][start:stop]
        nom = np.empty((stop - start, len(self.nominal)), dtype=np.int32)
        for j, a in enumerate(self.nominal):
            nom[:, j] = columns[a][start:stop]
        return num, nom


def _walk(flat, kind, col, sub_start, sub_len) -> tuple:
    """The arrays of the one-path walk (``kernels.descend.single_path``): nodes in an order where
    each split's children are consecutive and allocated as a depth-first walk meets the split, so
    a subtree's nodes lie close together: (thresholds and packed ints, the same array as int64,
    (heaviest child, share, first subset code, number of them))."""
    n = len(flat.leaf)
    many = np.diff(np.append(flat.cstart, n))
    new = np.zeros(n, dtype=np.int64)  # each slot's place in the walk's order
    splits = np.flatnonzero(many)
    order = splits[np.argsort(_preorder(flat.cstart, flat.parent, many)[splits], kind="stable")]
    k = many[order]
    children = np.repeat(flat.cstart[order] - (np.cumsum(k) - k), k) + np.arange(int(k.sum()))
    new[children] = np.arange(1, len(children) + 1)  # each split's children numbered as the walk meets it
    nodes = np.zeros((n, 2))
    nodes[new, 0] = flat.thr
    info = np.where(flat.leaf, -1 - np.arange(n), (new[np.minimum(flat.cstart, n - 1)] << 24) + col * 4 + kind)
    nodes.view(np.int64)[new, 1] = info
    extra = np.full((n, 4), -1.0)
    one = ~flat.leaf & (flat.fanout == 1) & ~flat.mixed  # a missing value takes one branch only
    extra[new[one], 0] = new[flat.fan_child[flat.fan_start[one]]]
    extra[new[one], 1] = flat.fan_share[flat.fan_start[one]]
    extra[new, 2], extra[new, 3] = sub_start, sub_len
    return nodes, nodes.view(np.int64), extra


def _preorder(cstart: np.ndarray, parent: np.ndarray, many: np.ndarray) -> np.ndarray:
    """Each slot's place in a depth-first walk of the breadth-first tree (first child first), a
    level of slots at a time: subtree sizes from the deepest level up, then places from the root down."""
    n = len(cstart)
    levels, lo, hi = [], 0, 1
    while hi > lo:
        levels.append((lo, hi))
        lo, hi = hi, int(cstart[hi]) if hi < n else n
    size = np.ones(n, dtype=np.int64)
    for lo, hi in reversed(levels[1:]):
        np.add.at(size, parent[lo:hi], size[lo:hi])
    place = np.zeros(n, dtype=np.int64)
    for lo, hi in levels[1:]:
        before = np.cumsum(size[lo:hi]) - size[lo:hi]  # sizes of the level's earlier slots
        up = parent[lo:hi]
        place[lo:hi] = place[up] + 1 + before - before[cstart[up] - lo]
    return place


def descend_compiled(packed: Packed, start: int, stop: int, threads: int | None = None) -> np.ndarray:
    """``predict.descend`` of the table rows ``start`` to ``stop``, walked by the compiled kernel
    (on at most ``threads`` threads; None: numba's number)."""
    num, nom = packed.columns(start, stop)
    out = np.empty((stop - start, packed.flat.dist.shape[1]))
    if threads is None:
        kernels().descend_rows(packed.tree, num, nom, out, packed.depth)
    else:
        kernels().descend_rows_on(threads, packed.tree, num, nom, out, packed.depth)
    return out


def predict_compiled(flat, n_rows: int, depth: int, done=None, chunk: int = CHUNK) -> np.ndarray:
    """``predict.descend`` of every table row through the layout ``flat`` of a tree of ``depth``
    levels of splits, walked by the compiled kernel ``chunk`` rows at a time
    (only a chunk's columns copied at once); ``done(n)`` after each chunk of ``n`` rows."""
    proba = np.empty((n_rows, flat.dist.shape[1]))
    for start, stop, part in compiled_chunks(flat, n_rows, depth, chunk):
        proba[start:stop] = part
        if done is not None:
            done(stop - start)
    return proba


def compiled_chunks(flat, n_rows: int, depth: int, chunk: int = CHUNK):
    """``predict_compiled``'s rows a chunk at a time, the tree packed once: (start, stop, their rows'
    ``predict.descend``) in row order."""
    packed = Packed(flat, kernels(), depth)
    step = max(1, chunk)
    for start in range(0, n_rows, step):
        stop = min(start + step, n_rows)
        yield start, stop, descend_compiled(packed, start, stop)


def packed_predictor(flat, depth: int, threads: int | None = None):
    """``predict.descend`` of every row of a table with the columns of ``flat``'s (one table after
    another), walked by the compiled kernel, the tree packed once: a function of such a table.
    ``threads``: at most this many threads walk a table's rows (None: numba's number)."""
    packed = Packed(flat, kernels(), depth)

    def run(table) -> np.ndarray:
        flat.columns = table.columns
        return descend_compiled(packed, 0, table.n_rows, threads)

    return run

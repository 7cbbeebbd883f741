"""The compiled descent (``apply/kernels/descend.py``) of a tree's layout: the arrays it walks and the rows in chunks.

``kernels()`` imports the kernel module (numba) once, or gives None when numba cannot be used;
``descend_compiled(flat, start, stop)`` gives what ``predict.descend`` gives for the table rows
``start`` to ``stop``, to the last bit. Only the columns the tree tests are copied, a chunk of rows
at a time (numeric ones as float64, nominal codes as int32, a row each).
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.apply.weka_order import EMPTY
from dtcli.model.tree import NumericTest

CHUNK = 100_000  # rows whose columns are copied for the kernel at once
_kernels = None


def kernels():
    """The compiled prediction kernels module, or None when numba cannot be used here."""
    global _kernels
    if _kernels is None:
        from dtcli.induction.kernels.cache import use_cache_dir

        use_cache_dir()
        try:
            from dtcli.induction.apply.kernels import descend
        except Exception:
            _kernels = False
        else:
            _kernels = descend
    return _kernels or None


class Packed:
    """A layout's arrays as the kernel takes them (a tuple, ``tree``), and which columns it reads."""

    def __init__(self, flat, kernel, depth: int):
        nodes = flat.nodes
        n = len(nodes)
        kind = np.zeros(n, dtype=np.int8)
        col = np.zeros(n, dtype=np.int64)
        self.numeric, self.nominal = [], []  # table column numbers, in the kernel's column order
        where = {}
        for slot, node in enumerate(nodes):
            if node.is_leaf:
                continue
            a = int(flat.attr[slot])
            numeric = isinstance(node.test, NumericTest)
            kind[slot] = kernel.NUMERIC if numeric else kernel.SUBSET if flat.subset[slot] else kernel.NOMINAL
            if (numeric, a) not in where:
                chosen = self.numeric if numeric else self.nominal
                where[numeric, a] = len(chosen)
                chosen.append(a)
            col[slot] = where[numeric, a]
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
            _meta(flat.cstart, kind, col, sub_start, sub_len, flat.leaf), _fan(flat),
        )  # fmt: skip
        self.depth = depth  # splits on the longest path (``predict.depth``)
        self.flat = flat

    @staticmethod
    def _subsets(flat, n):
        """Each subset test's codes, sorted, one after the other (start and length by slot)."""
        sub_start = np.zeros(n, dtype=np.int64)
        sub_len = np.zeros(n, dtype=np.int64)
        parts = []
        filled = 0
        for slot, test in flat.subsets.items():
            codes = np.unique(np.array([test.attribute.codes[v] for v in test.values], dtype=np.int64))
            sub_start[slot], sub_len[slot] = filled, len(codes)
            parts.append(codes)
            filled += len(codes)
        return sub_start, sub_len, np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)

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


def _meta(cstart, kind, col, sub_start, sub_len, leaf) -> np.ndarray:
    """What the one-path walk reads of a slot, together: (first child, -1 for a leaf; column * 4 + kind;
    first subset code; number of them)."""
    meta = np.stack([np.where(leaf, -1, cstart), col * 4 + kind, sub_start, sub_len], axis=1)
    return np.ascontiguousarray(meta, dtype=np.int64)


def _fan(flat) -> np.ndarray:
    """(child, share) of each split whose missing values take one branch only (a filled tree's
    heaviest), (-1, -1) where they take several or a mixture, and at leaves."""
    fan = np.full((len(flat.leaf), 2), -1.0)
    one = ~flat.leaf & (flat.fanout == 1) & ~flat.mixed
    fan[one, 0] = flat.fan_child[flat.fan_start[one]]
    fan[one, 1] = flat.fan_share[flat.fan_start[one]]
    return fan


def descend_compiled(packed: Packed, start: int, stop: int) -> np.ndarray:
    """``predict.descend`` of the table rows ``start`` to ``stop``, walked by the compiled kernel."""
    num, nom = packed.columns(start, stop)
    out = np.empty((stop - start, packed.flat.dist.shape[1]))
    kernels().descend_rows(packed.tree, num, nom, out, packed.depth)
    return out


def predict_compiled(flat, n_rows: int, depth: int, done=None, chunk: int = CHUNK) -> np.ndarray:
    """``predict.descend`` of every table row through the layout ``flat`` of a tree of ``depth``
    levels of splits, walked by the compiled kernel ``chunk`` rows at a time
    (only a chunk's columns copied at once); ``done(n)`` after each chunk of ``n`` rows."""
    packed = Packed(flat, kernels(), depth)
    proba = np.empty((n_rows, flat.dist.shape[1]))
    step = max(1, chunk)
    for start in range(0, n_rows, step):
        stop = min(start + step, n_rows)
        proba[start:stop] = descend_compiled(packed, start, stop)
        if done is not None:
            done(stop - start)
    return proba

"""Compiled kernels (numba) for the hot loops, with the plain-numpy code as the reference.

Contract: ``c45_numeric(values, y, w, n_classes, min_leaf, mdl)`` does in one
compiled pass what ``numeric.cut_table`` + ``numeric.c45_cut`` do with array
operations: sort the known values, scan the cuts in order as J48 does, and
return the best (lower value, upper value, gain after the MDL penalty,
number of admissible cuts, class weights left and right), or None.

numba is imported only when a table is large enough to pay for it
(``ENGINE_MIN_ROWS``) or when ``DTREE_ENGINE=numba`` asks for it;
``DTREE_ENGINE=numpy`` forces the reference path. Compiled code is cached
on disk (``~/.cache/dtree/numba``, or ``NUMBA_CACHE_DIR``), so repeated runs
do not recompile. tests/test_engine.py grows trees both ways and requires
them to be identical.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

ENGINE_MIN_ROWS = 20_000
_kernel = None


def use_compiled(n_rows: int) -> bool:
    """Whether to run the compiled kernels for a table of ``n_rows`` rows."""
    choice = os.environ.get("DTREE_ENGINE", "auto")
    if choice == "numpy" or (choice == "auto" and n_rows < ENGINE_MIN_ROWS):
        return False
    return _load() is not None


def _load():
    global _kernel
    if _kernel is None:
        os.environ.setdefault("NUMBA_CACHE_DIR", str(Path.home() / ".cache" / "dtree" / "numba"))
        try:
            import numba  # noqa: F401
        except ImportError:
            _kernel = False
            return None
        _kernel = _compile()
    return _kernel or None


def _compile():
    from numba import njit

    @njit(cache=True, nogil=True)
    def xlog2x(x):
        if x < 1e-6:
            return 0.0
        return x * np.log(x) / np.log(2.0)

    @njit(cache=True, nogil=True)
    def c45_numeric(values, y, w, n_classes, min_leaf, mdl):
        n = values.shape[0]
        known = np.empty(n, dtype=np.int64)
        n_known = 0
        total = 0.0
        for i in range(n):
            total += w[i]
            if not np.isnan(values[i]):
                known[n_known] = i
                n_known += 1
        known = known[:n_known]
        order = known[np.argsort(values[known], kind="mergesort")]
        class_total = np.zeros(n_classes)
        for i in order:
            class_total[y[i]] += w[i]
        known_weight = class_total.sum()
        min_split = 0.1 * known_weight / n_classes
        if min_split - min_leaf < 1e-6:
            min_split = min_leaf
        elif min_split - 25.0 > 1e-6:
            min_split = 25.0
        empty = np.zeros(n_classes)
        if 2 * min_split - n_known > 1e-6 or n_known < 2:
            return False, 0.0, 0.0, 0.0, 0, empty, empty
        old = xlog2x(known_weight)
        for k in range(n_classes):
            old -= xlog2x(class_total[k])
        left = np.zeros(n_classes)
        best_gain, best_pos, candidates = 0.0, -1, 0
        for pos in range(1, n_known):
            i = order[pos - 1]
            left[y[i]] += w[i]
            if not values[i] + 1e-5 < values[order[pos]]:
                continue
            w_left = left.sum()
            w_right = known_weight - w_left
            if not (min_split - w_left < 1e-6 and min_split - w_right < 1e-6):
                continue
            new = xlog2x(w_left) + xlog2x(w_right)
            for k in range(n_classes):
                new -= xlog2x(left[k]) + xlog2x(class_total[k] - left[k])
            numerator = (known_weight / total) * (old - new)
            gain = 0.0 if (numerator - 0.0 < 1e-6 and 0.0 - numerator < 1e-6) else numerator / known_weight
            if gain - best_gain > 1e-6:
                best_gain, best_pos = gain, pos - 1
            candidates += 1
        if best_pos < 0:
            return False, 0.0, 0.0, 0.0, candidates, empty, empty
        if mdl:
            best_gain -= np.log2(candidates) / total
        if best_gain - 0.0 < 1e-6:
            return False, 0.0, 0.0, 0.0, candidates, empty, empty
        best_left = np.zeros(n_classes)
        for pos in range(best_pos + 1):
            i = order[pos]
            best_left[y[i]] += w[i]
        lower, upper = values[order[best_pos]], values[order[best_pos + 1]]
        return True, lower, upper, best_gain, candidates, best_left, class_total - best_left

    return c45_numeric


class KernelUnavailable(Exception):
    """The compiled kernel could not run here; the caller uses the numpy path."""


def c45_numeric(values: np.ndarray, y: np.ndarray, w: np.ndarray, n_classes: int, min_leaf: float, mdl: bool):
    """The compiled C4.5 cut search (see the module docstring); None when there is no cut."""
    global _kernel
    kernel = _load()
    if kernel is None:
        raise KernelUnavailable()
    try:
        found, lower, upper, gain, candidates, left, right = kernel(
            np.ascontiguousarray(values, dtype=np.float64), np.ascontiguousarray(y, dtype=np.int64),
            np.ascontiguousarray(w, dtype=np.float64), n_classes, float(min_leaf), bool(mdl))
    except Exception as exc:  # a numba that cannot compile here: fall back for good
        _kernel = False
        raise KernelUnavailable() from exc
    if not found:
        return None
    return float(lower), float(upper), float(gain), int(candidates), np.vstack([left, right])

"""Which rows test which fold: stratified K-fold assignment and the stratified percentage split.

Both draw from ``numpy.random.default_rng(seed)``, so a seed always gives the same
rows on every machine and for any number of processes.

K folds (``stratified_folds``): the labelled rows are shuffled, then ordered by
class (a stable sort: class 0's rows in shuffled order, then class 1's, ...), and
dealt round-robin: the i-th row of that order goes to fold ``i mod K``. So every
fold holds each class's rows within one of the ideal ``n_class / K``, fold sizes
differ by at most one row, and as the dealing carries on from one class to the
next, the folds that get the extra row of one class are not always the same ones.
A regression target has no classes: its rows are shuffled and dealt the same way.

Rows whose class (or target value) is missing are in no fold: they train no tree
and test none (Weka's evaluation counts such rows nowhere either). Their fold
number is -1.

The percentage split (``stratified_split``) keeps ``share`` of each class's rows
for training: the whole numbers ``floor(share * n_class)``, then one more row for
the classes with the largest remainders (ties: the first class) until the training
set holds ``round(share * n)`` rows; each class's training rows are the first of
its shuffled rows, the rest are the test set.
"""

from __future__ import annotations

import math

import numpy as np

from dtcli.errors import ParameterError

NO_FOLD = -1


def check_folds(k: int, labelled: int) -> None:
    """K must be 2 or more and at most the number of rows with a known class."""
    if k < 2:
        raise ParameterError(f"--cv {k}: cross-validation needs at least 2 folds (e.g. --cv 10)")
    if labelled < 2:  # (no number of folds can do: each fold holds at least one row out)
        raise ParameterError(
            f"--cv {k}: cross-validation needs at least 2 rows with a known class, and there is {labelled}; "
            "give more rows, or judge the tree with --test FILE"
        )
    if k > labelled:
        raise ParameterError(
            f"--cv {k}: more folds than the {labelled} row(s) with a known class; give --cv {labelled} or less"
        )


def dealing_order(y: np.ndarray, labelled: np.ndarray, seed: int, stratify: bool) -> np.ndarray:
    """The labelled row numbers, shuffled by ``seed``, then (with ``stratify``) grouped by class."""
    rng = np.random.default_rng(seed)
    rows = np.flatnonzero(labelled)
    rows = rows[rng.permutation(len(rows))]
    if stratify:
        rows = rows[np.argsort(y[rows], kind="stable")]
    return rows


def stratified_folds(y: np.ndarray, labelled: np.ndarray, k: int, seed: int, stratify: bool = True) -> np.ndarray:
    """The fold (0 .. k-1) of every row, ``NO_FOLD`` where the target is missing.

    ``y`` holds class codes (or regression targets with ``stratify=False``) and
    ``labelled`` is True where the target is known.
    """
    check_folds(k, int(labelled.sum()))
    order = dealing_order(y, labelled, seed, stratify)
    fold = np.full(len(y), NO_FOLD, dtype=np.int64)
    fold[order] = np.arange(len(order)) % k
    return fold


def check_share(share: float) -> None:
    if not (0 < share < 1) or math.isnan(share):
        raise ParameterError(f"--split {share:g}: give the training share, a number between 0 and 1 (e.g. 0.66)")


def stratified_split(
    y: np.ndarray, labelled: np.ndarray, share: float, seed: int, stratify: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """(training rows, test rows), each in ascending order: ``share`` of every class's rows trains."""
    check_share(share)
    order = dealing_order(y, labelled, seed, stratify)
    n = len(order)
    wanted = int(math.floor(share * n + 0.5))
    if wanted == 0 or wanted == n:
        raise ParameterError(
            f"--split {share:g} of {n} row(s) leaves no rows on one side; use more data or another share"
        )
    if not stratify:
        return np.sort(order[:wanted]), np.sort(order[wanted:])
    classes, starts, counts = np.unique(y[order], return_index=True, return_counts=True)
    keep = _apportion(counts, wanted)
    train = np.concatenate([order[s : s + t] for s, t in zip(starts, keep)])
    test = np.concatenate([order[s + t : s + c] for s, t, c in zip(starts, keep, counts)])
    return np.sort(train), np.sort(test)


def _apportion(counts: np.ndarray, wanted: int) -> np.ndarray:
    """Whole numbers proportional to ``counts`` summing to ``wanted`` (largest remainders, first class on ties)."""
    ideal = counts * (wanted / counts.sum())
    keep = np.floor(ideal).astype(np.int64)
    extra = wanted - int(keep.sum())
    if extra > 0:
        by_remainder = np.argsort(-(ideal - keep), kind="stable")
        keep[by_remainder[:extra]] += 1
    return keep

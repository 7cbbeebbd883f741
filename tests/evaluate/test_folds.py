"""Stratified folds and the stratified split: checked against their definitions on generated classes."""

from __future__ import annotations

import numpy as np
import pytest

from dtcli.errors import ParameterError
from dtcli.evaluate.folds import NO_FOLD, stratified_folds, stratified_split


def classes(counts, missing=0, seed=3):
    """Class codes with ``counts[c]`` rows of class c and ``missing`` rows of unknown class (-1), shuffled."""
    y = np.concatenate([np.full(n, c) for c, n in enumerate(counts)] + [np.full(missing, -1)]).astype(np.int32)
    return np.random.default_rng(seed).permutation(y)


CASES = [((50, 50, 50), 10), ((200, 13, 7, 1), 10), ((9, 5), 3), ((9, 5), 14), ((700, 300), 7), ((3, 3, 3, 3, 3), 4)]


@pytest.mark.parametrize("counts,k", CASES)
@pytest.mark.parametrize("seed", [0, 1, 12345])
def test_each_fold_holds_every_class_within_one_row_of_its_share(counts, k, seed):
    y = classes(counts)
    fold = stratified_folds(y, y >= 0, k, seed)
    for c, n in enumerate(counts):
        per_fold = np.bincount(fold[y == c], minlength=k)
        assert np.all(np.abs(per_fold - n / k) < 1), (c, per_fold)
    sizes = np.bincount(fold, minlength=k)
    assert sizes.max() - sizes.min() <= 1
    assert sizes.sum() == len(y)  # every row tests exactly one fold


def test_rows_without_a_class_are_in_no_fold():
    y = classes((30, 20), missing=7)
    fold = stratified_folds(y, y >= 0, 5, 0)
    assert np.array_equal(fold == NO_FOLD, y < 0)
    assert np.bincount(fold[fold >= 0]).tolist() == [10] * 5


def test_the_same_seed_gives_the_same_folds_and_another_seed_others():
    y = classes((60, 40, 20))
    first = stratified_folds(y, y >= 0, 10, 7)
    assert np.array_equal(first, stratified_folds(y.copy(), y >= 0, 10, 7))
    others = [stratified_folds(y, y >= 0, 10, s) for s in (8, 9, 10)]
    assert all(not np.array_equal(first, other) for other in others)


def test_regression_rows_are_shuffled_and_dealt_evenly():
    y = np.linspace(0, 1, 23)
    y[4] = np.nan
    fold = stratified_folds(y, ~np.isnan(y), 4, 0, stratify=False)
    assert fold[4] == NO_FOLD
    assert sorted(np.bincount(fold[fold >= 0]).tolist()) == [5, 5, 6, 6]


@pytest.mark.parametrize("k,labelled", [(1, 10), (0, 10), (11, 10)])
def test_impossible_fold_counts_are_refused(k, labelled):
    y = classes((labelled - 5, 5))
    with pytest.raises(ParameterError, match="--cv"):
        stratified_folds(y, y >= 0, k, 0)


@pytest.mark.parametrize("counts,share", [((50, 50, 50), 0.66), ((200, 13, 7, 1), 0.5), ((9, 5), 0.7), ((5, 1), 0.5)])
def test_the_split_keeps_each_class_share_within_one_row(counts, share):
    y = classes(counts, missing=3)
    train, test = stratified_split(y, y >= 0, share, 1)
    n = sum(counts)
    assert len(train) == int(np.floor(share * n + 0.5))
    assert len(np.intersect1d(train, test)) == 0
    assert np.array_equal(np.union1d(train, test), np.flatnonzero(y >= 0))
    for c, count in enumerate(counts):
        assert abs(int((y[train] == c).sum()) - share * count) < 1


def test_the_split_is_reproducible_by_seed():
    y = classes((40, 25))
    a = stratified_split(y, y >= 0, 0.66, 5)
    b = stratified_split(y, y >= 0, 0.66, 5)
    c = stratified_split(y, y >= 0, 0.66, 6)
    assert all(np.array_equal(p, q) for p, q in zip(a, b))
    assert not np.array_equal(a[0], c[0])


@pytest.mark.parametrize("share", [0, 1, 1.5, -0.2, float("nan"), 0.01])
def test_impossible_shares_are_refused(share):
    y = classes((10, 10))
    with pytest.raises(ParameterError, match="--split"):
        stratified_split(y, y >= 0, share, 0)

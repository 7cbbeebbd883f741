"""The cluster's bins (``distributed/quantiles.py``) are ``bin_codes``' on the whole column: the same edges,
codes and bin tops, whatever the partitions hold (duplicates, signed zeros, empty or unlabelled parts).
The passes run on a stand-in for a distributed Client that calls each task in this process."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dtcli.induction.distributed import quantiles
from dtcli.induction.distributed.quantiles import bin_of, numeric_bins
from dtcli.induction.search.bins import bin_codes


class _Done:
    def __init__(self, value):
        self.value = value

    def result(self):
        return self.value


class _Client:
    """``map`` and ``scatter`` as distributed's, run here: futures as values, keyword futures resolved."""

    def map(self, fn, futures, **kwargs):
        kwargs = {k: v.result() if isinstance(v, _Done) else v for k, v in kwargs.items()}
        return [_Done(fn(f.result(), **kwargs)) for f in futures]

    def scatter(self, values, broadcast=False, hash=True):
        return [_Done(v) for v in values]


def _check(columns: np.ndarray, y: np.ndarray, cuts: list, max_bins: int) -> None:
    """``columns`` (attributes x rows) cut into partitions at ``cuts``; each attribute's bins against bin_codes."""
    bounds = [0, *cuts, columns.shape[1]]
    parts = [
        _Done(SimpleNamespace(numeric=columns[:, a:b], y=y[a:b])) for a, b in zip(bounds[:-1], bounds[1:]) if a <= b
    ]
    made = numeric_bins(_Client(), parts, columns.shape[0], max_bins)
    for j, column in enumerate(columns):
        codes, tops = bin_codes(column, y >= 0, max_bins)
        edges, renumber, ours = made[j]
        assert ours.tolist() == tops.tolist()
        assert np.array_equal(bin_of(column, edges, renumber), codes)


def _column(rng, n: int, kind: int) -> np.ndarray:
    if kind == 0:  # many distinct values
        values = rng.normal(0, 100, n)
    elif kind == 1:  # few values, heavily repeated, zeros of both signs
        values = rng.choice([-0.0, 0.0, 1.5, -2.0, 7.0, 1e300, -1e-300], n)
    elif kind == 2:  # one value holding most rows, the rest spread
        values = np.where(rng.random(n) < 0.8, 3.0, rng.integers(0, 2000, n) / 7)
    else:  # whole numbers in a short range (as make_data's)
        values = rng.integers(0, 400, n).astype(np.float64)
    values[rng.random(n) < 0.05] = np.nan
    return values


@pytest.mark.parametrize("max_bins", [4, 32, 256])
@pytest.mark.parametrize("seed", range(3))
def test_bins_equal_bin_codes(seed, max_bins):
    rng = np.random.default_rng(seed)
    n = 6000
    columns = np.stack([_column(rng, n, kind) for kind in range(4)])
    y = rng.integers(-1, 3, n)  # (unlabelled rows count for the tops, not the quantiles)
    cuts = sorted(rng.integers(0, n, 7).tolist()) + [n, n]  # (some partitions empty)
    _check(columns, y, cuts, max_bins)


def test_many_samples_a_partition(monkeypatch):
    """Partitions larger than the samples they send (every s-th value): the brackets hold the positions."""
    monkeypatch.setattr(quantiles, "SAMPLES", 16)
    rng = np.random.default_rng(9)
    n = 20000
    columns = np.stack([_column(rng, n, kind) for kind in range(4)])
    _check(columns, rng.integers(0, 2, n), [3000, 3001, 11000], 64)


@given(
    st.lists(st.sampled_from([-1.0, -0.0, 0.0, 0.25, 2.0, 2.5, 1e9, float("nan")]), min_size=1, max_size=300),
    st.integers(2, 40),
    st.integers(1, 8),
    st.lists(st.integers(0, 300), max_size=5),
)
@settings(max_examples=150, deadline=None)
def test_bins_equal_bin_codes_on_any_small_table(values, max_bins, samples, cuts):
    original = quantiles.SAMPLES
    quantiles.SAMPLES = samples  # (few samples: wide brackets, and each partition's every s-th value)
    try:
        column = np.array(values)
        spread = np.concatenate([column, column[::-1] + 0.5, np.arange(len(column)) / 3.0])
        _check(spread[None, :], np.zeros(len(spread), dtype=np.int64), sorted(c % len(spread) for c in cuts), max_bins)
    finally:
        quantiles.SAMPLES = original

"""Sparse cells (``distributed/cells.py``): summed over partitions in any order they hold what one pass
holds, and C4.5's cut scored from them is the level-wise engine's own, record by record (``c45_binned``)."""

from __future__ import annotations

import numpy as np
import pytest

from dtcli.induction.criteria.constants import on_grid
from dtcli.induction.distributed.cells import Cells, NodeOrder, cells_of, dense, merged, pieces, rows_of


def _records(seed: int, n: int = 3000, n_nodes: int = 40, n_bins: int = 9, n_classes: int = 3):
    """Records grouped by node, in row order within a node, with whole, fractional (on the grid) and
    zero weights, and missing codes (-1)."""
    rng = np.random.default_rng(seed)
    node = np.sort(rng.integers(0, n_nodes, n))
    codes = rng.integers(-1, n_bins, n)
    codes[node % 7 == 3] = rng.integers(-1, 2, int((node % 7 == 3).sum()))  # nodes of one or two bins
    y = rng.integers(0, n_classes, n)
    kind = rng.random(n)
    w = np.where(kind < 0.7, 1.0, on_grid(rng.random(n) * rng.random(n) ** 6))
    w[kind > 0.97] = 0.0
    return node, codes, w, y


def _same(a: Cells, b: Cells) -> bool:
    return (
        np.array_equal(a.keys, b.keys) and np.array_equal(a.weights, b.weights) and np.array_equal(a.records, b.records)
    )


@pytest.mark.parametrize("seed", range(4))
def test_cells_summed_from_partitions_in_any_order_are_the_whole(seed):
    node, codes, w, y = _records(seed)
    width = 10
    whole = cells_of(node, codes, w, y, width, 3)
    assert whole.records.sum() == len(node)
    assert np.array_equal(dense(whole, 40, width).sum(axis=(1, 2)), np.bincount(node, weights=w, minlength=40))
    rng = np.random.default_rng(seed)
    cut = np.sort(rng.choice(np.arange(1, len(node)), 5, replace=False))
    parts = [cells_of(*(a[lo:hi] for a in (node, codes, w, y)), width, 3) for lo, hi in zip([0, *cut], [*cut, None])]
    for order in (parts, parts[::-1], [parts[i] for i in rng.permutation(len(parts))]):
        assert _same(merged(order, 3), whole)
    bounds = np.array([0, 7, 8, 25, 40])
    shards = [merged([pieces(p, bounds, width)[r] for p in parts], 3) for r in range(4)]
    for r, shard in enumerate(shards):
        assert _same(shard, pieces(whole, bounds, width)[r])
        starts, found = rows_of(shard, bounds[r + 1] - bounds[r], width)
        assert starts[-1] == len(shard.keys) and np.all(found < width)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("min_leaf", [2.0, 0.5])
def test_sparse_cut_is_the_level_wise_engines(seed, min_leaf):
    """The same found, cut, gain and ratio, bit for bit, as ``c45_binned`` adding record by record."""
    pytest.importorskip("numba")
    from dtcli.induction.distributed.kernels.sparse import sparse_binned_scores
    from dtcli.induction.levelwise.kernels.bins import c45_binned
    from dtcli.induction.levelwise.kernels.state import Frontier, Records

    n_nodes, n_bins = 40, 9
    node, codes, w, y = _records(seed, n_nodes=n_nodes, n_bins=n_bins)
    tops = np.sort(np.random.default_rng(seed).normal(0, 3, n_bins)).round(1)
    tops[4] = tops[3] + 5e-6  # two bins closer than 1e-5: no cut between them
    totals = np.bincount(node, weights=w, minlength=n_nodes)
    recs = Records(np.arange(len(node), dtype=np.int32), y.astype(np.int32), w, node.astype(np.int32))
    front = Frontier(np.ones(n_nodes, dtype=np.bool_), totals, 3, min_leaf)
    expected = c45_binned(codes.astype(np.int64), tops, recs, front, True)
    cells = cells_of(node, codes, w, y, n_bins + 1, 3)
    starts, found = rows_of(cells, n_nodes, n_bins + 1)
    got = sparse_binned_scores(starts, found, cells.weights, cells.records, n_bins, tops, totals, min_leaf, True)
    assert expected[0].any()
    for a, b in zip(expected, got):
        assert np.array_equal(a, b)


def test_a_bin_of_zero_weight_records_is_still_a_value():
    """Records whose fractional weight rounded to 0 still hold their bin's value: the best cut ends at
    that bin (upper = its value), as ``c45_binned`` sees it record by record."""
    pytest.importorskip("numba")
    from dtcli.induction.distributed.kernels.sparse import sparse_binned_scores

    codes = np.array([0] * 5 + [1] * 2 + [2] * 5)
    y = np.array([0] * 5 + [1] * 7)
    w = np.array([1.0] * 5 + [0.0] * 2 + [1.0] * 5)
    node = np.zeros(12, dtype=np.int64)
    tops = np.array([1.0, 2.0, 3.0])
    cells = cells_of(node, codes, w, y, 4, 2)
    starts, found = rows_of(cells, 1, 4)
    got = sparse_binned_scores(starts, found, cells.weights, cells.records, 3, tops, np.array([10.0]), 2.0, True)
    assert got[0][0] and (got[1][0], got[2][0]) == (1.0, 2.0)


@pytest.mark.parametrize("dense_span", [0, 1 << 22])
def test_sums_by_sorting_and_by_key_agree(monkeypatch, dense_span):
    """Pieces are summed by key where the keys span little, by sorting them where they span much."""
    from dtcli.induction.distributed import cells as module

    monkeypatch.setattr(module, "DENSE_SPAN", dense_span)
    node, codes, w, y = _records(9)
    width = 50_000  # (keys spread thinly: many more possible than present)
    whole = cells_of(node, codes, w, y, width, 3)
    cut = [0, 500, 1700, 2900, len(node)]
    parts = [cells_of(*(a[lo:hi] for a in (node, codes, w, y)), width, 3) for lo, hi in zip(cut, cut[1:])]
    assert _same(merged(parts[::-1], 3), whole)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("dtype", [np.int16, np.int32])
def test_cells_counted_node_by_node_are_the_sorted_keys_cells(seed, dtype):
    """Many nodes (a span of keys far above the records): the compiled node-by-node count gives the
    cells that sorting the keys gives, weights to the bit, zero-weight records included."""
    node, codes, w, y = _records(seed, n=5000, n_nodes=3000, n_bins=200)
    rng = np.random.default_rng(seed)
    shuffle = rng.permutation(len(node))  # (records in any order)
    node, codes, w, y = node[shuffle], codes[shuffle].astype(dtype), w[shuffle], y[shuffle]
    sorted_keys = cells_of(node, codes, w, y, 201, 3)
    by_node = cells_of(node, codes, w, y, 201, 3, NodeOrder(node))
    assert _same(sorted_keys, by_node)
    assert by_node.keys.dtype == np.int64 and by_node.records.sum() == len(node)

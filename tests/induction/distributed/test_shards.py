"""A level scored by shards (``distributed/shards.py``) from partitions' sparse cells: the candidates of
every active node are the level-wise engine's (its kernels on the node's records, one pass), whatever
the partitions and shards, and each split's branch weights are the records' own."""

from __future__ import annotations

from types import SimpleNamespace
from typing import NamedTuple

import numpy as np
import pytest

from dtcli.induction.criteria.constants import on_grid
from dtcli.induction.distributed.records import Blocks, branch_sizes
from dtcli.induction.distributed.shards import Layout, level_cells, score_shard

numba = pytest.importorskip("numba")


class Recs(NamedTuple):
    row: np.ndarray
    w: np.ndarray
    node: np.ndarray


def _level(seed: int, n: int = 4000, n_nodes: int = 60):
    rng = np.random.default_rng(seed)
    tops = [np.round(np.sort(rng.normal(0, 5, 12)), 2), np.arange(6, dtype=float)]
    enc = SimpleNamespace(
        nominal=[rng.integers(-1, 3, n).astype(np.int32), rng.integers(-1, 5, n).astype(np.int32)],
        numeric=[rng.choice(t, n) for t in tops],
        y=rng.integers(0, 3, n).astype(np.int32),
    )
    enc.numeric[0][rng.random(n) < 0.05] = np.nan
    bins = [(t, np.arange(len(t) + 1), t) for t in tops]
    layout = Layout((True, False, True, False), (0, 0, 1, 1), (4, 13, 6, 7), (None, bins[0], None, bins[1]), 3)
    row = np.concatenate([np.arange(n), rng.integers(0, n, n // 4)])  # some rows twice: fractional cases
    w = np.concatenate([np.ones(n), on_grid(rng.random(n // 4))])
    node = rng.integers(0, n_nodes, len(row))
    order = np.lexsort((row, node))  # grouped by node, in row order: as the level-wise engine holds them
    recs = Recs(row[order], w[order], node[order])
    active = rng.random(n_nodes) < 0.8
    return enc, layout, recs, active, n_nodes


def _scored(enc, layout, recs, active, totals, n_parts: int, n_shards: int):
    rows = np.flatnonzero(active)
    pos = np.full(len(active), -1)
    pos[rows] = np.arange(len(rows))
    bounds = np.unique(np.linspace(0, len(rows), n_shards + 1).astype(np.int64))
    cut = np.linspace(0, len(recs.row), n_parts + 1).astype(int)
    parts = [Recs(*(a[lo:hi] for a in recs)) for lo, hi in zip(cut[:-1], cut[1:])]
    cells = [level_cells(enc, part, pos, bounds, layout) for part in parts]
    shards = [
        score_shard([c[r] for c in cells], totals[rows[lo:hi]], layout, 2.0)
        for r, (lo, hi) in enumerate(zip(bounds[:-1], bounds[1:]))
    ]
    return shards, bounds, rows


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize(("n_parts", "n_shards"), [(1, 1), (5, 3), (7, 8)])
def test_shards_score_as_the_level_wise_kernels(seed, n_parts, n_shards):
    from dtcli.induction.distributed.kernels.scores import nominal_scores
    from dtcli.induction.levelwise.kernels.bins import c45_binned
    from dtcli.induction.levelwise.kernels.state import Frontier, Records

    enc, layout, recs, active, n_nodes = _level(seed)
    y = enc.y[recs.row]
    totals = np.bincount(recs.node, weights=recs.w, minlength=n_nodes)
    shards, bounds, rows = _scored(enc, layout, recs, active, totals, n_parts, n_shards)
    front = Frontier(active, totals, 3, 2.0)
    flat = Records(np.arange(len(recs.row), dtype=np.int32), y, recs.w, recs.node.astype(np.int32))
    for i in range(4):
        got = [np.concatenate([s[i][j] for s in shards]) for j in range(len(shards[0][i]))]
        column = (enc.nominal if layout.is_nominal[i] else enc.numeric)[layout.slot[i]][recs.row]
        if layout.is_nominal[i]:
            hist = np.zeros((n_nodes, layout.width[i], 3))
            np.add.at(hist, (recs.node, np.where(column < 0, layout.width[i] - 1, column), y), recs.w)
            expected = [a[rows] for a in nominal_scores(hist, active, totals, 2.0)]
        else:
            tops = layout.bins[i][2]
            codes = np.where(np.isnan(column), -1, np.searchsorted(tops, column))
            found, lower, upper, gains, ratios = c45_binned(codes, tops, flat, front, True)
            expected = [a[rows] for a in (found, gains, ratios, lower, upper)]
        assert any(e.any() for e in expected[:1])
        for a, b in zip(got, expected):
            assert np.array_equal(a, b)


@pytest.mark.parametrize("group", [(0, 1, 2, 3), (3, 1), (2,)])
def test_a_group_of_attributes_scores_as_the_whole_level(group):
    """Counting and scoring a group of attributes gives those attributes' candidates of the whole level."""
    enc, layout, recs, active, n_nodes = _level(4)
    totals = np.bincount(recs.node, weights=recs.w, minlength=n_nodes)
    whole, bounds, rows = _scored(enc, layout, recs, active, totals, 3, 2)
    cells = [level_cells(enc, recs, _positions(active), bounds, layout, group)]
    for r, (lo, hi) in enumerate(zip(bounds[:-1], bounds[1:])):
        scored = score_shard([c[r] for c in cells], totals[rows[lo:hi]], layout, 2.0, group)
        for at, i in enumerate(group):
            assert all(np.array_equal(a, b) for a, b in zip(scored[at], whole[r][i]))


def _positions(active):
    pos = np.full(len(active), -1)
    pos[np.flatnonzero(active)] = np.arange(int(active.sum()))
    return pos


def test_branch_sizes_are_the_records_known_weights():
    enc, layout, recs, active, n_nodes = _level(5)
    rng = np.random.default_rng(0)
    attr = rng.choice([-1, 0, 1, 2, 3], n_nodes)
    thr = np.where(attr == 1, layout.bins[1][2][5], np.where(attr == 3, 2.0, 0.0))
    blocks = Blocks(np.array(layout.is_nominal), np.array(layout.slot))
    cut = [0, len(recs.row) // 3, len(recs.row)]
    parts = [Recs(*(a[lo:hi] for a in recs)) for lo, hi in zip(cut[:-1], cut[1:])]
    got = sum(branch_sizes(enc, part, (attr, thr), blocks, 5) for part in parts)
    for node in range(n_nodes):
        here = recs.node == node
        expected = np.zeros(5)
        if attr[node] >= 0:
            i = attr[node]
            column = (enc.nominal if layout.is_nominal[i] else enc.numeric)[layout.slot[i]][recs.row[here]]
            known = ~np.isnan(column) if not layout.is_nominal[i] else column >= 0
            branch = column[known].astype(int) if layout.is_nominal[i] else (column[known] > thr[node]).astype(int)
            np.add.at(expected, branch, recs.w[here][known])
        assert np.array_equal(got[node], expected)

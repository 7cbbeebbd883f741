"""The Dask engine's growth: the client drives the levels, the workers count and score.

Contract: ``grow_dask(client, parts, shape, params, bins)`` returns the FlatTree the level-wise
engine (``levelwise/engine.py``) grows with ``--max-bins`` on the same table, for the cases
``train.unsupported`` lets through. Per level:

1. each partition keeps its records ``(row, weight, node)`` on its worker (``records.py``), carried
   one level down by the tests just chosen (a case whose tested value is missing goes down every
   branch, its weight on the grid of ``constants.on_grid``: every sum below is exact in any order);
2. the partitions' class weights per node are added on the cluster and reach the client
   (``nodes x classes`` numbers), which decides the nodes that may split (``C45Level.splittable``);
3. each partition turns its records at those nodes into sparse cells, one piece per shard of
   nodes (``shards.level_cells``); each shard sums its pieces and scores its nodes with the
   level-wise engine's kernels where it lies (``shards.score_shard``); only the candidates reach
   the client (``active nodes x attributes`` found, gain, ratio and cut). A deep level goes a group
   of attributes at a time (``attribute_groups``), so that a worker holds about
   ``CELLS_PER_WORKER`` cells at once, not one per record and attribute;
4. the client chooses (``C45Level.select``), places the thresholds (``Placer``: J48's), and has
   the partitions add up each split's known weight per branch from their records
   (``records.branch_sizes``), from which it computes the shares exactly as
   ``levelwise/engine.branch_shares`` does.

No row reaches the client, and no array of nodes x bins exists anywhere: a deep level of many
small nodes costs what its records cost. Once no node that may split is large, the frontier's
records go to the workers in runs of nodes, and each worker grows (and, with pruning to follow,
prunes) its runs' subtrees with the local engine's kernels (``finish.py``).
"""

from __future__ import annotations

import operator
import time
from typing import NamedTuple

import numpy as np

from dtcli.errors import ParameterError
from dtcli.induction.criteria.midpoint import midpoint
from dtcli.induction.distributed.cluster import summed
from dtcli.induction.distributed.finish import finish, hands_over, node_groups
from dtcli.induction.distributed.records import Blocks, advance, branch_sizes, node_counts, start
from dtcli.induction.distributed.shards import coded_cells, layout_of, partition_codes, score_shard
from dtcli.induction.grow.flat import FlatTree, best_first
from dtcli.induction.levelwise.c45_level import C45Level
from dtcli.induction.levelwise.data import Candidates, LevelTree, Placer, assemble
from dtcli.induction.levelwise.engine import branch_shares, kernels
from dtcli.induction.levelwise.kernels.state import Frontier

SHARD_NODES = 2048  # a shard holds at least this many active nodes (fewer shards on a narrow level)
CELLS_PER_WORKER = 8_000_000  # a level's attributes are counted in groups of about this many cells a worker


class Shape(NamedTuple):
    """What the level rules read of a table: its attributes, classes and row count (no columns:
    ``Placer`` asks for one only when bins lie within 1e-4, which ``NoColumns`` refuses)."""

    attributes: tuple
    classes: tuple
    n_rows: int
    columns: object


class NoColumns:
    def __init__(self, attributes):
        self.attributes = attributes

    def __getitem__(self, i: int):
        raise ParameterError(
            f"--engine dask: bins of {self.attributes[i].name!r} lie within 1e-4 of each other, where J48 places "
            "the threshold by file order; train this table with the local engine (leave --engine dask out)"
        )


def grow_dask(client, parts: list, shape: Shape, params, bins: dict, progress=None, prune=None) -> FlatTree:
    """Grow the tree level by level (see the module docstring); ``bins`` per numeric slot. With
    ``prune`` (J48's pruning to follow, no --max-leaves), the subtrees grown on the workers come
    collapsed and pruned there, as the FlatTree's grafts (``finish.py``)."""
    growth = _Growth(client, parts, shape, params, bins, prune if params.max_leaves is None else None)
    while growth.level(progress):
        pass
    flat = assemble(growth.levels, shape.attributes)
    for d, grafts in growth.grafts.items():
        at = sum(len(level.labels) for level in growth.levels[:d])  # the level's first slot
        flat.grafts = {at + i: graft for i, graft in grafts.items()}
    if params.max_leaves is not None:
        best_first(flat, np.concatenate([level.gain for level in growth.levels]), params.max_leaves)
    return flat


def shard_cells(
    client,
    parts: list,
    recs: list,
    rows: np.ndarray,
    totals: np.ndarray,
    layout,
    n_workers: int,
    attributes=None,
    codes=None,
):
    """The cells of the level's active nodes ``rows`` (ascending) cut into shards of nodes of about equal
    weight (``totals`` by node), for ``attributes`` (default all); ``codes``: the partitions'
    ``shards.partition_codes``. Returns (per shard, its pieces' futures from every partition; the
    shards' bounds)."""
    m = len(rows)
    bounds = node_groups(totals[rows], int(min(2 * n_workers, max(1, m // SHARD_NODES))))
    pos = np.full(len(totals), -1, dtype=np.int64)
    pos[rows] = np.arange(m)
    pos = client.scatter(pos, broadcast=True, hash=False)
    codes = [None] * len(parts) if codes is None else codes
    cells = client.map(coded_cells, parts, recs, codes, pos=pos, bounds=bounds, layout=layout, attributes=attributes)
    return [[client.submit(operator.getitem, f, r) for f in cells] for r in range(len(bounds) - 1)], bounds


def attribute_groups(widths, n_active: int, weight: float, n_workers: int) -> list[tuple]:
    """The attributes (schema positions) in groups whose cells at a level fit ``CELLS_PER_WORKER`` a
    worker: an attribute of ``width`` codes has at most min(active nodes x width, records) cells, the
    records taken as the active nodes' weight (each worker sums and holds its shards' share)."""
    budget = CELLS_PER_WORKER * max(n_workers, 1)
    groups, group, used = [], [], 0.0
    for i, width in enumerate(widths):
        cells = min(float(n_active) * width, weight)
        if group and used + cells > budget:
            groups.append(tuple(group))
            group, used = [], 0.0
        group.append(i)
        used += cells
    groups.append(tuple(group))
    return groups


class _Growth:
    def __init__(self, client, parts, shape: Shape, params, bins: dict, prune=None):
        self.client, self.parts, self.params, self.bins, self.shape = client, parts, params, bins, shape
        self.prune = prune if params.collapse else None  # (J48 collapses before it prunes: both there)
        self.grafts: dict = {}
        attributes = shape.attributes
        self.attributes, self.n_classes = attributes, len(shape.classes)
        layout = layout_of(attributes, bins, self.n_classes)
        self.is_nominal = np.array(layout.is_nominal, dtype=bool)
        self.slot = np.array(layout.slot, dtype=np.int64)
        self.scorer = C45Level(kernels(), shape, params, None, list(range(len(attributes))), {})
        self.placer = Placer(shape, params.thresholds or "data", snap=True)
        for i in np.flatnonzero(~self.is_nominal):
            self.placer.distinct[int(i)] = bins[int(self.slot[i])][2]
        self.layout = client.scatter(layout, broadcast=True, hash=False)
        self.widths = layout.width
        self.blocks = Blocks(self.is_nominal, self.slot)
        self.n_workers = max(1, len(client.scheduler_info().get("workers", {})))
        self.recs = client.map(start, parts)
        self.codes = client.map(partition_codes, parts, layout=self.layout)
        self.levels: list[LevelTree] = []
        self.parent_labels = np.zeros(1, dtype=np.int64)
        self.started = time.perf_counter()

    def level(self, progress) -> bool:
        """Grow the frontier by one level; False when no node splits."""
        n_nodes, depth = len(self.parent_labels), len(self.levels)
        asked = self.client.map(node_counts, self.parts, self.recs, n_nodes=n_nodes, n_classes=self.n_classes)
        counts = summed(self.client, asked)
        totals = counts.sum(axis=1)
        tops = counts.max(axis=1)
        labels = np.where(totals > 0, counts.argmax(axis=1), self.parent_labels)
        level = LevelTree(counts, labels, n_nodes)
        if progress is not None:
            progress(depth, n_nodes, int(totals.sum()), time.perf_counter() - self.started)
        active = self.scorer.splittable(counts, totals, tops, depth)
        if active.any() and hands_over(totals, active, self.n_workers):  # the rest on the workers (finish.py)
            levels, grafts = finish(self, level, totals, depth)
            self.grafts = {len(self.levels): grafts} if grafts else {}
            self.levels.extend(levels)
            return False
        self.levels.append(level)
        if not active.any():
            return False
        candidates = Candidates(
            None, Frontier(active, totals, self.n_classes, self.scorer.min_leaf), len(self.attributes)
        )
        self._score(candidates, totals)
        best, scores, gains, _ = self.scorer.select(candidates)
        split = np.flatnonzero(best >= 0)
        if len(split) == 0:
            return False
        self._set_tests(level, split, best, scores, gains, candidates)
        level.cstart = np.cumsum(level.nb) - level.nb
        shares = branch_shares(self._sizes(level), level.nb)
        test = self.client.scatter((level.attr, level.thr, level.cstart, shares), broadcast=True, hash=False)
        self.recs = self.client.map(advance, self.parts, self.recs, test=test, blocks=self.blocks)
        self.parent_labels = np.repeat(level.labels, level.nb)
        return True

    def _score(self, candidates: Candidates, totals: np.ndarray) -> None:
        """Every active node's candidates, counted and scored by shards on the cluster, a group of
        attributes at a time (``attribute_groups``: only one group's cells exist at once)."""
        client, rows = self.client, candidates.rows
        weight = float(totals[rows].sum())
        for group in attribute_groups(self.widths, len(rows), weight, self.n_workers):
            shards, bounds = shard_cells(
                client, self.parts, self.recs, rows, totals, self.layout, self.n_workers, group, self.codes
            )
            scored = [
                client.submit(score_shard, shard, totals[rows[lo:hi]], self.layout, self.scorer.min_leaf, group)
                for shard, lo, hi in zip(shards, bounds[:-1], bounds[1:])
            ]
            del shards
            results = client.gather(scored)
            for at, i in enumerate(group):
                parts = results[0][at]
                columns = [np.concatenate([result[at][j] for result in results]) for j in range(len(parts))]
                candidates.put_rows(i, *columns)

    def _sizes(self, level: LevelTree) -> np.ndarray:
        """Each split node's known weight per branch (``route``'s ``sizes``), summed over the partitions'
        records (exact: weights on the grid)."""
        width = max(int(level.nb.max()), 1)
        test = self.client.scatter((level.attr, level.thr), broadcast=True, hash=False)
        asked = self.client.map(branch_sizes, self.parts, self.recs, test=test, blocks=self.blocks, width=width)
        return summed(self.client, asked)

    def _set_tests(self, level: LevelTree, split, best, scores, gains, candidates: Candidates) -> None:
        """The split nodes' tests, as the level-wise engine sets them (J48's threshold placement)."""
        level.attr[split] = best[split]
        level.score[split] = scores[split]
        level.gain[split] = gains[split]
        for s in split:
            i = int(best[s])
            if self.is_nominal[i]:
                level.nb[s] = len(self.attributes[i].values)
                continue
            level.nb[s] = 2
            lower, upper = candidates.cut_of(i, s)
            level.thr[s] = self.placer.place(i, midpoint(lower, upper), lower)

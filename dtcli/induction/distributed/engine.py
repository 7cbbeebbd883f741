"""The Dask engine's growth: the client drives the levels, the workers count.

Contract: ``grow_dask(client, parts, shape, params, bins)`` returns the FlatTree the level-wise
engine (``levelwise/engine.py``) grows with ``--max-bins`` on the same table, for the cases
``train.unsupported`` lets through. Each level ships the tests grown so far (``histograms.Tests``,
a few arrays per level, with each split's branch shares for the cases whose tested value is
missing) to every partition; each sends back its weights per (node, class) and per (node,
attribute value or bin, class), and its record counts per (node, bin): about ``nodes x (sum of
values and bins + attributes) x (classes + 1)`` 8-byte numbers a level; the cluster adds them
pairwise (exactly: the weights lie on ``constants.on_grid``'s grid); the client scores them with
the level-wise engine's own kernels and rules (``C45Level``, ``Candidates``, ``Placer``), places
the thresholds and computes the branch shares as ``levelwise/engine.branch_shares`` does from the
same sums. No row reaches the client.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np

from dtcli.errors import ParameterError
from dtcli.induction.criteria.midpoint import midpoint
from dtcli.induction.distributed.cluster import summed
from dtcli.induction.distributed.histograms import Tests, branch_sizes, histograms
from dtcli.induction.distributed.kernels.scores import binned_scores, nominal_scores
from dtcli.induction.grow.flat import FlatTree, best_first
from dtcli.induction.levelwise.c45_level import C45Level
from dtcli.induction.levelwise.data import Candidates, LevelTree, Placer, assemble
from dtcli.induction.levelwise.engine import branch_shares, kernels
from dtcli.induction.levelwise.kernels.state import Frontier


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


def grow_dask(client, parts: list, shape: Shape, params, bins: dict, progress=None) -> FlatTree:
    """Grow the tree level by level (see the module docstring); ``bins`` per numeric slot."""
    growth = _Growth(client, parts, shape, params, bins)
    while growth.level(progress):
        pass
    flat = assemble(growth.levels, shape.attributes)
    if params.max_leaves is not None:
        best_first(flat, np.concatenate([level.gain for level in growth.levels]), params.max_leaves)
    return flat


class _Growth:
    def __init__(self, client, parts, shape: Shape, params, bins: dict):
        self.client, self.parts, self.params, self.bins = client, parts, params, bins
        attributes = shape.attributes
        self.attributes, self.n_classes = attributes, len(shape.classes)
        self.is_nominal = np.array([a.is_nominal for a in attributes], dtype=bool)
        self.slot = np.zeros(len(attributes), dtype=np.int64)
        self.slot[self.is_nominal] = np.arange(int(self.is_nominal.sum()))
        self.slot[~self.is_nominal] = np.arange(int((~self.is_nominal).sum()))
        self.n_values = tuple(len(a.values) for a in attributes if a.is_nominal)
        usable = list(range(len(attributes)))
        self.scorer = C45Level(kernels(), shape, params, None, usable, {})
        self.placer = Placer(shape, params.thresholds or "data")
        for i in np.flatnonzero(~self.is_nominal):
            self.placer.distinct[int(i)] = bins[int(self.slot[i])][2]
        self.levels: list[LevelTree] = []
        self.shares: list[np.ndarray] = []  # per level: each split node's branch shares
        self.parent_labels = np.zeros(1, dtype=np.int64)
        self.started = time.perf_counter()

    def _tests(self) -> Tests:
        grown = zip(self.levels, self.shares)
        return Tests(tuple((v.attr, v.thr, v.nb, v.cstart, s) for v, s in grown), self.is_nominal, self.slot)

    def _histograms(self, n_nodes: int) -> dict:
        asked = self.client.map(
            histograms,
            self.parts,
            tests=self._tests(),
            n_nodes=n_nodes,
            n_classes=self.n_classes,
            n_values=self.n_values,
            bins=self.bins,
        )
        return summed(self.client, asked)

    def level(self, progress) -> bool:
        """Grow the frontier by one level; False when no node splits."""
        n_nodes, depth = len(self.parent_labels), len(self.levels)
        h = self._histograms(n_nodes)
        counts = h["counts"]
        totals = counts.sum(axis=1)
        tops = counts.max(axis=1)
        labels = np.where(totals > 0, counts.argmax(axis=1), self.parent_labels)
        level = LevelTree(counts, labels, n_nodes)
        self.levels.append(level)
        if progress is not None:
            progress(depth, n_nodes, int(totals.sum()), time.perf_counter() - self.started)
        active = self.scorer.splittable(counts, totals, tops, depth)
        if not active.any():
            return False
        candidates = self._candidates(h, active, totals)
        best, scores, gains, _ = self.scorer.select(candidates)
        split = np.flatnonzero(best >= 0)
        if len(split) == 0:
            return False
        self._set_tests(level, split, best, scores, gains, candidates)
        level.cstart = np.cumsum(level.nb) - level.nb
        self.shares.append(branch_shares(self._sizes(h, level, split), level.nb))
        self.parent_labels = np.repeat(level.labels, level.nb)
        return True

    def _hist(self, h: dict, i: int) -> np.ndarray:
        return h["nominal" if self.is_nominal[i] else "numeric"][int(self.slot[i])]

    def _candidates(self, h: dict, active, totals) -> Candidates:
        min_leaf = self.scorer.min_leaf
        candidates = Candidates(None, Frontier(active, totals, self.n_classes, min_leaf), len(self.attributes))
        for i in range(len(self.attributes)):
            hist = self._hist(h, i)
            if self.is_nominal[i]:
                candidates.put(i, *nominal_scores(hist, active, totals, min_leaf))
            else:
                j = int(self.slot[i])
                scores = binned_scores(hist, h["records"][j], self.bins[j][2], active, totals, min_leaf, True)
                candidates.cut(i, *scores)
        return candidates

    def _sizes(self, h: dict, level: LevelTree, split) -> np.ndarray:
        """Each split node's known weight per branch (``route``'s ``sizes``), from the summed weights:
        a nominal split's per value, a numeric one's bins at or below the threshold and above (the
        workers are asked when a threshold is no bin's largest value: ``--thresholds midpoint``)."""
        sizes = np.zeros((len(level.nb), max(int(level.nb.max()), 1)))
        for s in split:
            i = int(level.attr[s])
            known = self._hist(h, i)[s, :-1].sum(axis=1)  # (exact: weights on the grid)
            if self.is_nominal[i]:
                sizes[s, : len(known)] = known
                continue
            tops = self.bins[int(self.slot[i])][2]
            if not (tops == level.thr[s]).any():
                return self._asked_sizes(level, sizes.shape[1])
            left = tops <= level.thr[s]
            sizes[s, 0], sizes[s, 1] = known[left].sum(), known[~left].sum()
        return sizes

    def _asked_sizes(self, level: LevelTree, width: int) -> np.ndarray:
        tests = self._tests()
        asked = self.client.map(branch_sizes, self.parts, tests=tests, attr=level.attr, thr=level.thr, width=width)
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

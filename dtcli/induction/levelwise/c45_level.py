"""C4.5 at one level of the engine: which nodes may split, each attribute's split at every node, and the choice.

Contract: ``C45Level`` is made once per tree; per level, ``splittable``
gives the frontier nodes that may split, ``score`` (one call per attribute,
in worker threads) fills the level's ``Candidates``, and ``select`` returns
each node's attribute (-1: a leaf), score and gain (and no fixed
thresholds: C4.5's are placed by the engine). ``Id3Level`` is ID3's twin.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.criteria.constants import ENTROPY, RATIO
from dtcli.induction.criteria.costs import cost_scores
from dtcli.induction.levelwise.data import Candidates
from dtcli.induction.levelwise.gini import gini_scores
from dtcli.model.table import Table


class C45Level:
    """C4.5's part of ``engine.grow_levelwise`` (see the module docstring)."""

    def __init__(self, kernels, table: Table, params, columns, usable: list[int], binned: dict):
        self.k, self.params, self.columns, self.binned = kernels, params, columns, binned
        self.attributes = table.attributes
        self.n_classes = len(table.classes)
        self.usable = usable
        self.min_leaf = float(params.min_leaf if params.min_leaf is not None else 2.0)
        self.criterion = ENTROPY if params.criterion == "gain" else RATIO
        limit = 0.3 * table.n_rows
        many_valued = np.array([a.is_nominal and len(a.values) >= limit for a in self.attributes], dtype=np.bool_)
        self.counted = ~many_valued if not many_valued.all() else np.ones(len(self.attributes), dtype=np.bool_)

    def splittable(self, counts, totals, tops, depth: int) -> np.ndarray:
        """Frontier nodes that may split: the stopping rules of ``grow`` and ``c45_choose``."""
        p, min_leaf = self.params, self.min_leaf
        if not self.usable:
            return np.zeros(len(totals), dtype=bool)
        active = (totals > 0) & ((counts > 0).sum(axis=1) > 1)
        if p.max_depth is not None and depth >= p.max_depth:
            active[:] = False
        active &= ~(totals < p.min_split)
        with np.errstate(invalid="ignore", divide="ignore"):
            active &= ~(tops / totals >= p.purity)
        active &= ~(2 * min_leaf - totals > 1e-6)  # sm(total, 2 m)
        active &= ~((totals == tops) | ((totals - tops < 1e-6) & (tops - totals < 1e-6)))  # eq(total, max)
        return active

    def score(self, orders: dict, distinct: dict, level: Candidates, i: int) -> None:
        """Attribute ``i``'s best split at every active node (run in a worker thread; the kernels
        release the GIL, so attributes are scored in parallel)."""
        k = self.k
        if self.attributes[i].is_nominal:
            level.nominal(k, self.columns, i, level.front.active, k.C45)
        elif i in self.binned:
            level.cut(i, *k.c45_binned(*self.binned[i], level.recs, level.front, True))
        else:
            level.cut(i, *k.c45_numeric(orders[i], level.recs, distinct[i], level.front, True))

    def select(self, level: Candidates) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict]:
        """Per node: the attribute chosen (-1: none), its score and gain (which orders best-first
        growth), and no fixed thresholds."""
        p, k, found = self.params, self.k, level.found  # (by active node: ``Candidates.rows``)
        if p.costs is None and p.criterion == "gini":  # the first best Gini decrease
            ranked = gini_scores(self.columns, level.node_view(), self.attributes, self.n_classes)[level.rows]
            best, scores = k.c45_select(found, ranked, level.ratios, self.counted, ENTROPY)
        elif p.costs is None:
            best, scores = k.c45_select(found, level.gains, level.ratios, self.counted, self.criterion)
        else:  # the cost measure, first best by more than 1e-6 (as c45_choose)
            ranked = cost_scores(p.costs, found, level.gains, self.attributes)
            best, scores = k.c45_select(found, ranked, level.ratios, self.counted, ENTROPY)
        if p.min_gain > 0:
            gini = p.criterion == "gini" and p.costs is None  # the score is the improvement
            improvement = scores if gini else level.gains[np.arange(len(best)), np.maximum(best, 0)]
            best[improvement <= p.min_gain] = -1
        gains = level.gains[np.arange(len(best)), np.maximum(best, 0)]
        return level.by_node(best, -1), level.by_node(scores, 0.0), level.by_node(gains, 0.0), {}

    def descend(self, attr: np.ndarray, n_branches: np.ndarray) -> None:
        """Nothing to carry down: C4.5 may test an attribute again below."""

"""ID3 at one level of the engine: which nodes split, on what, with the reference deciding close calls.

Per level: which nodes may split, each attribute's split at every node, and the choice, with
the per-node reference deciding the contested nodes.

Contract: ``Id3Level`` is made once per tree; per level, ``splittable``
gives the frontier nodes that may split, ``score`` (one call per attribute,
in worker threads) fills the level's candidate arrays, and ``select``
returns each node's attribute (-1: a leaf), score, gain and the thresholds
of the splits the reference chose.

ID3 compares scores exactly, as Weka's Id3 does, so two scores equal in
exact arithmetic break their tie by their last bits; numpy's vectorised
logarithm and the C library's (the kernels') may differ there. So every
comparison the kernels make is checked against a ``MARGIN`` far wider than
any such difference and far narrower than any real one, and a node where
one falls within it is decided by the reference (``grow``'s own choice on
that node's rows), which makes the tree the reference's by construction.
Exact ties (a duplicated column; deep nodes of a few rows) are contested
too, but they are few, and each costs one per-node choice.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.criteria.constants import ENTROPY, GAIN_TOLERANCE, KERNEL_CODES
from dtcli.induction.criteria.costs import cost_scores
from dtcli.induction.grow.grower import Grower
from dtcli.induction.search.missing import fill_missing
from dtcli.model.table import Table
from dtcli.model.tree import NumericTest

MARGIN = 1e-9


class Id3Level:
    """ID3's part of ``engine.grow_levelwise`` (see the module docstring)."""

    def __init__(self, kernels, table: Table, rows: np.ndarray, params, columns, usable: list[int]):
        self.k = kernels
        self.table, self.rows, self.params, self.columns = table, rows, params, columns
        self.criterion = KERNEL_CODES[params.criterion]
        self.min_leaf = float(params.min_leaf if params.min_leaf is not None else -1.0)
        self.avail = np.zeros((1, len(table.attributes)), dtype=np.bool_)  # per node: attributes still usable
        self.avail[0, usable] = True
        self.contested = None
        self._grower = None

    def splittable(self, counts, totals, tops, depth: int) -> np.ndarray:
        """``grow``'s stopping rules for ID3: pure, no attribute left, depth, size, purity."""
        p = self.params
        active = (totals > 0) & ((counts > 0).sum(axis=1) > 1) & self.avail.any(axis=1)
        if p.max_depth is not None and depth >= p.max_depth:
            active[:] = False
        active &= ~(totals < p.min_split)
        with np.errstate(invalid="ignore", divide="ignore"):
            active &= ~(tops / totals >= p.purity)
        self.contested = np.zeros((len(active), len(self.table.attributes)), dtype=np.bool_)
        return active

    def score(self, orders: dict, distinct: dict, level, i: int) -> None:
        """Attribute ``i``'s split at every active node (in a worker thread; ``level`` is the
        engine's ``Candidates``: ``ratios`` receive the criterion's scores)."""
        k = self.k
        if self.columns.is_nominal[i]:
            level.nominal(k, self.columns, i, np.ascontiguousarray(self.avail[:, i]), self.criterion)
            return
        found, lower, upper, gains, scores, self.contested[:, i] = k.id3_numeric(
            orders[i], level.recs, distinct[i], level.front, self.criterion, MARGIN
        )
        level.cut(i, found, lower, upper, gains, scores)

    def select(self, level) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict]:
        """Per node: the attribute chosen (-1: none), its score and gain, and {node: threshold}
        for the numeric splits the reference chose."""
        p, k = self.params, self.k
        level = level.node_view()  # every node a row: contested nodes are looked up by node
        if p.costs is None:
            used, rule = level.ratios, self.criterion
        else:  # a cost measure of the gain replaces the criterion, first best wins
            used, rule = cost_scores(p.costs, level.found, level.gains, self.table.attributes), ENTROPY
        best, scores = k.id3_select(level.found, level.gains, used, rule)
        contested = k.id3_contested(level.found, level.gains, used, rule, best, scores, MARGIN)
        contested |= self.contested.any(axis=1)
        chosen = np.arange(len(best)), np.maximum(best, 0)
        gains = level.gains[chosen]
        improvement = level.ratios[chosen] if p.criterion == "gini" and p.costs is None else gains
        if p.zero_gain != "split":  # (split: every node with a candidate splits, as the reference's ``improves``)
            bar = p.min_gain + GAIN_TOLERANCE
            contested |= (best >= 0) & (np.abs(improvement - bar) <= MARGIN)
            best[~(improvement > bar)] = -1
        thresholds = {}
        for node in np.flatnonzero(contested & level.front.active):
            choice = self._decide(level, int(node), self._rivals(level, used, int(node), int(best[node]), scores[node]))
            best[node] = -1 if choice is None else self.table.schema.index(choice.test.attribute.name)
            if choice is not None:
                scores[node], gains[node] = choice.score, choice.gain
                if isinstance(choice.test, NumericTest):
                    thresholds[int(node)] = choice.test.threshold
        return best, scores, gains, thresholds

    def _rivals(self, level, used, node: int, best: int, top: float) -> list[int] | None:
        """The attributes the reference must score at a contested node: those whose scores come
        within the margin of the best (and any whose cut was contested); all (None) for gain
        ratio, whose rule averages every candidate's gain. The others score lower by more than
        any rounding, so the reference's choice is among these."""
        if self.params.criterion == "gain-ratio" and self.params.costs is None:
            return None
        near = level.found[node] & np.isfinite(used[node]) & (np.abs(used[node] - top) <= MARGIN)
        near |= self.contested[node]
        if best >= 0:
            near[best] = True
        return [int(i) for i in np.flatnonzero(near & self.avail[node])]

    def _decide(self, level, node: int, rivals: list[int] | None = None):
        """The per-node grower's choice at ``node`` (None: a leaf), on the node's records, among
        ``rivals`` (all the attributes still usable when None, or when none of them is chosen)."""
        if self._grower is None:
            self._grower = Grower(self.table, self.params)
        recs = level.recs
        start, end = np.searchsorted(recs.node, [node, node + 1])
        part = self.table.take(self.rows[recs.row[start:end]])
        part.weights = recs.w[start:end].astype(np.float64)
        part = fill_missing(part, self.params.missing)  # (per-node policies: as the reference's node)
        available = [int(i) for i in np.flatnonzero(self.avail[node])]
        choice = self._grower.choose(part, rivals) if rivals else None
        if choice is None:
            choice = self._grower.choose(part, available)
        return choice if choice is not None and self._grower.improves(choice) else None

    def descend(self, attr: np.ndarray, n_branches: np.ndarray) -> None:
        """The next level's usable attributes: a nominal attribute is used once on a path."""
        self.avail = np.repeat(self.avail, n_branches, axis=0)
        tested = np.repeat(attr, n_branches)
        nominal = self.columns.is_nominal[tested]
        self.avail[np.flatnonzero(nominal), tested[nominal]] = False

"""The growth trace as data: one record per node, in the order the per-node grower decides them.

Contract: a ``Narrator`` is given to ``grow/grower.py``'s ``Grower`` only when a trace is
asked for (without one, growth does none of this work). For every node it keeps a ``GrowStep``:
where the node hangs (parent, branch, condition), the rows that reach it (their indices in
the table as read, ``Table.origin``: the first ``ROWS_KEPT`` and how many), its class counts
and impurity, the candidate splits with their scores (``Scored``), and either the split chosen
and why or the reason it stays a leaf (``REASONS``). The candidate table is computed for the
trace alone, with the search functions the grower uses, so growth itself is unchanged.
``render/growth.py`` writes the records as text or JSON.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from dtcli.induction.criteria.constants import AVERAGE_GAIN_SLACK
from dtcli.induction.criteria.impurity import entropy, gini
from dtcli.induction.search.c45 import Choice, c45_candidate, placed
from dtcli.induction.search.cart import cart_candidates
from dtcli.induction.search.numeric import c45_cut, cut_table
from dtcli.induction.search.regression import regression_candidates
from dtcli.induction.search.split import candidates
from dtcli.model.tree import NumericTest

ROWS_KEPT = 20  # rows named per node (the trace says how many there are)
EPSILON = float(np.finfo(np.float64).eps)  # a regression node this close to zero error is pure
C45_AVERAGE_SLACK = 1e-3
REASONS = (  # why a node is a leaf (``render/growth.py`` says each in words)
    "pure",
    "no-attributes",
    "min-split",
    "min-leaf",
    "max-depth",
    "purity",
    "not-significant",
    "zero-gain",
    "min-gain",
    "max-leaves",
    "no-split",
    "empty",
)


@dataclass
class Scored:
    """One candidate split at a node: its test and scores (None where the measure does not apply).

    ``score`` is what the choice compares (the criterion, or the cost measure with costs);
    ``gain`` information gain; ``ratio`` C4.5's gain ratio; ``eligible`` whether it passed
    the average-gain filter of gain ratio; ``mdl`` the MDL correction already subtracted from
    the gain of a C4.5 numeric cut; ``cost`` the attribute's cost."""

    attribute: str
    test: object
    score: float
    gain: float | None = None
    ratio: float | None = None
    eligible: bool | None = None
    mdl: float | None = None
    cost: float | None = None


@dataclass
class GrowStep:
    """One node of the growth trace (ids count from 1 in the order the grower records them: the
    order it decides the nodes in, an empty branch when its parent splits)."""

    id: int
    parent: int | None
    branch: int | None
    condition: str | None
    depth: int
    rows: np.ndarray | None  # the first ROWS_KEPT rows' indices in the table as read (None: unknown)
    n_rows: int
    counts: np.ndarray
    impurity: float
    value: float | None = None  # regression: the mean target
    label: int = 0
    candidates: list[Scored] = field(default_factory=list)
    average: float | None = None  # gain ratio: the average gain the candidates are filtered by
    chosen: Scored | None = None  # the split made (or the best one, when a rule stopped it)
    ties: list[str] = field(default_factory=list)  # other attributes with the chosen score
    reason: str | None = None  # why the node is a leaf (a key of REASONS); None: split
    chi: object = None  # the ChiStep of the node's chi-square test
    expanded: int | None = None  # the order the split was made in (best first, --max-leaves)


class Narrator:
    """Records the GrowSteps of one growth (``grower`` is the Grower that consults it)."""

    def __init__(self, grower):
        self.grower = grower
        self.params = grower.params
        self.steps: list[GrowStep] = []
        self.splits = 0

    def leaf(self, item, reason: str, choice=None) -> None:
        """``item`` stays a leaf; ``reason`` is the grower's: ``stop`` (a stopping rule),
        ``min-leaf``, ``no-split`` (no candidate), ``min-gain``, ``not-significant``."""
        step = self._step(item)
        if reason == "stop":
            step.reason = self._stop_reason(item)
            return
        if reason == "min-leaf":
            step.reason = reason
            return
        self._table(step, item)
        if reason == "no-split":
            step.reason = self._no_split(step, item)
        elif reason == "min-gain":
            step.reason = "min-gain" if self.params.min_gain > 0 else "zero-gain"
        else:
            step.reason = reason
            step.chi = self.grower.trace[-1] if self.grower.trace else None
        if choice is not None:
            step.chosen = self._chosen(step, choice, scored(item))

    def split(self, item, choice) -> None:
        """``item`` splits by ``choice``."""
        step = self._step(item)
        self._table(step, item)
        step.chosen = self._chosen(step, choice, scored(item))
        step.ties = _ties(step)

    def children(self, item, choice, children) -> None:
        """The split of ``item`` is made: its children hang from it; empty ones are leaves now."""
        step = item.step
        self.splits += 1
        if step is not None:
            step.expanded = self.splits
        labels = choice.test.branch_labels()
        for branch, child in enumerate(children):
            child.via = (None if step is None else step.id, branch, labels[branch])
            if child.rows is None:
                empty = self._step(child)
                empty.reason = "empty"

    def over_budget(self, item) -> None:
        """``item``'s split would exceed --max-leaves: it stays a leaf."""
        if item.step is not None:
            item.step.reason = "max-leaves"

    def _step(self, item) -> GrowStep:
        parent, branch, condition = getattr(item, "via", None) or (None, None, None)
        node, rows = item.node, item.rows
        origin = None if rows is None or rows.origin is None else rows.origin[:ROWS_KEPT].copy()
        counts = np.asarray(node.counts, dtype=np.float64)
        step = GrowStep(
            id=len(self.steps) + 1,
            parent=parent,
            branch=branch,
            condition=condition,
            depth=item.depth,
            rows=origin,
            n_rows=0 if rows is None else rows.n_rows,
            counts=counts,
            impurity=self._impurity(node, counts),
            value=node.value,
            label=int(node.label),
        )
        self.steps.append(step)
        item.step = step
        return step

    def _impurity(self, node, counts) -> float:
        if node.value is not None:
            return float(node.impurity or 0.0)
        if counts.sum() <= 0:
            return 0.0
        return float(gini(counts) if impurity_name(self.params) == "Gini" else entropy(counts))

    def _stop_reason(self, item) -> str:
        """Which stopping rule held, in the order ``Grower.stops`` tests them."""
        p, node = self.params, item.node
        total = float(node.weight)
        if node.value is not None:
            pure = total <= 0 or (node.impurity or 0.0) <= EPSILON
        else:
            pure = total <= 0 or np.count_nonzero(node.counts) <= 1
        if pure:
            return "pure"
        if not item.available:
            return "no-attributes"
        if p.max_depth is not None and item.depth >= p.max_depth:
            return "max-depth"
        if total < p.min_split:
            return "min-split"
        return "purity"

    def _table(self, step: GrowStep, item) -> None:
        rows, p = scored(item), self.params
        if rows.is_regression:
            step.candidates = _plain(rows, regression_candidates(rows, p.min_leaf or 1.0))
        elif p.algorithm == "cart":
            step.candidates = _plain(rows, cart_candidates(rows, p.criterion, p.min_leaf or 1.0))
        elif p.algorithm == "c45":
            step.candidates, step.average = _c45(self.grower, rows)
        else:
            step.candidates, step.average = _id3(rows, item.available, p)

    def _no_split(self, step: GrowStep, item) -> str:
        rows = scored(item)
        available = item.available if self.params.algorithm == "id3" else range(len(rows.attributes))
        if not any(_separates(rows, i) for i in available):
            return "no-split"
        return "zero-gain" if step.candidates else "min-leaf"

    def _chosen(self, step: GrowStep, choice, rows) -> Scored:
        name = choice.test.attribute.name
        for candidate in step.candidates:
            if candidate.attribute == name:
                candidate.test, candidate.score = choice.test, choice.score
                return candidate
        return Scored(name, choice.test, choice.score, gain=choice.gain)


def impurity_name(params) -> str:
    """The impurity a node is described by: MSE (regression), Gini (the gini and cart criteria), else entropy."""
    return "Gini" if params.criterion in ("gini", "cart") else "entropy"


def _ties(step: GrowStep) -> list[str]:
    best = step.chosen
    return [
        c.attribute
        for c in step.candidates
        if c is not best and c.eligible is not False and abs(c.score - best.score) < 1e-12
    ]


def _separates(rows, i: int) -> bool:
    column = rows.columns[i]
    known = column[~rows.missing_mask(i)]
    return len(known) > 0 and bool((known != known[0]).any())


def _plain(rows, found) -> list[Scored]:
    return [Scored(rows.attributes[i].name, test, score) for i, score, test in found]


def _id3(rows, available, p) -> tuple[list[Scored], float | None]:
    """ID3's candidates (``search/split.py``) with gain, the criterion's score, cost and the gain-ratio filter."""
    out = []
    for c in candidates(rows, available, p.criterion, p.thresholds, p.min_leaf):
        name = rows.attributes[c.attribute].name
        scored = Scored(name, c.test, c.score, gain=c.gain)
        if p.criterion == "gain-ratio":
            scored.ratio = c.score
        if p.costs is not None:
            scored.cost = p.costs.cost(name)
            scored.score = p.costs.score(c.gain, scored.cost)
        out.append(scored)
    if p.criterion != "gain-ratio" or p.costs is not None:
        return out, None
    pool = [c for c in out if math.isfinite(c.ratio)]
    if not pool:
        return out, None
    average = sum(c.gain for c in pool) / len(pool)
    for c in out:
        c.eligible = math.isfinite(c.ratio) and c.gain >= average - AVERAGE_GAIN_SLACK
    return out, average


def _c45(grower, rows) -> tuple[list[Scored], float | None]:
    """C4.5's candidates as ``c45_choose`` scores them, numeric cuts with their MDL correction."""
    p, thresholds = grower.params, grower.thresholds
    m = p.min_leaf or 2.0
    index, w = np.arange(rows.n_rows), rows.weights
    total = float(np.bincount(rows.y, weights=w, minlength=len(rows.classes)).sum())
    out, counted = [], []
    limit = 0.3 * grower.n_all
    many = [a.is_nominal and len(a.values) >= limit for a in rows.attributes]
    for i, attribute in enumerate(rows.attributes):
        found = c45_candidate(rows, i, index, w, m, thresholds, total)
        mdl = None
        if not attribute.is_nominal:
            cuts = cut_table(rows.columns[i], rows.y, w, len(rows.classes), total=total)
            cut = c45_cut(cuts, len(rows.classes), m, False)
            if cut is not None and thresholds.mdl:
                mdl = math.log2(cut.n_candidates) / total
            if found is None and mdl is not None:  # the correction took every bit of gain
                test = placed(_bare(cut, attribute), thresholds, rows).test
                out.append(Scored(attribute.name, test, cut.gain - mdl, gain=cut.gain - mdl, mdl=mdl, eligible=False))
                continue
        if found is None:
            continue
        test = found.test if attribute.is_nominal else placed(Choice(found.test, 0.0, 0.0), thresholds, rows).test
        scored = Scored(attribute.name, test, found.ratio, gain=found.gain, ratio=found.ratio, mdl=mdl)
        if p.costs is not None:
            scored.cost = p.costs.cost(attribute.name)
            scored.score = p.costs.score(found.gain, scored.cost)
        elif p.criterion in ("gain", "gini"):
            scored.score = found.gain if p.criterion == "gain" else found.gini(total)
        out.append(scored)
        if all(many) or not many[i]:
            counted.append(scored)
    if p.costs is not None or p.criterion in ("gain", "gini") or not counted:
        return out, None
    average = sum(c.gain for c in counted) / len(counted)
    for c in out:
        if c.eligible is None:
            c.eligible = c.gain >= average - C45_AVERAGE_SLACK
    return out, average


def _bare(cut, attribute) -> Choice:
    return Choice(NumericTest(attribute, cut.threshold), 0.0, 0.0)


def scored(item):
    """The rows the grower scored at ``item``: with values filled in there (--missing majority,
    class-majority), else the node's rows as they came down."""
    return item.rows if item.filled is None else item.filled

"""The numbers behind a split choice: one row per attribute (``dtree gain``).

For each nominal attribute: the class counts of each branch, the weighted
entropy after the split, information gain, split information, gain ratio
and Gini gain. Cases with a missing value are handled as C4.5 does
(Quinlan 1993): the gain is computed on the cases whose value is known and
multiplied by their share of the weight; split information counts the
missing cases as one more branch.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cmp_to_key

import numpy as np

from dtcli.induction.criteria import (
    entropy,
    gini,
    gini_gain,
    information_gain,
    weighted_impurity,
)
from dtcli.induction.grow import GAIN_TOLERANCE
from dtcli.induction.split import Candidate, better, choose, near_ties, nominal_branch_counts
from dtcli.model.table import Table

NOISE = 1e-12


@dataclass
class AttributeReport:
    """The split statistics of one attribute at a node."""

    name: str
    index: int
    values: tuple[str, ...]
    branch_counts: np.ndarray
    missing: float
    weighted_entropy: float
    gain: float
    split_info: float
    gain_ratio: float
    gini_gain: float

    def score(self, criterion: str) -> float:
        return {"gain": self.gain, "gain-ratio": self.gain_ratio, "gini": self.gini_gain}[criterion]


@dataclass
class GainReport:
    """Statistics of the whole set and of every candidate attribute, best first."""

    target: str
    classes: tuple[str, ...]
    counts: np.ndarray
    rows: int
    entropy: float
    gini: float
    criterion: str
    attributes: list[AttributeReport]
    chosen: str | None
    ties: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)


def attribute_report(table: Table, rows: np.ndarray, i: int) -> AttributeReport:
    """Split statistics for nominal attribute ``i`` over ``rows``."""
    attribute = table.attributes[i]
    codes = table.columns[i][rows]
    weights = table.weights[rows]
    counts = nominal_branch_counts(codes, table.y[rows], weights, len(attribute.values), len(table.classes))
    missing = float(weights[codes < 0].sum())
    total = float(weights.sum())
    known = (total - missing) / total if total > 0 else 0.0
    split_info = entropy(np.append(counts.sum(axis=1), missing))  # unknowns: one more branch
    gain = _denoise(known * information_gain(counts))
    ratio = _denoise(gain / split_info) if split_info > 0 else float("-inf")
    return AttributeReport(
        name=attribute.name, index=i, values=attribute.values, branch_counts=counts, missing=missing,
        weighted_entropy=weighted_impurity(counts, entropy), gain=gain, split_info=split_info,
        gain_ratio=ratio, gini_gain=_denoise(known * gini_gain(counts)),
    )


def gain_report(table: Table, criterion: str = "gain", rows: np.ndarray | None = None,
                exclude: tuple[str, ...] = ()) -> GainReport:
    """Score every attribute (but ``exclude``) over ``rows`` (default: all labelled rows)."""
    labelled = table.y >= 0
    rows = np.flatnonzero(labelled) if rows is None else rows[labelled[rows]]
    counts = np.bincount(table.y[rows], weights=table.weights[rows], minlength=len(table.classes))
    reports, skipped = [], []
    for i, attribute in enumerate(table.attributes):
        if attribute.name in exclude:
            continue
        if not attribute.is_nominal:
            skipped.append((attribute.name, "numeric (threshold splits come with C4.5)"))
            continue
        reports.append(attribute_report(table, rows, i))
    pool = [Candidate(r.index, r.branch_counts, r.gain, r.score(criterion)) for r in reports]
    order = sorted(range(len(pool)), key=cmp_to_key(lambda i, j: _compare(pool[i], pool[j])))
    reports = [reports[i] for i in order]
    best = choose(pool, criterion) if len(rows) and np.count_nonzero(counts) > 1 else None
    chosen = table.attributes[best.attribute].name if best is not None and best.gain > GAIN_TOLERANCE else None
    ties = [table.attributes[c.attribute].name for c in near_ties(pool, best)] if chosen else []
    return GainReport(
        target=table.schema.target.name, classes=table.classes, counts=counts.astype(float),
        rows=len(rows), entropy=entropy(counts), gini=gini(counts), criterion=criterion,
        attributes=reports, chosen=chosen, ties=ties, skipped=skipped,
    )


def _denoise(value: float) -> float:
    """Rounding noise around zero (|x| < 1e-12) is zero: equal splits score exactly 0."""
    return 0.0 if abs(value) < NOISE else float(value)


def _compare(a: Candidate, b: Candidate) -> int:
    """Best first, in the order ``choose`` prefers (column order on ties)."""
    if better(a, b):
        return -1
    if better(b, a):
        return 1
    return a.attribute - b.attribute

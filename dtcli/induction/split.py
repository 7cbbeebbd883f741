"""Split search: score every candidate attribute at a node and pick the best.

Contract: ``candidates`` scores every attribute at a node; ``choose``
returns the best or None. Ties break deterministically (DESIGN §4): the
highest score, then the attribute that comes first in column order.

Scores are compared exactly as computed, and they are computed in Weka's
order of operations (see ``criteria.entropy``). So when two splits have
scores that are equal in exact arithmetic but differ in the last bit, the
tie breaks the same way it does in Weka's Id3; identical computed scores (a
duplicated column, say) go to the first column. ``near_ties`` names such
cases so that reports can point them out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dtcli.induction.criteria import CRITERIA, information_gain
from dtcli.model.table import Table

# Quinlan's gain-ratio rule compares with the average gain with this slack (as J48).
AVERAGE_GAIN_SLACK = 1e-3


@dataclass
class Candidate:
    """A scored split on one attribute: ``branch_counts`` is (values, classes)."""

    attribute: int
    branch_counts: np.ndarray
    gain: float
    score: float


def nominal_branch_counts(codes: np.ndarray, y: np.ndarray, weights: np.ndarray,
                          n_values: int, n_classes: int) -> np.ndarray:
    """Weighted class counts per value: a (values, classes) matrix; missing codes skipped."""
    known = codes >= 0
    flat = codes[known].astype(np.int64) * n_classes + y[known]
    counts = np.bincount(flat, weights=weights[known], minlength=n_values * n_classes)
    return counts.reshape(n_values, n_classes)


def candidates(table: Table, rows: np.ndarray, attributes: list[int], criterion: str) -> list[Candidate]:
    """Score a multiway split on each of ``attributes`` over ``rows``."""
    score_of = CRITERIA[criterion]
    y = table.y[rows]
    weights = table.weights[rows]
    n_classes = len(table.classes)
    found = []
    for i in attributes:
        attribute = table.attributes[i]
        counts = nominal_branch_counts(table.columns[i][rows], y, weights, len(attribute.values), n_classes)
        gain = information_gain(counts)
        score = gain if criterion == "gain" else score_of(counts)
        found.append(Candidate(i, counts, gain, score))
    return found


def choose(found: list[Candidate], criterion: str) -> Candidate | None:
    """The best candidate by score, first in column order on ties.

    For gain ratio, Quinlan's rule applies (C4.5, Mitchell §3.7.3): only
    candidates whose gain is at least the average gain compete.
    """
    pool = [c for c in found if np.isfinite(c.score)]
    if criterion == "gain-ratio" and pool:
        average = sum(c.gain for c in pool) / len(pool)
        pool = [c for c in pool if c.gain >= average - AVERAGE_GAIN_SLACK]
    best = None
    for candidate in pool:
        if best is None or better(candidate, best):
            best = candidate
    return best


def better(a: Candidate, b: Candidate) -> bool:
    """True when ``a`` beats ``b`` (a higher computed score; ties keep ``b``)."""
    return a.score > b.score


def near_ties(found: list[Candidate], best: Candidate, places: int = 12) -> list[Candidate]:
    """Other candidates whose score equals the best one's to ``places`` decimals."""
    return [c for c in found if c is not best and abs(c.score - best.score) < 10.0 ** -places]

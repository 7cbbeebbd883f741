"""The area under the ROC curve of one class, as Weka's ThresholdCurve and getROCArea compute it.

Weka sorts the predictions by the class's probability and adds a curve point
at each distinct probability (rows of equal probability make one step, so a
tie counts half a pair); the trapezoid area under those points, divided by
positives x negatives, equals the Mann-Whitney statistic with ties counted
one half. No positive or no negative row: the area is undefined (Weka's
NaN, printed '?'). (Weka 3.6 passes the rows whose class is missing too, as
negatives of every class; ``report`` does the same.)
"""

from __future__ import annotations

import numpy as np


def roc_area(scores: np.ndarray, positive: np.ndarray, weights: np.ndarray | None = None) -> float | None:
    """Area under the ROC curve of ``scores`` (one class's probabilities) for the rows
    where ``positive`` is true against the others; None when either side is empty."""
    scores = np.asarray(scores, dtype=np.float64)
    positive = np.asarray(positive, dtype=bool)
    weights = np.ones(len(scores)) if weights is None else np.asarray(weights, dtype=np.float64)
    total_pos = float(weights[positive].sum())
    total_neg = float(weights[~positive].sum())
    if total_pos <= 0 or total_neg <= 0:
        return None
    values, group = np.unique(scores, return_inverse=True)  # ascending distinct probabilities
    pos = np.bincount(group, weights * positive, minlength=len(values))
    neg = np.bincount(group, weights * ~positive, minlength=len(values))
    below = np.cumsum(neg) - neg  # negatives at strictly lower probabilities
    return float((pos * (below + 0.5 * neg)).sum() / (total_pos * total_neg))

"""Weka-equal errors of numeric predictions: RMSE, MAE, R², correlation, relative errors against the training mean.

As Weka 3.6's Evaluation for a numeric class: rows whose target is missing are
ignored (counted apart); a missing prediction is unclassified (in the total, in
no error); the relative errors divide the mean absolute (root mean squared)
error by that of always predicting the training mean of each part (its
``prior``), computed over the same rows. R² is 1 - SSE/SST, SST about the mean
of the test targets (not a Weka figure; scikit-learn's r2_score). Zero
denominators give None.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dtcli.evaluate.predictions import Predictions


@dataclass(frozen=True)
class RegressionReport:
    """What Weka prints for a numeric class, plus R²; None: undefined."""

    total: float  # rows with a known target
    unclassified: float
    ignored: float  # rows whose target is missing
    correlation: float | None
    mean_absolute_error: float | None
    root_mean_squared_error: float | None
    relative_absolute_error: float | None  # a fraction (Weka prints it times 100, in %)
    root_relative_squared_error: float | None
    r2: float | None
    parts: int

    task = "regression"


def regression_report(parts: list[Predictions]) -> RegressionReport:
    """Pool the parts' errors (each part's baseline is its own training mean)."""
    actual_all, predicted_all, baseline_all = [], [], []
    ignored = unclassified = 0.0
    priors = True
    for part in parts:
        actual = np.asarray(part.actual, dtype=np.float64)
        predicted = np.asarray(part.predicted, dtype=np.float64)
        known = ~np.isnan(actual)
        ignored += float((~known).sum())
        scored = known & ~np.isnan(predicted)
        unclassified += float((known & np.isnan(predicted)).sum())
        actual_all.append(actual[scored])
        predicted_all.append(predicted[scored])
        has_prior = part.prior is not None and len(part.prior) == 1 and np.isfinite(part.prior[0])
        priors = priors and has_prior
        baseline_all.append(np.full(int(scored.sum()), float(part.prior[0]) if has_prior else np.nan))
    a, p, b = (np.concatenate(x) for x in (actual_all, predicted_all, baseline_all))
    return _errors(a, p, b if priors else None, unclassified, ignored, len(parts))


def _errors(a, p, baseline, unclassified: float, ignored: float, n_parts: int) -> RegressionReport:
    n = len(a)
    total = n + unclassified
    if n == 0:
        return RegressionReport(total, unclassified, ignored, None, None, None, None, None, None, n_parts)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):  # huge targets: inf or nan, no warning
        errors = p - a
        mae = float(np.abs(errors).mean())
        rmse = float(np.sqrt((errors**2).mean()))
        rae = rrse = None
        if baseline is not None:
            prior_mae = float(np.abs(baseline - a).sum()) / total
            prior_rmse = float(np.sqrt(((baseline - a) ** 2).sum() / total))
            rae = mae / prior_mae if prior_mae else None
            rrse = rmse / prior_rmse if prior_rmse else None
        sst = float(((a - a.mean()) ** 2).sum())
        r2 = 1 - float((errors**2).sum()) / sst if sst > 0 else None
        return RegressionReport(total, unclassified, ignored, _correlation(a, p), mae, rmse, rae, rrse, r2, n_parts)


def _correlation(a: np.ndarray, p: np.ndarray) -> float | None:
    """Weka's correlation coefficient (0 when either variance is 0, as Weka prints it)."""
    n = len(a)
    var_a = float((a * a).sum() - a.sum() ** 2 / n)
    var_p = float((p * p).sum() - p.sum() ** 2 / n)
    cov = float((a * p).sum() - a.sum() * p.sum() / n)
    if not np.isfinite(var_a * var_p):
        return None
    return cov / float(np.sqrt(var_a * var_p)) if var_a * var_p > 0 else 0.0

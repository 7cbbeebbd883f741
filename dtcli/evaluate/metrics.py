"""Accuracy and the confusion matrix of predictions against known classes."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class Evaluation:
    """``matrix[i, j]``: rows of actual label i predicted as class j.

    ``labels`` are the model's classes, followed by any actual labels the
    model never saw in training (always counted as errors).
    """

    labels: tuple[str, ...]
    classes: tuple[str, ...]
    matrix: np.ndarray
    unlabelled: int

    @property
    def total(self) -> int:
        return int(self.matrix.sum())

    @property
    def correct(self) -> int:
        k = len(self.classes)
        return int(np.trace(self.matrix[:k, :k]))

    @property
    def accuracy(self) -> float:
        return self.correct / self.total if self.total else float("nan")


def evaluate(
    actual: np.ndarray, predicted: np.ndarray, labels: tuple[str, ...], classes: tuple[str, ...]
) -> Evaluation:
    """Compare actual label codes (-1: unknown, left out) with predicted class codes."""
    k = len(classes)
    known = actual >= 0
    flat = actual[known].astype(np.int64) * k + predicted[known]
    matrix = np.bincount(flat, minlength=len(labels) * k).reshape(len(labels), k)
    return Evaluation(tuple(labels), tuple(classes), matrix, int((~known).sum()))


@dataclass
class RegressionEvaluation:
    """Errors of numeric predictions on the rows whose target is known."""

    n: int
    rmse: float
    mae: float
    r2: float


def evaluate_regression(actual: np.ndarray, predicted: np.ndarray) -> RegressionEvaluation:
    """RMSE, MAE and R^2 = 1 - SSE/SST over the rows with a known target."""
    known = ~np.isnan(actual)
    a, p = actual[known], predicted[known]
    if len(a) == 0:
        return RegressionEvaluation(0, float("nan"), float("nan"), float("nan"))
    with np.errstate(over="ignore", invalid="ignore"):  # huge or infinite targets: inf or nan, no warning
        errors = a - p
        sst = float(((a - a.mean()) ** 2).sum())
        r2 = 1 - float((errors**2).sum()) / sst if sst > 0 else float("nan")
        return RegressionEvaluation(len(a), float(np.sqrt((errors**2).mean())), float(np.abs(errors).mean()), r2)

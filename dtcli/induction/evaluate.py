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


def evaluate(actual: np.ndarray, predicted: np.ndarray, labels: tuple[str, ...],
             classes: tuple[str, ...]) -> Evaluation:
    """Compare actual label codes (-1: unknown, left out) with predicted class codes."""
    k = len(classes)
    known = actual >= 0
    flat = actual[known].astype(np.int64) * k + predicted[known]
    matrix = np.bincount(flat, minlength=len(labels) * k).reshape(len(labels), k)
    return Evaluation(tuple(labels), tuple(classes), matrix, int((~known).sum()))

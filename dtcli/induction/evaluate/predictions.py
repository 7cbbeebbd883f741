"""What an evaluation judges: a model's predictions for rows whose true class (or value) is known."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Predictions:
    """Predictions against the truth, for classification or regression.

    Classification: ``actual`` holds codes into ``labels`` (the model's ``classes``
    first, then labels it never saw in training; -1 where the class is missing),
    ``predicted`` class codes into ``classes`` and ``proba`` one row of class
    probabilities per row (columns in ``classes`` order). ``prior`` is the class
    distribution of the training data (counts in ``classes`` order), the baseline of
    Weka's relative errors. Regression: ``actual`` and ``predicted`` are floats
    (``nan``: target missing), ``labels``, ``classes`` empty, ``proba`` None and
    ``prior`` the training targets' mean in a one-element array.

    Several test sets (the folds of a cross-validation) are judged together as a list
    of Predictions, each with the prior of its own training data, as Weka does.
    """

    actual: np.ndarray
    predicted: np.ndarray
    proba: np.ndarray | None
    labels: tuple[str, ...]
    classes: tuple[str, ...]
    prior: np.ndarray

    @property
    def regression(self) -> bool:
        return not self.classes

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


def model_outputs(model, table) -> tuple[np.ndarray, np.ndarray]:
    """(predicted class codes, probabilities) of a tree or a rule set on ``table``; for a
    regression tree (predicted values, a one-column matrix of them)."""
    from dtcli.model.rules import RuleSet

    if isinstance(model, RuleSet):
        from dtcli.induction.rules import predict_rules

        return predict_rules(model, table)
    from dtcli.induction.predict.apply import predict_proba

    probabilities = predict_proba(model, table)
    if model.schema.is_regression:
        return probabilities[:, 0], probabilities
    return probabilities.argmax(axis=1), probabilities


def training_prior(model) -> np.ndarray:
    """The class counts (a regression: the mean target) of the model's training data, from
    the tree's root; a rule set keeps them only when made from a tree without pruning (its
    default's counts); otherwise an empty array (unknown: the relative errors are undefined)."""
    from dtcli.model.rules import RuleSet

    if isinstance(model, RuleSet):
        whole = not model.parameters.get("pruned") and model.parameters.get("source", "tree") == "tree"
        return np.asarray(model.default_counts, dtype=np.float64) if whole else np.zeros(0)
    root = model.root
    if model.schema.is_regression:
        return np.array([root.value if root.value is not None else np.nan], dtype=np.float64)
    return np.asarray(root.counts, dtype=np.float64)


def of_model(model, table, actual: np.ndarray, labels: tuple[str, ...]) -> Predictions:
    """A model's Predictions on ``table`` whose true classes (codes into ``labels``) or values are ``actual``."""
    predicted, probabilities = model_outputs(model, table)
    if model.schema.is_regression:
        return Predictions(np.asarray(actual, dtype=np.float64), predicted, None, (), (), training_prior(model))
    classes = tuple(model.classes)
    return Predictions(np.asarray(actual), predicted, probabilities, tuple(labels), classes, training_prior(model))

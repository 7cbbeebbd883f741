"""Cross-validation, the percentage split and a test file: train on some rows, judge on others.

``fit(table) -> (tree, warnings)`` is how a tree is learned (``fit.Learner.fit``:
what ``dtree train`` does, pruning included). Each fold of ``cross_validate``
trains on the other folds' rows and predicts its own, giving one ``Predictions``
(whose prior is the class counts, or for regression the mean target, of that
fold's training rows, as Weka judges a fold) and the fold tree's size. Folds run
in ``jobs`` processes (``workers.run``) and come back in fold order, so the result
is the same for any ``jobs``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from dtcli.errors import DtreeError
from dtcli.evaluate.folds import stratified_folds, stratified_split
from dtcli.evaluate.predictions import Predictions
from dtcli.induction import workers
from dtcli.model.table import Table
from dtcli.model.tree import Tree


@dataclass(frozen=True)
class Fold:
    """One trained-and-tested part: the test rows' predictions and the size of the tree that made them."""

    predictions: Predictions
    nodes: int
    leaves: int
    warnings: tuple[str, ...] = ()

    @property
    def accuracy(self) -> float:
        """Share of test rows (with a known class) predicted right; nan for regression or no rows."""
        p = self.predictions
        if p.regression:
            return float("nan")
        known = p.actual >= 0
        return float((p.actual[known] == p.predicted[known]).mean()) if known.any() else float("nan")


@dataclass(frozen=True)
class Judged:
    """The parts of an evaluation (K folds, or one split or test file), with the rows left out of all."""

    parts: list[Fold]
    unlabelled: int = 0
    warnings: tuple[str, ...] = field(default=())

    @property
    def predictions(self) -> list[Predictions]:
        return [part.predictions for part in self.parts]

    def spread(self, name: str) -> tuple[float, float]:
        """Mean and sample standard deviation over the parts of ``accuracy``, ``nodes`` or ``leaves``
        (the deviation is nan for a single part)."""
        values = np.array([getattr(part, name) for part in self.parts], dtype=np.float64)
        if not len(values) or np.isnan(values).any():
            return float("nan"), float("nan")
        std = float(values.std(ddof=1)) if len(values) > 1 else float("nan")
        return float(values.mean()), std


def prior_of(table: Table) -> np.ndarray:
    """The training data's class counts (weighted), or for regression its mean target in a one-element array."""
    if not table.is_regression:
        return table.class_counts()
    known = table.labelled()
    weights = table.weights[known]
    total = float(weights.sum())
    return np.array([float((table.y[known] * weights).sum()) / total if total else math.nan])


def judge(tree: Tree, test: Table, prior: np.ndarray, labels: tuple[str, ...] | None = None, actual=None):
    """The Predictions of ``tree`` for the rows of ``test`` (``actual``: their true codes into ``labels``,
    by default ``test.y`` and the tree's classes)."""
    from dtcli.evaluate.predictions import model_outputs

    predicted, proba = model_outputs(tree, test)
    truth = test.y if actual is None else actual
    if tree.schema.is_regression:
        return Predictions(np.asarray(truth, dtype=np.float64), predicted, None, (), (), prior)
    classes = tuple(tree.classes)
    return Predictions(np.asarray(truth), predicted, proba, labels or classes, classes, prior)


def trained_and_tested(fit, train: Table, test: Table, labels=None, actual=None) -> Fold:
    """Fit on ``train``, judge on ``test``: one Fold."""
    tree, warnings = fit(train)
    root = tree.root
    return Fold(judge(tree, test, prior_of(train), labels, actual), root.n_nodes(), root.n_leaves(), tuple(warnings))


def cross_validate(fit, table: Table, k: int, seed: int, jobs: int = 1, progress=None) -> Judged:
    """Stratified ``k``-fold cross-validation of ``fit`` on ``table`` (folds drawn with ``seed``,
    ``folds.stratified_folds``); ``progress(folds_done, k)`` after each fold."""
    labelled = table.labelled()
    fold = stratified_folds(table.y, labelled, k, seed, stratify=not table.is_regression)

    def one(i: int) -> Fold:
        try:
            return trained_and_tested(fit, table.take(labelled & (fold != i)), table.take(fold == i))
        except DtreeError as exc:
            raise type(exc)(f"cross-validation fold {i + 1} of {k}: {exc}") from None

    parts = workers.run(one, k, jobs, progress)
    return Judged(parts, int((~labelled).sum()), _merged(parts))


def percentage_split(fit, table: Table, share: float, seed: int) -> Judged:
    """Train on ``share`` of the rows (stratified, drawn with ``seed``), judge on the rest."""
    labelled = table.labelled()
    train, test = stratified_split(table.y, labelled, share, seed, stratify=not table.is_regression)
    part = trained_and_tested(fit, table.take(train), table.take(test))
    return Judged([part], int((~labelled).sum()), part.warnings)


def _merged(parts: list[Fold]) -> tuple[str, ...]:
    """Every fold's warnings, each once, in order of first appearance."""
    return tuple(dict.fromkeys(message for part in parts for message in part.warnings))

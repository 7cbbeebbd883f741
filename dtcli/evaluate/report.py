"""Weka-equal evaluation reports: the summary, per-class statistics and the confusion matrix of predictions.

``report(parts)`` judges one or more test sets (the folds of a cross-validation)
together, as Weka's Evaluation does (Weka 3.6, ``weka.classifiers.Evaluation``):

- Counts are pooled: correct, incorrect, the confusion matrix (rows actual,
  columns predicted), and the rows whose class is missing are ignored (counted
  apart). A row whose probabilities are all zero is unclassified: counted in
  the total, not in the matrix, left out of the probability errors.
- Mean absolute and root mean squared error are those of the class probability
  vectors against the one-hot actual class, averaged over the classes, then over
  the rows. The relative errors compare them with the same errors of the
  training prior of each part: class counts plus one each, as Weka's setPriors.
- Kappa, TP/FP rates, precision, recall and F-measure come from the pooled
  matrix; ROC areas from the pooled probabilities (see ``roc``; a row whose
  class is missing counts there as a negative of every class, as Weka 3.6's
  ThresholdCurve counts it, though it is left out of everything else); weighted
  averages weight each class by its support and count an undefined value as 0,
  as Weka and scikit-learn do; macro averages are plain means over the classes
  that occur (actual or predicted), undefined values as 0 (ROC: defined ones only).
- A label the model never saw in training is treated as Weka would treat a
  class declared in the header but absent from the training data: an extra
  class, never predicted, with a prior count of one.

A value whose denominator is zero is None (undefined), except where Weka
defines it: kappa is 1 when chance agreement is 1, the F-measure 0 when
precision and recall are both 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dtcli.evaluate.predictions import Predictions
from dtcli.evaluate.regression import RegressionReport, regression_report
from dtcli.evaluate.roc import roc_area

__all__ = ["Averages", "ClassStats", "ClassificationReport", "RegressionReport", "report"]


@dataclass(frozen=True)
class ClassStats:
    """One class's row of Weka's 'Detailed Accuracy By Class'; None: undefined."""

    label: str
    seen: bool  # one of the model's classes (False: a label never seen in training)
    support: float  # rows of this actual class
    predicted: float  # rows predicted as this class
    tp_rate: float | None
    fp_rate: float | None
    precision: float | None
    recall: float | None
    f_measure: float | None
    roc_area: float | None


@dataclass(frozen=True)
class Averages:
    """Weighted (by support) or macro averages of the per-class statistics."""

    tp_rate: float | None
    fp_rate: float | None
    precision: float | None
    recall: float | None
    f_measure: float | None
    roc_area: float | None


@dataclass(frozen=True)
class ClassificationReport:
    """What Weka prints for a nominal class: summary, per-class details and the matrix."""

    labels: tuple[str, ...]  # matrix rows: the model's classes, then labels never seen in training
    classes: tuple[str, ...]  # matrix columns: the model's classes
    matrix: np.ndarray  # (labels, classes) weighted counts
    total: float  # rows with a known class (Weka's 'Total Number of Instances')
    correct: float
    incorrect: float
    unclassified: float
    ignored: float  # rows whose class is missing
    accuracy: float | None
    error_rate: float | None
    kappa: float | None
    mean_absolute_error: float | None
    root_mean_squared_error: float | None
    relative_absolute_error: float | None  # a fraction (Weka prints it times 100, in %)
    root_relative_squared_error: float | None  # likewise
    per_class: tuple[ClassStats, ...]
    weighted: Averages
    macro: Averages
    parts: int

    task = "classification"


def report(parts: list[Predictions]) -> ClassificationReport | RegressionReport:
    """The report of one test set or of several judged together (cross-validation folds)."""
    if not parts:
        raise ValueError("report: no predictions to judge")
    if parts[0].regression:
        return regression_report(parts)
    labels, classes = _union(parts)
    width = len(labels)
    matrix = np.zeros((width, width))
    sums = np.zeros(4)  # absolute, squared errors; the prior's absolute, squared errors
    counts = {"unclassified": 0.0, "ignored": 0.0, "scored": 0.0, "priors": True}
    pooled_scores, pooled_actual = [], []
    for part in parts:
        actual, proba, prior = _aligned(part, labels)
        counts["ignored"] += float((actual < 0).sum())
        pooled_scores.append(proba)  # rows of missing class too: Weka 3.6's ROC counts them as negatives
        pooled_actual.append(actual)
        known = actual >= 0
        actual, proba = actual[known], proba[known]
        classified = proba.max(axis=1, initial=0.0) > 0
        counts["unclassified"] += float((~classified).sum())
        predicted = _predicted(part, labels)[known]
        flat = actual[classified] * width + predicted[classified]
        matrix += np.bincount(flat, minlength=width * width).reshape(width, width)
        _add_errors(sums, proba[classified], actual[classified], prior, width)
        counts["scored"] += float(classified.sum())
        counts["priors"] = counts["priors"] and prior is not None
    scores = np.concatenate(pooled_scores) if pooled_scores else np.zeros((0, width))
    actual = np.concatenate(pooled_actual) if pooled_actual else np.zeros(0, dtype=np.int64)
    return _classification(labels, classes, matrix, counts, sums, scores, actual, len(parts))


def _union(parts: list[Predictions]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The labels of all parts (the first part's order, new ones appended) and the model's classes."""
    classes = list(parts[0].classes)
    for part in parts[1:]:
        classes.extend(c for c in part.classes if c not in classes)
    labels = list(classes)
    for part in parts:
        labels.extend(label for label in part.labels if label not in labels)
    return tuple(labels), tuple(classes)


def _aligned(part: Predictions, labels: tuple[str, ...]):
    """A part's actual codes, probabilities and prior (counts + 1 each, as a distribution;
    None when unknown) in the order of ``labels``."""
    index = {label: i for i, label in enumerate(labels)}
    code = np.array([index[label] for label in part.labels] + [-1], dtype=np.int64)
    actual = code[np.asarray(part.actual, dtype=np.int64)]  # -1 stays -1 (the appended entry)
    columns = np.array([index[c] for c in part.classes], dtype=np.int64)
    proba = np.zeros((len(actual), len(labels)))
    if part.proba is not None:
        proba[:, columns] = part.proba
    else:  # no probabilities: certainty in the predicted class
        proba[np.arange(len(actual)), columns[np.asarray(part.predicted, dtype=np.int64)]] = 1.0
    prior = None
    if part.prior is not None and len(part.prior) == len(part.classes):
        counts = np.ones(len(labels))
        counts[columns] += part.prior
        prior = counts / counts.sum()
    return actual, proba, prior


def _predicted(part: Predictions, labels: tuple[str, ...]) -> np.ndarray:
    index = {label: i for i, label in enumerate(labels)}
    columns = np.array([index[c] for c in part.classes], dtype=np.int64)
    return columns[np.asarray(part.predicted, dtype=np.int64)]


def _add_errors(sums: np.ndarray, proba: np.ndarray, actual: np.ndarray, prior, width: int) -> None:
    """Weka's updateNumericScores for each row: errors of the probabilities and of the prior."""
    truth = np.zeros_like(proba)
    truth[np.arange(len(actual)), actual] = 1.0
    diff = proba - truth
    sums[0] += float(np.abs(diff).sum(axis=1).sum()) / width
    sums[1] += float((diff**2).sum(axis=1).sum()) / width
    if prior is not None:
        base = prior[None, :] - truth
        sums[2] += float(np.abs(base).sum(axis=1).sum()) / width
        sums[3] += float((base**2).sum(axis=1).sum()) / width


def _ratio(a: float, b: float) -> float | None:
    return a / b if b else None


def _classification(labels, classes, matrix, counts, sums, scores, actual, n_parts) -> ClassificationReport:
    total = float(matrix.sum()) + counts["unclassified"]
    correct = float(np.trace(matrix))
    scored = counts["scored"]
    mae = _ratio(sums[0], scored)
    rmse = float(np.sqrt(sums[1] / scored)) if scored else None
    rae = rrse = None
    if counts["priors"] and total:
        prior_mae, prior_rmse = sums[2] / total, float(np.sqrt(sums[3] / total))
        rae = _ratio(mae, prior_mae) if mae is not None else None
        rrse = _ratio(rmse, prior_rmse) if rmse is not None else None
    per_class = tuple(
        _class_stats(matrix, i, labels[i], labels[i] in classes, scores, actual) for i in range(len(labels))
    )
    return ClassificationReport(
        labels=labels,
        classes=classes,
        matrix=matrix[:, : len(classes)].copy(),
        total=total,
        correct=correct,
        incorrect=total - correct - counts["unclassified"],
        unclassified=counts["unclassified"],
        ignored=counts["ignored"],
        accuracy=_ratio(correct, total),
        error_rate=_ratio(total - correct - counts["unclassified"], total),
        kappa=kappa(matrix),
        mean_absolute_error=mae,
        root_mean_squared_error=rmse,
        relative_absolute_error=rae,
        root_relative_squared_error=rrse,
        per_class=per_class,
        weighted=_weighted(per_class),
        macro=_macro(per_class),
        parts=n_parts,
    )


def kappa(matrix: np.ndarray) -> float | None:
    """Cohen's kappa of a square confusion matrix (Weka: 1 when chance agreement is 1)."""
    total = float(matrix.sum())
    if total == 0:
        return None
    chance = float((matrix.sum(axis=1) * matrix.sum(axis=0)).sum()) / (total * total)
    observed = float(np.trace(matrix)) / total
    return (observed - chance) / (1 - chance) if chance < 1 else 1.0


def _class_stats(matrix, i: int, label: str, seen: bool, scores, actual) -> ClassStats:
    support, predicted, hit = float(matrix[i].sum()), float(matrix[:, i].sum()), float(matrix[i, i])
    negatives = float(matrix.sum()) - support
    recall = _ratio(hit, support)
    precision = _ratio(hit, predicted)
    if recall is None and precision is None:
        f_measure = None
    else:
        p, r = precision or 0.0, recall or 0.0
        f_measure = 2 * p * r / (p + r) if p + r > 0 else 0.0
    roc = roc_area(scores[:, i], actual == i) if len(actual) else None
    return ClassStats(
        label, seen, support, predicted, recall, _ratio(predicted - hit, negatives), precision, recall, f_measure, roc
    )


FIELDS = ("tp_rate", "fp_rate", "precision", "recall", "f_measure", "roc_area")


def _weighted(per_class) -> Averages:
    """Weka's weighted averages: sum of value x support over the total support (undefined: 0;
    an undefined ROC area is left out of the sum but its support stays in the total)."""
    total = sum(c.support for c in per_class)
    if not total:
        return Averages(*(None for _ in FIELDS))
    return Averages(*(sum((getattr(c, f) or 0.0) * c.support for c in per_class) / total for f in FIELDS))


def _macro(per_class) -> Averages:
    """Plain means over the classes with actual or predicted rows (undefined: 0; ROC: defined only)."""
    present = [c for c in per_class if c.support or c.predicted]
    values = []
    for f in FIELDS:
        if f == "roc_area":
            defined = [c.roc_area for c in present if c.roc_area is not None]
            values.append(sum(defined) / len(defined) if defined else None)
        else:
            values.append(sum(getattr(c, f) or 0.0 for c in present) / len(present) if present else None)
    return Averages(*values)

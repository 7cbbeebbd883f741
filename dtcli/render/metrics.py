"""Accuracy, kappa and the confusion matrix as plain text (for stderr; the whole report: render/evaluation.py)."""

from __future__ import annotations

import numpy as np

from dtcli.evaluate.metrics import Evaluation
from dtcli.evaluate.report import kappa
from dtcli.render.printable import shown


def evaluation_text(evaluation: Evaluation) -> str:
    """``Accuracy: 13/14 = 0.929``, Cohen's kappa (as Weka prints it, 4 decimals) and the confusion
    matrix, rows actual, columns predicted ('dtree evaluate' gives the whole report)."""
    lines = []
    if evaluation.total == 0:
        return "Accuracy: no rows with a known class to compare with\n"
    lines.append(
        f"Accuracy: {evaluation.correct}/{evaluation.total} = {evaluation.accuracy:.3f}"
        f" ({evaluation.total - evaluation.correct} error{'' if evaluation.total - evaluation.correct == 1 else 's'})"
    )
    square = np.zeros((len(evaluation.labels), len(evaluation.labels)))
    square[:, : len(evaluation.classes)] = evaluation.matrix
    lines.append(f"Kappa statistic: {_kappa_text(kappa(square))}")
    if evaluation.unlabelled:
        lines.append(f"({evaluation.unlabelled} row(s) without a class value not counted)")
    lines.append("Confusion matrix (rows: actual, columns: predicted):")
    classes = [shown(c) for c in evaluation.classes]
    width = max(len(str(x)) for x in [*classes, *evaluation.matrix.ravel().tolist()])
    head = max(len(shown(label)) for label in evaluation.labels)
    lines.append(" " * (head + 3) + " ".join(c.rjust(width) for c in classes))
    for label, row in zip(evaluation.labels, evaluation.matrix):
        cells = " ".join(str(int(x)).rjust(width) for x in row)
        note = "   (never seen in training)" if label not in evaluation.classes else ""
        lines.append(f"  {shown(label).ljust(head)} {cells}{note}")
    return "\n".join(lines) + "\n"


def _kappa_text(value: float | None) -> str:
    from dtcli.render.evaluation import weka_number

    return weka_number(value, 12, 4).strip()


def regression_text(evaluation) -> str:
    """``RMSE 12.3, MAE 8.1, R^2 0.912 (209 rows)``."""
    if evaluation.n == 0:
        return "Errors: no rows with a known target value to compare with\n"
    return f"RMSE {evaluation.rmse:.6g}, MAE {evaluation.mae:.6g}, R^2 {evaluation.r2:.4f} ({evaluation.n} rows)\n"

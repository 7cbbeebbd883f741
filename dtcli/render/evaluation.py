"""An evaluation report as text (Weka's blocks), a 'dtree-evaluation' JSON document or CSV: ``evaluation_output``.

The text follows Weka 3.6's layout ('=== Summary ===', '=== Detailed Accuracy By
Class ===', '=== Confusion Matrix ===') so the two can be compared line by
line; numbers are printed as Weka prints them (four decimals in the summary,
three in the class table, trailing zeros dropped, decimal points aligned), and
an undefined value as '?'. The JSON document and the CSV table carry full
precision and ``null`` (an empty cell) for undefined values.
"""

from __future__ import annotations

import json
import math

from dtcli.evaluate.predictions import Predictions
from dtcli.evaluate.report import ClassificationReport, RegressionReport, report
from dtcli.render.evaluation_data import csv_table, json_document
from dtcli.render.printable import shown

FORMATS = ("text", "json", "csv")

TITLES = {
    "test-set": "=== Evaluation on test set ===",
    "cross-validation": "=== Stratified cross-validation ===",
    "split": "=== Evaluation on test split ===",
    "training": "=== Evaluation on training set ===",
}


def evaluation_output(parts: list[Predictions], fmt: str, about: dict) -> str:
    """The report of ``parts`` (one test set, or the folds of a cross-validation) in ``fmt``.

    ``about`` says what was evaluated; known keys: ``model``, ``data``, ``method``
    ('test-set', 'cross-validation', 'split', 'training'), ``folds``, ``seed``,
    ``fold_accuracy`` and ``tree_size`` (dicts with ``mean`` and ``sd``, and the
    values per fold as ``values``). It is copied into the JSON document as
    ``"about"`` and printed above the text report; other keys print as they are.
    """
    result = report(parts)
    if fmt == "json":
        return json.dumps(json_document(result, about), indent=2, ensure_ascii=False) + "\n"
    if fmt == "csv":
        return csv_table(result)
    if fmt != "text":
        raise ValueError(f"evaluation_output: unknown format {fmt!r}")
    return header_text(about, bool(parts) and parts[0].regression) + report_text(result)


def header_text(about: dict, regression: bool = False) -> str:
    """The lines above the report: the title of the method (a regression's folds are not stratified:
    '=== Cross-validation ===', as Weka titles them), then what was evaluated; a figure of one
    tree (a split, a test file) is that tree's, not a mean."""
    title = TITLES.get(about.get("method"), "=== Evaluation ===")
    if regression and about.get("method") == "cross-validation":
        title = "=== Cross-validation ==="
    lines = [title, ""]
    for key, value in about.items():
        if key == "method" or value is None:
            continue
        name = key.replace("_", " ").capitalize()
        if isinstance(value, dict) and len(value.get("values") or ()) == 1:
            lines.append(f"{name + ':':<20}{_g(value['values'][0])}")
        elif isinstance(value, dict) and "mean" in value:
            sd = value.get("sd")
            spread = f" (sd {_g(sd)})" if sd is not None else ""
            lines.append(f"{name + ':':<20}mean {_g(value['mean'])}{spread}")
        elif isinstance(value, dict):
            lines.append(f"{name + ':':<20}" + ", ".join(f"{k} {_g(v)}" for k, v in value.items()))
        else:
            lines.append(f"{name + ':':<20}{shown(str(value))}")
    return "\n".join(lines) + "\n\n"


def _g(value) -> str:
    if isinstance(value, float):
        return f"{value:.4g}" if math.isfinite(value) else "?"
    return shown(str(value))


def report_text(result: ClassificationReport | RegressionReport) -> str:
    """Weka's summary (and, for classes, the per-class table and the confusion matrix)."""
    if isinstance(result, RegressionReport):
        return summary_text(result)
    return summary_text(result) + "\n" + details_text(result) + "\n" + matrix_text(result)


def weka_number(value: float | None, width: int, decimals: int) -> str:
    """``value`` as Weka's Utils.doubleToString(value, width, decimals) shows it: rounded half up,
    trailing zeros dropped, the decimal point at a fixed column; '?' when undefined."""
    if value is None or not math.isfinite(value):
        return "?".rjust(width - decimals - 1).ljust(width) if value is None else str(value)
    scaled = abs(value) * 10**decimals
    digits = str(int(math.floor(scaled + 0.5)))
    if digits != "0" and value < 0:
        sign = "-"
    else:
        sign = ""
    digits = digits.rjust(decimals + 1, "0")
    whole, fraction = digits[: len(digits) - decimals] if decimals else digits, digits[len(digits) - decimals :]
    fraction = fraction.rstrip("0") if decimals else ""
    head = sign + whole
    if decimals == 0:
        return head.rjust(width)
    text = head.rjust(width - decimals - 1) + ("." + fraction if fraction else "")
    return text.ljust(width)


SUMMARY = 35  # Weka pads each summary label to this width


def summary_text(result) -> str:
    """'=== Summary ===' with Weka's labels and number layout."""
    lines = ["=== Summary ===", ""]

    def row(label: str, value, percent: float | None = None, with_percent: bool = False) -> None:
        text = label.ljust(SUMMARY) + weka_number(value, 12, 4)
        if with_percent:
            text += "     " + weka_number(percent, 12, 4) + " %"
        lines.append(text.rstrip())

    if isinstance(result, RegressionReport):
        row("Correlation coefficient", result.correlation)
    elif result.total:
        row("Correctly Classified Instances", result.correct, _pct(result.accuracy), True)
        row("Incorrectly Classified Instances", result.incorrect, _pct(result.error_rate), True)
        row("Kappa statistic", result.kappa)
    if result.total:
        row("Mean absolute error", result.mean_absolute_error)
        row("Root mean squared error", result.root_mean_squared_error)
        if result.relative_absolute_error is not None or result.root_relative_squared_error is not None:
            lines.append(label_pct("Relative absolute error", result.relative_absolute_error))
            lines.append(label_pct("Root relative squared error", result.root_relative_squared_error))
    if isinstance(result, RegressionReport) and result.r2 is not None:
        row("Coefficient of determination R^2", result.r2)
    if result.unclassified:
        row("UnClassified Instances", result.unclassified, _pct(result.unclassified / result.total), True)
    row("Total Number of Instances", result.total)
    if result.ignored:  # Weka's label for it is followed by twelve spaces, not padded to the column
        lines.append(("Ignored Class Unknown Instances" + " " * 12 + weka_number(result.ignored, 12, 4)).rstrip())
    return "\n".join(lines) + "\n"


def _pct(fraction: float | None) -> float | None:
    return None if fraction is None else 100 * fraction


def label_pct(label: str, fraction: float | None) -> str:
    """A summary line of a fraction shown in percent, as Weka shows the relative errors."""
    return label.ljust(SUMMARY) + weka_number(_pct(fraction), 12, 4) + " %"


COLUMNS = ("tp_rate", "fp_rate", "precision", "recall", "f_measure", "roc_area")
GAPS = ("   ", "    ", "   ", "   ", "    ", "    ")  # Weka's spacing after each column


def details_text(result: ClassificationReport) -> str:
    """'=== Detailed Accuracy By Class ===': Weka's columns, then the class's support and name."""
    lines = [
        "=== Detailed Accuracy By Class ===",
        "",
        "               TP Rate   FP Rate   Precision   Recall  F-Measure   ROC Area  Support  Class",
    ]
    for stats in result.per_class:
        note = "  (never seen in training)" if not stats.seen else ""
        lines.append(" " * 15 + _cells(stats) + f"{_count(stats.support):>7}  {shown(stats.label)}{note}")
    lines.append("Weighted Avg.  " + _cells(result.weighted) + f"{_count(sum(s.support for s in result.per_class)):>7}")
    lines.append("Macro Avg.     " + _cells(result.macro).rstrip())
    return "\n".join(lines) + "\n"


def _cells(stats) -> str:
    return "".join(weka_number(getattr(stats, name), 7, 3) + gap for name, gap in zip(COLUMNS, GAPS))


def _count(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"


LETTERS = "abcdefghijklmnopqrstuvwxyz"


def short_id(number: int, width: int) -> str:
    """Weka's confusion-matrix names: a, b, ..., z, aa, ab, ... right-aligned in ``width``."""
    name = ""
    while True:
        name = LETTERS[number % 26] + name
        number = number // 26 - 1
        if number < 0:
            break
    return name.rjust(width)


def matrix_text(result: ClassificationReport) -> str:
    """'=== Confusion Matrix ===' as Weka draws it (rows actual, columns predicted, letters for classes)."""
    matrix = result.matrix
    fractional = bool(((matrix - matrix.round()) != 0).any())
    biggest = float(matrix.max()) if matrix.size else 0.0
    digits = int(math.log10(biggest)) + (3 if fractional else 0) if biggest > 0 else 0
    width = 1 + max(digits, int(math.log(max(len(result.labels), 1)) / math.log(26)))
    lines = ["=== Confusion Matrix ===", ""]
    head = "".join(" " + short_id(j, width - 3 if fractional else width) + ("   " if fractional else "")
                   for j in range(len(result.classes)))  # fmt: skip
    lines.append(head + "   <-- classified as")
    for i, label in enumerate(result.labels):
        cells = "".join(" " + weka_number(float(x), width, 2 if fractional else 0) for x in matrix[i])
        note = "  (never seen in training)" if label not in result.classes else ""
        lines.append(f"{cells} | {short_id(i, width)} = {shown(label)}{note}")
    return "\n".join(lines) + "\n"

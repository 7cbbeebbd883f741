"""An evaluation report as data: the 'dtree-evaluation' JSON document and the per-class CSV table.

JSON (``schema_version`` 1; fractions, not percentages; ``null`` where a value
is undefined; counts as integers when whole)::

    {"format": "dtree-evaluation", "schema_version": 1, "about": {...},
     "task": "classification",
     "summary": {"total", "correct", "incorrect", "unclassified", "ignored", "accuracy",
                 "error_rate", "kappa", "mean_absolute_error", "root_mean_squared_error",
                 "relative_absolute_error", "root_relative_squared_error", "parts"},
     "classes": [{"label", "seen", "support", "predicted", "tp_rate", "fp_rate",
                  "precision", "recall", "f_measure", "roc_area"}, ...],
     "weighted_average": {"tp_rate", ..., "roc_area"}, "macro_average": {...},
     "confusion_matrix": {"actual": [labels], "predicted": [classes], "counts": [[...], ...]}}

Regression: ``"task": "regression"`` and ``summary`` holds ``total``, ``unclassified``,
``ignored``, ``correlation``, ``mean_absolute_error``, ``root_mean_squared_error``,
``relative_absolute_error``, ``root_relative_squared_error``, ``r2``, ``parts``.

CSV: a header ``class,support,predicted,tp_rate,fp_rate,precision,recall,f_measure,roc_area``,
one row per class (matrix order), then rows ``weighted avg`` and ``macro avg``; for a
regression, the header ``metric,value`` and one row per summary value.
"""

from __future__ import annotations

import csv
import io
import json
import math

from dtcli.evaluate.report import FIELDS, ClassificationReport, RegressionReport

FORMAT = "dtree-evaluation"
SCHEMA_VERSION = 1
SUMMARY_KEYS = (
    "total",
    "correct",
    "incorrect",
    "unclassified",
    "ignored",
    "accuracy",
    "error_rate",
    "kappa",
    "mean_absolute_error",
    "root_mean_squared_error",
    "relative_absolute_error",
    "root_relative_squared_error",
    "parts",
)
REGRESSION_KEYS = (
    "total",
    "unclassified",
    "ignored",
    "correlation",
    "mean_absolute_error",
    "root_mean_squared_error",
    "relative_absolute_error",
    "root_relative_squared_error",
    "r2",
    "parts",
)
COUNTS = {"total", "correct", "incorrect", "unclassified", "ignored", "support", "predicted", "parts"}


def number(value, count: bool = False):
    """A JSON number: None for undefined (or not finite), an int for a whole count."""
    if value is None:
        return None
    value = float(value)
    if not math.isfinite(value):
        return None
    return int(value) if count and value.is_integer() else value


def plain(about: dict) -> dict:
    """``about`` made JSON-safe: numpy numbers as numbers, tuples as lists, NaN and infinities
    as null, anything else as its text (through the json module, which walks the nesting)."""
    text = json.dumps(about, default=_scalar, ensure_ascii=False)
    return json.loads(text, parse_constant=lambda name: None)


def _scalar(value):
    return value.item() if hasattr(value, "item") else str(value)


def json_document(result: ClassificationReport | RegressionReport, about: dict) -> dict:
    """The 'dtree-evaluation' document (keys above)."""
    doc = {"format": FORMAT, "schema_version": SCHEMA_VERSION, "about": plain(about), "task": result.task}
    if isinstance(result, RegressionReport):
        doc["summary"] = {k: number(getattr(result, k), k in COUNTS) for k in REGRESSION_KEYS}
        return doc
    doc["summary"] = {k: number(getattr(result, k), k in COUNTS) for k in SUMMARY_KEYS}
    doc["classes"] = [_class_record(stats) for stats in result.per_class]
    doc["weighted_average"] = {f: number(getattr(result.weighted, f)) for f in FIELDS}
    doc["macro_average"] = {f: number(getattr(result.macro, f)) for f in FIELDS}
    doc["confusion_matrix"] = {
        "actual": list(result.labels),
        "predicted": list(result.classes),
        "counts": [[number(x, True) for x in row] for row in result.matrix.tolist()],
    }
    return doc


def _class_record(stats) -> dict:
    record = {"label": stats.label, "seen": stats.seen}
    record["support"] = number(stats.support, True)
    record["predicted"] = number(stats.predicted, True)
    record.update({f: number(getattr(stats, f)) for f in FIELDS})
    return record


def _cell(value) -> str:
    return "" if value is None else repr(value)


def csv_table(result: ClassificationReport | RegressionReport) -> str:
    """One row per class plus the averages (or one row per regression metric); empty cell: undefined."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    if isinstance(result, RegressionReport):
        writer.writerow(["metric", "value"])
        for key in REGRESSION_KEYS:
            writer.writerow([key, _cell(number(getattr(result, key), key in COUNTS))])
        return buffer.getvalue()
    writer.writerow(["class", "support", "predicted", *FIELDS])
    for stats in result.per_class:
        counts = [_cell(number(stats.support, True)), _cell(number(stats.predicted, True))]
        writer.writerow([stats.label, *counts, *(_cell(number(getattr(stats, f))) for f in FIELDS)])
    support = _cell(number(sum(s.support for s in result.per_class), True))
    predicted = _cell(number(sum(s.predicted for s in result.per_class), True))
    for name, averages in (("weighted avg", result.weighted), ("macro avg", result.macro)):
        writer.writerow([name, support, predicted, *(_cell(number(getattr(averages, f))) for f in FIELDS)])
    return buffer.getvalue()

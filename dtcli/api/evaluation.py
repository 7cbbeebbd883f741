"""Evaluations as ``dtree evaluate`` reports them: ``Model.evaluate`` (MODEL DATA), ``dtcli.cross_validate`` (--cv)."""

from __future__ import annotations

import json
import os

from dtcli.errors import ParameterError


def _figure(key: str, doc: str) -> property:
    return property(lambda self: self.document["summary"].get(key), doc=doc)


class Evaluation:
    """An evaluation, as ``dtree evaluate`` reports it: ``model.evaluate(DATA)`` (``dtree evaluate MODEL DATA``)
    and ``dtcli.cross_validate`` (``dtree evaluate DATA --cv K``).

    ``to_json()`` is the command's ``-f json`` document (``document``, a dict; dtree-formats(5)),
    ``to_csv()`` its ``-f csv``, ``str()`` (``text``) its text report; the figures are attributes
    (None where undefined): ``accuracy``, ``error_rate``, ``kappa``, ``correct``, ``incorrect``,
    ``total``, ``unclassified``, ``ignored`` (rows without a class), ``mean_absolute_error``,
    ``root_mean_squared_error``, ``relative_absolute_error``, ``root_relative_squared_error``;
    ``matrix`` (numpy; rows the actual ``labels``, columns the predicted ``classes``); for a
    regression ``rmse``, ``mae``, ``r2``, ``correlation``, ``n``. ``to_frame()`` is a row per class
    (a regression: one row of the summary), ``matrix_frame()`` the confusion matrix; in Jupyter,
    HTML tables.

    >>> import dtcli
    >>> report = dtcli.cross_validate("sample_data/weather.csv", ignore="Day", folds=2)
    >>> report
    <dtcli.Evaluation cross-validation of id3 on sample_data/weather.csv: accuracy 0.6429>
    >>> print(report.to_frame()[["label", "support", "precision"]].to_string(index=False))
    label  support  precision
       No        5   0.500000
      Yes        9   0.666667
    >>> report.correct, report.total, round(report.kappa, 4)
    (9, 14, 0.1026)
    >>> print(report.matrix_frame())
         No  Yes
    No    1    4
    Yes   1    8
    """

    def __init__(self, parts, about: dict):
        from dtcli.evaluate.report import report
        from dtcli.render.evaluation import header_text, report_text
        from dtcli.render.evaluation_data import json_document

        self.result = report(parts)
        self.document = json.loads(json.dumps(json_document(self.result, about)))  # (plain JSON values)
        self.text = header_text(about, self.result.task == "regression") + report_text(self.result)

    task = property(lambda self: self.document["task"], doc="``classification`` or ``regression``.")
    error_rate = _figure("error_rate", "The share of rows classified wrongly.")
    kappa = _figure("kappa", "Cohen's kappa of the confusion matrix.")
    correct = _figure("correct", "Rows classified correctly.")
    incorrect = _figure("incorrect", "Rows classified wrongly.")
    total = _figure("total", "Rows with a known class (or value).")
    unclassified = _figure("unclassified", "Rows the model gives no class (or value).")
    ignored = _figure("ignored", "Rows whose class (or value) is missing, left out.")
    unlabelled = ignored
    mean_absolute_error = _figure("mean_absolute_error", "Weka's mean absolute error (of the probabilities).")
    root_mean_squared_error = _figure("root_mean_squared_error", "Weka's root mean squared error.")
    relative_absolute_error = _figure("relative_absolute_error", "Against the training prior, a fraction.")
    root_relative_squared_error = _figure("root_relative_squared_error", "Against the training prior, a fraction.")
    correlation = _figure("correlation", "Regression: the correlation of predictions and values.")
    r2 = _figure("r2", "Regression: 1 - SSE/SST.")
    rmse = _figure("root_mean_squared_error", "Regression: the root mean squared error.")
    mae = _figure("mean_absolute_error", "Regression: the mean absolute error.")
    n = total

    @property
    def accuracy(self) -> float | None:
        """The share of rows classified correctly (None for regression)."""
        return self.document.get("summary", {}).get("accuracy") if self.document["task"] != "regression" else None

    @property
    def labels(self) -> tuple:
        """The matrix's rows: the model's classes, then actual labels it never saw; () for regression."""
        return tuple(self.document.get("confusion_matrix", {}).get("actual", ()))

    @property
    def classes(self) -> tuple:
        """The matrix's columns: the model's classes; () for regression."""
        return tuple(self.document.get("confusion_matrix", {}).get("predicted", ()))

    @property
    def matrix(self):
        """The confusion matrix (numpy; whole numbers as integers), or None for regression."""
        import numpy as np

        if self.task == "regression":
            return None
        counts = np.asarray(self.result.matrix)
        return counts.astype(np.int64) if np.all(counts == np.round(counts)) else counts

    def to_json(self) -> str:
        """The document as ``dtree evaluate -f json`` writes it."""
        return json.dumps(self.document, indent=2, ensure_ascii=False) + "\n"

    def to_csv(self) -> str:
        """The table ``dtree evaluate -f csv`` writes: a row per class and the averages (regression: per figure)."""
        from dtcli.render.evaluation_data import csv_table

        return csv_table(self.result)

    def to_frame(self):
        """A pandas DataFrame: one row per class with its figures (classification), else one row of the summary."""
        from dtcli.io.frames import records_frame

        rows = self.document.get("classes") or [self.document["summary"]]
        return records_frame(rows, list(rows[0]))

    def matrix_frame(self):
        """The confusion matrix as a pandas DataFrame: index the actual labels, columns the predicted classes."""
        from dtcli.errors import ParameterError
        from dtcli.io.frames import records_frame

        if self.task == "regression":
            raise ParameterError("a regression has no confusion matrix: see to_frame()")
        found = self.document["confusion_matrix"]
        rows = [dict(zip(found["predicted"], row)) for row in found["counts"]]
        return records_frame(rows, list(found["predicted"])).set_axis(found["actual"], axis=0)

    def __str__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        from dtcli.render.html import evaluation_html

        return evaluation_html(self.document)

    def __repr__(self) -> str:
        about = self.document["about"]
        figure = f"accuracy {self.accuracy:.4f}" if self.accuracy is not None else "regression"
        what = about.get("algorithm") or about.get("model") or "a model"
        return f"<dtcli.Evaluation {about.get('method')} of {what} on {about.get('data')}: {figure}>"


Report = Evaluation  # (the name of the first version)


def evaluate_model(model, data, names=None, options=None) -> Evaluation:
    """``model`` judged on ``data`` with its target column, as ``dtree evaluate MODEL DATA`` judges it
    (``Model.evaluate``)."""
    from dtcli.api.data import table_for
    from dtcli.api.options import checked
    from dtcli.evaluate.predictions import of_model

    options = checked(options or {}, ("format_in", "max_bytes", "max_rows", "sep", "decimal"))
    schema = model.tree.schema
    if isinstance(data, (str, os.PathLike)):
        table, actual, labels, source = _read_judged(schema, os.fspath(data), options)
    else:
        from dtcli.errors import DataError

        table, cells = table_for(schema, data, names, options)
        if cells is None:
            raise DataError(f"{table.source}: no column {schema.target.name!r} (the model's target) to judge against")
        actual, labels = _actual(schema, cells, table.source)
        source = table.source
    about = {"model": model.path, "data": source, "method": "test-set"}
    if model.path is None:
        del about["model"]
    return Evaluation([of_model(model.tree, table, actual, labels)], about)


def _read_judged(schema, path: str, options: dict):
    """(table, actual, labels, source) of a file read as ``dtree evaluate MODEL DATA`` reads it."""
    from dtcli.api.data import limits, warn_all
    from dtcli.errors import DataError
    from dtcli.io.encode import encode_for_schema, text_columns
    from dtcli.io.read import read_data
    from dtcli.model.colnames import near_clause

    raw = read_data(path, options.get("format_in"), text_columns(schema), limits(options))
    encoded = encode_for_schema(raw, schema)
    if not encoded.has_target:
        raise DataError(
            f"{raw.source}: has no column {schema.target.name!r} (the model's target) to judge against"
            f"{near_clause(schema.target.name, list(raw.frame.columns))}; "
            "add the true classes, or use predict() to predict them"
        )
    warn_all([f"{raw.source}: column {name!r}: {count} value(s) never seen in training, treated as missing"
              for name, count in encoded.unseen.items()])  # fmt: skip
    return encoded.table, encoded.actual, encoded.labels, raw.source


def _actual(schema, cells, source: str):
    """(actual, labels) of the user's target cells: numbers, or codes into the model's classes followed by
    labels it never saw (in order of first appearance, as ``dtree evaluate`` orders a file's)."""
    import numpy as np

    from dtcli.api.data import encode_for, nominal_codes

    if schema.is_regression:
        return encode_for(schema.target, cells, source), ()
    codes, found, _ = nominal_codes(cells)
    labels = schema.classes + tuple(dict.fromkeys(t for t in found if t not in schema.classes))
    lookup = np.array([labels.index(t) for t in found] + [-1], dtype=np.int64)
    return lookup[codes], labels


def cross_validate(data, target=None, algorithm="id3", folds=10, names=None, **options) -> Report:
    """Judge how ``dtcli.fit`` (``dtree train``) learns from ``data`` with these options by stratified
    ``folds``-fold cross-validation, as ``dtree evaluate DATA --cv FOLDS`` does (folds drawn with ``seed``;
    the folds' predictions pooled into one report, as Weka does).

    ``data``, ``target``, ``algorithm`` and ``options`` as for ``dtcli.fit``. Returns an ``Evaluation`` whose
    ``to_json()`` is the command's ``-f json`` document and ``str()`` its text. Raises ParameterError for too
    many folds or a bad option, DataError for a table that cannot be learned.

    >>> import dtcli
    >>> report = dtcli.cross_validate("sample_data/iris.csv", algorithm="c45", folds=5)
    >>> round(report.accuracy, 4)
    0.9333
    """
    from dtcli.api.data import training_table, warn_all
    from dtcli.api.options import algorithm_name, checked, learner
    from dtcli.pipeline.crossval import Scheme, judge

    if isinstance(folds, bool) or not isinstance(folds, int):
        raise ParameterError(f"--cv must be a whole number of folds, got {folds!r}")
    options = checked({**options, "target": target})
    name = algorithm_name(algorithm)
    table, _ = training_table(data, options, names)
    source = os.fspath(data) if isinstance(data, (str, os.PathLike)) else table.source
    scheme = Scheme(folds, None, None, 1)  # the folds one after another, in this process; no progress bar
    parts, about, messages = judge(scheme, learner(name, options, table), table, source, name, quiet=True)
    warn_all(messages)
    return Evaluation(parts, about)

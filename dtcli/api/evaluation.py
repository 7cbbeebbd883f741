"""``dtcli.cross_validate``: how ``dtree train`` learns from a table, judged as ``dtree evaluate --cv`` judges it."""

from __future__ import annotations

import json
import os

from dtcli.errors import ParameterError


class Report:
    """An evaluation: the ``dtree-evaluation`` document (``document``, dtree-formats(5)), its ``text`` as
    ``dtree evaluate`` prints it, ``to_json()``, ``accuracy`` (classification) and ``to_frame()`` (a row per
    class); in Jupyter an HTML table.

    >>> import dtcli
    >>> report = dtcli.cross_validate("sample_data/weather.csv", ignore="Day", folds=2)
    >>> report
    <dtcli.Report cross-validation of id3 on sample_data/weather.csv: accuracy 0.6429>
    >>> print(report.to_frame()[["label", "support", "precision"]].to_string(index=False))
    label  support  precision
       No        5   0.500000
      Yes        9   0.666667
    """

    def __init__(self, document: dict, text: str):
        self.document = document
        self.text = text

    @property
    def accuracy(self) -> float | None:
        """The share of rows classified correctly (None for regression)."""
        return self.document.get("summary", {}).get("accuracy") if self.document["task"] != "regression" else None

    def to_json(self) -> str:
        """The document as ``dtree evaluate -f json`` writes it."""
        return json.dumps(self.document, indent=2, ensure_ascii=False) + "\n"

    def to_frame(self):
        """A pandas DataFrame: one row per class with its figures (classification), else one row of the summary."""
        from dtcli.io.frames import records_frame

        rows = self.document.get("classes") or [self.document["summary"]]
        return records_frame(rows, list(rows[0]))

    def __str__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        from dtcli.render.html import evaluation_html

        return evaluation_html(self.document)

    def __repr__(self) -> str:
        about = self.document["about"]
        figure = f"accuracy {self.accuracy:.4f}" if self.accuracy is not None else "regression"
        return f"<dtcli.Report {about.get('method')} of {about.get('algorithm')} on {about.get('data')}: {figure}>"


def cross_validate(data, target=None, algorithm="id3", folds=10, names=None, **options) -> Report:
    """Judge how ``dtcli.fit`` (``dtree train``) learns from ``data`` with these options by stratified
    ``folds``-fold cross-validation, as ``dtree evaluate DATA --cv FOLDS`` does (folds drawn with ``seed``;
    the folds' predictions pooled into one report, as Weka does).

    ``data``, ``target``, ``algorithm`` and ``options`` as for ``dtcli.fit``. Returns a ``Report`` whose
    ``to_json()`` is the command's ``-f json`` document. Raises ParameterError for too many folds or a bad
    option, DataError for a table that cannot be learned.

    >>> import dtcli
    >>> report = dtcli.cross_validate("sample_data/iris.csv", algorithm="c45", folds=5)
    >>> round(report.accuracy, 4)
    0.9333
    """
    from dtcli.api.data import training_table, warn_all
    from dtcli.api.options import algorithm_name, checked, learner
    from dtcli.pipeline.crossval import Scheme, judge
    from dtcli.render.evaluation import evaluation_output

    if isinstance(folds, bool) or not isinstance(folds, int):
        raise ParameterError(f"--cv must be a whole number of folds, got {folds!r}")
    options = checked({**options, "target": target})
    name = algorithm_name(algorithm)
    table, _ = training_table(data, options, names)
    source = os.fspath(data) if isinstance(data, (str, os.PathLike)) else table.source
    scheme = Scheme(folds, None, None, 1)  # the folds one after another, in this process; no progress bar
    parts, about, messages = judge(scheme, learner(name, options, table), table, source, name, quiet=True)
    warn_all(messages)
    document = json.loads(evaluation_output(parts, "json", about))
    return Report(document, evaluation_output(parts, "text", about))

"""Predicting a loaded table: its predictions, the CSV of its rows with the new columns, the report.

Shared by the local command (``cli/predict``) and the Dask workers (``predict_dask``), so a part
written on a worker holds the bytes the local command writes for those rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain

import numpy as np

from dtcli.render.predicted import added_columns, plain, row_tails


@dataclass
class Predicted:
    """DATA as read (``raw``) and encoded for the model, the warnings said, and its predictions:
    ``predicted`` (class codes, or the numbers of a regression tree), ``probabilities``, and ``why``
    (``apply/paths.row_paths``: each row's paths) when they were asked for."""

    raw: object
    encoded: object
    warnings: list[str]
    predicted: np.ndarray
    probabilities: np.ndarray
    why: object = None


def predict_data(tree, data: str, format_in, limits, paths: bool, quiet: bool) -> Predicted:
    """Read DATA (``io/read.read_data``), encode it for ``tree`` (a tree or a rule set), warn (through
    render.console) of an empty table and of values never seen in training, and predict every row;
    ``paths``: each row's paths as well."""
    from dtcli.io.encode import encode_for_schema, text_columns
    from dtcli.io.read import read_data
    from dtcli.render.console import warn

    raw = read_data(data, format_in, text_columns(tree.schema), limits)
    encoded = encode_for_schema(raw, tree.schema)
    warnings = [f"{raw.source}: no data rows to predict"] if encoded.table.n_rows == 0 else []
    warnings += unseen_warnings(raw.source, encoded.unseen)
    for message in warnings:
        warn(message)
    why = None
    if paths:
        from dtcli.explain.why import row_paths

        why = row_paths(tree, encoded.table)
        codes, probabilities = why.codes, why.proba
    else:
        codes, probabilities = predict_table(tree, encoded.table, quiet)
    predicted = probabilities[:, 0] if tree.schema.is_regression else codes
    return Predicted(raw, encoded, warnings, predicted, probabilities, why)


def streamable(data: str, output, fmt: str, explain: bool, format_in) -> bool:
    """Whether ``predict_stream`` may predict this run (read DATA ahead while the model loads): the
    predictions go to a file as CSV and DATA may be a plain CSV file. (Here, so that a run that
    cannot stream never loads that module.)"""
    if not output or output == "-" or fmt != "csv" or explain or (format_in or "csv") != "csv":
        return False
    if data == "-" or data.lower().removesuffix(".gz").endswith(".arff"):
        return False
    from dtcli.io.read import is_parquet

    return not is_parquet(data)


def unseen_warnings(source: str, unseen: dict[str, int]) -> list[str]:
    """The warning (without ``Warning:``) for each column with values never seen in training."""
    return [
        f"{source}: column {name!r}: {count} value(s) never seen in training, treated as missing"
        for name, count in unseen.items()
    ]


def report(tree, encoded, predicted, probabilities, about: dict | None) -> tuple[str, str | None]:
    """Accuracy, kappa and confusion matrix (or the regression errors) as text for standard error,
    and with ``about`` (model, data, method) the whole report as 'dtree evaluate -f json' writes it."""
    from dtcli.evaluate.metrics import evaluate, evaluate_regression
    from dtcli.render.metrics import evaluation_text, regression_text

    if tree.schema.is_regression:
        text = regression_text(evaluate_regression(encoded.actual, predicted))
    else:
        text = evaluation_text(evaluate(encoded.actual, predicted, encoded.labels, tree.classes))
    if about is None:
        return text, None
    from dtcli.evaluate.predictions import Predictions, training_prior
    from dtcli.render.evaluation import evaluation_output

    if tree.schema.is_regression:
        part = Predictions(encoded.actual, predicted, None, (), (), training_prior(tree))
    else:
        part = Predictions(encoded.actual, predicted, probabilities, encoded.labels, tree.classes, training_prior(tree))
    return text, evaluation_output([part], "json", about)


def predict_table(tree, table, quiet: bool):
    """(class codes, probabilities) of a tree or a rule set, in chunks of rows, with a progress bar
    on a terminal (render.progress) unless ``quiet``."""
    from dtcli.model.rules import RuleSet
    from dtcli.render.progress import announce_compiling, steps

    with steps("predicting", table.n_rows, quiet=quiet) as work:
        if isinstance(tree, RuleSet):
            from dtcli.induction.rules import predict_rules

            return predict_rules(tree, table, done=work.advance)
        from dtcli.induction.predict.apply import predict_proba

        announce = lambda seconds: announce_compiling(seconds, work, quiet)  # noqa: E731
        probabilities = predict_proba(tree, table, done=work.advance, compiling=announce)
    return probabilities.argmax(axis=1), probabilities


def _columns(tree, predicted, probabilities, proba: bool, why, rows: range, decimal: str = ".") -> dict:
    """The CSV columns added to DATA's for ``rows``: prediction, proba_<class> with --proba, path with --explain
    (numbers with the ``decimal`` mark)."""
    predicted, probabilities = predicted[rows.start : rows.stop], probabilities[rows.start : rows.stop]
    columns = added_columns(tree, predicted, probabilities, proba, decimal)
    if why is not None:
        from dtcli.render.why import paths_cell

        columns["path"] = [paths_cell(why.paths(i), tree.classes) for i in rows]
    return columns


ECHO_ROWS = 50_000  # rows echoed, with their new cells, a piece at a time


def replaced_columns(added, columns) -> list[str]:
    """The columns of DATA that the ``added`` ones (prediction, proba_<class>, path) replace: those
    of the same name (``colnames.find``), as DATA writes them."""
    from dtcli.model.colnames import find

    columns = list(columns)
    found = (find(name, columns) for name in added)
    return [name for name in found if name is not None]


def warn_replaced(source: str, replaced: list[str]) -> None:
    """One warning a column: DATA's ``replaced`` columns are written anew (the last ones)."""
    from dtcli.render.console import warn

    for name in replaced:
        warn(f"{source}: the existing {name!r} column is replaced")


def csv_output(raw, tree, predicted, probabilities, proba: bool, why, warned: bool = False):
    """The input rows, as written when possible, with the new columns appended, as CSV: an iterator
    of pieces of ``ECHO_ROWS`` rows when the rows are echoed (the whole text never in memory), else a str.
    A column of DATA named as a new one is replaced, with a warning (unless ``warned``: the caller has)."""
    names = list(_columns(tree, predicted, probabilities, proba, why, range(0)))
    replaced = replaced_columns(names, raw.frame.columns)
    if not replaced and all(plain(name, raw.sep) for name in names) and _plain_labels(tree, predicted, raw.sep):
        echo = raw.echo_blocks(ECHO_ROWS)  # (numbers as formatted are plain; a path is quoted where it must be)
        if echo is not None:
            return _echoed(
                echo,
                raw.sep,
                names,
                lambda rows: _columns(tree, predicted, probabilities, proba, why, rows, raw.decimal),
            )
    if not warned:
        warn_replaced(raw.source, replaced)
    return _framed(raw, _columns(tree, predicted, probabilities, proba, why, range(len(predicted))), replaced)


def _plain_labels(tree, predicted, sep: str) -> bool:
    """Whether the predicted class labels need no quoting (regression predictions are numbers)."""
    if tree.schema.is_regression or not len(predicted):
        return True
    predicted = np.asarray(predicted)  # (the labels used, each once: np.unique would import numpy.ma)
    return all(plain(tree.classes[code], sep) for code in np.flatnonzero(np.bincount(predicted)).tolist())


def _echoed(echo, sep: str, names: list[str], columns_of):
    """Each block of input lines with its rows' new cells (``columns_of(rows)``), header first."""
    header, blocks = echo
    yield header + "".join(sep + name for name in names) + "\n"
    start = 0
    for lines in blocks:
        tails = row_tails(columns_of(range(start, start + len(lines))), sep, "path" in names)
        yield "".join(chain.from_iterable(zip(lines, tails)))
        start += len(lines)


def _framed(raw, columns: dict, replaced: list[str]) -> str:
    """The rows written anew from the read table (quoted where they must be) with the new columns."""
    return raw.frame.to_csv(columns, replaced)  # (the caller warned of the replaced ones)

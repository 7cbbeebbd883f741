"""``dtree predict MODEL DATA --engine dask -o OUTDIR``: the workers predict and write a file a partition.

Contract: ``check`` refuses, in one line, what the Dask path cannot do (no -o, -f json or text,
--explain, --metrics-json, ARFF) and an OUTDIR that exists and is not an empty directory; ``run``
reads DATA on the cluster (``io/dask_frames.read_frame``: a CSV file or glob, Parquet file,
directory or glob), ships the model's text to every worker once (``scatter``, broadcast), and on
each partition's worker reads the rows as the local reader would (``io/dask_parts.raw_of``),
predicts them with the local code (``predict_table.predict_table``) and writes
OUTDIR/part-NNNNN.csv (``predict_table.csv_output``: the rows and new columns as ``dtree predict``
writes them) or .parquet (DATA's columns, ``prediction``, ``proba_<class>`` as doubles), each
atomically. Only row counts and unseen-value counts come back to the client. A run that fails
(or is stopped) cancels the tasks left and removes the parts written, and OUTDIR if it made it.
"""

from __future__ import annotations

import os
import threading
from typing import NamedTuple

from dtcli.errors import DataError, ModelFormatError, ParameterError

PART = "part-{:05d}.{}"
PART_FORMATS = ("csv", "parquet")


class Spec(NamedTuple):
    """What every partition's task needs besides its rows and the model."""

    output: str
    fmt: str
    proba: bool
    parquet: bool
    source: str
    model: str


def check(output, fmt: str, explain: bool, metrics_json, format_in) -> None:
    """What --engine dask cannot be combined with, refused in one line, and OUTDIR checked."""
    if not output or output == "-":
        raise ParameterError("--engine dask writes a file per partition into a directory: give -o OUTDIR")
    if fmt not in PART_FORMATS:
        raise ParameterError(f"--engine dask writes CSV or Parquet parts: give -f csv or -f parquet, not -f {fmt}")
    if explain or metrics_json:
        raise ParameterError("--engine dask writes the predictions only: leave out --explain and --metrics-json")
    if format_in == "arff":
        raise ParameterError("--engine dask reads CSV and Parquet, not ARFF: convert DATA, or leave out --engine dask")
    if os.path.lexists(output) and not os.path.isdir(output):
        raise DataError(f"{output}: exists and is not a directory; give -o a new or empty directory")
    if os.path.isdir(output) and os.listdir(output):
        raise DataError(f"{output}: is a directory that is not empty; give -o a new or empty directory")
    parent = os.path.dirname(os.path.abspath(output))
    if not os.path.isdir(parent):
        raise DataError(f"{output}: cannot write: directory {parent!r} does not exist")


def run(model_path: str, data: str, output: str, fmt: str, proba: bool, scheduler, limits) -> tuple:
    """Predict DATA's partitions into OUTDIR; (rows, parts, unseen counts by column)."""
    from dtcli.induction.distributed.cluster import client as connect
    from dtcli.induction.distributed.cluster import modules
    from dtcli.io.dask.frames import read_frame
    from dtcli.io.source import MODEL, read_text
    from dtcli.model.format.model import loads_model

    try:
        text = read_text(model_path, MODEL, limits.max_bytes)
    except DataError as exc:
        raise ModelFormatError(str(exc)) from None
    schema = loads_model(text, model_path).schema  # checked here, once: a bad model is an error before any work
    modules()
    made = not os.path.lexists(output)
    try:
        with connect(scheduler) as client:
            read = read_frame(data, sep=limits.sep, decimal=limits.decimal)
            _check_columns(schema, list(read.frame.columns), os.path.basename(read.source))
            _warn_replaced(schema, list(read.frame.columns), proba, read.source)
            parts = client.compute(read.frame.to_delayed())  # (futures: the rows stay on the workers)
            os.makedirs(output, exist_ok=True)
            spec = Spec(output, fmt, proba, read.files is not None, os.path.basename(read.source), model_path)
            shipped = client.scatter(text, broadcast=True)
            tasks = client.map(predict_part, parts, range(len(parts)), model=shipped, spec=spec)
            try:
                done = client.gather(tasks)
            except BaseException:
                client.cancel(tasks)  # (the parts still to come are not written after the clean-up)
                raise
    except BaseException:
        _undo(output, made)
        raise
    unseen: dict[str, int] = {}
    for _, counts in done:
        for name, count in counts.items():
            unseen[name] = unseen.get(name, 0) + count
    return sum(rows for rows, _ in done), len(done), unseen


def _undo(output: str, made: bool) -> None:
    """After a failure (or a stop): the parts written into OUTDIR and their temporary files removed,
    and OUTDIR itself when this run made it: OUTDIR is as it was (it was new or empty)."""
    import contextlib
    import re

    try:
        names = os.listdir(output)
    except OSError:
        return
    ours = re.compile(r"part-\d{5}\.(?:csv|parquet)|\.part-\d{5}\.(?:csv|parquet)\.\d+\.tmp")
    for name in names:
        if ours.fullmatch(name):
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(output, name))
    if made:
        with contextlib.suppress(OSError):
            os.rmdir(output)


def _check_columns(schema, columns: list, source: str) -> None:
    """The model's attributes must be DATA's columns (as ``encode_for_schema`` says, before any work)."""
    from dtcli.io.names import check_columns

    check_columns(schema, columns, source)


def _warn_replaced(schema, columns: list, proba: bool, source: str) -> None:
    """Warn once, here, of DATA's columns the new ones replace (the parts then replace them quietly)."""
    from dtcli.pipeline.predict_table import replaced_columns, warn_replaced

    added = ["prediction"] + ([f"proba_{c}" for c in schema.classes] if proba and not schema.is_regression else [])
    warn_replaced(source, replaced_columns(added, columns))


def predict_part(part, index: int, model: str, spec: Spec) -> tuple:
    """Predict one partition and write its file (runs on a worker): (rows, unseen counts by column)."""
    from dtcli.io.dask.parts import raw_of, write_parquet_part, write_part
    from dtcli.io.encode import encode_for_schema, text_columns
    from dtcli.model.format.model import loads_once
    from dtcli.pipeline.predict_table import csv_output, predict_table

    tree = loads_once(model, spec.model)
    raw = raw_of(part, spec.parquet, spec.source, text_columns(tree.schema))
    encoded = encode_for_schema(raw, tree.schema)
    codes, probabilities = predict_table(tree, encoded.table, quiet=True)
    regression = tree.schema.is_regression
    predicted = probabilities[:, 0] if regression else codes
    path = os.path.join(spec.output, PART.format(index, spec.fmt))
    if spec.fmt == "csv":
        write_part(path, csv_output(raw, tree, predicted, probabilities, spec.proba, None, warned=True))
    else:
        write_parquet_part(path, part, _parquet_columns(tree, predicted, probabilities, spec.proba))
    return len(predicted), encoded.unseen


def _parquet_columns(tree, predicted, probabilities, proba: bool) -> dict:
    """The new columns of a Parquet part: the class label (a number for regression), the probabilities."""
    import numpy as np

    if tree.schema.is_regression:
        return {"prediction": np.asarray(predicted, dtype=np.float64)}
    columns = {"prediction": [tree.classes[c] for c in predicted.tolist()]}
    if proba:
        for j, label in enumerate(tree.classes):
            columns[f"proba_{label}"] = np.ascontiguousarray(probabilities[:, j], dtype=np.float64)
    return columns


def training_correct(client, parts: list, tree) -> int:
    """How many labelled rows of the encoded ``parts`` (``io/dask_frames.Encoded``) ``tree`` predicts
    right, counted on the workers (the "Training set" line of ``dtree train --engine dask``). The tree
    goes to every worker once, laid out as the arrays the descent walks (``apply/predict.layout``)."""
    import secrets

    import numpy as np

    from dtcli.induction.distributed.cluster import summed
    from dtcli.induction.predict.apply import layout
    from dtcli.model.table import Table

    schema = tree.schema
    empty = [np.zeros(0, dtype=np.int32 if a.is_nominal else np.float64) for a in schema.attributes]
    flat = layout(tree, Table(schema, empty, np.zeros(0, dtype=np.int32)))
    flat.nodes = flat.columns = None  # (arrays only: no Node objects travel)
    rows = int(tree.training.get("rows", 0))
    shipped = client.scatter((secrets.token_hex(8), schema, flat, rows), broadcast=True, hash=False)
    return int(summed(client, client.map(training_counts, parts, shipped=shipped))[0])


_PREDICTORS: dict = {}  # per worker process: the shipped tree's token -> its predictor, the last one only
_PREDICTING = threading.Lock()  # (a predictor sets its layout's columns: one partition at a time)


def training_counts(enc, shipped: tuple):
    """Run on a worker: [rows of the partition ``enc`` whose class the tree predicts right]. ``shipped``:
    (token, schema, laid-out tree, the table's labelled rows: the compiled descent is chosen for the
    whole table, as locally)."""
    import numpy as np

    from dtcli.induction.predict.apply import laid_out_predictor
    from dtcli.model.table import Table

    token, schema, flat, rows = shipped
    nominal = [a.is_nominal for a in schema.attributes]
    slots = np.cumsum(nominal) - 1, np.cumsum([not n for n in nominal]) - 1
    columns = [enc.nominal[slots[0][i]] if n else enc.numeric[slots[1][i]] for i, n in enumerate(nominal)]
    table = Table(schema, columns, enc.y).take(enc.y >= 0)
    with _PREDICTING:
        if token not in _PREDICTORS:
            _PREDICTORS.clear()
            _PREDICTORS[token] = laid_out_predictor(flat, rows, threads=1)
        predicted = _PREDICTORS[token](table).argmax(axis=1)
    return np.array([np.count_nonzero(predicted == table.y)], dtype=np.float64)

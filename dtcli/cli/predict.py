"""``dtree predict``: apply a saved model to new data."""

from __future__ import annotations

import click

from dtcli.cli.common import format_in_option, load_model, output_option, write_output
from dtcli.cli.guard import Command
from dtcli.cli.options import data_limit_options, format_option, metrics_json_option
from dtcli.cli.predict_rows import csv_output, predict_table

FORMATS = ("csv", "json", "text", "parquet")


@click.command("predict", cls=Command)
@click.argument("model", metavar="MODEL")
@click.argument("data", metavar="DATA")
@output_option(
    "Write the predictions to FILE instead of standard output (--engine dask: into the directory FILE); "
    "without -f its extension picks the format (.csv, .json)."
)
@click.option("-p", "--proba", is_flag=True, help="Add the class probabilities (CSV: one proba_<class> column each).")
@format_option(
    FORMATS,
    "csv",
    "csv: DATA's rows with the new columns; json: a 'dtree-predictions' document for scripts; "
    "text: for people, a block per row explaining its prediction (implies --explain); "
    "parquet (--engine dask only): Parquet parts.",
)
@click.option(
    "--explain",
    is_flag=True,
    help="Show the path each row took through the tree (every path, with its weight, when a missing "
    "value sends it down several branches), or the rule that fired: a 'path' column in CSV, 'paths' in JSON.",
)
@metrics_json_option
@format_in_option
@data_limit_options
@click.option(
    "--engine",
    type=click.Choice(["local", "dask"]),
    default="local",
    show_default=True,
    help="dask: the workers of a Dask cluster read DATA (a CSV file or glob, a Parquet file, directory or glob) "
    "and write the predictions a partition at a time into the new or empty directory -o OUTDIR "
    "(part-00000.csv, ... or with -f parquet part-00000.parquet, ...); the rows never reach this process.",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="With --engine dask: the Dask scheduler to run on (e.g. tcp://10.0.0.5:8786); without it, a "
    "local cluster of one worker process a core starts on 127.0.0.1 for the run.",
)
@click.option("-q", "--quiet", is_flag=True, help="Do not report accuracy nor show progress on standard error.")
def command(model, data, output, proba, fmt, explain, metrics_json, format_in, limits, engine, scheduler, quiet):
    """Predict the class of every row of DATA with MODEL (from 'dtree train -o',
    or a rule set from 'dtree rules -f json': the first rule that fires, else the default).

    Writes DATA's rows, as read, with a 'prediction' column (and with
    --proba one 'proba_<class>' column per class) as CSV. A value the model
    never saw in training is treated as missing (the row goes down every
    branch, weighted by the training cases, as in C4.5) and counted in a
    warning. When DATA has the target column, the accuracy, Cohen's kappa
    and the confusion matrix go to standard error (whatever -f says; -q
    leaves them out), and with --metrics-json FILE the whole report, as
    'dtree evaluate -f json' writes it, into a 'dtree-evaluation' document.

    --explain adds the path each row took, e.g. 'Outlook = Rain -> Wind = Weak -> Yes';
    '-f text' explains each row for people, '-f json' gives the paths as data.

    Example: dtree predict weather.json sample_data/weather.csv -o predicted.csv
    """
    from dtcli.cli.extensions import refuse_swapped
    from dtcli.io.encode import encode_for_schema, text_columns
    from dtcli.io.read import read_data
    from dtcli.render.console import warn

    refuse_swapped("predict", model, data)
    if engine == "dask" or scheduler is not None:
        from dtcli.cli.predict_dask import predict_on_dask

        return predict_on_dask(
            model, data, output, proba, fmt, (explain, metrics_json, format_in, limits), engine, scheduler
        )
    if fmt == "parquet":
        from dtcli.errors import ParameterError

        raise ParameterError("-f parquet writes Parquet parts, with --engine dask -o OUTDIR; use -f csv for one file")
    if metrics_json == "-" and (not output or output == "-"):
        from dtcli.errors import ParameterError

        raise ParameterError("--metrics-json -: standard output carries the predictions; give -o FILE for them, "
                             "or --metrics-json FILE")  # fmt: skip
    early = _early(data, output, fmt, explain, format_in, limits)
    try:
        tree = load_model(model, limits, on_schema=early and early.schema_known, flat=bool(early) and not metrics_json)
        if proba and tree.schema.is_regression:
            from dtcli.errors import ParameterError

            raise ParameterError(f"--proba: {model} is a regression tree, whose predictions are numbers with no "
                                 "class probabilities; leave out --proba")  # fmt: skip
        if early and _streamed(tree, model, early, output, proba, metrics_json, quiet):
            return
    finally:
        if early:
            early.close()
    tree = tree.tree() if hasattr(tree, "flat_nodes") else tree  # the Node objects, read for prediction alone
    raw = read_data(data, format_in, text_columns(tree.schema), limits)
    encoded = encode_for_schema(raw, tree.schema)
    warnings = [f"{raw.source}: no data rows to predict"] if encoded.table.n_rows == 0 else []
    for name, count in encoded.unseen.items():
        warnings.append(f"{raw.source}: column {name!r}: {count} value(s) never seen in training, treated as missing")
    for message in warnings:
        warn(message)
    why = None
    if explain or fmt == "text":
        from dtcli.explain.why import row_paths

        why = row_paths(tree, encoded.table)
        codes, probabilities = why.codes, why.proba
    else:
        codes, probabilities = predict_table(tree, encoded.table, quiet)
    regression = tree.schema.is_regression
    predicted = probabilities[:, 0] if regression else codes
    if fmt == "csv":
        text = csv_output(raw, tree, predicted, probabilities, proba, why)
    elif fmt == "json":
        text = _json(tree, predicted, probabilities if proba else None, why, warnings)
    else:
        text = _text(tree, why, proba)
    if metrics_json and not encoded.has_target:
        from dtcli.errors import DataError
        from dtcli.model.colnames import near_clause

        target = tree.schema.target.name
        near = near_clause(target, list(raw.frame.columns))
        raise DataError(f"{raw.source}: no column {target!r}, so --metrics-json has nothing to evaluate{near}; give "
                        "data with the target column, or leave out --metrics-json")  # fmt: skip
    _write(output, text, last=not metrics_json)  # (else put in place with --metrics-json's document)
    if encoded.has_target:
        about = {"model": model, "data": raw.source, "method": "test-set"}
        _report(tree, encoded, predicted, probabilities, quiet, metrics_json, about)


def _early(data: str, output, fmt: str, explain: bool, format_in, limits):
    """DATA read ahead a chunk at a time while the model loads (``predict_stream.Early``), when the
    predictions go to a file as CSV and DATA may be a plain CSV file; else None."""
    if not output or output == "-" or fmt != "csv" or explain or (format_in or "csv") != "csv":
        return None
    if data == "-" or data.lower().removesuffix(".gz").endswith(".arff"):
        return None
    from dtcli.io.read import is_parquet

    if is_parquet(data):
        return None
    from dtcli.cli.predict_stream import Early

    return Early(data, limits)


def _streamed(tree, model, early, output, proba, metrics_json, quiet: bool) -> bool:
    """Predict into the file ``output`` the rows ``early`` reads (``predict_stream``), with the
    warnings and report of the whole-file path; False when that path must do it (nothing done)."""
    from dtcli.cli.predict_stream import stream
    from dtcli.errors import DtreeError
    from dtcli.io.csv.chunks import NotPlain
    from dtcli.render.console import warn

    try:
        done = stream(tree, early, output, proba, metrics_json, quiet)
    except (NotPlain, DtreeError):
        return False  # the whole-file path gives the message, if any
    for name, count in done.unseen.items():
        warn(f"{done.source}: column {name!r}: {count} value(s) never seen in training, treated as missing")
    if done.has_target:
        about = {"model": model, "data": done.source, "method": "test-set"}
        _report(tree, done, done.predicted, done.probabilities, quiet, metrics_json, about)
    return True


def _json(tree, predicted, probabilities, why, warnings: list[str]) -> str:
    """The 'dtree-predictions' document (documented in dtree-predict(1)); ``warnings``: the lines
    also written to standard error, without ``Warning:``."""
    from dtcli.model.rules import RuleSet
    from dtcli.render.why import predictions_json

    regression = tree.schema.is_regression
    model = {
        "format": "dtree-rules" if isinstance(tree, RuleSet) else "dtree-model",
        "algorithm": getattr(tree, "algorithm", None) or tree.parameters.get("algorithm"),
        "training_data": dict(tree.training),
    }
    head = {
        "format": "dtree-predictions",
        "schema_version": 1,
        "model": model,
        "target": tree.schema.target.name,
        "task": "regression" if regression else "classification",
        "classes": [] if regression else list(tree.classes),
        "warnings": warnings,
    }
    labels = [float(v) for v in predicted] if regression else [tree.classes[c] for c in predicted.tolist()]
    return predictions_json(head, _records(tree, labels, probabilities, why))


def _records(tree, labels, probabilities, why):
    """The JSON record of each row, made one at a time (a record and its paths never all in memory)."""
    from dtcli.render.why import path_record

    regression = tree.schema.is_regression
    for i, label in enumerate(labels):
        record = {"row": i + 1, "prediction": label}
        if probabilities is not None and not regression:
            record["probabilities"] = probabilities[i].tolist()
        if why is not None:
            record["paths"] = [path_record(p, tree.classes, regression) for p in why.paths(i)]
        yield record


def _text(tree, why, proba: bool) -> str:
    """A block per row for people (render.paths.row_block); with --proba, every class's probability."""
    from dtcli.render.why import row_block

    regression, classes = tree.schema.is_regression, tree.classes
    return "".join(
        row_block(i + 1, why.paths(i), why.proba[i], classes, regression, proba) for i in range(len(why.proba))
    )


def _report(tree, encoded, predicted, probabilities, quiet: bool, metrics_json: str | None, about: dict) -> None:
    """Accuracy, kappa and confusion matrix (or the regression errors) on standard error unless
    ``quiet``, and the whole report as 'dtree evaluate -f json' writes it to ``metrics_json``
    (``-``: standard output)."""
    from dtcli.evaluate.metrics import evaluate, evaluate_regression
    from dtcli.render.console import info
    from dtcli.render.metrics import evaluation_text, regression_text

    if tree.schema.is_regression:
        text = regression_text(evaluate_regression(encoded.actual, predicted))
    else:
        text = evaluation_text(evaluate(encoded.actual, predicted, encoded.labels, tree.classes))
    if not quiet:
        info(text.rstrip("\n"))
    if metrics_json:
        from dtcli.evaluate.predictions import Predictions, training_prior
        from dtcli.render.evaluation import evaluation_output

        if tree.schema.is_regression:
            part = Predictions(encoded.actual, predicted, None, (), (), training_prior(tree))
        else:
            part = Predictions(
                encoded.actual, predicted, probabilities, encoded.labels, tree.classes, training_prior(tree)
            )
        write_output(metrics_json, evaluation_output([part], "json", about))


def _write(output, text, last: bool) -> None:
    """``text`` (a str, or pieces of it) to ``output`` as ``write_output`` writes it, a piece at a time."""
    if isinstance(text, str):
        write_output(output, text, last)
    elif not output or output == "-":
        from dtcli.render.console import console

        for piece in text:
            console.data(piece)
    else:
        from dtcli.io.write import atomic

        with atomic(output, "wb", last=last) as handle:
            for piece in text:
                handle.write(piece.encode("utf-8"))

"""``dtree predict``: apply a saved model to new data."""

from __future__ import annotations

import click
import numpy as np

from dtcli.cli.common import format_in_option, load_model, output_option, write_output
from dtcli.cli.guard import Command
from dtcli.cli.options import limit_options


@click.command("predict", cls=Command)
@click.argument("model", metavar="MODEL")
@click.argument("data", metavar="DATA")
@output_option("Write the rows with predictions to FILE (CSV) instead of standard output.")
@click.option("-p", "--proba", is_flag=True, help="Add one probability column per class (proba_<class>).")
@format_in_option
@limit_options
@click.option("-q", "--quiet", is_flag=True, help="Do not report accuracy on standard error.")
def command(model, data, output, proba, format_in, limits, quiet):
    """Predict the class of every row of DATA with MODEL (from 'dtree train -o',
    or a rule set from 'dtree rules -f json': the first rule that fires, else the default).

    Writes DATA's rows, as read, with a 'prediction' column (and with
    --proba one 'proba_<class>' column per class) as CSV. A value the model
    never saw in training is treated as missing (the row goes down every
    branch, weighted by the training cases, as in C4.5) and counted in a
    warning. When DATA has the target column, the accuracy and the
    confusion matrix go to standard error.

    Example: dtree predict weather.json sample_data/weather.csv -o predicted.csv
    """
    from dtcli.induction.apply.evaluate import evaluate, evaluate_regression
    from dtcli.induction.apply.predict import predict_proba
    from dtcli.io.encode import encode_for_schema, text_columns
    from dtcli.io.read import read_data
    from dtcli.render.console import info, warn
    from dtcli.render.metrics import evaluation_text, regression_text

    tree = load_model(model, limits)
    raw = read_data(data, format_in, text_columns(tree.schema), limits)
    encoded = encode_for_schema(raw, tree.schema)
    if encoded.table.n_rows == 0:
        warn(f"{raw.source}: no data rows to predict")
    for name, count in encoded.unseen.items():
        warn(f"{raw.source}: column {name!r}: {count} value(s) never seen in training, treated as missing")
    from dtcli.model.rules import RuleSet

    if isinstance(tree, RuleSet):
        from dtcli.induction.apply.rules import predict_rules

        codes, probabilities = predict_rules(tree, encoded.table)
    else:
        probabilities = predict_proba(tree, encoded.table)
        codes = probabilities.argmax(axis=1)
    regression = tree.schema.is_regression
    if regression:
        predicted = probabilities[:, 0]
        columns = {"prediction": [f"{v:.10g}" for v in predicted]}
    else:
        predicted = codes
        columns = {"prediction": np.asarray(tree.classes, dtype=object)[predicted] if len(predicted) else []}
        if proba:
            for j, label in enumerate(tree.classes):
                columns[f"proba_{label}"] = [f"{p:.6g}" for p in probabilities[:, j]]
    write_output(output, _output(raw, columns))
    if encoded.has_target and not quiet:
        if regression:
            info(regression_text(evaluate_regression(encoded.actual, predicted)).rstrip("\n"))
        else:
            result = evaluate(encoded.actual, predicted, encoded.labels, tree.classes)
            info(evaluation_text(result).rstrip("\n"))


def _output(raw, columns: dict) -> str:
    """The input rows, as written when possible, with the new columns appended, as CSV."""
    import csv
    import io

    lines = raw.echo_lines() if "prediction" not in raw.frame.columns else None
    if lines is not None and all(_plain(name, raw.sep) for name in columns):
        extra = [[str(v) for v in values] for values in columns.values()]
        if all(_plain(v, raw.sep) for values in extra for v in set(values)):  # distinct values only
            sep = raw.sep
            out = [lines[0] + "".join(sep + name for name in columns)]
            if len(extra) == 1:
                out.extend(map(str.__add__, lines[1:], [sep + v for v in extra[0]]))
            else:
                tails = [sep + sep.join(row) for row in zip(*extra)] if extra else [""] * (len(lines) - 1)
                out.extend([line + tail for line, tail in zip(lines[1:], tails)])
            return "\n".join(out) + "\n"
    frame = raw.frame.to_pandas()
    if "prediction" in frame.columns:
        from dtcli.render.console import warn

        warn(f"{raw.source}: the existing 'prediction' column is replaced")
        frame = frame.drop(columns="prediction")
    for name, values in columns.items():
        frame[name] = values
    # The CSV writers quote a cell holding a line feed but not one holding a lone carriage return,
    # which a reader then takes for a line end. Such a CR goes out as NUL + LF (so the cell is quoted;
    # NUL never comes in, the reader refuses it) and comes back as CR once the text is made.
    texts = [name for name in frame.columns if frame[name].dtype == object]
    carriage = [name for name in texts if frame[name].astype(str).str.contains("\r", regex=False).any()]
    for name in carriage:
        frame[name] = frame[name].where(frame[name].isna(), frame[name].astype(str).str.replace("\r", "\0\n"))
    buffer = io.StringIO()
    frame.to_csv(buffer, index=False, lineterminator="\n", quoting=csv.QUOTE_MINIMAL, na_rep="?")
    return buffer.getvalue().replace("\0\n", "\r") if carriage else buffer.getvalue()


def _plain(text: str, sep: str) -> bool:
    """True if ``text`` needs no CSV quoting."""
    return not any(c in text for c in (sep, '"', "\n", "\r"))

"""``dtree evaluate``: judge a saved model on a test file, with Weka's metrics."""

from __future__ import annotations

import click

from dtcli.cli.common import format_in_option, load_model, output_option, write_output
from dtcli.cli.guard import Command
from dtcli.cli.options import format_option, limit_options

FORMATS = ("text", "json", "csv")


@click.command("evaluate", cls=Command)
@click.argument("model", metavar="MODEL")
@click.argument("data", metavar="DATA")
@format_option(
    FORMATS,
    "text",
    "text: Weka's '=== Summary ===', '=== Detailed Accuracy By Class ===' and '=== Confusion Matrix ===' "
    "blocks; json: a 'dtree-evaluation' document for scripts; csv: one row per class plus the averages.",
)
@output_option("Write the report to FILE instead of standard output.")
@format_in_option
@limit_options
def command(model, data, fmt, output, format_in, limits):
    """Judge MODEL (from 'dtree train -o', or a rule set from 'dtree rules -f json') on DATA,
    whose rows have the target column, with the metrics Weka's J48 prints.

    Classification: accuracy, error rate, Cohen's kappa, the mean absolute and
    root mean squared error of the class probabilities and the relative errors
    against the training prior, per class the TP and FP rate, precision,
    recall, F-measure, support and ROC area, their weighted and macro
    averages, and the confusion matrix (rows actual, columns predicted).
    Regression: RMSE, MAE, R^2, correlation, relative absolute and root
    relative squared error against the training mean. Rows without a class
    value are ignored (and counted); an undefined value prints as '?' (JSON null).

    Example: dtree evaluate model.json test.arff -f json -o report.json
    """
    from dtcli.errors import DataError
    from dtcli.induction.evaluate.predictions import of_model
    from dtcli.io.encode import encode_for_schema, text_columns
    from dtcli.io.read import read_data
    from dtcli.render.console import warn
    from dtcli.render.evaluation import evaluation_output

    tree = load_model(model, limits)
    raw = read_data(data, format_in, text_columns(tree.schema), limits)
    encoded = encode_for_schema(raw, tree.schema)
    if not encoded.has_target:
        raise DataError(
            f"{raw.source}: has no column {tree.schema.target.name!r} (the model's target) to judge against"
        )
    for name, count in encoded.unseen.items():
        warn(f"{raw.source}: column {name!r}: {count} value(s) never seen in training, treated as missing")
    parts = [of_model(tree, encoded.table, encoded.actual, encoded.labels)]
    about = {"model": model, "data": raw.source, "method": "test-set"}
    write_output(output, evaluation_output(parts, fmt, about))

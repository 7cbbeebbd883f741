"""``dtree evaluate``: judge a saved model on test data, or a way of training by cross-validation, split or test file.

Both forms report Weka's metrics (``render.evaluation``); the training form takes
exactly train's learning options (``cli.training``) and ``cli.crossval``'s schemes, judged by
``pipeline.crossval.judge``.
"""

from __future__ import annotations

import click

from dtcli.cli.common import data_options, output_option, write_output
from dtcli.cli.crossval import scheme_options
from dtcli.cli.guard import Command
from dtcli.cli.options import format_option
from dtcli.cli.training import training_options
from dtcli.errors import ParameterError

FORMATS = ("text", "json", "csv")
# What only the training form (DATA --cv/--split/--test) reads: DATA's columns and how to learn.
SOURCE_OPTIONS = ("target", "ignore", "nominal")


class Evaluate(Command):
    """The usage line shows both forms."""

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        formatter.write_usage(ctx.command_path, "[OPTIONS] MODEL DATA")
        formatter.write_usage(ctx.command_path, "[OPTIONS] DATA [--cv K | --split F | --test FILE]", "   or: ")


@click.command("evaluate", cls=Evaluate)
@data_options
@click.argument("second", metavar="DATA", required=False)
@training_options
@scheme_options(
    "Judge the training options by stratified K-fold cross-validation of DATA (the default, K = 10; "
    "folds drawn with --seed): each fold is judged by a tree trained as 'dtree train' would on the other folds."
)
@format_option(
    FORMATS,
    "text",
    "text: Weka's '=== Summary ===', '=== Detailed Accuracy By Class ===' and '=== Confusion Matrix ===' "
    "blocks; json: a 'dtree-evaluation' document for scripts; csv: one row per class plus the averages.",
)
@output_option(
    "Write the report to FILE instead of standard output; without -f its extension picks the format "
    "(.json, .csv, .txt)."
)
def command(source, second, training, scheme, fmt, output):
    """Judge MODEL (from 'dtree train -o', or a rule set from 'dtree rules -f json') on DATA,
    whose rows have the target column, with the metrics Weka's J48 prints; or, given DATA
    alone, judge how 'dtree train' learns from DATA with the same training options
    (-a, -c, --prune, ...): by stratified 10-fold cross-validation (--cv K), a percentage
    split (--split 0.66) or a separate test file (--test FILE).

    Classification: accuracy, error rate, Cohen's kappa, the mean absolute and
    root mean squared error of the class probabilities and the relative errors
    against the training prior, per class the TP and FP rate, precision,
    recall, F-measure, support and ROC area, their weighted and macro
    averages, and the confusion matrix (rows actual, columns predicted).
    Regression: RMSE, MAE, R^2, correlation, relative absolute and root
    relative squared error against the training mean. Rows without a class
    value are ignored (and counted); an undefined value prints as '?' (JSON null).
    Cross-validation pools the folds' predictions into one report (as Weka does) and
    adds the mean and standard deviation of the folds' accuracy and tree sizes.

    Example: dtree evaluate model.json test.arff -f json -o report.json

    Example: dtree evaluate sample_data/iris.csv -a c45 --cv 10 --seed 1
    """
    scheme.check()
    if second is None:
        return _judge_training(source, training, scheme, fmt, output)
    _refuse_training_options(scheme)
    _judge_model(source.data, second, source, fmt, output)


def _refuse_training_options(scheme) -> None:
    """MODEL DATA judges a finished model: an option of the training form is a ParameterError."""
    from click.core import ParameterSource

    if scheme.given:
        raise ParameterError(
            "--cv, --split and --test judge a way of training on DATA; MODEL DATA judges a finished model: "
            "give DATA alone with them"
        )
    ctx = click.get_current_context()
    flags = {param.name: max(param.opts, key=len) for param in ctx.command.params if isinstance(param, click.Option)}
    given = [flags[name] for name in ctx.params if name in flags and _named(ctx, name, ParameterSource)]
    if given:
        raise ParameterError(
            f"{given[0]} is an option of training; MODEL DATA judges the model as it is (its own target and "
            "options): leave it out, or give DATA alone to judge training with it"
        )


def _named(ctx, name: str, sources) -> bool:
    """True when the user gave the option ``name`` (and it is not one both forms share)."""
    shared = ("fmt", "output", "format_in", "max_bytes", "max_rows", "sep", "decimal", "jobs")
    return name not in shared and ctx.get_parameter_source(name) not in (sources.DEFAULT, None)


def _judge_training(source, training, scheme, fmt, output) -> None:
    """DATA [--cv K | --split F | --test FILE]: the report of training judged on unseen rows."""
    from dtcli.pipeline.crossval import judge
    from dtcli.pipeline.load import warn_identifiers
    from dtcli.render.console import warn
    from dtcli.render.evaluation import evaluation_output

    table = source.load(training.target_task, weighting=training.weighting)
    warn_identifiers(table, False)
    training.note_target(table, False)
    reading = (source.format_in, source.limits)
    parts, about, warnings = judge(
        scheme, training.learner(table), table, source.data, training.growth.algorithm, reading
    )
    for message in warnings:
        warn(message)
    write_output(output, evaluation_output(parts, fmt, about))


def _judge_model(model, data, source, fmt, output) -> None:
    """MODEL DATA: the report of a saved model on DATA."""
    from dtcli.cli.extensions import refuse_swapped
    from dtcli.errors import DataError
    from dtcli.evaluate.predictions import of_model
    from dtcli.io.encode import encode_for_schema, text_columns
    from dtcli.io.read import read_data
    from dtcli.model.colnames import near_clause
    from dtcli.pipeline.load import load_model
    from dtcli.render.console import warn
    from dtcli.render.evaluation import evaluation_output

    refuse_swapped("evaluate", model, data)
    tree = load_model(model, source.limits)
    raw = read_data(data, source.format_in, text_columns(tree.schema), source.limits)
    encoded = encode_for_schema(raw, tree.schema)
    if not encoded.has_target:
        raise DataError(
            f"{raw.source}: has no column {tree.schema.target.name!r} (the model's target) to judge against"
            f"{near_clause(tree.schema.target.name, list(raw.frame.columns))}; "
            "add the true classes, or use 'dtree predict' to predict them"
        )
    for name, count in encoded.unseen.items():
        warn(f"{raw.source}: column {name!r}: {count} value(s) never seen in training, treated as missing")
    parts = [of_model(tree, encoded.table, encoded.actual, encoded.labels)]
    about = {"model": model, "data": raw.source, "method": "test-set"}
    write_output(output, evaluation_output(parts, fmt, about))

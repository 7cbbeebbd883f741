"""``dtree train``: learn a tree, print it, and save the model."""

from __future__ import annotations

import click

from dtcli.cli.common import data_options, emit_tree, output_option, quiet_or_show, show_option, written_to
from dtcli.cli.crossval import scheme_options
from dtcli.cli.documents import hold, write_document
from dtcli.cli.guard import Command
from dtcli.cli.options import TREE_FORMATS, format_option, metrics_json_option
from dtcli.cli.training import training_options
from dtcli.errors import ParameterError
from dtcli.induction.algorithms import ALGORITHMS
from dtcli.pipeline.load import warn_identifiers
from dtcli.pipeline.train import grow, prepare_engines, prune_and_trace, training_line


@click.command("train", cls=Command)
@data_options
@training_options
@click.option(
    "--trace",
    is_flag=True,
    help="Narrate the induction node by node (the rows at each node, class counts, impurity, every "
    "candidate's score, the split chosen and why, or why it stays a leaf), then each pruning "
    "decision, on stderr (JSON with -f json). The tree is then grown by the per-node reference "
    "grower, whatever --engine says (the same tree, grown more slowly).",
)
@click.option(
    "--trace-file",
    metavar="FILE",
    help="Write the trace to FILE instead of stderr (implies --trace; JSON with -f json).",
)
@click.option(
    "--id",
    "id_column",
    metavar="COL",
    help="Name the rows in the trace by this column's values (e.g. Day: S_Sunny = {D1, D2, ...}) "
    "instead of row numbers; the column is left out of the attributes, as with --ignore.",
)
@scheme_options(
    "After the tree, judge these training options by stratified K-fold cross-validation of DATA, as J48's "
    "-x K does (folds drawn with --seed; not --cv-folds, which picks cost-complexity's alpha).",
    "train",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="With --engine dask: the Dask scheduler to train on (e.g. tcp://10.0.0.5:8786); without it, a "
    "local cluster of one worker process a core starts on 127.0.0.1 for the run.",
)
@metrics_json_option
@click.option(
    "--importance",
    is_flag=True,
    help="After the tree, print each attribute's feature importance on standard output, as "
    "'dtree show MODEL --importance' does (not with -f json, --show or -o -, where standard output carries "
    "the model or a picture).",
)
@output_option("Write the model (JSON) to FILE.")
@format_option(
    TREE_FORMATS,
    "rich",
    "How to print the tree: rich (counts and scores), text (plain, J48 style), json (the model). "
    "Piped, the rich tree never wraps a node's line (it may be longer than COLUMNS).",
)
@show_option("the tree")
@click.option(
    "-q",
    "--quiet",
    is_flag=True,
    help="Do not print the tree (use with -o), nor warn of identifier-like columns or of classes spelt "
    "alike, nor show progress.",
)
def command(
    source,
    training,
    trace,
    trace_file,
    id_column,
    scheme,
    scheduler,
    metrics_json,
    importance,
    output,
    fmt,
    show,
    quiet,
):
    """Learn a decision tree from DATA and print it.

    The tree shows, at every node, the training class counts ([9+, 5-] for
    two classes such as yes/no, [No 5, Yes 9] otherwise) and, at every
    split, the criterion's score. Ties between attributes go to the one that
    comes first in the file. With -o the model is saved as JSON for
    'dtree predict'.

    Algorithms: id3 (information gain, nominal attributes, no missing values
    unless --missing says how), c45 (C4.5 Release 8 as Weka's J48: gain
    ratio among attributes of at least average gain, numeric thresholds with
    the MDL correction, fractional cases for missing values, -m 2) and cart
    (binary splits A <= v at midpoints and A in V for nominal attributes;
    --criterion gini, entropy or cart; a missing value goes to the heavier
    branch).

    Example: dtree train sample_data/weather.csv --ignore Day -o weather.json
    """
    from dtcli.induction.memory import release
    from dtcli.render.console import console, info, warn
    from dtcli.render.progress import TrainingProgress
    from dtcli.render.tree import summary

    quiet_or_show(quiet, show, output)
    _check_evaluation(scheme, metrics_json, quiet, output)
    if importance and (fmt == "json" or show or output == "-"):
        raise ParameterError(
            "--importance prints a table after the tree, and standard output carries the model or a picture "
            "here: save the model with -o FILE and run dtree show FILE --importance"
        )
    if training.growth.engine == "dask" or scheduler is not None:
        _check_dask(training, scheduler, trace or trace_file or id_column or scheme.given or metrics_json)
        tree, warnings, accuracy = _train_dask(source, training, scheduler)
        return _finish(tree, warnings, accuracy, output, fmt, show, quiet, training)
    ccp = training.ccp
    trace = trace or bool(trace_file)
    hold(fmt == "json" and ((trace and not trace_file) or bool(ccp.folds)))
    if not trace:
        prepare_engines(source.data, source.format_in, training.growth.engine)
    table, ids = source.load_with_ids(training.target_task, id_column, training.weighting)
    warn_identifiers(table, quiet)
    training.note_target(table, quiet)
    learner = training.learner(table)
    progress = TrainingProgress(console.stderr, enabled=None if not quiet else False)
    tree, warnings = grow(learner, table, progress, trace)
    for message in warnings:
        warn(message)
    tracing = (fmt, trace and ids, trace and trace_file)
    tree = prune_and_trace(tree, table, ccp, learner.engine, tracing, write_document)
    training.weighting.record(tree)
    report = _evaluation(scheme, source, training, table, metrics_json, quiet) if scheme.given else None
    after = None if report is None else lambda: _print_evaluation(report, fmt, show, quiet, output)
    after = _after(tree, importance, quiet, after)
    line = training_line(tree, table)  # printed after the tree; the table goes before the tree is printed
    rows = table.n_rows  # and written (a million rows: 140 MB less beside the printout and the model's text)
    del table, learner
    release(rows)
    emit_tree(tree, output, show or fmt, quiet, after)
    title = ALGORITHMS[training.growth.algorithm].title
    info(line)
    info(f"{title} tree: {summary(tree)}" + written_to(output))


def _after(tree, importance: bool, quiet: bool, then):
    """What is printed after the tree: the importance table (with ``importance``; a blank line before it
    unless ``quiet``: no tree), then ``then()``."""
    if not importance:
        return then

    def after():
        from dtcli.render.console import console
        from dtcli.render.importance import importance_output

        console.data(("" if quiet else "\n") + importance_output(tree, "text"))
        if then is not None:
            then()

    return after


def _check_dask(training, scheduler, extra) -> None:
    """What --engine dask cannot be combined with, refused in one line."""
    if training.growth.engine != "dask":
        raise ParameterError("--scheduler applies to --engine dask")
    if extra:
        raise ParameterError("--engine dask trains and writes the model only: leave out --trace, --id and --cv")
    if training.ccp.wanted:
        raise ParameterError("--engine dask does not prune by cost complexity: leave out --ccp-alpha / --cv-folds")
    if training.weighting.wanted:
        raise ParameterError("--engine dask does not weigh rows: leave out --weights / --class-weight")


def _train_dask(source, training, scheduler):
    """(tree, warnings, (correct, rows)) from the Dask engine on DATA."""
    from dataclasses import replace

    from dtcli.pipeline.train import train_dask

    params = training.growth.params(missing=training.missing, seed=training.ccp.seed, **training.stopping)
    if params.algorithm == "cart" and training.growth.options.get("ties") is None:
        params = replace(params, ties="column")  # (the engine's default: see distributed/cart.py)
    if training.costs.path is not None:
        raise ParameterError("--engine dask does not take --costs")
    method = training.pruning.method or ALGORITHMS[training.growth.algorithm].prune
    from dtcli.pipeline.predict_dask import training_correct

    pruning = replace(training.pruning, method=method)
    return train_dask(source, params, pruning, training.target_task, scheduler, judge=training_correct)


def _finish(tree, warnings, accuracy, output, fmt, show, quiet, training) -> None:
    """Warnings, the tree, the "Training set" line (``accuracy``: correct, rows) and the summary line
    of a tree trained by the Dask engine."""
    from dtcli.pipeline.train import accuracy_line
    from dtcli.render.console import info, warn
    from dtcli.render.tree import summary

    for message in warnings:
        warn(message)
    emit_tree(tree, output, show or fmt, quiet, None)
    title = ALGORITHMS[training.growth.algorithm].title
    info(accuracy_line(*accuracy))
    info(f"{title} tree: {summary(tree)}" + written_to(output))


def _check_evaluation(scheme, metrics_json, quiet: bool, output) -> None:
    """--cv, --split and --test: one at most; --metrics-json needs one, and - only when standard output is free."""
    from dtcli.errors import ParameterError

    scheme.check()
    if metrics_json and not scheme.given:
        raise ParameterError("--metrics-json writes the evaluation of --cv, --split or --test: give one of them")
    if metrics_json == "-" and (not quiet or output == "-"):
        raise ParameterError(
            "--metrics-json -: standard output carries the tree (or the model); give -q and -o FILE, "
            "or write the evaluation to a file"
        )


def _evaluation(scheme, source, training, table, metrics_json, quiet: bool = False) -> str:
    """The report of --cv, --split or --test (Weka's text blocks), computed before anything is printed;
    its dtree-evaluation document goes to ``metrics_json`` (- for standard output)."""
    from dtcli.cli.common import write_output
    from dtcli.pipeline.crossval import judge
    from dtcli.render.console import warn
    from dtcli.render.evaluation import evaluation_output

    reading = (source.format_in, source.limits)
    algorithm = training.growth.algorithm
    parts, about, warnings = judge(scheme, training.learner(table), table, source.data, algorithm, reading, quiet=quiet)
    for message in warnings:
        warn(message)
    if metrics_json:  # (put in place with the model, or when the run succeeds)
        write_output(metrics_json, evaluation_output(parts, "json", about), last=False)
    return "" if metrics_json == "-" else evaluation_output(parts, "text", about)


def _print_evaluation(report: str, fmt: str, show: str | None, quiet: bool, output: str | None) -> None:
    """After a printed tree (rich or text), or alone with -q, on standard output; on standard error
    when standard output carries the model's JSON (-f json, --show json, -o -) or a picture (--show),
    as a summary line is (left out when standard error carries a JSON document)."""
    from dtcli.render.console import console, info

    if not report:
        return
    if output == "-" or (not quiet and (show or fmt == "json")):
        info(report.rstrip("\n"))
    else:
        console.data(("" if quiet else "\n") + report)

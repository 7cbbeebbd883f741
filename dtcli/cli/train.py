"""``dtree train``: learn a tree, print it, and save the model."""

from __future__ import annotations

import click

from dtcli.cli.common import (
    cost_complexity_pruning,
    cost_complexity_result,
    cost_options,
    data_options,
    emit_tree,
    output_option,
    quiet_or_show,
    show_option,
    task_option,
    warn_identifiers,
    written_to,
)
from dtcli.cli.documents import hold, write_document
from dtcli.cli.guard import Command
from dtcli.cli.options import (
    TREE_FORMATS,
    cost_complexity_options,
    format_option,
    growth_options,
    missing_option,
    option_group,
    pessimistic_list,
    pessimistic_params,
    stopping_options,
)
from dtcli.induction.algorithms import ALGORITHMS, PRUNING


def _pruning(prune_method, holdout, no_prune, **pessimistic):
    return pessimistic_params(method="none" if no_prune else prune_method, holdout=holdout, **pessimistic)


pruning_options = option_group(
    "pruning",
    _pruning,
    click.option(
        "--prune",
        "prune_method",
        type=click.Choice(PRUNING),
        help="Pruning after growth (default: pessimistic for c45, as J48; none otherwise). "
        "pessimistic is C4.5's error-based pruning with subtree raising; reduced-error "
        "holds out --holdout of the rows (stratified, --seed) and prunes on them (Mitchell).",
    ),
    click.option(
        "--holdout",
        type=float,
        default=1 / 3,
        show_default="0.33",
        metavar="F",
        help="With --prune reduced-error: the share of rows kept for validation.",
    ),
    click.option("--no-prune", is_flag=True, help="Do not prune (the same as --prune none; J48 -U)."),
    *pessimistic_list(
        "Confidence factor of pessimistic pruning (smaller prunes more).",
        "The upper error bound: Weka J48's (exact normal quantile) or Quinlan's C4.5 R8 table.",
        "Pessimistic pruning without subtree raising (J48 -S).",
    ),
)


@click.command("train", cls=Command)
@data_options
@growth_options
@task_option(
    "What to predict. Default: regression when the target column is numeric and the "
    "algorithm is cart (the mean at each leaf, squared-error splits), else classification."
)
@missing_option
@cost_options(
    "Attribute costs, CSV lines 'attribute,cost' (others cost 1): splits are chosen by "
    "a cost measure of their gain instead of the criterion (Mitchell 3.7.5)."
)
@stopping_options
@pruning_options
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
@cost_complexity_options(
    "Cost-complexity pruning at A: prune every weakest link with g(t) <= A (scikit-learn's ccp_alpha).",
    "Cost-complexity pruning at the alpha K-fold cross-validation picks; the table of "
    "alpha, leaves, training and CV error goes to standard error.",
    "Seed for the cross-validation folds and for CART's scikit-learn tie order.",
)
@output_option("Write the model (JSON) to FILE.")
@format_option(
    TREE_FORMATS,
    "rich",
    "How to print the tree: rich (counts and scores), text (plain, J48 style), json (the model).",
)
@show_option("the tree")
@click.option(
    "-q", "--quiet", is_flag=True, help="Do not print the tree (use with -o), nor warn of identifier-like columns."
)
def command(
    source, growth, task, missing, costs, stopping, pruning, trace, trace_file, id_column, ccp, output, fmt, show, quiet
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
    from dataclasses import replace

    from dtcli.induction.algorithms import train
    from dtcli.render.console import console, info, warn
    from dtcli.render.progress import TrainingProgress
    from dtcli.render.tree import summary

    quiet_or_show(quiet, show, output)
    task = task or ("auto" if growth.algorithm == "cart" else "classification")
    trace = trace or bool(trace_file)
    hold(fmt == "json" and ((trace and not trace_file) or bool(ccp.folds)))
    table, ids = source.load_with_ids(task, id_column)
    warn_identifiers(table, quiet)
    params = growth.params(missing=missing, costs=costs.load(table), seed=ccp.seed, **stopping)
    progress = TrainingProgress(console.stderr, enabled=None if not quiet else False)
    try:
        pruning = replace(pruning, seed=ccp.seed)
        tree, warnings = train(table, params, pruning, growth.engine, progress, trace, narrate=trace)
    finally:
        progress.close()
    for message in warnings:
        warn(message)
    tree = _prune_and_trace(tree, table, ccp, growth.engine, (fmt, trace and ids, trace and trace_file))
    emit_tree(tree, output, show or fmt, quiet)
    title = ALGORITHMS[growth.algorithm].title
    info(f"{title} tree: {summary(tree)}" + written_to(output))


def _prune_and_trace(grown, table, ccp, engine, tracing):
    """The tree after --ccp-alpha/--cv-folds, and the trace written. ``tracing``: (-f, the --id cells or
    False without --trace, --trace-file). With -f json the trace is one dtree-trace document, the
    cost-complexity table in it; without a trace on standard error the CV table goes there as dtree-cp."""
    fmt, ids, path = tracing
    tracing = ids is not False
    if tracing and fmt != "json":
        _write_trace(grown, ids, fmt, path)
    if not ccp.wanted:
        cv = None
        tree = grown
    elif fmt != "json":
        return cost_complexity_pruning(grown, table, ccp, engine)
    else:
        import json

        from dtcli.render.ccp import cp_json, cp_settings

        tree, rows, chosen = cost_complexity_result(grown, table, ccp, engine)
        cv = cp_json(rows, chosen, cp_settings(ccp, tree.parameters["pruning"]["alpha"]))
        if ccp.folds and (path or not tracing):
            write_document(cv)
        cv = {k: v for k, v in json.loads(cv).items() if k not in ("format", "schema_version")}
    if tracing and fmt == "json":
        from dtcli.render.trace import train_trace_json

        write_document(train_trace_json(grown, ids, cv), path or None)
    return tree


def _write_trace(tree, ids, fmt, path) -> None:
    """The trace as text on stderr or into ``path``."""
    from dtcli.render.console import info
    from dtcli.render.trace import train_trace_text

    text = train_trace_text(tree, ids)
    if not path:
        info(text.rstrip("\n"))
        return
    from dtcli.io.write import atomic

    with atomic(path) as handle:
        handle.write(text)

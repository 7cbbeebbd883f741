"""``dtree prune``: simplify a saved model, show what was done and its effect."""

from __future__ import annotations

import click

from dtcli.cli.common import emit_tree, format_in_option, output_option, quiet_or_show, show_option, written_to
from dtcli.cli.documents import hold, write_document
from dtcli.cli.guard import Command
from dtcli.cli.options import (
    TREE_FORMATS,
    cost_complexity_options,
    data_limit_options,
    engine_option,
    engine_request,
    format_option,
    pessimistic_options,
)
from dtcli.induction.prune import MODEL_PRUNERS
from dtcli.pipeline.load import load_model, pruning_table
from dtcli.pipeline.train import cost_complexity_result


@click.command("prune", cls=Command)
@click.argument("model", metavar="MODEL")
@click.option(
    "--method", type=click.Choice(MODEL_PRUNERS), default="cost-complexity", show_default=True, help="How to prune."
)
@click.option("--data", metavar="DATA", help="The training data (pessimistic; cost-complexity with --cv-folds).")
@click.option("--validation", metavar="DATA", help="Validation data for reduced-error pruning.")
@cost_complexity_options(
    "Cost-complexity: prune every weakest link with g(t) <= A.",
    "Cost-complexity: the alpha K-fold cross-validation on DATA picks.",
    "Seed for the cross-validation folds.",
)
@engine_option
@click.option(
    "--path",
    "show_path",
    is_flag=True,
    help="Cost-complexity: print the table of alphas (leaves, training error) and stop.",
)
@pessimistic_options(
    "Pessimistic: confidence factor (smaller prunes more).",
    "Pessimistic: Weka J48's error bound or Quinlan's C4.5 R8 table.",
    "Pessimistic: no subtree raising.",
)
@click.option(
    "--trace", is_flag=True, help="Print every decision and the numbers compared (stderr; JSON with -f json)."
)
@click.option(
    "--curve",
    is_flag=True,
    help="Reduced-error: print accuracy against tree size at every step (training, validation, "
    "and --test) instead of the tree.",
)
@click.option("--test", "test_data", metavar="DATA", help="With --curve: test data for a third accuracy column.")
@click.option("--plot", metavar="FILE", help="With --curve: also draw it to FILE (.svg or .png; needs dtree[plot]).")
@format_in_option
@data_limit_options
@output_option("Write the pruned model (JSON) to FILE.")
@format_option(
    TREE_FORMATS,
    "rich",
    "How to print the pruned tree (--path/--curve: text or json table). Piped, the rich tree never wraps a line.",
)
@show_option("the pruned tree")
@click.option("-q", "--quiet", is_flag=True, help="Do not print the tree (use with -o).")
def command(
    model,
    method,
    data,
    validation,
    ccp,
    engine,
    show_path,
    pessimistic,
    trace,
    curve,
    test_data,
    plot,
    format_in,
    limits,
    output,
    fmt,
    show,
    quiet,
):
    """Prune MODEL (from 'dtree train -o') and print the pruned tree.

    cost-complexity: Breiman et al.'s weakest-link pruning; --path lists the
    alphas, --ccp-alpha prunes at one, --cv-folds with --data picks one by
    cross-validation. pessimistic: C4.5's error-based pruning with subtree
    raising (--cf, --no-raise, --error-bound), given the training data as
    --data. reduced-error: Mitchell's procedure on --validation data; with
    --curve, accuracy against size at each step. The pruned model records
    how it was pruned and the original size.

    Example: dtree prune tennis.json --method reduced-error --validation held.csv --curve
    """
    from dtcli.errors import ParameterError

    quiet_or_show(quiet, show, output)
    if plot:
        from dtcli.render.plot import check_plot

        check_plot(plot)  # before the work: the file's type, and matplotlib there to draw it
    if output == "-" and (curve or show_path):
        raise ParameterError(f"-o - writes the model to standard output, where --{'curve' if curve else 'path'} "
                             "prints its table: give -o FILE")  # fmt: skip
    hold(fmt == "json" and not show_path and (trace or (method == "cost-complexity" and bool(ccp.folds))))
    tree = load_model(model, limits, tree_only=True)
    reading = (format_in, limits)
    if method == "cost-complexity":
        pruned = _cost_complexity(tree, data, ccp, engine_request(engine), show_path, reading, (fmt, trace))
        if pruned is None:
            return
    elif method == "pessimistic":
        if not data:
            raise ParameterError("pessimistic pruning needs the training data: --data DATA")
        from dtcli.induction.algorithms import pessimistic_prune
        from dtcli.induction.params import check_pessimistic

        table = pruning_table(tree, data, reading, weighted=True)
        check_pessimistic(pessimistic, table.is_regression)
        pruned, steps = pessimistic_prune(
            tree, table, pessimistic.cf, pessimistic.raising, pessimistic.error_bound, engine=engine_request(engine)
        )
        if trace:
            _trace_pessimistic(steps, fmt)
    else:
        if not validation:
            raise ParameterError("reduced-error pruning needs validation data: --validation DATA")
        from dtcli.induction.prune.reduced_error.prune import reduced_error_prune

        held = pruning_table(tree, validation, reading)
        pruned, steps = reduced_error_prune(tree, held)
        if trace:
            _trace_reduced(steps, fmt)
        if curve:
            test = pruning_table(tree, test_data, reading) if test_data else None
            _curve(tree, held, test, fmt, plot)
            if output:
                emit_tree(pruned, output, fmt, quiet=True)
            return
    if curve:
        raise ParameterError("--curve is drawn for --method reduced-error")
    emit_tree(pruned, output, show or fmt, quiet)
    from dtcli.render.console import info

    after = pruned.root.n_leaves()
    info(f"pruned from {tree.root.n_leaves()} to {after} {'leaf' if after == 1 else 'leaves'}" + written_to(output))


def _cost_complexity(tree, data, ccp, engine, show_path, reading, shown):
    """The pruned tree (None after --path's table); ``shown``: (-f, --trace)."""
    from dtcli.errors import ParameterError
    from dtcli.induction.prune.ccp.select import subtrees
    from dtcli.render.ccp import cp_json, cp_settings, cp_table
    from dtcli.render.console import console

    fmt, trace = shown
    if show_path and not ccp.folds:
        rows = subtrees(tree.root, tree.parameters.get("criterion", "gini"))
        console.data(cp_json(rows) if fmt == "json" else cp_table(rows))
        return None
    if ccp.alpha is None and ccp.folds is None:
        raise ParameterError("give --ccp-alpha A, or --cv-folds K with --data DATA (or --path to list the alphas)")
    table = None
    if ccp.folds is not None:
        if not data:
            raise ParameterError("--cv-folds needs the training data: --data DATA")
        table = pruning_table(tree, data, reading, weighted=True)
    pruned, rows, chosen = cost_complexity_result(tree, table, ccp, engine)
    if show_path:  # with --cv-folds: the table with its CV columns and the choice, as the result
        console.data(cp_json(rows, chosen, cp_settings(ccp)) if fmt == "json" else cp_table(rows, chosen))
        return None
    _report_cost_complexity(ccp, rows, chosen, fmt, trace)
    return pruned


def _report_cost_complexity(ccp, rows, chosen, fmt, trace):
    """The CV table (with --cv-folds), or with --trace the weakest-link sequence and the subtree kept."""
    from dtcli.cli.common import report_cv
    from dtcli.render.ccp import cp_settings, cp_trace_json, cp_trace_text
    from dtcli.render.console import info

    kept = chosen or [r for r in rows if r.alpha <= ccp.alpha][-1]
    if trace and fmt == "json":
        write_document(cp_trace_json(rows, kept, cp_settings(ccp, kept.alpha if chosen else ccp.alpha)))
    elif ccp.folds:
        report_cv(ccp, rows, chosen, fmt)
    elif trace:
        info(cp_trace_text(rows, kept, ccp.alpha).rstrip("\n"))


def _trace_pessimistic(steps, fmt):
    from dtcli.render.console import info
    from dtcli.render.trace import pessimistic_json, pessimistic_text

    if fmt == "json":
        write_document(pessimistic_json(steps))
    else:
        info(pessimistic_text(steps).rstrip("\n"))


def _trace_reduced(steps, fmt):
    from dtcli.render.console import info
    from dtcli.render.trace import reduced_json, reduced_text

    if fmt == "json":
        write_document(reduced_json(steps))
    else:
        info(reduced_text(steps).rstrip("\n"))


def _curve(tree, validation, test, fmt, plot):
    from dtcli.induction.prune.reduced_error.curve import pruning_curve
    from dtcli.render.console import console
    from dtcli.render.curve import curve_json, curve_text

    points = pruning_curve(tree, validation, test)
    console.data(curve_json(points) if fmt == "json" else curve_text(points))
    if plot:
        from dtcli.io.write import write_bytes
        from dtcli.render.plot import plot_curve

        write_bytes(plot, plot_curve(points, plot))

"""``dtree prune``: simplify a saved model, show what was done and its effect."""

from __future__ import annotations

import click

from dtcli.cli.common import cost_complexity_pruning, emit_tree, format_in_option, load_model, output_option

PRUNERS = {
    "cost-complexity": "Breiman's weakest-link pruning at an alpha, given or chosen by cross-validation",
    "pessimistic": "C4.5's error-based pruning with subtree raising (needs --data)",
    "reduced-error": "Mitchell's reduced-error pruning on a validation set (needs --validation)",
}


@click.command("prune")
@click.argument("model", metavar="MODEL")
@click.option(
    "--method", type=click.Choice(sorted(PRUNERS)), default="cost-complexity", show_default=True, help="How to prune."
)
@click.option("--data", metavar="DATA", help="The training data (pessimistic; cost-complexity with --cv-folds).")
@click.option("--validation", metavar="DATA", help="Validation data for reduced-error pruning.")
@click.option("--ccp-alpha", type=float, metavar="A", help="Cost-complexity: prune every weakest link with g(t) <= A.")
@click.option(
    "--cv-folds", type=int, metavar="K", help="Cost-complexity: the alpha K-fold cross-validation on DATA picks."
)
@click.option("--one-se", is_flag=True, help="With --cv-folds: the smallest tree within one SE of the best.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed for the cross-validation folds.")
@click.option(
    "--path",
    "show_path",
    is_flag=True,
    help="Cost-complexity: print the table of alphas (leaves, training error) and stop.",
)
@click.option(
    "--cf",
    type=float,
    default=0.25,
    show_default=True,
    metavar="CF",
    help="Pessimistic: confidence factor (smaller prunes more).",
)
@click.option("--no-raise", is_flag=True, help="Pessimistic: no subtree raising.")
@click.option(
    "--error-bound",
    type=click.Choice(["j48", "c45r8"]),
    default="j48",
    show_default=True,
    help="Pessimistic: Weka J48's error bound or Quinlan's C4.5 R8 table.",
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
@output_option("Write the pruned model (JSON) to FILE.")
@click.option(
    "-f",
    "--format",
    "fmt",
    type=click.Choice(["rich", "text", "json"]),
    default="rich",
    show_default=True,
    help="How to print the pruned tree (--path/--curve: text or json table).",
)
@click.option("-q", "--quiet", is_flag=True, help="Do not print the tree (use with -o).")
def command(
    model,
    method,
    data,
    validation,
    ccp_alpha,
    cv_folds,
    one_se,
    seed,
    show_path,
    cf,
    no_raise,
    error_bound,
    trace,
    curve,
    test_data,
    plot,
    format_in,
    output,
    fmt,
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

    tree = load_model(model)
    if method == "cost-complexity":
        pruned = _cost_complexity(tree, data, ccp_alpha, cv_folds, one_se, seed, show_path, format_in, fmt)
        if pruned is None:
            return
    elif method == "pessimistic":
        if not data:
            raise ParameterError("pessimistic pruning needs the training data: --data DATA")
        from dtcli.induction.algorithms import check_pessimistic
        from dtcli.induction.prune.pessimistic import pessimistic_prune

        table = _table(tree, data, format_in)
        check_pessimistic(cf, error_bound, table)
        pruned, steps = pessimistic_prune(tree, table, cf, not no_raise, error_bound)
        if trace:
            _trace_pessimistic(steps, fmt)
    else:
        if not validation:
            raise ParameterError("reduced-error pruning needs validation data: --validation DATA")
        from dtcli.induction.prune.reduced_error import reduced_error_prune

        held = _table(tree, validation, format_in)
        pruned, steps = reduced_error_prune(tree, held)
        if trace:
            _trace_reduced(steps, fmt)
        if curve:
            test = _table(tree, test_data, format_in) if test_data else None
            _curve(tree, held, test, fmt, plot)
            if output:
                emit_tree(pruned, output, fmt, quiet=True)
            return
    if curve:
        raise ParameterError("--curve is drawn for --method reduced-error")
    emit_tree(pruned, output, fmt, quiet)
    from dtcli.render.console import info

    info(
        f"pruned from {tree.root.n_leaves()} to {pruned.root.n_leaves()} leaves"
        + (f"; model written to {output}" if output else "")
    )


def _cost_complexity(tree, data, ccp_alpha, cv_folds, one_se, seed, show_path, format_in, fmt):
    from dtcli.errors import ParameterError
    from dtcli.induction.prune.ccp_select import subtrees
    from dtcli.render.ccp import cp_json, cp_table

    if show_path:
        rows = subtrees(tree.root, tree.parameters.get("criterion", "gini"))
        click.echo(cp_json(rows) if fmt == "json" else cp_table(rows), nl=False)
        return None
    if ccp_alpha is None and cv_folds is None:
        raise ParameterError("give --ccp-alpha A, or --cv-folds K with --data DATA (or --path to list the alphas)")
    table = None
    if cv_folds is not None:
        if not data:
            raise ParameterError("--cv-folds needs the training data: --data DATA")
        table = _table(tree, data, format_in)
    return cost_complexity_pruning(tree, table, ccp_alpha, cv_folds, one_se, seed)


def _table(tree, data, format_in):
    """DATA encoded with the model's schema; it must have the target column."""
    from dtcli.errors import DataError
    from dtcli.io.encode import encode_for_schema, text_columns
    from dtcli.io.read import read_data

    encoded = encode_for_schema(read_data(data, format_in, text_columns(tree.schema)), tree.schema)
    if not encoded.has_target:
        raise DataError(f"{data}: no column {tree.schema.target.name!r}; pruning needs the target values")
    return encoded.table


def _trace_pessimistic(steps, fmt):
    from dtcli.render.console import info
    from dtcli.render.trace import pessimistic_json, pessimistic_text

    info((pessimistic_json(steps) if fmt == "json" else pessimistic_text(steps)).rstrip("\n"))


def _trace_reduced(steps, fmt):
    from dtcli.render.console import info
    from dtcli.render.trace import reduced_json, reduced_text

    info((reduced_json(steps) if fmt == "json" else reduced_text(steps)).rstrip("\n"))


def _curve(tree, validation, test, fmt, plot):
    from dtcli.induction.prune.curve import pruning_curve
    from dtcli.render.curve import curve_json, curve_text

    points = pruning_curve(tree, validation, test)
    click.echo(curve_json(points) if fmt == "json" else curve_text(points), nl=False)
    if plot:
        from dtcli.render.plot import plot_curve

        plot_curve(points, plot)

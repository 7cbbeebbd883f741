"""``dtree prune``: simplify a saved model."""

from __future__ import annotations

import click

from dtcli.cli.common import cost_complexity_pruning, emit_tree, format_in_option, load_model, output_option

PRUNERS = {
    "cost-complexity": "Breiman's weakest-link pruning at an alpha, given or chosen by cross-validation",
}


@click.command("prune")
@click.argument("model", metavar="MODEL")
@click.option("--method", type=click.Choice(sorted(PRUNERS)), default="cost-complexity", show_default=True,
              help="How to prune.")
@click.option("--ccp-alpha", type=float, metavar="A", help="Prune every weakest link with g(t) <= A.")
@click.option("--data", metavar="DATA", help="The training data, for --cv-folds.")
@click.option("--cv-folds", type=int, metavar="K", help="Prune at the alpha K-fold cross-validation on DATA picks.")
@click.option("--one-se", is_flag=True, help="With --cv-folds: the smallest tree within one SE of the best.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed for the cross-validation folds.")
@click.option("--path", "show_path", is_flag=True,
              help="Print the table of alphas (leaves and training error of each subtree) and stop.")
@format_in_option
@output_option("Write the pruned model (JSON) to FILE.")
@click.option("-f", "--format", "fmt", type=click.Choice(["rich", "text", "json"]), default="rich",
              show_default=True, help="How to print the pruned tree (with --path: text or json table).")
@click.option("-q", "--quiet", is_flag=True, help="Do not print the tree (use with -o).")
def command(model, method, ccp_alpha, data, cv_folds, one_se, seed, show_path, format_in, output, fmt, quiet):
    """Prune MODEL (from 'dtree train -o') and print the pruned tree.

    cost-complexity: Breiman et al.'s weakest-link pruning. The sequence of
    subtrees comes from the model alone (--path prints it: alpha, leaves,
    training error); --ccp-alpha prunes at a given alpha, and --cv-folds
    with --data chooses the alpha by K-fold cross-validation (--one-se for
    the 1-SE rule), printing the table with CV errors on standard error.
    The pruned model records how it was pruned and the original size.

    Example: dtree prune cart.json --data train.csv --cv-folds 10 -o pruned.json
    """
    from dtcli.errors import ParameterError
    from dtcli.induction.ccp_select import subtrees
    from dtcli.render.ccp import cp_json, cp_table
    from dtcli.render.console import info

    tree = load_model(model)
    criterion = tree.parameters.get("criterion", "gini")
    if show_path:
        rows = subtrees(tree.root, criterion)
        click.echo(cp_json(rows) if fmt == "json" else cp_table(rows), nl=False)
        return
    if ccp_alpha is None and cv_folds is None:
        raise ParameterError("give --ccp-alpha A, or --cv-folds K with --data DATA (or --path to list the alphas)")
    table = None
    if cv_folds is not None:
        if not data:
            raise ParameterError("--cv-folds needs the training data: --data DATA")
        table = _training_table(tree, data, format_in)
    pruned = cost_complexity_pruning(tree, table, ccp_alpha, cv_folds, one_se, seed)
    emit_tree(pruned, output, fmt, quiet)
    info(f"pruned from {tree.root.n_leaves()} to {pruned.root.n_leaves()} leaves"
         + (f"; model written to {output}" if output else ""))


def _training_table(tree, data, format_in):
    from dtcli.errors import DataError
    from dtcli.io.encode import encode_for_schema
    from dtcli.io.read import read_data

    encoded = encode_for_schema(read_data(data, format_in), tree.schema)
    if not encoded.has_target:
        raise DataError(f"{data}: no column {tree.schema.target.name!r}; the training data needs the target")
    return encoded.table


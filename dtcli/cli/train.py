"""``dtree train``: learn a tree, print it, and save the model."""

from __future__ import annotations

import click

from dtcli.cli.common import (
    cost_complexity_pruning,
    cost_options,
    data_options,
    emit_tree,
    load_costs,
    load_training_table,
    output_option,
)
from dtcli.induction.algorithms import ALGORITHMS
from dtcli.induction.criteria.impurity import CRITERIA


@click.command("train")
@data_options
@click.option(
    "-a",
    "--algorithm",
    type=click.Choice(sorted(ALGORITHMS)),
    default="id3",
    show_default=True,
    help="Which algorithm's rules to follow.",
)
@click.option(
    "--task",
    type=click.Choice(["classification", "regression"]),
    help="What to predict. Default: regression when the target column is numeric and the "
    "algorithm is cart (the mean at each leaf, squared-error splits), else classification.",
)
@click.option(
    "-c",
    "--criterion",
    type=click.Choice(sorted(CRITERIA)),
    help="Split criterion (default: the algorithm's: id3 gain, c45 gain-ratio, cart gini). "
    "gain-ratio applies Quinlan's rule: only attributes with at least average gain "
    "compete; entropy is gain; cart is Zaki's CART measure (cart only).",
)
@click.option(
    "--thresholds",
    type=click.Choice(["data", "midpoint"]),
    help="Numeric splits A <= t: t is the largest training value not above the cut (data, "
    "C4.5's default, as J48 prints it) or the midpoint between the two values (Mitchell, "
    "Zaki). Lets ID3 split numeric attributes too.",
)
@click.option(
    "--missing",
    type=click.Choice(["reject", "fractional", "majority", "class-majority"]),
    help="Missing values: fractional (C4.5's default: cases go down every branch with "
    "proportional weight), majority / class-majority (fill in the most common value at "
    "the node, overall or within the case's class; Mitchell 3.7.4), reject (ID3's default). "
    "cart: majority (its default) sends the case down the heavier branch; no class-majority.",
)
@cost_options(
    "Attribute costs, CSV lines 'attribute,cost' (others cost 1): splits are chosen by "
    "a cost measure of their gain instead of the criterion (Mitchell 3.7.5)."
)
@click.option(
    "--ties",
    type=click.Choice(["sklearn", "column"]),
    help="CART only: attributes tied for the best split go to the first in scikit-learn's "
    "random visiting order for --seed (the default, so trees equal scikit-learn's "
    "with random_state=SEED) or to the first column.",
)
@click.option("--max-depth", type=int, metavar="N", help="Make a leaf at depth N (the root is depth 0).")
@click.option(
    "--min-split", type=float, metavar="N", help="Split a node only if it holds at least N cases.  [default: 2]"
)
@click.option(
    "-m",
    "--min-leaf",
    type=float,
    metavar="M",
    help="A split needs at least two branches with M cases (C4.5's -m; c45 default 2).",
)
@click.option(
    "--max-bins",
    type=int,
    metavar="N",
    help="Approximate mode for very large tables: each numeric attribute is cut only between N "
    "quantile bins (thresholds are bin maxima), not between every pair of distinct values.",
)
@click.option(
    "--max-leaves", type=int, metavar="N", help="Grow best-first (largest weight x gain first) and stop at N leaves."
)
@click.option(
    "--prune",
    "prune_method",
    type=click.Choice(["pessimistic", "reduced-error", "none"]),
    help="Pruning after growth (default: pessimistic for c45, as J48; none otherwise). "
    "pessimistic is C4.5's error-based pruning with subtree raising; reduced-error "
    "holds out --holdout of the rows (stratified, --seed) and prunes on them (Mitchell).",
)
@click.option(
    "--holdout",
    type=float,
    default=1 / 3,
    show_default="0.33",
    metavar="F",
    help="With --prune reduced-error: the share of rows kept for validation.",
)
@click.option("--no-prune", is_flag=True, help="Do not prune (the same as --prune none; J48 -U).")
@click.option(
    "--cf",
    type=float,
    default=0.25,
    show_default=True,
    metavar="CF",
    help="Confidence factor of pessimistic pruning (smaller prunes more).",
)
@click.option("--no-raise", is_flag=True, help="Pessimistic pruning without subtree raising (J48 -S).")
@click.option(
    "--error-bound",
    type=click.Choice(["j48", "c45r8"]),
    default="j48",
    show_default=True,
    help="The upper error bound: Weka J48's (exact normal quantile) or Quinlan's C4.5 R8 table.",
)
@click.option(
    "--chi2-alpha",
    type=float,
    metavar="ALPHA",
    help="Chi-square pre-pruning: make a split only if its association with the class is "
    "significant at level ALPHA (e.g. 0.05).",
)
@click.option("--trace", is_flag=True, help="Print each pruning decision and the numbers compared (stderr).")
@click.option(
    "--ccp-alpha",
    type=float,
    metavar="A",
    help="Cost-complexity pruning at A: prune every weakest link with g(t) <= A (scikit-learn's ccp_alpha).",
)
@click.option(
    "--cv-folds",
    type=int,
    metavar="K",
    help="Cost-complexity pruning at the alpha K-fold cross-validation picks; the table of "
    "alpha, leaves, training and CV error goes to standard error.",
)
@click.option("--one-se", is_flag=True, help="With --cv-folds: the smallest tree within one SE of the best.")
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="Seed for the cross-validation folds and for CART's scikit-learn tie order.",
)
@click.option(
    "--min-gain",
    type=float,
    metavar="G",
    help="Split only if the criterion improves by more than G (bits for gain).  [default: 0]",
)
@click.option(
    "--purity",
    type=float,
    metavar="P",
    help="Make a leaf once the majority class reaches fraction P of a node (e.g. 0.9).  [default: 1]",
)
@output_option("Write the model (JSON) to FILE.")
@click.option(
    "-f",
    "--format",
    "fmt",
    type=click.Choice(["rich", "text", "json"]),
    default="rich",
    show_default=True,
    help="How to print the tree: rich (counts and scores), text (plain, J48 style), json (the model).",
)
@click.option("-q", "--quiet", is_flag=True, help="Do not print the tree (use with -o).")
def command(
    data,
    target,
    ignore,
    nominal,
    format_in,
    algorithm,
    task,
    criterion,
    thresholds,
    missing,
    costs,
    cost_measure,
    nunez_w,
    ties,
    max_depth,
    min_split,
    min_leaf,
    max_bins,
    max_leaves,
    prune_method,
    holdout,
    no_prune,
    cf,
    no_raise,
    error_bound,
    chi2_alpha,
    trace,
    ccp_alpha,
    cv_folds,
    one_se,
    seed,
    min_gain,
    purity,
    output,
    fmt,
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
    from dtcli.induction.algorithms import train
    from dtcli.render.console import info, warn
    from dtcli.render.progress import TrainingProgress
    from dtcli.render.tree import summary

    task = task or ("auto" if algorithm == "cart" else "classification")
    table = load_training_table(data, target, ignore, nominal, format_in, task)
    attribute_costs = load_costs(costs, cost_measure, nunez_w, table)
    progress = TrainingProgress(enabled=None if not quiet else False)
    try:
        tree, warnings = train(
            table,
            algorithm,
            criterion=criterion,
            thresholds=thresholds,
            missing=missing,
            costs=attribute_costs,
            ties=ties,
            seed=seed,
            chi2_alpha=chi2_alpha,
            max_depth=max_depth,
            min_split=min_split,
            min_leaf=min_leaf,
            max_leaves=max_leaves,
            max_bins=max_bins,
            min_gain=min_gain,
            purity=purity,
            prune="none" if no_prune else prune_method,
            cf=cf,
            raising=not no_raise,
            error_bound=error_bound,
            holdout=holdout,
            progress=progress,
            record=trace,
        )
    finally:
        progress.close()
    if trace:
        from dtcli.render.trace import trace_text

        info(trace_text(tree.trace).rstrip("\n"))
    if ccp_alpha is not None or cv_folds:
        tree = cost_complexity_pruning(tree, table, ccp_alpha, cv_folds, one_se, seed)
    for message in warnings:
        warn(message)
    emit_tree(tree, output, fmt, quiet)
    info(f"{ALGORITHMS[algorithm].title} tree: {summary(tree)}" + (f"; model written to {output}" if output else ""))

"""Algorithms as presets, and the one entry point that trains a tree.

An algorithm fixes defaults (criterion, which attribute kinds it accepts,
how it treats missing values); options may override the pieces. The name
table ``ALGORITHMS`` is what ``--algorithm`` offers.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from dtcli.errors import DataError, ParameterError
from dtcli.induction.criteria.bounds import BOUNDS
from dtcli.induction.criteria.costs import AttributeCosts
from dtcli.induction.criteria.impurity import CRITERIA
from dtcli.induction.grow.flat import collapse as flat_collapse
from dtcli.induction.grow.grower import GrowParams, grow
from dtcli.induction.levelwise.engine import grow_levelwise, use_engine
from dtcli.induction.prune.collapse import collapse
from dtcli.induction.prune.pessimistic import pessimistic_prune
from dtcli.induction.search.bins import bin_table, snap
from dtcli.induction.search.missing import POLICIES
from dtcli.model.table import Table
from dtcli.model.tree import Tree


@dataclass(frozen=True)
class Algorithm:
    """A preset: its name, a one-line description and its default parameters."""

    name: str
    title: str
    description: str
    defaults: dict
    prune: str = "none"


ALGORITHMS = {
    "id3": Algorithm(
        "id3",
        "ID3",
        "Quinlan's ID3: information gain, one branch per nominal value (Mitchell ch. 3)",
        {"criterion": "gain", "missing": "reject"},
    ),
    "cart": Algorithm(
        "cart",
        "CART",
        "Breiman et al.'s CART: binary splits (A <= v, A in V), Gini by default (Zaki ch. 16)",
        {"criterion": "gini", "thresholds": "midpoint", "missing": "majority", "min_leaf": 1.0, "ties": "sklearn"},
    ),
    "c45": Algorithm(
        "c45",
        "C4.5",
        "Quinlan's C4.5 Release 8 as Weka's J48: gain ratio, numeric thresholds, fractional cases",
        {"criterion": "gain-ratio", "thresholds": "data", "missing": "fractional", "min_leaf": 2.0, "collapse": True},
        prune="pessimistic",
    ),
}


def check_table(table: Table, params: GrowParams) -> None:
    """Raise a DataError when ``table`` cannot be learned with ``params``."""
    if table.n_rows == 0:
        raise DataError(f"{table.source}: no data rows; the file has a header but no examples")
    labelled = table.labelled()
    if not labelled.any():
        raise DataError(f"{table.source}: every row lacks a value in the target column {table.schema.target.name!r}")
    present = np.unique(table.y[labelled])
    if table.is_regression:
        if params.algorithm != "cart":
            raise ParameterError(
                f"regression (a numeric target, {table.schema.target.name!r}) needs --algorithm cart; "
                "for classes use --task classification"
            )
        if params.chi2_alpha is not None:
            raise ParameterError(
                "--chi2-alpha tests a split's association with the classes; a regression tree "
                "has none: use --min-gain, --min-leaf or --max-depth to stop early"
            )
    elif len(present) < 2:
        only = table.classes[present[0]]
        raise DataError(
            f"{table.source}: the target {table.schema.target.name!r} has one class only "
            f"({only!r}); a tree needs at least two classes: check --target"
        )
    name = ALGORITHMS[params.algorithm].title
    for i, attribute in enumerate(table.attributes):
        if not attribute.is_nominal and not params.thresholds:
            raise DataError(
                f"{table.source}: column {attribute.name!r} is numeric, and {name} splits only "
                f"nominal attributes unless thresholds are on: use --algorithm c45 or "
                f"--thresholds midpoint, treat its values as categories with --nominal "
                f"{attribute.name}, or leave it out with --ignore {attribute.name}"
            )
        missing = table.missing_mask(i) & labelled
        if missing.any() and params.missing == "reject":
            first = table.where(int(np.flatnonzero(missing)[0]))
            raise DataError(
                f"{table.source}: column {attribute.name!r} has {int(missing.sum())} missing "
                f"value(s) (the first at {first}), and {name} is set to reject them: choose "
                f"--missing fractional|majority|class-majority, fill them in, or leave the column "
                f"out with --ignore {attribute.name}"
            )


PRUNING = ("none", "pessimistic", "reduced-error")


def train(
    table: Table,
    algorithm: str = "id3",
    prune: str | None = None,
    cf: float = 0.25,
    raising: bool = True,
    error_bound: str = "j48",
    holdout: float = 1 / 3,
    progress=None,
    record: bool = True,
    **options,
) -> tuple[Tree, list[str]]:
    """Train a tree; returns it with any warnings (as text, for the caller to show).

    ``prune`` (default: the algorithm's; C4.5 prunes pessimistically, as J48)
    may be ``none``, ``pessimistic`` (with ``cf``, ``raising``,
    ``error_bound``) or ``reduced-error`` (a stratified ``holdout`` share of
    the rows, drawn with ``seed``, is kept aside for validation and the tree
    grown on the rest). The pruning decisions are left in ``tree.trace``
    (``record=False`` lets large trees skip that list).
    Large tables grow level by level (``engine``; ``progress(level, nodes,
    records, seconds)`` is called once per level) and stay arrays until
    pruned, so that only the final tree becomes Nodes.
    """
    method = prune or ALGORITHMS[algorithm].prune
    if method == "reduced-error":
        return _train_reduced_error(table, algorithm, holdout, **options)
    preset = ALGORITHMS[algorithm]
    params = GrowParams(algorithm=algorithm, **preset.defaults)
    params = replace(params, **{k: v for k, v in options.items() if v is not None})
    if params.criterion == "entropy" and algorithm != "cart":  # entropy is information gain (--help)
        params = replace(params, criterion="gain")
    _check_params(params)
    check_table(table, params)
    warnings = []
    unlabelled = int((~table.labelled()).sum())
    if unlabelled:
        warnings.append(f"{table.source}: {unlabelled} row(s) without a class value were left out")
    if method not in PRUNING:
        raise ParameterError(f"unknown pruning {method!r}; choose from {', '.join(PRUNING)}")
    if method == "pessimistic":
        check_pessimistic(cf, error_bound, table)
    growth_trace: list = []
    training = {
        "source": table.source.rsplit("/", 1)[-1],
        "rows": int(table.labelled().sum()),
        "sha256": table.sha256,
    }
    engine = use_engine(table, params)
    binning = bool(params.max_bins) and not (engine and params.algorithm == "c45")  # the engine bins C4.5's itself
    data = bin_table(table, params.max_bins) if binning else table
    flat = grow_levelwise(data, params, progress, growth_trace) if engine else None
    if flat is not None:
        if params.collapse:
            flat_collapse(flat)
        root = None if method == "pessimistic" else flat.to_nodes()
    else:
        root = grow(data, params, growth_trace, progress)
        if params.collapse:
            root = collapse(root)
    tree = Tree(table.schema, root, algorithm, params.as_dict(), training, trace=growth_trace)
    if method == "pessimistic":
        tree, steps = pessimistic_prune(tree, data, cf, raising, error_bound, in_place=True, flat=flat, record=record)
        tree.trace = growth_trace + steps
    if binning:
        snap(tree.root, data)
    return tree, warnings


def check_pessimistic(cf: float, error_bound: str, table: Table) -> None:
    """Options of error-based pruning, checked."""
    if not 0 < cf <= 0.5:
        raise ParameterError("--cf must be in (0, 0.5], e.g. 0.25 (smaller prunes more)")
    if error_bound not in BOUNDS:
        raise ParameterError(f"--error-bound must be one of {', '.join(BOUNDS)}")
    if table.is_regression:
        raise ParameterError("pessimistic pruning needs classes; prune regression trees by cost complexity")


def _check_params(params: GrowParams) -> None:
    if params.criterion not in CRITERIA:
        raise ParameterError(f"unknown criterion {params.criterion!r}; choose from {', '.join(sorted(CRITERIA))}")
    if params.criterion == "cart" and params.algorithm != "cart":
        raise ParameterError("--criterion cart is defined for binary splits: use it with --algorithm cart")
    if params.max_depth is not None and params.max_depth < 0:
        raise ParameterError("--max-depth must be 0 or more")
    if params.min_split < 0:
        raise ParameterError("--min-split must be 0 or more")
    if params.min_gain < 0:
        raise ParameterError("--min-gain must be 0 or more")
    if not 0 < params.purity <= 1:
        raise ParameterError("--purity must be a fraction in (0, 1], e.g. 0.9")
    if params.min_leaf is not None and params.min_leaf < 0:
        raise ParameterError("--min-leaf must be 0 or more")
    if params.max_leaves is not None and params.max_leaves < 1:
        raise ParameterError("--max-leaves must be 1 or more")
    if params.thresholds not in (None, "data", "midpoint"):
        raise ParameterError("--thresholds must be data or midpoint")
    if params.chi2_alpha is not None and not 0 < params.chi2_alpha < 1:
        raise ParameterError("--chi2-alpha must be a significance level between 0 and 1, e.g. 0.05")
    if params.ties not in ("column", "sklearn"):
        raise ParameterError("--ties must be sklearn or column")
    if params.ties == "sklearn" and params.algorithm != "cart":
        raise ParameterError("--ties sklearn applies to --algorithm cart only (ID3 and C4.5 follow Weka)")
    if params.max_bins is not None and params.max_bins < 2:
        raise ParameterError("--max-bins must be 2 or more (e.g. 256)")
    if params.missing not in POLICIES:
        raise ParameterError(f"--missing must be one of {', '.join(POLICIES)}")
    if params.algorithm == "cart" and params.missing == "class-majority":
        raise ParameterError(
            "--missing class-majority fills values in for id3 and c45; cart sends a case with a "
            "missing value down the heavier branch (--missing majority, its default) or down both "
            "(--missing fractional)"
        )
    if params.algorithm == "cart" and params.costs is not None:
        raise ParameterError(
            "--costs weighs information gain (Mitchell 3.7.5) for id3 and c45; cart chooses its "
            "splits by impurity decrease: leave --costs out or use --algorithm c45"
        )


def regrow(tree: Tree, table: Table):
    """Grow a new root on ``table`` with the parameters ``tree`` was grown with."""
    params = params_from_dict(tree.parameters)
    data = bin_table(table, params.max_bins) if params.max_bins else table
    root = grow(data, params)
    root = collapse(root) if params.collapse else root
    return snap(root, data) if params.max_bins else root


def params_from_dict(parameters: dict) -> GrowParams:
    """GrowParams from a model's recorded parameters (unknown keys ignored)."""
    known = {f: parameters[f] for f in GrowParams.__dataclass_fields__ if f in parameters}
    if isinstance(known.get("costs"), dict):
        known["costs"] = AttributeCosts(**known["costs"])
    return GrowParams(**known)


def _train_reduced_error(table: Table, algorithm: str, holdout: float, **options) -> tuple[Tree, list[str]]:
    from dtcli.induction.prune.reduced_error import reduced_error_prune, stratified_holdout

    if not 0 < holdout < 1:
        raise ParameterError("--holdout must be a fraction between 0 and 1, e.g. 0.33")
    if table.is_regression:
        raise ParameterError("reduced-error pruning needs classes; prune regression trees by cost complexity")
    rows, held = stratified_holdout(table, holdout, options.get("seed") or 0)
    if len(held) == 0 or len(rows) == 0:
        raise ParameterError(f"--holdout {holdout:g} leaves no rows on one side; use more data or another share")
    tree, warnings = train(table.take(rows), algorithm, prune="none", **options)
    pruned, steps = reduced_error_prune(tree, table.take(held))
    pruned.parameters["pruning"].update(holdout=holdout, seed=options.get("seed") or 0)
    pruned.trace = steps
    return pruned, warnings

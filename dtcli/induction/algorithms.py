"""Algorithms as presets, and the one entry point that trains a tree.

An algorithm fixes defaults (criterion, which attribute kinds it accepts,
how it treats missing values); options may override the pieces. The name
table ``ALGORITHMS`` is what ``--algorithm`` offers.
"""

from __future__ import annotations

import shlex
from dataclasses import replace
from typing import NamedTuple

import numpy as np

from dtcli.errors import DataError, ModelFormatError, ParameterError
from dtcli.induction import backend
from dtcli.induction.backend import check_engine
from dtcli.induction.memory import release
from dtcli.induction.params import (
    DEFAULT_PRUNING,
    GROW_OPTIONS,
    GrowParams,
    PruneParams,
    check_grow,
    check_pessimistic,
    check_reduced_error,
    params_from_dict,
)
from dtcli.induction.prune.collapse import collapse
from dtcli.induction.search.missing import NODE_FILL
from dtcli.model.table import Table
from dtcli.model.tree import Tree


class Algorithm(NamedTuple):
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


def grow_params(algorithm: str, **options) -> GrowParams:
    """The preset of ``algorithm`` with ``options`` (None: keep the preset's) over it; ``train``
    checks the values. An unknown option name is a ParameterError, never a TypeError."""
    if algorithm not in ALGORITHMS:
        raise ParameterError(f"unknown algorithm {algorithm!r}; choose from {', '.join(sorted(ALGORITHMS))}")
    unknown = sorted(set(options) - set(GROW_OPTIONS))
    if unknown:
        raise ParameterError(f"unknown growth option {unknown[0]!r}; choose from {', '.join(GROW_OPTIONS)}")
    params = GrowParams(algorithm=algorithm, **ALGORITHMS[algorithm].defaults)
    params = replace(params, **{k: v for k, v in options.items() if v is not None})
    if algorithm == "cart" and params.max_bins and options.get("ties") is None:
        # binned CART has no scikit-learn tree to equal: ties go to the first column, which needs no
        # random order drawn node after node, so the Dask engine grows the very same model file
        params = replace(params, ties="column")
    if params.criterion == "entropy" and algorithm != "cart":  # entropy is information gain (--help)
        params = replace(params, criterion="gain")
    return params


def numeric_class_error(table: Table, algorithm: str) -> DataError:
    """The refusal of a numeric target by an algorithm that learns classes only (ID3, C4.5)."""
    return DataError(
        f"{table.source}: the target {table.schema.target.name!r} is numeric, and "
        f"{ALGORITHMS[algorithm].title} learns classes only: use --algorithm cart for a regression "
        "tree, or --task classification to take its values as classes"
    )


def date_target_error(table: Table) -> DataError:
    """The refusal of a target of dates (Weka's airline.arff ends with one): a tree would regress
    seconds since 1970, which nothing reads back as dates."""
    return DataError(
        f"{table.source}: the target {table.schema.target.name!r} holds dates, and dtree learns classes or "
        "numbers: give the column to predict with --target, or take its dates as classes with --task classification"
    )


def check_table(table: Table, params: GrowParams) -> None:
    """Raise a DataError when ``table`` cannot be learned with ``params``."""
    if table.n_rows == 0:
        raise DataError(f"{table.source}: no data rows; the file has a header but no examples")
    labelled = table.labelled()
    if not labelled.any():
        raise DataError(f"{table.source}: every row lacks a value in the target column {table.schema.target.name!r}")
    if table.schema.target.time:
        raise date_target_error(table)
    if table.is_regression:
        if params.algorithm != "cart":
            raise numeric_class_error(table, params.algorithm)
        if params.chi2_alpha is not None:
            raise ParameterError(
                "--chi2-alpha tests a split's association with the classes; a regression tree "
                "has none: use --min-gain, --min-leaf or --max-depth to stop early"
            )
        from dtcli.induction.search.regression import check_regression_target  # only numeric targets need it

        check_regression_target(table)
    name = ALGORITHMS[params.algorithm].title
    for i, attribute in enumerate(table.attributes):
        if not attribute.is_nominal and not params.thresholds:
            raise DataError(
                f"{table.source}: column {attribute.name!r} is numeric, and {name} splits only "
                f"nominal attributes unless thresholds are on: use --algorithm c45 or "
                f"--thresholds midpoint, treat its values as categories with --nominal "
                f"{shlex.quote(attribute.name)}, or leave it out with --ignore {shlex.quote(attribute.name)}"
            )
        missing = table.missing_mask(i) & labelled
        if missing.any() and params.missing == "reject":
            first = table.where(int(np.flatnonzero(missing)[0]))
            raise DataError(
                f"{table.source}: column {attribute.name!r} has {int(missing.sum())} missing "
                f"value(s) (the first at {first}), and {name} is set to reject them: choose "
                f"--missing fractional|majority|class-majority|root-majority, fill them in, or leave the column "
                f"out with --ignore {shlex.quote(attribute.name)}"
            )


PRUNING = ("pessimistic", "reduced-error", "none")  # training-time pruning, as --prune offers it


def train(
    table: Table,
    grow: GrowParams,
    prune: PruneParams = DEFAULT_PRUNING,
    engine: str = "auto",
    progress=None,
    record: bool = True,
    narrate: bool = False,
) -> tuple[Tree, list[str]]:
    """Train a tree; returns it with any warnings (as text, for the caller to show).

    ``grow`` (e.g. from ``grow_params``) governs growth. ``prune.method``
    (default: the algorithm's; C4.5 prunes pessimistically, as J48) may be
    ``none``, ``pessimistic`` (with ``cf``, ``raising``, ``error_bound``) or
    ``reduced-error`` (a stratified ``holdout`` share of the rows, drawn with
    ``seed``, is kept aside for validation and the tree grown on the rest).
    The pruning decisions are left in ``tree.trace`` (``record=False`` lets
    large trees skip that list). ``engine`` (auto, reference, compiled) is
    the request ``backend`` chooses the grower by; large tables grow level by
    level (``progress(level, nodes, records, seconds)`` is called once per
    level; ``progress.compiling(seconds)``, if it has that method, before kernels not in this
    machine's cache compile, with about how long that takes) and stay arrays until pruned, so that
    only the final tree becomes Nodes.
    ``narrate`` puts a ``GrowStep`` for every node first in ``tree.trace`` (``grow/narrate.py``;
    the per-node grower grows the tree then, and rows are named by their index in ``table``).
    """
    check_engine(engine)
    table = table.saturated()
    if narrate:
        table = replace(table, origin=np.arange(table.n_rows))
    method = prune.method or ALGORITHMS[grow.algorithm].prune
    if method == "reduced-error":
        return _train_reduced_error(table, grow, prune, engine, progress, narrate)
    return _grow_and_prune(table, grow, prune, method, engine, progress, record, narrate)


def _grow_and_prune(
    table: Table,
    params: GrowParams,
    prune: PruneParams,
    method: str,
    engine: str,
    progress,
    record: bool,
    narrate: bool = False,
) -> tuple[Tree, list[str]]:
    """``train`` for every pruning ``method`` but reduced-error."""
    check_grow(params)
    check_table(table, params)
    warnings = []
    unlabelled = int((~table.labelled()).sum())
    if unlabelled:
        warnings.append(f"{table.source}: {unlabelled} row(s) without a class value were left out")
    if method not in PRUNING:
        raise ParameterError(f"unknown pruning {method!r}; choose from {', '.join(PRUNING)}")
    if method == "pessimistic":
        check_pessimistic(prune, table.is_regression)
    missing = backend.unavailable(engine)
    if missing:
        warnings.append(missing)
    if params.algorithm == "cart" and params.ties == "sklearn":
        from dtcli.induction.search.single_dates import merged_times

        warnings.extend(merged_times(table))
    growth_trace: list = []
    training = {
        # a file name that is not UTF-8 (its bytes reach Python as lone surrogates) is kept readable: \xff
        "source": table.source.rsplit("/", 1)[-1]
        .encode("utf-8", "surrogateescape")
        .decode("utf-8", "backslashreplace"),
        "rows": int(table.labelled().sum()),
        "sha256": table.sha256,
    }
    choice = backend.choose(table, params, engine, narrate)
    levelwise = choice == backend.LEVELWISE
    engine_bins = levelwise and params.algorithm == "c45" and params.missing not in NODE_FILL  # (filled per node:
    binning = bool(params.max_bins) and not engine_bins  # the engine grows on the binned table, as the reference)
    data = table
    if binning:  # growth-only modules are imported where they are used: dtree gain and small runs import less
        from dtcli.induction.search.bins import bin_table, snap

        data = bin_table(table, params.max_bins)
    _announce(progress, backend.compile_seconds(data, params, choice, False, engine))  # (pruning's: once grown)
    grown, choice = backend.grow_watched(data, params, choice, engine, progress, growth_trace, narrate)
    levelwise = choice == backend.LEVELWISE  # (a watched reference may have given way to an engine)
    release(table.n_rows)  # growth's records and sorted lists are gone: pruning starts from the table alone
    flat = grown if levelwise else None
    pessimistic = method == "pessimistic"  # (compiled or not as the grown tree's size says it costs)
    if flat is not None:
        if params.collapse:
            from dtcli.induction.grow.flat import collapse as flat_collapse

            flat_collapse(flat)
        compiled = pessimistic and backend.compiled_pruning(data, engine, True, backend.grown_size(flat=flat))
        root = None if compiled else flat.to_nodes()
        flat = flat if compiled else None
    else:
        root = collapse(grown) if params.collapse else grown
        compiled = pessimistic and backend.compiled_pruning(data, engine, None, backend.grown_size(root=root))
    tree = Tree(table.schema, root, params.algorithm, params.as_dict(), training, trace=growth_trace)
    if pessimistic:
        if compiled:
            _announce(progress, backend.pruning_compile_seconds(data))
        tree, steps = pessimistic_prune(
            tree,
            data,
            prune.cf,
            prune.raising,
            prune.error_bound,
            in_place=True,
            flat=flat,
            record=record,
            engine=engine,
            compiled=compiled,
        )
        tree.trace = growth_trace + steps
        release(table.n_rows)  # the cases pruning sent down the tree
    if binning:
        snap(tree.root, data)
    return tree, warnings


def _announce(progress, seconds: float) -> None:
    """Tell ``progress`` (its ``compiling(seconds)``, when it has one) that kernels are about to compile."""
    if seconds > 0 and hasattr(progress, "compiling"):
        progress.compiling(seconds)


def regrow(tree: Tree, table: Table, engine: str = "auto"):
    """Grow a new root on ``table`` with the parameters ``tree`` was grown with (a model file's
    parameters that could not have grown a tree are a ModelFormatError)."""
    try:
        params = params_from_dict(tree.parameters)
        check_grow(params)
    except ParameterError as exc:
        raise ModelFormatError(f"the model's parameters cannot grow a tree again: {exc}") from None
    from dtcli.induction.search.bins import bin_table, snap

    table = table.saturated()
    data = bin_table(table, params.max_bins) if params.max_bins else table
    root = backend.grow_nodes(data, params, engine)
    root = collapse(root) if params.collapse else root
    return snap(root, data) if params.max_bins else root


def _train_reduced_error(
    table: Table, params: GrowParams, prune: PruneParams, engine: str, progress, narrate: bool = False
) -> tuple[Tree, list[str]]:
    from dtcli.induction.prune.reduced_error.prune import reduced_error_prune, stratified_holdout

    check_reduced_error(prune, table.is_regression)
    rows, held = stratified_holdout(table, prune.holdout, prune.seed)
    if len(held) == 0 or len(rows) == 0:
        raise ParameterError(f"--holdout {prune.holdout:g} leaves no rows on one side; use more data or another share")
    tree, warnings = _grow_and_prune(
        table.take(rows), params, replace(prune, method="none"), "none", engine, progress, True, narrate
    )
    pruned, steps = reduced_error_prune(tree, table.take(held))
    pruned.parameters["pruning"].update(holdout=prune.holdout, seed=prune.seed)
    pruned.trace = tree.trace + steps  # growth (narration, chi-square tests), then pruning
    return pruned, warnings


def train_distributed(load, params, prune, scheduler: str | None, progress=None, judge=None):
    """``--engine dask``: (tree, warnings, (correct, rows)) trained on a Dask cluster from the table
    ``load(client, summed)`` puts there (``io/dask/frames.load``), the same model the local engines train
    with ``--max-bins`` (``judge``: ``distributed/train.train_dask``'s)."""
    from dtcli.induction.distributed.train import train_dask

    return train_dask(load, params, prune, scheduler, progress=progress, judge=judge)


def pessimistic_prune(tree, table, *args, engine: str = "auto", started: bool | None = None, **kwargs):
    """C4.5's pessimistic pruning (``prune/pessimistic/prune.py``, same arguments), compiled or not as
    ``backend.compiled_pruning`` decides for the request ``engine`` and the tree's size (unless the
    caller passes ``compiled``, decided already)."""
    from dtcli.induction.prune.pessimistic.prune import pessimistic_prune as reference_or_flat

    if kwargs.get("flat") is None and "compiled" not in kwargs:
        kwargs["compiled"] = backend.compiled_pruning(table, engine, started, backend.grown_size(root=tree.root))
    return reference_or_flat(tree, table, *args, **kwargs)

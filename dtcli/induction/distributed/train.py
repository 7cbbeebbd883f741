"""``dtree train DATA --engine dask``: read, bin and grow on a Dask cluster; the model as the local engine writes it.

Contract: ``train_dask(load, params, prune, scheduler)`` returns ``(Tree, warnings, (correct, rows))``,
the tree and warnings equal to what
``algorithms.train`` returns for the same file read locally with the same ``--max-bins`` (the model
file byte for byte; without ``--max-bins``, ``DEFAULT_BINS``, recorded as if given), for C4.5
classification, unpruned or pruned pessimistically (``prune.py``), missing values included (C4.5's
fractional cases, their weights on the grid of ``constants.on_grid``: every sum exact in any order),
and for CART classification, unpruned, with ties to the first column (``cart.py``); anything else is
refused with one line naming the option (``unsupported``), never a different tree. ``(correct,
rows)``: how many of the labelled rows the tree predicts right (the "Training set" line), as
``judge`` counts them where they lie (``pipeline/predict_dask.training_correct``), and how many there are.
"""

from __future__ import annotations

from dataclasses import replace

from dtcli.errors import DataError, ParameterError
from dtcli.induction.distributed.cluster import client as connect
from dtcli.induction.distributed.cluster import modules, summed
from dtcli.induction.distributed.engine import NoColumns, Shape, grow_dask
from dtcli.induction.distributed.quantiles import numeric_bins
from dtcli.induction.grow.flat import n_leaves
from dtcli.induction.memory import release
from dtcli.induction.params import check_grow, check_pessimistic
from dtcli.induction.prune.collapse import collapse
from dtcli.model.tree import Node, Tree

DEFAULT_BINS = 256  # --max-bins when --engine dask is given without it


def unsupported(params, prune) -> str | None:
    """Why the Dask engine cannot train with these options (None: it can; ``params`` with its bins: ``with_bins``)."""
    if params.algorithm not in ("c45", "cart"):
        return f"--algorithm {params.algorithm} (C4.5 and CART: --algorithm c45 or cart)"
    if params.chi2_alpha is not None:
        return "--chi2-alpha"
    if params.costs is not None:
        return "--costs"
    if params.algorithm == "cart":
        return _cart_unsupported(params, prune)
    if prune.method not in ("none", "pessimistic"):
        return f"--prune {prune.method} (it needs a hold-out drawn row by row: use --prune pessimistic or --no-prune)"
    if params.criterion == "gini":
        return "--criterion gini (use gain-ratio or gain)"
    if params.missing != "fractional":
        return f"--missing {params.missing} (only C4.5's own fractional cases)"
    return None


def _cart_unsupported(params, prune) -> str | None:
    if prune.method != "none":
        return f"--prune {prune.method} with --algorithm cart (CART grows unpruned here: leave --prune out)"
    if params.ties == "sklearn":
        return (
            "--ties sklearn (scikit-learn draws each node's attribute order in turn, depth first, and the "
            "cluster grows a level at a time: leave --ties out, or give --ties column)"
        )
    if params.missing != "majority":
        return f"--missing {params.missing} with --algorithm cart (only its default, majority: the heavier branch)"
    if params.max_leaves is not None:
        return "--max-leaves with --algorithm cart (it grows best first, node by node)"
    return None


def train_dask(load, params, prune, scheduler: str | None, progress=None, judge=None):
    """Train on the cluster; ``load(client, summed)`` puts the table there (``io/dask_frames.load``);
    ``prune``: PruneParams, its method given; ``judge(client, parts, tree)``, when given, counts the
    labelled rows the tree predicts right. Returns (tree, warnings, (correct or None, labelled rows))."""
    params = with_bins(params)
    check_grow(params)
    if prune.method == "pessimistic":
        check_pessimistic(prune, False)
    why = unsupported(params, prune)
    if why is not None:
        raise ParameterError(f"--engine dask does not support {why}")
    modules()
    with connect(scheduler) as client:
        table = load(client, summed)
        client.run(_give_back)  # the workers give back what reading took (the raw partitions, let go)
        _check(table.schema, table.n_rows, table.by_class, table.source)
        schema = table.schema
        n_numeric = sum(not a.is_nominal for a in schema.attributes)
        bins = numeric_bins(client, table.parts, n_numeric, params.max_bins)
        rows = int(table.by_class.sum())
        grown_leaves = None
        if params.algorithm == "cart":
            from dtcli.induction.distributed.cart import grow_cart_dask

            root = grow_cart_dask(client, table.parts, schema, params, bins, progress)
            tree = tree_of(schema, root, params, table.source, rows, table.sha256)
        else:
            shape = Shape(schema.attributes, schema.classes, table.n_rows, NoColumns(schema.attributes))
            pruning = prune if prune.method == "pessimistic" else None
            flat = grow_dask(client, table.parts, shape, params, bins, progress, pruning)
            tree = tree_of(schema, flat, params, table.source, rows, table.sha256)
            grown_leaves = n_leaves(flat)  # (grafts: their leaves as grown and collapsed)
        if prune.method == "pessimistic":
            from dtcli.induction.distributed.prune import prune_dask

            tree = prune_dask(client, table.parts, schema, tree, table.by_class, prune, grown_leaves)
        correct = None if judge is None else judge(client, table.parts, tree)
    return tree, _warnings(table.source, table.n_rows, rows), (correct, rows)


def _give_back() -> None:
    """Memory freed on a worker returned to the system: pyarrow's pool (it keeps what it freed) and the C heaps."""
    import pyarrow as pa

    pa.default_memory_pool().release_unused()
    release()


def with_bins(params):
    """``params`` with ``--max-bins DEFAULT_BINS`` when none is given (the model records it so)."""
    return replace(params, max_bins=DEFAULT_BINS) if params.max_bins is None else params


def _check(schema, n_rows: int, by_class, source: str) -> None:
    """``algorithms.check_table``'s refusals, from the counts."""
    if n_rows == 0:
        raise DataError(f"{source}: no data rows; the file has a header but no examples")
    if by_class.sum() == 0:
        raise DataError(f"{source}: every row lacks a value in the target column {schema.target.name!r}")


def _warnings(source: str, n_rows: int, rows: int) -> list[str]:
    unlabelled = n_rows - rows
    return [f"{source}: {unlabelled} row(s) without a class value were left out"] if unlabelled else []


def tree_of(schema, grown, params, source: str, rows: int, sha: str) -> Tree:
    """The Tree of ``grown``: C4.5's FlatTree, or CART's root Node (collapsed as ``algorithms.train`` does)."""
    if isinstance(grown, Node):
        root = collapse(grown) if params.collapse else grown
    else:
        if params.collapse:
            from dtcli.induction.grow.flat import collapse as flat_collapse

            flat_collapse(grown)
        root = grown.to_nodes()
    training = {"source": source, "rows": rows, "sha256": sha}
    return Tree(schema, root, params.algorithm, params.as_dict(), training, trace=[])

"""``Model.prune``: a model simplified as ``dtree prune`` does it (cost complexity, pessimistic, reduced error)."""

from __future__ import annotations

import os

import numpy as np

from dtcli.errors import DataError, ParameterError

METHODS = ("cost-complexity", "pessimistic", "reduced-error")


def labelled_table(schema, data, names=None, options=None):
    """``data`` encoded with ``schema``, its target column too (DataError without one): what pruning judges on."""
    from dtcli.api.data import encode_for, is_missing, table_for

    if isinstance(data, (str, os.PathLike)):
        from dtcli.api.data import limits
        from dtcli.io.encode import encode_for_schema, text_columns
        from dtcli.io.read import read_data

        options = options or {}
        raw = read_data(os.fspath(data), options.get("format_in"), text_columns(schema), limits(options))
        encoded = encode_for_schema(raw, schema)
        if not encoded.has_target:
            raise DataError(f"{data}: no column {schema.target.name!r}; pruning needs the target values")
        return encoded.table
    table, cells = table_for(schema, data, names, options)
    if cells is None:
        raise DataError(f"{table.source}: no column {schema.target.name!r}; pruning needs the target values")
    if schema.is_regression:
        table.y = encode_for(schema.target, cells, table.source)
    else:
        texts = [None if is_missing(c) else c if isinstance(c, str) else str(c) for c in cells]
        table.y = np.array([-1 if t is None else schema.target.code_of(t) for t in texts], dtype=np.int32)
    return table


def prune(model, method="cost-complexity", data=None, *, ccp_alpha=None, cv_folds=None, one_se=False, seed=0,
          cf=0.25, no_raise=False, error_bound="j48", engine="auto", names=None, **options):  # fmt: skip
    """The pruned tree (the core's) of ``model`` (``Model.prune`` wraps it)."""
    from dtcli.api.options import checked

    checked({"ccp_alpha": ccp_alpha, "cv_folds": cv_folds, "one_se": one_se, "seed": seed, "cf": cf,
             "no_raise": no_raise})  # fmt: skip
    tree = model.tree
    if method == "cost-complexity":
        from dtcli.induction.fit import cost_complexity
        from dtcli.induction.params import CostComplexity, check_cost_complexity

        if ccp_alpha is None and cv_folds is None:
            raise ParameterError("give ccp_alpha=A, or cv_folds=K with data=DATA")
        table = None
        if cv_folds is not None:
            if data is None:
                raise ParameterError("cv_folds needs the training data: data=DATA")
            table = labelled_table(tree.schema, data, names, options)
        ccp = CostComplexity(None if ccp_alpha is None else float(ccp_alpha), cv_folds, bool(one_se), int(seed))
        check_cost_complexity(ccp, int(table.labelled().sum()) if table is not None else None)
        pruned = cost_complexity(tree, table, ccp, engine)[0]
    elif method == "pessimistic":
        from dtcli.induction.algorithms import pessimistic_prune
        from dtcli.induction.params import check_pessimistic

        if data is None:
            raise ParameterError("pessimistic pruning needs the training data: data=DATA")
        table = labelled_table(tree.schema, data, names, options)
        from dtcli.induction.params import PruneParams

        params = PruneParams(cf=float(cf), raising=not no_raise, error_bound=error_bound)
        check_pessimistic(params, table.is_regression)
        pruned = pessimistic_prune(tree, table, params.cf, params.raising, params.error_bound, engine=engine)[0]
    elif method == "reduced-error":
        from dtcli.induction.prune.reduced_error.prune import reduced_error_prune

        if data is None:
            raise ParameterError("reduced-error pruning needs validation data: data=DATA")
        pruned = reduced_error_prune(tree, labelled_table(tree.schema, data, names, options))[0]
    else:
        raise ParameterError(f"unknown pruning method {method!r}; choose from {', '.join(METHODS)}")
    return pruned

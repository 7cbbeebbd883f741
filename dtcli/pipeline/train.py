"""A training run: numba's set-up beside the reading, growth with progress, cost complexity and the trace, Dask."""

from __future__ import annotations

PARSE_WAIT = 60.0  # seconds the set-up waits for the CSV parse to begin (a file that fails to read: never)


def prepare_engines(data: str, format_in: str | None, engine: str) -> None:
    """For a table large enough for the compiled engines (a file ``data`` over a MiB) and the request
    ``engine``, begin numba's set-up while DATA is read (``induction/kernels/setup.py``)."""
    import os

    from dtcli.io.csv.reader import PLAIN_MAX

    try:
        large = engine != "reference" and os.path.getsize(data) > PLAIN_MAX
    except (OSError, ValueError):
        return  # (standard input, a missing file: the reading says what is wrong)
    if not large:
        return
    csv = (format_in or os.path.splitext(data)[1].lstrip(".")).lower() == "csv"
    if csv:
        from dtcli.io.pandas_import import pandas

        pandas()  # first, here: the set-up's imports never run beside pandas' own
    import threading

    from dtcli.induction.memory import release
    from dtcli.io.csv.reader import PARSING

    release()  # (first: one heap for all threads, or the set-up strands about 20 MB in a heap of its own)
    PARSING.clear()
    threading.Thread(target=_set_up, args=(PARSING if csv else None,), name="dtree-numba-set-up", daemon=True).start()


def _set_up(parsing) -> None:
    """numba's set-up (``induction/kernels/setup.py``), once ``parsing`` (when given) says the CSV file's
    records are found: the record scan holds the GIL between its numpy steps, and the set-up beside it
    (Python, 0.3 s) made it take 0.45 s instead of 0.15 s on a million rows; pandas' C parser does not."""
    from dtcli.induction.kernels.setup import set_up

    if parsing is not None:
        parsing.wait(timeout=PARSE_WAIT)
    set_up()


def grow(learner, table, progress=None, narrate: bool = False):
    """(tree, warnings): the core's ``learner`` grown on ``table`` and pruned after growth, before cost
    complexity (``Learner.grow``); ``progress`` (a ``render.progress.TrainingProgress``, or None: silent)
    is closed after it, ``narrate`` records the trace."""
    try:
        return learner.grow(table, progress, narrate)
    finally:
        if progress is not None:
            progress.close()


def cost_complexity_result(tree, table, ccp, engine: str = "auto"):
    """(pruned tree, cp table rows, the row chosen by cross-validation or None), options checked."""
    from dtcli.induction.fit import cost_complexity
    from dtcli.induction.params import check_cost_complexity

    check_cost_complexity(ccp, int(table.labelled().sum()) if table is not None else None)
    return cost_complexity(tree, table, ccp, engine)


def record_weighting(tree, column, class_weight):
    """``tree`` with the case weights' column and the class weights (None, ``balanced`` or {class: weight})
    in its parameters, as the model file records them (``induction.weights.recorded``)."""
    from dtcli.induction.weights import recorded

    tree.parameters.update(recorded(column, class_weight))
    return tree


def cv_text(ccp, rows, chosen) -> None:
    """The cost-complexity cross-validation table on standard error, as text."""
    from dtcli.render.ccp import cp_table
    from dtcli.render.console import info

    info(
        f"Cost-complexity pruning, {ccp.folds}-fold cross-validation (seed {ccp.seed})"
        + (", 1-SE rule" if ccp.one_se else "")
        + ":"
    )
    info(cp_table(rows, chosen).rstrip("\n"))


def prune_and_trace(grown, table, ccp, engine, tracing, document):
    """The tree after --ccp-alpha/--cv-folds, and the trace written. ``tracing``: (-f, the --id cells or
    False without --trace, --trace-file); ``document(text, path=None)`` writes a JSON document to standard
    error or ``path``. With -f json the trace is one dtree-trace document, the cost-complexity table in it;
    without a trace on standard error the CV table goes there as dtree-cp."""
    fmt, ids, path = tracing
    tracing = ids is not False
    if tracing and fmt != "json":
        write_trace(grown, ids, path)
    if not ccp.wanted:
        cv = None
        tree = grown
    elif fmt != "json":
        tree, rows, chosen = cost_complexity_result(grown, table, ccp, engine)
        if ccp.folds:
            cv_text(ccp, rows, chosen)
        return tree
    else:
        import json

        from dtcli.render.ccp import cp_json, cp_settings

        tree, rows, chosen = cost_complexity_result(grown, table, ccp, engine)
        cv = cp_json(rows, chosen, cp_settings(ccp, tree.parameters["pruning"]["alpha"]))
        if ccp.folds and (path or not tracing):
            document(cv)
        cv = {k: v for k, v in json.loads(cv).items() if k not in ("format", "schema_version")}
    if tracing and fmt == "json":
        from dtcli.render.trace import train_trace_json

        document(train_trace_json(grown, ids, cv), path or None)
    return tree


def write_trace(tree, ids, path) -> None:
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


def train_dask(source, params, pruning, task: str, scheduler, judge):
    """(tree, warnings, (correct, rows)) from the Dask engine on ``source``'s DATA (its ``data``, ``target``,
    ``ignore``, ``nominal`` and ``limits``), grown with ``params`` and pruned with ``pruning`` (its method
    given) on the cluster at ``scheduler`` (None: a local one); ``judge``: ``train_distributed``'s."""
    from dtcli.induction.algorithms import train_distributed

    columns = (source.target, source.ignore, source.nominal)

    def load(client, summed):
        from dtcli.io.dask.frames import load as load_on

        return load_on(
            client, source.data, columns, summed, task=task, dialect=(source.limits.sep, source.limits.decimal)
        )

    return train_distributed(load, params, pruning, scheduler, judge=judge)


def training_line(tree, table) -> str:
    """``Training set: 13 of 14 correct (92.9%)``: the tree on its own training rows (with a known class);
    for regression, the RMSE and MAE."""
    import numpy as np

    from dtcli.evaluate.resubstitution import leaf_correct
    from dtcli.induction.predict.apply import predict_proba, proba_chunks

    counted = leaf_correct(tree, table)  # CART's rows each reach the leaf that counted them
    if counted is not None:
        return accuracy_line(counted, int(table.labelled().sum()))
    known = table.labelled()
    every = bool(known.all())  # the table itself, not a copy of it (on a million rows: 140 MB more)
    rows = table if every else table.take(known)
    actual = table.y if every else table.y[known]
    if not table.is_regression:
        # the rows descend a chunk at a time, each chunk counted as it comes (the probabilities of
        # every row at once, and their classes, took 33 MB more on a million rows)
        correct = sum(
            int((part.argmax(axis=1) == actual[start:stop]).sum()) for start, stop, part in proba_chunks(tree, rows)
        )
        return accuracy_line(correct, len(actual))
    # a chunk at a time, as in the compiled kernel: a whole table's records at once took 130 MB
    predicted = predict_proba(tree, rows, done=lambda n: None)[:, 0]
    errors = predicted - actual
    rmse, mae = float(np.sqrt(np.mean(errors**2))), float(np.mean(np.abs(errors)))
    return f"Training set: RMSE {rmse:.4g}, MAE {mae:.4g} on {len(actual):,} rows"


def accuracy_line(correct: int, total: int) -> str:
    """``Training set: 13 of 14 correct (92.9%)``."""
    return f"Training set: {correct:,} of {total:,} correct ({100 * correct / total:.1f}%)"

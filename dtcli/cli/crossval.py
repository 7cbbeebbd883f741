"""Judging a way of training on unseen rows: --cv, --split, --test and --jobs, shared by evaluate and train.

``Scheme`` is what the options ask for; ``judge(scheme, source, training, table)``
trains with the ``Training`` as ``dtree train`` would and returns the parts to
report (one ``Predictions`` a fold, or one for the split or the test file) and the
``about`` dict ``render.evaluation.evaluation_output`` prints above the report:
the method, the folds and seed, and the mean and standard deviation of the folds'
accuracy and tree sizes.
"""

from __future__ import annotations

from dataclasses import dataclass

import click

from dtcli.errors import ParameterError

DEFAULT_FOLDS = 10


@dataclass(frozen=True)
class Scheme:
    """--cv K, --split F or --test FILE (at most one), and --jobs N."""

    folds: int | None
    split: float | None
    test: str | None
    jobs: int | None

    @property
    def given(self) -> bool:
        return self.folds is not None or self.split is not None or self.test is not None

    @property
    def method(self) -> str:
        return "test-set" if self.test else "split" if self.split is not None else "cross-validation"

    def check(self) -> None:
        """One way of judging at most; --jobs at least 1."""
        named = [name for name, value in (("--cv", self.folds), ("--split", self.split), ("--test", self.test))
                 if value is not None]  # fmt: skip
        if len(named) > 1:
            raise ParameterError(f"{named[0]} and {named[1]} are two ways of judging the tree: give one of them")
        if self.jobs is not None and self.jobs < 1:
            raise ParameterError(f"--jobs {self.jobs}: give the number of processes, 1 or more")

    def workers(self, alone: bool = False) -> int:
        """--jobs, else 1 when the folds are done sooner in this process (``alone``: a small table,
        ``estimates.folds_in_one_process``), else the cores this process may use."""
        if self.jobs is not None or alone:
            return self.jobs or 1
        from dtcli.induction.workers import usable_cores

        return usable_cores()


def _scheme(cv, split, test_data, jobs) -> Scheme:
    return Scheme(cv, split, test_data, jobs)


def scheme_options(cv_help: str, command: str = "evaluate"):
    """--cv, --split, --test and --jobs as a Scheme ``scheme`` (``cv_help``: the command's words for --cv)."""
    from dtcli.cli.options import option_group

    return option_group(
        "scheme",
        _scheme,
        click.option("--cv", type=int, metavar="K", help=cv_help),
        click.option(
            "--split",
            type=float,
            metavar="F",
            help=("After the tree, judge" if command == "train" else "Judge")
            + " a tree trained on the share F of DATA's rows (stratified by class, drawn with --seed) on the "
            "other rows (e.g. 0.66; Weka's -split-percentage 66).",
        ),
        click.option(
            "--test",
            "test_data",
            metavar="FILE",
            help=("After the tree, judge it" if command == "train" else "Judge a tree trained on all of DATA")
            + " on FILE (a CSV, ARFF or Parquet file with the same columns; Weka's -T).",
        ),
        click.option(
            "--jobs",
            type=int,
            metavar="N",
            help="Run the --cv folds in N processes (default: the number of cores this process may use); "
            "the results are the same for any N.",
        ),
    )


def judge(scheme: Scheme, source, training, table, progress=None, quiet: bool = False):
    """(parts, about, warnings): ``training`` judged on ``table`` (read from ``source``) as ``scheme`` asks;
    the folds of --cv show a progress bar on a terminal (render.progress) unless ``progress`` or ``quiet``."""
    from dtcli.evaluate import crossval

    learner = training.learner(table)
    fit = learner.fit
    seed = training.seed
    about = {"data": source.data, "method": scheme.method, "algorithm": training.growth.algorithm}
    if scheme.test:
        judged = _test_file(scheme.test, source, fit, table)
        about["test_data"] = scheme.test
    elif scheme.split is not None:
        judged = crossval.percentage_split(fit, table, scheme.split, seed)
        about.update(split=scheme.split, seed=seed)
    else:
        folds = scheme.folds if scheme.folds is not None else DEFAULT_FOLDS
        from dtcli.induction import backend, estimates
        from dtcli.render.progress import steps

        backend.prepare(table, learner.grow_params, learner.engine, folds)  # (the folds share the engines' start)

        with steps("cross-validation", folds, quiet=quiet or progress is not None) as work:
            done = progress or (lambda completed, total: work.update(completed=completed))
            alone = estimates.folds_in_one_process(backend.kind_of(table, learner.grow_params), table, folds)
            judged = crossval.cross_validate(fit, table, folds, seed, scheme.workers(alone), done)
        about.update(folds=folds, seed=seed)
    about.update(_spreads(judged))
    warnings = list(judged.warnings)
    if judged.unlabelled:
        warnings.append(f"{table.source}: {judged.unlabelled} row(s) without a class value were left out")
    return judged.predictions, about, warnings


def _spreads(judged) -> dict:
    """fold_accuracy (classification), tree_size (nodes) and leaves: mean, sd and the value of each part."""
    out = {}
    names = (("fold_accuracy", "accuracy"), ("tree_size", "nodes"), ("leaves", "leaves"))
    for key, name in names:
        values = [getattr(part, name) for part in judged.parts]
        if key == "fold_accuracy" and (judged.parts[0].predictions.regression or len(values) < 2):
            continue
        mean, sd = judged.spread(name)
        out[key] = {"mean": mean, "sd": sd if len(values) > 1 else None, "values": values}
    return out


def _test_file(path: str, source, fit, table):
    """Train on all of ``table``, judge on the file ``path`` (read for the tree's columns)."""
    from dtcli.evaluate.crossval import Judged, trained_and_tested
    from dtcli.io.encode import encode_for_schema, text_columns
    from dtcli.io.read import read_data
    from dtcli.model.colnames import near_clause
    from dtcli.render.console import warn

    raw = read_data(path, source.format_in, text_columns(table.schema), source.limits)
    encoded = encode_for_schema(raw, table.schema)
    if not encoded.has_target:
        target = table.schema.target.name
        raise ParameterError(
            f"{raw.source}: has no column {target!r} (the target) to judge against"
            + near_clause(target, list(raw.frame.columns))
        )
    for name, count in encoded.unseen.items():
        warn(f"{raw.source}: column {name!r}: {count} value(s) never seen in training, treated as missing")
    training = table.take(table.labelled())
    part = trained_and_tested(fit, training, encoded.table, encoded.labels, encoded.actual)
    return Judged([part], int((~table.labelled()).sum()), part.warnings)


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

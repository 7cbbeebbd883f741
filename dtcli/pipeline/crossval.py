"""Judging a way of training on unseen rows: cross-validation, a split or a test file (evaluate, train, the API).

``Scheme`` is what is asked for (--cv K, --split F or --test FILE, and --jobs N);
``judge(scheme, learner, table, data, algorithm)`` fits the core's ``Learner`` as
``dtree train`` would and returns the parts to report (one ``Predictions`` a fold,
or one for the split or the test file) and the ``about`` dict
``render.evaluation.evaluation_output`` prints above the report: the method, the
folds and seed, and the mean and standard deviation of the folds' accuracy and tree
sizes.
"""

from __future__ import annotations

from dataclasses import dataclass

from dtcli.errors import ParameterError
from dtcli.io.source import DEFAULT_LIMITS

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


def judge(scheme: Scheme, learner, table, data: str, algorithm: str, reading=None, progress=None, quiet=False):
    """(parts, about, warnings): the core's ``learner`` judged on ``table`` (read from ``data``; ``algorithm``:
    its name in the report) as ``scheme`` asks; ``reading``: (--format-in, Limits) of a --test file. The folds
    of --cv call ``progress(completed, total)``, or show a progress bar on a terminal (render.progress) unless
    ``quiet``."""
    from dtcli.evaluate import crossval
    from dtcli.induction.algorithms import check_table

    check_table(table, learner.grow_params)  # what no part can be learned from is said of the file, not of fold 1
    fit = learner.fit
    seed = learner.ccp.seed
    about = {"data": data, "method": scheme.method, "algorithm": algorithm}
    if scheme.test:
        judged = _test_file(scheme.test, reading or (None, DEFAULT_LIMITS), fit, table)
        about["test_data"] = scheme.test
    elif scheme.split is not None:
        judged = crossval.percentage_split(fit, table, scheme.split, seed)
        about.update(split=scheme.split, seed=seed)
    else:
        folds = scheme.folds if scheme.folds is not None else DEFAULT_FOLDS
        from dtcli.induction import backend, estimates, workers
        from dtcli.render.progress import steps

        backend.prepare(table, learner.grow_params, learner.engine, folds)  # (the folds share the engines' start)

        with steps("cross-validation", folds, quiet=quiet or progress is not None) as work:
            done = progress or (lambda completed, total: work.update(completed=completed))
            kind = backend.kind_of(table, learner.grow_params)
            alone = estimates.folds_in_one_process(kind, table, folds, workers.spare_core())
            judged = crossval.cross_validate(fit, table, folds, seed, scheme.workers(alone), done)
        about.update(folds=folds, seed=seed)
    about.update(spreads(judged))
    warnings = list(judged.warnings)
    if judged.unlabelled:
        warnings.append(f"{table.source}: {judged.unlabelled} row(s) without a class value were left out")
    return judged.predictions, about, warnings


def spreads(judged) -> dict:
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


def _test_file(path: str, reading, fit, table):
    """Train on all of ``table``, judge on the file ``path`` (read for the tree's columns; ``reading``:
    --format-in and Limits)."""
    from dtcli.evaluate.crossval import Judged, trained_and_tested
    from dtcli.io.encode import encode_for_schema, text_columns
    from dtcli.io.read import read_data
    from dtcli.model.colnames import near_clause
    from dtcli.render.console import warn

    format_in, limits = reading
    raw = read_data(path, format_in, text_columns(table.schema), limits)
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

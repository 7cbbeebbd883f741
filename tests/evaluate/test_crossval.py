"""Cross-validation runs each fold as train would, tests every row once, and gives the same for any --jobs."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from dtcli.errors import DataError
from dtcli.evaluate.crossval import cross_validate, percentage_split
from dtcli.evaluate.folds import stratified_folds
from dtcli.induction.algorithms import grow_params, train
from dtcli.induction.fit import Learner
from dtcli.induction.params import CostComplexity, PruneParams
from helpers import SAMPLES, WEKA, load


@pytest.fixture(scope="module")
def iris():
    return load(SAMPLES / "iris.csv")


def test_every_labelled_row_is_tested_once_by_a_tree_trained_on_the_others(iris):
    table = replace(iris, origin=np.arange(iris.n_rows))
    seen = []

    def fit(part):
        seen.append(part.origin.copy())
        return Learner(grow_params("c45")).fit(part)

    judged = cross_validate(fit, table, 5, 3)
    fold = stratified_folds(table.y, table.labelled(), 5, 3)
    for i, rows in enumerate(seen):
        assert np.array_equal(rows, np.flatnonzero(fold != i))
    assert sum(len(p.actual) for p in judged.predictions) == iris.n_rows
    tested = np.sort(np.concatenate([table.y[fold == i] for i in range(5)]))
    assert np.array_equal(np.sort(np.concatenate([p.actual for p in judged.predictions])), tested)


def test_a_fold_is_judged_by_the_tree_train_grows_on_its_training_rows(iris):
    fold = stratified_folds(iris.y, iris.labelled(), 4, 0)
    judged = cross_validate(Learner(grow_params("c45")).fit, iris, 4, 0)
    for i, part in enumerate(judged.parts):
        rows = iris.take(fold != i)
        tree, _ = train(rows, grow_params("c45"))
        assert part.nodes == tree.root.n_nodes() and part.leaves == tree.root.n_leaves()
        assert part.predictions.prior.tolist() == np.bincount(rows.y, minlength=3).tolist()  # the training counts
        held = iris.y[fold == i]
        assert part.accuracy == pytest.approx(float((part.predictions.predicted == held).mean()))


def test_the_learner_prunes_as_asked_in_every_fold(iris):
    from dtcli.induction.fit import cost_complexity

    fold = stratified_folds(iris.y, iris.labelled(), 5, 0)
    unpruned = cross_validate(Learner(grow_params("c45"), PruneParams(method="none")).fit, iris, 5, 0)
    pruned = cross_validate(Learner(grow_params("c45")).fit, iris, 5, 0)
    assert sum(p.nodes for p in unpruned.parts) > sum(p.nodes for p in pruned.parts)
    ccp = CostComplexity(alpha=0.02)
    for i, part in enumerate(cross_validate(Learner(grow_params("cart"), ccp=ccp).fit, iris, 5, 0).parts):
        rows = iris.take(fold != i)
        tree = cost_complexity(train(rows, grow_params("cart"))[0], rows, ccp)[0]
        assert (part.nodes, part.leaves) == (tree.root.n_nodes(), tree.root.n_leaves())


def test_results_are_the_same_for_one_and_two_processes():
    table = load(WEKA / "data" / "credit-g.arff")
    fit = Learner(grow_params("c45")).fit
    one, two = (cross_validate(fit, table, 6, 11, jobs) for jobs in (1, 2))
    for a, b in zip(one.parts, two.parts, strict=True):
        assert (a.nodes, a.leaves, a.warnings) == (b.nodes, b.leaves, b.warnings)
        for name in ("actual", "predicted", "proba", "prior"):
            assert np.array_equal(getattr(a.predictions, name), getattr(b.predictions, name))


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failing_fold_is_one_error_naming_the_first_failing_fold(iris, jobs):
    table = replace(iris, origin=np.arange(iris.n_rows))

    def fit(part):
        if part.origin[:3].tolist() != [0, 1, 2]:  # the folds that test one of the first three rows fail
            raise DataError("data.csv: no good")
        return Learner(grow_params("c45")).fit(part)

    fold = stratified_folds(iris.y, iris.labelled(), 5, 0)
    first = int(fold[:3].min())
    with pytest.raises(DataError, match=f"^cross-validation fold {first + 1} of 5: data.csv: no good$"):
        cross_validate(fit, table, 5, 0, jobs)


def test_regression_folds_have_the_training_mean_as_prior():
    table = load(SAMPLES / "iris.csv", "petalwidth", task="regression")
    judged = cross_validate(Learner(grow_params("cart")).fit, table, 3, 0)
    fold = stratified_folds(table.y, table.labelled(), 3, 0, stratify=False)
    for i, part in enumerate(judged.parts):
        assert part.predictions.regression and np.isnan(part.accuracy)
        assert part.predictions.prior[0] == pytest.approx(table.y[fold != i].mean())


def test_the_percentage_split_trains_on_the_share(iris):
    judged = percentage_split(Learner(grow_params("c45")).fit, iris, 0.66, 0)
    (part,) = judged.parts
    assert len(part.predictions.actual) == 150 - 99
    assert part.predictions.prior.tolist() == [33, 33, 33]

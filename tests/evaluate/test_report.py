"""The evaluation report on examples worked by hand (Weka's definitions, Evaluation.java of Weka 3.6)."""

from __future__ import annotations

import math
from itertools import product

import numpy as np
import pytest

from dtcli.evaluate.predictions import Predictions
from dtcli.evaluate.report import kappa, report
from dtcli.evaluate.roc import roc_area

CLASSES = ("a", "b")


def two_class(prior=(6.0, 2.0)) -> Predictions:
    # P(a) per row; actual a, a, a, b, b; predicted a, a, b, a, b
    p = np.array([0.9, 0.6, 0.4, 0.6, 0.2])
    proba = np.column_stack([p, 1 - p])
    return Predictions(
        np.array([0, 0, 0, 1, 1]), proba.argmax(axis=1), proba, CLASSES, CLASSES, np.array(prior, dtype=float)
    )


def test_summary_by_hand():
    r = report([two_class()])
    assert (r.total, r.correct, r.incorrect, r.unclassified, r.ignored) == (5, 3, 2, 0, 0)
    assert r.matrix.tolist() == [[2, 1], [1, 1]]
    assert r.accuracy == pytest.approx(0.6) and r.error_rate == pytest.approx(0.4)
    # rows 3, 2; columns 3, 2: chance (9 + 4) / 25 = 0.52; kappa (0.6 - 0.52) / 0.48
    assert r.kappa == pytest.approx(1 / 6)
    # |p - t| summed over the 2 classes and halved: 0.1, 0.4, 0.6, 0.6, 0.2
    assert r.mean_absolute_error == pytest.approx(1.9 / 5)
    assert r.root_mean_squared_error == pytest.approx(math.sqrt(0.93 / 5))
    # prior: counts 6, 2 plus one each -> 0.7, 0.3; its errors 0.3 (class a rows) and 0.7 (class b)
    assert r.relative_absolute_error == pytest.approx((1.9 / 5) / (2.3 / 5))
    # squared: 0.09 (a) and 0.49 (b): mean 1.25 / 5 = 0.25, root 0.5
    assert r.root_relative_squared_error == pytest.approx(math.sqrt(0.93 / 5) / 0.5)


def test_per_class_by_hand():
    r = report([two_class()])
    a, b = r.per_class
    assert (a.support, a.predicted, b.support, b.predicted) == (3, 3, 2, 2)
    assert (a.tp_rate, a.fp_rate, a.precision, a.recall, a.f_measure) == pytest.approx(
        (2 / 3, 1 / 2, 2 / 3, 2 / 3, 2 / 3)
    )
    assert (b.tp_rate, b.fp_rate, b.precision, b.recall, b.f_measure) == pytest.approx(
        (1 / 2, 1 / 3, 1 / 2, 1 / 2, 1 / 2)
    )
    # a's scores 0.9, 0.6, 0.4 against b's 0.6, 0.2: 4.5 of 6 pairs (the 0.6 tie counts half)
    assert a.roc_area == pytest.approx(0.75) and b.roc_area == pytest.approx(0.75)
    assert r.weighted.tp_rate == pytest.approx(0.6)
    assert r.weighted.fp_rate == pytest.approx((3 * 0.5 + 2 / 3) / 5)
    assert r.weighted.precision == pytest.approx(0.6) and r.weighted.roc_area == pytest.approx(0.75)
    assert r.macro.precision == pytest.approx((2 / 3 + 1 / 2) / 2)


def test_missing_class_rows_are_ignored_and_unseen_labels_are_an_extra_class():
    labels = ("a", "b", "z")  # z: in the test file, never in training
    proba = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.5, 0.5]])
    part = Predictions(np.array([0, 1, 2, -1]), proba.argmax(axis=1), proba, labels, CLASSES, np.array([1.0, 1.0]))
    r = report([part])
    assert (r.total, r.correct, r.incorrect, r.ignored) == (3, 2, 1, 1)
    assert r.labels == labels and r.classes == CLASSES
    assert r.matrix.tolist() == [[1, 0], [0, 1], [1, 0]]
    z = r.per_class[2]
    assert not z.seen and z.recall == 0 and z.precision is None and z.f_measure == 0
    # three classes for the errors: row z has p = (1, 0, 0) against (0, 0, 1): |.| sums to 2, over 3 classes
    assert r.mean_absolute_error == pytest.approx((0 + 0 + 2 / 3) / 3)
    # the prior is (1+1, 1+1, 0+1) / 5 over the three labels
    prior = np.array([2, 2, 1]) / 5
    errors = [np.abs(prior - np.eye(3)[i]).sum() / 3 for i in range(3)]
    assert r.relative_absolute_error == pytest.approx(r.mean_absolute_error / (sum(errors) / 3))
    # ROC of a: the row of missing class counts as a negative (Weka 3.6): 1.0 against 0, 1.0 (tie), 0.5
    assert r.per_class[0].roc_area == pytest.approx(2.5 / 3)
    # kappa on the square matrix (z's column all zeros)
    assert r.kappa == pytest.approx(kappa(np.array([[1, 0, 0], [0, 1, 0], [1, 0, 0]])))


def test_zero_denominators_are_undefined_never_an_error():
    proba = np.array([[1.0, 0.0], [1.0, 0.0]])
    r = report([Predictions(np.array([0, 0]), np.array([0, 0]), proba, CLASSES, CLASSES, np.array([2.0, 0.0]))])
    a, b = r.per_class
    assert a.fp_rate is None and a.roc_area is None  # no negatives
    assert b.tp_rate is None and b.precision is None and b.f_measure is None and b.roc_area is None
    assert r.kappa == 1.0  # Weka: chance agreement 1 gives kappa 1
    assert r.weighted.roc_area == 0.0  # Weka leaves undefined areas out of the weighted sum
    empty = report([Predictions(np.array([-1]), np.array([0]), proba[:1], CLASSES, CLASSES, np.array([1.0, 1.0]))])
    assert empty.total == 0 and empty.ignored == 1
    assert empty.accuracy is None and empty.kappa is None and empty.mean_absolute_error is None
    assert empty.relative_absolute_error is None and empty.weighted.precision is None


def test_unknown_prior_leaves_the_relative_errors_undefined():
    r = report([two_class(prior=())])
    assert r.relative_absolute_error is None and r.root_relative_squared_error is None
    assert r.mean_absolute_error == pytest.approx(0.38)


def test_all_zero_probabilities_are_unclassified():
    proba = np.array([[0.0, 0.0], [1.0, 0.0]])
    r = report([Predictions(np.array([0, 0]), np.array([0, 0]), proba, CLASSES, CLASSES, np.array([1.0, 1.0]))])
    assert (r.total, r.correct, r.incorrect, r.unclassified) == (2, 1, 0, 1)
    assert r.accuracy == 0.5 and r.matrix.tolist() == [[1, 0], [0, 0]]
    assert r.mean_absolute_error == 0.0  # over the classified row only, as Weka


def test_folds_pool_counts_and_each_keeps_its_prior():
    # Weka's crossValidateModel: setPriors(train) per fold, counts and predictions pooled
    first, second = two_class(prior=(6.0, 2.0)), two_class(prior=(1.0, 1.0))
    r = report([first, second])
    assert r.total == 10 and r.matrix.tolist() == [[4, 2], [2, 2]] and r.parts == 2
    # the second fold's prior is (1+1, 1+1) / 4 = (0.5, 0.5): an error of 0.5 for each of its rows
    assert r.relative_absolute_error == pytest.approx((3.8 / 10) / ((2.3 + 5 * 0.5) / 10))
    assert r.per_class[0].roc_area == pytest.approx(0.75)


def test_parts_with_labels_in_another_order_are_aligned_by_name():
    p = np.array([[0.9, 0.1], [0.2, 0.8]])
    one = Predictions(np.array([0, 1]), np.array([0, 1]), p, CLASSES, CLASSES, np.array([1.0, 1.0]))
    swapped = Predictions(np.array([1, 0]), np.array([1, 0]), p[:, ::-1], ("b", "a"), ("b", "a"), np.array([1.0, 1.0]))
    assert report([one, swapped]).matrix.tolist() == [[2, 0], [0, 2]]


def test_roc_area_is_the_share_of_ordered_pairs_ties_half():
    rng = np.random.default_rng(7)
    for _ in range(50):
        n = int(rng.integers(2, 30))
        scores = rng.integers(0, 5, n) / 4  # many ties
        positive = rng.random(n) < 0.4
        pos, neg = scores[positive], scores[~positive]
        if not len(pos) or not len(neg):
            assert roc_area(scores, positive) is None
            continue
        pairs = [(p > q) + 0.5 * (p == q) for p, q in product(pos, neg)]
        assert roc_area(scores, positive) == pytest.approx(sum(pairs) / len(pairs))


def test_kappa_of_textbook_table():
    # 35 of 50 agree (0.7); rows 25, 25, columns 30, 20: chance (25*30 + 25*20) / 2500 = 0.5 -> kappa 0.4
    assert kappa(np.array([[20, 5], [10, 15]])) == pytest.approx(0.4)


def test_regression_by_hand():
    # actual 1, 2, 4, nan; predicted 2, 2, 3, 5; training mean 2 (Weka's numeric prior)
    part = Predictions(np.array([1.0, 2.0, 4.0, np.nan]), np.array([2.0, 2.0, 3.0, 5.0]), None, (), (), np.array([2.0]))
    r = report([part])
    assert (r.total, r.ignored, r.unclassified) == (3, 1, 0)
    assert r.mean_absolute_error == pytest.approx(2 / 3)  # errors 1, 0, 1
    assert r.root_mean_squared_error == pytest.approx(math.sqrt(2 / 3))
    # the mean 2 errs by 1, 0, 2: mean 1, squares 5/3
    assert r.relative_absolute_error == pytest.approx((2 / 3) / 1)
    assert r.root_relative_squared_error == pytest.approx(math.sqrt(2 / 3) / math.sqrt(5 / 3))
    # R^2 = 1 - SSE/SST with SST about the test mean 7/3: (16 + 1 + 25) / 9 = 42/9
    assert r.r2 == pytest.approx(1 - 2 / (42 / 9))
    # correlation of (1, 2, 4) with (2, 2, 3): covariance 5/3, variances 14/3 and 2/3
    assert r.correlation == pytest.approx((5 / 3) / math.sqrt(14 / 3 * 2 / 3))
    unknown = report([Predictions(np.array([1.0, 3.0]), np.array([2.0, 2.0]), None, (), (), np.zeros(0))])
    assert unknown.relative_absolute_error is None and unknown.mean_absolute_error == 1.0

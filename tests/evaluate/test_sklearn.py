"""The report against scikit-learn 1.9.1's metrics on generated data (numbers recorded; scikit-learn is not needed).

Recorded with accuracy_score, cohen_kappa_score, precision_recall_fscore_support
(per class, and average='weighted' / 'macro', zero_division=0) and, per class
one-vs-rest, roc_auc_score(actual == c, proba[:, c]); the predicted class is the
first most probable, as dtree and Weka choose it. The second data set has a
class that is never predicted (precision undefined: dtree None, scikit-learn 0,
and both count it as 0 in the averages).
"""

from __future__ import annotations

import numpy as np
import pytest

from dtcli.evaluate.predictions import Predictions
from dtcli.evaluate.report import report


def generated(n: int, k: int, seed: int, never: int | None = None):
    """(actual codes, probability rows): a 64-bit LCG (no library's random stream), scores in
    sevenths with many ties, the true class usually favoured; class ``never`` always scores 0."""
    state = seed
    actual, proba = [], []
    for _ in range(n):
        draws = []
        for _ in range(2 * k + 1):
            state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
            draws.append(state >> 33)
        truth = draws[0] % k
        raw = [draws[1 + c] % 7 + (3 if c == truth and draws[1 + k + c] % 3 else 0) for c in range(k)]
        if never is not None:
            raw[never] = 0
        total = sum(raw) or 1
        actual.append(truth)
        proba.append([r / total if sum(raw) else 1 / k for r in raw])
    return actual, proba


SKLEARN = {
    (200, 3, 12345, None): {
        "accuracy": 0.62,
        "kappa": 0.42715007160624097,
        "precision": [0.5681818181818182, 0.6290322580645161, 0.7],
        "recall": [0.704225352112676, 0.609375, 0.5384615384615384],
        "f1": [0.6289308176100629, 0.6190476190476191, 0.6086956521739131],
        "support": [71, 64, 65],
        "weighted": [0.6304948680351906, 0.62, 0.6191917653033322],
        "macro": [0.6324046920821115, 0.6173539635247381, 0.6188913629438649],
        "roc_auc": [0.7339229173490556, 0.7153607536764706, 0.785014245014245],
    },
    (60, 4, 99, 3): {
        "accuracy": 0.43333333333333335,
        "kappa": 0.20960867880666412,
        "precision": [0.4444444444444444, 0.3181818181818182, 0.6363636363636364, 0.0],
        "recall": [0.631578947368421, 0.4666666666666667, 0.4375, 0.0],
        "f1": [0.5217391304347826, 0.3783783783783784, 0.5185185185185185, 0.0],
        "support": [19, 15, 16, 10],
        "weighted": [0.38998316498316493, 0.43333333333333335, 0.39808359083721406],
        "macro": [0.3497474747474747, 0.3839364035087719, 0.35465900683291984],
        "roc_auc": [0.6277278562259306, 0.6637037037037037, 0.6704545454545455, 0.6],
    },
}


@pytest.mark.parametrize("case", SKLEARN, ids=str)
def test_report_equals_scikit_learn(case):
    n, k, seed, never = case
    actual, proba = generated(n, k, seed, never)
    proba = np.array(proba)
    classes = tuple("abcd"[:k])
    part = Predictions(np.array(actual), proba.argmax(axis=1), proba, classes, classes, np.ones(k))
    r = report([part])
    expected = SKLEARN[case]
    assert r.accuracy == pytest.approx(expected["accuracy"], abs=1e-12)
    assert r.kappa == pytest.approx(expected["kappa"], abs=1e-12)
    got = {
        "precision": [c.precision or 0.0 for c in r.per_class],
        "recall": [c.recall for c in r.per_class],
        "f1": [c.f_measure for c in r.per_class],
        "support": [c.support for c in r.per_class],
        "roc_auc": [c.roc_area for c in r.per_class],
    }
    for key, values in got.items():
        assert values == pytest.approx(expected[key], abs=1e-12), key
    assert [r.weighted.precision, r.weighted.recall, r.weighted.f_measure] == pytest.approx(expected["weighted"])
    assert [r.macro.precision, r.macro.recall, r.macro.f_measure] == pytest.approx(expected["macro"])
    if never is not None:
        assert r.per_class[never].precision is None  # no row predicted: undefined

"""scikit-learn's own estimator checks (``parametrize_with_checks``) on the four dtcli.sklearn estimators."""

from __future__ import annotations

import pytest

pytest.importorskip("sklearn")

from sklearn.utils.estimator_checks import parametrize_with_checks

from dtcli.sklearn import C45Classifier, CARTClassifier, CARTRegressor, ID3Classifier

# Every check applies and passes: none is expected to fail (a check that could not apply would be
# listed here, by estimator, with its reason).
EXPECTED_FAILURES: dict = {}


@parametrize_with_checks(
    [ID3Classifier(), C45Classifier(), CARTClassifier(), CARTRegressor()],
    expected_failed_checks=lambda estimator: EXPECTED_FAILURES.get(type(estimator).__name__, {}),
)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)

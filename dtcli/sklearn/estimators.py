"""``ID3Classifier``, ``C45Classifier``, ``CARTClassifier`` and ``CARTRegressor``: parameters are ``dtree train``'s."""

from __future__ import annotations

import numpy as np
from sklearn.base import ClassifierMixin, RegressorMixin

from dtcli.sklearn.base import TreeEstimator


class TreeClassifier(ClassifierMixin, TreeEstimator):
    """predict_proba and predict of the three classifiers."""

    class_order = "seen"

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities of each row, one column per class of ``classes_``, as ``dtree predict --proba``
        gives them (a missing or unseen value: the branches below summed, C4.5's way)."""
        internal = self._internal_proba(X)
        proba = np.empty_like(internal)
        proba[:, self.order_] = internal
        return proba

    def predict(self, X) -> np.ndarray:
        """The most probable class of each row (a tie: the first class in the model's order, as ``dtree predict``)."""
        internal = self._internal_proba(X)
        return self.classes_[self.order_[np.argmax(internal, axis=1)]]


class ID3Classifier(TreeClassifier):
    """Quinlan's ID3 (``dtree train -a id3``): information gain, one branch per nominal value.

    Unlike the command (which refuses numeric columns, as Weka's Id3 does), ``ID3Classifier`` cuts a
    numeric column in two at the midpoint of best gain (``thresholds="midpoint"``, Mitchell 3.7.2) by
    default; ``thresholds=None`` refuses them as the command does. On nominal columns the tree is the
    command's. Missing values need a ``missing`` policy other than ``reject`` (the default, as the
    command). Parameters left None keep the command's defaults; ``random_state`` is ``--seed``.

    >>> from dtcli.sklearn import ID3Classifier
    >>> X = [["Sunny", "High"], ["Sunny", "Normal"], ["Rain", "High"], ["Overcast", "High"]]
    >>> ID3Classifier().fit(X, ["No", "Yes", "Yes", "Yes"]).predict([["Sunny", "High"]])
    array(['No'], dtype='<U3')
    """

    algorithm = "id3"

    def __init__(
        self,
        *,
        criterion=None,
        thresholds="midpoint",
        max_depth=None,
        min_split=None,
        min_leaf=None,
        max_leaves=None,
        min_gain=None,
        purity=None,
        chi2_alpha=None,
        zero_gain=None,
        missing=None,
        prune=None,
        cf=None,
        holdout=None,
        ccp_alpha=None,
        class_weight=None,
        random_state=None,
        engine=None,
    ):
        self.criterion = criterion
        self.thresholds = thresholds
        self.max_depth = max_depth
        self.min_split = min_split
        self.min_leaf = min_leaf
        self.max_leaves = max_leaves
        self.min_gain = min_gain
        self.purity = purity
        self.chi2_alpha = chi2_alpha
        self.zero_gain = zero_gain
        self.missing = missing
        self.prune = prune
        self.cf = cf
        self.holdout = holdout
        self.ccp_alpha = ccp_alpha
        self.class_weight = class_weight
        self.random_state = random_state
        self.engine = engine


class C45Classifier(TreeClassifier):
    """C4.5 Release 8 as Weka's J48 (``dtree train -a c45``): the same tree the command grows on the same rows.

    Gain ratio, numeric thresholds with the MDL correction, fractional cases for missing values, -m 2
    (``min_leaf``), pessimistic pruning (``cf``, ``no_raise``, ``error_bound``; ``prune="none"`` is J48 -U).
    ``sample_weight`` weighs the cases as J48's instance weights do (J48 counts rows, not weights, in one
    place: a numeric attribute is cut only at a node of at least twice the minimum rows).

    >>> from dtcli.sklearn import C45Classifier
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> C45Classifier().fit(X, y).model_
    <dtcli.Model c45: 5 leaves, 9 nodes, depth 4>
    """

    algorithm = "c45"

    def __init__(
        self,
        *,
        criterion=None,
        thresholds=None,
        max_depth=None,
        min_split=None,
        min_leaf=None,
        max_leaves=None,
        min_gain=None,
        purity=None,
        chi2_alpha=None,
        missing=None,
        prune=None,
        cf=None,
        no_raise=None,
        error_bound=None,
        holdout=None,
        ccp_alpha=None,
        max_bins=None,
        class_weight=None,
        random_state=None,
        engine=None,
    ):
        self.criterion = criterion
        self.thresholds = thresholds
        self.max_depth = max_depth
        self.min_split = min_split
        self.min_leaf = min_leaf
        self.max_leaves = max_leaves
        self.min_gain = min_gain
        self.purity = purity
        self.chi2_alpha = chi2_alpha
        self.missing = missing
        self.prune = prune
        self.cf = cf
        self.no_raise = no_raise
        self.error_bound = error_bound
        self.holdout = holdout
        self.ccp_alpha = ccp_alpha
        self.max_bins = max_bins
        self.class_weight = class_weight
        self.random_state = random_state
        self.engine = engine


class CARTClassifier(TreeClassifier):
    """CART (``dtree train -a cart``): on numeric data, scikit-learn's DecisionTreeClassifier tree and
    probabilities for the same ``random_state`` (``criterion`` gini or entropy, ``max_depth``,
    ``min_split`` = min_samples_split, ``min_leaf`` = min_samples_leaf in weight, ``max_leaves`` =
    max_leaf_nodes, ``ccp_alpha``); nominal columns split as ``A in V``; a missing value follows the
    heavier branch (``missing="majority"``). ``classes_`` are in sorted order, as scikit-learn's.

    >>> from dtcli.sklearn import CARTClassifier
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> CARTClassifier(max_depth=2).fit(X, y).score(X, y)
    0.96
    """

    algorithm = "cart"
    class_order = "sorted"

    def __init__(
        self,
        *,
        criterion=None,
        max_depth=None,
        min_split=None,
        min_leaf=None,
        max_leaves=None,
        min_gain=None,
        purity=None,
        chi2_alpha=None,
        ties=None,
        missing=None,
        ccp_alpha=None,
        max_bins=None,
        class_weight=None,
        random_state=None,
        engine=None,
    ):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_split = min_split
        self.min_leaf = min_leaf
        self.max_leaves = max_leaves
        self.min_gain = min_gain
        self.purity = purity
        self.chi2_alpha = chi2_alpha
        self.ties = ties
        self.missing = missing
        self.ccp_alpha = ccp_alpha
        self.max_bins = max_bins
        self.class_weight = class_weight
        self.random_state = random_state
        self.engine = engine


class CARTRegressor(RegressorMixin, TreeEstimator):
    """CART regression (``dtree train -a cart --task regression``): scikit-learn's DecisionTreeRegressor
    tree on numeric data for the same ``random_state``; each leaf predicts its mean.

    >>> from dtcli.sklearn import CARTRegressor
    >>> CARTRegressor().fit([[1.0], [2.0], [10.0], [11.0]], [1.0, 1.0, 5.0, 7.0]).predict([[1.5], [11.0]])
    array([1., 7.])
    """

    algorithm = "cart"
    regression = True

    def __init__(
        self,
        *,
        max_depth=None,
        min_split=None,
        min_leaf=None,
        max_leaves=None,
        min_gain=None,
        ties=None,
        missing=None,
        ccp_alpha=None,
        max_bins=None,
        random_state=None,
        engine=None,
    ):
        self.max_depth = max_depth
        self.min_split = min_split
        self.min_leaf = min_leaf
        self.max_leaves = max_leaves
        self.min_gain = min_gain
        self.ties = ties
        self.missing = missing
        self.ccp_alpha = ccp_alpha
        self.max_bins = max_bins
        self.random_state = random_state
        self.engine = engine

    def predict(self, X) -> np.ndarray:
        """The predicted number of each row: the mean of its leaf (weighted over leaves for a missing value)."""
        return self._internal_proba(X)[:, 0]

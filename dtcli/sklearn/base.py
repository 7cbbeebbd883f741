"""What the four scikit-learn estimators share: input checks, the training Table, fitting, prediction."""

from __future__ import annotations

import numbers
import warnings

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted, validate_data

from dtcli.api.data import categories, column_kind, encode_column, encode_for, is_frame, warn_all
from dtcli.api.model import Model
from dtcli.errors import DataError, DtreeWarning, ParameterError
from dtcli.induction.importance import importances
from dtcli.induction.weights import BALANCED, case_weights, check_class_weights, class_factors
from dtcli.model.table import NOMINAL, NUMERIC, Attribute, Schema, Table

SOURCE = "<X>"
# estimator parameter -> the command's option (the rest are spelt alike)
RENAMED = {"random_state": "seed"}
NOT_OPTIONS = ("class_weight",)


class TreeEstimator(BaseEstimator):
    """A dtree algorithm as a scikit-learn estimator; subclasses set ``algorithm`` and their parameters."""

    algorithm = "id3"
    regression = False

    def _options(self) -> dict:
        """The commands' options of the parameters (``random_state``: the command's ``--seed``)."""
        from dtcli.api.options import checked

        options = {}
        for name, value in self.get_params(deep=False).items():
            if name in NOT_OPTIONS or value is None:
                continue
            options[RENAMED.get(name, name)] = value
        options["seed"] = seed_of(self.get_params(deep=False).get("random_state"))
        options["task"] = "regression" if self.regression else "classification"
        return checked(options)

    def _missing_allowed(self) -> bool:
        missing = getattr(self, "missing", None)
        return missing != "reject" and not (missing is None and self.algorithm == "id3")

    def _check_X(self, X, reset: bool, y=None):
        finite = "allow-nan" if self._missing_allowed() else True
        kwargs = {"reset": reset, "dtype": None, "ensure_all_finite": finite}
        if y is None:
            return validate_data(self, X, **kwargs)
        return validate_data(self, X, y, y_numeric=self.regression, **kwargs)

    def _names(self) -> list[str]:
        names = getattr(self, "feature_names_in_", None)
        return [str(n) for n in names] if names is not None else [f"x{j}" for j in range(self.n_features_in_)]

    def fit(self, X, y, sample_weight=None):
        """Grow the tree on ``X`` (numbers; text, bool or category columns are nominal attributes; NaN
        and None are missing values) and ``y``; ``sample_weight`` weighs each row: whole-number weights
        count as copies (weight k: k copies of the row, 0: the row left out); weights that are not all
        whole numbers are relative, scaled to sum to the number of rows (as Weka's AdaBoostM1 gives J48
        its weights), so that ``min_leaf`` and ``min_split`` still count rows. ``class_weight`` multiplies
        them as scikit-learn defines it. Returns ``self``.

        Raises ValueError (a ``dtcli.DtreeError`` when dtree refuses the data or a parameter, with the
        command's message).
        """
        if y is None:
            raise ValueError(f"{type(self).__name__} requires y to be passed, but the target y is None")
        declared = categories(X) if is_frame(X) else {}  # (a DataFrame's categories, before it becomes an array)
        y_declared = getattr(getattr(y, "dtype", None), "categories", None)
        X, y = self._check_X(X, True, y)
        weights = row_weights(sample_weight, len(y))
        y, target = self._target(y, None if y_declared is None else list(y_declared))
        class_weight = self._class_weight()
        if class_weight is not None:
            weights = weights * class_factors(target, len(self.order_), class_weight[0])
        kept, w = case_weights(weights)
        if not kept.any():
            raise ValueError("the sample weights are all zero: there is nothing to learn from")
        attributes, columns = [], []
        for name, j in zip(self._names(), range(X.shape[1])):
            column = X[kept, j]
            nominal = column.dtype.kind in "bUS" or (column.dtype.kind == "O" and column_kind(column) == NOMINAL)
            attribute, values, _ = encode_column(name, column, nominal, SOURCE, declared.get(name))
            attributes.append(attribute)
            columns.append(values)
        y_codes = target[kept]
        table = Table(Schema(tuple(attributes), self.target_attribute_), columns, y_codes, w, source=SOURCE)
        from dtcli.api.options import algorithm_name, learner

        options = self._options()
        tree, messages = learner(algorithm_name(self.algorithm), options, table).fit(table)
        with warnings.catch_warnings():
            warnings.simplefilter("always", DtreeWarning)
            warn_all(messages)
        if class_weight is not None:
            tree.parameters["class_weight"] = class_weight[1]
        self.tree_ = tree
        self.model_ = Model(tree, None if self.regression else [self.classes_[k] for k in self.order_])
        return self

    def _class_weight(self):
        """(``class_weight`` by internal class code, as the model records it: "balanced" or {class: weight}),
        or None without one; ValueError for a dict that names a class y lacks (scikit-learn's rule)."""
        class_weight = getattr(self, "class_weight", None)
        if class_weight is None or self.regression:
            return None
        if isinstance(class_weight, str) and class_weight == BALANCED:
            return BALANCED, BALANCED
        if not isinstance(class_weight, dict):
            raise ValueError(f"class_weight must be 'balanced', a dict or None, got {class_weight!r}")
        labels = self.classes_.tolist()
        unnamed = [c for c in labels if c not in class_weight]
        if unnamed and len(labels) - len(unnamed) != len(class_weight):
            raise ValueError(f"The classes, {unnamed}, are not in class_weight")
        check_class_weights(class_weight)
        codes = {code: class_weight[labels[k]] for code, k in enumerate(self.order_) if labels[k] in class_weight}
        return codes, {str(labels[k]): float(class_weight[labels[k]]) for k in self.order_ if labels[k] in class_weight}

    def _target(self, y, declared=None):
        """(y, the table's target column); sets the target Attribute (and the classes for a classifier, in the
        order of ``declared`` (a category's categories) when given and the classes are not sorted)."""
        if self.regression:
            self.target_attribute_ = Attribute("y", NUMERIC)
            return y, np.asarray(y, dtype=np.float64)
        from sklearn.utils.multiclass import check_classification_targets

        check_classification_targets(y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        self.n_classes_ = len(self.classes_)
        if self.class_order == "sorted":
            self.order_ = np.arange(self.n_classes_)
            internal = codes
        else:  # the order a file lists them in, as dtree train reads it: declared, else the first seen first
            _, first = np.unique(codes, return_index=True)
            if declared is not None:
                place = {value: k for k, value in enumerate(declared)}
                first = np.array([place.get(c, len(place)) for c in self.classes_.tolist()])
            self.order_ = np.argsort(first, kind="stable")
            rank = np.empty(self.n_classes_, dtype=np.int64)
            rank[self.order_] = np.arange(self.n_classes_)
            internal = rank[codes]
        names = tuple(str(self.classes_[k]) for k in self.order_)
        if len(set(names)) != len(names):
            raise DataError(f"{SOURCE}: two classes of y read the same as text ({', '.join(names)})")
        self.target_attribute_ = Attribute("y", NOMINAL, names)
        return y, internal.astype(np.int32)

    def _table(self, X) -> Table:
        check_is_fitted(self, "tree_")
        X = self._check_X(X, False)
        schema = self.tree_.schema
        columns = [encode_for(a, X[:, j], SOURCE) for j, a in enumerate(schema.attributes)]
        y = np.full(X.shape[0], np.nan) if self.regression else np.full(X.shape[0], -1, dtype=np.int32)
        return Table(schema, columns, y, source=SOURCE)

    def _internal_proba(self, X) -> np.ndarray:
        from dtcli.induction.predict.apply import predict_proba

        table = self._table(X)  # (first: it checks that the estimator is fitted)
        return predict_proba(self.tree_, table)

    @property
    def feature_importances_(self) -> np.ndarray:
        """Each attribute's weighted impurity decrease over the splits on it, summed and normalised to
        sum 1 (scikit-learn's definition), in the algorithm's own measure: entropy for id3 and c45 (and
        cart with criterion entropy), Gini for cart, the squared error for a regression tree. A tree
        that is one leaf gives zeros."""
        check_is_fitted(self, "tree_")
        return importances(self.tree_)

    def _html_repr(self) -> str:
        """scikit-learn's box (the parameters), and once fitted the tree's picture under it."""
        from sklearn.utils import estimator_html_repr

        box = estimator_html_repr(self)
        if not hasattr(self, "tree_"):
            return box
        picture = self.model_.to_svg()
        return f'{box}\n<div style="overflow-x: auto">{picture[picture.index("<svg") :]}</div>'

    def _repr_mimebundle_(self, **kwargs):
        """scikit-learn's (text, and HTML unless its display is "text"), and the picture as SVG once fitted."""
        bundle = super()._repr_mimebundle_(**kwargs)
        if hasattr(self, "tree_"):
            bundle["image/svg+xml"] = self.model_.to_svg()
        return bundle

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = self._missing_allowed()
        tags.input_tags.string = True
        tags.input_tags.categorical = True
        return tags


def seed_of(random_state) -> int:
    """The command's --seed of a ``random_state``: an int as it is, None as 0 (dtree is deterministic), a
    RandomState's next number."""
    if random_state is None:
        return 0
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        return int(random_state)
    if isinstance(random_state, np.random.RandomState):
        return int(random_state.randint(np.iinfo(np.int32).max))
    raise ParameterError(f"random_state must be an int, None or a numpy RandomState, got {random_state!r}")


def row_weights(sample_weight, n: int) -> np.ndarray:
    """The rows' weights: ones without ``sample_weight``; ValueError unless finite, at least 0, one a row."""
    if sample_weight is None:
        return np.ones(n, dtype=np.float64)
    if isinstance(sample_weight, numbers.Number):
        weights = np.full(n, float(sample_weight))
    else:
        weights = np.asarray(sample_weight, dtype=np.float64)
    if weights.ndim != 1 or len(weights) != n:
        raise ValueError(f"sample_weight.shape == {weights.shape}, expected ({n},)")
    if not np.isfinite(weights).all() or (weights < 0).any():
        raise ValueError("sample_weight must be finite and at least 0")
    return weights

"""Case and class weights as the estimators' ``sample_weight``/``class_weight`` and train's --weights apply them."""

from __future__ import annotations

import numpy as np

from dtcli.errors import ParameterError

BALANCED = "balanced"


def class_factors(y: np.ndarray, n_classes: int, class_weight) -> np.ndarray:
    """Each row's class weight, as scikit-learn's ``compute_sample_weight`` defines it: ``balanced`` gives
    a row of class c ``n / (k * count(c))`` (n labelled rows, k classes that occur among them); a dict
    ``{class code: weight}`` gives its weight (a class it does not name: 1). A row without a class
    (``y`` < 0): 1."""
    y = np.asarray(y)
    factors = np.ones(len(y), dtype=np.float64)
    labelled = y >= 0
    if class_weight == BALANCED:
        counts = np.bincount(y[labelled].astype(np.int64), minlength=n_classes)
        present = int((counts > 0).sum())
        per_class = np.zeros(n_classes, dtype=np.float64)
        seen = counts > 0
        per_class[seen] = labelled.sum() / (present * counts[seen].astype(np.float64))
    else:
        per_class = np.ones(n_classes, dtype=np.float64)
        for code, weight in class_weight.items():
            per_class[code] = float(weight)
    factors[labelled] = per_class[y[labelled].astype(np.int64)]
    return factors


def check_class_weights(class_weight: dict) -> None:
    """A class weight must be a finite number of at least 0 (ParameterError)."""
    for name, weight in class_weight.items():
        if not np.isfinite(weight) or weight < 0:
            raise ParameterError(f"class weight of {name!r} must be a finite number of at least 0, got {weight!r}")


def case_weights(weights: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """(the rows kept: weight above 0, their weights for the Table or None when all are 1). Whole-number
    weights count as copies of a row; weights that are not all whole numbers are relative: scaled to sum to
    the number of rows kept (as Weka's AdaBoostM1 hands J48 its weights), so that --min-leaf and
    --min-split still count rows."""
    kept = weights > 0
    w = weights[kept].astype(np.float64)
    if not np.all(w == np.floor(w)):
        w *= len(w) / w.sum()
    return kept, None if np.all(w == 1.0) else w


def parse_class_weight(text: str, classes=None) -> dict | str:
    """--class-weight's text: ``balanced``, or ``CLASS=W,CLASS=W`` as {class: weight}, each a class of
    ``classes`` (the target's values) when given; ParameterError naming what is wrong."""
    if text.strip() == BALANCED:
        return BALANCED
    found: dict = {}
    for part in text.split(","):
        name, equals, number = part.rpartition("=")
        name = name.strip()
        if not equals or not name:
            raise ParameterError(f"--class-weight {text!r}: give balanced or CLASS=W,CLASS=W (e.g. yes=2,no=1)")
        if classes is not None and name not in classes:
            raise ParameterError(f"--class-weight: no class {name!r} in the target; classes are: {', '.join(classes)}")
        try:
            weight = float(number)
        except ValueError:
            raise ParameterError(
                f"--class-weight: the weight of {name!r} is not a number: {number.strip()!r}"
            ) from None
        if name in found:
            raise ParameterError(f"--class-weight: class {name!r} is given twice")
        found[name] = weight
    check_class_weights(found)
    return found


def weigh(table, weights, class_weight, again):
    """(``table`` with its rows' weights, the rows kept or None when all are): the case ``weights`` (None:
    1 each) times the class weights of ``class_weight`` (None, ``balanced`` or {class: weight}, checked),
    scaled by ``case_weights``. Rows of weight 0 are left out: ``again(kept)`` makes the table of the rows
    kept, as if they alone had been read (a value or class only they had is not the tree's)."""
    from dtcli.errors import DataError

    weights = np.ones(table.n_rows) if weights is None else np.asarray(weights, dtype=np.float64)
    if class_weight is not None:
        if table.is_regression:
            raise ParameterError("class weights weigh classes: a regression has none (leave out --class-weight)")
        if class_weight != BALANCED:
            unknown = [name for name in class_weight if name not in table.classes]
            if unknown:
                classes = ", ".join(table.classes)
                raise ParameterError(f"class weight of {unknown[0]!r}: no such class; classes are: {classes}")
            check_class_weights(class_weight)
            class_weight = {table.classes.index(name): w for name, w in class_weight.items()}
        weights = weights * class_factors(table.y, len(table.classes), class_weight)
    kept, w = case_weights(weights)
    if not kept.any():
        raise DataError(f"{table.source}: every row's weight is 0: there is nothing to learn from")
    table = table if kept.all() else again(kept)
    if w is not None:
        table.weights = w
    return table, None if kept.all() else kept


def recorded(column, class_weight) -> dict:
    """The model's parameters of a weighting: ``weights`` (the column) and ``class_weight`` (balanced or
    {class: weight}), each only when given."""
    found = {} if column is None else {"weights": column}
    if class_weight is not None:
        found["class_weight"] = (
            class_weight if class_weight == BALANCED else {str(k): float(v) for k, v in class_weight.items()}
        )
    return found

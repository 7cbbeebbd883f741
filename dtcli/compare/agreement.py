"""How often two models predict the same for the rows of a table (``dtree diff --data``).

Each model predicts as ``dtree predict`` does (a tree: the most probable class, missing values
sent down as the model says; a rule set: the first rule that fires, else the default). Classes
are compared by name, so the models' class orders do not matter; regression predictions agree
when they are equal within the count tolerance (``Tolerance.same_count``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dtcli.compare.findings import COUNT_NOISE, EXACT, Tolerance
from dtcli.model.rules import RuleSet
from dtcli.model.table import Table


@dataclass(frozen=True)
class Agreement:
    """``same`` of ``rows`` rows predicted alike."""

    rows: int
    same: int

    @property
    def share(self) -> float | None:
        return self.same / self.rows if self.rows else None


def predictions(model, table: Table) -> np.ndarray:
    """What ``model`` (a Tree or a RuleSet) predicts for each row: class names, or values (regression)."""
    if isinstance(model, RuleSet):
        from dtcli.induction.rules import predict_rules

        codes = predict_rules(model, table)[0]
        if model.schema.is_regression:
            return codes  # the values
    else:
        from dtcli.induction.predict.apply import predict_proba

        proba = predict_proba(model, table)
        if model.schema.is_regression:
            return proba[:, 0]
        codes = proba.argmax(axis=1)
    return np.asarray(model.classes, dtype=object)[codes] if len(codes) else np.array([], dtype=object)


def agreement(a, table_a: Table, b, table_b: Table, tolerance: Tolerance = EXACT) -> Agreement:
    """How many rows ``a`` (applied to ``table_a``) and ``b`` (to ``table_b``: the same rows encoded
    with ``b``'s schema) predict alike."""
    left, right = predictions(a, table_a), predictions(b, table_b)
    if left.dtype == object or right.dtype == object:
        if left.dtype != right.dtype:  # a class against a number: never alike
            return Agreement(len(left), 0)
        return Agreement(len(left), int(np.sum(left == right)))
    noise = tolerance.counts + COUNT_NOISE * np.maximum(np.abs(left), np.abs(right))
    return Agreement(len(left), int(np.sum(np.abs(left - right) <= noise)))

"""The order in which scikit-learn's tree builder visits attributes (CART's ties).

scikit-learn draws the attributes of every node in a random order (a
Fisher-Yates shuffle from its own xorshift generator, seeded from
``random_state``), skips attributes already known or found to be constant,
and keeps the first split whose score is strictly better. When two
attributes tie, the earlier one in that order wins. ``SklearnOrder``
reproduces that order, written from the algorithm's description (the
generator, the constant-attribute bookkeeping, and the depth-first, left
first order of the nodes), so that ``--algorithm cart`` grows the same tree
as ``DecisionTreeClassifier(random_state=seed)``/``DecisionTreeRegressor``
even where attributes tie. The nodes must be visited depth first, left
child first; the generator's state carries from node to node.

``cart/kernels/order.py`` is its deliberate compiled twin (the CART builders' ``visit``), written
alike line for line so the two read side by side: a change to one is a change to both.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.criteria.constants import FEATURE_THRESHOLD, RAND_R_MAX
from dtcli.induction.criteria.midpoint_single import LARGEST_SINGLE
from dtcli.model.table import Table


class SklearnOrder:
    """Attribute visiting order shared by all the nodes of one tree."""

    def __init__(self, n_features: int, seed: int):
        self.state = int(np.random.RandomState(seed).randint(0, RAND_R_MAX))
        self.features = list(range(n_features))
        self.constant = list(range(n_features))

    def _rand_int(self, low: int, high: int) -> int:
        s = self.state or 1
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        self.state = s
        return low + (s % (RAND_R_MAX + 1)) % (high - low)

    def visit(self, node: Table, n_known: int) -> tuple[list[int], int]:
        """(attributes to evaluate, in order; constant count for the children)."""
        features, d = self.features, len(self.features)
        f_i, n_found, n_drawn, n_total, visited = d, 0, 0, n_known, 0
        order = []
        while f_i > n_total and (visited < d or visited <= n_found + n_drawn):
            visited += 1
            f_j = self._rand_int(n_drawn, f_i - n_found)
            if f_j < n_known:
                features[n_drawn], features[f_j] = features[f_j], features[n_drawn]
                n_drawn += 1
                continue
            f_j += n_found
            if is_constant(node, features[f_j]):
                features[f_j], features[n_total] = features[n_total], features[f_j]
                n_found += 1
                n_total += 1
                continue
            f_i -= 1
            features[f_i], features[f_j] = features[f_j], features[f_i]
            order.append(features[f_i])
        features[:n_known] = self.constant[:n_known]
        self.constant[n_known : n_known + n_found] = features[n_known : n_known + n_found]
        return order, n_total


def is_constant(node: Table, i: int) -> bool:
    """No split possible: one known value (numbers within 1e-7, in single precision)."""
    column = node.columns[i]
    if node.attributes[i].is_nominal:
        known = column[column >= 0]
        return len(known) == 0 or known.min() == known.max()
    values = single(column[~np.isnan(column)])
    return len(values) == 0 or values.max() <= values.min() + FEATURE_THRESHOLD


def single(values: np.ndarray) -> np.ndarray:
    """Numbers as scikit-learn holds them: rounded to single precision; beyond its range (which
    scikit-learn refuses), the largest single-precision number of their sign (NaN stays NaN)."""
    return np.clip(values, -LARGEST_SINGLE, LARGEST_SINGLE).astype(np.float32).astype(np.float64)

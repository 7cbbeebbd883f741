"""scikit-learn's attribute visiting order, compiled: the deliberate twin of ``search/ties.py: SklearnOrder``.

The generator, the Fisher-Yates draws and the constant-attribute
bookkeeping, step for step as ``SklearnOrder.visit`` and ``is_constant``
do them (the loops are written alike on purpose, so that the two can be
read side by side; a change to one is a change to both), on the CART
builders' data layout (``grow.py``).
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.cart.kernels.scan import values_of
from dtcli.induction.criteria.constants import FEATURE_THRESHOLD, RAND_R_MAX
from dtcli.induction.kernels.jit import kernel


@kernel
def _rand_int(state, low, high):
    s = state[0]
    if s == 0:
        s = 1
    s ^= (s << 13) & 0xFFFFFFFF
    s ^= s >> 17
    s ^= (s << 5) & 0xFFFFFFFF
    state[0] = s
    return low + (s % (RAND_R_MAX + 1)) % (high - low)


@kernel(inline="always")  # no structures passed per call
def _constant(a, columns, arena, node):
    """``search/ties.py: is_constant`` at a node (``arena.codes``: the node's rows' nominal codes, by position)."""
    if columns.is_nominal[a]:
        first = -1
        for i in range(node.rs, node.re):
            code = arena.codes[columns.slot[a], i]
            if code >= 0:
                if first < 0:
                    first = code
                elif code != first:
                    return False
        return True
    s = columns.slot[a]
    ls, le = node.ls, node.le
    if le[s] <= ls[s]:
        return True
    distinct, _ = values_of(columns, s)  # the values as compared, by rank
    low, high = distinct[arena.ranks[s, ls[s]]], distinct[arena.ranks[s, le[s] - 1]]
    return high <= low + FEATURE_THRESHOLD


@kernel(inline="always")  # no structures passed per call
def visit(order, n_known, columns, arena, node, found):
    """``SklearnOrder.visit`` (``order``: a ``state.Order``): the attributes to evaluate in order,
    and the constant count. ``found`` empty: whether an attribute is constant at the node is read
    from its rows; else ``found[a]`` says it (replayed: ``speculate.py``)."""
    state, features, constant = order.state, order.features, order.constant
    d = features.shape[0]
    f_i, n_found, n_drawn, n_total, visited = d, 0, 0, n_known, 0
    chosen = np.empty(d, dtype=np.int64)
    n_chosen = 0
    while f_i > n_total and (visited < d or visited <= n_found + n_drawn):
        visited += 1
        f_j = _rand_int(state, n_drawn, f_i - n_found)
        if f_j < n_known:
            features[n_drawn], features[f_j] = features[f_j], features[n_drawn]
            n_drawn += 1
            continue
        f_j += n_found
        if found[features[f_j]] if found.shape[0] else _constant(features[f_j], columns, arena, node):
            features[f_j], features[n_total] = features[n_total], features[f_j]
            n_found += 1
            n_total += 1
            continue
        f_i -= 1
        features[f_i], features[f_j] = features[f_j], features[f_i]
        chosen[n_chosen] = features[f_i]
        n_chosen += 1
    for i in range(n_known):
        features[i] = constant[i]
    for i in range(n_known, n_known + n_found):
        constant[i] = features[i]
    return chosen[:n_chosen], n_total


@kernel
def attribute_order(order, columns, arena, node):
    """The attributes to score at ``node``, in scikit-learn's random order (``order.exact``) or in
    column order, and the count of attributes known to be constant."""
    if order.exact:
        return visit(order, node.n_const, columns, arena, node, np.zeros(0, dtype=np.bool_))
    return np.arange(columns.is_nominal.shape[0], dtype=np.int64), node.n_const


@kernel
def replay_order(order, columns, arena, node, found):
    """``attribute_order`` at ``node`` without reading its rows: the attributes newly found
    constant there are ``found`` (recorded when the node was decided ahead of its turn)."""
    if order.exact:
        return visit(order, node.n_const, columns, arena, node, found)
    return np.arange(columns.is_nominal.shape[0], dtype=np.int64), node.n_const
